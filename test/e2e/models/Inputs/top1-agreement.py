#!/usr/bin/env python3
"""How often Kiln keeps a classifier's top-1 class, without numpy.

  top1-agreement.py KILN_RUN --oracle "NODE run-model.mjs" --model MODEL.json
      --seeds FIRST,COUNT --min-agree N --work-dir DIR -- KILN-RUN-ARGS...
  top1-agreement.py --driver DRIVER --oracle "NODE run-model.mjs"
      --model MODEL.json --seeds FIRST,COUNT --min-agree N --work-dir DIR

The TF.js oracle writes the seeded input and the outputs of every seed s in
FIRST .. FIRST+COUNT-1 to DIR/<s>/ (one process, run-model.mjs --count).
Then, per seed, either kiln-run MODEL --input=DIR/<s>/input_0.npy
KILN-RUN-ARGS (KILN_RUN is kiln-run's path), or DRIVER DIR/<s>/kiln
DIR/<s>/input_0.npy (a program linked with a kiln-compile'd object, such as
aot-driver.c: compiled once, so each seed costs only the run), writes its
outputs to DIR/<s>/kiln/, and the index of the largest element of output 0
(the top-1 class) is compared. Prints "top-1 agreement: A of COUNT
(smallest oracle score gap G)" and the disagreeing seeds; exits 1 when
A < N.
"""
import argparse
import ast
import os
import shlex
import struct
import subprocess
import sys


def read_floats(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x93NUMPY\x01\x00":
        sys.exit("%s: not a version 1.0 .npy file" % path)
    (length,) = struct.unpack("<H", data[8:10])
    header = ast.literal_eval(data[10:10 + length].decode("latin1"))
    if header["descr"] != "<f4":
        sys.exit("%s: %s, expected float32" % (path, header["descr"]))
    count = (len(data) - 10 - length) // 4
    return struct.unpack("<%df" % count, data[10 + length:])


def top1(values):
    return max(range(len(values)), key=lambda i: values[i])


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(command), result.stdout))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kiln_run_path", nargs="?")
    parser.add_argument("--driver")
    parser.add_argument("--oracle", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--seeds", required=True)
    parser.add_argument("--min-agree", type=int, required=True)
    parser.add_argument("--work-dir", required=True)
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    kiln_run = argv[split + 1:]
    if bool(args.driver) == bool(args.kiln_run_path):
        sys.exit("give either kiln-run's path or --driver")
    first, count = (int(x) for x in args.seeds.split(","))
    run(shlex.split(args.oracle) + [args.model, "--out-dir", args.work_dir,
                                    "--seed", str(first),
                                    "--count", str(count)])
    agree, gaps, disagreeing = 0, [], []
    for seed in range(first, first + count):
        out = os.path.join(args.work_dir, str(seed))
        if args.driver:
            os.makedirs(os.path.join(out, "kiln"), exist_ok=True)
            run([args.driver, os.path.join(out, "kiln"),
                 os.path.join(out, "input_0.npy")])
        else:
            run([args.kiln_run_path, args.model,
                 "--input=" + os.path.join(out, "input_0.npy"),
                 "--output-dir=" + os.path.join(out, "kiln")] + kiln_run)
        expected = read_floats(os.path.join(out, "output_0.npy"))
        actual = read_floats(os.path.join(out, "kiln", "output_0.npy"))
        best = top1(expected)
        if top1(actual) == best:
            agree += 1
        else:
            disagreeing.append(seed)
        # How far the oracle's winner is ahead of its runner-up.
        others = [v for i, v in enumerate(expected) if i != best]
        gaps.append(expected[best] - max(others))
    print("top-1 agreement: %d of %d (smallest oracle score gap %.3g)"
          % (agree, count, min(gaps)))
    if disagreeing:
        print("disagreeing seeds: %s" % ",".join(map(str, disagreeing)))
    return 0 if agree >= args.min_agree else 1


if __name__ == "__main__":
    sys.exit(main())
