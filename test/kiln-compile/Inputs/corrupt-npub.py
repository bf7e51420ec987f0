"""Flips one byte of an NPU command stream embedded in an object file.

    corrupt-npub.py IN.o OUT.o [--stream N]

Finds every .npub stream in the object (the 'NPUB' magic, a file size in the
header that fits, and a CRC-32 of the body that matches the header's, as
runtime/npu/Format.cpp writes them), flips the last body byte of stream N
(default 0, in file order) and writes the result: loading that stream then
fails its CRC check, deterministically. Prints what it changed.
"""
import argparse
import struct
import sys
import zlib

HEADER_BYTES = 64


def streams(data):
    """(offset, size) of each valid stream in `data`."""
    found = []
    at = data.find(b"NPUB")
    while at >= 0:
        if at + HEADER_BYTES <= len(data):
            (size,) = struct.unpack_from("<Q", data, at + 16)
            (crc,) = struct.unpack_from("<I", data, at + 36)
            if (HEADER_BYTES < size <= len(data) - at and
                    zlib.crc32(data[at + HEADER_BYTES:at + size]) == crc):
                found.append((at, size))
        at = data.find(b"NPUB", at + 1)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("input")
    parser.add_argument("output")
    parser.add_argument("--stream", type=int, default=0)
    args = parser.parse_args()
    data = bytearray(open(args.input, "rb").read())
    found = streams(bytes(data))
    if args.stream >= len(found):
        sys.exit("%s: %d streams, no stream %d" %
                 (args.input, len(found), args.stream))
    at, size = found[args.stream]
    data[at + size - 1] ^= 0x5A
    open(args.output, "wb").write(data)
    print("corrupted stream %d of %d (%d bytes at offset %d)" %
          (args.stream, len(found), size, at))


if __name__ == "__main__":
    main()
