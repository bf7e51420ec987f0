#!/usr/bin/env python3
"""Single `tf` layers with constant weights through kiln-tf-to-cpu-pipeline,
two builds or two settings side by side, checked against NumPy.

    benchmarks/cpu/tf-layers.py [--a-bin /work/main/build/bin] \\
        [--b-bin build/bin] [--a OPTIONS] [--b OPTIONS] \\
        [--layers c3x3_7_512_512,...] [--rounds 3] [--repeat 30] [--onednn] \\
        [--each-converts]

Each layer is a `tf.Conv2D` / `tf.DepthwiseConv2dNative` (SAME padding)
followed by `tf.BiasAdd` and `tf.Relu`, a batch-1 `tf.MatMul` with
`tf.BiasAdd`, with random constant weights, or a `tf.ResizeBilinear` with
half_pixel_centers (the 2x up-sampling of selfie's and movenet's decoders):
the path a layer of a model takes. For each layer the script

1. writes the module and compiles it with kiln-compile (A's tools; with
   --each-converts each side's own, for builds that differ in the
   conversion from tf to linalg), keeping its linalg IR (the ABI phase,
   03-abi.mlir, of --dump-dir) and header;
2. lowers that IR with A's and B's kiln-opt and pipeline options, emits it
   for the host CPU (opt -O2, llc -O2, as kiln-compile does) and links it
   into benchmarks/peers/kiln-timer.c (ab-pipeline.py's build_variant);
3. runs the two programs alternately, ROUNDS rounds of WARMUP untimed and
   REPEAT timed runs each, one thread, and prints the median of the
   rounds' medians and the fastest run of each side, the MACs per second of
   B's fastest run, and each side's largest error against NumPy relative to
   the output's scale.

With --onednn, each conv, depthwise and resize layer is also run by oneDNN
in the same rounds (benchmarks/cpu/onednn/onednn-layer.cpp, compiled here
against Debian's libdnnl-dev: NHWC input and output, the filter reordered
once to oneDNN's layout, bias and ReLU as post-ops; a resize is oneDNN's
linear resampling, whose source coordinates are TensorFlow's
half_pixel_centers ones; one thread), and the table gets its median and
fastest run, B's ratio to them and its error.

Fresh result buffers are kept by malloc between runs
(GLIBC_TUNABLES mmap and trim thresholds at 1 GiB), so the times are the
layer's code, not the page faults of a new output buffer per run.
"""

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "ab_pipeline", ROOT / "benchmarks/cpu/ab-pipeline.py")
ab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ab)

# name: (kind, H, W, C, F, kernel, stride); a matmul ("fc") is H x C times
# C x F; a resize is H x W x C to F x kernel (output height and width);
# "convv" is a convolution with VALID padding.
LAYERS = {
    "c1x1_56_128_128": ("conv", 56, 56, 128, 128, 1, 1),
    "c1x1_28_32_192": ("conv", 28, 28, 32, 192, 1, 1),
    "c1x1_14_384_64": ("conv", 14, 14, 384, 64, 1, 1),
    "c1x1_7_960_320": ("conv", 7, 7, 960, 320, 1, 1),
    "c1x1_14_256_1024": ("conv", 14, 14, 256, 1024, 1, 1),
    "c1x1_7_2048_512": ("conv", 7, 7, 2048, 512, 1, 1),
    "c1x1_56_144_24": ("conv", 56, 56, 144, 24, 1, 1),
    "c1x1_112_16_96": ("conv", 112, 112, 16, 96, 1, 1),
    "c3x3_56_64_64": ("conv", 56, 56, 64, 64, 3, 1),
    "c3x3_14_256_256": ("conv", 14, 14, 256, 256, 3, 1),
    "c3x3_7_512_512": ("conv", 7, 7, 512, 512, 3, 1),
    "c3x3s2_224_3_32": ("conv", 224, 224, 3, 32, 3, 2),
    # One output channel: selfie's last layer (2x2 VALID over the 257x257x16
    # scatter of its transposed convolution), and SAME on 256x256x16.
    "c2x2v_257_16_1": ("convv", 257, 257, 16, 1, 2, 1),
    "c2x2_256_16_1": ("conv", 256, 256, 16, 1, 2, 1),
    "dw3x3_28_256": ("dw", 28, 28, 256, 256, 3, 1),
    "dw3x3_112_32": ("dw", 112, 112, 32, 32, 3, 1),
    # MobileNetV2's depthwise layers (the 112x112x96 one at stride 2).
    "dw3x3s2_112_96": ("dw", 112, 112, 96, 96, 3, 2),
    "dw3x3_56_144": ("dw", 56, 56, 144, 144, 3, 1),
    "dw3x3_28_192": ("dw", 28, 28, 192, 192, 3, 1),
    "dw3x3_14_384": ("dw", 14, 14, 384, 384, 3, 1),
    "dw3x3_14_576": ("dw", 14, 14, 576, 576, 3, 1),
    "dw3x3_7_960": ("dw", 7, 7, 960, 960, 3, 1),
    # 5x5 (blazeface, MobileNetV3, EfficientNet), at strides 1 and 2.
    "dw5x5_14_576": ("dw", 14, 14, 576, 576, 5, 1),
    "dw5x5s2_28_144": ("dw", 28, 28, 144, 144, 5, 2),
    "dw5x5_64_24": ("dw", 64, 64, 24, 24, 5, 1),
    "fc_1280_1000": ("fc", 1, 1, 1280, 1000, 1, 1),
    # selfie's decoder (16x16x128, 32x32x24, 64x64x16 to twice the size) and
    # movenet-lightning's last up-sampling.
    "rs_16_128": ("resize", 16, 16, 128, 32, 32, 1),
    "rs_32_24": ("resize", 32, 32, 24, 64, 64, 1),
    "rs_64_16": ("resize", 64, 64, 16, 128, 128, 1),
    "rs_24_24": ("resize", 24, 24, 24, 48, 48, 1),
    "mm_256_256_256": ("fc", 256, 1, 256, 256, 1, 1),
}


