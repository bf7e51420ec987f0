// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-tile-and-vectorize))' | FileCheck %s

// Linalg ops with a loop of static size 0 run their body zero times: each
// result is its init, and only the init (the fill) is tiled; the empty
// input is never read (tiling the op itself crashed in
// linalg::computeTileSizes).

// A sum over an empty axis is the filled init.
// CHECK-LABEL: func.func @sum_empty_axis(
// CHECK-SAME:    {
// CHECK-NOT:     %arg0
// CHECK:         %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<1x2xf32>
// CHECK-NOT:     %arg0
// CHECK:         vector.transfer_write %[[ZERO]]
// CHECK-NOT:     %arg0
// CHECK:         return
func.func @sum_empty_axis(%x: tensor<3x0x2xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %r = linalg.reduce ins(%x : tensor<3x0x2xf32>) outs(%init : tensor<3x2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<3x2xf32>
}

// -----

// A matmul with K = 0 is the zero accumulator.
// CHECK-LABEL: func.func @matmul_k0(
// CHECK-SAME:    {
// CHECK-NOT:     %arg0
// CHECK:         %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<1x3xf32>
// CHECK-NOT:     %arg0
// CHECK:         vector.transfer_write %[[ZERO]]
// CHECK-NOT:     %arg0
// CHECK:         return
func.func @matmul_k0(%a: tensor<2x0xf32>, %b: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x0xf32>, tensor<0x3xf32>) outs(%c : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// A max over an empty axis of a dynamic tensor keeps its init too; the
// parallel loop that has a dynamic size does not matter.
// CHECK-LABEL: func.func @max_empty_axis_dynamic(
// CHECK-SAME:    {
// CHECK-NOT:     %arg0
// CHECK:         %[[LOWEST:.+]] = arith.constant dense<0xFF800000> : vector<8xf32>
// CHECK-NOT:     %arg0
// CHECK:         vector.transfer_write %[[LOWEST]]
// CHECK-NOT:     %arg0
// CHECK:         return
func.func @max_empty_axis_dynamic(%x: tensor<?x0xf32>, %init: tensor<?xf32>) -> tensor<?xf32> {
  %lowest = arith.constant 0xFF800000 : f32
  %fill = linalg.fill ins(%lowest : f32) outs(%init : tensor<?xf32>) -> tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<?x0xf32>) outs(%fill : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  return %r : tensor<?xf32>
}
