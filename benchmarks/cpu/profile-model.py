#!/usr/bin/env python3
"""Where a kiln-compile'd model spends its time, per op family, from `perf`.

    benchmarks/cpu/profile-model.py MODEL_DIR [--kiln-bin build/bin] [--repeat 60]

MODEL_DIR is a prepared model of the peer benchmark (benchmarks/peers/run.py's
work dir, e.g. ~/.cache/kiln/peers-work/mobilenet_v2): model.pb,
kiln.config.pbtxt, meta.json, input_<i>.bin. The script

1. compiles the model with kiln-compile (--dump-dir keeps the linalg IR of
   the ABI phase, 03-abi.mlir);
2. lowers that IR again with kiln-opt, after `--snapshot-op-locations`, so
   that every op's location is its line in a printed copy of the linalg IR
   (the ops tiling and vectorization make inherit it), and with
   `--ensure-debug-info-scope-on-llvm-func`, so that the object has a line
   table from machine code back to linalg ops;
3. optimises and emits it for the host CPU (opt -O2, llc -O2, as kiln-compile
   does), links it into benchmarks/peers/kiln-timer.c, and runs it under
   `perf record -g`;
4. charges every sample to the linalg op whose code was running: samples in
   the kernel (page faults) to the op whose instruction faulted, samples in
   the C library to malloc/free or memset, samples in libm to the function
   (scalar calls such as expf); and prints a table per op family
   (Markdown) and the ten costliest ops.

Needs perf (perf_event_paranoid <= 2 for user-space sampling) and LLVM 22's
opt, llc and llvm-symbolizer.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LLVM = Path("/usr/lib/llvm-22/bin")
TRIPLE_AND_LAYOUT = (
    'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-'
    'i128:128-f80:128-n8:16:32:64-S128"\ntarget triple = "x86_64-pc-linux-gnu"\n')


def run(command, **kwargs):
    subprocess.run([str(c) for c in command], check=True, **kwargs)


def build(model_dir, kiln_bin, work):
    """The profiled timer program and the snapshot of the linalg IR."""
    run([kiln_bin / "kiln-compile", model_dir / "model.pb",
         f"--config={model_dir / 'kiln.config.pbtxt'}", "--symbol=kiln_model",
         "-o", work / "model.o", f"--dump-dir={work / 'dump'}"])
    snapshot = work / "linalg.mlir"
    run([kiln_bin / "kiln-opt", work / "dump/03-abi.mlir",
         f"--snapshot-op-locations=filename={snapshot}",
         "--kiln-linalg-to-llvm-pipeline",
         "--ensure-debug-info-scope-on-llvm-func=emission-kind=Full",
         "--mlir-print-debuginfo", "-o", work / "llvm.mlir"])
    ll = work / "model.ll"
    run([kiln_bin / "kiln-translate", "--mlir-to-llvmir", work / "llvm.mlir",
         "-o", ll])
    ll.write_text(TRIPLE_AND_LAYOUT + ll.read_text())
    cpu = re.search(r"Host CPU: (\S+)",
                    subprocess.run([LLVM / "llc", "--version"], text=True,
                                   capture_output=True).stdout).group(1)
    run([LLVM / "opt", "-O2", f"-mcpu={cpu}", ll, "-o", work / "model.bc"])
    run([LLVM / "llc", "-O2", f"-mcpu={cpu}", "-relocation-model=pic",
         "-filetype=obj", work / "model.bc", "-o", work / "model-g.o"])
    timer = work / "timer"
    run([os.environ.get("CC", "cc"), "-std=c11", "-D_POSIX_C_SOURCE=200809L",
         "-O2", "-include", work / "model.h",
         ROOT / "benchmarks/peers/kiln-timer.c", work / "model-g.o",
         # The timer can run the model on a thread pool (KILN_TIMER_THREADS):
         # Kiln's CPU thread runtime sits beside the tools' bin/ in lib/.
         kiln_bin.parent / "lib" / "libkiln-cpu-threads.a", "-lpthread", "-lm",
         "-o", timer])
    return timer, snapshot


def samples(perf_data):
    """Yields each sample's call chain as (symbol, offset, dso) frames."""
    out = subprocess.run(["perf", "script", "-i", str(perf_data), "-F",
                          "ip,sym,symoff,dso"], text=True,
                         capture_output=True, check=True).stdout
    frame = re.compile(r"^\s*[0-9a-f]+ (\S+?)\+0x([0-9a-f]+) \((.*)\)$")
    chain = []
    for line in out.splitlines() + [""]:
        if not line.strip():
            if chain:
                yield chain
            chain = []
            continue
        m = frame.match(line)
        chain.append((m.group(1), int(m.group(2), 16), m.group(3)) if m
                     else ("?", 0, "?"))


