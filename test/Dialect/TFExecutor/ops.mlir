// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func private @types
// CHECK-SAME:    (!tf_executor.control, !tf_executor.token)
func.func private @types(!tf_executor.control, !tf_executor.token)

// -----

// An empty graph still prints its fetch.
// CHECK-LABEL: func.func @empty_graph
// CHECK:         tf_executor.graph {
// CHECK-NEXT:      tf_executor.fetch
// CHECK-NEXT:    }
func.func @empty_graph() {
  tf_executor.graph {
  }
  return
}

// -----

// Graph results are the fetch's data operands; trailing controls are kept.
// CHECK-LABEL: func.func @fetch_with_control
// CHECK:         %[[G:.+]] = tf_executor.graph {
// CHECK:           %[[V:[^ ,]+]], %[[C:[^ ]+]] = tf_executor.island
// CHECK:             "tf.Identity"
// CHECK:           tf_executor.fetch %[[V]], %[[C]] : tensor<*xf32>, !tf_executor.control {attr = 3 : i64}
// CHECK:         return %[[G]]
func.func @fetch_with_control(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  %g = tf_executor.graph {
    %v, %c = tf_executor.island wraps "tf.Identity"(%arg0) : (tensor<*xf32>) -> tensor<*xf32>
    tf_executor.fetch %v, %c : tensor<*xf32>, !tf_executor.control {attr = 3 : i64}
  }
  return %g : tensor<*xf32>
}

// -----

// Islands with control inputs, a region body and attributes.
// CHECK-LABEL: func.func @island_region
// CHECK:         %[[C0:.+]] = tf_executor.island {
// CHECK-NEXT:      tf_executor.yield
// CHECK-NEXT:    }
// CHECK:         %[[V:.+]]:2, %{{.+}} = tf_executor.island(%[[C0]], %[[C0]]) {
// CHECK:           %[[N:.+]] = "tf.Neg"(%{{.+}})
// CHECK:           tf_executor.yield %[[N]], %[[N]] : tensor<f32>, tensor<f32>
// CHECK-NEXT:    } {_kiln_note = "kept"}
func.func @island_region(%arg0: tensor<f32>) -> tensor<f32> {
  %g = tf_executor.graph {
    %c0 = tf_executor.island {
      tf_executor.yield
    }
    %v:2, %c1 = tf_executor.island(%c0, %c0) {
      %n = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %n, %n : tensor<f32>, tensor<f32>
    } {_kiln_note = "kept"}
    tf_executor.fetch %v#1 : tensor<f32>
  }
  return %g : tensor<f32>
}

// -----

