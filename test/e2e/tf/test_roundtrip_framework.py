"""Tests of the round-trip backends (kiln_e2e/roundtrip.py): the export is
run by TensorFlow and compared exactly with the original GraphDef, the
converter's MLIR is compiled by Kiln, and a graph TensorFlow cannot run is
an error of the reference step, not of Kiln."""

import os

import numpy as np
import pytest

tf = pytest.importorskip("tensorflow")

from kiln_e2e import op_case  # noqa: E402
from kiln_e2e import roundtrip  # noqa: E402
from kiln_e2e.backends import make_backend  # noqa: E402
from kiln_e2e.runner import run_case  # noqa: E402

S = tf.TensorSpec


@pytest.fixture
def bin_dir(pytestconfig):
    return pytestconfig.getoption("kiln_bin_dir")


def _while_case():
    """A loop: functional While in the GraphDef, tf.WhileRegion after
    kiln-tf-graph-pipeline, a While calling outlined functions again in the
    export."""
    def count(x, n):
        i = tf.constant(0)
        return tf.while_loop(lambda i, x: i < n,
                             lambda i, x: (i + 1, x * 1.5 + 1.0), (i, x))[1]
    return op_case("fw_roundtrip_while", count, S([3], tf.float32),
                   S([], tf.int32),
                   inputs=[np.array([1, 2, 3], np.float32), np.int32(4)])


def test_graph_as_function_signature_orders_by_index():
    graph = tf.compat.v1.GraphDef()
    for name, op, index, inputs in [("r1", "_Retval", 1, ["b:1"]),
                                    ("a1", "_Arg", 1, []),
                                    ("r0", "_Retval", 0, ["a"]),
                                    ("a0", "_Arg", 0, [])]:
        node = graph.node.add(name=name, op=op)
        node.attr["index"].i = index
        node.input.extend(inputs)
    args, rets = roundtrip.graph_as_function_signature(graph)
    assert args == ["a0:0", "a1:0"]
    assert rets == ["a:0", "b:1"]


@pytest.mark.parametrize("name", ["tf-export", "tf-export-pipeline"])
def test_export_runs_in_tensorflow(tmp_path, bin_dir, name):
    backend = make_backend(name, bin_dir)
    outcome = run_case(_while_case(), backend, str(tmp_path))
    assert outcome.status == "pass", outcome.detail + outcome.log
    out = tmp_path / "fw_roundtrip_while" / name
    exported = (out / "exported.pbtxt").read_text()
    # The loop is a While node in both (outlined again after the pipeline).
    assert 'op: "While"' in exported or 'op: "StatelessWhile"' in exported
    assert (out / "reference_0.npy").exists()


def test_plain_export_is_compared_exactly(bin_dir):
    case = _while_case()
    assert make_backend("tf-export", bin_dir).tolerance(case) == (0.0, 0.0)
    assert make_backend("tf-export-pipeline", bin_dir).tolerance(case) == (
        case.rtol, case.atol)


def test_converter_output_is_compiled_by_kiln(tmp_path, bin_dir):
    outcome = run_case(_while_case(), make_backend("tf-converter", bin_dir),
                       str(tmp_path))
    assert outcome.status == "pass", outcome.detail + outcome.log
    out = tmp_path / "fw_roundtrip_while" / "tf-converter"
    assert "tf_executor.graph" in (out / "tf-converter.mlir").read_text()
    # The public convert_graph_def: no feeds, no fetches.
    unfed = (out / "tf-converter-unfed.mlir").read_text()
    assert "func.func @main()" in unfed and "tf.Placeholder" in unfed


def test_a_graph_tensorflow_cannot_run_fails_the_reference(tmp_path,
                                                           bin_dir):
    # TensorFlow's CPU kernels have no NCHW Conv2D.
    case = op_case("fw_roundtrip_nchw",
                   lambda x, w: tf.nn.conv2d(x, w, 1, "VALID",
                                             data_format="NCHW"),
                   S([1, 2, 4, 4], tf.float32), S([3, 3, 2, 2], tf.float32),
                   reference=lambda x, w: tf.transpose(tf.nn.conv2d(
                       tf.transpose(x, [0, 2, 3, 1]), w, 1, "VALID"),
                       [0, 3, 1, 2]))
    outcome = run_case(case, make_backend("tf-export", bin_dir),
                       str(tmp_path))
    assert outcome.status == "error" and outcome.step == "reference"
    assert "cannot run the original GraphDef" in outcome.detail
    assert "NHWC" in outcome.detail  # what TensorFlow said, not its heading
    assert not os.path.exists(tmp_path / "fw_roundtrip_nchw" / "tf-export" /
                              "exported.pbtxt")
