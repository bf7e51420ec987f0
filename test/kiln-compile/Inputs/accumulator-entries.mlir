// A stateful model with two entries sharing the variable `total` (the
// shape of a stateful RNN's init and step): @reset assigns it [10, 20],
// @step adds the fed sample to it and returns the sum, scaled by `weight`,
// a variable neither entry assigns. Both read the checkpoint's restore of
// `total` ([1, 2]) as a SavedModel import has it.
func.func @reset() -> tensor<i32>
    attributes {tf.entry_function = {inputs = "", outputs = "done"}} {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "total"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %restore = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %restore) {_kiln_restore = true} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %start = "tf.Const"() {value = dense<[10.0, 20.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %start) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %done = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  return %done : tensor<i32>
}
func.func @step(%x: tensor<2xf32>) -> tensor<2xf32>
    attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "total"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %restore = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %restore) {_kiln_restore = true} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %w = "tf.VarHandleOp"() {container = "", shared_name = "weight"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %wv = "tf.Const"() {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%w, %wv) {_kiln_restore = true} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %old = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %new = "tf.AddV2"(%old, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %new) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %weight = "tf.ReadVariableOp"(%w) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %y = "tf.Mul"(%new, %weight) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
