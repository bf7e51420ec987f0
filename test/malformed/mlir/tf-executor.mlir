// Malformed tf_executor syntax: each chunk is refused with a diagnostic,
// and the file as a whole exits with status 1.
// RUN: kiln-opt %s -split-input-file -verify-diagnostics
// RUN: %exit1 kiln-opt %s -split-input-file -o /dev/null 2>/dev/null

// A parameter on a type that takes none was dropped silently.
// expected-error @+1 {{type '!tf_executor.control' takes no parameters}}
func.func private @control_params(!tf_executor.control<f32>)

// -----

// expected-error @+1 {{type '!tf_executor.token' takes no parameters}}
func.func private @token_params(!tf_executor.token<1>)

// -----

// _SwitchN of 99999999999 outputs aborted in SmallVector::grow.
func.func @switchn_huge(%arg0: tensor<i32>) {
  tf_executor.graph {
    // expected-error @+1 {{expects 99999999999 data results and a control result, but 4 results are bound}}
    %o:3, %c = tf_executor._SwitchN %arg0, %arg0 of 99999999999 : tensor<i32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @switchn_count(%arg0: tensor<i32>) {
  tf_executor.graph {
    // expected-error @+1 {{expects 2 data results and a control result, but 4 results are bound}}
    %o:3, %c = tf_executor._SwitchN %arg0, %arg0 of 2 : tensor<i32>
    tf_executor.fetch
  }
  return
}

// -----

// A negative parallel_iterations passed the verifier as 2^64 - 3.
func.func @enter_negative(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{'tf_executor.Enter' op expects parallel_iterations to be positive, got -3}}
    %o, %c = tf_executor.Enter %arg0 frame "x" parallel_iterations -3 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_no_op() {
  tf_executor.graph {
    // expected-error @+2 {{empty operation name is invalid}}
    %o, %c = tf_executor.island wraps
  }
  return
}

// -----

func.func @merge_short_form(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{the short form `: T` needs two data inputs; use the functional type for other arities}}
    %o, %i, %c = tf_executor.Merge : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @source_results() {
  tf_executor.graph {
    // expected-error @+1 {{operation defines 3 results but was provided 2 to bind}}
    %t, %c = tf_executor.NextIteration.Source : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

// expected-note @+1 {{prior use here}}
func.func @switch_predicate(%arg0: tensor<f32>) {
  tf_executor.graph {
    // expected-error @+1 {{use of value '%arg0' expects different type than prior uses: 'tensor<i1>' vs 'tensor<f32>'}}
    %t, %f, %c = tf_executor.Switch %arg0, %arg0 : tensor<f32>
    tf_executor.fetch
  }
  return
}
