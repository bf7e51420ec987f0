#!/usr/bin/env python3
"""Two settings of kiln-linalg-to-llvm-pipeline, A against B, on the peer
benchmark's models, in one run.

    benchmarks/cpu/ab-pipeline.py --a approximate-math=false --b "" \\
        [--models mobilenet_v2,efficientnet_b0] [--kiln-bin build/bin] \\
        [--a-bin DIR --b-bin DIR] [--rounds 3] [--warmup 5] [--repeat 30]

For each model of the peer benchmark's work dir (benchmarks/peers/run.py
prepares them: model.pb, kiln.config.pbtxt, meta.json, input_<i>.bin and
TensorFlow's outputs in outputs/tf-t1.npz), the script

1. compiles the model once with kiln-compile, keeping its linalg IR (the
   ABI phase, 03-abi.mlir, of --dump-dir);
2. lowers that IR twice with kiln-opt, `--kiln-linalg-to-llvm-pipeline=A` and
   `=B`, then optimises and emits each for the host CPU (opt -O2, llc -O2, as
   kiln-compile does) and links it into benchmarks/peers/kiln-timer.c;
3. runs the two programs alternately, ROUNDS rounds of WARMUP untimed and
   REPEAT timed runs each, one thread, and prints per model the median of
   the rounds' medians of A and B and B's speed-up over A, the same for
   the fastest run of each side, and each side's largest error against
   TensorFlow relative to the output's scale.

With --a-bin and --b-bin naming two different builds, each side's own
kiln-compile converts the model (step 1) and its own kiln-opt lowers it, so
the two builds are compared whole (a change in the conversion from tf to
linalg shows); either defaults to --kiln-bin.

Both sides share everything but the pipeline options, so their ratio holds
under a load that changes slowly; the load average is printed beside it.
On a machine shared with builds, short models (a few ms) are dominated by
preemption: two identical programs measured this way differed by 1.75x in
median, so compare the fastest runs there.
"""

import argparse
import ast
import json
import os
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LLVM = Path("/usr/lib/llvm-22/bin")
WORK = Path.home() / ".cache/kiln/peers-work"
TRIPLE_AND_LAYOUT = (
    'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-'
    'i128:128-f80:128-n8:16:32:64-S128"\ntarget triple = "x86_64-pc-linux-gnu"\n')
FORMATS = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "|u1": "B",
           "|b1": "?", "<i2": "h", "|i1": "b"}
TIMER_TYPES = {"float": "f", "double": "d", "int32_t": "i", "int64_t": "q",
               "uint8_t": "B", "bool": "?", "int16_t": "h", "int8_t": "b"}


def run(command, **kwargs):
    return subprocess.run([str(c) for c in command], check=True, **kwargs)


def host_cpu():
    return re.search(r"Host CPU: (\S+)",
                     run([LLVM / "llc", "--version"], text=True,
                         capture_output=True).stdout).group(1)


def build_variant(abi_mlir, header, options, kiln_bin, out, cpu):
    """The timer program of the model's linalg IR lowered with `options`."""
    out.mkdir(parents=True, exist_ok=True)
    flag = "--kiln-linalg-to-llvm-pipeline" + (f"={options}" if options else "")
    run([kiln_bin / "kiln-opt", abi_mlir, flag, "-o", out / "llvm.mlir"])
    ll = out / "model.ll"
    run([kiln_bin / "kiln-translate", "--mlir-to-llvmir", out / "llvm.mlir",
         "-o", ll])
    ll.write_text(TRIPLE_AND_LAYOUT + ll.read_text())
    run([LLVM / "opt", "-O2", f"-mcpu={cpu}", ll, "-o", out / "model.bc"])
    run([LLVM / "llc", "-O2", f"-mcpu={cpu}", "-relocation-model=pic",
         "-filetype=obj", out / "model.bc", "-o", out / "model.o"])
    timer = out / "timer"
    # kiln-timer.c sets the thread pool of Kiln's CPU runtime (one thread
    # unless KILN_TIMER_THREADS says otherwise).
    threads = kiln_bin.parent / "lib/libkiln-cpu-threads.a"
    if not threads.exists():
        threads = ROOT / "build/lib/libkiln-cpu-threads.a"
    run([os.environ.get("CC", "cc"), "-std=c11", "-D_POSIX_C_SOURCE=200809L",
         "-O2", "-include", header, ROOT / "benchmarks/peers/kiln-timer.c",
         out / "model.o", threads, "-lpthread", "-lm", "-o", timer])
    return timer


def time_once(timer, warmup, repeat, out, feeds):
    """(median ms, fastest ms, outputs as lists of numbers) of one round."""
    text = run([timer, warmup, repeat, out, *feeds], text=True,
               capture_output=True).stdout
    times, outputs = [], []
    for line in text.splitlines():
        if line.startswith("times_ms "):
            times = [float(t) for t in line.split()[1:]]
        elif line.startswith("fetch "):
            _, index, dtype, _ = line.split(" ", 3)
            data = (out / f"output_{index}.bin").read_bytes()
            fmt = TIMER_TYPES.get(dtype)
            outputs.append(list(struct.unpack(
                f"<{len(data) // struct.calcsize(fmt)}{fmt}", data))
                if fmt else [])
    return statistics.median(times), min(times), outputs


