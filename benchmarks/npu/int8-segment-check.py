#!/usr/bin/env python3
# ===- int8-segment-check.py - an int8 NPU segment against the CPU --------===#
#
# Calibrates a model for int8 (observe-npu-ranges, kiln-run on seeded
# inputs, kiln-npu-calibrate), partitions it with convert-tf-to-npu
# precision=int8, cuts the first NPU segment into its own module, lowers it
# with kiln-npu-to-npuhw-pipeline and runs it on kiln-npu-sim on seeded
# inputs that were not calibrated on. Each NPU output is compared with the
# CPU's float value of the same tensor (a result of the instrumented model),
# and with --classify-mean-softmax the NPU output, averaged over H and W and
# soft-maxed on the host, is compared with the model's own top-1 class.
#
#   benchmarks/npu/int8-segment-check.py MODEL.mlir [--bin build/bin]
#       [--calibrate 8] [--test 100] [--classify-mean-softmax]
#
# MODEL.mlir is functional tf with NameLocs (kiln-translate --import-tfjs
# ... --mlir-print-debuginfo | kiln-opt --kiln-tf-graph-pipeline
# --mlir-print-debuginfo). Needs NumPy.
# ===----------------------------------------------------------------------===#

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np


def run(*args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True,
                          **kwargs).stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--calibrate", type=int, default=8,
                        help="seeds 0..N-1 calibrate")
    parser.add_argument("--test", type=int, default=100,
                        help="seeds 1000..1000+N-1 test")
    parser.add_argument("--classify-mean-softmax", action="store_true")
    parser.add_argument("--work", default=None)
    parser.add_argument("--reuse-calibration", action="store_true",
                        help="keep WORK/ranges.json from an earlier run")
    args = parser.parse_args()
    tool = lambda name: os.path.join(args.bin, name)
    work = args.work or tempfile.mkdtemp(prefix="kiln-int8-")
    os.makedirs(work, exist_ok=True)

    observed = os.path.join(work, "observed.mlir")
    run(tool("kiln-opt"), args.model, "--observe-npu-ranges", "-o", observed)
    keys = re.findall(r'kiln.range_key = "([^"]+)"', open(observed).read())
    ranges = os.path.join(work, "ranges.json")
    if not (args.reuse_calibration and os.path.exists(ranges)):
        runs = []
        for seed in range(args.calibrate):
            out = os.path.join(work, f"cal{seed}")
            run(tool("kiln-run"), observed, f"--seed={seed}",
                f"--output-dir={out}")
            runs.append(out)
        run(tool("kiln-npu-calibrate"), observed, "--runs=" + ",".join(runs),
            "-o", ranges)

    partitioned = run(tool("kiln-opt"), args.model,
                      "--convert-tf-to-npu=precision=int8 calibration-file="
                      + ranges, "--mlir-print-debuginfo")
    match = re.search(r"func\.func private (@npu_\w+)\(.*?\n  }[^\n]*\n",
                      partitioned, re.S)
    segment = match.group(0).replace("func.func private", "func.func", 1)
    name = match.group(1)
    locs = "\n".join(l for l in partitioned.splitlines()
                     if l.startswith("#loc"))
    module = os.path.join(work, "segment.mlir")
    with open(module, "w") as f:
        f.write('module attributes {npu.target = #npu.target<"default">} {\n'
                + segment + "}\n" + locs + "\n")
    npub = os.path.join(work, "segment.npub")
    lowered = run(tool("kiln-opt"), module, "--kiln-npu-to-npuhw-pipeline")
    subprocess.run([tool("kiln-translate"), "--npuhw-to-npub", "-o", npub],
                   input=lowered, check=True, text=True)

    # The segment's inputs and outputs among the observed tensors: its
    # arguments are the inputs the model's entry reads first, its results
    # the observed tensors of its nodes (the last one for emotion).
    seg_outputs = re.search(r"func\.func @npu_\w+\((.*?)\) -> (.*?) attributes",
                            segment).group(2)
    n_out = seg_outputs.count("tensor<")
    n_in = segment.split(")")[0].count("tensor<")
    print(f"segment {name}: {n_in} input(s), {n_out} output(s), "
          f"{len(keys)} observed tensors; comparing with '{keys[-1]}'")

    errors, scales, agree = [], [], 0
    for seed in range(1000, 1000 + args.test):
        out = os.path.join(work, "test")
        run(tool("kiln-run"), observed, f"--seed={seed}", f"--output-dir={out}")
        x = np.load(os.path.join(out, "input_0.npy"))
        x.astype(np.float32).tofile(os.path.join(work, "x.bin"))
        run(tool("kiln-npu-sim"), npub, f"--input=arg0={work}/x.bin",
            f"--output=result0={work}/y.bin")
        # The last observed tensor of the segment is its output (emotion:
        # the final BiasAdd before the CPU's Mean).
        cpu = np.load(os.path.join(out, f"output_{len(keys)}.npy"))
        npu = np.fromfile(os.path.join(work, "y.bin"),
                          np.float32).reshape(cpu.shape)
        errors.append(float(np.abs(npu - cpu).max()))
        scales.append(float(np.abs(cpu).max()))
        line = (f"seed {seed}: max |npu - cpu| {errors[-1]:.4g}, "
                f"max |cpu| {scales[-1]:.4g}")
        if args.classify_mean_softmax:
            model = np.load(os.path.join(out, "output_0.npy"))
            logits = npu.mean(axis=(1, 2))
            agree += int(np.argmax(logits) == np.argmax(model))
            line += f", top-1 agrees on {agree} of {seed - 999}"
        print(line, flush=True)
    errors, scales = np.array(errors), np.array(scales)
    print(f"max |npu - cpu| over {args.test} inputs: {errors.max():.4g} "
          f"(median {np.median(errors):.4g}); output scale max|cpu| "
          f"median {np.median(scales):.4g}; relative "
          f"{(errors / scales).max():.4g} max, "
          f"{np.median(errors / scales):.4g} median")
    if args.classify_mean_softmax:
        print(f"top-1 class agrees with the CPU model on {agree} of "
              f"{args.test} inputs")


if __name__ == "__main__":
    sys.exit(main())
