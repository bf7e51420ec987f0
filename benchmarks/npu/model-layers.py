#!/usr/bin/env python3
# ===- model-layers.py - per-layer NPU cycles of the target models --------===#
#
# Partitions each target model for NPU-v1 in a configuration (realistic by
# default; kiln-translate --import-tfjs | kiln-opt --kiln-tf-graph-pipeline
# --convert-tf-to-npu=target=CONFIG), cuts every NPU segment function into
# a module of its own, lowers it (kiln-npu-to-npuhw-pipeline, which records
# each op's lower bound and, replaying the lowered stream, each layer's
# estimated span and the stream's estimated cycles), writes its .npub (COST
# section included) and runs it on kiln-npu-sim with seeded random f32
# inputs in [-1, 1] (a functional run, so useful MACs are counted) and
# --layer_report=csv. Prints, per model, one Markdown table row per layer
# (the npu op's TensorFlow node, op, estimate, lower bound, measured span,
# useful-MAC utilisation) and the model's totals: measured NPU cycles (the
# segments' cycles added: segments run one after another) beside the
# estimated cycles (the streams' npu.stream_estimates added), the sum of the
# layers' lower bounds and its ratio to the measured cycles, and how many
# layers' estimates are within 15% of their measured spans. A last table
# summarises the models, one row per model and configuration.
#
#   benchmarks/npu/model-layers.py [--bin build/bin] [--models a,b]
#       [--configs realistic,default] [--work DIR] [--summary-only]
#       [--trace-dir DIR] [--pipeline-options lmem-resident=false,...]
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


def stream_estimate(hw_text):
    """The stream's estimated cycles npuhw-estimate-layers recorded."""
    m = re.search(r"npu\.stream_estimates = \{[^}]*?= (\d+) : i64", hw_text)
    return int(m.group(1)) if m else 0


def model_layers(args, name, path, shapes, work, rng, config):
    cache = os.environ.get("KILN_MODEL_CACHE",
                           os.path.expanduser("~/.cache/kiln/models"))
    tfmlir = run([os.path.join(args.bin, "kiln-translate"), "--import-tfjs",
                  os.path.join(cache, path), "--tfjs-input-shapes=" + shapes,
                  "--mlir-print-debuginfo"])
    partitioned = run([os.path.join(args.bin, "kiln-opt"),
                       "--kiln-tf-graph-pipeline",
                       "--convert-tf-to-npu=target=" + config,
                       "--mlir-print-debuginfo"], stdin=tfmlir).decode()
    rows, total, estimated, failed = [], 0, 0, []
    pipeline = "--kiln-npu-to-npuhw-pipeline"
    if args.pipeline_options:
        pipeline += "=" + args.pipeline_options
    for seg, text in segments(partitioned):
        hw = run([os.path.join(args.bin, "kiln-opt"), pipeline,
                  "--mlir-print-debuginfo"],
                 stdin=text.encode(), may_fail=True)
        if hw is None:
            # A segment the lowering rejects (e.g. a pool whose double
            # buffers do not fit ACT though the partitioner accepted it).
            failed.append(seg)
            continue
        estimated += stream_estimate(hw.decode())
        npub = os.path.join(work, "%s.%s.%s.npub" % (name, config, seg))
        run([os.path.join(args.bin, "kiln-translate"), "--npuhw-to-npub",
             "-o", npub], stdin=hw)
        sim = [os.path.join(args.bin, "kiln-npu-sim"), npub, "--stats=false",
               "--race_check=false", "--layer_report=csv"]
        sim += ["--input=" + ",".join(inputs(text, work, seg, rng))]
        if args.trace_dir:
            sim.append("--trace=" + os.path.join(
                args.trace_dir, "%s.%s.%s.json" % (name, config, seg)))
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
    return rows, total, estimated


