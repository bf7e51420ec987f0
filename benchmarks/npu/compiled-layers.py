#!/usr/bin/env python3
# ===- compiled-layers.py - the NPU target layers through the compiler ----===#
#
# Compiles the six layers that the NPU compiler's utilisation targets name
# (int8 or fp16, SAME padding, stride 1) with kiln-npu-to-npuhw-pipeline for
# the "default" and "realistic" configurations, runs each .npub on
# kiln-npu-sim (functional, race checking on) with a seeded random input, and
# prints a Markdown table of cycles and useful / padded MAC utilisation.
#
#   benchmarks/npu/compiled-layers.py [--bin build/bin] [--work DIR]
#                                     [--dtype int8|fp16] [--no-chain]
#
# Then (int8) the depthwise layer as it runs in models: inside a MobileNetV2
# block, 1x1 56x56x24->128, dw 3x3 128, 1x1 128->24, compiled with and
# without cascading (convert-npu-to-npuhw's `cascade`), run with
# --layer_report=csv. Per layer it prints the span utilisation (useful MACs
# over the layer's span, which for cascaded layers covers the whole chain)
# and the attributed utilisation: the run's cycles are split among the
# chain's layers in proportion to their MAC-engine occupancy (the cycles
# add up to the run's), and each layer's useful MACs are divided by its
# share (at the depthwise peak for the depthwise layer). Also the chain's
# useful-MAC utilisation (all useful MACs over the run at the dense peak).
#
# int8: weights are seeded random int8 in [-127, 127], the input seeded
# random int8. fp16: weights seeded random reals in [-1/8, 1/8], the input in
# [-1, 1] (both rounded to fp16), an f32 bias and a [0, 6] clamp; the MAC
# runs at half rate, so the table adds the utilisation of the fp16 peak
# (twice the simulator's figure, which is of the int8 peak) and compares
# that with the target. Utilisation counts useful MACs (docs/npu-cycle-model.md),
# so it needs a functional run with live input channels, which the random
# input gives.
# ===----------------------------------------------------------------------===#

import argparse
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

# (name, kind, H, W, Cin, Cout, kernel); depthwise has Cout == Cin.
LAYERS = [
    ("3x3 112x112x64->64", "conv", 112, 112, 64, 64, 3),
    ("3x3 56x56x64->64", "conv", 56, 56, 64, 64, 3),
    ("3x3 28x28x128->128", "conv", 28, 28, 128, 128, 3),
    ("3x3 14x14x256->256", "conv", 14, 14, 256, 256, 3),
    ("1x1 28x28x256->256", "conv", 28, 28, 256, 256, 1),
    ("dw 3x3 56x56x128", "dwconv", 56, 56, 128, 128, 3),
]
TARGETS = {"conv": 0.80, "dwconv": 0.80}
TARGETS_1X1 = 0.75

IN_Q = "!quant.uniform<i8:f32, 0.05>"
OUT_Q = "!quant.uniform<i8:f32, 0.5>"


def hex_bytes(values):
    return "0x" + "".join("%02X" % (v & 0xFF) for v in values)


def half_bytes(values):
    return "0x" + "".join(struct.pack("<e", v).hex().upper() for v in values)


def layer_mlir_f16(kind, h, w, cin, cout, k, target, rng):
    pad = (k - 1) // 2
    x_t = "tensor<1x%dx%dx%dxf16>" % (h, w, cin)
    y_t = "tensor<1x%dx%dx%dxf16>" % (h, w, cout)
    if kind == "conv":
        shape, count, op = "%dx%dx%dx%d" % (k, k, cin, cout), k * k * cin * cout, "npu.conv2d"
    else:
        shape, count, op = "%dx%dx%d" % (k, k, cin), k * k * cin, "npu.depthwise_conv2d"
    weights = [rng.uniform(-0.125, 0.125) for _ in range(count)]
    bias = "0x" + "".join(struct.pack("<f", rng.uniform(-1, 1)).hex().upper()
                          for _ in range(cout))
    w_t = "tensor<%sxf16>" % shape
    b_t = "tensor<%dxf32>" % cout
    return f"""module attributes {{npu.target = #npu.target<"{target}">}} {{
  func.func @layer(%x: {x_t}) -> {y_t}
      attributes {{tf.entry_function = {{inputs = "x", outputs = "y"}}}} {{
    %w = arith.constant dense<"{half_bytes(weights)}"> : {w_t}
    %b = arith.constant dense<"{bias}"> : {b_t}
    %y = {op} %x, %w, %b {{stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: {pad}, {pad}, {pad}, {pad}>, clamp_min = 0.0 : f32, clamp_max = 6.0 : f32}}
      : ({x_t}, {w_t}, {b_t}) -> {y_t}
    return %y : {y_t}
  }}
}}
"""


