"""Per-layer cases (kiln_e2e.layers, docs/e2e.md): a small Keras CNN with
seeded random weights is compiled whole (`tiny_cnn_full_model-cpu`) and node
by node (`tiny_cnn_layer_<node>-cpu`), each node fed TensorFlow's own
intermediate values; and the splitter's own tests, which give it a graph
whose Kiln-side copy has one layer's weights changed, or a wrong reference
value, and check that it reports that node first.

Tolerance: the default 1e-4 of each output's scale. Every case here is in
the CI subset (about 15 single-node compiles)."""

import os
import re

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")
keras = pytest.importorskip("keras")

from kiln_e2e import case as case_lib  # noqa: E402
from kiln_e2e import layers  # noqa: E402
from kiln_e2e.backends import KilnCPU  # noqa: E402
from kiln_e2e.keras_model import keras_case  # noqa: E402
from kiln_e2e.report import Outcome  # noqa: E402

L = keras.layers
MODEL = "tiny_cnn"


def _build_tiny_cnn():
    x = keras.Input((12, 12, 3), batch_size=1)
    y = L.Conv2D(4, 3, padding="same", activation="relu", name="conv1")(x)
    y = L.BatchNormalization(name="bn1")(y)
    y = L.DepthwiseConv2D(3, padding="same", name="dw")(y)
    y = L.ReLU(6.0, name="relu6")(y)
    y = L.MaxPooling2D(2, name="pool")(y)
    y = L.Conv2D(8, 1, name="conv2")(y)
    y = L.GlobalAveragePooling2D(name="gap")(y)
    y = L.Dense(5, name="logits")(y)
    return keras.Model(x, y)


_STATE = {}


def tiny_cnn() -> layers.Model:
    """The CNN frozen into a GraphDef (as every Keras case is), with its
    seeded inputs; built once per session."""
    if "model" not in _STATE:
        # Keras numbers its name scopes per process; starting afresh keeps
        # the node names, and so the case names, the same in every run.
        keras.backend.clear_session()
        case = keras_case(MODEL, _build_tiny_cnn,
                          [tf.TensorSpec([1, 12, 12, 3], tf.float32)])
        frozen = case_lib.freeze(case)
        _STATE["model"] = layers.Model(
            name=MODEL, graph_def=frozen.graph_def, feeds=frozen.feeds,
            feed_types=frozen.feed_types, fetches=frozen.fetches,
            inputs=case_lib.make_inputs(case))
    return _STATE["model"]


def reference() -> layers.Reference:
    if "reference" not in _STATE:
        _STATE["reference"] = layers.Reference(tiny_cnn())
    return _STATE["reference"]


def node_named(pattern: str) -> str:
    """The one layer whose name ends with `pattern` (a regular expression
    over Keras' scope, e.g. 'dw/depthwise'); Keras numbers its scopes
    (`functional_1/dw_1/`) by how many models the process built before."""
    parts = [re.escape(p) + r"(_\d+)?" for p in pattern.split("/")[:-1]]
    regex = re.compile("(^|/)" + "/".join(parts + [pattern.split("/")[-1]])
                       + "$")
    found = [n.name for n in reference().layers() if regex.search(n.name)]
    assert len(found) == 1, (pattern, found)
    return found[0]


def pytest_generate_tests(metafunc):
    if "layer" not in metafunc.fixturenames:
        return
    backends = [b for b in metafunc.config.kiln_backends if b.name == "cpu"]
    nodes = [None] + [n.name for n in reference().layers()]
    params = []
    for node in nodes:
        name = f"{MODEL}_full_model" if node is None else \
            layers.case_name(MODEL, node)
        params += [pytest.param(node, b, id=f"{name}-{b.name}")
                   for b in backends]
    metafunc.parametrize(("layer", "backend"), params)


def test_layer(layer, backend, e2e):
    """`layer` None is the whole model."""
    model = tiny_cnn()
    if layer is None:
        name = f"{MODEL}_full_model"
        out_dir = os.path.join(e2e.artifacts, name)
        result = layers.run_full_model(model, backend, out_dir)
    else:
        name = layers.case_name(MODEL, layer)
        out_dir = os.path.join(e2e.artifacts, name)
        node = next(n for n in reference().layers() if n.name == layer)
        result = layers.run_layer(reference(), node, backend, out_dir)
    e2e.judge(Outcome(
        case=name, backend=backend.name, status=result.status,
        detail=result.detail, max_abs_error=result.max_abs_error,
        max_rel_error=result.max_rel_error, step=result.step, log=result.log,
        compile_ms=result.compile_ms, run_ms=result.run_ms,
        artifacts=out_dir), backend)


def test_layers_are_in_topological_order_and_skip_weights():
    names = [n.name for n in reference().layers()]
    assert len(names) == len(set(names))
    position = {n: i for i, n in enumerate(names)}
    for node in reference().layers():
        for source in node.input:
            producer = source.lstrip("^").split(":")[0]
            if producer in position:
                assert position[producer] < position[node.name]
    ops = {n.name: n.op for n in reference().layers()}
    # ReadVariableOps frozen into Identity(Const) and the bias Reshape of
    # Keras' Conv2D are weights, not layers.
    assert not any(op in ("Const", "Placeholder", "NoOp")
                   for op in ops.values())
    assert not any(name.endswith("/Reshape") for name in ops)
    assert ops[node_named("conv1/convolution")] == "Conv2D"
    assert list(ops.values())[-1] == "Identity"


def test_topological_order_of_an_unordered_graph():
    from tensorflow.core.framework import graph_pb2
    graph = graph_pb2.GraphDef()
    for name, inputs in (("c", ["b", "^a"]), ("b", ["a:0"]), ("a", []),
                         ("d", [])):
        graph.node.add(name=name, op="NoOp", input=inputs)
    assert [n.name for n in layers.topological_order(graph)] == \
        ["a", "b", "c", "d"]
    graph.node[2].input.append("c")
    with pytest.raises(ValueError, match="cycle"):
        layers.topological_order(graph)


