// RUN: kiln-translate --export-graphdef %s | FileCheck %s

// An island of several operations becomes one node per operation, each
// waiting for the island's control inputs; a control edge from the island
// waits for all of them, and its results name the operations that produce
// them. An empty island's control output stands for its own control inputs.

// CHECK-LABEL:  name: "a"
// CHECK-NEXT:   op: "Const"
// CHECK-LABEL:  name: "neg"
// CHECK-NEXT:   op: "Neg"
// CHECK-NEXT:   input: "a"
// CHECK-NEXT:   input: "^a"
// CHECK-LABEL:  name: "neg_1"
// CHECK-NEXT:   op: "Neg"
// CHECK-NEXT:   input: "neg"
// CHECK-NEXT:   input: "^a"
// CHECK-LABEL:  name: "user"
// CHECK-NEXT:   op: "Identity"
// CHECK-NEXT:   input: "neg_1"
// CHECK-NEXT:   input: "^neg"
// CHECK-NEXT:   input: "^neg_1"
// CHECK-LABEL:  name: "passthrough"
// CHECK-NEXT:   op: "Identity"
// CHECK-NEXT:   input: "a"
// CHECK-NEXT:   input: "^a"
// CHECK-NEXT:   attr

func.func @main() {
  tf_executor.graph {
    %a, %ac = tf_executor.island wraps "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32> loc("a")
    %n, %nc = tf_executor.island(%ac) {
      %0 = "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32> loc("neg")
      %1 = "tf.Neg"(%0) : (tensor<f32>) -> tensor<f32> loc("neg")
      tf_executor.yield %1 : tensor<f32>
    }
    %u, %uc = tf_executor.island(%nc) wraps "tf.Identity"(%n) : (tensor<f32>) -> tensor<f32> loc("user")
    %e:2, %ec = tf_executor.island(%ac) {
      tf_executor.yield %a, %a : tensor<f32>, tensor<f32>
    }
    %p, %pc = tf_executor.island(%ec) wraps "tf.Identity"(%e#1) : (tensor<f32>) -> tensor<f32> loc("passthrough")
    tf_executor.fetch
  }
  func.return
}
