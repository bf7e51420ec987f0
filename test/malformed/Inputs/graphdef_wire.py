"""Writes malformed binary GraphDefs, byte by byte: graphdef_wire.py OUTDIR.
Each file is named after what is wrong with it."""
import os
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)


def varint(n):
    data = b""
    while True:
        low, n = n & 0x7F, n >> 7
        if not n:
            return data + bytes([low])
        data += bytes([low | 0x80])


def field(number, payload):
    """A length-delimited field."""
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def put(name, data):
    with open(os.path.join(out, name + ".pb"), "wb") as f:
        f.write(data)


# GraphDef.node is field 1; NodeDef.name 1, op 2, attr 5 (map: key 1,
# value 2); AttrValue.func 10; NameAttrList.name 1, attr 2.
put("varint-too-long", b"\x0a" + b"\xff" * 10 + b"\x01")
# A node whose op field claims 64 bytes inside a 6-byte node.
put("field-overruns-node", field(1, field(1, "x") + b"\x12\x40op"))
# Function-valued attributes nested 200 deep: beyond protobuf's recursion
# limit of 100.
value = b""
for _ in range(200):
    value = field(10, field(1, "f") + field(2, field(1, "a") + field(2, value)))
put("nested-too-deep", field(1, field(1, "x") + field(2, "Placeholder") +
                             field(5, field(1, "deep") + field(2, value))))
# A node name that is not UTF-8 (string fields must be).
put("name-not-utf8", field(1, field(1, b"\xff\xfe") + field(2, "NoOp")))
# A group start (wire type 3) that never ends.
put("open-group", b"\x0b")
# A length prefix that is not followed by its bytes at the end of a file.
put("length-at-end", field(1, field(1, "x") + field(2, "NoOp"))[:-3])
