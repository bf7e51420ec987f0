// RUN: kiln-opt %s --convert-ml-program-to-memref --kiln-linalg-to-llvm-pipeline --mlir-print-ir-after=one-shot-bufferize -o /dev/null 2>&1 | FileCheck %s

// A zero constant of a variable's type must not become the variable:
// bufferization reuses a memref.global of the same type, initial value and
// alignment for a constant whether or not that global is mutable, so a
// training step's zero accumulator (TF1 loop gradients start one per
// variable) read the variable's current value. The variable's global has
// another alignment than the constants'.
// CHECK:     memref.global "private" constant @[[ZEROS:.+]] : memref<2xf32> = dense<0.000000e+00> {alignment = 64 : i64}
// CHECK:     memref.global "private" @v : memref<2xf32> = dense<0.000000e+00> {alignment = 128 : i64, kiln.variable = "v"}
// CHECK:     func.func @step
// CHECK:       memref.get_global @[[ZEROS]]
module {
  ml_program.global private mutable @v : tensor<2xf32>
  func.func @step(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %zeros = arith.constant dense<0.0> : tensor<2xf32>
    %old = ml_program.global_load @v : tensor<2xf32>
    ml_program.global_store @v = %x : tensor<2xf32>
    return %zeros, %old : tensor<2xf32>, tensor<2xf32>
  }
}
