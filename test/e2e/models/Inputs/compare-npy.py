#!/usr/bin/env python3
"""Compares a program's .npy outputs with the TF.js oracle's, without numpy.

  compare-npy.py ACTUAL_DIR EXPECTED_DIR [--rtol R] [--atol A]

For every EXPECTED_DIR/output_<i>.npy, ACTUAL_DIR/output_<i>.npy must have the
same dtype and shape, and every element must satisfy the rule kiln-run
--expect applies (runtime/cpu/Compare.h):

  |actual - expected| <= atol + rtol * scale,  scale = max finite |expected|

with NaN matching only NaN and an infinity only the same infinity. Prints one
"output <i>: pass|fail ..." line per output; exits 1 if any fails.
--sigmoid compares sigmoid(actual) with sigmoid(expected): a detector's
logits as the scores its users threshold.
"""
import argparse
import ast
import math
import os
import struct
import sys

FORMATS = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|u1": "B",
           "|i1": "b", "|b1": "?", "<i2": "h", "<u2": "H", "<u4": "I",
           "<u8": "Q"}


def read(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x93NUMPY\x01\x00":
        sys.exit("%s: not a version 1.0 .npy file" % path)
    (length,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + length].decode("latin1"))
    kind = FORMATS[header["descr"]]
    count = (len(data) - 10 - length) // struct.calcsize(kind)
    values = struct.unpack("<%d%s" % (count, kind), data[10 + length:])
    return header["descr"], tuple(header["shape"]), values


def compare(actual, expected, rtol, atol):
    """Returns (passed, max relative error, mismatches)."""
    finite = [abs(e) for e in expected if not math.isnan(e) and
              not math.isinf(e)]
    scale = max(finite) if finite else 0.0
    worst, mismatches = 0.0, 0
    for a, e in zip(actual, expected):
        a, e = float(a), float(e)
        if math.isnan(e) or math.isinf(e) or math.isnan(a) or math.isinf(a):
            same = (math.isnan(a) and math.isnan(e)) or a == e
            error = 0.0 if same else math.inf
        else:
            error = abs(a - e)
        worst = max(worst, error)
        if error > atol + rtol * scale:
            mismatches += 1
    return mismatches == 0, worst / scale if scale else worst, mismatches


def sigmoid(values):
    """1 / (1 + e^-x) of each value, without overflow."""
    out = []
    for x in values:
        x = float(x)
        if x >= 0:
            out.append(1.0 / (1.0 + math.exp(-x)))
        else:
            z = math.exp(x)
            out.append(z / (1.0 + z))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("actual_dir")
    parser.add_argument("expected_dir")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--sigmoid", action="store_true")
    args = parser.parse_args()
    failed, i = False, 0
    while os.path.exists(os.path.join(args.expected_dir, "output_%d.npy" % i)):
        name = "output_%d.npy" % i
        e_descr, e_shape, expected = read(os.path.join(args.expected_dir, name))
        a_descr, a_shape, actual = read(os.path.join(args.actual_dir, name))
        if (a_descr, a_shape) != (e_descr, e_shape):
            print("output %d: fail: %s %s, expected %s %s" %
                  (i, a_descr, a_shape, e_descr, e_shape))
            failed = True
        else:
            if args.sigmoid:
                actual, expected = sigmoid(actual), sigmoid(expected)
            passed, rel, bad = compare(actual, expected, args.rtol, args.atol)
            print("output %d: %s: max relative error %.3g, %d mismatches" %
                  (i, "pass" if passed else "fail", rel, bad))
            failed |= not passed
        i += 1
    if i == 0:
        sys.exit("%s: no output_<i>.npy" % args.expected_dir)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
