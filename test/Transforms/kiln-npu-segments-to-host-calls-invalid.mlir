// RUN: kiln-opt %s -split-input-file -verify-diagnostics --kiln-npu-segments-to-host-calls

// A segment the NPU lowering rejects (a result no npu op computes): the
// lowering's diagnostic, then the pass's.
// expected-error @+1 {{'func.func' op cannot be lowered to an NPU command stream (the lowering's diagnostics say why)}}
func.func private @npu_passthrough(%arg0: tensor<1x4x4x16xf32>) -> (tensor<1x4x4x16xf16>, tensor<1x4x4x16xf32>) attributes {kiln.npu_nodes = ["convert"], npu.target = #npu.target<"default">} {
  %0 = npu.convert %arg0 : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf16>
  // expected-error @+1 {{'func.return' op result 1 must be computed by an npu operation of the function}}
  return %0, %arg0 : tensor<1x4x4x16xf16>, tensor<1x4x4x16xf32>
}

// -----

// A declaration of the runtime entry with another type.
// expected-error @+1 {{'func.func' op has type '(i64) -> i32'; the NPU runtime entry has type '(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64) -> i32'}}
func.func private @kiln_npu_run(i64) -> i32
func.func private @npu_convert(%arg0: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf16> attributes {kiln.npu_nodes = ["convert"], npu.target = #npu.target<"default">} {
  %0 = npu.convert %arg0 : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf16>
  return %0 : tensor<1x4x4x16xf16>
}
