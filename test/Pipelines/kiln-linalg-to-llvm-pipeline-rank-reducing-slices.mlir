// tf.Unpack along the last axis gives rank-reducing slices (strided rows);
// an elementwise op reading them must stay correct when vectorization is on
// (kiln-cpu-tile-and-vectorize leaves such ops to scalar loops: MLIR 22
// mis-folds the slices when they are tiled or vectorized, as
// movenet-multipose showed). Unpack of [[1,2],[3,4],[5,6]] then AddV2.
// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline="vectorize=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
// CHECK:      {{\[}}[1,   3,   5]]
// CHECK:      {{\[}}[2,   4,   6]]
// CHECK:      {{\[}}[3,   7,   11]]
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %s = "tf.Const"() {value = dense<[1, 3, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %r = "tf.Reshape"(%x, %s) : (tensor<3x2xf32>, tensor<3xi32>) -> tensor<1x3x2xf32>
  %u:2 = "tf.Unpack"(%r) {axis = 2 : i64, num = 2 : i64} : (tensor<1x3x2xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>)
  %a = "tf.AddV2"(%u#0, %u#1) : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  %p0 = tensor.cast %u#0 : tensor<1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p0) : (tensor<*xf32>) -> ()
  %p1 = tensor.cast %u#1 : tensor<1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p1) : (tensor<*xf32>) -> ()
  %p2 = tensor.cast %a : tensor<1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%p2) : (tensor<*xf32>) -> ()
  return
}
