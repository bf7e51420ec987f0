"""The pinned npm graph models against TensorFlow (docs/e2e.md).

Every TF.js graph model of the three pinned packages (test/models/
fetch-models.sh: 48 model.json files) is run twice on the same seeded
inputs:

- Kiln compiles the model.json itself (`kiln-run --backend=cpu`, JIT), as a
  user would;
- TensorFlow runs the same graph: Kiln's importer reads the model.json
  (`kiln-translate --import-tfjs`, weights dequantized as TF.js does) and
  its exporter writes a frozen GraphDef whose `_Arg` and `_Retval` nodes are
  the signature's inputs and outputs in order (`--export-graphdef
  -tf-graph-as-function`); TensorFlow imports that into a fresh graph and
  runs it in a session. Ops only TF.js defines (FusedDepthwiseConv2dNative,
  Prelu) are first rewritten into the TensorFlow ops they fuse
  (tfjs_ops.py); the graph TensorFlow ran is then kept as
  tensorflow.pb.

Each output is compared within the model's tolerance relative to its scale
(its largest finite |value|, compare.py). Where TensorFlow cannot run the
exported graph (a kernel TensorFlow's CPU build lacks) there is nothing to compare with; the model is listed in
test/e2e/xfail/npm-tensorflow.txt with TensorFlow's error, strictly.

Run it for every model with `python -m kiln_e2e.npm` (a table on stdout) or
through pytest (`npm_models/test_npm_models.py`, which also writes the
report)."""

import argparse
import dataclasses
import json
import mmap
import os
import re
import subprocess
import sys
import time
from typing import Optional

import numpy as np

from .backends import TIMEOUT, _run
from .compare import compare
from .report import Outcome
from .tfjs_ops import rewrite_tfjs_only_ops

PACKAGES = ("vladmandic__human-models@3.0.4", "handtrackjs@0.1.5",
            "upscalerjs__maxim-deblurring@0.1.0")


def model_cache() -> str:
    return os.path.realpath(os.environ.get(
        "KILN_MODEL_CACHE", os.path.expanduser("~/.cache/kiln/models")))


@dataclasses.dataclass
class Spec:
    """How one model is run: its fixed input shapes where the signature
    leaves sizes open, fixed input values, and its tolerance."""

    # Input shapes in signature order (None: the signature's, batch 1).
    shapes: Optional[list] = None
    # Input index -> a fixed array (recurrent states, ratios).
    fixed: dict = dataclasses.field(default_factory=dict)
    # Generated integer inputs are uniform in [0, int_high).
    int_high: int = 256
    rtol: float = 1e-4
    atol: float = 1e-6
    # Why the tolerance is not the default (required then), from a
    # measurement.
    why: str = ""
    # Output index -> the column of its rows' scores, for outputs whose rows
    # are detections ranked by score (TopKV2, NonMaxSuppression): rows whose
    # scores TensorFlow has within the tolerance of each other are a tie,
    # and their order is the summation order's choice; compare_ranked
    # matches them before comparing.
    ranked: dict = dataclasses.field(default_factory=dict)
    # Seconds kiln-run may take (compile and one run) before the case is a
    # timeout; above the framework's default only for a model whose compile
    # is measured to need it (`why_timeout`, required then).
    timeout: int = TIMEOUT
    why_timeout: str = ""


