// RUN: kiln-opt %s -split-input-file --tf-executor-raise-loops | FileCheck %s

// A loop frame becomes one island holding a tf.WhileRegion: the Enter's
// input is the initial value, `cond` computes the LoopCond's input from the
// merged value, `body` the NextIteration's input from the Switch's true
// output; a `constant` Enter is read from outside; the Exit's users read
// the island's result.
// CHECK-LABEL: func.func @count_to
// CHECK-SAME:    (%[[N:.+]]: tensor<i32>)
// CHECK:         tf_executor.graph {
// CHECK:           %[[ZERO:[^,]+]], %{{.+}} = tf_executor.island wraps "tf.Const"
// CHECK:           %[[LOOP:[^,]+]], %{{.+}} = tf_executor.island wraps "tf.WhileRegion"(%[[ZERO]]) <{is_stateless = false, parallel_iterations = 16 : i64}> ({
// CHECK:           ^bb0(%[[C:.+]]: tensor<*xi32>):
// CHECK:             %[[P:.+]] = "tf.Less"(%[[C]], %[[N]])
// CHECK:             "tf.Yield"(%[[P]])
// CHECK:           }, {
// CHECK:           ^bb0(%[[B:.+]]: tensor<*xi32>):
// CHECK:             %[[NEXT:.+]] = "tf.AddV2"(%[[B]], %[[B]])
// CHECK:             "tf.Yield"(%[[NEXT]])
// CHECK:           })
// CHECK:           tf_executor.fetch %[[LOOP]]
// CHECK-NOT:       tf_executor.Merge
func.func @count_to(%n: tensor<i32>) -> tensor<*xi32> {
  %g = tf_executor.graph {
    %src, %token, %sc = tf_executor.NextIteration.Source : tensor<*xi32>
    %zero, %zc = tf_executor.island wraps "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %e, %ec = tf_executor.Enter %zero frame "f" parallel_iterations 16 : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    %en, %enc = tf_executor.Enter %n frame "f" parallel_iterations 16 constant : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    %m, %mi, %mc = tf_executor.Merge %e, %src : tensor<*xi32>
    %p, %pc = tf_executor.island wraps "tf.Less"(%m, %en) : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi1>
    %lc, %lcc = tf_executor.LoopCond %p : tensor<*xi1>
    %f, %t, %swc = tf_executor.Switch %m, %lc : (tensor<*xi32>, tensor<*xi1>) -> (tensor<*xi32>, tensor<*xi32>, !tf_executor.control)
    %x, %xc = tf_executor.Exit %f : tensor<*xi32>
    %next, %nc = tf_executor.island wraps "tf.AddV2"(%t, %t) : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi32>
    tf_executor.NextIteration.Sink [%token] %next : tensor<*xi32>
    tf_executor.fetch %x : tensor<*xi32>
  }
  return %g : tensor<*xi32>
}

// -----

// As TF1 gradients build a forward loop: a stack push runs for its effect
// only, reached by a control edge into a NextIteration (besides a
// ControlTrigger the body does not need); and a second loop value starts
// from %late, which the graph defines after the LoopCond (TF1 makes the
// backward loop's counter before the gradients it enters). The push is
// copied into the body, and the raised island moves after %late.
// CHECK-LABEL: func.func @effects_and_late_values
// CHECK:           %[[LATE:[^,]+]], %{{.+}} = tf_executor.island wraps "tf.Const"() <{value = dense<5>
// CHECK:           tf_executor.island wraps "tf.WhileRegion"(%{{.+}}, %[[LATE]])
// CHECK:           }, {
// CHECK:           ^bb0(%[[B:.+]]: tensor<*xi32>, %{{.+}}: tensor<*xi32>):
// CHECK:             "tf.StackPushV2"(%{{.+}}, %[[B]])
// CHECK:             "tf.AddV2"(%[[B]],
func.func @effects_and_late_values(%s: tensor<!tf_type.resource>) -> tensor<*xi32> {
  %g = tf_executor.graph {
    %src, %token, %sc = tf_executor.NextIteration.Source : tensor<*xi32>
    %src2, %token2, %sc2 = tf_executor.NextIteration.Source : tensor<*xi32>
    %zero, %zc = tf_executor.island wraps "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %three, %threec = tf_executor.island wraps "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %e, %ec = tf_executor.Enter %zero frame "f" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    %es, %esc = tf_executor.Enter %s frame "f" constant : (tensor<!tf_type.resource>) -> (tensor<!tf_type.resource>, !tf_executor.control)
    %en, %enc = tf_executor.Enter %three frame "f" constant : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    %m, %mi, %mc = tf_executor.Merge %e, %src : tensor<*xi32>
    %p, %pc = tf_executor.island wraps "tf.Less"(%m, %en) : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi1>
    %lc, %lcc = tf_executor.LoopCond %p : tensor<*xi1>
    %f, %t, %swc = tf_executor.Switch %m, %lc : (tensor<*xi32>, tensor<*xi1>) -> (tensor<*xi32>, tensor<*xi32>, !tf_executor.control)
    %x, %xc = tf_executor.Exit %f : tensor<*xi32>
    %trigger = tf_executor.ControlTrigger %swc
    %pushed, %pushc = tf_executor.island wraps "tf.StackPushV2"(%es, %t) : (tensor<!tf_type.resource>, tensor<*xi32>) -> tensor<*xi32>
    %one, %onec = tf_executor.island wraps "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %next, %nc = tf_executor.island wraps "tf.AddV2"(%t, %one) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
    tf_executor.NextIteration.Sink [%token] %next, %pushc, %trigger : tensor<*xi32>
    %late, %latec = tf_executor.island wraps "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
    %e2, %e2c = tf_executor.Enter %late frame "f" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    %m2, %m2i, %m2c = tf_executor.Merge %e2, %src2 : tensor<*xi32>
    %f2, %t2, %sw2c = tf_executor.Switch %m2, %lc : (tensor<*xi32>, tensor<*xi1>) -> (tensor<*xi32>, tensor<*xi32>, !tf_executor.control)
    %x2, %x2c = tf_executor.Exit %f2 : tensor<*xi32>
    tf_executor.NextIteration.Sink [%token2] %t2 : tensor<*xi32>
    %sum, %sumc = tf_executor.island wraps "tf.AddV2"(%x, %x2) : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi32>
    tf_executor.fetch %sum : tensor<*xi32>
  }
  return %g : tensor<*xi32>
}
