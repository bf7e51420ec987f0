"""kiln.compile on paths and bytes, and calling the compiled model: inputs
by position and name, outputs by name, variables, and every error path."""

import json
import os
import threading

import numpy as np
import pytest

import kiln

ADD = """
func.func @main(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32>
    attributes {tf.entry_function = {inputs = "a,b", outputs = "sum"}} {
  %0 = "tf.AddV2"(%a, %b) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
"""


@pytest.fixture
def add_model(tmp_path):
    path = tmp_path / "add.mlir"
    path.write_text(ADD)
    return kiln.compile(path)


def test_mlir_path_positional_and_named(add_model):
    a = np.array([1, 2, 3], np.float32)
    b = np.array([10, 20, 30], np.float32)
    expected = np.array([11, 22, 33], np.float32)
    for result in (add_model(a, b), add_model(a=a, b=b),
                   add_model({"a": a, "b": b}), add_model(a, b=b)):
        assert list(result) == ["sum"]
        np.testing.assert_array_equal(result["sum"], expected)
        assert result["sum"].dtype == np.float32
    assert [s.name for s in add_model.inputs] == ["a", "b"]
    assert add_model.outputs[0].shape == (3,)
    assert "a: float32(3,)" in repr(add_model)


def test_call_does_not_write_into_inputs(add_model):
    a = np.array([1, 2, 3], np.float32)
    add_model(a, a)
    np.testing.assert_array_equal(a, [1, 2, 3])


def test_python_lists_are_converted(add_model):
    np.testing.assert_array_equal(add_model([1, 2, 3], [1, 1, 1])["sum"],
                                  [2, 3, 4])


def test_non_contiguous_input(add_model):
    a = np.arange(6, dtype=np.float32)[::2]
    np.testing.assert_array_equal(add_model(a, a)["sum"], [0, 4, 8])


@pytest.mark.parametrize("call, error, message", [
    (lambda m: m(np.zeros(3, np.int32), np.zeros(3, np.float32)), TypeError,
     "input 'a' has dtype int32; the model expects float32"),
    (lambda m: m(np.zeros(4, np.float32), np.zeros(3, np.float32)),
     ValueError, r"input 'a' has shape \(4,\); the model expects \(3,\)"),
    (lambda m: m(np.zeros((3, 1), np.float32), np.zeros(3, np.float32)),
     ValueError, "has shape"),
    (lambda m: m(np.zeros(3, np.float32)), ValueError, "missing inputs: 'b'"),
    (lambda m: m(*[np.zeros(3, np.float32)] * 3), ValueError,
     "takes 2 inputs; got 3"),
    (lambda m: m(np.zeros(3, np.float32), c=np.zeros(3, np.float32)),
     ValueError, "no input 'c'"),
    (lambda m: m(np.zeros(3, np.float32), a=np.zeros(3, np.float32)),
     ValueError, "given twice"),
    (lambda m: m(["x", "y", "z"], np.zeros(3, np.float32)), TypeError,
     "holds <U1 values"),
    (lambda m: m([1.5, 2, 3], np.zeros(3, np.float32)), None, None),
])
def test_input_errors_raise(add_model, call, error, message):
    if error is None:
        call(add_model)
        return
    with pytest.raises(error, match=message):
        call(add_model)


def test_native_checks_dtype_and_shape(add_model):
    # The extension checks again, whatever the Python layer let through.
    native = add_model._native
    a = np.zeros(3, np.float32)
    with pytest.raises(ValueError, match="dtype int32"):
        native.run([("int32", np.zeros(3, np.int32)), ("float32", a)])
    with pytest.raises(ValueError, match="shape"):
        native.run([("float32", np.zeros(5, np.float32)), ("float32", a)])
    with pytest.raises(ValueError, match="takes 2 inputs"):
        native.run([("float32", a)])
    with pytest.raises(TypeError, match="not an array"):
        native.run([("float32", 3), ("float32", a)])