def tensor(shape):
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


def dense(array):
    return '"0x' + array.astype("<f4").tobytes().hex().upper() + '"'


def resize_half_pixel(x, OH, OW):
    """TensorFlow's ResizeBilinear with half_pixel_centers of NHWC `x`, in
    float32 as TensorFlow computes it (resize_bilinear_op.cc)."""
    def table(size, out):
        scale = np.float32(size) / np.float32(out)
        src = (np.arange(out, dtype=np.float32) + np.float32(0.5)) * scale \
            - np.float32(0.5)
        floor = np.floor(src)
        lower = np.maximum(floor, 0).astype(np.int64)
        upper = np.minimum(np.ceil(src), size - 1).astype(np.int64)
        return lower, upper, (src - floor).astype(np.float32)
    top, bottom, y = table(x.shape[1], OH)
    left, right, w = table(x.shape[2], OW)
    w = w[None, None, :, None]
    rows = [x[:, r][:, :, left] + (x[:, r][:, :, right] -
                                   x[:, r][:, :, left]) * w
            for r in (top, bottom)]
    return rows[0] + (rows[1] - rows[0]) * y[None, :, None, None]


def make_layer(kind, H, W, C, F, k, s, rng):
    """(module text, input, expected output, weights, bias) of one layer."""
    b = rng.standard_normal((F,)).astype(np.float32)
    if kind == "resize":
        x = rng.random((1, H, W, C), dtype=np.float32)
        expected = resize_half_pixel(x, F, k)
        w = np.zeros((0,), np.float32)
        body = (
            f'    %size = "tf.Const"() {{value = dense<[{F}, {k}]> : '
            f'tensor<2xi32>}} : () -> tensor<2xi32>\n'
            f'    %0 = "tf.ResizeBilinear"(%x, %size) {{half_pixel_centers = '
            f'true}} : ({tensor(x.shape)}, tensor<2xi32>) -> '
            f'{tensor(expected.shape)}\n'
            f'    return %0 : {tensor(expected.shape)}')
    elif kind == "fc":
        w = (rng.standard_normal((C, F)) * 0.05).astype(np.float32)
        x = rng.random((H, C), dtype=np.float32)
        expected = x @ w + b
        body = (
            f'    %w = "tf.Const"() {{value = dense<{dense(w)}> : '
            f'{tensor(w.shape)}}} : () -> {tensor(w.shape)}\n'
            f'    %b = "tf.Const"() {{value = dense<{dense(b)}> : '
            f'{tensor(b.shape)}}} : () -> {tensor(b.shape)}\n'
            f'    %0 = "tf.MatMul"(%x, %w) : ({tensor(x.shape)}, '
            f'{tensor(w.shape)}) -> {tensor(expected.shape)}\n'
            f'    %1 = "tf.BiasAdd"(%0, %b) : ({tensor(expected.shape)}, '
            f'{tensor(b.shape)}) -> {tensor(expected.shape)}\n'
            f'    return %1 : {tensor(expected.shape)}')
    else:
        dense_conv = kind in ("conv", "convv")
        wshape = (k, k, C, F) if dense_conv else (k, k, C, 1)
        w = (rng.standard_normal(wshape) / np.sqrt(k * k * C)).astype(
            np.float32)
        x = rng.random((1, H, W, C), dtype=np.float32)
        OH, OW = -(-H // s), -(-W // s)
        if kind == "convv":
            OH, OW = (H - k) // s + 1, (W - k) // s + 1
        pad_h = max((OH - 1) * s + k - H, 0)
        pad_w = max((OW - 1) * s + k - W, 0)
        xp = np.pad(x, ((0, 0), (pad_h // 2, pad_h - pad_h // 2),
                        (pad_w // 2, pad_w - pad_w // 2), (0, 0)))
        acc = np.zeros((1, OH, OW, F), np.float64)
        for i in range(k):
            for j in range(k):
                window = xp[:, i:i + (OH - 1) * s + 1:s,
                            j:j + (OW - 1) * s + 1:s, :].astype(np.float64)
                if dense_conv:
                    acc += window @ w[i, j].astype(np.float64)
                else:
                    acc += window * w[i, j, :, 0].astype(np.float64)
        expected = np.maximum(acc + b, 0).astype(np.float32)
        op = "tf.Conv2D" if dense_conv else "tf.DepthwiseConv2dNative"
        padding = "VALID" if kind == "convv" else "SAME"
        r = tensor(expected.shape)
        body = (
            f'    %w = "tf.Const"() {{value = dense<{dense(w)}> : '
            f'{tensor(wshape)}}} : () -> {tensor(wshape)}\n'
            f'    %b = "tf.Const"() {{value = dense<{dense(b)}> : '
            f'{tensor(b.shape)}}} : () -> {tensor(b.shape)}\n'
            f'    %0 = "{op}"(%x, %w) {{padding = "{padding}", strides = '
            f'[1, {s}, {s}, 1]}} : ({tensor(x.shape)}, {tensor(wshape)}) '
            f'-> {r}\n'
            f'    %1 = "tf.BiasAdd"(%0, %b) : ({r}, {tensor(b.shape)}) -> {r}\n'
            f'    %2 = "tf.Relu"(%1) : ({r}) -> {r}\n'
            f'    return %2 : {r}')
    text = ("module {\n  func.func @main(%x: " + tensor(x.shape) + ") -> " +
            tensor(expected.shape) + ' attributes {tf.entry_function = '
            '{inputs = "x", outputs = "y"}} {\n' + body + "\n  }\n}\n")
    return text, x, expected, w, b


def macs(kind, H, W, C, F, k, s):
    """Multiply-adds of a layer; for a resize, its output elements."""
    if kind == "resize":
        return F * k * C
    if kind == "fc":
        return H * C * F
    OH, OW = -(-H // s), -(-W // s)
    if kind == "convv":
        OH, OW = (H - k) // s + 1, (W - k) // s + 1
    return OH * OW * k * k * (C * F if kind in ("conv", "convv") else C)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a-bin", type=Path, default=ROOT / "build/bin")
    parser.add_argument("--b-bin", type=Path, default=ROOT / "build/bin")
    parser.add_argument("--a", default="", help="pipeline options of A")
    parser.add_argument("--b", default="", help="pipeline options of B")
    parser.add_argument("--layers", default=",".join(LAYERS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--keep", type=Path, help="keep the build files here")
    parser.add_argument("--onednn", action="store_true",
                        help="also time oneDNN's convolution of each conv or "
                        "depthwise layer, its resampling of each resize "
                        "(onednn/onednn-layer.cpp; needs Debian's "
                        "libdnnl-dev) in the same rounds")
    parser.add_argument("--each-converts", action="store_true",
                        help="each side's kiln-compile converts the layer to "
                        "linalg (by default A's does, for both)")
    args = parser.parse_args()
    os.environ["GLIBC_TUNABLES"] = ("glibc.malloc.mmap_threshold=1073741824:"
                                    "glibc.malloc.trim_threshold=1073741824")
    scratch = args.keep or Path(tempfile.mkdtemp(prefix="kiln-layers-"))
    scratch.mkdir(parents=True, exist_ok=True)
    cpu = ab.host_cpu()
    onednn = None
    if args.onednn:
        onednn = scratch / "onednn-layer"
        source = ROOT / "benchmarks/cpu/onednn/onednn-layer.cpp"
        # Built once per --keep directory (again when the source changed).
        if (not onednn.exists() or
                onednn.stat().st_mtime < source.stat().st_mtime):
            ab.run(["c++", "-O2", "-fopenmp", source, "-ldnnl", "-o", onednn])
    bins = {"a": args.a_bin.resolve(), "b": args.b_bin.resolve()}
    options = {"a": args.a, "b": args.b}
    print(f"A: {bins['a']} {args.a!r}  B: {bins['b']} {args.b!r}  "
          f"({args.rounds} rounds of {args.warmup} + {args.repeat} runs; "
          f"load average {os.getloadavg()[0]:.1f} at start)\n")
    extra = (" oneDNN median (ms) | oneDNN fastest | B / oneDNN median | "
             "B / oneDNN fastest | oneDNN error |") if onednn else ""
    print("| layer | A median (ms) | B median (ms) | B speed-up | A fastest | "
          "B fastest | B speed-up (fastest) | B GMAC/s (fastest) | A error | "
          "B error |" + extra)
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|" +
          ("---:|" * 5 if onednn else ""))
    impls = {}
    rng = np.random.default_rng(0)
    for name in args.layers.split(","):
        spec = LAYERS[name]
        text, x, expected, w, b = make_layer(*spec, rng)
        work = scratch / name
        work.mkdir(parents=True, exist_ok=True)
        (work / "layer.mlir").write_text(text)
        x.tofile(work / "input_0.bin")
        w.astype("<f4").tofile(work / "weights.bin")
        b.astype("<f4").tofile(work / "bias.bin")
        with_onednn = onednn is not None and spec[0] in ("conv", "convv",
                                                         "dw", "resize")
        converters = {side: bins[side if args.each_converts else "a"]
                      for side in "ab"}
        timers = {}
        for side in "ab":
            dump = work / f"dump-{side}"
            if side == "a" or args.each_converts:
                ab.run([converters[side] / "kiln-compile", work / "layer.mlir",
                        "--symbol=kiln_model", "-o", work / "layer.o",
                        f"--header={work / 'model.h'}", f"--dump-dir={dump}"])
            else:
                dump = work / "dump-a"
            timers[side] = ab.build_variant(dump / "03-abi.mlir",
                                            work / "model.h", options[side],
                                            bins[side], work / side, cpu)
        feeds = [f"{work}/input_0.bin:" + ",".join(map(str, x.shape))]
        medians = {"a": [], "b": [], "onednn": []}
        fastest = {"a": [], "b": [], "onednn": []}
        errors = {}
        scale = max(float(np.abs(expected).max()), 1e-6)
        for _ in range(args.rounds):
            for side in "ab":
                (work / side / "out").mkdir(exist_ok=True)
                median, low, outputs = ab.time_once(
                    timers[side], args.warmup, args.repeat,
                    work / side / "out", feeds)
                medians[side].append(median)
                fastest[side].append(low)
                got = np.array(outputs[0], np.float32)
                errors[side] = float(
                    np.abs(got - expected.reshape(-1)).max()) / scale
            if with_onednn:
                printed = ab.run([onednn, *map(str, spec), args.warmup,
                                  args.repeat, work], text=True,
                                 capture_output=True).stdout
                for line in printed.splitlines():
                    if line.startswith("times_ms "):
                        times = [float(t) for t in line.split()[1:]]
                    elif line.startswith("impl "):
                        impls[name] = line.split(" ", 1)[1]
                medians["onednn"].append(statistics.median(times))
                fastest["onednn"].append(min(times))
                got = np.fromfile(work / "onednn-out.bin", "<f4")
                errors["onednn"] = float(
                    np.abs(got - expected.reshape(-1)).max()) / scale
        a, b = (statistics.median(medians[s]) for s in "ab")
        a_min, b_min = min(fastest["a"]), min(fastest["b"])
        rate = macs(*spec) / (b_min * 1e6)
        row = (f"| {name} | {a:.3f} | {b:.3f} | {a / b:.2f}x | {a_min:.3f} | "
               f"{b_min:.3f} | {a_min / b_min:.2f}x | {rate:.1f} | "
               f"{errors['a']:.1e} | {errors['b']:.1e} |")
        if with_onednn:
            d = statistics.median(medians["onednn"])
            d_min = min(fastest["onednn"])
            row += (f" {d:.3f} | {d_min:.3f} | {b / d:.2f}x | "
                    f"{b_min / d_min:.2f}x | {errors['onednn']:.1e} |")
        elif onednn:
            row += " – | – | – | – | – |"
        print(row, flush=True)
    for name, impl in impls.items():
        print(f"oneDNN implementation of {name}: {impl}")
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end; "
          f"build files in {scratch}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
