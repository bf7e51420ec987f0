// RUN: kiln-translate --export-graphdef -tf-graph-as-function %s | FileCheck %s
// RUN: kiln-translate --export-graphdef -tf-graph-as-function %s | \
// RUN:   kiln-translate --import-graphdef -tf-graph-as-function | \
// RUN:   FileCheck %s --check-prefix=IMPORT

// Functional tf, as kiln-tf-graph-pipeline leaves it, exports: each region
// op becomes tf.If / Case / While calling new private functions named after
// its node (values the regions use from above become extra arguments; a
// loop carries them through and its T lists them), and each plain body a
// graph of one node per operation.

// CHECK-LABEL:  name: "loop_1"
// CHECK-NEXT:   op: "StatelessWhile"
// CHECK-NEXT:   input: "zero"
// CHECK-NEXT:   input: "x"
// CHECK-NEXT:   input: "n"
// CHECK-NEXT:   input: "one"
// CHECK-NEXT:   input: "scale"
// CHECK-NEXT:   attr {
// CHECK-NEXT:     key: "T"
// CHECK-NEXT:     value {
// CHECK-NEXT:       list {
// CHECK-NEXT:         type: DT_INT32
// CHECK-NEXT:         type: DT_FLOAT
// CHECK-NEXT:         type: DT_INT32
// CHECK-NEXT:         type: DT_INT32
// CHECK-NEXT:         type: DT_FLOAT
// CHECK-NEXT:       }
// CHECK:          key: "body"
// CHECK-NEXT:     value {
// CHECK-NEXT:       func {
// CHECK-NEXT:         name: "loop_body"
// CHECK:          key: "cond"
// CHECK-NEXT:     value {
// CHECK-NEXT:       func {
// CHECK-NEXT:         name: "loop_cond"
// CHECK:          key: "parallel_iterations"
// CHECK-LABEL:  name: "cond_1"
// CHECK-NEXT:   op: "If"
// CHECK-NEXT:   input: "p"
// CHECK-NEXT:   input: "x"
// CHECK-NEXT:   input: "scale"
// CHECK-NOT:    input:
// CHECK:          name: "cond_else"
// CHECK:          name: "cond_then"
// CHECK-LABEL:  name: "case_1"
// CHECK-NEXT:   op: "StatelessCase"
// CHECK-NEXT:   input: "k"
// CHECK-NEXT:   input: "x"
// CHECK-NOT:    input:
// CHECK:          name: "case_branch0"
// CHECK:          name: "case_branch1"
// CHECK-LABEL:  name: "loop"
// CHECK-NEXT:   op: "_Retval"
// CHECK-NEXT:   input: "loop_1:1"

// The loop body returns the captures unchanged after the next values.
// CHECK-LABEL:  name: "loop_body"
// CHECK:        name: "loop/next"
// CHECK-NEXT:   op: "AddV2"
// CHECK-NEXT:   input: "arg0"
// CHECK-NEXT:   input: "arg3"
// CHECK:        name: "loop/mul"
// CHECK-NEXT:   op: "Mul"
// CHECK-NEXT:   input: "arg1"
// CHECK-NEXT:   input: "arg4"
// CHECK:        ret {
// CHECK-NEXT:     key: "output_0"
// CHECK-NEXT:     value: "loop/next:z:0"
// CHECK:        ret {
// CHECK-NEXT:     key: "output_1"
// CHECK-NEXT:     value: "loop/mul:z:0"
// CHECK:        ret {
// CHECK-NEXT:     key: "output_2"
// CHECK-NEXT:     value: "arg2"
// CHECK-LABEL:  name: "loop_cond"
// CHECK:        name: "loop/less"
// CHECK-NEXT:   op: "Less"
// CHECK-NEXT:   input: "arg0"
// CHECK-NEXT:   input: "arg2"

// And it imports again as functional control flow calling the functions.
// IMPORT-DAG: "tf.While"(%{{.*}}, %arg0, %arg1, %{{.*}}, %{{.*}}) <{body = @loop_body, cond = @loop_cond, is_stateless = true, parallel_iterations = 10 : i64}> {T = [i32, f32, i32, i32, f32]
// IMPORT-DAG: "tf.If"(%arg2, %arg0, %{{.*}}) <{else_branch = @cond_else, is_stateless = false, then_branch = @cond_then}>
// IMPORT-DAG: "tf.Case"(%arg3, %arg0) <{branches = [@case_branch0, @case_branch1], is_stateless = true}>
// IMPORT-DAG: func.func private @loop_body({{.*}}) -> (tensor<i32>, tensor<3xf32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>)

module {
  func.func @main(%x: tensor<3xf32>, %n: tensor<i32>, %p: tensor<i1>, %k: tensor<i32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) attributes {tf.entry_function = {inputs = "x,n,p,k", outputs = "loop,cond,case"}} {
    %c = "tf.Const"() <{value = dense<1.5> : tensor<f32>}> : () -> tensor<f32> loc("scale")
    %one = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32> loc("one")
    %zero = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32> loc("zero")
    %w:2 = "tf.WhileRegion"(%zero, %x) ({
    ^bb0(%i: tensor<i32>, %v: tensor<3xf32>):
      %lt = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1> loc("loop/less")
      "tf.Yield"(%lt) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>, %v: tensor<3xf32>):
      %i1 = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32> loc("loop/next")
      %v1 = "tf.Mul"(%v, %c) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32> loc("loop/mul")
      "tf.Yield"(%i1, %v1) : (tensor<i32>, tensor<3xf32>) -> ()
    }) {is_stateless = true, parallel_iterations = 10 : i64, T = [i32, f32]} : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>) loc("loop")
    %r = "tf.IfRegion"(%p) ({
      %a = "tf.Mul"(%x, %c) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32> loc("cond/then/mul")
      "tf.Yield"(%a) : (tensor<3xf32>) -> ()
    }, {
      %b = "tf.Neg"(%x) : (tensor<3xf32>) -> tensor<3xf32> loc("cond/else/neg")
      "tf.Yield"(%b) : (tensor<3xf32>) -> ()
    }) {is_stateless = false} : (tensor<i1>) -> tensor<3xf32> loc("cond")
    %s = "tf.CaseRegion"(%k) ({
      "tf.Yield"(%x) : (tensor<3xf32>) -> ()
    }, {
      %e = "tf.Exp"(%x) : (tensor<3xf32>) -> tensor<3xf32> loc("case/exp")
      "tf.Yield"(%e) : (tensor<3xf32>) -> ()
    }) {is_stateless = true} : (tensor<i32>) -> tensor<3xf32> loc("case")
    return %w#1, %r, %s : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
  }
}
