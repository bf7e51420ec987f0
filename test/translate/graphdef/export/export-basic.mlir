// RUN: kiln-translate --export-graphdef %s | FileCheck %s
// RUN: kiln-translate -mlir-to-graphdef %s -o - | FileCheck %s
// RUN: kiln-translate --export-graphdef %s -tf-graph-as-function | FileCheck %s --check-prefix=FUNC
// RUN: kiln-translate --export-graphdef %s -graphdef-output-format=pb | kiln-translate --import-graphdef --mlir-print-debuginfo=false --graphdef-format=pb - -tf-input-arrays=x,r -tf-output-arrays=out | FileCheck %s --check-prefix=PB

// @main's arguments become Placeholders named by tf.entry_function, islands
// become nodes named by their location (a repeated name gets a suffix, an
// op without a name its op name), control operands `^node` inputs, the
// device moves into NodeDef.device, and T (derived from the operand type)
// is added because AddV2's OpDef requires it (an empty list for an empty
// group of values). Constants: a splat is one typed value (none for zeros),
// anything else tensor_content.

// CHECK:      node {
// CHECK-NEXT:   name: "x"
// CHECK-NEXT:   op: "Placeholder"
// CHECK:          key: "dtype"
// CHECK-NEXT:     value {
// CHECK-NEXT:       type: DT_FLOAT
// CHECK:          key: "shape"
// CHECK-NEXT:     value {
// CHECK-NEXT:       shape {
// CHECK-NEXT:         dim {
// CHECK-NEXT:           size: 2
// CHECK:      node {
// CHECK-NEXT:   name: "r"
// CHECK-NEXT:   op: "Placeholder"
// CHECK:            type: DT_RESOURCE
// CHECK:      node {
// CHECK-NEXT:   name: "c"
// CHECK-NEXT:   op: "Const"
// CHECK:          key: "value"
// CHECK:              dtype: DT_FLOAT
// CHECK:              tensor_content: "\000\000\200?\000\000\000@"
// CHECK:      node {
// CHECK-NEXT:   name: "zeros"
// CHECK:          key: "value"
// CHECK-NEXT:     value {
// CHECK-NEXT:       tensor {
// CHECK-NEXT:         dtype: DT_INT32
// CHECK-NEXT:         tensor_shape {
// CHECK-NEXT:           dim {
// CHECK-NEXT:             size: 2
// CHECK-NEXT:           }
// CHECK-NEXT:           dim {
// CHECK-NEXT:             size: 2
// CHECK-NEXT:           }
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK:      node {
// CHECK-NEXT:   name: "sevens"
// CHECK:              int64_val: 7
// CHECK-NEXT:       }
// CHECK:      node {
// CHECK-NEXT:   name: "s"
// CHECK:              dtype: DT_STRING
// CHECK:              string_val: "hi"
// CHECK-NEXT:       }
// CHECK:      node {
// CHECK-NEXT:   name: "init"
// CHECK-NEXT:   op: "NoOp"
// CHECK-NEXT:   device: "/job:localhost"
// CHECK-NEXT:   experimental_debug_info {
// CHECK:      node {
// CHECK-NEXT:   name: "sum"
// CHECK-NEXT:   op: "AddV2"
// CHECK-NEXT:   input: "x"
// CHECK-NEXT:   input: "c"
// CHECK-NEXT:   input: "^init"
// CHECK-NEXT:   attr {
// CHECK-NEXT:     key: "T"
// CHECK-NEXT:     value {
// CHECK-NEXT:       type: DT_FLOAT
// CHECK:          key: "_output_shapes"
// CHECK-NEXT:     value {
// CHECK-NEXT:       list {
// CHECK-NEXT:         shape {
// CHECK-NEXT:           unknown_rank: true
// CHECK:      node {
// CHECK-NEXT:   name: "out"
// CHECK-NEXT:   op: "Identity"
// CHECK-NEXT:   input: "sum"
// CHECK:      node {
// CHECK-NEXT:   name: "out_1"
// CHECK-NEXT:   op: "Identity"
// CHECK-NEXT:   input: "sum"
// CHECK:      node {
// CHECK-NEXT:   name: "k"
// CHECK:      node {
// CHECK-NEXT:   name: "tf.TopKV2"
// CHECK-NEXT:   op: "TopKV2"
// CHECK-NEXT:   input: "x"
// CHECK-NEXT:   input: "k"
// CHECK:      node {
// CHECK-NEXT:   name: "second"
// CHECK-NEXT:   op: "Neg"
// CHECK-NEXT:   input: "tf.TopKV2:1"
// CHECK:      node {
// CHECK-NEXT:   name: "weird.name"
// CHECK:      node {
// CHECK-NEXT:   name: "nothing"
// CHECK-NEXT:   op: "IdentityN"
// CHECK-NEXT:   attr {
// CHECK-NEXT:     key: "T"
// CHECK-NEXT:     value {
// CHECK-NEXT:       list {
// CHECK-NEXT:       }
// CHECK:      versions {
// CHECK-NEXT:   producer: 1234
// CHECK-NEXT:   min_consumer: 12
// CHECK-NEXT:   bad_consumers: 3
// CHECK-NEXT: }

// With -tf-graph-as-function, arguments are _Arg and results _Retval nodes,
// whose names win over the graph's own `out`.
// FUNC:      name: "x"
// FUNC-NEXT: op: "_Arg"
// FUNC:        key: "index"
// FUNC-NEXT:   value {
// FUNC-NEXT:     i: 0
// FUNC:      name: "r"
// FUNC-NEXT: op: "_Arg"
// FUNC:        key: "_handle_dtypes"
// FUNC-NEXT:   value {
// FUNC-NEXT:     list {
// FUNC-NEXT:       type: DT_INT32
// FUNC:        key: "_handle_shapes"
// FUNC:                size: 3
// FUNC:      name: "out_1"
// FUNC-NEXT: op: "Identity"
// FUNC:      name: "out"
// FUNC-NEXT: op: "_Retval"
// FUNC-NEXT: input: "out_1"
// FUNC:        key: "T"
// FUNC-NEXT:   value {
// FUNC-NEXT:     type: DT_FLOAT

// The binary GraphDef imports back.
// PB:      func.func @main(%{{.+}}: tensor<2xf32>, %{{.+}}: tensor<!tf_type.resource>) -> tensor<*xf32>
// PB:        "tf.AddV2"
// PB-SAME:     (tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>

module attributes {tf.versions = {bad_consumers = [3], min_consumer = 12 : i32, producer = 1234 : i32}} {
  func.func @main(%x: tensor<2xf32>, %r: tensor<!tf_type.resource<tensor<3xi32>>>) -> tensor<*xf32> attributes {tf.entry_function = {control_outputs = "", inputs = "x,r", outputs = "out"}} {
    %g = tf_executor.graph {
      %c, %cc = tf_executor.island wraps "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32> loc("c")
      %z, %zc = tf_executor.island wraps "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32> loc("zeros")
      %n, %nc = tf_executor.island wraps "tf.Const"() {value = dense<7> : tensor<3xi64>} : () -> tensor<3xi64> loc("sevens")
      %s, %sc = tf_executor.island wraps "tf.Const"() {value = dense<"hi"> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string> loc("s")
      %init = tf_executor.island wraps "tf.NoOp"() {device = "/job:localhost"} : () -> () loc("init")
      %sum, %sumc = tf_executor.island(%init) wraps "tf.AddV2"(%x, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32> loc("sum")
      %out, %outc = tf_executor.island wraps "tf.Identity"(%sum) : (tensor<*xf32>) -> tensor<*xf32> loc("out")
      %a, %ac = tf_executor.island wraps "tf.Identity"(%sum) : (tensor<*xf32>) -> tensor<*xf32> loc("out")
      %k, %kc = tf_executor.island wraps "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32> loc("k")
      %u:2, %uc = tf_executor.island wraps "tf.TopKV2"(%x, %k) : (tensor<2xf32>, tensor<i32>) -> (tensor<1xf32>, tensor<1xi32>)
      %v, %vc = tf_executor.island wraps "tf.Neg"(%u#1) : (tensor<1xi32>) -> tensor<1xi32> loc("second")
      %w, %wc = tf_executor.island wraps "tf.Neg"(%v) : (tensor<1xi32>) -> tensor<1xi32> loc("weird name")
      %none = tf_executor.island wraps "tf.IdentityN"() : () -> () loc("nothing")
      tf_executor.fetch %out, %init : tensor<*xf32>, !tf_executor.control
    }
    func.return %g : tensor<*xf32>
  }
}
