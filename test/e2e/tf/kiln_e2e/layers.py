"""Per-layer tests of any model (torq's workflow, docs/e2e.md): a model is
split into single-node subgraphs with their real weights, each fed the
reference's own intermediate values; Kiln compiles and runs each, and the
first layer whose outputs differ from TensorFlow's, in topological order, is
reported by node name.

    python -m kiln_e2e.layers MODEL [--input-shapes=1,224,224,3] [...]

MODEL is a GraphDef (.pb, .pbtxt), a SavedModel directory (a signature is
frozen with convert_variables_to_constants_v2) or a TF.js model.json (Kiln's
importer reads it and its exporter writes the GraphDef that TensorFlow then
runs). TensorFlow runs the whole graph once and fetches every intermediate
tensor; then, for every node in topological order:

- a node computed from constants only (a Const, an Identity of one, a
  ReadVariableOp frozen into one) is a weight, not a layer: it is not tested
  on its own, and its value becomes a Const in the subgraphs that use it;
- the node is copied with its attributes (and the graph's function library,
  for If and While); each data input becomes a Const holding the value when
  it is a weight or an integer (a shape, an axis, indices: computed from
  static shapes, which Kiln folds in the whole model, so feeding it would
  test a dynamic-shape path the model does not take), else a Placeholder of
  the intermediate's type and shape fed with TensorFlow's value; control
  inputs are dropped;
- kiln-run compiles and runs the subgraph (the `cpu` backend of
  backends.py), and each output is compared with TensorFlow's value of it
  (compare.py, within the tolerance given).

The weights may be taken from another copy of the graph than the one
TensorFlow runs (`kiln_graph_def`): a copy with one layer's weights changed
is how the splitter is tested (test_layers.py); the reported first diverging
node must be that layer.
"""

import argparse
import dataclasses
import os
import re
import subprocess
import sys
import time
from typing import Optional

import numpy as np

from .backends import KilnCPU
from .case import FrozenGraph
from .compare import compare

_FLOATS = ("float16", "bfloat16", "float32", "float64")


@dataclasses.dataclass
class Model:
    """A GraphDef with its feeds, fetches and the inputs to run it on."""

    name: str
    graph_def: object
    # Placeholder node names and their DT_ type names, in input order.
    feeds: list
    feed_types: list
    # Fetched tensors, "node:index".
    fetches: list
    inputs: list


@dataclasses.dataclass
class LayerResult:
    """One node's subgraph compared with TensorFlow."""

    node: str
    op: str
    # pass, fail, error (Kiln failed to compile or run; `step` says where).
    status: str = "error"
    max_abs_error: Optional[float] = None
    max_rel_error: Optional[float] = None
    detail: str = ""
    step: str = ""
    compile_ms: Optional[float] = None
    run_ms: Optional[float] = None
    artifacts: str = ""
    log: str = ""


def tensor_name(name: str) -> str:
    """'node' -> 'node:0'; 'node:1' stays."""
    return name if ":" in name else name + ":0"


def case_name(model: str, node: str) -> str:
    """The pytest name of a node's case: `<model>_layer_<node>` with every
    character other than letters, digits and '_' replaced by '_'."""
    return f"{model}_layer_" + re.sub(r"[^A-Za-z0-9_]", "_", node)


