"""Every pinned npm graph model (48 model.json files of the packages
test/models/fetch-models.sh fetches) compiled by Kiln from its model.json
and compared with TensorFlow running the same graph, Kiln's exported frozen
GraphDef (kiln_e2e/npm.py, docs/e2e.md). One case per model,
`npm_<model>-cpu`; they run when `cpu` is among --backends, and are skipped
when the models are not fetched.

Tolerance: the default 1e-4 of each output's scale unless the model's
kiln_e2e.npm.SPECS entry gives another with its measured reason.
TensorFlow's own failures to run a graph (ops only TF.js defines) are
listed with its error in test/e2e/xfail/npm-tensorflow.txt, strictly: a
listed model that passes fails the run.

The CI subset is emotion and liveness (about 4 s each); the full run is
`run-ctest.sh build/bin build/e2e-tf npm_models` (docs/e2e.md)."""

import os

import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import npm, xfail  # noqa: E402

MODELS = npm.find_models()  # empty when the models are not fetched

EXPECTED = xfail.load("npm-tensorflow")


def pytest_generate_tests(metafunc):
    if "model" not in metafunc.fixturenames:
        return
    models = MODELS
    if metafunc.config.getoption("subset") == "ci":
        models = [m for m in models if m.name in npm.CI_MODELS]
    metafunc.parametrize("model", models, ids=[f"npm_{m.name}-cpu"
                                               for m in models])


def test_expected_failures_name_models():
    """Every line of npm-tensorflow.txt names a model of the packages."""
    if not MODELS:
        pytest.skip("the npm models are not fetched (test/models/"
                    "fetch-models.sh)")
    names = {f"npm_{m.name}" for m in MODELS}
    assert not set(EXPECTED) - names, set(EXPECTED) - names


def test_npm_model(model, pytestconfig):
    names = [b.name for b in pytestconfig.kiln_backends]
    if "cpu" not in names:
        pytest.skip("the npm models run on the cpu backend only")
    artifacts = os.path.realpath(pytestconfig.getoption("artifacts_dir"))
    bin_dir = os.path.realpath(pytestconfig.getoption("kiln_bin_dir"))
    outcome = npm.run_model(model, bin_dir, artifacts)
    pytestconfig.kiln_outcomes.append(outcome)
    reason = EXPECTED.get(outcome.case)
    if outcome.status == "pass":
        if reason is not None:
            outcome.status = "xpass"
            pytest.fail(f"XPASS(strict): '{outcome.case}' passes; remove it "
                        "from test/e2e/xfail/npm-tensorflow.txt (listed as: "
                        f"{reason})", pytrace=False)
        return
    if reason is not None:
        outcome.status = "xfail"
        pytest.xfail(f"{reason} [now: {outcome.step or 'compare'}: "
                     f"{outcome.detail}]")
    pytest.fail(f"{outcome.case}: {outcome.step or 'compare'}: "
                f"{outcome.detail}\nartifacts: {outcome.artifacts}",
                pytrace=False)


def test_tfjs_only_ops_run_in_tensorflow():
    """FusedDepthwiseConv2dNative (BiasAdd, Prelu), _FusedConv2D with Prelu
    and a lone Prelu, as TF.js writes them (no `T` on Prelu), rewritten and
    run by TensorFlow, against the definitions in NumPy."""
    import numpy as np
    from kiln_e2e.tfjs_ops import rewrite_tfjs_only_ops

    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (1, 4, 4, 2)).astype(np.float32)
    w = rng.uniform(-1, 1, (1, 1, 2, 1)).astype(np.float32)
    b = np.array([0.5, -0.25], np.float32)
    alpha = np.array([0.1, 0.3], np.float32)
    wc = rng.uniform(-1, 1, (1, 1, 2, 2)).astype(np.float32)

    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.placeholder(tf.float32, x.shape, name="x")
        for name, value in (("w", w), ("b", b), ("alpha", alpha),
                            ("wc", wc)):
            tf.constant(value, name=name)
    graph_def = graph.as_graph_def()

    def add(name, op, inputs, **attrs):
        node = graph_def.node.add()
        node.name, node.op = name, op
        node.input.extend(inputs)
        for key, value in attrs.items():
            node.attr[key].CopyFrom(tf.compat.v1.AttrValue(**value))
        return node

    common = dict(T={"type": tf.float32.as_datatype_enum},
                  strides={"list": {"i": [1, 1, 1, 1]}},
                  padding={"s": b"VALID"},
                  num_args={"i": 2},
                  fused_ops={"list": {"s": [b"BiasAdd", b"Prelu"]}})
    add("dw", "FusedDepthwiseConv2dNative", ["x", "w", "b", "alpha"],
        **common)
    add("conv", "_FusedConv2D", ["dw", "wc", "b", "alpha"], **common)
    add("prelu", "Prelu", ["conv", "alpha"])
    assert sorted(rewrite_tfjs_only_ops(graph_def)) == [
        "FusedDepthwiseConv2dNative", "Prelu", "_FusedConv2D"]
    from kiln_e2e import npm
    npm.complete_for_tensorflow(graph_def)
    with tf.Graph().as_default() as run_graph:
        tf.compat.v1.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=run_graph) as session:
        got = session.run("prelu:0", {"x:0": x})

    def prelu(v):
        return np.maximum(v, 0) + alpha * np.minimum(v, 0)
    dw = prelu(x * w[0, 0, :, 0] + b)
    conv = prelu(dw @ wc[0, 0] + b)
    np.testing.assert_allclose(got, prelu(conv), rtol=1e-6, atol=1e-6)


def test_ties_are_matched_and_only_ties():
    """Rows of equal expected score may come in either order; rows of
    different scores may not."""
    import numpy as np
    expected = np.array([[[9.0, 0.5], [1.0, 0.3], [2.0, 0.3], [3.0, 0.1]]],
                        np.float32)
    swapped = expected[:, [0, 2, 1, 3]]
    matched = npm.match_ties(swapped, expected, 1, 1e-4, 1e-6)
    np.testing.assert_array_equal(matched, expected)
    # Rows 0 and 1 differ in score: no tie, so no reordering fixes them.
    wrong = expected[:, [1, 0, 2, 3]]
    matched = npm.match_ties(wrong, expected, 1, 1e-4, 1e-6)
    np.testing.assert_array_equal(matched[:, 0], wrong[:, 0])
    assert not npm.compare(matched, expected, 1e-4, 1e-6).passed
