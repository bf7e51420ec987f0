// RUN: kiln-opt %s -convert-npu-to-npuhw | FileCheck %s

// A long tensor with a scalar broadcast: int8 ssd320fpnlite's last step
// turns its 12804x8 class scores back to float with fp16 multiplications.
// Its 12804-wide rows (409 KB per buffer) do not fit ACT, but the lowering
// streams positions of 16 elements: 102432 elements are 6402 positions,
// in bands of 2048 (two buffers of the input and of the output, 64 bytes
// each per position, in 256 KiB of ACT): three, and a last of 258.

// CHECK-LABEL: npuhw.stream @dequantize
// CHECK-COUNT-3: npuhw.vec_eltwise {{.*}} : memref<1x2048x1x16xf16
// CHECK:         npuhw.vec_eltwise {{.*}} : memref<1x258x1x16xf16
// CHECK-NOT:     npuhw.vec_eltwise
module attributes {npu.target = #npu.target<"realistic">} {
  func.func @dequantize(%x: tensor<12804x8xf16>) -> tensor<12804x8xf16> {
    %s = arith.constant dense<3.0> : tensor<1xf16>
    %y = npu.mul %x, %s : (tensor<12804x8xf16>, tensor<1xf16>) -> tensor<12804x8xf16>
    return %y : tensor<12804x8xf16>
  }
}
