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