def layer_mlir(kind, h, w, cin, cout, k, target, rng):
    pad = (k - 1) // 2
    scales = ", ".join("0.01" for _ in range(cout))
    x_t = "tensor<1x%dx%dx%dx%s>" % (h, w, cin, IN_Q)
    y_t = "tensor<1x%dx%dx%dx%s>" % (h, w, cout, OUT_Q)
    if kind == "conv":
        shape = "%dx%dx%dx%d" % (k, k, cin, cout)
        count = k * k * cin * cout
        w_q = "!quant.uniform<i8:f32:3, {%s}>" % scales
        op = "npu.conv2d"
    else:
        shape = "%dx%dx%d" % (k, k, cin)
        count = k * k * cin
        w_q = "!quant.uniform<i8:f32:2, {%s}>" % scales
        op = "npu.depthwise_conv2d"
    weights = [rng.randint(-127, 127) for _ in range(count)]
    w_raw = "tensor<%sxi8>" % shape
    w_t = "tensor<%sx%s>" % (shape, w_q)
    return f"""module attributes {{npu.target = #npu.target<"{target}">}} {{
  func.func @layer(%x: {x_t}) -> {y_t}
      attributes {{tf.entry_function = {{inputs = "x", outputs = "y"}}}} {{
    %wi = arith.constant dense<"{hex_bytes(weights)}"> : {w_raw}
    %w = quant.scast %wi : {w_raw} to {w_t}
    %y = {op} %x, %w {{stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: {pad}, {pad}, {pad}, {pad}>}}
      : ({x_t}, {w_t}) -> {y_t}
    return %y : {y_t}
  }}
}}
"""


def run(cmd, **kwargs):
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit("failed: %s\n%s%s" % (" ".join(cmd), result.stdout,
                                       result.stderr))
    return result.stdout


def measure(bin_dir, work, name, kind, h, w, cin, cout, k, target, dtype):
    rng = random.Random(7)
    stem = os.path.join(work, re.sub(r"[^a-z0-9]+", "_", name.lower()) +
                        "_" + target + "_" + dtype)
    fp16 = dtype == "fp16"
    with open(stem + ".mlir", "w") as f:
        f.write((layer_mlir_f16 if fp16 else layer_mlir)(
            kind, h, w, cin, cout, k, target, rng))
    # Channels padded to 16 live in the DRAM layout too only on chip; the
    # input region is plain NHWC int8 or fp16.
    with open(stem + ".x.bin", "wb") as f:
        if fp16:
            f.write(b"".join(struct.pack("<e", rng.uniform(-1, 1))
                             for _ in range(h * w * cin)))
        else:
            f.write(bytes(rng.randint(0, 255) for _ in range(h * w * cin)))
    npuhw = run([os.path.join(bin_dir, "kiln-opt"), stem + ".mlir",
                 "--kiln-npu-to-npuhw-pipeline"])
    with open(stem + ".npuhw.mlir", "w") as f:
        f.write(npuhw)
    run([os.path.join(bin_dir, "kiln-translate"), "--npuhw-to-npub",
         stem + ".npuhw.mlir", "-o", stem + ".npub"])
    stats = run([os.path.join(bin_dir, "kiln-npu-sim"), stem + ".npub",
                 "--input=x=" + stem + ".x.bin", "--race_check"])
    cycles = int(re.search(r"^total cycles\s+(\d+)", stats, re.M |
                           re.I).group(1))
    useful = re.search(r"MAC utilisation\s+([\d.]+)%", stats)
    padded = re.search(r"padded[^\n]*?([\d.]+)%", stats, re.I)
    depthwise = re.search(r"depthwise[^\n]*?([\d.]+)%", stats, re.I)
    return (cycles, float(useful.group(1)) if useful else None,
            float(padded.group(1)) if padded else None,
            float(depthwise.group(1)) if depthwise else None, stats)


