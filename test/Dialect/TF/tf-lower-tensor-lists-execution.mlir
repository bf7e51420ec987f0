// REQUIRES: mlir-runner
// RUN: kiln-opt %s --tf-lower-tensor-lists --convert-tf-control-flow-to-scf --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// A tf.while_loop that writes [i, 10 i] to item i of a list reserved with 4
// items, for i = 0, 1, 2, and adds item i of a list made from a tensor:
// TensorFlow gives the stacked list [[0, 0], [1, 10], [2, 20], [0, 0]] (item
// 3 was never set and reads as zeros) and 1 + 2 + 3 = 6 from the rows of
// [[1], [2], [3], [4]].
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %shape = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %rowShape = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %four = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %scale = "tf.Const"() {value = dense<[1.0, 10.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %acc0 = "tf.Const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %rows = "tf.Const"() {value = dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %l0 = "tf.TensorListReserve"(%shape, %four) : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2xf32>>>
  %in = "tf.TensorListFromTensor"(%rows, %rowShape) : (tensor<4x1xf32>, tensor<1xi32>) -> tensor<!tf_type.variant<tensor<1xf32>>>
  %r:4 = "tf.WhileRegion"(%zero, %l0, %in, %acc0) <{is_stateless = true, parallel_iterations = 10 : i64}> ({
  ^bb0(%i: tensor<i32>, %l: tensor<!tf_type.variant<tensor<2xf32>>>, %m: tensor<!tf_type.variant<tensor<1xf32>>>, %acc: tensor<1xf32>):
    %c = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %l: tensor<!tf_type.variant<tensor<2xf32>>>, %m: tensor<!tf_type.variant<tensor<1xf32>>>, %acc: tensor<1xf32>):
    %f = "tf.Cast"(%i) : (tensor<i32>) -> tensor<f32>
    %item = "tf.Mul"(%scale, %f) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %l1 = "tf.TensorListSetItem"(%l, %i, %item) : (tensor<!tf_type.variant<tensor<2xf32>>>, tensor<i32>, tensor<2xf32>) -> tensor<!tf_type.variant<tensor<2xf32>>>
    %row = "tf.TensorListGetItem"(%m, %i, %rowShape) : (tensor<!tf_type.variant<tensor<1xf32>>>, tensor<i32>, tensor<1xi32>) -> tensor<1xf32>
    %acc1 = "tf.AddV2"(%acc, %row) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next, %l1, %m, %acc1) : (tensor<i32>, tensor<!tf_type.variant<tensor<2xf32>>>, tensor<!tf_type.variant<tensor<1xf32>>>, tensor<1xf32>) -> ()
  }) : (tensor<i32>, tensor<!tf_type.variant<tensor<2xf32>>>, tensor<!tf_type.variant<tensor<1xf32>>>, tensor<1xf32>) -> (tensor<i32>, tensor<!tf_type.variant<tensor<2xf32>>>, tensor<!tf_type.variant<tensor<1xf32>>>, tensor<1xf32>)
  %stacked = "tf.TensorListStack"(%r#1, %shape) {num_elements = 4 : i64} : (tensor<!tf_type.variant<tensor<2xf32>>>, tensor<1xi32>) -> tensor<4x2xf32>
  %u = tensor.cast %stacked : tensor<4x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %r#3 : tensor<1xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
// CHECK:      rank = 2 offset = 0 sizes = [4, 2]
// CHECK-NEXT: {{\[}}[0,   0],
// CHECK-NEXT:  [1,   10],
// CHECK-NEXT:  [2,   20],
// CHECK-NEXT:  [0,   0]]
// CHECK:      rank = 1 offset = 0 sizes = [1]
// CHECK-NEXT: [6]
