// RUN: kiln-opt %s -split-input-file --tf-decompose-tensor-arrays | FileCheck %s

// A forward loop of three iterations (a counter below a constant) pushes its
// values on a stack whose max_size is -1 (what TF1 loop gradients make); a
// backward loop pops them. The stack becomes a buffer of three elements and
// a count, carried by both loops after their own values: a push selects
// element `count` and increments it, a pop decrements it and gathers that
// element.
// CHECK-LABEL: func.func @push_pop
// CHECK-SAME:    (%[[X:.+]]: tensor<2xf32>)
// CHECK-NOT:     tf.Stack
// CHECK:         %[[BUF:.+]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<3x2xf32>}>
// CHECK:         %[[CNT:.+]] = "tf.Const"() <{value = dense<0> : tensor<i32>}>
// CHECK:         %[[F:.+]]:4 = "tf.WhileRegion"(%{{.+}}, %[[X]], %[[BUF]], %[[CNT]])
// CHECK:         ^bb0(%{{.+}}: tensor<i32>, %{{.+}}: tensor<2xf32>, %{{.+}}: tensor<3x2xf32>, %{{.+}}: tensor<i32>):
// CHECK:         ^bb0(%[[I:.+]]: tensor<i32>, %[[V:.+]]: tensor<2xf32>, %[[B:.+]]: tensor<3x2xf32>, %[[C:.+]]: tensor<i32>):
// CHECK:           %[[ONE:.+]] = "tf.Const"() <{value = dense<1> : tensor<i32>}>
// CHECK:           %[[IOTA:.+]] = "tf.Const"() <{value = dense<{{\[\[}}0], [1], [2]]> : tensor<3x1xi32>}>
// CHECK:           %[[MASK:.+]] = "tf.Equal"(%[[IOTA]], %[[C]])
// CHECK:           %[[PUSHED:.+]] = "tf.SelectV2"(%[[MASK]], %[[V]], %[[B]]) : (tensor<3x1xi1>, tensor<2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK:           %[[C1:.+]] = "tf.AddV2"(%[[C]], %[[ONE]])
// CHECK:           "tf.Yield"(%{{.+}}, %{{.+}}, %[[PUSHED]], %[[C1]])
// CHECK:         %[[BW:.+]]:4 = "tf.WhileRegion"(%[[F]]#0, %[[F]]#1, %[[F]]#2, %[[F]]#3)
// CHECK:         ^bb0(%{{.+}}: tensor<i32>, %[[G:.+]]: tensor<2xf32>, %[[B2:.+]]: tensor<3x2xf32>, %[[C2:.+]]: tensor<i32>):
// CHECK:           %[[C3:.+]] = "tf.Sub"(%[[C2]], %{{.+}})
// CHECK:           %[[TOP:.+]] = "tf.GatherV2"(%[[B2]], %[[C3]], %{{.+}}) <{batch_dims = 0 : i64}> : (tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
// CHECK:           %[[G1:.+]] = "tf.Mul"(%[[G]], %[[TOP]])
// CHECK:           "tf.Yield"(%{{.+}}, %[[G1]], %[[B2]], %[[C3]])
// CHECK-NOT:     tf.Const
// CHECK:         return %[[BW]]#1
func.func @push_pop(%x: tensor<2xf32>) -> tensor<2xf32> {
  %minus = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%minus) {elem_type = f32, stack_name = "f_acc"} : (tensor<i32>) -> tensor<!tf_type.resource>
  %f:2 = "tf.WhileRegion"(%zero, %x) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%i: tensor<i32>, %v: tensor<2xf32>):
    %c = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %v: tensor<2xf32>):
    %p = "tf.StackPushV2"(%s, %v) {swap_memory = false} : (tensor<!tf_type.resource>, tensor<2xf32>) -> tensor<2xf32>
    %w = "tf.Tanh"(%v) : (tensor<2xf32>) -> tensor<2xf32>
    %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next, %w) : (tensor<i32>, tensor<2xf32>) -> ()
  }) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  %b:2 = "tf.WhileRegion"(%f#0, %f#1) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%k: tensor<i32>, %g: tensor<2xf32>):
    %c = "tf.Greater"(%k, %zero) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%k: tensor<i32>, %g: tensor<2xf32>):
    %v = "tf.StackPopV2"(%s) : (tensor<!tf_type.resource>) -> tensor<2xf32>
    %g1 = "tf.Mul"(%g, %v) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %k1 = "tf.Sub"(%k, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%k1, %g1) : (tensor<i32>, tensor<2xf32>) -> ()
  }) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  "tf.StackCloseV2"(%s) : (tensor<!tf_type.resource>) -> ()
  return %b#1 : tensor<2xf32>
}

// -----

// Nested loops: a push in the inner loop of 4 iterations inside an outer
// loop of 2 (the counter's start counts: 5 - 3), through an Identity of the
// handle, and a max_size given: the buffer of a stack with max_size 7 has 7
// elements whatever its loops.
// CHECK-LABEL: func.func @nested
// CHECK-DAG:     "tf.Const"() <{value = dense<0.000000e+00> : tensor<8xf32>}>
// CHECK-DAG:     "tf.Const"() <{value = dense<0.000000e+00> : tensor<7xf32>}>
// CHECK-NOT:     tf.Stack
func.func @nested(%x: tensor<f32>) -> (tensor<i32>, tensor<i32>) {
  %minus = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %seven = "tf.Const"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %five = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %four = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%minus) {elem_type = f32} : (tensor<i32>) -> tensor<!tf_type.resource>
  %t = "tf.StackV2"(%seven) {elem_type = f32} : (tensor<i32>) -> tensor<!tf_type.resource>
  %alias = "tf.Identity"(%s) : (tensor<!tf_type.resource>) -> tensor<!tf_type.resource>
  %r = "tf.WhileRegion"(%three) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%i: tensor<i32>):
    %c = "tf.Less"(%i, %five) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    %q = "tf.StackPushV2"(%t, %x) : (tensor<!tf_type.resource>, tensor<f32>) -> tensor<f32>
    %inner = "tf.WhileRegion"(%zero) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
    ^bb0(%j: tensor<i32>):
      %c = "tf.Less"(%j, %four) : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "tf.Yield"(%c) : (tensor<i1>) -> ()
    }, {
    ^bb0(%j: tensor<i32>):
      %p = "tf.StackPushV2"(%alias, %x) : (tensor<!tf_type.resource>, tensor<f32>) -> tensor<f32>
      %j1 = "tf.AddV2"(%one, %j) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "tf.Yield"(%j1) : (tensor<i32>) -> ()
    }) : (tensor<i32>) -> tensor<i32>
    %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %r, %r : tensor<i32>, tensor<i32>
}
