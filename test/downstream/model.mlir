// A convolution with bias and Relu (one NPU segment) and a Sigmoid after it
// (CPU), compiled at build time by test/downstream/CMakeLists.txt for the CPU
// and for the NPU.
module {
  func.func @main(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
    %w = "tf.Const"() {value = dense<0.05> : tensor<3x3x16x16xf32>} : () -> tensor<3x3x16x16xf32> loc("w")
    %b = "tf.Const"() {value = dense<-1.0> : tensor<16xf32>} : () -> tensor<16xf32> loc("b")
    %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32> loc("conv")
    %1 = "tf.BiasAdd"(%0, %b) : (tensor<1x8x8x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32> loc("bias")
    %2 = "tf.Relu"(%1) : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> loc("relu")
    %3 = "tf.Sigmoid"(%2) : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> loc("sigmoid")
    return %3 : tensor<1x8x8x16xf32>
  }
}
