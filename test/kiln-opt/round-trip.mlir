// Upstream IR survives kiln-opt in both the custom and the generic form.
// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x2xf32>, %[[C:.+]]: tensor<4x2xf32>)
// CHECK:         %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x2xf32>) outs(%[[C]] : tensor<4x2xf32>)
// CHECK:         return %[[R]]
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func.func @loop
// CHECK:         %[[SUM:.+]] = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (f32)
// CHECK:           %[[V:.+]] = memref.load %{{.+}}[%[[I]]]
// CHECK:           %[[N:.+]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK:           scf.yield %[[N]]
// CHECK:         return %[[SUM]]
func.func @loop(%m: memref<16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %m[%i] : memref<16xf32>
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  return %s : f32
}