// Switch: short form when data and outputs share a type and the predicate is
// tensor<i1>; functional form otherwise. Results are false then true.
// CHECK-LABEL: func.func @switch
// CHECK:         %[[F:.+]], %[[T:.+]], %[[C:.+]] = tf_executor.Switch %{{.+}}, %{{.+}} : tensor<*xf32>
// CHECK:         tf_executor.Switch %{{.+}}, %{{.+}}, %[[C]] : (tensor<2xf32>, tensor<*xi1>, !tf_executor.control) -> (tensor<*xf32>, tensor<2xf32>, !tf_executor.control)
// CHECK:         tf_executor.fetch %[[F]], %[[T]]
func.func @switch(%arg0: tensor<*xf32>, %arg1: tensor<i1>, %arg2: tensor<2xf32>, %arg3: tensor<*xi1>) -> (tensor<*xf32>, tensor<*xf32>) {
  %g:2 = tf_executor.graph {
    %f, %t, %c = tf_executor.Switch %arg0, %arg1 : tensor<*xf32>
    %f2, %t2, %c2 = tf_executor.Switch %arg2, %arg3, %c : (tensor<2xf32>, tensor<*xi1>, !tf_executor.control) -> (tensor<*xf32>, tensor<2xf32>, !tf_executor.control)
    tf_executor.fetch %f, %t : tensor<*xf32>, tensor<*xf32>
  }
  return %g#0, %g#1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @switch_n
// CHECK:         %[[O:.+]]:3, %[[C:.+]] = tf_executor._SwitchN %{{.+}}, %{{.+}} of 3 : tensor<*xf32>
// CHECK:         tf_executor._SwitchN %{{.+}}, %{{.+}} of 2 (%[[C]]) : tensor<*xf32>
func.func @switch_n(%arg0: tensor<*xf32>, %arg1: tensor<i32>) -> tensor<*xf32> {
  %g = tf_executor.graph {
    %o:3, %c = tf_executor._SwitchN %arg0, %arg1 of 3 : tensor<*xf32>
    %p:2, %d = tf_executor._SwitchN %arg0, %arg1 of 2 (%c) : tensor<*xf32>
    tf_executor.fetch %o#2 : tensor<*xf32>
  }
  return %g : tensor<*xf32>
}

// -----

// Merge: short form for exactly two data inputs of the output type.
// CHECK-LABEL: func.func @merge
// CHECK:         %[[V:.+]], %{{.+}}, %[[C:.+]] = tf_executor.Merge %{{.+}}, %{{.+}} : tensor<*xf32>
// CHECK:         tf_executor.Merge %{{.+}}, %{{.+}}, %[[C]], %[[C]] : tensor<*xf32>
// CHECK:         tf_executor.Merge %{{.+}} : (tensor<2xf32>) -> (tensor<?xf32>, tensor<i32>, !tf_executor.control)
// CHECK:         tf_executor.Merge %{{.+}}, %{{.+}} : (tensor<2xf32>, tensor<3xf32>) -> (tensor<?xf32>, tensor<i32>, !tf_executor.control)
func.func @merge(%arg0: tensor<*xf32>, %arg1: tensor<2xf32>, %arg2: tensor<3xf32>) -> tensor<*xf32> {
  %g = tf_executor.graph {
    %v, %i, %c = tf_executor.Merge %arg0, %arg0 : tensor<*xf32>
    %v2, %i2, %c2 = tf_executor.Merge %arg0, %v, %c, %c : tensor<*xf32>
    %v3, %i3, %c3 = tf_executor.Merge %arg1 : (tensor<2xf32>) -> (tensor<?xf32>, tensor<i32>, !tf_executor.control)
    %v4, %i4, %c4 = tf_executor.Merge %arg1, %arg2 : (tensor<2xf32>, tensor<3xf32>) -> (tensor<?xf32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch %v2 : tensor<*xf32>
  }
  return %g : tensor<*xf32>
}

// -----

// Merge forwards refs and resources with subtypes to their plain forms.
// CHECK-LABEL: func.func @merge_tf_types
// CHECK:         tf_executor.Merge %{{.+}}, %{{.+}} : (tensor<4x!tf_type.f32ref>, tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>, !tf_executor.control)
// CHECK:         tf_executor.Merge %{{.+}}, %{{.+}} : (tensor<!tf_type.resource>, tensor<!tf_type.resource<tensor<4xi32>>>) -> (tensor<!tf_type.resource<tensor<8xf32>>>, tensor<i32>, !tf_executor.control)
func.func @merge_tf_types(%arg0: tensor<4x!tf_type.f32ref>, %arg1: tensor<4xf32>, %arg2: tensor<!tf_type.resource>, %arg3: tensor<!tf_type.resource<tensor<4xi32>>>) {
  tf_executor.graph {
    %v, %i, %c = tf_executor.Merge %arg0, %arg1 : (tensor<4x!tf_type.f32ref>, tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>, !tf_executor.control)
    %r, %j, %d = tf_executor.Merge %arg2, %arg3 : (tensor<!tf_type.resource>, tensor<!tf_type.resource<tensor<4xi32>>>) -> (tensor<!tf_type.resource<tensor<8xf32>>>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

// Enter prints parallel_iterations only when it is not 10, and `constant`.
// CHECK-LABEL: func.func @enter
// CHECK:         tf_executor.Enter %{{.+}} frame "some/fra\22me" : tensor<*xf32>
// CHECK:         tf_executor.Enter %{{.+}} frame "f" parallel_iterations 42 constant : tensor<*xf32>
// CHECK:         tf_executor.Enter %{{.+}} frame "f" : (tensor<8xf32>) -> (tensor<*xf32>, !tf_executor.control) {device = "/CPU:0"}
// CHECK-NOT:     parallel_iterations 10
func.func @enter(%arg0: tensor<*xf32>, %arg1: tensor<8xf32>) -> tensor<*xf32> {
  %g = tf_executor.graph {
    %a, %ca = tf_executor.Enter %arg0 frame "some/fra\"me" : tensor<*xf32>
    %b, %cb = tf_executor.Enter %arg0, %ca frame "f" parallel_iterations 42 constant : tensor<*xf32>
    %c, %cc = tf_executor.Enter %arg1 frame "f" parallel_iterations 10 : (tensor<8xf32>) -> (tensor<*xf32>, !tf_executor.control) {device = "/CPU:0"}
    tf_executor.fetch %a : tensor<*xf32>
  }
  return %g : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @exit_loop_cond
// CHECK:         %{{.+}}, %[[C:.+]] = tf_executor.Exit %{{.+}} : tensor<*xf32>
// CHECK:         tf_executor.Exit %{{.+}}, %[[C]] : tensor<*xf32>
// CHECK:         tf_executor.LoopCond %{{.+}} : tensor<i1>
// CHECK:         tf_executor.LoopCond %{{.+}}, %[[C]] : (tensor<i1>, !tf_executor.control) -> (tensor<*xi1>, !tf_executor.control)
func.func @exit_loop_cond(%arg0: tensor<*xf32>, %arg1: tensor<i1>) -> tensor<*xf32> {
  %g = tf_executor.graph {
    %e, %c = tf_executor.Exit %arg0 : tensor<*xf32>
    %e2, %c2 = tf_executor.Exit %arg0, %c : tensor<*xf32>
    %p, %pc = tf_executor.LoopCond %arg1 : tensor<i1>
    %p2, %pc2 = tf_executor.LoopCond %arg1, %c : (tensor<i1>, !tf_executor.control) -> (tensor<*xi1>, !tf_executor.control)
    tf_executor.fetch %e2 : tensor<*xf32>
  }
  return %g : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @next_iteration
// CHECK:         %[[V:.+]], %[[T:.+]], %[[C:.+]] = tf_executor.NextIteration.Source : tensor<*xf32> {T = f32}
// CHECK:         tf_executor.NextIteration.Sink [%[[T]]] %[[V]], %[[C]] : tensor<*xf32> {T = f32}
func.func @next_iteration() -> tensor<*xf32> {
  %g = tf_executor.graph {
    %v, %t, %c = tf_executor.NextIteration.Source : tensor<*xf32> {T = f32}
    tf_executor.NextIteration.Sink [%t] %v, %c : tensor<*xf32> {T = f32}
    tf_executor.fetch %v : tensor<*xf32>
  }
  return %g : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @control_trigger
// CHECK:         tf_executor.ControlTrigger %{{.+}}, %{{.+}} {attr = 1 : i64}
// CHECK:         tf_executor.ControlTrigger{{ *$}}
func.func @control_trigger(%arg0: !tf_executor.control, %arg1: !tf_executor.control) {
  tf_executor.graph {
    %c = tf_executor.ControlTrigger %arg0, %arg1 {attr = 1 : i64}
    %d = tf_executor.ControlTrigger
  }
  return
}
