"""Copies a checkpointed MetaGraph directory (model.ckpt.meta, .index,
.data-00000-of-00001) once per kind of damage: damage.py GOOD OUTDIR
writes OUTDIR/<damage>/ for each damage below."""
import os
import shutil
import sys

good, out = sys.argv[1], sys.argv[2]
DATA = "model.ckpt.data-00000-of-00001"
INDEX = "model.ckpt.index"
META = "model.ckpt.meta"


def variant(name, path, edit):
    target = os.path.join(out, name)
    shutil.copytree(good, target)
    full = os.path.join(target, path)
    data = open(full, "rb").read()
    data = edit(bytearray(data))
    if data is None:
        os.remove(full)
    else:
        open(full, "wb").write(bytes(data))


def flip(offset):
    def edit(data):
        data[offset] ^= 0xFF
        return data
    return edit


variant("data-missing", DATA, lambda d: None)
variant("data-empty", DATA, lambda d: b"")
variant("data-short", DATA, lambda d: d[:40])
variant("data-flip", DATA, flip(20))  # inside layer/w, bytes [16, 64)
variant("index-empty", INDEX, lambda d: b"")
variant("index-cut", INDEX, lambda d: d[:100])
variant("index-flip", INDEX, flip(20))
variant("meta-cut", META, lambda d: d[:2000])
