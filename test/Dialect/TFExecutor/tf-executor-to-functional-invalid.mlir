// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tf-executor-to-functional

// TF1 control flow is reported node by node and the graph is left alone.
func.func @tf1_loop_nodes(%arg0: tensor<i32>, %arg1: tensor<i1>) -> tensor<i32> {
  %g = tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Switch' is TF1 control flow, which tf-executor-to-functional cannot inline; raise it to functional control flow first}}
    %f, %t, %c = tf_executor.Switch %arg0, %arg1 : tensor<i32>
    // expected-error @+1 {{'tf_executor.Merge' is TF1 control flow}}
    %m, %i, %mc = tf_executor.Merge %f, %t : tensor<i32>
    tf_executor.fetch %m : tensor<i32>
  }
  return %g : tensor<i32>
}
