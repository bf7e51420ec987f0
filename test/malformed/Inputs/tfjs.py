"""Writes malformed variants of a small TF.js graph model (y = x @ w, with
an int32 weight b beside): tfjs.py OUTDIR. Each variant is a directory
OUTDIR/<name> holding model.json and its weight shard(s), named after what
is wrong with it."""
import base64
import copy
import json
import os
import struct
import sys

out = sys.argv[1]


def dims(*sizes):
    return {"dim": [{"size": str(s)} for s in sizes]}


BASE = {
    "format": "graph-model",
    "modelTopology": {"node": [
        {"name": "x", "op": "Placeholder",
         "attr": {"dtype": {"type": "DT_FLOAT"}, "shape": {"shape": dims(1, 2)}}},
        {"name": "w", "op": "Const",
         "attr": {"dtype": {"type": "DT_FLOAT"},
                  "value": {"tensor": {"dtype": "DT_FLOAT", "tensorShape": dims(2, 3)}}}},
        {"name": "b", "op": "Const",
         "attr": {"dtype": {"type": "DT_INT32"},
                  "value": {"tensor": {"dtype": "DT_INT32", "tensorShape": dims(3)}}}},
        {"name": "m", "op": "MatMul", "input": ["x", "w"],
         "attr": {"T": {"type": "DT_FLOAT"}}},
        {"name": "y", "op": "Identity", "input": ["m"],
         "attr": {"T": {"type": "DT_FLOAT"}}},
    ], "versions": {"producer": 1000}},
    "weightsManifest": [{"paths": ["w.bin"], "weights": [
        {"name": "w", "shape": [2, 3], "dtype": "float32"},
        {"name": "b", "shape": [3], "dtype": "int32"}]}],
    "signature": {"inputs": {"x:0": {"name": "x:0", "dtype": "DT_FLOAT", "tensorShape": dims(1, 2)}},
                  "outputs": {"y:0": {"name": "y:0", "dtype": "DT_FLOAT"}}},
}
SHARD = struct.pack("<6f", *range(6)) + struct.pack("<3i", 1, 2, 3)


def write(name, model, shards=None, text=None):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.json"), "w") as f:
        f.write(text if text is not None else json.dumps(model))
    for path, data in (shards if shards is not None else {"w.bin": SHARD}).items():
        with open(os.path.join(d, path), "wb") as f:
            f.write(data)


def variant(name, edit, shards=None):
    model = copy.deepcopy(BASE)
    edit(model)
    write(name, model, shards)


nodes = lambda m: m["modelTopology"]["node"]
weights = lambda m: m["weightsManifest"][0]["weights"]
node = lambda m, n: next(x for x in nodes(m) if x["name"] == n)

# JSON itself.
write("empty-file", None, text="")
write("not-an-object", None, text="[1, 2]")
write("trailing-garbage", None, text=json.dumps(BASE) + " }")
write("truncated-json", None, text=json.dumps(BASE)[:200])
write("nul-byte", None, text=json.dumps(BASE)[:50] + "\0" + json.dumps(BASE)[50:])
variant("no-topology", lambda m: m.pop("modelTopology"))
variant("topology-not-object", lambda m: m.update(modelTopology=[1]))
variant("node-not-object", lambda m: nodes(m).append(7))
variant("weights-not-list", lambda m: m.update(weightsManifest={"paths": []}))
variant("shape-not-list", lambda m: weights(m)[0].update(shape="2,3"))
# Weights and shards.
variant("missing-shard-file", lambda m: None, shards={})
variant("short-shard", lambda m: None, shards={"w.bin": SHARD[:20]})
variant("empty-shard", lambda m: None, shards={"w.bin": b""})
variant("long-shard", lambda m: None, shards={"w.bin": SHARD + b"\0" * 8})
variant("shard-is-directory", lambda m: m["weightsManifest"][0].update(paths=["."]))
variant("no-paths", lambda m: m["weightsManifest"][0].update(paths=[]))
variant("absolute-path", lambda m: m["weightsManifest"][0].update(paths=["/nonexistent/w.bin"]))
variant("weight-shape-mismatch", lambda m: weights(m)[0].update(shape=[3, 2]))
variant("weight-rank-mismatch", lambda m: weights(m)[0].update(shape=[6]))
variant("weight-huge-dims", lambda m: weights(m)[0].update(shape=[4294967296, 4294967296, 2]))
variant("weight-huge-dim", lambda m: weights(m)[0].update(shape=[1 << 40]))
variant("weight-float-dim", lambda m: weights(m)[0].update(shape=[2.5, 3]))
variant("weight-dtype-int32", lambda m: weights(m)[0].update(dtype="int32"))
variant("weight-dtype-bool", lambda m: weights(m)[1].update(dtype="bool"))
variant("weight-dtype-missing", lambda m: weights(m)[0].pop("dtype"))
variant("weight-name-missing", lambda m: weights(m)[0].pop("name"))
variant("quant-uint8-short", lambda m: weights(m)[0].update(quantization={"dtype": "uint8", "scale": 0.5, "min": 0}),
        shards={"w.bin": b"\1" * 5})
