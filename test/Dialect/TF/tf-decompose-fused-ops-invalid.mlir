// RUN: kiln-opt %s -split-input-file -verify-diagnostics --tf-decompose-fused-ops

func.func @unknown_fusion(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>, %b: tensor<16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{cannot decompose fused_ops [BiasAdd, Softsign]}}
  %0 = "tf._FusedConv2D"(%x, %w, %b) {fused_ops = ["BiasAdd", "Softsign"], num_args = 1 : i64, strides = [1, 1, 1, 1], padding = "SAME", data_format = "NHWC", dilations = [1, 1, 1, 1], epsilon = 0.0 : f32} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