CHAIN = (56, 56, 24, 128)


def chain_mlir(target, rng):
    h, w, c0, c1 = CHAIN
    scales = lambda n: ", ".join("0.01" for _ in range(n))
    t = lambda c: "tensor<1x%dx%dx%dx%s>" % (h, w, c, IN_Q)
    w_e = [rng.randint(-127, 127) for _ in range(c0 * c1)]
    w_d = [rng.randint(-127, 127) for _ in range(9 * c1)]
    w_p = [rng.randint(-127, 127) for _ in range(c1 * c0)]
    qe = "!quant.uniform<i8:f32:3, {%s}>" % scales(c1)
    qd = "!quant.uniform<i8:f32:2, {%s}>" % scales(c1)
    qp = "!quant.uniform<i8:f32:3, {%s}>" % scales(c0)
    attrs = "{stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: %d, %d, %d, %d>}"
    return f"""module attributes {{npu.target = #npu.target<"{target}">}} {{
  func.func @block(%x: {t(c0)}) -> {t(c0)}
      attributes {{tf.entry_function = {{inputs = "x", outputs = "y"}}}} {{
    %ei = arith.constant dense<"{hex_bytes(w_e)}"> : tensor<1x1x{c0}x{c1}xi8>
    %e = quant.scast %ei : tensor<1x1x{c0}x{c1}xi8> to tensor<1x1x{c0}x{c1}x{qe}>
    %di = arith.constant dense<"{hex_bytes(w_d)}"> : tensor<3x3x{c1}xi8>
    %d = quant.scast %di : tensor<3x3x{c1}xi8> to tensor<3x3x{c1}x{qd}>
    %pi = arith.constant dense<"{hex_bytes(w_p)}"> : tensor<1x1x{c1}x{c0}xi8>
    %p = quant.scast %pi : tensor<1x1x{c1}x{c0}xi8> to tensor<1x1x{c1}x{c0}x{qp}>
    %a = npu.conv2d %x, %e {attrs % (0, 0, 0, 0)}
      : ({t(c0)}, tensor<1x1x{c0}x{c1}x{qe}>) -> {t(c1)} loc("expand")
    %b = npu.depthwise_conv2d %a, %d {attrs % (1, 1, 1, 1)}
      : ({t(c1)}, tensor<3x3x{c1}x{qd}>) -> {t(c1)} loc("depthwise")
    %y = npu.conv2d %b, %p {attrs % (0, 0, 0, 0)}
      : ({t(c1)}, tensor<1x1x{c1}x{c0}x{qp}>) -> {t(c0)} loc("project")
    return %y : {t(c0)}
  }}
}}
"""


def measure_chain(bin_dir, work, target, cascade):
    rng = random.Random(11)
    stem = os.path.join(work, "chain_%s_%s" % (target, "cascade" if cascade
                                                 else "nocascade"))
    h, w, c0, c1 = CHAIN
    with open(stem + ".mlir", "w") as f:
        f.write(chain_mlir(target, rng))
    with open(stem + ".x.bin", "wb") as f:
        f.write(bytes(rng.randint(0, 255) for _ in range(h * w * c0)))
    npuhw = run([os.path.join(bin_dir, "kiln-opt"), stem + ".mlir",
                 "--kiln-npu-to-npuhw-pipeline=cascade=%s" %
                 ("true" if cascade else "false"), "--mlir-print-debuginfo"])
    with open(stem + ".npuhw.mlir", "w") as f:
        f.write(npuhw)
    run([os.path.join(bin_dir, "kiln-translate"), "--npuhw-to-npub",
         stem + ".npuhw.mlir", "-o", stem + ".npub"])
    report = run([os.path.join(bin_dir, "kiln-npu-sim"), stem + ".npub",
                  "--input=x=" + stem + ".x.bin", "--race_check",
                  "--stats=false", "--layer_report=csv"])
    total = int(re.search(r"# total cycles (\d+)", report).group(1))
    import csv as _csv
    layers = []
    for r in _csv.DictReader(l for l in report.splitlines()
                             if l and not l.startswith("#")):
        layers.append({"name": r["layer"], "op": r["op"],
                       "span": int(r["measured"]),
                       "estimate": int(r["estimate"] or 0),
                       "useful": int(r["useful_macs"] or 0),
                       "mac": int(r["mac_occupied"] or 0)})
    return total, layers


