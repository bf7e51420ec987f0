// RUN: kiln-translate --export-graphdef %s | FileCheck %s

// TF1 control flow: a NextIteration.Source/Sink pair is one NextIteration
// node (in the Source's place, fed by the Sink's operand), Switch's outputs
// are numbered false (0) then true (1), and T and N, which Kiln reads off
// the types, are written for TensorFlow.

// CHECK-LABEL:  name: "while/NextIteration"
// CHECK-NEXT:   op: "NextIteration"
// CHECK-NEXT:   input: "while/add"
// CHECK-NEXT:   input: "^init"
// CHECK-NEXT:   attr {
// CHECK-NEXT:     key: "T"
// CHECK-NEXT:     value {
// CHECK-NEXT:       type: DT_INT32
// CHECK-LABEL:  name: "zero"
// CHECK-LABEL:  name: "while/Enter"
// CHECK-NEXT:   op: "Enter"
// CHECK-NEXT:   input: "zero"
// CHECK:          key: "frame_name"
// CHECK-NEXT:     value {
// CHECK-NEXT:       s: "while/"
// CHECK:          key: "is_constant"
// CHECK-NEXT:     value {
// CHECK-NEXT:       b: true
// CHECK:          key: "parallel_iterations"
// CHECK-NEXT:     value {
// CHECK-NEXT:       i: 32
// CHECK-LABEL:  name: "while/Merge"
// CHECK-NEXT:   op: "Merge"
// CHECK-NEXT:   input: "while/Enter"
// CHECK-NEXT:   input: "while/NextIteration"
// CHECK-NEXT:   attr {
// CHECK-NEXT:     key: "N"
// CHECK-NEXT:     value {
// CHECK-NEXT:       i: 2
// CHECK:          key: "T"
// CHECK-NEXT:     value {
// CHECK-NEXT:       type: DT_INT32
// CHECK-LABEL:  name: "while/Less"
// CHECK-NEXT:   op: "Less"
// CHECK-NEXT:   input: "while/Merge"
// CHECK-NEXT:   input: "while/Merge:1"
// CHECK-LABEL:  name: "while/LoopCond"
// CHECK-NEXT:   op: "LoopCond"
// CHECK-NEXT:   input: "while/Less"
// CHECK-LABEL:  name: "while/Switch"
// CHECK-NEXT:   op: "Switch"
// CHECK-NEXT:   input: "while/Merge"
// CHECK-NEXT:   input: "while/LoopCond"
// CHECK-LABEL:  name: "while/Exit"
// CHECK-NEXT:   op: "Exit"
// CHECK-NEXT:   input: "while/Switch"
// CHECK-LABEL:  name: "while/add"
// CHECK-NEXT:   op: "AddV2"
// CHECK-NEXT:   input: "while/Switch:1"
// CHECK-NEXT:   input: "while/Switch:1"
// CHECK-LABEL:  name: "switch_n"
// CHECK-NEXT:   op: "_SwitchN"
// CHECK-NEXT:   input: "zero"
// CHECK-NEXT:   input: "zero"
// CHECK-NEXT:   input: "^while/Exit"
// CHECK:          key: "num_outs"
// CHECK-NEXT:     value {
// CHECK-NEXT:       i: 3
// CHECK-LABEL:  name: "trigger"
// CHECK-NEXT:   op: "ControlTrigger"
// CHECK-NEXT:   input: "^switch_n"
// CHECK-NEXT:   input: "^init"
// CHECK-LABEL:  name: "after"
// CHECK-NEXT:   op: "Identity"
// CHECK-NEXT:   input: "switch_n:2"
// CHECK-NEXT:   input: "^trigger"
// CHECK-LABEL:  name: "ref_switch"
// CHECK-NEXT:   op: "RefSwitch"
// CHECK-NEXT:   input: "var"
// CHECK-NEXT:   input: "pred"
// CHECK-NEXT:   attr {
// CHECK-NEXT:     key: "T"
// CHECK-NEXT:     value {
// CHECK-NEXT:       type: DT_FLOAT{{$}}

func.func @main() {
  tf_executor.graph {
    %next, %token, %nc = tf_executor.NextIteration.Source : tensor<*xi32> loc("while/NextIteration")
    %zero, %zc = tf_executor.island wraps "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32> loc("zero")
    %init = tf_executor.island wraps "tf.NoOp"() : () -> () loc("init")
    %enter, %ec = tf_executor.Enter %zero frame "while/" parallel_iterations 32 constant : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) loc("while/Enter")
    %merge, %index, %mc = tf_executor.Merge %enter, %next : tensor<*xi32> loc("while/Merge")
    %less, %lc = tf_executor.island wraps "tf.Less"(%merge, %index) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1> loc("while/Less")
    %cond, %cc = tf_executor.LoopCond %less : tensor<*xi1> loc("while/LoopCond")
    %f, %t, %sc = tf_executor.Switch %merge, %cond : (tensor<*xi32>, tensor<*xi1>) -> (tensor<*xi32>, tensor<*xi32>, !tf_executor.control) loc("while/Switch")
    %exit, %xc = tf_executor.Exit %f : tensor<*xi32> loc("while/Exit")
    %add, %ac = tf_executor.island wraps "tf.AddV2"(%t, %t) : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi32> loc("while/add")
    tf_executor.NextIteration.Sink [%token] %add, %init : tensor<*xi32> loc("while/NextIteration")
    %outs:3, %snc = tf_executor._SwitchN %zero, %zero of 3 (%xc) : tensor<i32> loc("switch_n")
    %trigger = tf_executor.ControlTrigger %snc, %init loc("trigger")
    %after, %afc = tf_executor.island(%trigger) wraps "tf.Identity"(%outs#2) : (tensor<i32>) -> tensor<i32> loc("after")
    %var, %vc = tf_executor.island wraps "tf.VariableV2"() {shape = #tf_type.shape<>, container = "", shared_name = ""} : () -> tensor<!tf_type.f32ref> loc("var")
    %pred, %pc = tf_executor.island wraps "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1> loc("pred")
    %rf, %rt, %rc = tf_executor.Switch %var, %pred : (tensor<!tf_type.f32ref>, tensor<i1>) -> (tensor<!tf_type.f32ref>, tensor<!tf_type.f32ref>, !tf_executor.control) loc("ref_switch")
    tf_executor.fetch
  }
  func.return
}
