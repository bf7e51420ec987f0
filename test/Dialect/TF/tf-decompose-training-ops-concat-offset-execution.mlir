// REQUIRES: mlir-runner
// RUN: kiln-opt %s --tf-decompose-training-ops --tf-shape-inference --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// ConcatOffset, ConcatV2's gradient (TF1 RNN cells concatenate the input and
// the state): inputs of shapes [2, 3], [2, 5] and [2, 1] concatenated along
// dimension -1 (that is 1) start at [0, 0], [0, 3] and [0, 8]; along
// dimension 0 at [0, 0], [2, 0] and [4, 0].
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %last = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %first = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %a = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b = "tf.Const"() {value = dense<[2, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %c = "tf.Const"() {value = dense<[2, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %o:3 = "tf.ConcatOffset"(%last, %a, %b, %c) : (tensor<i32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  %p:3 = "tf.ConcatOffset"(%first, %a, %b, %c) : (tensor<i32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  %all = "tf.Pack"(%o#0, %o#1, %o#2, %p#0, %p#1, %p#2) {axis = 0 : i64} : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<6x2xi32>
  %f = "tf.Cast"(%all) : (tensor<6x2xi32>) -> tensor<6x2xf32>
  %u = tensor.cast %f : tensor<6x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
// CHECK:      rank = 2 offset = 0 sizes = [6, 2]
// CHECK-NEXT: [0,   0]
// CHECK-NEXT: [0,   3]
// CHECK-NEXT: [0,   8]
// CHECK-NEXT: [0,   0]
// CHECK-NEXT: [2,   0]
// CHECK-NEXT: [4,   0]
