// A statically shaped model with intermediate tensors (three matmuls, the
// first widening to 256 features) and two fetches, one of them a feed
// returned as it is.
func.func @main(%x: tensor<1x64xf32>) -> (tensor<1x64xf32>, tensor<1x64xf32>)
    attributes {tf.entry_function = {inputs = "x", outputs = "y,x_out"}} {
  %wide = "tf.Const"() {value = dense<0.015625> : tensor<64x256xf32>} : () -> tensor<64x256xf32>
  %narrow = "tf.Const"() {value = dense<0.00390625> : tensor<256x64xf32>} : () -> tensor<256x64xf32>
  %w = "tf.Const"() {value = dense<0.015625> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
  %0 = "tf.MatMul"(%x, %wide) : (tensor<1x64xf32>, tensor<64x256xf32>) -> tensor<1x256xf32>
  %1 = "tf.Relu"(%0) : (tensor<1x256xf32>) -> tensor<1x256xf32>
  %2 = "tf.MatMul"(%1, %narrow) : (tensor<1x256xf32>, tensor<256x64xf32>) -> tensor<1x64xf32>
  %3 = "tf.Tanh"(%2) : (tensor<1x64xf32>) -> tensor<1x64xf32>
  %4 = "tf.MatMul"(%3, %w) : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
  %5 = "tf.AddV2"(%4, %2) : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x64xf32>
  return %5, %x : tensor<1x64xf32>, tensor<1x64xf32>
}
