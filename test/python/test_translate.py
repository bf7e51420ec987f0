"""kiln.translate and kiln.run_pipeline: text in, text out, diagnostics on
failure."""

import os

import pytest

import kiln

FOLDABLE = """
func.func @f(%a: i32) -> i32 {
  %c = arith.constant 0 : i32
  %b = arith.addi %a, %c : i32
  return %b : i32
}
"""


def test_import_graphdef(inputs_dir):
    path = os.path.join(inputs_dir, "accumulate.pbtxt")
    text = kiln.translate(path, "import-graphdef", inputs=["step"],
                          outputs=["result"])
    assert "tf_executor.graph" in text
    assert 'inputs = "step", outputs = "result"' in text
    with open(path, "rb") as f:
        assert kiln.translate(f.read(), "import-graphdef", inputs=["step"],
                              outputs=["result"]) == text


def test_export_graphdef_round_trip(inputs_dir):
    imported = kiln.translate(os.path.join(inputs_dir, "accumulate.pbtxt"),
                              "import-graphdef", inputs=["step"],
                              outputs=["result"])
    pbtxt = kiln.translate(imported, "export-graphdef")
    assert 'op: "AssignVariableOp"' in pbtxt and 'op: "AddV2"' in pbtxt
    # The exported text is a GraphDef again.
    assert "tf_executor.graph" in kiln.translate(
        pbtxt.encode(), "import-graphdef", graph_as_function=True)


def test_mlir_to_llvmir(tmp_path):
    lowered = kiln.run_pipeline(FOLDABLE, "builtin.module(convert-to-llvm)")
    ir = kiln.translate(lowered, "mlir-to-llvmir")
    assert "define i32 @f(i32" in ir
    path = tmp_path / "lowered.mlir"
    path.write_text(lowered)
    assert kiln.translate(path, "mlir-to-llvmir") == ir


def test_run_pipeline_both_spellings():
    folded = kiln.run_pipeline(FOLDABLE, "canonicalize")
    assert "arith.addi" not in folded and "return %arg0" in folded
    assert kiln.run_pipeline(FOLDABLE, "builtin.module(canonicalize)") == folded


def test_run_pipeline_knows_kiln_pipelines(inputs_dir):
    with open(os.path.join(inputs_dir, "counter.mlir")) as f:
        lowered = kiln.run_pipeline(f.read(), "kiln-tf-to-cpu-pipeline")
    assert "llvm.func @_mlir_ciface_main" in lowered
    assert "tf." not in lowered.replace("tf.entry_function", "")


@pytest.mark.parametrize("call, error, message", [
    (lambda: kiln.run_pipeline(FOLDABLE, "no-such-pass"), kiln.CompileError,
     "no-such-pass"),
    (lambda: kiln.run_pipeline("func.func @f(", "canonicalize"),
     kiln.CompileError, "failed"),
    (lambda: kiln.run_pipeline(3, "canonicalize"), TypeError, "MLIR text"),
    (lambda: kiln.translate(FOLDABLE, "mlir-to-cpp"), ValueError,
     "unknown translation"),
    (lambda: kiln.translate(FOLDABLE, "mlir-to-llvmir"), kiln.CompileError,
     "mlir-to-llvmir failed"),
    (lambda: kiln.translate(FOLDABLE, "export-graphdef"), kiln.CompileError,
     "export-graphdef failed"),
    (lambda: kiln.translate(b"\x08garbage", "import-graphdef",
                            outputs=["x"]), kiln.CompileError,
     "import-graphdef failed"),
])
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_pipeline_error_carries_the_location():
    text = 'func.func @f() {\n  "test.unknown"() : () -> ()\n  return\n}\n'
    with pytest.raises(kiln.CompileError) as info:
        kiln.run_pipeline(text, "canonicalize")
    assert any(d.location == 'loc("<mlir>":2:17)' and
               "unregistered dialect" in d.message
               for d in info.value.diagnostics), info.value.diagnostics


def test_import_tfjs_needs_a_tfjs_model(inputs_dir):
    with pytest.raises(ValueError, match="reads a tfjs model"):
        kiln.translate(os.path.join(inputs_dir, "counter.mlir"),
                       "import-tfjs")
