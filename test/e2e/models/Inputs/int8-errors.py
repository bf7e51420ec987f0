#!/usr/bin/env python3
"""The error distribution of a compiled model against TF.js over seeds.

  int8-errors.py --driver DRIVER --oracle "NODE run-model.mjs [ARGS]"
      --model MODEL.json --seeds FIRST,COUNT --work-dir DIR
      [--outputs 0,3,...] [--rtol R] [--atol A]

The TF.js oracle writes the seeded inputs and outputs of seeds FIRST ..
FIRST+COUNT-1 to DIR/<s>/ (one process, run-model.mjs --count; ARGS such as
--int-range go to it). DRIVER (a program linked with a kiln-compile'd
object, e.g. aot-driver.c: DRIVER OUT_DIR INPUT.npy...) runs each seed's
inputs into DIR/<s>/kiln/. For each compared output (--outputs, default
all), the error relative to the output's scale (its largest finite
|expected|), as compare-npy.py and kiln-run --expect compute it, is
collected over the seeds. Prints one line per seed and output, then per
output the largest and the median error over the seeds, and "pass" when
every seed is within atol + rtol * scale, else "fail" (exit 1).
"""
import argparse
import importlib.util
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "compare_npy", os.path.join(HERE, "compare-npy.py"))
compare_npy = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_npy)


def run(command):
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    if result.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(command), result.stdout))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--driver", required=True)
    parser.add_argument("--oracle", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--seeds", required=True)
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--outputs")
    parser.add_argument("--rtol", type=float, required=True)
    parser.add_argument("--atol", type=float, default=1e-6)
    args = parser.parse_args()
    first, count = (int(x) for x in args.seeds.split(","))
    run(shlex.split(args.oracle) + [args.model, "--out-dir", args.work_dir,
                                    "--seed", str(first),
                                    "--count", str(count)])
    seed_dir = os.path.join(args.work_dir, str(first))
    outputs = ([int(i) for i in args.outputs.split(",")] if args.outputs else
               sorted(int(f[len("output_"):-len(".npy")])
                      for f in os.listdir(seed_dir)
                      if f.startswith("output_")))
    errors = {i: [] for i in outputs}
    failed = False
    for seed in range(first, first + count):
        out = os.path.join(args.work_dir, str(seed))
        inputs = sorted((f for f in os.listdir(out) if f.startswith("input_")),
                        key=lambda f: int(f[len("input_"):-len(".npy")]))
        os.makedirs(os.path.join(out, "kiln"), exist_ok=True)
        run([args.driver, os.path.join(out, "kiln")] +
            [os.path.join(out, f) for f in inputs])
        line = []
        for i in outputs:
            name = "output_%d.npy" % i
            _, e_shape, expected = compare_npy.read(os.path.join(out, name))
            _, a_shape, actual = compare_npy.read(
                os.path.join(out, "kiln", name))
            if a_shape != e_shape:
                print("seed %d output %d: fail: shape %s, expected %s" %
                      (seed, i, a_shape, e_shape))
                failed = True
                continue
            passed, rel, _ = compare_npy.compare(actual, expected, args.rtol,
                                                 args.atol)
            errors[i].append((rel, seed))
            failed |= not passed
            line.append("output %d %.3g%s" % (i, rel, "" if passed else
                                                 " (fail)"))
        print("seed %d: %s" % (seed, ", ".join(line)))
    for i in outputs:
        values = sorted(errors[i])
        if not values:
            continue
        worst, worst_seed = values[-1]
        median = values[len(values) // 2][0]
        print("output %d: max %.3g (seed %d), median %.3g over %d seeds" %
              (i, worst, worst_seed, median, len(values)))
    print("fail" if failed else "pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
