// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tf-functional-to-region-control-flow

func.func @callee_is_a_graph(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.If' op calls @g, which still holds a tf_executor.graph; run tf-executor-to-functional first}}
  %r = "tf.If"(%c, %x) {then_branch = @g, else_branch = @g, is_stateless = true} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @g(%a: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    tf_executor.fetch %a : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @recursive(%c: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %r = "tf.If"(%c, %x) {then_branch = @self, else_branch = @self, is_stateless = true} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @self(%x: tensor<f32>) -> tensor<f32> {
  %c = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  // expected-error @+1 {{'tf.If' op calls @self recursively; recursion has no region form}}
  %r = "tf.If"(%c, %x) {then_branch = @leaf, else_branch = @self, is_stateless = true} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @leaf(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