# Models whose signature leaves sizes open, or whose inputs are not images.
# Sizes are the ones their users feed: handtrack's detectors at their
# training resolutions, MAXIM at its smallest size (at 32x32 its own graph
# reshapes to a zero size), rvm's first frame at
# 256x144 with the recurrent states as TF.js's example passes them (scalar
# zeros) and downsample_ratio 0.5.
SPECS = {
    "handtrack_ssd320fpnlite_base": Spec([[1, 320, 320, 3]]),
    "handtrack_ssd320fpnlite_fp16": Spec([[1, 320, 320, 3]]),
    "handtrack_ssd320fpnlite_int8": Spec([[1, 320, 320, 3]]),
    "handtrack_ssd640fpnlite_base": Spec([[1, 640, 640, 3]]),
    "handtrack_ssd640fpnlite_fp16": Spec([[1, 640, 640, 3]]),
    "handtrack_ssd640fpnlite_int8": Spec([[1, 640, 640, 3]]),
    "maxim_deblurring": Spec(
        [[1, 64, 64, 3]], timeout=1800,
        why_timeout="kiln-run compiles MAXIM's 42,959 nodes at 64x64 in 283 s "
        "of CPU (2026-11-25: 352 s at load 5, llvm 126 s and JIT 220 s; "
        "docs/performance-compile.md); on two cores shared with builds it "
        "gets a third of a core or less"),
    "faceboxes": Spec([[1, 256, 256, 3]]),
    # Output 2 is the top 100 detections [ymin, xmin, ymax, xmax, score,
    # class]: on the seeded input, TensorFlow's rows 4 and 5 both score
    # 0.008173333; Kiln's scores of the same two boxes are within 5e-8 of
    # that and come out in the other order.
    "centernet": Spec(ranked={2: 4}),
    # Signature order: src, r2i, downsample_ratio, r1i, r3i, r4i.
    "rvm": Spec([[1, 144, 256, 3], [], [], [], [], []],
                fixed={1: 0.0, 2: 0.5, 3: 0.0, 4: 0.0, 5: 0.0}),
}

# BlazePose's segmentation mask (256x256, a sigmoid of an up-sampled
# decoder) is the one output whose summation order shows: on the seeded
# input, TensorFlow's own oneDNN kernels differ from its plain kernels by
# 9.9e-4 (full), 7.1e-4 (heavy) and 9.6e-4 (lite) of its scale
# (`python -m kiln_e2e.npm --onednn-spread`), and Kiln by 9.9e-4, 4.7e-4
# and 9.6e-4, on a few dozen of its 65,536 elements; every other output is
# within 6.7e-5 both ways. 2e-3 is twice the largest spread.
_BLAZEPOSE_WHY = ("the segmentation mask: TensorFlow's oneDNN and plain "
                  "kernels differ by up to 9.9e-4 of its scale, Kiln by "
                  "up to 9.9e-4 (measured)")
for _variant in ("full", "heavy", "lite"):
    SPECS[f"blazepose_{_variant}"] = Spec(rtol=2e-3, why=_BLAZEPOSE_WHY)

# The CI subset: two fast models (each compiles in a few seconds).
CI_MODELS = ("emotion", "liveness")


@dataclasses.dataclass
class Model:
    name: str
    path: str
    input_names: list
    dtypes: list
    shapes: list
    spec: Spec


def _is_graph_model(path: str) -> bool:
    with open(path, "rb") as f:
        try:
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:
            return False
        with data:
            return (data.find(b'"modelTopology"') >= 0 and
                    data.find(b'"graph-model"') >= 0)


def _name(cache: str, path: str) -> str:
    """A case name from the model's path: human-models' by file name,
    handtrack's by folder, MAXIM's by package."""
    rel = os.path.relpath(path, cache)
    package, rest = rel.split(os.sep, 1)
    if package.startswith("handtrackjs"):
        parts = rest.split(os.sep)
        return "handtrack_" + "_".join(parts[-3:-1])
    if package.startswith("upscalerjs__maxim"):
        return "maxim_deblurring"
    return re.sub(r"[^A-Za-z0-9_]", "_", os.path.splitext(
        os.path.basename(path))[0])