def test_graphdef_with_variables(inputs_dir):
    path = os.path.join(inputs_dir, "accumulate.pbtxt")
    model = kiln.compile(path, inputs=["step"], outputs=["result"])
    assert [v.name for v in model.variables] == ["total"]
    step = np.array([1, 2], np.float32)
    np.testing.assert_array_equal(model(step)["result"], [1, 2])
    np.testing.assert_array_equal(model(step)["result"], [2, 4])
    np.testing.assert_array_equal(model.read_variable("total"), [2, 4])
    model.assign_variable("total", np.array([10, 10], np.float32))
    np.testing.assert_array_equal(model(step)["result"], [11, 12])
    model.reset_variables()
    np.testing.assert_array_equal(model.variable_values()["total"], [0, 0])
    np.testing.assert_array_equal(model(step)["result"], [1, 2])
    with pytest.raises(KeyError, match="no variable 'nope'"):
        model.read_variable("nope")
    with pytest.raises(ValueError, match="shape"):
        model.assign_variable("total", np.zeros(3, np.float32))


def test_graphdef_bytes_and_mlir_with_state(inputs_dir):
    with open(os.path.join(inputs_dir, "accumulate.pbtxt"), "rb") as f:
        model = kiln.compile(f.read(), inputs=["step"], outputs=["result"])
    np.testing.assert_array_equal(model([1.0, 1.0])["result"], [1, 1])
    counter = kiln.compile(os.path.join(inputs_dir, "counter.mlir"))
    assert [s.name for s in counter.outputs] == ["total", "previous"]
    counter([1.0, 2.0])
    result = counter([1.0, 2.0])
    np.testing.assert_array_equal(result["previous"], [1, 2])
    np.testing.assert_array_equal(result["total"], [2, 4])


def test_tfjs_model_json(tmp_path):
    weights = np.array([0.5, -1.0], np.float32)
    (tmp_path / "group1-shard1of1.bin").write_bytes(weights.tobytes())
    shape = {"dim": [{"size": "2"}]}
    model_json = {
        "format": "graph-model",
        "modelTopology": {"node": [
            {"name": "x", "op": "Placeholder",
             "attr": {"dtype": {"type": "DT_FLOAT"},
                      "shape": {"shape": shape}}},
            {"name": "w", "op": "Const",
             "attr": {"dtype": {"type": "DT_FLOAT"},
                      "value": {"tensor": {"dtype": "DT_FLOAT",
                                           "tensorShape": shape}}}},
            {"name": "y", "op": "Mul", "input": ["x", "w"],
             "attr": {"T": {"type": "DT_FLOAT"}}}]},
        "weightsManifest": [{"paths": ["group1-shard1of1.bin"],
                             "weights": [{"name": "w", "shape": [2],
                                          "dtype": "float32"}]}]}
    (tmp_path / "model.json").write_text(json.dumps(model_json))
    for source in (tmp_path / "model.json", tmp_path):
        model = kiln.compile(source)
        result = model(np.array([4, 3], np.float32))
        np.testing.assert_array_equal(list(result.values())[0], [2, -3])


def test_dump_dir(tmp_path, add_model):
    kiln.compile(_write(tmp_path, ADD), dump_dir=tmp_path / "d")
    names = sorted(os.listdir(tmp_path / "d"))
    assert names == ["00-input.mlir", "01-graph.mlir", "02-linalg.mlir",
                     "03-abi.mlir", "04-llvm.mlir"]


def test_calls_do_not_recompile(tmp_path):
    # Every compilation writes the dumps; calls must leave the folder empty.
    dump = tmp_path / "d"
    model = kiln.compile(_write(tmp_path, ADD), dump_dir=dump)
    for name in os.listdir(dump):
        os.remove(dump / name)
    for _ in range(2):
        model([1, 2, 3], [1, 2, 3])
    assert os.listdir(dump) == []


