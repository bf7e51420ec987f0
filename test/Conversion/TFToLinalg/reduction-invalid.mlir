// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file -verify-diagnostics

func.func @sum_runtime_axes_not_single(%arg0: tensor<2x3xf32>, %axes: tensor<2xi32>) -> tensor<f32> {
  // expected-error @+2 {{'tf.Sum' op cannot be lowered to linalg: reduction_indices operand is known only at run time and is not a single axis}}
  // expected-error @+1 {{failed to legalize operation 'tf.Sum'}}
  %0 = "tf.Sum"(%arg0, %axes) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @mean_axis_out_of_range(%arg0: tensor<2x3xf32>) -> tensor<2xf32> {
  %axes = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.Mean' op cannot be lowered to linalg: reduction axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to legalize operation 'tf.Mean'}}
  %0 = "tf.Mean"(%arg0, %axes) : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @max_negative_axis_out_of_range(%arg0: tensor<2x3xf32>) -> tensor<2xf32> {
  %axes = "tf.Const"() {value = dense<-3> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.Max' op cannot be lowered to linalg: reduction axis -3 is out of range for rank 2}}
  // expected-error @+1 {{failed to legalize operation 'tf.Max'}}
  %0 = "tf.Max"(%arg0, %axes) : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @arg_max_dimension_not_constant(%arg0: tensor<2x3xf32>, %dim: tensor<i32>) -> tensor<2xi64> {
  // expected-error @+2 {{'tf.ArgMax' op cannot be lowered to linalg: dimension operand is not a constant scalar}}
  // expected-error @+1 {{failed to legalize operation 'tf.ArgMax'}}
  %0 = "tf.ArgMax"(%arg0, %dim) : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @arg_max_dimension_out_of_range(%arg0: tensor<2x3xf32>) -> tensor<2xi64> {
  %dim = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.ArgMax' op cannot be lowered to linalg: dimension 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to legalize operation 'tf.ArgMax'}}
  %0 = "tf.ArgMax"(%arg0, %dim) : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @softmax_unranked(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'tf.Softmax' op cannot be lowered to linalg: expects logits of rank 1 or more}}
  // expected-error @+1 {{failed to legalize operation 'tf.Softmax'}}
  %0 = "tf.Softmax"(%arg0) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @where_unranked(%arg0: tensor<*xi1>) -> tensor<?x?xi64> {
  // expected-error @+2 {{'tf.Where' op cannot be lowered to linalg: unranked operand or result}}
  // expected-error @+1 {{failed to legalize operation 'tf.Where'}}
  %0 = "tf.Where"(%arg0) : (tensor<*xi1>) -> tensor<?x?xi64>
  return %0 : tensor<?x?xi64>
}

// -----

func.func @where_wrong_result_rank(%arg0: tensor<2x3xi1>) -> tensor<?x3xi64> {
  // expected-error @+2 {{'tf.Where' op cannot be lowered to linalg: the result must be a [num_true, 2] tensor of i64}}
  // expected-error @+1 {{failed to legalize operation 'tf.Where'}}
  %0 = "tf.Where"(%arg0) : (tensor<2x3xi1>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}