def test_subgraph_feeds_floats_and_freezes_weights_and_integers():
    ref = reference()
    by_name = {n.name: n for n in ref.layers()}
    mean = node_named("gap/Mean")
    frozen, inputs, expected = ref.subgraph(by_name[mean])
    ops = {n.name: n.op for n in frozen.graph_def.node}
    # The activation is fed; the reduction axes are a Const.
    assert frozen.feeds == [f"{mean}/kiln_layer_input_0"]
    assert ops[f"{mean}/kiln_layer_input_1"] == "Const"
    assert inputs[0].shape == (1, 6, 6, 8)
    assert frozen.fetches == [f"{mean}:0"]
    np.testing.assert_allclose(expected[0], inputs[0].mean(axis=(1, 2)),
                               rtol=1e-5, atol=1e-6)
    # Identity's control input on the NoOp is dropped.
    frozen, _, _ = ref.subgraph(by_name["Identity"])
    assert not any(i.startswith("^") for n in frozen.graph_def.node
                   for i in n.input)


def _kiln(pytestconfig):
    return KilnCPU(os.path.realpath(pytestconfig.getoption("kiln_bin_dir")))


def test_perturbed_weights_are_localized_to_their_layer(tmp_path,
                                                       pytestconfig):
    """Kiln compiles a copy of the graph in which the depthwise kernel is
    changed; TensorFlow runs the original. The whole model then differs, and
    the first diverging layer is the depthwise convolution, not any layer
    before it or the ones after it (which are fed TensorFlow's values)."""
    model = tiny_cnn()
    changed = type(model.graph_def)()
    changed.CopyFrom(model.graph_def)
    depthwise = node_named("dw/depthwise")
    kernel = next(n for n in changed.node if n.name ==
                  depthwise + "/ReadVariableOp/resource")
    value = tf.make_ndarray(kernel.attr["value"].tensor).copy()
    value[1, 1, 2, 0] += 0.5
    kernel.attr["value"].tensor.CopyFrom(tf.make_tensor_proto(value))

    backend = _kiln(pytestconfig)
    results, first = layers.run_model(model, backend, str(tmp_path),
                                      kiln_graph_def=changed)
    assert first is not None and first.status == "fail"
    assert first.node == depthwise
    assert first.max_rel_error > 1e-2
    failed = [r.node for r in results if r.status != "pass"]
    assert failed == [depthwise], failed


def test_wrong_reference_value_is_reported_at_its_node(tmp_path,
                                                      pytestconfig):
    """A reference whose value of one intermediate is wrong: the node that
    computes it is the first to diverge."""
    ref = layers.Reference(tiny_cnn())
    relu6 = node_named("relu6/Relu6")
    wrong = relu6 + ":0"
    ref.values[wrong] = ref.values[wrong] + np.float32(0.25)
    backend = _kiln(pytestconfig)
    names = [n.name for n in ref.layers()]
    at = names.index(relu6)
    # The layer before it, and it.
    results = [layers.run_layer(ref, n, backend, str(tmp_path / str(i)))
               for i, n in enumerate(ref.layers()[at - 1:at + 1])]
    assert [r.status for r in results] == ["pass", "fail"]
    assert results[1].node == relu6
    assert results[1].max_abs_error == pytest.approx(0.25, rel=1e-3)


def test_command_on_a_saved_model(tmp_path, pytestconfig, capsys):
    """`python -m kiln_e2e.layers DIR` on a SavedModel: its signature is
    frozen, run whole and node by node."""

    class Module(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable(tf.random.stateless_normal([4, 3], [1, 2]))

        @tf.function(input_signature=[tf.TensorSpec([2, 4], tf.float32)])
        def __call__(self, x):
            y = tf.nn.relu(tf.matmul(x, self.w))
            return {"sum": tf.reduce_sum(y, axis=1),
                    "y": tf.reshape(y, [3, 2])}

    module = Module()
    tf.saved_model.save(module, str(tmp_path / "saved"),
                        signatures=module.__call__)
    status = layers.main([
        str(tmp_path / "saved"), "--out-dir", str(tmp_path / "out"),
        "--kiln-bin-dir", pytestconfig.getoption("kiln_bin_dir")])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "saved_full_model" in out.splitlines()[0]
    assert "[MatMul]" in out and "[Relu]" in out and "[Reshape]" in out
    assert "no diverging layer" in out


def test_only_used_outputs_are_compared():
    """FusedBatchNormV3 in inference: only `y` feeds the rest of the graph;
    its other outputs (statistics, reserve space) are not compared."""
    from tensorflow.core.framework import graph_pb2

    graph = tf.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 2, 2, 3], name="x")
        c = [tf.constant(np.full([3], v, np.float32)) for v in (1, 0, 0, 1)]
        y = tf.raw_ops.FusedBatchNormV3(x=x, scale=c[0], offset=c[1],
                                        mean=c[2], variance=c[3],
                                        is_training=False, name="bn")[0]
        tf.identity(y, name="out")
    graph_def = graph_pb2.GraphDef()
    graph_def.CopyFrom(graph.as_graph_def())
    model = layers.Model("bn", graph_def, ["x"], ["DT_FLOAT"], ["out:0"],
                         [np.ones([1, 2, 2, 3], np.float32)])
    ref = layers.Reference(model)
    norm = next(n for n in ref.layers() if n.op == "FusedBatchNormV3")
    frozen, _, _ = ref.subgraph(norm)
    assert frozen.fetches == [norm.name + ":0"]
