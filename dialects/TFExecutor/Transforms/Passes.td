//===- Passes.td - tf_executor passes ----------------------*- tablegen -*-===//
//
// Passes from executor graphs towards functional tf.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFEXECUTOR_TRANSFORMS_PASSES_TD
#define KILN_DIALECTS_TFEXECUTOR_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass, Option

def TFExecutorToFunctionalPass
    : Pass<"tf-executor-to-functional", "::mlir::func::FuncOp"> {
  let summary = "Replace tf_executor graphs of islands by their operations";
  let description = [{
    Inlines every island of a `tf_executor.graph` into the enclosing
    function, in the graph's order, and replaces the graph's results by the
    fetched values. The graph's order is a topological order of its data and
    control edges (SSA dominance requires it), so every operation still runs
    after the operations it depended on, including through control edges and
    side effects; control values disappear.

    ```mlir
    %r = tf_executor.graph {
      %a, %c = tf_executor.island wraps "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
      %b, %d = tf_executor.island(%c) wraps "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32>
      tf_executor.fetch %b : tensor<f32>
    }
    // becomes
    %a = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %r = "tf.Neg"(%a) : (tensor<f32>) -> tensor<f32>
    ```

    Graphs holding TF1 control flow (Switch, Merge, Enter, Exit,
    NextIteration, LoopCond, _SwitchN) are reported, node by node, and left
    unchanged: they must be raised to functional control flow first.
  }];
  let dependentDialects = ["::kiln::tf_executor::TFExecutorDialect"];
}

#endif // KILN_DIALECTS_TFEXECUTOR_TRANSFORMS_PASSES_TD
