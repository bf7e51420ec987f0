// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tf-shape-inference

// A declared static type that contradicts the operands is an error.
func.func @contradiction(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{'tf.Neg' op result #0 is declared 'tensor<5xf32>' but its operands make it 'tensor<4xf32>'}}
  %0 = "tf.Neg"(%x) : (tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
