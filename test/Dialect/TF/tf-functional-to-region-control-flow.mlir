// RUN: kiln-opt %s -split-input-file --tf-functional-to-region-control-flow --symbol-dce | FileCheck %s

// tf.If copies both branch functions into regions, with the If's inputs in
// place of the functions' arguments.
// CHECK-LABEL: func.func @if
// CHECK-SAME:    (%[[C:.+]]: tensor<i1>, %[[X:.+]]: tensor<2xf32>)
// CHECK:         %[[R:.+]] = "tf.IfRegion"(%[[C]]) <{is_stateless = false}> ({
// CHECK:           %[[N:.+]] = "tf.Neg"(%[[X]])
// CHECK:           "tf.Yield"(%[[N]])
// CHECK:         }, {
// CHECK:           "tf.Yield"(%[[X]])
// CHECK:         }) {device = "/CPU:0"} : (tensor<i1>) -> tensor<2xf32>
// CHECK:         return %[[R]]
// CHECK-NOT:     func.func private
func.func @if(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %r = "tf.If"(%c, %x) {then_branch = @neg, else_branch = @id, is_stateless = false, device = "/CPU:0"} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func private @neg(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @id(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}

// -----

// tf.While: the loop values become block arguments of both regions; nested
// control flow in the copied body is converted too.
// CHECK-LABEL: func.func @while
// CHECK:         "tf.WhileRegion"(%{{.+}}) <{is_stateless = true, parallel_iterations = 7 : i64}> ({
// CHECK:         ^bb0(%[[I:.+]]: tensor<i32>):
// CHECK:           %[[P:.+]] = "tf.Less"(%[[I]], %{{.+}})
// CHECK:           "tf.Yield"(%[[P]])
// CHECK:         }, {
// CHECK:         ^bb0(%[[J:.+]]: tensor<i32>):
// CHECK:           "tf.IfRegion"
// CHECK-NOT:       "tf.If"(
// CHECK:         "tf.Yield"
// CHECK-NOT:     func.func private
func.func @while(%x: tensor<i32>) -> tensor<i32> {
  %r = "tf.While"(%x) {cond = @lt10, body = @step, is_stateless = true, parallel_iterations = 7 : i64} : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}
func.func private @lt10(%i: tensor<i32>) -> tensor<i1> {
  %ten = "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %p = "tf.Less"(%i, %ten) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %p : tensor<i1>
}
func.func private @step(%i: tensor<i32>) -> tensor<i32> {
  %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %r = "tf.If"(%t, %i) {then_branch = @inc, else_branch = @inc, is_stateless = true} : (tensor<i1>, tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}
func.func private @inc(%i: tensor<i32>) -> tensor<i32> {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j : tensor<i32>
}

// -----

// tf.Case keeps its branches in order.
// CHECK-LABEL: func.func @case
// CHECK:         "tf.CaseRegion"(%{{.+}}) <{is_stateless = false}> ({
// CHECK:           "tf.Neg"
// CHECK:         }, {
// CHECK:           "tf.Abs"
// CHECK:         })
func.func @case(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r = "tf.Case"(%i, %x) {branches = [@b0, @b1], is_stateless = false} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @b0(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @b1(%a: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Abs"(%a) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A loop that carries a variable's handle (TensorFlow 2's while_v2 passes
// the variables its body reads, as Keras' RNN layers do) types the result
// as a plain `!tf_type.resource`: it is the same handle, so the loop is
// valid with the handle's subtype.
// CHECK-LABEL: func.func @while_resource
// CHECK:         "tf.WhileRegion"(%{{.+}}, %{{.+}})
// CHECK:         ^bb0(%{{.+}}: tensor<i32>, %[[H:.+]]: tensor<!tf_type.resource<tensor<2xf32>>>):
// CHECK:           "tf.ReadVariableOp"(%[[H]])
// CHECK:         }) : (tensor<i32>, tensor<!tf_type.resource<tensor<2xf32>>>) -> (tensor<i32>, tensor<!tf_type.resource>)
func.func @while_resource(%n: tensor<i32>) -> tensor<i32> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %r:2 = "tf.While"(%n, %h) {cond = @positive, body = @read, is_stateless = false} : (tensor<i32>, tensor<!tf_type.resource<tensor<2xf32>>>) -> (tensor<i32>, tensor<!tf_type.resource>)
  return %r#0 : tensor<i32>
}
func.func private @positive(%i: tensor<i32>, %h: tensor<!tf_type.resource>) -> tensor<i1> {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %p = "tf.Greater"(%i, %zero) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %p : tensor<i1>
}
func.func private @read(%i: tensor<i32>, %h: tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>) {
  %v = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource>) -> tensor<2xf32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.Sub"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %h : tensor<i32>, tensor<!tf_type.resource>
}
