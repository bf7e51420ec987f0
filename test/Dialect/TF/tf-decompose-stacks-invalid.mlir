// RUN: kiln-opt %s -split-input-file --tf-decompose-tensor-arrays -verify-diagnostics

// max_size -1 and a loop bounded by a value known only at run time: nothing
// bounds the number of pushes (XLA: "requires a fixed stack size upper
// bound").
func.func @unbounded(%x: tensor<2xf32>, %n: tensor<i32>) -> tensor<i32> {
  %minus = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.StackV2' op cannot be decomposed: max_size is not given and the loop around one of its pushes has no bound (its cond requires no loop counter below a constant)}}
  %s = "tf.StackV2"(%minus) {elem_type = f32} : (tensor<i32>) -> tensor<2x!tf_type.resource>
  // expected-note @+1 {{the unbounded loop}}
  %r = "tf.WhileRegion"(%zero) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%i: tensor<i32>):
    %c = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    // expected-note @+1 {{the push}}
    %p = "tf.StackPushV2"(%s, %x) : (tensor<2x!tf_type.resource>, tensor<2xf32>) -> tensor<2xf32>
    %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// A loop whose counter steps by two is not taken as a bound.
func.func @step_two(%x: tensor<2xf32>) -> tensor<i32> {
  %minus = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.StackV2' op cannot be decomposed: max_size is not given}}
  %s = "tf.StackV2"(%minus) {elem_type = f32} : (tensor<i32>) -> tensor<2x!tf_type.resource>
  // expected-note @+1 {{the unbounded loop}}
  %r = "tf.WhileRegion"(%zero) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%i: tensor<i32>):
    %c = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    // expected-note @+1 {{the push}}
    %p = "tf.StackPushV2"(%s, %x) : (tensor<2x!tf_type.resource>, tensor<2xf32>) -> tensor<2xf32>
    %next = "tf.AddV2"(%i, %two) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// The handle leaves the function: its state cannot follow.
func.func @escapes(%x: tensor<2xf32>) -> tensor<2x!tf_type.resource> {
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.StackV2' op cannot be decomposed: its handle reaches 'func.return', which is not a stack push, pop or close}}
  %s = "tf.StackV2"(%two) {elem_type = f32} : (tensor<i32>) -> tensor<2x!tf_type.resource>
  %p = "tf.StackPushV2"(%s, %x) : (tensor<2x!tf_type.resource>, tensor<2xf32>) -> tensor<2xf32>
  // expected-note @+1 {{the handle is used here}}
  return %s : tensor<2x!tf_type.resource>
}

// -----

// Elements of a shape known only at run time get no zero buffer.
func.func @dynamic_element(%x: tensor<?xf32>) -> tensor<?xf32> {
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.StackV2' op cannot be decomposed: the shape of its elements is not static (its pushes give 'tensor<?xf32>')}}
  %s = "tf.StackV2"(%two) {elem_type = f32} : (tensor<i32>) -> tensor<2x!tf_type.resource>
  %p = "tf.StackPushV2"(%s, %x) : (tensor<2x!tf_type.resource>, tensor<?xf32>) -> tensor<?xf32>
  %v = "tf.StackPopV2"(%s) : (tensor<2x!tf_type.resource>) -> tensor<?xf32>
  return %v : tensor<?xf32>
}

// -----

// Pushes of two shapes.
func.func @two_shapes(%x: tensor<2xf32>, %y: tensor<3xf32>) {
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.StackV2' op cannot be decomposed: its elements are given the types}}
  %s = "tf.StackV2"(%two) {elem_type = f32} : (tensor<i32>) -> tensor<2x!tf_type.resource>
  %p = "tf.StackPushV2"(%s, %x) : (tensor<2x!tf_type.resource>, tensor<2xf32>) -> tensor<2xf32>
  %q = "tf.StackPushV2"(%s, %y) : (tensor<2x!tf_type.resource>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// A push under a tf.IfRegion: only loops carry a stack's state.
func.func @in_if(%x: tensor<2xf32>, %c: tensor<i1>) {
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%two) {elem_type = f32} : (tensor<i32>) -> tensor<2x!tf_type.resource>
  // expected-error @+1 {{'tf.IfRegion' op cannot be decomposed: it pushes or pops a stack inside its regions, and only tf.WhileRegion carries a stack's state}}
  "tf.IfRegion"(%c) ({
    %p = "tf.StackPushV2"(%s, %x) : (tensor<2x!tf_type.resource>, tensor<2xf32>) -> tensor<2xf32>
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i1>) -> ()
  return
}
