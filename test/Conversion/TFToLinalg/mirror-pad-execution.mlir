// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32,printMemrefI32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
// Expected values are the examples of TensorFlow's tf.pad documentation
// (REFLECT and SYMMETRIC of [[1, 2, 3], [4, 5, 6]] by [[1, 1], [2, 2]]),
// the same with a dynamic input, and an int32 input.

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @reflect_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %p = "tf.Const"() {value = dense<[[1, 1], [2, 2]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.MirrorPad"(%x, %p) {mode = "REFLECT"} : (tensor<?x?xf32>, tensor<2x2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %p = "tf.Const"() {value = dense<[[1, 1], [2, 2]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>

  // CHECK: [6,   5,   4,   5,   6,   5,   4]
  // CHECK-NEXT: [3,   2,   1,   2,   3,   2,   1]
  // CHECK-NEXT: [6,   5,   4,   5,   6,   5,   4]
  // CHECK-NEXT: [3,   2,   1,   2,   3,   2,   1]
  %r = "tf.MirrorPad"(%x, %p) {mode = "REFLECT"} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<4x7xf32>
  %ru = tensor.cast %r : tensor<4x7xf32> to tensor<*xf32>
  call @printMemrefF32(%ru) : (tensor<*xf32>) -> ()

  // CHECK: [2,   1,   1,   2,   3,   3,   2]
  // CHECK-NEXT: [2,   1,   1,   2,   3,   3,   2]
  // CHECK-NEXT: [5,   4,   4,   5,   6,   6,   5]
  // CHECK-NEXT: [5,   4,   4,   5,   6,   6,   5]
  %s = "tf.MirrorPad"(%x, %p) {mode = "SYMMETRIC"} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<4x7xf32>
  %su = tensor.cast %s : tensor<4x7xf32> to tensor<*xf32>
  call @printMemrefF32(%su) : (tensor<*xf32>) -> ()

  // CHECK: [6,   5,   4,   5,   6,   5,   4]
  // CHECK-NEXT: [3,   2,   1,   2,   3,   2,   1]
  // CHECK-NEXT: [6,   5,   4,   5,   6,   5,   4]
  // CHECK-NEXT: [3,   2,   1,   2,   3,   2,   1]
  %xd = tensor.cast %x : tensor<2x3xf32> to tensor<?x?xf32>
  %d = call @reflect_dynamic(%xd) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %du = tensor.cast %d : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%du) : (tensor<*xf32>) -> ()

  // SYMMETRIC may pad by the whole size: [1, 2, 3] by [3, 1].
  // CHECK: [3,  2,  1,  1,  2,  3,  3]
  %xi = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %pi = "tf.Const"() {value = dense<[[3, 1]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
  %i = "tf.MirrorPad"(%xi, %pi) {mode = "SYMMETRIC"} : (tensor<3xi32>, tensor<1x2xi64>) -> tensor<7xi32>
  %iu = tensor.cast %i : tensor<7xi32> to tensor<*xi32>
  call @printMemrefI32(%iu) : (tensor<*xi32>) -> ()
  return
}
