#!/usr/bin/env python3
"""Writes a TF.js weight shard: little-endian values, in argument order.

    shard.py OUT f32:1.5,-2 u8:0,3,255 u16:1,2 f16:0x3c00 i32:-7 b:1,0
             c64:1,2 str:ab,cde

`f16` takes raw binary16 bits; `str` writes each string as TF.js does, a
uint32 length and the bytes; `c64` takes (real, imag) pairs.
"""
import struct
import sys

FORMATS = {"f32": "f", "i32": "i", "u8": "B", "u16": "H", "f16": "H",
           "b": "B", "c64": "f"}

with open(sys.argv[1], "wb") as out:
    for arg in sys.argv[2:]:
        kind, _, values = arg.partition(":")
        items = values.split(",") if values else []
        if kind == "str":
            for s in items:
                data = s.encode()
                out.write(struct.pack("<I", len(data)) + data)
            continue
        fmt = FORMATS[kind]
        for item in items:
            value = float(item) if fmt == "f" else int(item, 0)
            out.write(struct.pack("<" + fmt, value))