def _write(tmp_path, text, name="model.mlir"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_compile_error_carries_diagnostics(inputs_dir):
    with pytest.raises(kiln.CompileError) as info:
        kiln.compile(os.path.join(inputs_dir, "accumulate.pbtxt"),
                     inputs=["step"], outputs=["nosuch"])
    error = info.value
    assert error.failure == "cannot import the model"
    assert any("'nosuch' names a missing node" in d.message
               for d in error.diagnostics)
    assert isinstance(error, kiln.KilnError)


def test_compile_error_names_the_node_and_phase(tmp_path):
    # A tf op Kiln has no lowering for, at a named node.
    text = """
func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "tf.NoSuchKilnOp"(%a) : (tensor<3xf32>) -> tensor<3xf32> loc("my_node")
  return %0 : tensor<3xf32>
}
"""
    with pytest.raises(kiln.CompileError) as info:
        kiln.compile(_write(tmp_path, text), dump_dir=tmp_path / "dump")
    error = info.value
    assert "phase of kiln-tf-to-cpu-pipeline failed" in error.failure
    assert any(d.node == "my_node" and d.severity == "error"
               for d in error.diagnostics), error.diagnostics
    assert 'loc("my_node")' in str(error)


def test_parse_error_has_a_location(tmp_path):
    with pytest.raises(kiln.CompileError) as info:
        kiln.compile(_write(tmp_path, "func.func @main( {"))
    assert any('model.mlir":1:17' in d.location
               for d in info.value.diagnostics), info.value.diagnostics


@pytest.mark.parametrize("kwargs, error, message", [
    ({"target": "npu"}, ValueError, "unknown target 'npu'"),
    ({"threads": 0}, ValueError, "threads must be at least 1"),
    ({"opt_level": 7}, ValueError, "opt_level"),
])
def test_option_errors(tmp_path, kwargs, error, message):
    with pytest.raises(error, match=message):
        kiln.compile(_write(tmp_path, ADD), **kwargs)


def test_cpu_and_features(tmp_path):
    model = kiln.compile(_write(tmp_path, ADD), cpu="x86-64",
                         features="-avx2")
    np.testing.assert_array_equal(model([1, 1, 1], [1, 2, 3])["sum"],
                                  [2, 3, 4])
    with pytest.raises(kiln.CompileError, match="unknown CPU 'no-such-cpu'"):
        kiln.compile(_write(tmp_path, ADD), cpu="no-such-cpu")


def test_entry_must_exist(tmp_path):
    with pytest.raises(kiln.CompileError, match="no function 'other'"):
        kiln.compile(_write(tmp_path, ADD), entry="other")


def test_model_kind_errors(tmp_path, inputs_dir):
    with pytest.raises(FileNotFoundError):
        kiln.compile(tmp_path / "missing.pb")
    with pytest.raises(ValueError, match="unknown model kind"):
        kiln.compile(_write(tmp_path, "x", "model.onnx"))
    with pytest.raises(ValueError, match="needs outputs"):
        kiln.compile(os.path.join(inputs_dir, "accumulate.pbtxt"))
    with pytest.raises(TypeError, match="takes a path"):
        kiln.compile(42)
    (tmp_path / "saved").mkdir()
    (tmp_path / "saved" / "saved_model.pb").write_bytes(b"\x08garbage")
    with pytest.raises(kiln.CompileError, match="saved_model.pb"):
        kiln.compile(tmp_path / "saved")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="neither model.json"):
        kiln.compile(tmp_path / "empty")


def test_threads_option(tmp_path):
    for threads in (1, 2, None):
        model = kiln.compile(_write(tmp_path, ADD), threads=threads)
        np.testing.assert_array_equal(model([1, 1, 1], [1, 2, 3])["sum"],
                                      [2, 3, 4])


def test_compile_releases_the_gil(tmp_path):
    path = _write(tmp_path, ADD)
    done = threading.Event()
    models = []

    def work():
        for _ in range(3):
            models.append(kiln.compile(path, threads=1))
        done.set()

    thread = threading.Thread(target=work)
    ticks = 0
    thread.start()
    while not done.is_set():
        ticks += 1
    thread.join()
    # Holding the GIL through three compilations (hundreds of ms) would
    # leave this loop a few switch intervals (5 ms each) at most.
    assert len(models) == 3 and ticks > 10000, ticks


def test_calls_from_threads_share_one_model(inputs_dir):
    model = kiln.compile(os.path.join(inputs_dir, "counter.mlir"))
    step = np.ones(2, np.float32)
    threads = [threading.Thread(target=lambda: [model(step)
                                                for _ in range(50)])
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    np.testing.assert_array_equal(model.read_variable("total"), [200, 200])
