// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tf-shape-inference

// A declared static type that contradicts the operands is an error.
func.func @contradiction(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'tf.Neg' op result #0 is declared 'tensor<5xf32>' but its operands make it 'tensor<4xf32>'}}
  %0 = "tf.Neg"(%x) : (tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// TensorFlow rejects an element shape that the rows of the tensor do not
// have.
func.func @tensor_list_rows_mismatch(%x: tensor<2x3xf32>) -> tensor<*x!tf_type.variant> {
  %shape = "tf.Const"() {value = dense<[4]> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+1 {{'tf.TensorListFromTensor' op has rows of type 'tensor<3xf32>' but an element shape of 'tensor<4xf32>'}}
  %l = "tf.TensorListFromTensor"(%x, %shape) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<*x!tf_type.variant>
  return %l : tensor<*x!tf_type.variant>
}

// -----

// SoftmaxCrossEntropyWithLogits takes matrices [batch, classes].
func.func @cross_entropy_rank(%x: tensor<4x3x2xf32>, %l: tensor<4x3x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.SoftmaxCrossEntropyWithLogits' op requires 2-D features and labels, got ranks 3 and 3}}
  %0:2 = "tf.SoftmaxCrossEntropyWithLogits"(%x, %l) : (tensor<4x3x2xf32>, tensor<4x3x2xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @cross_entropy_mismatch(%x: tensor<4x3xf32>, %l: tensor<4x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.SoftmaxCrossEntropyWithLogits' op features of shape [4, 3] and labels of shape [4, 2] do not broadcast}}
  %0:2 = "tf.SoftmaxCrossEntropyWithLogits"(%x, %l) : (tensor<4x3xf32>, tensor<4x2xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @bias_add_grad_rank(%x: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.BiasAddGrad' op requires out_backprop of rank 2 or more, got rank 1}}
  %0 = "tf.BiasAddGrad"(%x) : (tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