def main():
    parser = argparse.ArgumentParser(
        description="Per-layer NPU cycles of the target models")
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--models", default=",".join(m[0] for m in MODELS))
    parser.add_argument("--work", default=None)
    parser.add_argument("--trace-dir", default=None)
    parser.add_argument("--summary-only", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--configs", default="realistic",
                        help="comma-separated target configurations")
    parser.add_argument("--pipeline-options", default="",
                        help="options of kiln-npu-to-npuhw-pipeline, "
                        "space-separated, e.g. 'lmem-resident=false' or "
                        "'overlap-ops=false' (A/B runs)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="kiln-model-layers-")
    os.makedirs(work, exist_ok=True)
    if args.trace_dir:
        os.makedirs(args.trace_dir, exist_ok=True)
    wanted = args.models.split(",")
    summary = []
    for config in args.configs.split(","):
        for name, path, shapes in MODELS:
            if name not in wanted:
                continue
            rows, total, estimated = model_layers(
                args, name, path, shapes, work, random.Random(args.seed),
                config)
            bound = sum(int(r["lower_bound"] or 0) for r in rows)
            costed = [r for r in rows if r["estimate"]]
            within = sum(1 for r in costed
                         if abs(int(r["estimate"]) - int(r["measured"])) <=
                         0.15 * int(r["measured"]))
            macs = sum(int(r["useful_macs"] or 0) for r in rows)
            util = macs / (total * 256.0) if total else 0
            summary.append((name, config, len(rows), within, len(costed),
                            total, estimated, bound, util))
            if args.summary_only:
                continue
            print("### %s (%s)\n" % (name, config))
            print("| layer (TensorFlow node) | op | estimate | lower bound | "
                  "bound | measured | est./meas. | meas./bound | MAC util. |")
            print("|---|---|---:|---:|---|---:|---:|---:|---:|")
            for r in rows:
                meas = int(r["measured"])
                print("| %s | %s | %s | %s | %s | %d | %s | %s | %.1f%% |" % (
                    r["layer"].replace("StatefulPartitionedCall/", ""),
                    r["op"], r["estimate"], r["lower_bound"], r["bound"],
                    meas,
                    "%.2f" % (int(r["estimate"]) / meas)
                    if r["estimate"] and meas else "",
                    "%.2f" % (meas / int(r["lower_bound"]))
                    if r["lower_bound"] and int(r["lower_bound"]) else "",
                    100 * float(r["mac_utilisation"] or 0)))
            print("\n%s (%s): %d layers, %d of %d estimates within 15%%; "
                  "measured %d cycles, estimated %d, lower bound %d, "
                  "measured / bound %.2f, useful-MAC utilisation %.1f%%\n" % (
                      name, config, len(rows), within, len(costed), total,
                      estimated, bound, total / bound if bound else 0,
                      100 * util))
    print("| model | config | layers | estimates within 15% | measured cycles "
          "| estimated cycles | est. / meas. | lower bound | measured / bound "
          "| MAC util. |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    per_config = {}
    for (name, config, n, within, costed, total, estimated, bound,
         util) in summary:
        acc = per_config.setdefault(config, [0, 0])
        acc[0] += within
        acc[1] += costed
        print("| %s | %s | %d | %d (%.0f%%) | %d | %d | %.3f | %d | %.2f | "
              "%.1f%% |" % (
                  name, config, n, within, 100.0 * within / max(costed, 1),
                  total, estimated, estimated / total if total else 0, bound,
                  total / bound if bound else 0, 100 * util))
    print()
    all_within = sum(w for w, _ in per_config.values())
    all_costed = sum(c for _, c in per_config.values())
    for config, (within, costed) in per_config.items():
        print("%s: %d of %d layer estimates within 15%% (%.1f%%)" % (
            config, within, costed, 100.0 * within / max(costed, 1)))
    print("all: %d of %d layer estimates within 15%% (%.1f%%)" % (
        all_within, all_costed, 100.0 * all_within / max(all_costed, 1)))

if __name__ == "__main__":
    main()
