// RUN: kiln-opt %s -split-input-file --tf-executor-to-functional | FileCheck %s

// Islands become straight-line code in graph order; the fetched values
// replace the graph's results and control values disappear.
// CHECK-LABEL: func.func @islands
// CHECK-SAME:    (%[[ARG:.+]]: tensor<2xf32>)
// CHECK-NOT:     tf_executor
// CHECK:         %[[C:.+]] = "tf.Const"()
// CHECK:         %[[A:.+]] = "tf.AddV2"(%[[ARG]], %[[C]])
// CHECK:         %[[N:.+]] = "tf.Neg"(%[[A]])
// CHECK:         return %[[N]], %[[A]]
func.func @islands(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %g:2 = tf_executor.graph {
    %c, %cc = tf_executor.island wraps "tf.Const"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
    %a, %ac = tf_executor.island(%cc) wraps "tf.AddV2"(%arg0, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %n, %nc = tf_executor.island {
      %0 = "tf.Neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
      tf_executor.yield %0 : tensor<2xf32>
    }
    tf_executor.fetch %n, %a, %nc : tensor<2xf32>, tensor<2xf32>, !tf_executor.control
  }
  return %g#0, %g#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// A control edge orders side effects: the assignment stays before the read
// that depended on it.
// CHECK-LABEL: func.func @control_edge_keeps_order
// CHECK:         "tf.AssignVariableOp"
// CHECK-NEXT:    %[[R:.+]] = "tf.ReadVariableOp"
// CHECK-NEXT:    return %[[R]]
func.func @control_edge_keeps_order(%v: tensor<!tf_type.resource<tensor<f32>>>, %x: tensor<f32>) -> tensor<f32> {
  %g = tf_executor.graph {
    %w = tf_executor.island wraps "tf.AssignVariableOp"(%v, %x) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    %r, %rc = tf_executor.island(%w) wraps "tf.ReadVariableOp"(%v) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
    tf_executor.fetch %r : tensor<f32>
  }
  return %g : tensor<f32>
}

// -----

// An island that yields a value defined outside it, and an empty graph.
// CHECK-LABEL: func.func @pass_through
// CHECK-SAME:    (%[[ARG:.+]]: tensor<i32>)
// CHECK-NEXT:    return %[[ARG]]
func.func @pass_through(%arg0: tensor<i32>) -> tensor<i32> {
  %g = tf_executor.graph {
    %v, %c = tf_executor.island {
      tf_executor.yield %arg0 : tensor<i32>
    }
    %t = tf_executor.ControlTrigger %c
    tf_executor.fetch %v, %t : tensor<i32>, !tf_executor.control
  }
  tf_executor.graph {
    tf_executor.fetch
  }
  return %g : tensor<i32>
}
