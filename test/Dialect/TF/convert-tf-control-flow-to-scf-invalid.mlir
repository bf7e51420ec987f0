// RUN: kiln-opt %s -split-input-file -verify-diagnostics --convert-tf-control-flow-to-scf

func.func @vector_condition(%c: tensor<3xi1>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.IfRegion' op condition of type 'tensor<3xi1>' is not a scalar; only scalar conditions are lowered to scf}}
  %r = "tf.IfRegion"(%c) ({
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<3xi1>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @string_condition(%c: tensor<!tf_type.string>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'tf.IfRegion' op condition of type 'tensor<!tf_type.string>' is not a number or a boolean}}
  %r = "tf.IfRegion"(%c) ({
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<!tf_type.string>) -> tensor<f32>
  return %r : tensor<f32>
}