def _signature_inputs(model: dict):
    """(names, dtypes, shapes) of the inputs in signature order, as Kiln's
    importer and TF.js take them."""
    signature = model.get("signature") or \
        (model.get("userDefinedMetadata") or {}).get("signature") or {}
    inputs = signature.get("inputs")
    if inputs:
        items = [(name, info.get("dtype"),
                  [int(d.get("size", 0)) for d in
                   info.get("tensorShape", {}).get("dim", [])])
                 for name, info in inputs.items()]
    else:
        items = []
        for node in model["modelTopology"].get("node", []):
            if node.get("op") != "Placeholder":
                continue
            attr = node.get("attr", {})
            dims = attr.get("shape", {}).get("shape", {}).get("dim", [])
            items.append((node["name"], attr.get("dtype", {}).get("type"),
                          [int(d.get("size", 0)) for d in dims]))
    names = [i[0] for i in items]
    dtypes = [i[1] if isinstance(i[1], str) else (i[1] or {}).get("type")
              for i in items]
    return names, dtypes, [i[2] for i in items]


def find_models(cache: Optional[str] = None) -> list:
    """Every graph model of the pinned packages, sorted by name."""
    cache = cache or model_cache()
    models = []
    for package in PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(cache, package)):
            dirs.sort()
            for file in sorted(files):
                path = os.path.join(folder, file)
                if not file.endswith(".json") or not _is_graph_model(path):
                    continue
                name = _name(cache, path)
                with open(path) as f:
                    names, dtypes, shapes = _signature_inputs(json.load(f))
                spec = SPECS.get(name, Spec())
                if spec.shapes is not None:
                    shapes = spec.shapes
                shapes = [[1 if (i == 0 and d == -1) else d
                           for i, d in enumerate(s)] for s in shapes]
                if any(d < 0 for s in shapes for d in s):
                    raise ValueError(f"{name}: input sizes {shapes} are open;"
                                     " give them in npm.SPECS")
                if (spec.rtol, spec.atol) != (1e-4, 1e-6) and not spec.why:
                    raise ValueError(f"{name}: a tolerance without a reason")
                if spec.timeout > TIMEOUT and not spec.why_timeout:
                    raise ValueError(f"{name}: a longer timeout without a "
                                     "reason")
                models.append(Model(name, path, names, dtypes, shapes, spec))
    return sorted(models, key=lambda m: m.name)


_NUMPY = {"DT_FLOAT": np.float32, "DT_INT32": np.int32, "DT_UINT8": np.uint8,
          "DT_INT64": np.int64, "DT_BOOL": np.bool_}


def make_inputs(model: Model, seed: int = 7) -> list:
    """Seeded inputs: floats uniform in [0, 1) (the models take images
    scaled so), integers in [0, int_high); fixed ones as given."""
    rng = np.random.default_rng(seed)
    arrays = []
    for i, (dtype, shape) in enumerate(zip(model.dtypes, model.shapes)):
        np_type = _NUMPY[dtype]
        if i in model.spec.fixed:
            arrays.append(np.asarray(model.spec.fixed[i], np_type))
        elif np.issubdtype(np_type, np.floating):
            arrays.append(rng.uniform(0, 1, shape).astype(np_type))
        else:
            arrays.append(rng.integers(0, model.spec.int_high, shape)
                          .astype(np_type))
    return arrays


def _shape_flag(arrays) -> str:
    return ":".join(",".join(str(d) for d in a.shape) for a in arrays)


def export_graph_def(model: Model, bin_dir: str, out_dir: str,
                     inputs: list):
    """Kiln's frozen GraphDef of the model (weights as Consts), as
    TensorFlow loads it, or raises with the failing step's output."""
    from tensorflow.core.framework import graph_pb2

    translate = os.path.join(bin_dir, "kiln-translate")
    imported = os.path.join(out_dir, "imported.mlir")
    # Binary: MAXIM's text export is 277 MB, which TensorFlow's text parser
    # takes minutes to read.
    exported = os.path.join(out_dir, "exported.pb")
    for command, log in (
            ([translate, "--import-tfjs", model.path,
              "-tfjs-input-shapes=" + _shape_flag(inputs), "-o", imported],
             "import.log"),
            ([translate, "--export-graphdef", imported,
              "-tf-graph-as-function", "-graphdef-output-format=pb", "-o",
              exported], "export.log")):
        status, output = _run(command, os.path.join(out_dir, log), out_dir)
        if status != 0:
            raise RuntimeError(f"{os.path.basename(command[0])} "
                               f"{command[1]} failed: {output.strip()[-500:]}")
    graph_def = graph_pb2.GraphDef()
    with open(exported, "rb") as f:
        graph_def.ParseFromString(f.read())
    if complete_for_tensorflow(graph_def):
        with open(os.path.join(out_dir, "tensorflow.pb"), "wb") as f:
            f.write(graph_def.SerializeToString())
    return graph_def


