// RUN: kiln-opt %s -split-input-file --canonicalize | FileCheck %s

// Folders of TFFoldersElementwise.cpp: the integer arithmetic, comparisons
// and selects with which TF.js exports compute block-padded sizes.

// MAXIM's "number of blocks, rounded up" of a size 64 and block 64, as the
// TF.js export spells it: every op folds, so the Reshape gets a static type
// from shape inference instead of staying tensor<?x?x?x?xf32>.
// CHECK-LABEL: func.func @blocks_rounded_up
// CHECK-NEXT: %[[C:.+]] = "tf.Const"() <{value = dense<1> : tensor<i32>}>
// CHECK-NEXT: return %[[C]]
func.func @blocks_rounded_up() -> tensor<i32> {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.Const"() {value = dense<64> : tensor<i32>} : () -> tensor<i32>
  %sign = "tf.Sign"(%n) : (tensor<i32>) -> tensor<i32>
  %notOne = "tf.NotEqual"(%sign, %one) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %mod = "tf.FloorMod"(%n, %n) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %partial = "tf.NotEqual"(%mod, %zero) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %both = "tf.LogicalAnd"(%notOne, %partial) : (tensor<i1>, tensor<i1>) -> tensor<i1>
  %div = "tf.FloorDiv"(%n, %n) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %up = "tf.AddV2"(%div, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %r = "tf.SelectV2"(%both, %up, %div) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// Floor division and modulo round toward negative infinity (TensorFlow's
// rule); the remainder has the divisor's sign.
// CHECK-LABEL: func.func @floor_div_mod
// CHECK-DAG: "tf.Const"() <{value = dense<[2, -3, -3, 2]> : tensor<4xi32>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[1, 2, -2, -1]> : tensor<4xi32>}>
// CHECK-NOT: tf.FloorDiv
// CHECK-NOT: tf.FloorMod
func.func @floor_div_mod() -> (tensor<4xi32>, tensor<4xi32>) {
  %a = "tf.Const"() {value = dense<[7, -7, 7, -7]> : tensor<4xi32>} : () -> tensor<4xi32>
  %b = "tf.Const"() {value = dense<[3, 3, -3, -3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %d = "tf.FloorDiv"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %m = "tf.FloorMod"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %d, %m : tensor<4xi32>, tensor<4xi32>
}

// -----

// Division by zero is an error at run time: not folded.
// CHECK-LABEL: func.func @floor_div_by_zero
// CHECK: tf.FloorDiv
// CHECK: tf.FloorMod
func.func @floor_div_by_zero() -> (tensor<i32>, tensor<i32>) {
  %a = "tf.Const"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %z = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %d = "tf.FloorDiv"(%a, %z) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %m = "tf.FloorMod"(%a, %z) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %d, %m : tensor<i32>, tensor<i32>
}

// -----

// A scalar operand broadcasts to the other's shape.
// CHECK-LABEL: func.func @sign_max_min_broadcast
// CHECK-DAG: "tf.Const"() <{value = dense<[-1, 0, 1]> : tensor<3xi64>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[0, 0, 5]> : tensor<3xi64>}>
// CHECK-DAG: "tf.Const"() <{value = dense<[-4, 0, 0]> : tensor<3xi64>}>
// CHECK-NOT: tf.Sign
// CHECK-NOT: tf.Maximum
// CHECK-NOT: tf.Minimum
func.func @sign_max_min_broadcast() -> (tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) {
  %x = "tf.Const"() {value = dense<[-4, 0, 5]> : tensor<3xi64>} : () -> tensor<3xi64>
  %z = "tf.Const"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %s = "tf.Sign"(%x) : (tensor<3xi64>) -> tensor<3xi64>
  %hi = "tf.Maximum"(%x, %z) : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  %lo = "tf.Minimum"(%z, %x) : (tensor<i64>, tensor<3xi64>) -> tensor<3xi64>
  return %s, %hi, %lo : tensor<3xi64>, tensor<3xi64>, tensor<3xi64>
}

// -----

// CHECK-LABEL: func.func @comparisons
// CHECK-DAG: dense<[true, false, false]> : tensor<3xi1>
// CHECK-DAG: dense<[true, true, false]> : tensor<3xi1>
// CHECK-DAG: dense<[false, false, true]> : tensor<3xi1>
// CHECK-DAG: dense<[false, true, true]> : tensor<3xi1>
// CHECK-DAG: dense<[false, true, false]> : tensor<3xi1>
// CHECK-DAG: dense<[true, false, true]> : tensor<3xi1>
// CHECK-NOT: "tf.Less
// CHECK-NOT: "tf.Greater
// CHECK-NOT: "tf.Equal
// CHECK-NOT: "tf.NotEqual
func.func @comparisons() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>) {
  %x = "tf.Const"() {value = dense<[-1, 2, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %y = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%x, %y) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi1>
  %le = "tf.LessEqual"(%x, %y) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi1>
  %gt = "tf.Greater"(%x, %y) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi1>
  %ge = "tf.GreaterEqual"(%x, %y) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi1>
  %eq = "tf.Equal"(%x, %y) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi1>
  %ne = "tf.NotEqual"(%x, %y) : (tensor<3xi32>, tensor<i32>) -> tensor<3xi1>
  return %lt, %le, %gt, %ge, %eq, %ne : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>
}

// -----

// Unsigned integers compare and divide as unsigned: 255 is not below 1.
// CHECK-LABEL: func.func @unsigned
// CHECK-DAG: dense<false> : tensor<i1>
// CHECK-DAG: dense<127> : tensor<ui8>
func.func @unsigned() -> (tensor<i1>, tensor<ui8>) {
  %a = "tf.Const"() {value = dense<255> : tensor<ui8>} : () -> tensor<ui8>
  %b = "tf.Const"() {value = dense<1> : tensor<ui8>} : () -> tensor<ui8>
  %two = "tf.Const"() {value = dense<2> : tensor<ui8>} : () -> tensor<ui8>
  %lt = "tf.Less"(%a, %b) : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
  %d = "tf.FloorDiv"(%a, %two) : (tensor<ui8>, tensor<ui8>) -> tensor<ui8>
  return %lt, %d : tensor<i1>, tensor<ui8>
}

// -----

// SelectV2 picks elements of any type, per element or with a scalar
// condition; float arithmetic itself is not folded here.
// CHECK-LABEL: func.func @select_v2
// CHECK-DAG: dense<[1.000000e+00, 2.000000e+01]> : tensor<2xf32>
// CHECK-DAG: dense<[1.000000e+01, 2.000000e+01]> : tensor<2xf32>
// CHECK-NOT: tf.SelectV2
func.func @select_v2() -> (tensor<2xf32>, tensor<2xf32>) {
  %c = "tf.Const"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %f = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %a = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "tf.Const"() {value = dense<[10.0, 20.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = "tf.SelectV2"(%c, %a, %b) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t = "tf.SelectV2"(%f, %a, %b) : (tensor<i1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %s, %t : tensor<2xf32>, tensor<2xf32>
}

// -----

// A non-constant operand or a float Maximum is left alone.
// CHECK-LABEL: func.func @not_folded
// CHECK: tf.Maximum
// CHECK: tf.Sign
func.func @not_folded(%arg0: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  %a = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "tf.Const"() {value = dense<[10.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %m = "tf.Maximum"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %s = "tf.Sign"(%arg0) : (tensor<i32>) -> tensor<i32>
  return %m, %s : tensor<2xf32>, tensor<i32>
}
