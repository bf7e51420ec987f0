// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file | FileCheck %s

// A tf op with an empty operand whose results have no element (a static
// size-0 dimension) is a tensor.empty, before its own lowering makes slices
// of size-0 dimensions that MLIR rejects ("offset 0 is out-of-bounds: 0 >=
// 0").

// CHECK-LABEL: func.func @concat_of_empty
// CHECK-NOT: tensor.concat
// CHECK: %[[E:.+]] = tensor.empty() : tensor<0x2xf32>
// CHECK: return %[[E]] : tensor<0x2xf32>
func.func @concat_of_empty(%a: tensor<0x2xf32>, %b: tensor<0x2xf32>) -> tensor<0x2xf32> {
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ConcatV2"(%a, %b, %axis) : (tensor<0x2xf32>, tensor<0x2xf32>, tensor<i32>) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}

// -----

// CHECK-LABEL: func.func @strided_slice_of_empty
// CHECK-NOT: tensor.extract_slice
// CHECK: %[[E:.+]] = tensor.empty() : tensor<0x2xf32>
// CHECK: return %[[E]] : tensor<0x2xf32>
func.func @strided_slice_of_empty(%x: tensor<0x3xf32>) -> tensor<0x2xf32> {
  %begin = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %end = "tf.Const"() {value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.StridedSlice"(%x, %begin, %end, %strides) {begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64} : (tensor<0x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<0x2xf32>
  return %0 : tensor<0x2xf32>
}

// -----

// Unsigned results become signless like any other result.
// CHECK-LABEL: func.func @add_of_empty_unsigned
// CHECK: %[[E:.+]] = tensor.empty() : tensor<3x0xi8>
// CHECK: return %[[E]] : tensor<3x0xi8>
func.func @add_of_empty_unsigned(%a: tensor<3x0xui8>, %b: tensor<3x0xui8>) -> tensor<3x0xui8> {
  %0 = "tf.AddV2"(%a, %b) : (tensor<3x0xui8>, tensor<3x0xui8>) -> tensor<3x0xui8>
  return %0 : tensor<3x0xui8>
}

// -----

// A dynamic result, or one with elements, keeps its own lowering.
// CHECK-LABEL: func.func @slice_dynamic
// CHECK: tensor.extract_slice
func.func @slice_dynamic(%x: tensor<?x3xf32>) -> tensor<?x2xf32> {
  %begin = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %end = "tf.Const"() {value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<1> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.StridedSlice"(%x, %begin, %end, %strides) {begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64} : (tensor<?x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// An empty result computed from non-empty operands keeps its lowering: the
// shape of a scalar is an empty constant that tf.Reshape reads.
// CHECK-LABEL: func.func @reshape_to_scalar
// CHECK-NOT: tensor.empty
// CHECK: tensor.collapse_shape
func.func @reshape_to_scalar(%x: tensor<1x1xf32>, %s: tensor<f32>) -> tensor<f32> {
  %shape = "tf.Shape"(%s) : (tensor<f32>) -> tensor<0xi32>
  %0 = "tf.Reshape"(%x, %shape) : (tensor<1x1xf32>, tensor<0xi32>) -> tensor<f32>
  return %0 : tensor<f32>
}