def complete_for_tensorflow(graph_def) -> list:
    """Makes a GraphDef of a TF.js model one TensorFlow runs: ops only TF.js
    defines rewritten (tfjs_ops.py), and the `TArgs` TF.js leaves out of
    _FusedConv2D (`T` once per fused argument) added. Returns the op types
    rewritten."""
    from tensorflow.python.framework import op_def_registry

    rewritten = rewrite_tfjs_only_ops(graph_def)
    for node in graph_def.node:
        op_def = op_def_registry.get(node.op)
        if op_def and any(a.name == "TArgs" for a in op_def.attr) and \
                "TArgs" not in node.attr and "num_args" in node.attr:
            node.attr["TArgs"].list.type.extend(
                [node.attr["T"].type] * node.attr["num_args"].i)
    return rewritten


def run_tensorflow(graph_def, inputs: list) -> list:
    """TensorFlow running the exported graph on `inputs`, feeding the `_Arg`
    nodes and fetching the `_Retval` nodes' inputs, single-threaded."""
    import tensorflow as tf

    from .roundtrip import graph_as_function_signature

    args, rets = graph_as_function_signature(graph_def)
    if len(args) != len(inputs):
        raise ValueError(f"the export has {len(args)} _Arg nodes for "
                         f"{len(inputs)} inputs")
    with tf.Graph().as_default() as graph:
        tf.compat.v1.import_graph_def(graph_def, name="")
    config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=1,
                                      inter_op_parallelism_threads=1)
    with tf.compat.v1.Session(graph=graph, config=config) as session:
        outputs = session.run(rets, dict(zip(args, inputs)))
    return [np.asarray(o) for o in outputs]


def match_ties(actual, expected, column: int, rtol: float, atol: float):
    """`actual` (detections: [..., rows, fields], ranked by the score in
    `column`) with the rows of each tie reordered to match `expected`'s: a
    tie is a run of consecutive rows whose expected scores differ by at most
    atol + rtol * (the largest |score|), within which the summation order
    decides the ranking. Each expected row of a tie takes the closest
    actual row of the same tie. Shapes that do not fit are left as they
    are (compare reports them)."""
    if actual.shape != expected.shape or expected.ndim < 2 or \
            column >= expected.shape[-1]:
        return actual
    actual = actual.copy()
    flat_a = actual.reshape(-1, expected.shape[-2], expected.shape[-1])
    flat_e = expected.reshape(flat_a.shape)
    for a, e in zip(flat_a, flat_e):
        scores = e[:, column].astype(np.float64)
        bound = atol + rtol * float(np.max(np.abs(scores), initial=0.0))
        start = 0
        while start < len(scores):
            end = start + 1
            while end < len(scores) and \
                    abs(scores[end] - scores[end - 1]) <= bound:
                end += 1
            if end - start > 1:
                rows = list(range(start, end))
                taken = []
                for r in rows:
                    free = [c for c in rows if c not in taken]
                    best = min(free, key=lambda c: float(np.max(np.abs(
                        a[c].astype(np.float64) - e[r]))))
                    taken.append(best)
                a[start:end] = a[taken].copy()
            start = end
    return actual


