#!/usr/bin/env python3
# ===- model-layers.py - per-layer NPU cycles of the target models --------===#
#
# Partitions each target model for NPU-v1 in the realistic configuration
# (kiln-translate --import-tfjs | kiln-opt --kiln-tf-graph-pipeline
# --convert-tf-to-npu=target=realistic), cuts every NPU segment function into
# a module of its own, lowers it (kiln-npu-to-npuhw-pipeline, which records
# each op's estimate and lower bound), writes its .npub (COST section
# included) and runs it on kiln-npu-sim with seeded random f32 inputs in
# [-1, 1] (a functional run, so useful MACs are counted) and
# --layer_report=csv. Prints, per model, one Markdown table row per layer
# (the npu op's TensorFlow node, op, estimate, lower bound, measured cycles,
# useful-MAC utilisation) and the model's totals: measured NPU cycles (the
# segments' cycles added: segments run one after another), the sum of the
# layers' lower bounds and their ratio, and how many layers' estimates are
# within 15% of the measured cycles. A last table summarises the models.
#
#   benchmarks/npu/model-layers.py [--bin build/bin] [--models a,b]
#       [--work DIR] [--summary-only] [--trace-dir DIR]
#       [--pipeline-options lmem-resident=false]
#
# Models come from ~/.cache/kiln/models (KILN_MODEL_CACHE overrides), the
# shapes of test/Conversion/TFToNPU/models/*.test.
# ===----------------------------------------------------------------------===#

import argparse
import csv
import io
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

HUMAN = "vladmandic__human-models@3.0.4/package/models"
MODELS = [
    ("blazeface", HUMAN + "/blazeface.json", "1,256,256,3"),
    ("emotion", HUMAN + "/emotion.json", "1,64,64,1"),
    ("mobileface", HUMAN + "/mobileface.json", "1,112,112,3"),
    ("selfie", HUMAN + "/selfie.json", "1,256,256,3"),
    ("movenet-lightning", HUMAN + "/movenet-lightning.json", "1,192,192,3"),
    ("ssd320fpnlite",
     "handtrackjs@0.1.5/package/models/webmodel/ssd320fpnlite/base/model.json",
     "1,320,320,3"),
]


def run(cmd, stdin=None, may_fail=False):
    p = subprocess.run(cmd, input=stdin, capture_output=True)
    if p.returncode != 0:
        if may_fail:
            return None
        sys.exit("failed: %s\n%s" % (" ".join(cmd), p.stderr.decode()[-4000:]))
    return p.stdout


def segments(text):
    """(name, module text) of every @npu_* function, made public, with the
    file's location aliases."""
    lines = text.splitlines()
    aliases = [l for l in lines if l.startswith("#")]
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"  func\.func private @(npu_\w+)", lines[i])
        if not m:
            i += 1
            continue
        body = [lines[i].replace("func.func private @", "func.func @", 1)]
        i += 1
        while not re.match(r"  \}( loc\(.*\))?$", lines[i]):
            body.append(lines[i])
            i += 1
        body.append(lines[i])
        # The stream takes its target from the module (convert-npu-to-npuhw
        # does not carry a function's npu.target over to its stream).
        target = re.search(r"npu\.target = (#npu\.target<[^>]*>)", body[0])
        head = "module attributes {npu.target = %s} {\n" % target.group(1) \
            if target else "module {\n"
        out.append((m.group(1), "\n".join(aliases) + "\n" + head +
                    "\n".join(body) + "\n}\n"))
    return out


SIZES = {"f32": 4, "f16": 2, "i8": 1, "i32": 4}


def inputs(module_text, work, name, rng):
    """--input bindings with seeded random values for the function's
    arguments (named arg<N>: segments carry no tf.entry_function)."""
    sig = re.search(r"func\.func @\w+\((.*?)\)\s*->", module_text, re.S)
    bindings = []
    for m in re.finditer(r"%arg(\d+): tensor<([0-9x]+)x(f32|f16|i8|i32)>",
                         sig.group(1)):
        count = 1
        for d in m.group(2).split("x"):
            count *= int(d)
        path = os.path.join(work, "%s.arg%s.bin" % (name, m.group(1)))
        with open(path, "wb") as f:
            if m.group(3) == "f32":
                f.write(struct.pack("<%df" % count,
                                    *[rng.uniform(-1, 1) for _ in range(count)]))
            else:
                f.write(bytes(rng.randrange(256)
                              for _ in range(count * SIZES[m.group(3)])))
        bindings.append("arg%s=%s" % (m.group(1), path))
    return bindings


