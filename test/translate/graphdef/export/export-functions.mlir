// RUN: kiln-translate --export-graphdef %s | FileCheck %s
// RUN: kiln-translate --export-graphdef -tf-export-entry-func-to-flib %s | FileCheck %s --check-prefix=FLIB

// Functional control flow: `is_stateless = true` picks the Stateless op
// type, symbol references become func attributes and the flattened
// `then_branch.T` attributes go back inside them; a tf.LegacyCall is a node
// whose op type is the callee.

// CHECK-LABEL:  name: "if"
// CHECK-NEXT:   op: "StatelessIf"
// CHECK-NEXT:   input: "pred"
// CHECK-NEXT:   input: "arg0"
// CHECK:          key: "else_branch"
// CHECK-NEXT:     value {
// CHECK-NEXT:       func {
// CHECK-NEXT:         name: "branch"
// CHECK-NEXT:       }
// CHECK:          key: "then_branch"
// CHECK-NEXT:     value {
// CHECK-NEXT:       func {
// CHECK-NEXT:         name: "branch"
// CHECK-NEXT:         attr {
// CHECK-NEXT:           key: "T"
// CHECK-NEXT:           value {
// CHECK-NEXT:             type: DT_FLOAT
// CHECK-NOT:      is_stateless
// CHECK-NOT:      then_branch.T
// CHECK-LABEL:  name: "while"
// CHECK-NEXT:   op: "While"
// CHECK-LABEL:  name: "call"
// CHECK-NEXT:   op: "branch"
// CHECK-NEXT:   input: "arg0"
// CHECK-NOT:      key: "f"
// CHECK:        experimental_debug_info