def read_npz(path):
    """The arrays of an .npz (arr_0, arr_1, ...) as flat lists, in order."""
    arrays = []
    with zipfile.ZipFile(path) as z:
        names = sorted(z.namelist(),
                       key=lambda n: int(n.split("_")[1].split(".")[0]))
        for name in names:
            data = z.read(name)
            header_len = struct.unpack("<H", data[8:10])[0]
            header = ast.literal_eval(data[10:10 + header_len].decode())
            fmt = FORMATS[header["descr"]]
            body = data[10 + header_len:]
            arrays.append(list(struct.unpack(
                f"<{len(body) // struct.calcsize(fmt)}{fmt}", body)))
    return arrays


def relative_error(outputs, reference, floor):
    """Largest |a - r| / max(max|r|, floor) over the outputs; inf on a NaN
    against a number or a size mismatch."""
    if len(outputs) != len(reference):
        return float("inf")
    worst = 0.0
    for a, r in zip(outputs, reference):
        if len(a) != len(r):
            return float("inf")
        scale = max(max((abs(x) for x in r if x == x), default=0.0), floor)
        for x, y in zip(a, r):
            if (x != x) != (y != y):
                return float("inf")
            if x == x:
                worst = max(worst, abs(x - y) / scale)
    return worst


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", default="", help="pipeline options of A")
    parser.add_argument("--b", default="", help="pipeline options of B")
    parser.add_argument("--models", default="mobilenet_v2,efficientnet_b0")
    parser.add_argument("--work-dir", type=Path, default=WORK,
                        help="the peer benchmark's prepared models")
    parser.add_argument("--kiln-bin", type=Path, default=ROOT / "build/bin")
    parser.add_argument("--a-bin", type=Path, help="A's tools (--kiln-bin)")
    parser.add_argument("--b-bin", type=Path, help="B's tools (--kiln-bin)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--keep", type=Path, help="keep the build files here")
    parser.add_argument("--reuse", action="store_true",
                        help="time the programs already built in --keep")
    args = parser.parse_args()
    bins = {side: (chosen or args.kiln_bin).resolve()
            for side, chosen in (("a", args.a_bin), ("b", args.b_bin))}
    if args.reuse and not args.keep:
        parser.error("--reuse needs --keep")
    scratch = args.keep or Path(tempfile.mkdtemp(prefix="kiln-ab-"))
    cpu = host_cpu()

    if bins["a"] != bins["b"]:
        print(f"A: {bins['a']}  B: {bins['b']}")
    print(f"A: --kiln-linalg-to-llvm-pipeline={args.a!r}  "
          f"B: ={args.b!r}  ({args.rounds} rounds of {args.warmup} + "
          f"{args.repeat} runs; load average {os.getloadavg()[0]:.1f} at start)"
          "\n")
    print("| model | A median (ms) | B median (ms) | B speed-up | A fastest | "
          "B fastest | B speed-up (fastest) | A error | B error |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for model in args.models.split(","):
        model_dir = args.work_dir / model
        work = scratch / model
        work.mkdir(parents=True, exist_ok=True)
        if args.reuse:
            timers = {side: work / side / "timer" for side in "ab"}
        else:
            timers = {}
            same = bins["a"] == bins["b"]
            for side, options in (("a", args.a), ("b", args.b)):
                dump = work / ("dump" if same else f"dump-{side}")
                if side == "a" or not same:
                    run([bins[side] / "kiln-compile", model_dir / "model.pb",
                         f"--config={model_dir / 'kiln.config.pbtxt'}",
                         "--symbol=kiln_model", "-o", work / "model.o",
                         f"--header={work / 'model.h'}", f"--dump-dir={dump}"])
                timers[side] = build_variant(dump / "03-abi.mlir",
                                             work / "model.h", options,
                                             bins[side], work / side, cpu)
        meta = json.loads((model_dir / "meta.json").read_text())
        feeds = [f"{model_dir}/input_{i}.bin:" + ",".join(map(str, f["shape"]))
                 for i, f in enumerate(meta["feeds"])]
        medians = {"a": [], "b": []}
        fastest = {"a": [], "b": []}
        outputs = {}
        for _ in range(args.rounds):
            for side in ("a", "b"):
                (work / side / "out").mkdir(exist_ok=True)
                median, low, outputs[side] = time_once(
                    timers[side], args.warmup, args.repeat, work / side / "out",
                    feeds)
                medians[side].append(median)
                fastest[side].append(low)
        reference = read_npz(model_dir / "outputs/tf-t1.npz")
        floor = meta.get("scale_floor", 1e-6)
        a = statistics.median(medians["a"])
        b = statistics.median(medians["b"])
        a_min, b_min = min(fastest["a"]), min(fastest["b"])
        errors = [relative_error(outputs[s], reference, floor) for s in "ab"]
        print(f"| {model} | {a:.2f} | {b:.2f} | {a / b:.2f}x | {a_min:.2f} | "
              f"{b_min:.2f} | {a_min / b_min:.2f}x | {errors[0]:.1e} | "
              f"{errors[1]:.1e} |", flush=True)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end; "
          f"build files in {scratch}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