def family(op_line):
    """The op family of one line of the snapshot (a linalg op or tensor.pad)."""
    m = re.search(r"= (linalg\.[a-z_0-9]+|tensor\.[a-z_]+)", op_line)
    if not m:
        # An op of a linalg body that kept its own line (the code a
        # vectorized math.exp expands into, an elementwise op's arithmetic).
        body = re.search(r"= ((?:math|arith)\.[a-z_0-9]+)", op_line)
        return f"in an op's body: {body.group(1)}" if body else "other"
    name = m.group(1)
    if name == "linalg.conv_2d_nhwc_hwcf":
        types = re.findall(r"tensor<([0-9x]+)xf32>", op_line)
        kh, kw = types[1].split("x")[:2] if len(types) > 1 else ("?", "?")
        stride = "stride 2" if "strides = dense<2>" in op_line else "stride 1"
        return f"conv {kh}x{kw} ({stride})" if (kh, kw) != ("1", "1") \
            else "conv 1x1"
    if name == "linalg.depthwise_conv_2d_nhwc_hwc":
        return "depthwise conv"
    if name in ("linalg.matmul", "linalg.batch_matmul"):
        return "matmul"
    if name.startswith("linalg.pooling"):
        return "pooling"
    if name == "tensor.pad":
        return "tensor.pad (padded copy)"
    if name == "linalg.generic":
        if '"reduction"' in op_line:
            return "reduction"
        return "elementwise (bias, BN, activation, add)"
    if name == "linalg.fill":
        return "fill"
    return name


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("--kiln-bin", type=Path, default=ROOT / "build/bin")
    parser.add_argument("--repeat", type=int, default=60)
    parser.add_argument("--work", type=Path, help="keep the files here")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="kiln-profile-"))
    work.mkdir(parents=True, exist_ok=True)
    timer, snapshot = build(args.model_dir, args.kiln_bin.resolve(), work)

    meta = json.loads((args.model_dir / "meta.json").read_text())
    feeds = [f"{args.model_dir}/input_{i}.bin:" + ",".join(map(str, f["shape"]))
             for i, f in enumerate(meta["feeds"])]
    (work / "out").mkdir(exist_ok=True)
    run(["perf", "record", "-q", "-g", "-e", "cpu-clock", "-F", "4000", "-o",
         work / "perf.data", timer, 3, args.repeat, work / "out", *feeds],
        stdout=subprocess.DEVNULL)

    # The model's code is kiln_model and the functions it calls: one per
    # outlined layer (kiln-cpu-outline-layers) and the bodies of parallel
    # loops. Every function the model's object defines counts as the model.
    def text_symbols(path):
        out = subprocess.run(["nm", "--defined-only", str(path)], text=True,
                             capture_output=True, check=True).stdout
        return {f[2]: int(f[0], 16) for f in
                (line.split() for line in out.splitlines())
                if len(f) == 3 and f[1] in "Tt"}
    model_functions = set(text_symbols(work / "model-g.o"))
    address_of = {sym: addr for sym, addr in text_symbols(timer).items()
                  if sym in model_functions}
    charges = collections.Counter()   # (where, kind) -> samples
    total = 0
    for chain in samples(work / "perf.data"):
        total += 1
        kind = "compute"
        where = None
        for sym, off, dso in chain:
            if dso == "[kernel.kallsyms]":
                kind = "fault"
                continue
            if sym in address_of:
                where = address_of[sym] + off
            elif "libm" in dso:
                where = f"libm {sym}"
            elif "libc" in dso:
                where = ("memset" if "memset" in sym else
                         "malloc/free" if any(s in sym for s in
                                              ("malloc", "free", "alloc",
                                               "trim", "munmap", "mmap"))
                         else "libc")
            break
        charges[(where, kind)] += 1

    addresses = sorted({w for w, _ in charges if isinstance(w, int)})
    lines = {}
    if addresses:
        out = subprocess.run(
            [str(LLVM / "llvm-symbolizer"), f"--obj={timer}", "--no-inlines",
             "--output-style=GNU"], input="\n".join(hex(a) for a in addresses),
            text=True, capture_output=True, check=True).stdout.splitlines()
        for address, location in zip(addresses, out[1::2]):
            m = re.search(r":(\d+)", location)
            lines[address] = int(m.group(1)) if m else 0
    text = snapshot.read_text().splitlines()

    faults = "page faults and zeroing of fresh buffers (kernel)"
    per_family = collections.Counter()
    per_op = collections.Counter()
    for (where, kind), count in charges.items():
        if kind != "compute":
            per_family[faults] += count
        elif isinstance(where, int):
            line = lines.get(where, 0)
            fam = family(text[line - 1]) if 0 < line <= len(text) else "other"
            per_family[fam] += count
            per_op[(line, fam)] += count
        elif where is None:
            per_family["outside the model (timer, loader)"] += count
        else:
            per_family[f"C library: {where}"] += count

    print(f"{total} samples, {args.repeat} runs; work files in {work}\n")
    print("| where | share |\n|---|---:|")
    for fam, count in per_family.most_common():
        print(f"| {fam} | {100.0 * count / total:.1f}% |")
    print("\nCostliest ops (line of the snapshot IR, family, share):")
    for (line, fam), count in per_op.most_common(10):
        print(f"  {line:6d}  {fam:45s} {100.0 * count / total:5.1f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
