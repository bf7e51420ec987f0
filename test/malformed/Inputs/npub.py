"""Writes malformed variants of a valid .npub file: npub.py VALID OUTDIR.
Each variant is named after what is wrong with it."""
import os
import struct
import sys

valid = open(sys.argv[1], "rb").read()
out = sys.argv[2]
os.makedirs(out, exist_ok=True)


def put(name, data):
    with open(os.path.join(out, name + ".npub"), "wb") as f:
        f.write(data)


def patched(offset, fmt, value):
    data = bytearray(valid)
    struct.pack_into(fmt, data, offset, value)
    return bytes(data)


put("empty", b"")
put("truncated-header", valid[:3])
put("header-only", valid[:63])
put("bad-magic", b"XPUB" + valid[4:])
put("major-version", patched(4, "<H", 9))
put("truncated-body", valid[:len(valid) // 2])
put("header-size", patched(8, "<I", 65))
