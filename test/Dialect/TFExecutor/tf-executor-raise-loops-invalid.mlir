// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tf-executor-raise-loops

// A loop value with no Switch has no LoopCond: the loop could not end.
func.func @no_loop_cond(%x: tensor<i32>) {
  tf_executor.graph {
    %src, %token, %sc = tf_executor.NextIteration.Source : tensor<*xi32>
    %e, %ec = tf_executor.Enter %x frame "f" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    // expected-error @+1 {{loop Merge of frame 'f' feeds no Switch: the loop has no LoopCond to end it}}
    %m, %mi, %mc = tf_executor.Merge %e, %src : tensor<*xi32>
    tf_executor.NextIteration.Sink [%token] %m : tensor<*xi32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_without_merge(%x: tensor<i32>) {
  tf_executor.graph {
    // expected-error @+1 {{Enter of frame 'f' feeds no Merge: only `constant` Enters may bypass the loop's Merge}}
    %e, %ec = tf_executor.Enter %x frame "f" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_without_next_iteration(%x: tensor<i32>, %y: tensor<*xi32>) {
  tf_executor.graph {
    %e, %ec = tf_executor.Enter %x frame "f" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    // expected-error @+1 {{loop Merge of frame 'f' has no NextIteration input}}
    %m, %mi, %mc = tf_executor.Merge %e, %y : tensor<*xi32>
    tf_executor.fetch
  }
  return
}

// -----

// A value of the loop read after it without an Exit: everything computed
// from it belongs to the frame, so the fetch is what escapes.
func.func @escaping_value(%x: tensor<i32>) -> tensor<*xi32> {
  %g = tf_executor.graph {
    %src, %token, %sc = tf_executor.NextIteration.Source : tensor<*xi32>
    %e, %ec = tf_executor.Enter %x frame "f" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control)
    %m, %mi, %mc = tf_executor.Merge %e, %src : tensor<*xi32>
    %p, %pc = tf_executor.island wraps "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
    %lc, %lcc = tf_executor.LoopCond %p : tensor<i1>
    %f, %t, %swc = tf_executor.Switch %m, %lc : (tensor<*xi32>, tensor<i1>) -> (tensor<*xi32>, tensor<*xi32>, !tf_executor.control)
    %next, %nc = tf_executor.island wraps "tf.Neg"(%t) : (tensor<*xi32>) -> tensor<*xi32>
    tf_executor.NextIteration.Sink [%token] %next : tensor<*xi32>
    // expected-error @+1 {{value of loop frame 'f' is fetched without an Exit}}
    %out, %oc = tf_executor.island wraps "tf.Abs"(%next) : (tensor<*xi32>) -> tensor<*xi32>
    tf_executor.fetch %out : tensor<*xi32>
  }
  return %g : tensor<*xi32>
}
