#!/usr/bin/env python3
"""Cycles of functions of several npu ops, with and without overlap.

Compiles each function with kiln-npu-to-npuhw-pipeline twice (overlap-ops
true and false), runs it on kiln-npu-sim (race checker on) and prints a
Markdown table: cycles before and after, the sum over the ops of the
compile-time lower bound (npu-report-cost: the largest of MAC, VEC and DRAM
cycles per op), the DRAM port's busy cycles and the MAC's. The functions:

- a synthetic mobilenet-like int8 chain (1x1 conv, 3x3 depthwise, 1x1 conv
  at 56x56x64, a stride-2 depthwise, then 1x1 / depthwise / 1x1 at
  28x28x128; seeded random weights), in "realistic" and "default";
- with --tfjs MODEL.json:N,H,W,C (repeatable), every NPU segment of a TF.js
  model (fp16, from kiln-translate --import-tfjs and convert-tf-to-npu),
  each cut into its own module, in both configurations (segments that do
  not lower yet are reported and skipped).

    M=~/.cache/kiln/models/vladmandic__human-models@3.0.4/package/models
    benchmarks/npu/op-overlap.py --bin build/bin --tfjs $M/emotion.json:1,64,64,1

--timeline prints the per-op start, end, MAC busy cycles and bound of each
overlapped run (from the simulator's trace). --pipeline-options adds
options to both runs (lmem-resident=false: every intermediate through
DRAM, the A/B of LMEM-resident intermediates); it defaults to cascade=false,
because the per-op bounds this script sums charge the DRAM traffic of every
tensor, which a cascade's rolling buffers avoid (model-layers.py reports
cascaded models against the compiler's own bounds).
"""

import argparse
import collections
import json
import os
import random
import re
import subprocess
import sys
import tempfile


def chain(target):
    rng = random.Random(1)
    act = "!quant.uniform<i8:f32, 0.05:3>"
    wq = "!quant.uniform<i8:f32, 0.004>"
    lines, state = [], {"n": 0}

    def t(h, c):
        return f"tensor<1x{h}x{h}x{c}x{act}>"

    def layer(x, h, ci, co, k, s, dw):
        i = state["n"]
        state["n"] += 1
        oh, p = (h + s - 1) // s, (k - 1) // 2
        pb = p if s == 1 else max(0, (oh - 1) * s + k - h - p)
        ws = f"{k}x{k}x{co}x1" if dw else f"{k}x{k}x{ci}x{co}"
        n = k * k * co * (1 if dw else ci)
        data = "".join("%02X" % rng.randint(0, 255) for _ in range(n))
        lines.append(f'    %wi{i} = arith.constant dense<"0x{data}"> : tensor<{ws}xi8>')
        lines.append(f"    %w{i} = quant.scast %wi{i} : tensor<{ws}xi8> to tensor<{ws}x{wq}>")
        lines.append(f"    %b{i} = arith.constant dense<{rng.randint(-500, 500)}> : tensor<{co}xi32>")
        op = "npu.depthwise_conv2d" if dw else "npu.conv2d"
        lines.append(
            f"    %y{i} = {op} %{x}, %w{i}, %b{i} {{stride = array<i64: {s}, {s}>, "
            f"dilation = array<i64: 1, 1>, pad = array<i64: {p}, {pb}, {p}, {pb}>, "
            f"clamp_min = 3 : i64}} : ({t(h, ci)}, tensor<{ws}x{wq}>, "
            f"tensor<{co}xi32>) -> {t(oh, co)}")
        return f"y{i}", oh

    x, h = "x", 56
    for ci, co, k, s, dw in [(64, 64, 1, 1, False), (64, 64, 3, 1, True),
                             (64, 64, 1, 1, False), (64, 64, 3, 2, True),
                             (64, 128, 1, 1, False), (128, 128, 3, 1, True),
                             (128, 128, 1, 1, False)]:
        x, h = layer(x, h, ci, co, k, s, dw)
    return (f'module attributes {{npu.target = #npu.target<"{target}">}} {{\n'
            f"  func.func @chain(%x: {t(56, 64)}) -> {t(h, 128)} {{\n"
            + "\n".join(lines) + f"\n    return %{x} : {t(h, 128)}\n  }}\n}}\n")


def segments(bin_dir, model, shapes, target):
    """The NPU segments of a TF.js model: (name, module text)."""
    mlir = subprocess.run(
        [f"{bin_dir}/kiln-translate", "--import-tfjs", model,
         f"--tfjs-input-shapes={shapes}"], check=True, capture_output=True,
        text=True).stdout
    npu = subprocess.run(
        [f"{bin_dir}/kiln-opt", "--kiln-tf-graph-pipeline",
         f"--convert-tf-to-npu=target={target}"], input=mlir, check=True,
        capture_output=True, text=True).stdout
    found, out = [], None
    for line in npu.split("\n"):
        if line.startswith("  func.func private @npu_"):
            out = [line.replace("func.func private", "func.func", 1)]
            continue
        if out is not None:
            out.append(line)
            if line == "  }":
                name = re.match(r"\s*func.func @(\S+?)\(", out[0]).group(1)
                found.append((name, "module {\n" + "\n".join(out) + "\n}\n"))
                out = None
    return found


EXTRA_OPTIONS = ""


