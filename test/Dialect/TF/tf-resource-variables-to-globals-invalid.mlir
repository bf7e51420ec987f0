// RUN: kiln-opt %s -split-input-file --tf-resource-variables-to-globals -verify-diagnostics

// A handle that flows through tf.Identity: the Identity is reported, and so is
// the read whose variable cannot be determined.
func.func @through_identity() -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  // expected-error @+1 {{'tf.Identity' op uses the handle of variable 'v' as operand #0; only tf.ReadVariableOp and tf.AssignVariableOp can be converted}}
  %i = "tf.Identity"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<!tf_type.resource<tensor<2xf32>>>
  // expected-error @+1 {{'tf.ReadVariableOp' op accesses a resource whose variable cannot be determined: its handle does not come straight from a tf.VarHandleOp}}
  %r = "tf.ReadVariableOp"(%i) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// A handle passed in as a function argument.
func.func @argument(%h: tensor<!tf_type.resource<tensor<2xf32>>>, %x: tensor<2xf32>) {
  // expected-error @+1 {{'tf.AssignVariableOp' op accesses a resource whose variable cannot be determined}}
  "tf.AssignVariableOp"(%h, %x) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  return
}

// -----

// A value whose type conflicts with the resource subtype.
func.func @conflicting_value(%x: tensor<3xf32>) {
  %h = "tf.VarHandleOp"() {shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  // expected-error @+1 {{'tf.AssignVariableOp' op assigns 'tensor<3xf32>' to variable 'v' of type 'tensor<2xf32>'}}
  "tf.AssignVariableOp"(%h, %x) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<3xf32>) -> ()
  return
}

// -----

// Two handles of one variable with different subtypes.
func.func @conflicting_handles() -> tensor<2xf32> {
  %a = "tf.VarHandleOp"() {shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  // expected-error @+1 {{'tf.VarHandleOp' op declares variable 'v' as 'tensor<2xi32>' but another handle declares it as 'tensor<2xf32>'}}
  %b = "tf.VarHandleOp"() {shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<2xi32>>>
  %r = "tf.ReadVariableOp"(%a) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Values of conflicting types and no subtype.
func.func @conflicting_accesses(%x: tensor<2xf32>) -> tensor<2xi32> {
  %h = "tf.VarHandleOp"() {shared_name = "v"} : () -> tensor<!tf_type.resource>
  "tf.AssignVariableOp"(%h, %x) : (tensor<!tf_type.resource>, tensor<2xf32>) -> ()
  // expected-error @+1 {{'tf.ReadVariableOp' op reads 'tensor<2xi32>' from variable 'v' of type 'tensor<2xf32>'}}
  %r = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource>) -> tensor<2xi32>
  return %r : tensor<2xi32>
}

// -----

// TF1 reference variables are not converted.
func.func @ref_variable(%x: tensor<2xf32>) {
  // expected-error @+1 {{'tf.VariableV2' op is a TF1 reference variable ('old'), which is not converted; use resource variables}}
  %v = "tf.VariableV2"() {shape = #tf_type.shape<2>, container = "", shared_name = "old"} : () -> tensor<2x!tf_type.f32ref>
  %a = "tf.AssignAdd"(%v, %x) : (tensor<2x!tf_type.f32ref>, tensor<2xf32>) -> tensor<2x!tf_type.f32ref>
  return
}