def topological_order(graph_def) -> list:
    """The graph's nodes in topological order (data and control edges),
    ties kept in the GraphDef's order."""
    by_name = {n.name: n for n in graph_def.node}
    position = {n.name: i for i, n in enumerate(graph_def.node)}
    pending = {n.name: 0 for n in graph_def.node}
    users = {n.name: [] for n in graph_def.node}
    for node in graph_def.node:
        for source in node.input:
            producer = source.lstrip("^").split(":")[0]
            if producer in by_name:
                pending[node.name] += 1
                users[producer].append(node.name)
    import heapq
    ready = [(position[n], n) for n, count in pending.items() if count == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, name = heapq.heappop(ready)
        order.append(by_name[name])
        for user in users[name]:
            pending[user] -= 1
            if pending[user] == 0:
                heapq.heappush(ready, (position[user], user))
    if len(order) != len(by_name):
        raise ValueError("the graph has a cycle")
    return order


class Reference:
    """TensorFlow running the model's graph once, with every intermediate
    tensor fetched; and which nodes are weights (computed from constants
    only)."""

    def __init__(self, model: Model, kiln_graph_def=None):
        import tensorflow as tf

        self.model = model
        self.graph = tf.Graph()
        with self.graph.as_default():
            tf.compat.v1.import_graph_def(model.graph_def, name="")
        self.order = topological_order(model.graph_def)
        self.constant = set()
        for node in self.order:
            op = self.graph.get_operation_by_name(node.name)
            data = [i for i in node.input if not i.startswith("^")]
            if node.op == "Const" or (
                    data and not op.op_def.is_stateful and all(
                        i.split(":")[0] in self.constant for i in data)):
                self.constant.add(node.name)
        fetchable = [t for node in self.order
                     for t in self.graph.get_operation_by_name(
                         node.name).outputs if _fetchable(t)]
        feeds = {self.graph.get_tensor_by_name(tensor_name(f)): a
                 for f, a in zip(model.feeds, model.inputs)}
        with tf.compat.v1.Session(graph=self.graph, config=_plain()) as session:
            values = session.run(fetchable, feeds)
        self.values = {t.name: np.asarray(v)
                       for t, v in zip(fetchable, values)}
        # Weights of the graph Kiln compiles: the same unless told otherwise.
        self.weights = self.values
        # The outputs the model uses: a node's other outputs (the saved
        # statistics and reserve space of FusedBatchNormV3 in inference,
        # say) are not compared.
        self.used = {tensor_name(i) for n in model.graph_def.node
                     for i in n.input if not i.startswith("^")}
        self.used |= {tensor_name(f) for f in model.fetches}
        if kiln_graph_def is not None:
            self.weights = _constant_values(kiln_graph_def, self.constant)

    def layers(self) -> list:
        """The nodes tested one by one, in topological order: everything
        but weights, feeds and nodes without a numeric output."""
        layers = []
        for node in self.order:
            if node.name in self.constant or node.op in ("Placeholder",
                                                         "NoOp"):
                continue
            op = self.graph.get_operation_by_name(node.name)
            if any(_fetchable(t) for t in op.outputs):
                layers.append(node)
        return layers

    def subgraph(self, node) -> tuple:
        """The node alone: (FrozenGraph, its input arrays, TensorFlow's
        values of its outputs)."""
        import tensorflow as tf
        from tensorflow.core.framework import graph_pb2, types_pb2

        graph = graph_pb2.GraphDef()
        graph.versions.CopyFrom(self.model.graph_def.versions)
        graph.library.CopyFrom(self.model.graph_def.library)
        copy = graph.node.add()
        copy.CopyFrom(node)
        del copy.input[:]
        feeds, feed_types, inputs = [], [], []
        for i, source in enumerate(s for s in node.input
                                   if not s.startswith("^")):
            source = tensor_name(source)
            producer = source.split(":")[0]
            weight = producer in self.constant
            value = (self.weights if weight else self.values)[source]
            name = f"{node.name}/kiln_layer_input_{i}"
            feed = graph.node.add(name=name)
            dtype = tf.dtypes.as_dtype(value.dtype)
            if weight or value.dtype.name not in _FLOATS:
                feed.op = "Const"
                feed.attr["dtype"].type = dtype.as_datatype_enum
                feed.attr["value"].tensor.CopyFrom(
                    tf.make_tensor_proto(value))
            else:
                feed.op = "Placeholder"
                feed.attr["dtype"].type = dtype.as_datatype_enum
                feed.attr["shape"].shape.CopyFrom(
                    tf.TensorShape(value.shape).as_proto())
                feeds.append(name)
                feed_types.append(
                    types_pb2.DataType.Name(dtype.as_datatype_enum))
                inputs.append(value)
            copy.input.append(name)
        op = self.graph.get_operation_by_name(node.name)
        fetches = [t.name for t in op.outputs if _fetchable(t)]
        if any(f in self.used for f in fetches):
            fetches = [f for f in fetches if f in self.used]
        expected = [self.values[f] for f in fetches]
        return (FrozenGraph(graph, feeds, feed_types, fetches), inputs,
                expected)


def _plain():
    """A session configuration without Grappler: its rewrites (a
    FusedBatchNormV3 in inference turned into an Add of the same name, say)
    would leave some of the intermediates this module fetches missing."""
    import tensorflow as tf

    config = tf.compat.v1.ConfigProto()
    config.graph_options.rewrite_options.disable_meta_optimizer = True
    return config


def _fetchable(tensor) -> bool:
    dtype = tensor.dtype
    return (dtype.is_floating or dtype.is_integer or dtype.is_bool) and \
        not dtype.is_quantized


def _constant_values(graph_def, names) -> dict:
    """TensorFlow's values of the outputs of the nodes `names` (computed
    from constants only) of `graph_def`."""
    import tensorflow as tf

    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(graph_def, name="")
    tensors = [t for n in names if graph.get_operation_by_name(n)
               for t in graph.get_operation_by_name(n).outputs
               if _fetchable(t)]
    with tf.compat.v1.Session(graph=graph, config=_plain()) as session:
        values = session.run(tensors)
    return {t.name: np.asarray(v) for t, v in zip(tensors, values)}


def run_layer(reference: Reference, node, backend: KilnCPU, out_dir: str,
              rtol: float = 1e-4, atol: float = 1e-6) -> LayerResult:
    """Compiles and runs one node's subgraph with Kiln and compares it with
    TensorFlow; artifacts (graph.pbtxt, inputs, expected and Kiln's outputs,
    kiln-run.log) go to out_dir."""
    from google.protobuf import text_format

    frozen, inputs, expected = reference.subgraph(node)
    result = LayerResult(node=node.name, op=node.op, artifacts=out_dir)
    os.makedirs(out_dir, exist_ok=True)
    graph_path = os.path.join(out_dir, "graph.pbtxt")
    with open(graph_path, "w") as f:
        f.write(text_format.MessageToString(frozen.graph_def))
    input_paths = []
    for i, array in enumerate(inputs):
        input_paths.append(os.path.join(out_dir, f"input_{i}.npy"))
        np.save(input_paths[-1], array)
    for i, array in enumerate(expected):
        np.save(os.path.join(out_dir, f"expected_{i}.npy"), array)
    run = backend.run(frozen, graph_path, input_paths, inputs,
                      os.path.join(out_dir, backend.name))
    result.compile_ms, result.run_ms, result.log = (run.compile_ms,
                                                    run.run_ms, run.log)
    if run.outputs is None:
        from .runner import _first_error
        result.step, result.detail = run.step, _first_error(run.log)
        return result
    result.status = "pass"
    details = []
    for i, (actual, want) in enumerate(zip(run.outputs, expected)):
        comparison = compare(actual, want, rtol, atol)
        result.max_abs_error = max(result.max_abs_error or 0.0,
                                   comparison.max_abs_error)
        result.max_rel_error = max(result.max_rel_error or 0.0,
                                   comparison.max_rel_error)
        if not comparison.passed:
            result.status = "fail"
            details.append(f"output {i}: {comparison.describe()}")
    result.detail = "; ".join(details)
    return result


def run_model(model: Model, backend: KilnCPU, out_dir: str,
              rtol: float = 1e-4, atol: float = 1e-6,
              kiln_graph_def=None, stop_at_first: bool = False,
              report=None) -> tuple:
    """Every layer of `model`, in topological order: (results, the first
    result that is not a pass or None). `report(result)` is called after
    each layer."""
    reference = Reference(model, kiln_graph_def)
    results, first = [], None
    for node in reference.layers():
        directory = os.path.join(out_dir, re.sub(r"[^A-Za-z0-9_.-]", "_",
                                                 node.name))
        result = run_layer(reference, node, backend, directory, rtol, atol)
        results.append(result)
        if report:
            report(result)
        if result.status != "pass" and first is None:
            first = result
            if stop_at_first:
                break
    return results, first


def load_model(path: str, bin_dir: str, work_dir: str, input_shapes=None,
               output_arrays=None, signature="serving_default",
               seed: int = 0) -> Model:
    """The model at `path` (GraphDef, SavedModel directory or TF.js
    model.json) as a Model with seeded uniform inputs in [-1, 1)."""
    import tensorflow as tf
    from google.protobuf import text_format
    from tensorflow.core.framework import graph_pb2, types_pb2

    name = re.sub(r"[^A-Za-z0-9_]", "_", os.path.splitext(
        os.path.basename(os.path.normpath(path)))[0])
    graph_def = graph_pb2.GraphDef()
    shapes, fetches = [], None
    if os.path.isdir(path):
        from tensorflow.python.framework import convert_to_constants
        # The loaded object owns the variables the signature reads.
        loaded = tf.saved_model.load(path)
        function = loaded.signatures[signature]
        frozen = convert_to_constants.convert_variables_to_constants_v2(
            function, lower_control_flow=False)
        graph_def = frozen.graph.as_graph_def()
        fetches = [t.name for t in frozen.outputs]
    elif path.endswith(".json"):
        os.makedirs(work_dir, exist_ok=True)
        mlir = os.path.join(work_dir, "imported.mlir")
        exported = os.path.join(work_dir, "exported.pbtxt")
        translate = os.path.join(bin_dir, "kiln-translate")
        subprocess.run([translate, "--import-tfjs", path, "-o", mlir],
                       check=True)
        subprocess.run([translate, "--export-graphdef", mlir, "-o",
                        exported], check=True)
        with open(exported) as f:
            text_format.Parse(f.read(), graph_def)
        _complete_tfjs_attrs(graph_def)
    elif path.endswith(".pbtxt"):
        with open(path) as f:
            text_format.Parse(f.read(), graph_def)
    else:
        with open(path, "rb") as f:
            graph_def.ParseFromString(f.read())
    placeholders = [n for n in graph_def.node if n.op == "Placeholder"]
    for i, node in enumerate(placeholders):
        if input_shapes and i < len(input_shapes):
            shapes.append(tuple(input_shapes[i]))
        else:
            shape = tf.TensorShape(node.attr["shape"].shape)
            if not shape.is_fully_defined():
                raise ValueError(f"input '{node.name}' has shape {shape}; "
                                 "give --input-shapes")
            shapes.append(tuple(shape.as_list()))
    if output_arrays:
        fetches = [tensor_name(o) for o in output_arrays]
    if fetches is None:
        used = {i.lstrip("^").split(":")[0] for n in graph_def.node
                for i in n.input}
        fetches = [n.name + ":0" for n in graph_def.node
                   if n.name not in used and n.op not in ("Const", "NoOp",
                                                          "Placeholder")]
    rng = np.random.default_rng(seed)
    inputs = []
    for node, shape in zip(placeholders, shapes):
        dtype = np.dtype(tf.dtypes.as_dtype(node.attr["dtype"].type)
                         .as_numpy_dtype)
        if np.issubdtype(dtype, np.floating):
            inputs.append(rng.uniform(-1, 1, shape).astype(dtype))
        else:
            inputs.append(rng.integers(0, 10, shape).astype(dtype))
    return Model(name=name, graph_def=graph_def,
                 feeds=[n.name for n in placeholders],
                 feed_types=[types_pb2.DataType.Name(n.attr["dtype"].type)
                             for n in placeholders],
                 fetches=fetches, inputs=inputs)


def _complete_tfjs_attrs(graph_def):
    """TF.js writes its fused ops (_FusedConv2D, _FusedMatMul) without the
    `TArgs` attribute TensorFlow's OpDef requires; it is `T` once per fused
    argument."""
    for node in graph_def.node:
        if node.op.startswith("_Fused") and "TArgs" not in node.attr and \
                "num_args" in node.attr:
            node.attr["TArgs"].list.type.extend(
                [node.attr["T"].type] * node.attr["num_args"].i)


def run_full_model(model: Model, backend: KilnCPU, out_dir: str,
                   rtol: float = 1e-4, atol: float = 1e-6) -> LayerResult:
    """The whole model compiled by Kiln against TensorFlow (the
    `<model>_full_model` case)."""
    import tensorflow as tf
    from google.protobuf import text_format

    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(model.graph_def, name="")
    with tf.compat.v1.Session(graph=graph, config=_plain()) as session:
        expected = session.run(model.fetches, dict(zip(
            [tensor_name(f) for f in model.feeds], model.inputs)))
    os.makedirs(out_dir, exist_ok=True)
    graph_path = os.path.join(out_dir, "graph.pbtxt")
    with open(graph_path, "w") as f:
        f.write(text_format.MessageToString(model.graph_def))
    paths = []
    for i, array in enumerate(model.inputs):
        paths.append(os.path.join(out_dir, f"input_{i}.npy"))
        np.save(paths[-1], array)
    frozen = FrozenGraph(model.graph_def, model.feeds, model.feed_types,
                         model.fetches)
    run = backend.run(frozen, graph_path, paths, model.inputs,
                      os.path.join(out_dir, backend.name))
    result = LayerResult(node=f"{model.name}_full_model", op="",
                         artifacts=out_dir, compile_ms=run.compile_ms,
                         run_ms=run.run_ms, log=run.log)
    if run.outputs is None:
        from .runner import _first_error
        result.step, result.detail = run.step, _first_error(run.log)
        return result
    result.status = "pass"
    details = []
    for i, (actual, want) in enumerate(zip(run.outputs, expected)):
        comparison = compare(actual, np.asarray(want), rtol, atol)
        result.max_abs_error = max(result.max_abs_error or 0.0,
                                   comparison.max_abs_error)
        result.max_rel_error = max(result.max_rel_error or 0.0,
                                   comparison.max_rel_error)
        if not comparison.passed:
            result.status = "fail"
            details.append(f"output {i}: {comparison.describe()}")
    result.detail = "; ".join(details)
    return result


def _line(result: LayerResult) -> str:
    error = "" if result.max_rel_error is None else (
        f"abs {result.max_abs_error:.3g} rel {result.max_rel_error:.3g}")
    status = result.status + (f" ({result.step})" if result.step else "")
    return (f"{status:<22} {result.node} [{result.op}] {error} "
            f"{result.detail}").rstrip()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m kiln_e2e.layers",
        description="Splits a model into single-node subgraphs fed with "
        "TensorFlow's intermediate values, runs each with Kiln and reports "
        "the first diverging layer (docs/e2e.md).")
    parser.add_argument("model", help="GraphDef (.pb/.pbtxt), SavedModel "
                        "directory or TF.js model.json")
    parser.add_argument("--input-shapes", default="",
                        help="shapes of the Placeholders in graph order, "
                        "e.g. 1,224,224,3:1,10")
    parser.add_argument("--output-arrays", default="",
                        help="fetched tensors (default: the SavedModel's "
                        "outputs, or the nodes nothing consumes)")
    parser.add_argument("--signature", default="serving_default")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-6)
    parser.add_argument("--kiln-bin-dir", default=os.environ.get(
        "KILN_BIN_DIR", os.path.join(os.path.dirname(__file__), "..", "..",
                                     "..", "..", "build", "bin")))
    parser.add_argument("--out-dir", default="layers-out")
    parser.add_argument("--stop-at-first", action="store_true",
                        help="stop at the first diverging layer")
    parser.add_argument("--no-full-model", action="store_true",
                        help="skip compiling the whole model first")
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    bin_dir = os.path.realpath(args.kiln_bin_dir)
    shapes = [[int(d) for d in s.split(",") if d]
              for s in args.input_shapes.split(":")] \
        if args.input_shapes else None
    outputs = [o for o in args.output_arrays.split(",") if o]
    model = load_model(args.model, bin_dir, args.out_dir, shapes, outputs,
                       args.signature, args.seed)
    backend = KilnCPU(bin_dir)
    start = time.monotonic()
    if not args.no_full_model:
        full = run_full_model(model, backend,
                              os.path.join(args.out_dir, "full_model"),
                              args.rtol, args.atol)
        print(_line(full), flush=True)
    results, first = run_model(
        model, backend, os.path.join(args.out_dir, "layers"), args.rtol,
        args.atol, stop_at_first=args.stop_at_first,
        report=lambda r: print(_line(r), flush=True))
    counts = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    print(f"{len(results)} layers: " + ", ".join(
        f"{n} {s}" for s, n in sorted(counts.items()))
        + f" ({time.monotonic() - start:.0f} s)")
    if first is None:
        print("no diverging layer")
        return 0
    print(f"first diverging layer: {first.node} ({first.op}): "
          f"{first.status}"
          + (f", max abs error {first.max_abs_error:.3g}, max rel error "
             f"{first.max_rel_error:.3g}" if first.max_rel_error is not None
             else f" in {first.step}: {first.detail}")
          + f"; artifacts: {first.artifacts}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
