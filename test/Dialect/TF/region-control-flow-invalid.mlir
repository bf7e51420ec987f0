// RUN: kiln-opt %s -split-input-file -verify-diagnostics

func.func @if_yield_count(%c: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.IfRegion' op then_branch yields 2 values, expected 1}}
  %r = "tf.IfRegion"(%c) ({
    "tf.Yield"(%a, %a) : (tensor<f32>, tensor<f32>) -> ()
  }, {
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @if_yield_type(%c: tensor<i1>, %a: tensor<f32>, %b: tensor<i32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.IfRegion' op else_branch yields 'tensor<i32>' as value #0, expected 'tensor<f32>'}}
  %r = "tf.IfRegion"(%c) ({
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%b) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @case_no_branches(%i: tensor<i32>) {
  // expected-error @+1 {{'tf.CaseRegion' op expects at least one branch}}
  "tf.CaseRegion"(%i) {is_stateless = true} : (tensor<i32>) -> ()
  return
}

// -----

func.func @case_yield(%i: tensor<i32>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.CaseRegion' op branch #1 yields 0 values, expected 1}}
  %r = "tf.CaseRegion"(%i) ({
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @while_result_count(%x: tensor<i32>, %p: tensor<i1>) {
  // expected-error @+1 {{'tf.WhileRegion' op has 0 results but 1 loop values}}
  "tf.WhileRegion"(%x) ({
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%i) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> ()
  return
}

// -----

func.func @while_result_type(%x: tensor<i32>, %p: tensor<i1>) -> tensor<f32> {
  // expected-error @+1 {{'tf.WhileRegion' op result #0 is 'tensor<f32>' but loop value #0 is 'tensor<i32>'}}
  %r = "tf.WhileRegion"(%x) ({
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%i) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @while_cond_arguments(%x: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  // expected-error @+1 {{'tf.WhileRegion' op cond takes 0 arguments, expected 1}}
  %r = "tf.WhileRegion"(%x) ({
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%i) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

func.func @while_body_argument_type(%x: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  // expected-error @+1 {{'tf.WhileRegion' op body argument #0 is 'tensor<f32>', expected 'tensor<i32>'}}
  %r = "tf.WhileRegion"(%x) ({
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<f32>):
    "tf.Yield"(%x) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

func.func @while_body_yield(%x: tensor<i32>, %p: tensor<i1>, %f: tensor<f32>) -> tensor<i32> {
  // expected-error @+1 {{'tf.WhileRegion' op body yields 'tensor<f32>' as value #0, expected 'tensor<i32>'}}
  %r = "tf.WhileRegion"(%x) ({
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%f) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

func.func @while_cond_not_bool(%x: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{'tf.WhileRegion' op cond yields 'tensor<i32>', expected a boolean scalar (tensor<i1>)}}
  %r = "tf.WhileRegion"(%x) ({
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%i) : (tensor<i32>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%i) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

func.func @while_cond_count(%x: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  // expected-error @+1 {{'tf.WhileRegion' op cond yields 2 values, expected one boolean}}
  %r = "tf.WhileRegion"(%x) ({
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%p, %p) : (tensor<i1>, tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    "tf.Yield"(%i) : (tensor<i32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

func.func @yield_outside(%a: tensor<f32>) {
  // expected-error @+1 {{'tf.Yield' op expects parent op to be one of 'tf.IfRegion, tf.WhileRegion, tf.CaseRegion'}}
  "tf.Yield"(%a) : (tensor<f32>) -> ()
  return
}
