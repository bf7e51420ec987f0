// RUN: kiln-opt %s -split-input-file --kiln-linalg-to-llvm-pipeline | FileCheck %s
// RUN: kiln-opt %s -split-input-file --kiln-linalg-to-llvm-pipeline | kiln-translate --split-input-file --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// Elementwise linalg on dynamic tensors becomes a loop over a memref
// descriptor in the LLVM dialect, with nothing else left.
// CHECK-LABEL: llvm.func @scale_add
// CHECK-NOT:     linalg.
// CHECK-NOT:     tensor.
// CHECK:         llvm.fmul
// CHECK:         llvm.fadd
// CHECK:         llvm.return
// LLVMIR-LABEL: define { ptr, ptr, i64, [1 x i64], [1 x i64] } @scale_add(
// LLVMIR:         fmul float
// LLVMIR:         fadd float
func.func @scale_add(%x: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %init = tensor.empty(%n) : tensor<?xf32>
  %two = arith.constant 2.0 : f32
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %b : tensor<?xf32>, tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%xi: f32, %bi: f32, %out: f32):
    %m = arith.mulf %xi, %two : f32
    %s = arith.addf %m, %bi : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// A static matmul becomes three nested loops of fmul/fadd.
// CHECK-LABEL: llvm.func @matmul
// CHECK-NOT:     linalg.
// CHECK:         llvm.fmul
// CHECK:         llvm.fadd
// LLVMIR-LABEL: define {{.*}} @matmul(
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
