// RUN: kiln-opt %s -split-input-file --tf-executor-prune-dead-nodes | FileCheck %s

// What the fetch needs stays (including through a control edge); dead pure
// nodes go; a stateful node stays with its inputs.
// CHECK-LABEL: func.func @prune
// CHECK:         "tf.Const"() <{value = dense<1.000000e+00>
// CHECK:         "tf.Neg"
// CHECK-NOT:     "tf.Abs"
// CHECK:         "tf.Const"() <{value = dense<2.000000e+00>
// CHECK:         "tf.AssignVariableOp"
// CHECK-NOT:     "tf.Square"
// CHECK:         tf_executor.fetch
func.func @prune(%v: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> {
  %g = tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %n, %nc = tf_executor.island(%ac) wraps "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32>
    %dead, %dc = tf_executor.island wraps "tf.Abs"(%a) : (tensor<f32>) -> tensor<f32>
    %two, %tc = tf_executor.island wraps "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
    %w = tf_executor.island wraps "tf.AssignVariableOp"(%v, %two) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    %sq, %sqc = tf_executor.island wraps "tf.Square"(%dead) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %n : tensor<f32>
  }
  return %g : tensor<f32>
}

// -----

// A loop nobody reads, with no side effects, goes entirely.
// CHECK-LABEL: func.func @dead_loop
// CHECK:         tf_executor.graph {
// CHECK-NEXT:      tf_executor.fetch
func.func @dead_loop(%x: tensor<i32>) {
  tf_executor.graph {
    %src, %token, %sc = tf_executor.NextIteration.Source : tensor<*xi32>
    %e, %ec = tf_executor.Enter %x frame "f" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    %m, %mi, %mc = tf_executor.Merge %e, %src : tensor<*xi32>
    tf_executor.NextIteration.Sink [%token] %m : tensor<*xi32>
    tf_executor.fetch
  }
  return
}
