// RUN: kiln-opt %s -split-input-file --convert-tf-control-flow-to-scf | FileCheck %s

// CHECK-LABEL: func.func @if_bool
// CHECK-SAME:    (%[[C:.+]]: tensor<i1>, %[[A:.+]]: tensor<2xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK:         %[[P:.+]] = tensor.extract %[[C]][] : tensor<i1>
// CHECK:         %[[R:.+]] = scf.if %[[P]] -> (tensor<?xf32>) {
// CHECK:           %[[CAST:.+]] = tensor.cast %[[A]] : tensor<2xf32> to tensor<?xf32>
// CHECK:           scf.yield %[[CAST]]
// CHECK:         } else {
// CHECK:           scf.yield %[[B]]
// CHECK:         }
// CHECK:         return %[[R]]
func.func @if_bool(%c: tensor<i1>, %a: tensor<2xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %r = "tf.IfRegion"(%c) ({
    "tf.Yield"(%a) : (tensor<2xf32>) -> ()
  }, {
    "tf.Yield"(%b) : (tensor<?xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A float condition is true when non-zero, as in TensorFlow.
// CHECK-LABEL: func.func @if_float
// CHECK:         %[[V:.+]] = tensor.extract %{{.+}}[] : tensor<f32>
// CHECK:         %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[P:.+]] = arith.cmpf une, %[[V]], %[[Z]] : f32
// CHECK:         scf.if %[[P]]
func.func @if_float(%c: tensor<*xf32>, %a: tensor<i32>) -> tensor<i32> {
  %r = "tf.IfRegion"(%c) ({
    "tf.Yield"(%a) : (tensor<i32>) -> ()
  }, {
    "tf.Yield"(%a) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<*xf32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// A loop whose value changes shape carries the joined type (`?`), and the
// body sees that type (no cast back to the initial shape).
// CHECK-LABEL: func.func @while_growing
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1xf32>,
// CHECK:         %[[INIT:.+]] = tensor.cast %[[X]] : tensor<1xf32> to tensor<?xf32>
// CHECK:         %[[W:.+]] = scf.while (%[[V:.+]] = %[[INIT]]) : (tensor<?xf32>) -> tensor<?xf32> {
// CHECK:           %[[P:.+]] = tensor.extract %{{.+}}[] : tensor<i1>
// CHECK:           scf.condition(%[[P]]) %[[V]] : tensor<?xf32>
// CHECK:         } do {
// CHECK:         ^bb0(%[[B:.+]]: tensor<?xf32>):
// CHECK:           %[[NEXT:.+]] = "tf.ConcatV2"(%[[B]], %[[B]], %{{.+}})
// CHECK:           scf.yield %[[NEXT]] : tensor<?xf32>
// CHECK:         }
// CHECK:         return %[[W]]
func.func @while_growing(%x: tensor<1xf32>, %p: tensor<i1>) -> tensor<?xf32> {
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %r = "tf.WhileRegion"(%x) ({
  ^bb0(%v: tensor<1xf32>):
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%v: tensor<1xf32>):
    %n = "tf.ConcatV2"(%v, %v, %axis) : (tensor<1xf32>, tensor<1xf32>, tensor<i32>) -> tensor<?xf32>
    "tf.Yield"(%n) : (tensor<?xf32>) -> ()
  }) {is_stateless = true} : (tensor<1xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Case: an out-of-range index runs the last branch (the default).
// CHECK-LABEL: func.func @case
// CHECK:         %[[I:.+]] = tensor.extract %{{.+}}[] : tensor<i32>
// CHECK:         %[[IDX:.+]] = arith.index_cast %[[I]] : i32 to index
// CHECK:         scf.index_switch %[[IDX]] -> tensor<f32>
// CHECK:         case 0 {
// CHECK:           "tf.Neg"
// CHECK:         case 1 {
// CHECK:           "tf.Abs"
// CHECK:         default {
// CHECK:           "tf.Square"
func.func @case(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = "tf.CaseRegion"(%i) ({
    %0 = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%0) : (tensor<f32>) -> ()
  }, {
    %0 = "tf.Abs"(%x) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%0) : (tensor<f32>) -> ()
  }, {
    %0 = "tf.Square"(%x) : (tensor<f32>) -> tensor<f32>
    "tf.Yield"(%0) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// Nested: the inner IfRegion is lowered inside the loop body.
// CHECK-LABEL: func.func @nested
// CHECK:         scf.while
// CHECK:         } do {
// CHECK:           scf.if
// CHECK-NOT:     tf.IfRegion
// CHECK-NOT:     tf.WhileRegion
func.func @nested(%x: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  %r = "tf.WhileRegion"(%x) ({
  ^bb0(%v: tensor<i32>):
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%v: tensor<i32>):
    %n = "tf.IfRegion"(%p) ({
      "tf.Yield"(%v) : (tensor<i32>) -> ()
    }, {
      "tf.Yield"(%v) : (tensor<i32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<i32>
    "tf.Yield"(%n) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}
