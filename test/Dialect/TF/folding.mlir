// RUN: kiln-opt %s -split-input-file --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
func.func @identity(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK-NOT: tf.Identity
  // CHECK: return %[[X]]
  %0 = "tf.Identity"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Identity that changes the type (here: refines it) is kept.
// CHECK-LABEL: func.func @identity_type_change
func.func @identity_type_change(%arg0: tensor<*xf32>) -> tensor<2xf32> {
  // CHECK: "tf.Identity"
  %0 = "tf.Identity"(%arg0) : (tensor<*xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @identity_n
// CHECK-SAME: (%[[A:.+]]: tensor<i32>, %[[B:.+]]: tensor<f32>)
func.func @identity_n(%arg0: tensor<i32>, %arg1: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  // CHECK-NOT: tf.IdentityN
  // CHECK: return %[[B]], %[[A]]
  %0:2 = "tf.IdentityN"(%arg0, %arg1) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  return %0#1, %0#0 : tensor<f32>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @add_v2_float
func.func @add_v2_float() -> tensor<2xf32> {
  // CHECK: %[[C:.+]] = "tf.Const"() <{value = dense<[4.000000e+00, 6.000000e+00]> : tensor<2xf32>}> : () -> tensor<2xf32>
  // CHECK-NOT: tf.AddV2
  // CHECK: return %[[C]]
  %0 = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "tf.Const"() {value = dense<[3.0, 4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "tf.AddV2"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @add_int
func.func @add_int() -> tensor<3xi32> {
  // CHECK: %[[C:.+]] = "tf.Const"() <{value = dense<[11, 22, 33]> : tensor<3xi32>}> : () -> tensor<3xi32>
  // CHECK: return %[[C]]
  %0 = "tf.Const"() {value = dense<[1, 2, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %1 = "tf.Const"() {value = dense<[10, 20, 30]> : tensor<3xi32>} : () -> tensor<3xi32>
  %2 = "tf.Add"(%0, %1) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %2 : tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @sub_mul_splat
func.func @sub_mul_splat() -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  // CHECK-DAG: %[[SUB:.+]] = "tf.Const"() <{value = dense<1.000000e+00> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
  // CHECK-DAG: %[[MUL:.+]] = "tf.Const"() <{value = dense<6.000000e+00> : tensor<2x2xf32>}> : () -> tensor<2x2xf32>
  // CHECK: return %[[SUB]], %[[MUL]]
  %0 = "tf.Const"() {value = dense<3.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %1 = "tf.Const"() {value = dense<2.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %2 = "tf.Sub"(%0, %1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %3 = "tf.Mul"(%0, %1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %2, %3 : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @real_div
func.func @real_div() -> (tensor<2xf32>, tensor<2xi32>) {
  // CHECK-DAG: %[[F:.+]] = "tf.Const"() <{value = dense<[5.000000e-01, 2.500000e+00]> : tensor<2xf32>}> : () -> tensor<2xf32>
  // CHECK-DAG: %[[I:.+]] = "tf.Const"() <{value = dense<[-3, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // CHECK: return %[[F]], %[[I]]
  %0 = "tf.Const"() {value = dense<[1.0, 5.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "tf.Const"() {value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "tf.RealDiv"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = "tf.Const"() {value = dense<[-7, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %4 = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %5 = "tf.RealDiv"(%3, %4) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %2, %5 : tensor<2xf32>, tensor<2xi32>
}

// -----

// Integer division by zero fails at run time: not folded.
// CHECK-LABEL: func.func @real_div_by_zero
func.func @real_div_by_zero() -> tensor<2xi32> {
  // CHECK: "tf.RealDiv"
  %0 = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %2 = "tf.RealDiv"(%0, %1) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %2 : tensor<2xi32>
}

// -----

// A scalar (splat) operand broadcasts.
// CHECK-LABEL: func.func @add_v2_scalar_broadcast
func.func @add_v2_scalar_broadcast() -> tensor<2xf32> {
  // CHECK: %[[C:.+]] = "tf.Const"() <{value = dense<[4.000000e+00, 5.000000e+00]> : tensor<2xf32>}> : () -> tensor<2xf32>
  // CHECK-NOT: tf.AddV2
  // CHECK: return %[[C]]
  %0 = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "tf.Const"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "tf.AddV2"(%0, %1) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

// -----

// Broadcasting a non-splat operand is not folded.
// CHECK-LABEL: func.func @mul_broadcast_not_splat
func.func @mul_broadcast_not_splat() -> tensor<2x2xi32> {
  // CHECK: "tf.Mul"
  %0 = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.Const"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %2 = "tf.Mul"(%0, %1) : (tensor<2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  return %2 : tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @add_v2_non_constant
func.func @add_v2_non_constant(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: "tf.AddV2"
  %0 = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "tf.AddV2"(%arg0, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_constant
func.func @reshape_constant() -> tensor<3x2xi32> {
  // CHECK: %[[C:.+]] = "tf.Const"() <{value = dense<{{\[}}[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>}> : () -> tensor<3x2xi32>
  // CHECK-NOT: tf.Reshape
  // CHECK: return %[[C]]
  %0 = "tf.Const"() {value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %1 = "tf.Const"() {value = dense<[3, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %2 = "tf.Reshape"(%0, %1) : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<3x2xi32>
  return %2 : tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func.func @reshape_same_type
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[S:.+]]: tensor<2xi32>)
func.func @reshape_same_type(%arg0: tensor<2x3xf32>, %arg1: tensor<2xi32>) -> tensor<2x3xf32> {
  // CHECK-NOT: tf.Reshape
  // CHECK: return %[[X]]
  %0 = "tf.Reshape"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @cast_constant
func.func @cast_constant() -> (tensor<3xf32>, tensor<2xi32>, tensor<2xi1>) {
  // CHECK-DAG: %[[F:.+]] = "tf.Const"() <{value = dense<[-1.000000e+00, 0.000000e+00, 7.000000e+00]> : tensor<3xf32>}> : () -> tensor<3xf32>
  // CHECK-DAG: %[[I:.+]] = "tf.Const"() <{value = dense<[2, -2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // CHECK-DAG: %[[B:.+]] = "tf.Const"() <{value = dense<[true, false]> : tensor<2xi1>}> : () -> tensor<2xi1>
  // CHECK-NOT: tf.Cast
  // CHECK: return %[[F]], %[[I]], %[[B]]
  %0 = "tf.Const"() {value = dense<[-1, 0, 7]> : tensor<3xi64>} : () -> tensor<3xi64>
  %1 = "tf.Cast"(%0) : (tensor<3xi64>) -> tensor<3xf32>
  %2 = "tf.Const"() {value = dense<[2.7, -2.7]> : tensor<2xf32>} : () -> tensor<2xf32>
  %3 = "tf.Cast"(%2) : (tensor<2xf32>) -> tensor<2xi32>
  %4 = "tf.Const"() {value = dense<[5, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %5 = "tf.Cast"(%4) : (tensor<2xi32>) -> tensor<2xi1>
  return %1, %3, %5 : tensor<3xf32>, tensor<2xi32>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func.func @cast_same_type
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
func.func @cast_same_type(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK-NOT: tf.Cast
  // CHECK: return %[[X]]
  %0 = "tf.Cast"(%arg0) {Truncate = false} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @shape_static
func.func @shape_static(%arg0: tensor<2x3x5xf32>) -> tensor<3xi32> {
  // CHECK: %[[C:.+]] = "tf.Const"() <{value = dense<[2, 3, 5]> : tensor<3xi32>}> : () -> tensor<3xi32>
  // CHECK-NOT: tf.Shape
  // CHECK: return %[[C]]
  %0 = "tf.Shape"(%arg0) : (tensor<2x3x5xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @shape_of_constant
func.func @shape_of_constant() -> tensor<1xi64> {
  // CHECK: %[[C:.+]] = "tf.Const"() <{value = dense<4> : tensor<1xi64>}> : () -> tensor<1xi64>
  // CHECK: return %[[C]]
  %0 = "tf.Const"() {value = dense<[1, 2, 3, 4]> : tensor<4xi32>} : () -> tensor<4xi32>
  %1 = "tf.Shape"(%0) : (tensor<4xi32>) -> tensor<1xi64>
  return %1 : tensor<1xi64>
}

// -----

// CHECK-LABEL: func.func @shape_dynamic
func.func @shape_dynamic(%arg0: tensor<2x?xf32>) -> tensor<2xi32> {
  // CHECK: "tf.Shape"
  %0 = "tf.Shape"(%arg0) : (tensor<2x?xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @unused_pure_op_removed
func.func @unused_pure_op_removed(%arg0: tensor<2xf32>) {
  // CHECK-NOT: tf.Relu
  // CHECK: return
  %0 = "tf.Relu"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// CHECK-LABEL: func.func @size_static
func.func @size_static(%arg0: tensor<2x3x5xf32>) -> tensor<i64> {
  // CHECK: %[[C:.+]] = "tf.Const"() <{value = dense<30> : tensor<i64>}> : () -> tensor<i64>
  // CHECK-NOT: tf.Size
  // CHECK: return %[[C]]
  %0 = "tf.Size"(%arg0) : (tensor<2x3x5xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// CHECK-LABEL: func.func @pack_constants
func.func @pack_constants() -> (tensor<3xi32>, tensor<2x2xi32>) {
  // CHECK-DAG: %[[V:.+]] = "tf.Const"() <{value = dense<[1, 7, 3]> : tensor<3xi32>}> : () -> tensor<3xi32>
  // CHECK-DAG: %[[M:.+]] = "tf.Const"() <{value = dense<{{\[}}[1, 3], [2, 4]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  // CHECK-NOT: tf.Pack
  // CHECK: return %[[V]], %[[M]]
  %0 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.Const"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %2 = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %3 = "tf.Pack"(%0, %1, %2) {axis = 0 : i64} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3xi32>
  %4 = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %5 = "tf.Const"() {value = dense<[3, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %6 = "tf.Pack"(%4, %5) {axis = -1 : i64} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  return %3, %6 : tensor<3xi32>, tensor<2x2xi32>
}

// -----

// A Pack with an operand that is not constant stays.
// CHECK-LABEL: func.func @pack_non_constant
func.func @pack_non_constant(%arg0: tensor<i32>) -> tensor<2xi32> {
  // CHECK: "tf.Pack"
  %0 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.Pack"(%0, %arg0) {axis = 0 : i64} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
  return %1 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @concat_constants
func.func @concat_constants() -> (tensor<3xi64>, tensor<2x3xi32>) {
  // CHECK-DAG: %[[V:.+]] = "tf.Const"() <{value = dense<[-1, 4, 5]> : tensor<3xi64>}> : () -> tensor<3xi64>
  // CHECK-DAG: %[[M:.+]] = "tf.Const"() <{value = dense<{{\[}}[1, 2, 5], [3, 4, 6]]> : tensor<2x3xi32>}> : () -> tensor<2x3xi32>
  // CHECK-NOT: tf.ConcatV2
  // CHECK: return %[[V]], %[[M]]
  %0 = "tf.Const"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "tf.Const"() {value = dense<[4, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %2 = "tf.ConcatV2"(%0, %1, %axis) : (tensor<1xi64>, tensor<2xi64>, tensor<i32>) -> tensor<3xi64>
  %3 = "tf.Const"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %4 = "tf.Const"() {value = dense<[[5], [6]]> : tensor<2x1xi32>} : () -> tensor<2x1xi32>
  %last = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %5 = "tf.ConcatV2"(%3, %4, %last) : (tensor<2x2xi32>, tensor<2x1xi32>, tensor<i32>) -> tensor<2x3xi32>
  return %2, %5 : tensor<3xi64>, tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @strided_slice_shrink
func.func @strided_slice_shrink() -> (tensor<i32>, tensor<i32>) {
  // CHECK-DAG: %[[A:.+]] = "tf.Const"() <{value = dense<224> : tensor<i32>}> : () -> tensor<i32>
  // CHECK-DAG: %[[B:.+]] = "tf.Const"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  // CHECK-NOT: tf.StridedSlice
  // CHECK: return %[[A]], %[[B]]
  %shape = "tf.Const"() {value = dense<[1, 224, 225, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %b = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = "tf.StridedSlice"(%shape, %b, %e, %s) {shrink_axis_mask = 1 : i64} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %last = "tf.Const"() {value = dense<-1> : tensor<1xi32>} : () -> tensor<1xi32>
  %zero = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %1 = "tf.StridedSlice"(%shape, %last, %zero, %s) {shrink_axis_mask = 1 : i64} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  return %0, %1 : tensor<i32>, tensor<i32>
}

// -----

// Masks, negative strides and a 2-D input.
// CHECK-LABEL: func.func @strided_slice_ranges
func.func @strided_slice_ranges() -> (tensor<3xi32>, tensor<2x2xi32>) {
  // CHECK-DAG: %[[R:.+]] = "tf.Const"() <{value = dense<[5, 3, 1]> : tensor<3xi32>}> : () -> tensor<3xi32>
  // CHECK-DAG: %[[M:.+]] = "tf.Const"() <{value = dense<{{\[}}[4, 6], [7, 9]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  // CHECK-NOT: tf.StridedSlice
  // CHECK: return %[[R]], %[[M]]
  %v = "tf.Const"() {value = dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi32>} : () -> tensor<6xi32>
  %b = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tf.Const"() {value = dense<-2> : tensor<1xi32>} : () -> tensor<1xi32>
  // Begin and end masked: the whole vector backwards, every other element.
  %0 = "tf.StridedSlice"(%v, %b, %b, %s) {begin_mask = 1 : i64, end_mask = 1 : i64} : (tensor<6xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
  %m = "tf.Const"() {value = dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>} : () -> tensor<3x3xi32>
  %b2 = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %e2 = "tf.Const"() {value = dense<[100, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2 = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.StridedSlice"(%m, %b2, %e2, %s2) : (tensor<3x3xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  return %0, %1 : tensor<3xi32>, tensor<2x2xi32>
}

// -----

// Shape arithmetic as the TF.js converter writes it folds to a constant.
// CHECK-LABEL: func.func @shape_arithmetic
func.func @shape_arithmetic(%x: tensor<1x7x7x6xf32>) -> tensor<3xi32> {
  // CHECK: %[[C:.+]] = "tf.Const"() <{value = dense<[1, 294, 1]> : tensor<3xi32>}> : () -> tensor<3xi32>
  // CHECK-NOT: tf.Pack
  // CHECK: return %[[C]]
  %shape = "tf.Shape"(%x) : (tensor<1x7x7x6xf32>) -> tensor<4xi32>
  %b = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %n = "tf.StridedSlice"(%shape, %b, %e, %e) {shrink_axis_mask = 1 : i64} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %c294 = "tf.Const"() {value = dense<294> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Pack"(%n, %c294, %one) {axis = 0 : i64} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @expand_dims_squeeze_constants
func.func @expand_dims_squeeze_constants() -> (tensor<1xi32>, tensor<2xi32>) {
  // CHECK-DAG: %[[E:.+]] = "tf.Const"() <{value = dense<7> : tensor<1xi32>}> : () -> tensor<1xi32>
  // CHECK-DAG: %[[S:.+]] = "tf.Const"() <{value = dense<[3, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // CHECK-NOT: tf.ExpandDims
  // CHECK-NOT: tf.Squeeze
  // CHECK: return %[[E]], %[[S]]
  %0 = "tf.Const"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %dim = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.ExpandDims"(%0, %dim) : (tensor<i32>, tensor<i32>) -> tensor<1xi32>
  %2 = "tf.Const"() {value = dense<[[3], [4]]> : tensor<2x1xi32>} : () -> tensor<2x1xi32>
  %3 = "tf.Squeeze"(%2) {squeeze_dims = [1]} : (tensor<2x1xi32>) -> tensor<2xi32>
  return %1, %3 : tensor<1xi32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @sparse_to_dense_constants
func.func @sparse_to_dense_constants() -> (tensor<3xi64>, tensor<2x2xi32>) {
  // CHECK-DAG: %[[Z:.+]] = "tf.Const"() <{value = dense<0> : tensor<3xi64>}> : () -> tensor<3xi64>
  // CHECK-DAG: %[[M:.+]] = "tf.Const"() <{value = dense<{{\[}}[9, 5], [5, 8]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  // CHECK-NOT: tf.SparseToDense
  // CHECK: return %[[Z]], %[[M]]
  // No index: every element is the default (nanodet's shape arithmetic).
  %i0 = "tf.Const"() {value = dense<> : tensor<0x1xi64>} : () -> tensor<0x1xi64>
  %s0 = "tf.Const"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %v0 = "tf.Const"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %d0 = "tf.Const"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %0 = "tf.SparseToDense"(%i0, %s0, %v0, %d0) : (tensor<0x1xi64>, tensor<1xi64>, tensor<0xi64>, tensor<i64>) -> tensor<3xi64>
  %i1 = "tf.Const"() {value = dense<[[0, 0], [1, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %s1 = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %v1 = "tf.Const"() {value = dense<[9, 8]> : tensor<2xi32>} : () -> tensor<2xi32>
  %d1 = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.SparseToDense"(%i1, %s1, %v1, %d1) : (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<i32>) -> tensor<2x2xi32>
  return %0, %1 : tensor<3xi64>, tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func.func @fill_range_gather_constants
func.func @fill_range_gather_constants() -> (tensor<2x3xf32>, tensor<4xi32>, tensor<2x2xi32>) {
  // CHECK-DAG: %[[F:.+]] = "tf.Const"() <{value = dense<1.500000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  // CHECK-DAG: %[[R:.+]] = "tf.Const"() <{value = dense<[10, 7, 4, 1]> : tensor<4xi32>}> : () -> tensor<4xi32>
  // CHECK-DAG: %[[G:.+]] = "tf.Const"() <{value = dense<{{\[}}[3, 1], [6, 4]]> : tensor<2x2xi32>}> : () -> tensor<2x2xi32>
  // CHECK-NOT: tf.Fill
  // CHECK-NOT: tf.Range
  // CHECK-NOT: tf.GatherV2
  // CHECK: return %[[F]], %[[R]], %[[G]]
  %dims = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %v = "tf.Const"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Fill"(%dims, %v) : (tensor<2xi32>, tensor<f32>) -> tensor<2x3xf32>
  %start = "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %limit = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %delta = "tf.Const"() {value = dense<-3> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.Range"(%start, %limit, %delta) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
  // Columns 2 and 0 of a 2x3 matrix.
  %params = "tf.Const"() {value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %ids = "tf.Const"() {value = dense<[2, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %axis = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %2 = "tf.GatherV2"(%params, %ids, %axis) : (tensor<2x3xi32>, tensor<2xi32>, tensor<i32>) -> tensor<2x2xi32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<4xi32>, tensor<2x2xi32>
}

// -----

// An out-of-range gather index is an error at run time: it is not folded.
// CHECK-LABEL: func.func @gather_out_of_range
func.func @gather_out_of_range() -> tensor<1xi32> {
  // CHECK: "tf.GatherV2"
  %params = "tf.Const"() {value = dense<[1, 2, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %ids = "tf.Const"() {value = dense<[3]> : tensor<1xi32>} : () -> tensor<1xi32>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.GatherV2"(%params, %ids, %axis) : (tensor<3xi32>, tensor<1xi32>, tensor<i32>) -> tensor<1xi32>
  return %0 : tensor<1xi32>
}