// Library functions, sorted by name: inputs named arg<i>, outputs
// output_<i>, inputs inside the body `node:output_arg:k` as FunctionDef
// wants them, control outputs, tf.* attributes without the prefix, argument
// attributes, and tf.gradient as a GradientDef.
// CHECK-LABEL: library {
// CHECK-NEXT:    function {
// CHECK-NEXT:      signature {
// CHECK-NEXT:        name: "body"
// CHECK-NEXT:        input_arg {
// CHECK-NEXT:          name: "arg0"
// CHECK-NEXT:          type: DT_INT32
// CHECK-NEXT:        }
// CHECK-NEXT:        output_arg {
// CHECK-NEXT:          name: "output_0"
// CHECK-NEXT:          type: DT_INT32
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK:           ret {
// CHECK-NEXT:        key: "output_0"
// CHECK-NEXT:        value: "arg0"
// CHECK-NEXT:      }
// CHECK:         function {
// CHECK-NEXT:      signature {
// CHECK-NEXT:        name: "branch"
// CHECK-NEXT:        input_arg {
// CHECK-NEXT:          name: "arg0"
// CHECK-NEXT:          type: DT_FLOAT
// CHECK-NEXT:        }
// CHECK-NEXT:        output_arg {
// CHECK-NEXT:          name: "output_0"
// CHECK-NEXT:          type: DT_INT32
// CHECK-NEXT:        }
// CHECK-NEXT:        output_arg {
// CHECK-NEXT:          name: "output_1"
// CHECK-NEXT:          type: DT_FLOAT
// CHECK-NEXT:          is_ref: true
// CHECK-NEXT:        }
// CHECK-NEXT:        control_output: "side_effect"
// CHECK-NEXT:      }
// CHECK:           node_def {
// CHECK-NEXT:        name: "k"
// CHECK:           node_def {
// CHECK-NEXT:        name: "topk"
// CHECK-NEXT:        op: "TopKV2"
// CHECK-NEXT:        input: "arg0"
// CHECK-NEXT:        input: "k:output:0"
// CHECK:           node_def {
// CHECK-NEXT:        name: "side_effect"
// CHECK-NEXT:        op: "NoOp"
// CHECK-NEXT:        input: "^topk"
// CHECK:           node_def {
// CHECK-NEXT:        name: "var"
// CHECK:           ret {
// CHECK-NEXT:        key: "output_0"
// CHECK-NEXT:        value: "topk:indices:0"
// CHECK-NEXT:      }
// CHECK-NEXT:      ret {
// CHECK-NEXT:        key: "output_1"
// CHECK-NEXT:        value: "var:ref:0"
// CHECK-NEXT:      }
// CHECK-NEXT:      attr {
// CHECK-NEXT:        key: "_noinline"
// CHECK-NEXT:        value {
// CHECK-NEXT:          b: true
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      control_ret {
// CHECK-NEXT:        key: "side_effect"
// CHECK-NEXT:        value: "side_effect"
// CHECK-NEXT:      }
// CHECK-NEXT:      arg_attr {
// CHECK-NEXT:        key: 0
// CHECK-NEXT:        value {
// CHECK-NEXT:          attr {
// CHECK-NEXT:            key: "_user_specified_name"
// CHECK-NEXT:            value {
// CHECK-NEXT:              s: "x"
// CHECK:           function {
// CHECK-NEXT:      signature {
// CHECK-NEXT:        name: "cond"
// CHECK:         gradient {
// CHECK-NEXT:      function_name: "branch"
// CHECK-NEXT:      gradient_func: "body"
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// With -tf-export-entry-func-to-flib, @main is a library function too and
// the graph has no nodes.
// FLIB-NOT:    node {
// FLIB:        library {
// FLIB:            name: "main"
// FLIB-NEXT:       input_arg {
// FLIB-NEXT:         name: "arg0"
// FLIB:            name: "if"
// FLIB-NEXT:       op: "StatelessIf"
// FLIB-NEXT:       input: "pred:output:0"
// FLIB-NEXT:       input: "arg0"

func.func @main(%x: tensor<f32>) {
  tf_executor.graph {
    %pred, %pc = tf_executor.island wraps "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1> loc("pred")
    %if:2, %ic = tf_executor.island wraps "tf.If"(%pred, %x) {then_branch = @branch, else_branch = @branch, "then_branch.T" = f32, is_stateless = true} : (tensor<i1>, tensor<f32>) -> (tensor<*xi32>, tensor<!tf_type.f32ref>) loc("if")
    %while, %wc = tf_executor.island wraps "tf.While"(%if#0) {cond = @cond, body = @body, is_stateless = false} : (tensor<*xi32>) -> tensor<*xi32> loc("while")
    %call:2, %cc = tf_executor.island wraps "tf.LegacyCall"(%x) {f = @branch} : (tensor<f32>) -> (tensor<*xi32>, tensor<!tf_type.f32ref>) loc("call")
    tf_executor.fetch
  }
  func.return
}

func.func private @branch(%arg0: tensor<*xf32> {tf._user_specified_name = "x"}) -> (tensor<*xi32>, tensor<!tf_type.f32ref>) attributes {tf._noinline = true, tf.gradient = @body} {
  %g:2 = tf_executor.graph {
    %k, %kc = tf_executor.island wraps "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32> loc("k")
    %topk:2, %tc = tf_executor.island wraps "tf.TopKV2"(%arg0, %k) : (tensor<*xf32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xi32>) loc("topk")
    %side = tf_executor.island(%tc) wraps "tf.NoOp"() : () -> () loc("side_effect")
    %var, %vc = tf_executor.island wraps "tf.VariableV2"() {shape = #tf_type.shape<>, container = "", shared_name = ""} : () -> tensor<!tf_type.f32ref> loc("var")
    tf_executor.fetch %topk#1, %var, %side : tensor<*xi32>, tensor<!tf_type.f32ref>, !tf_executor.control
  }
  func.return %g#0, %g#1 : tensor<*xi32>, tensor<!tf_type.f32ref>
}

func.func private @body(%arg0: tensor<*xi32>) -> tensor<*xi32> {
  %g = tf_executor.graph {
    tf_executor.fetch %arg0 : tensor<*xi32>
  }
  func.return %g : tensor<*xi32>
}

func.func private @cond(%arg0: tensor<*xi32>) -> tensor<i1> {
  %g = tf_executor.graph {
    %c, %cc = tf_executor.island wraps "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1> loc("c")
    tf_executor.fetch %c : tensor<i1>
  }
  func.return %g : tensor<i1>
}