def onednn_spread(model: Model, bin_dir: str, artifacts: str) -> list:
    """How far TensorFlow's oneDNN kernels (TF_ENABLE_ONEDNN_OPTS=1) are from
    its plain kernels on this model and input: per output, the largest
    difference relative to the output's scale. Measures how sensitive an
    output is to the order of floating-point operations, which is what a
    tolerance above 1e-4 must be justified by. Runs TensorFlow twice in
    fresh processes (the option is read when TensorFlow loads)."""
    out_dir = os.path.join(artifacts, f"npm_{model.name}", "spread")
    os.makedirs(out_dir, exist_ok=True)
    inputs = make_inputs(model)
    export_graph_def(model, bin_dir, out_dir, inputs)
    for i, array in enumerate(inputs):
        np.save(os.path.join(out_dir, f"input_{i}.npy"), array)
    script = (
        "import os, sys, numpy as np\n"
        "from tensorflow.core.framework import graph_pb2\n"
        "from kiln_e2e import npm\n"
        "d, tag = sys.argv[1], sys.argv[2]\n"
        "g = graph_pb2.GraphDef()\n"
        "g.ParseFromString(open(os.path.join(d, 'exported.pb'), "
        "'rb').read())\n"
        "npm.complete_for_tensorflow(g)\n"
        "n = len([f for f in os.listdir(d) if f.startswith('input_')])\n"
        "xs = [np.load(os.path.join(d, f'input_{i}.npy')) for i in "
        "range(n)]\n"
        "for i, o in enumerate(npm.run_tensorflow(g, xs)):\n"
        "    np.save(os.path.join(d, f'{tag}_{i}.npy'), o)\n")
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for tag, flag in (("plain", "0"), ("onednn", "1")):
        env = dict(os.environ, TF_ENABLE_ONEDNN_OPTS=flag,
                   PYTHONPATH=here)
        subprocess.run([sys.executable, "-c", script, out_dir, tag],
                       check=True, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    spreads = []
    i = 0
    while os.path.exists(os.path.join(out_dir, f"plain_{i}.npy")):
        plain = np.load(os.path.join(out_dir, f"plain_{i}.npy"))
        other = np.load(os.path.join(out_dir, f"onednn_{i}.npy"))
        if i in model.spec.ranked:
            other = match_ties(other, plain, model.spec.ranked[i],
                               model.spec.rtol, model.spec.atol)
        spreads.append(compare(other, plain, 0.0, 0.0).max_rel_error)
        i += 1
    return spreads


def run_model(model: Model, bin_dir: str, artifacts: str) -> Outcome:
    """One model: Kiln's outputs against TensorFlow's, as an Outcome of the
    case `npm_<name>` on `cpu`."""
    from .roundtrip import _one_line

    out_dir = os.path.join(artifacts, f"npm_{model.name}")
    os.makedirs(out_dir, exist_ok=True)
    outcome = Outcome(f"npm_{model.name}", "cpu", "error", artifacts=out_dir)
    inputs = make_inputs(model)
    paths = []
    for i, array in enumerate(inputs):
        paths.append(os.path.join(out_dir, f"input_{i}.npy"))
        np.save(paths[-1], array)

    start = time.monotonic()
    try:
        graph_def = export_graph_def(model, bin_dir, out_dir, inputs)
        expected = run_tensorflow(graph_def, inputs)
    except Exception as e:  # noqa: BLE001 - any import or TensorFlow error
        outcome.step = "reference"
        outcome.detail = "TensorFlow cannot run Kiln's export: " + \
            _one_line(e)
        outcome.log = outcome.detail
        return outcome
    outcome.tf_ms = (time.monotonic() - start) * 1000
    for i, array in enumerate(expected):
        np.save(os.path.join(out_dir, f"tensorflow_{i}.npy"), array)

    kiln_dir = os.path.join(out_dir, "cpu")
    os.makedirs(kiln_dir, exist_ok=True)
    command = [os.path.join(bin_dir, "kiln-run"), "--backend=cpu",
               model.path, "--input-shapes=" + _shape_flag(inputs),
               "--input=" + ",".join(paths), f"--output-dir={kiln_dir}"]
    status, output = _run(command, os.path.join(kiln_dir, "kiln-run.log"),
                          kiln_dir, timeout=model.spec.timeout)
    outcome.log = output
    compiled = re.search(r"compiled in (\d+) ms", output)
    ran = re.search(r"ran in ([\d.]+) ms", output)
    outcome.compile_ms = float(compiled.group(1)) if compiled else None
    outcome.run_ms = float(ran.group(1)) if ran else None
    if status != 0:
        from .runner import _first_error
        outcome.step = "timeout" if status == "timeout" else (
            "run" if compiled else "compile")
        outcome.detail = _first_error(output)
        return outcome
    outcome.status = "pass"
    details, worst = [], None
    for i, want in enumerate(expected):
        path = os.path.join(kiln_dir, f"output_{i}.npy")
        if not os.path.exists(path):
            outcome.status, outcome.step = "error", "run"
            outcome.detail = f"kiln-run wrote no output_{i}.npy"
            return outcome
        actual = np.load(path)
        if i in model.spec.ranked:
            actual = match_ties(actual, want, model.spec.ranked[i],
                                model.spec.rtol, model.spec.atol)
        comparison = compare(actual, want, model.spec.rtol, model.spec.atol)
        if worst is None or comparison.max_rel_error > worst.max_rel_error:
            worst = comparison
        outcome.max_abs_error = max(outcome.max_abs_error or 0.0,
                                    comparison.max_abs_error)
        outcome.max_rel_error = max(outcome.max_rel_error or 0.0,
                                    comparison.max_rel_error)
        details.append(f"output {i}: {comparison.describe()}")
        if not comparison.passed:
            outcome.status = "fail"
            if outcome.first_mismatch is None:
                outcome.first_mismatch = comparison.first_mismatch
    outcome.detail = "; ".join(details)
    return outcome


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kiln_e2e.npm",
        description="Every pinned npm graph model compiled by Kiln against "
        "TensorFlow running Kiln's exported GraphDef (docs/e2e.md).")
    parser.add_argument("names", nargs="*", help="models to run (default: "
                        "all); see --list")
    parser.add_argument("--list", action="store_true",
                        help="print the models with their input shapes")
    parser.add_argument("--kiln-bin-dir", default=os.environ.get(
        "KILN_BIN_DIR", os.path.join(os.path.dirname(__file__), "..", "..",
                                     "..", "..", "build", "bin")))
    parser.add_argument("--artifacts-dir", default="npm-out")
    parser.add_argument("--onednn-spread", action="store_true",
                        help="instead of Kiln, measure how far TensorFlow's "
                        "oneDNN kernels are from its plain ones on each "
                        "output (relative to its scale)")
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    models = find_models()
    if args.names:
        unknown = set(args.names) - {m.name for m in models}
        if unknown:
            parser.error("unknown models: " + ", ".join(sorted(unknown)))
        models = [m for m in models if m.name in args.names]
    if args.list:
        for m in models:
            print(m.name, _shape_flag([np.zeros(s) for s in m.shapes]),
                  os.path.relpath(m.path, model_cache()))
        return 0
    bin_dir = os.path.realpath(args.kiln_bin_dir)
    if args.onednn_spread:
        for model in models:
            spreads = onednn_spread(model, bin_dir, args.artifacts_dir)
            print(f"{model.name:32} " + " ".join(
                f"{s:.2g}" for s in spreads), flush=True)
        return 0
    failed = 0
    for model in models:
        outcome = run_model(model, bin_dir, args.artifacts_dir)
        failed += outcome.status != "pass"
        rel = "" if outcome.max_rel_error is None else \
            f"{outcome.max_rel_error:.2g}"
        print(f"{model.name:32} {outcome.status:6} {rel:8} "
              f"{outcome.step:10} {outcome.detail[:200]}", flush=True)
    print(f"{len(models) - failed} of {len(models)} pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