def print_chain(bin_dir, work):
    print("\nMobileNetV2 block 1x1 56x56x24->128, dw 3x3 128, 1x1 128->24 "
          "(int8); utilisation of the dense peak (256 MACs/cycle), the "
          "depthwise layer of its own peak (32 MACs/cycle):\n")
    print("| config | cascade | run cycles | chain useful-MAC utilisation "
          "| layer | span | span utilisation | attributed cycles "
          "| attributed utilisation |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|")
    for target in ("default", "realistic"):
        for cascade in (False, True):
            total, layers = measure_chain(bin_dir, work, target, cascade)
            useful = sum(l["useful"] for l in layers)
            busy = sum(l["mac"] for l in layers) or 1
            first = True
            for l in layers:
                peak = 32 if "depthwise" in l["op"] else 256
                share = total * l["mac"] / busy
                cells = ([target, "on" if cascade else "off", "%d" % total,
                          "%.1f%%" % (100.0 * useful / (total * 256))]
                         if first else ["", "", "", ""])
                first = False
                cells += [l["name"], "%d" % l["span"],
                          "%.1f%%" % (100.0 * l["useful"] /
                                      (l["span"] * peak)),
                          "%d" % share,
                          "%.1f%%" % (100.0 * l["useful"] / (share * peak))]
                print("| %s |" % " | ".join(cells))


def main():
    parser = argparse.ArgumentParser(description="Compile the NPU target layers and report their utilisation.")
    parser.add_argument("--bin", default="build/bin")
    parser.add_argument("--work", default=None)
    parser.add_argument("--dtype", choices=("int8", "fp16"), default="int8")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--no-chain", action="store_true",
                        help="skip the MobileNetV2 block (int8 only)")
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="kiln-npu-layers-")
    os.makedirs(work, exist_ok=True)
    fp16 = args.dtype == "fp16"
    extra = " | of the fp16 peak" if fp16 else ""
    print("| layer | config | cycles | useful-MAC utilisation | padded "
          "| depthwise-peak utilisation%s | target |" % extra)
    print("|---|---|---:|---:|---:|---:|%s---|" % ("---:|" if fp16 else ""))
    for name, kind, h, w, cin, cout, k in LAYERS:
        for target in ("default", "realistic"):
            cycles, useful, padded, dw, stats = measure(
                args.bin, work, name, kind, h, w, cin, cout, k, target,
                args.dtype)
            if args.verbose:
                print(stats, file=sys.stderr)
            goal = TARGETS_1X1 if k == 1 else TARGETS[kind]
            fmt = lambda v: "n/a" if v is None else "%.1f%%" % v
            shown = dw if kind == "dwconv" else useful
            # fp16 runs the MAC at half rate: its peak is half the int8 one.
            if fp16 and shown is not None:
                shown *= 2
            met = "" if target != "realistic" else (
                "≥ %d%%: %s" % (goal * 100, "met" if shown is not None and
                                 shown >= goal * 100 else "missed"))
            cells = [name, target, "%d" % cycles, fmt(useful), fmt(padded),
                     fmt(dw) if kind == "dwconv" else ""]
            if fp16:
                cells.append(fmt(shown))
            print("| %s | %s |" % (" | ".join(cells), met))
    if not fp16 and not args.no_chain:
        print_chain(args.bin, work)
    print("\nartifacts: %s" % work, file=sys.stderr)


if __name__ == "__main__":
    main()
