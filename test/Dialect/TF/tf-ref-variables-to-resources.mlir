// RUN: kiln-opt %s -split-input-file --tf-ref-variables-to-resources | FileCheck %s

// A TF1 training step on a reference variable: its reads (w/read) become
// ReadVariableOps where they happen, the update its resource op, and the
// update's result (the reference again) a read after the update.
// CHECK-LABEL: func.func @sgd
// CHECK-SAME:    (%[[ALPHA:.+]]: tensor<f32>, %[[D:.+]]: tensor<3xf32>)
// CHECK:         %[[H:.+]] = "tf.VarHandleOp"() <{shared_name = "dense/w"}> : () -> tensor<!tf_type.resource<tensor<3xf32>>>
// CHECK:         %[[R:.+]] = "tf.ReadVariableOp"(%[[H]]) : (tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<3xf32>
// CHECK:         %[[READ:.+]] = "tf.Identity"(%[[R]])
// CHECK:         "tf.ResourceApplyGradientDescent"(%[[H]], %[[ALPHA]], %[[D]])
// CHECK:         %[[AFTER:.+]] = "tf.ReadVariableOp"(%[[H]])
// CHECK:         %[[NEG:.+]] = "tf.Identity"(%[[AFTER]])
// CHECK:         return %[[READ]], %[[NEG]]
// CHECK-NOT:     tf.VariableV2
func.func @sgd(%alpha: tensor<f32>, %d: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %w = "tf.VariableV2"() {shape = #tf_type.shape<3>} : () -> tensor<3x!tf_type.f32ref> loc("dense/w")
  %read = "tf.Identity"(%w) : (tensor<3x!tf_type.f32ref>) -> tensor<3xf32>
  %out = "tf.ApplyGradientDescent"(%w, %alpha, %d) : (tensor<3x!tf_type.f32ref>, tensor<f32>, tensor<3xf32>) -> tensor<3x!tf_type.f32ref>
  %neg = "tf.Identity"(%out) : (tensor<3x!tf_type.f32ref>) -> tensor<3xf32>
  return %read, %neg : tensor<3xf32>, tensor<3xf32>
}

// -----

// Assign, AssignAdd and AssignSub, chained through their results; a given
// shared_name is kept.
// CHECK-LABEL: func.func @assignments
// CHECK:         %[[H:.+]] = "tf.VarHandleOp"() <{shared_name = "shared"}>
// CHECK:         "tf.AssignVariableOp"(%[[H]], %[[X:.+]])
// CHECK:         "tf.AssignAddVariableOp"(%[[H]], %[[X]])
// CHECK:         "tf.AssignSubVariableOp"(%[[H]], %[[X]])
// CHECK-NOT:     "tf.Assign"(
func.func @assignments(%x: tensor<2xf32>) {
  %v = "tf.VariableV2"() {shape = #tf_type.shape<2>, shared_name = "shared"} : () -> tensor<2x!tf_type.f32ref> loc("v")
  %a = "tf.Assign"(%v, %x) : (tensor<2x!tf_type.f32ref>, tensor<2xf32>) -> tensor<2x!tf_type.f32ref>
  %b = "tf.AssignAdd"(%a, %x) : (tensor<2x!tf_type.f32ref>, tensor<2xf32>) -> tensor<2x!tf_type.f32ref>
  %c = "tf.AssignSub"(%b, %x) : (tensor<2x!tf_type.f32ref>, tensor<2xf32>) -> tensor<2x!tf_type.f32ref>
  return
}

// -----

// ApplyAdam takes three variables; it becomes ResourceApplyAdam once all
// three are resources.
// CHECK-LABEL: func.func @adam
// CHECK-DAG:     %[[W:.+]] = "tf.VarHandleOp"() <{shared_name = "w"}>
// CHECK-DAG:     %[[M:.+]] = "tf.VarHandleOp"() <{shared_name = "w/Adam"}>
// CHECK-DAG:     %[[V:.+]] = "tf.VarHandleOp"() <{shared_name = "w/Adam_1"}>
// CHECK:         "tf.ResourceApplyAdam"(%[[W]], %[[M]], %[[V]], {{.+}}) <{use_nesterov = true}>
// CHECK-NOT:     "tf.ApplyAdam"
func.func @adam(%s: tensor<f32>, %g: tensor<3xf32>) {
  %w = "tf.VariableV2"() {shape = #tf_type.shape<3>} : () -> tensor<3x!tf_type.f32ref> loc("w")
  %m = "tf.VariableV2"() {shape = #tf_type.shape<3>} : () -> tensor<3x!tf_type.f32ref> loc("w/Adam")
  %v = "tf.VariableV2"() {shape = #tf_type.shape<3>} : () -> tensor<3x!tf_type.f32ref> loc("w/Adam_1")
  %0 = "tf.ApplyAdam"(%w, %m, %v, %s, %s, %s, %s, %s, %s, %g) {use_nesterov = true} : (tensor<3x!tf_type.f32ref>, tensor<3x!tf_type.f32ref>, tensor<3x!tf_type.f32ref>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<3xf32>) -> tensor<3x!tf_type.f32ref>
  return
}
