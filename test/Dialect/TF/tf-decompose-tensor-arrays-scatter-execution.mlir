// REQUIRES: mlir-runner
// RUN: kiln-opt %s --tf-decompose-tensor-arrays --tf-shape-inference --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// Scatter to some elements, gather in another order, split and concat, on
// arrays of 4 elements of shape [2], with TensorFlow's semantics:
// - scatter rows [[1, 2], [3, 4]] of %x to elements 3 and 0, then write
//   [5, 6] to element 1: stacked, [[3, 4], [5, 6], [0, 0], [1, 2]];
// - gather elements 3, 3, 1 of it: [[1, 2], [1, 2], [5, 6]];
// - concat it: [3, 4, 5, 6, 0, 0, 1, 2];
// - split [0..7] into 4 elements of length 2, gather 2 and 0: [[4, 5],
//   [0, 1]].
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %n = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %x = "tf.Const"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %y = "tf.Const"() {value = dense<[5.0, 6.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %where = "tf.Const"() {value = dense<[3, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %pick = "tf.Const"() {value = dense<[3, 3, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %h, %f0 = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %f1 = "tf.TensorArrayScatterV3"(%h, %where, %x, %f0) : (tensor<2x!tf_type.resource>, tensor<2xi32>, tensor<2x2xf32>, tensor<f32>) -> tensor<f32>
  %f2 = "tf.TensorArrayWriteV3"(%h, %one, %y, %f1) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
  %g = "tf.TensorArrayGatherV3"(%h, %pick, %f2) : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<f32>) -> tensor<3x2xf32>
  %c, %lengths = "tf.TensorArrayConcatV3"(%h, %f2) : (tensor<2x!tf_type.resource>, tensor<f32>) -> (tensor<8xf32>, tensor<4xi64>)

  %range = "tf.Const"() {value = dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %twos = "tf.Const"() {value = dense<2> : tensor<4xi64>} : () -> tensor<4xi64>
  %odd = "tf.Const"() {value = dense<[2, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s, %s0 = "tf.TensorArrayV3"(%n) {dtype = f32} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %s1 = "tf.TensorArraySplitV3"(%s, %range, %twos, %s0) : (tensor<2x!tf_type.resource>, tensor<8xf32>, tensor<4xi64>, tensor<f32>) -> tensor<f32>
  %sg = "tf.TensorArrayGatherV3"(%s, %odd, %s1) : (tensor<2x!tf_type.resource>, tensor<2xi32>, tensor<f32>) -> tensor<2x2xf32>

  %u = tensor.cast %g : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %c : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  %w = tensor.cast %sg : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%w) : (tensor<*xf32>) -> ()
  return
}
// CHECK:      sizes = [3, 2]
// CHECK-NEXT: [1,   2]
// CHECK-NEXT: [1,   2]
// CHECK-NEXT: [5,   6]
// CHECK:      sizes = [8]
// CHECK-NEXT: [3,  4,  5,  6,  0,  0,  1,  2]
// CHECK:      sizes = [2, 2]
// CHECK-NEXT: [4,   5]
// CHECK-NEXT: [0,   1]