variant("quant-float16-short", lambda m: weights(m)[0].update(quantization={"dtype": "float16"}),
        shards={"w.bin": b"\0" * 11})
variant("string-weight-short", lambda m: (node(m, "b")["attr"].update(dtype={"type": "DT_STRING"}, value={"tensor": {"dtype": "DT_STRING", "tensorShape": dims(3)}}), weights(m)[1].update(dtype="string")),
        shards={"w.bin": struct.pack("<6f", *range(6)) + struct.pack("<I", 100) + b"ab"})
# Graph.
variant("base64-bad-padding", lambda m: node(m, "y")["attr"].update(_s={"s": "QUJD="}))
variant("tensor-content-bad-base64", lambda m: node(m, "b")["attr"]["value"]["tensor"].update(tensorContent="***"))
variant("tensor-content-short", lambda m: (weights(m).pop(1), node(m, "b")["attr"]["value"]["tensor"].update(tensorContent=base64.b64encode(b"\1\0\0\0").decode())))
variant("dangling-input", lambda m: node(m, "y").update(input=["nothere"]))
variant("dangling-control", lambda m: node(m, "y").update(input=["m", "^nothere"]))
variant("output-index", lambda m: node(m, "y").update(input=["m:4"]))
variant("duplicate-node", lambda m: nodes(m).append(copy.deepcopy(node(m, "y"))))
variant("cycle", lambda m: node(m, "m").update(input=["y", "w"]))
variant("attr-T-contradicts", lambda m: node(m, "y")["attr"].update(T={"type": "DT_INT32"}))
variant("matmul-int-weight", lambda m: node(m, "m").update(input=["x", "b"]))
variant("too-many-inputs", lambda m: node(m, "y").update(input=["m", "m"]))
variant("placeholder-negative", lambda m: node(m, "x")["attr"]["shape"].update(shape=dims(1, -4)))
variant("placeholder-overflow", lambda m: (node(m, "x")["attr"]["shape"].update(shape=dims(4294967296, 4294967296)), m["signature"]["inputs"]["x:0"].pop("tensorShape")))
variant("signature-negative", lambda m: m["signature"]["inputs"]["x:0"].update(tensorShape=dims(1, -9)))
variant("signature-unknown-input", lambda m: m["signature"]["inputs"].update({"q:0": {"name": "q:0", "dtype": "DT_FLOAT"}}))
variant("signature-unknown-output", lambda m: m["signature"]["outputs"].update({"z:0": {"name": "z:0", "dtype": "DT_FLOAT"}}))
variant("signature-output-index", lambda m: m["signature"].update(outputs={"y:3": {"name": "y:3", "dtype": "DT_FLOAT"}}))
variant("signature-dtype-mismatch", lambda m: m["signature"]["inputs"]["x:0"].update(dtype="DT_INT32"))
variant("signature-shape-mismatch", lambda m: m["signature"]["inputs"]["x:0"].update(tensorShape=dims(1, 5)))
