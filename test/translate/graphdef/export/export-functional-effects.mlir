// RUN: kiln-translate --export-graphdef %s | FileCheck %s

// In a functional body, operations with side effects keep their order
// through control edges (each waits for the previous one), pure ones get
// none, and a library function fetches its last such operation as a
// control output, so TensorFlow runs it.

// CHECK-LABEL:  name: "v"
// CHECK-NEXT:   op: "VarHandleOp"
// CHECK-NOT:    input:
// CHECK-LABEL:  name: "assign"
// CHECK-NEXT:   op: "AssignVariableOp"
// CHECK-NEXT:   input: "v"
// CHECK-NEXT:   input: "x"
// CHECK-NEXT:   input: "^v"
// CHECK-LABEL:  name: "neg"
// CHECK-NEXT:   op: "Neg"
// CHECK-NEXT:   input: "x"
// CHECK-NEXT:   attr
// CHECK-LABEL:  name: "read"
// CHECK-NEXT:   op: "ReadVariableOp"
// CHECK-NEXT:   input: "v"
// CHECK-NEXT:   input: "^assign"
// CHECK-LABEL:  name: "call"
// CHECK-NEXT:   op: "store"

// CHECK-LABEL:  signature {
// CHECK-NEXT:     name: "store"
// CHECK:          control_output: "store/assign"
// CHECK:        name: "store/assign"
// CHECK-NEXT:   op: "AssignVariableOp"
// CHECK-NEXT:   input: "arg0"
// CHECK-NEXT:   input: "arg1"
// CHECK:        control_ret {
// CHECK-NEXT:     key: "store/assign"
// CHECK-NEXT:     value: "store/assign"

module {
  func.func @main(%x: tensor<f32>) -> tensor<f32> attributes {tf.entry_function = {inputs = "x", outputs = "read"}} {
    %h = "tf.VarHandleOp"() <{container = "", shared_name = "v"}> : () -> tensor<!tf_type.resource<tensor<f32>>> loc("v")
    "tf.AssignVariableOp"(%h, %x) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> () loc("assign")
    %n = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32> loc("neg")
    %r = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> loc("read")
    "tf.LegacyCall"(%h, %n) {f = @store} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> () loc("call")
    return %r : tensor<f32>
  }
  func.func private @store(%h: tensor<!tf_type.resource<tensor<f32>>>, %v: tensor<f32>) {
    "tf.AssignVariableOp"(%h, %v) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> () loc("store/assign")
    return
  }
}