def run(bin_dir, src, work, name, overlap):
    hw = os.path.join(work, name + ".mlir")
    npub = os.path.join(work, name + ".npub")
    trace = os.path.join(work, name + ".json")
    subprocess.run(
        [f"{bin_dir}/kiln-opt", src,
         f"--kiln-npu-to-npuhw-pipeline=overlap-ops={str(overlap).lower()}"
         + (" " + EXTRA_OPTIONS if EXTRA_OPTIONS else ""),
         "--mlir-print-debuginfo", "-o", hw], check=True)
    subprocess.run([f"{bin_dir}/kiln-translate", "--npuhw-to-npub", hw,
                    "-o", npub], check=True)
    stats = subprocess.run([f"{bin_dir}/kiln-npu-sim", npub, "--race_check",
                            f"--trace={trace}"], check=True,
                           capture_output=True, text=True).stdout
    cycles = int(re.search(r"total cycles\s+(\d+)", stats).group(1))
    port = int(re.search(r"DRAM port busy\s+(\d+)", stats).group(1))
    mac = int(re.search(r"^MAC\s+\d+\s+(\d+)", stats, re.M).group(1))
    return cycles, port, mac, trace


def bounds(bin_dir, src):
    r = subprocess.run([f"{bin_dir}/kiln-opt", src, "--npu-report-cost",
                        "-o", os.devnull], check=True, capture_output=True,
                       text=True)
    out = {}
    for m in re.finditer(r":(\d+):\d+: remark: (\S+): .*?cycles MAC (\d+), "
                         r"VEC (\d+), DRAM (\d+)", r.stderr):
        out[m.group(1)] = (m.group(2), max(map(int, m.group(3, 4, 5))))
    return out


def timeline(trace, bound):
    events = json.load(open(trace))
    events = events["traceEvents"] if isinstance(events, dict) else events
    ops = collections.OrderedDict()
    for e in events:
        a = e.get("args", {})
        # Engine slices only: the trace also has one "layer" slice per op
        # (the estimate and measured cycles), which carries no command span.
        if e.get("ph") != "X" or "start_cycle" not in a:
            continue
        line = a["loc"].split(":")[-2] if a.get("loc") else "?"
        o = ops.setdefault(line, {"s": 1 << 62, "e": 0, "mac": 0})
        o["s"] = min(o["s"], a["start_cycle"])
        o["e"] = max(o["e"], a["end_cycle"])
        if e["cat"] == "MAC":
            o["mac"] += a["end_cycle"] - a["start_cycle"]
    print("| line | op | start | end | MAC busy | bound |")
    print("|---|---|---:|---:|---:|---:|")
    for line, o in sorted(ops.items(), key=lambda kv: kv[1]["s"]):
        name, b = bound.get(line, ("?", 0))
        print(f"| {line} | {name} | {o['s']} | {o['e']} | {o['mac']} | {b} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--tfjs", action="append", default=[],
                    help="MODEL.json:N,H,W,C, a TF.js model and its input shape")
    ap.add_argument("--timeline", action="store_true")
    ap.add_argument("--configs", default="realistic,default",
                    help="comma-separated target presets")
    ap.add_argument("--summary", action="store_true",
                    help="also print per model and configuration the sums "
                         "over its segments")
    ap.add_argument("--pipeline-options", default="cascade=false",
                    help="more kiln-npu-to-npuhw-pipeline options for both "
                    "runs, e.g. lmem-resident=false (default cascade=false: "
                    "the per-op bounds charge every tensor's DRAM traffic, "
                    "which cascading removes)")
    args = ap.parse_args()
    global EXTRA_OPTIONS
    EXTRA_OPTIONS = args.pipeline_options
    work = tempfile.mkdtemp(prefix="op-overlap-")
    cases = []
    configs = args.configs.split(",")
    for target in configs:
        path = os.path.join(work, f"chain-{target}.mlir")
        open(path, "w").write(chain(target))
        cases.append((f"int8 chain, {target}", path, ("chain", target)))
    for spec in args.tfjs:
        model, shapes = spec.rsplit(":", 1)
        stem = os.path.basename(model).rsplit(".", 1)[0]
        if stem == "model":  # handtrackjs: .../ssd320fpnlite/base/model.json
            stem = os.path.basename(os.path.dirname(os.path.dirname(model)))
        for target in configs:
            for name, text in segments(args.bin, model, shapes, target):
                path = os.path.join(work, f"{stem}-{name}-{target}.mlir")
                open(path, "w").write(text)
                cases.append((f"{stem} `{name}` (fp16), {target}", path,
                              (stem, target)))
    print("| function | cycles, ops one after the other | cycles, overlapped | "
          "change | sum of per-op bounds | overlapped / bound | "
          "DRAM port busy | MAC busy |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    traces = []
    sums = collections.OrderedDict()
    for name, path, group in cases:
        try:
            before = run(args.bin, path, work, os.path.basename(path) + ".serial", False)
        except subprocess.CalledProcessError:
            print(f"| {name} | does not lower | | | | | | |")
            continue
        after = run(args.bin, path, work, os.path.basename(path) + ".overlap", True)
        bound = bounds(args.bin, path)
        total = sum(b for _, b in bound.values())
        print(f"| {name} | {before[0]} | {after[0]} | "
              f"{100 * (after[0] / before[0] - 1):+.1f}% | {total} | "
              f"{after[0] / total:.2f} | {after[1]} | {after[2]} |")
        traces.append((name, after[3], bound))
        g = sums.setdefault(group, [0, 0, 0, 0, 0])
        for i, v in enumerate((1, before[0], after[0], total, after[1])):
            g[i] += v
    if args.summary:
        print("\n| model | config | segments | cycles before | cycles after "
              "| change | sum of per-op bounds | after / bound | DRAM port busy |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for (model, target), (n, b, a, lb, port) in sums.items():
            print(f"| {model} | {target} | {n} | {b} | {a} | "
                  f"{100 * (a / b - 1):+.1f}% | {lb} | {a / lb:.2f} | {port} |")
    if args.timeline:
        for name, trace, bound in traces:
            print(f"\n{name}, overlapped:\n")
            timeline(trace, bound)


if __name__ == "__main__":
    sys.exit(main())
