// RUN: kiln-opt %s -split-input-file -verify-diagnostics

func.func @non_executor_op_in_graph(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf.Neg' op is not allowed directly inside a tf_executor.graph: wrap it in a tf_executor.island}}
    %0 = "tf.Neg"(%arg0) : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @fetch_type_mismatch(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf_executor.graph"() ({
    // expected-error @+1 {{'tf_executor.fetch' op operand #0 has type 'tensor<f32>' but graph result #0 has type 'tensor<i32>'}}
    "tf_executor.fetch"(%arg0) : (tensor<f32>) -> ()
  }) : () -> tensor<i32>
  return %arg0 : tensor<f32>
}

// -----

func.func @fetch_too_few(%arg0: tensor<f32>) -> tensor<f32> {
  %0 = "tf_executor.graph"() ({
    // expected-error @+1 {{'tf_executor.fetch' op fetches 0 values but the graph has 1 results}}
    "tf_executor.fetch"() : () -> ()
  }) : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @fetch_extra_data(%arg0: tensor<f32>) {
  "tf_executor.graph"() ({
    // expected-error @+1 {{'tf_executor.fetch' op operand #0 of type 'tensor<f32>' has no graph result; only control values may follow the graph's 0 results}}
    "tf_executor.fetch"(%arg0) : (tensor<f32>) -> ()
  }) : () -> ()
  return
}

// -----

func.func @fetch_control_before_data(%arg0: tensor<f32>, %arg1: !tf_executor.control) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error @+1 {{'tf_executor.fetch' op expects control operands after data operands, but operand #1 of type 'tensor<f32>' follows a control operand}}
    tf_executor.fetch %arg1, %arg0 : !tf_executor.control, tensor<f32>
  }
  return %arg0 : tensor<f32>
}

// -----

func.func @fetch_outside_graph() {
  // expected-error @+1 {{'tf_executor.fetch' op expects parent op 'tf_executor.graph'}}
  tf_executor.fetch
}

// -----

func.func @island_outside_graph() {
  // expected-error @+1 {{'tf_executor.island' op expects parent op 'tf_executor.graph'}}
  %c = tf_executor.island {
    tf_executor.yield
  }
  return
}

// -----

func.func @island_yield_count(%arg0: tensor<f32>) {
  tf_executor.graph {
    %0:2, %c = "tf_executor.island"() ({
      // expected-error @+1 {{'tf_executor.yield' op yields 1 values but the island has 2 data results}}
      "tf_executor.yield"(%arg0) : (tensor<f32>) -> ()
    }) : () -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_yield_type(%arg0: tensor<f32>) {
  tf_executor.graph {
    %0, %c = "tf_executor.island"() ({
      // expected-error @+1 {{'tf_executor.yield' op operand #0 has type 'tensor<f32>' but island result #0 has type 'tensor<i32>'}}
      "tf_executor.yield"(%arg0) : (tensor<f32>) -> ()
    }) : () -> (tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @yield_control(%arg0: !tf_executor.control) {
  tf_executor.graph {
    %0, %c = "tf_executor.island"() ({
      // expected-error @+1 {{'tf_executor.yield' op operand #0 is a !tf_executor.control value; an island's control result is implicit}}
      "tf_executor.yield"(%arg0) : (!tf_executor.control) -> ()
    }) : () -> (!tf_executor.control, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_data_control_input(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.island' op operand #0 must be variadic of control, but got 'tensor<f32>'}}
    %c = "tf_executor.island"(%arg0) ({
      "tf_executor.yield"() : () -> ()
    }) : (tensor<f32>) -> !tf_executor.control
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_predicate_not_bool(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Switch' op expects the predicate to be a boolean scalar (tensor<i1>), got 'tensor<i32>'}}
    %f, %t, %c = tf_executor.Switch %arg0, %arg1 : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_predicate_not_scalar(%arg0: tensor<f32>, %arg1: tensor<2xi1>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Switch' op expects the predicate to be a boolean scalar (tensor<i1>), got 'tensor<2xi1>'}}
    %f, %t, %c = tf_executor.Switch %arg0, %arg1 : (tensor<f32>, tensor<2xi1>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_output_type(%arg0: tensor<f32>, %arg1: tensor<i1>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Switch' op expects the true output type 'tensor<i32>' to be compatible with the data type 'tensor<f32>'}}
    %f, %t, %c = tf_executor.Switch %arg0, %arg1 : (tensor<f32>, tensor<i1>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_control_as_data(%arg0: !tf_executor.control, %arg1: tensor<i1>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Switch' op expects operand #0 to be data, got a !tf_executor.control value}}
    %f, %t, %c = tf_executor.Switch %arg0, %arg1 : (!tf_executor.control, tensor<i1>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_n_count(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor._SwitchN' op expects num_outs (3) to equal the number of data results (2)}}
    %o:2, %c = "tf_executor._SwitchN"(%arg0, %arg1) {num_outs = 3} : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_n_index(%arg0: tensor<f32>, %arg1: tensor<i64>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor._SwitchN' op expects the index to be an int32 scalar, got 'tensor<i64>'}}
    %o:2, %c = "tf_executor._SwitchN"(%arg0, %arg1) {num_outs = 2} : (tensor<f32>, tensor<i64>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_n_zero_outputs(%arg0: tensor<f32>, %arg1: tensor<i32>) {
  tf_executor.graph {
    // expected-error @+1 {{expects at least one output, got 0}}
    %c = tf_executor._SwitchN %arg0, %arg1 of 0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_no_data(%arg0: !tf_executor.control) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Merge' op expects at least one data input}}
    %v, %i, %c = "tf_executor.Merge"(%arg0) : (!tf_executor.control) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_incompatible(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Merge' op expects data input #1 of type 'tensor<3xf32>' to be compatible with the output type 'tensor<2xf32>'}}
    %v, %i, %c = tf_executor.Merge %arg0, %arg1 : (tensor<2xf32>, tensor<3xf32>) -> (tensor<2xf32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_index_type(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Merge' op expects value_index to be tensor<i32>, got 'tensor<i64>'}}
    %v, %i, %c = tf_executor.Merge %arg0, %arg0 : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<i64>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_data_after_control(%arg0: tensor<f32>, %arg1: !tf_executor.control) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Merge' op expects control operands after data operands, but operand #2 of type 'tensor<f32>' follows a control operand}}
    %v, %i, %c = "tf_executor.Merge"(%arg0, %arg1, %arg0) : (tensor<f32>, !tf_executor.control, tensor<f32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_short_form_one_input(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{the short form `: T` needs two data inputs; use the functional type for other arities}}
    %v, %i, %c = tf_executor.Merge %arg0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_empty_frame(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Enter' op expects a non-empty frame name}}
    %v, %c = tf_executor.Enter %arg0 frame "" : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_parallel_iterations(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Enter' op expects parallel_iterations to be positive, got 0}}
    %v, %c = tf_executor.Enter %arg0 frame "f" parallel_iterations 0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @exit_incompatible(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Exit' op expects the output type 'tensor<i32>' to be compatible with the data type 'tensor<f32>'}}
    %v, %c = tf_executor.Exit %arg0 : (tensor<f32>) -> (tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @loop_cond_not_bool(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.LoopCond' op expects the input to be a boolean scalar (tensor<i1>), got 'tensor<f32>'}}
    %v, %c = tf_executor.LoopCond %arg0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @source_without_sink() {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.NextIteration.Source' op expects its token to be used by exactly one tf_executor.NextIteration.Sink}}
    %v, %t, %c = tf_executor.NextIteration.Source : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @sink_type_mismatch(%arg0: tensor<i32>) {
  tf_executor.graph {
    %v, %t, %c = tf_executor.NextIteration.Source : tensor<f32>
    // expected-error @+1 {{'tf_executor.NextIteration.Sink' op input type 'tensor<i32>' is not compatible with the type of its source, 'tensor<f32>'}}
    tf_executor.NextIteration.Sink [%t] %arg0 : tensor<i32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @sink_control_input(%arg0: !tf_executor.control) {
  tf_executor.graph {
    %v, %t, %c = tf_executor.NextIteration.Source : tensor<f32>
    // expected-error @+1 {{'tf_executor.NextIteration.Sink' op expects a data input, got a !tf_executor.control value}}
    "tf_executor.NextIteration.Sink"(%t, %arg0) : (!tf_executor.token, !tf_executor.control) -> ()
    tf_executor.fetch
  }
  return
}

// -----

func.func @operand_count_mismatch(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{expects 1 operand types, but 2 operands were given}}
    %v, %c = tf_executor.Exit %arg0, %arg0 : (tensor<f32>) -> (tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}