def model_layers(args, name, path, shapes, work, rng):
    cache = os.environ.get("KILN_MODEL_CACHE",
                           os.path.expanduser("~/.cache/kiln/models"))
    tfmlir = run([os.path.join(args.bin, "kiln-translate"), "--import-tfjs",
                  os.path.join(cache, path), "--tfjs-input-shapes=" + shapes,
                  "--mlir-print-debuginfo"])
    partitioned = run([os.path.join(args.bin, "kiln-opt"),
                       "--kiln-tf-graph-pipeline",
                       "--convert-tf-to-npu=target=realistic",
                       "--mlir-print-debuginfo"], stdin=tfmlir).decode()
    rows, total, failed = [], 0, []
    for seg, text in segments(partitioned):
        pipeline = "--kiln-npu-to-npuhw-pipeline"
        if args.pipeline_options:
            pipeline += "=" + args.pipeline_options
        hw = run([os.path.join(args.bin, "kiln-opt"),
                  pipeline, "--mlir-print-debuginfo"],
                 stdin=text.encode(), may_fail=True)
        if hw is None:
            # A segment the lowering rejects (e.g. a pool whose double
            # buffers do not fit ACT though the partitioner accepted it).
            failed.append(seg)
            continue
        npub = os.path.join(work, "%s.%s.npub" % (name, seg))
        run([os.path.join(args.bin, "kiln-translate"), "--npuhw-to-npub",
             "-o", npub], stdin=hw)
        sim = [os.path.join(args.bin, "kiln-npu-sim"), npub, "--stats=false",
               "--race_check=false", "--layer_report=csv"]
        sim += ["--input=" + ",".join(inputs(text, work, seg, rng))]
        if args.trace_dir:
            sim.append("--trace=" + os.path.join(args.trace_dir,
                                                 "%s.%s.json" % (name, seg)))
        report = run(sim).decode()
        m = re.search(r"# total cycles (\d+)", report)
        total += int(m.group(1))
        for r in csv.DictReader(l for l in io.StringIO(report)
                                if not l.startswith("#")):
            r["segment"] = seg
            rows.append(r)
    if failed:
        print("%s: %d segment(s) not lowered: %s" % (name, len(failed),
                                                     ", ".join(failed)),
              file=sys.stderr)
    return rows, total


def main():
    parser = argparse.ArgumentParser(
        description="Per-layer NPU cycles of the target models")
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--models", default=",".join(m[0] for m in MODELS))
    parser.add_argument("--work", default=None)
    parser.add_argument("--trace-dir", default=None)
    parser.add_argument("--summary-only", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pipeline-options", default="",
                        help="options of kiln-npu-to-npuhw-pipeline, e.g. "
                        "lmem-resident=false (the A/B of LMEM-resident "
                        "intermediates)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="kiln-model-layers-")
    os.makedirs(work, exist_ok=True)
    if args.trace_dir:
        os.makedirs(args.trace_dir, exist_ok=True)
    wanted = args.models.split(",")
    summary = []
    for name, path, shapes in MODELS:
        if name not in wanted:
            continue
        rows, total = model_layers(args, name, path, shapes, work,
                                   random.Random(args.seed))
        est = sum(int(r["estimate"] or 0) for r in rows)
        bound = sum(int(r["lower_bound"] or 0) for r in rows)
        costed = [r for r in rows if r["estimate"]]
        within = sum(1 for r in costed
                     if abs(int(r["estimate"]) - int(r["measured"])) <=
                     0.15 * int(r["measured"]))
        macs = sum(int(r["useful_macs"] or 0) for r in rows)
        util = macs / (total * 256.0) if total else 0
        summary.append((name, len(rows), within, len(costed), total, est,
                        bound, util))
        if args.summary_only:
            continue
        print("### %s\n" % name)
        print("| layer (TensorFlow node) | op | estimate | lower bound | "
              "bound | measured | est./meas. | meas./bound | MAC util. |")
        print("|---|---|---:|---:|---|---:|---:|---:|---:|")
        for r in rows:
            meas = int(r["measured"])
            print("| %s | %s | %s | %s | %s | %d | %s | %s | %.1f%% |" % (
                r["layer"].replace("StatefulPartitionedCall/", ""), r["op"],
                r["estimate"], r["lower_bound"], r["bound"], meas,
                "%.2f" % (int(r["estimate"]) / meas) if r["estimate"] and meas
                else "",
                "%.2f" % (meas / int(r["lower_bound"]))
                if r["lower_bound"] and int(r["lower_bound"]) else "",
                100 * float(r["mac_utilisation"] or 0)))
        print("\n%s: %d layers, %d of %d estimates within 15%%; measured %d "
              "cycles, estimate %d, lower bound %d, measured / bound %.2f, "
              "useful-MAC utilisation %.1f%%\n" % (
                  name, len(rows), within, len(costed), total, est, bound,
                  total / bound if bound else 0, 100 * util))
    print("| model | layers | estimates within 15% | measured cycles | "
          "estimate | lower bound | measured / bound | MAC util. |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    all_within = all_costed = 0
    for name, n, within, costed, total, est, bound, util in summary:
        all_within += within
        all_costed += costed
        print("| %s | %d | %d (%.0f%%) | %d | %d | %d | %.2f | %.1f%% |" % (
            name, n, within, 100.0 * within / max(costed, 1), total, est,
            bound, total / bound if bound else 0, 100 * util))
    print("\nall models: %d of %d layer estimates within 15%% (%.1f%%)" % (
        all_within, all_costed, 100.0 * all_within / max(all_costed, 1)))


if __name__ == "__main__":
    main()
