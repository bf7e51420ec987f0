// Two NPU segments around a CPU op (Sigmoid): a 3x3 convolution with bias
// and Relu, and a 1x1 convolution head. Compiled for the CPU and for the NPU
// by unittests/runtime/npu/aot/CMakeLists.txt.
module {
  func.func @main(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x8xf32> attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
    %w = "tf.Const"() {value = dense<0.05> : tensor<3x3x16x32xf32>} : () -> tensor<3x3x16x32xf32> loc("w")
    %b = "tf.Const"() {value = dense<-3.0> : tensor<32xf32>} : () -> tensor<32xf32> loc("b")
    %w2 = "tf.Const"() {value = dense<0.125> : tensor<1x1x32x8xf32>} : () -> tensor<1x1x32x8xf32> loc("w2")
    %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> loc("conv")
    %1 = "tf.BiasAdd"(%0, %b) : (tensor<1x8x8x32xf32>, tensor<32xf32>) -> tensor<1x8x8x32xf32> loc("bias")
    %2 = "tf.Relu"(%1) : (tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> loc("relu")
    %3 = "tf.Sigmoid"(%2) : (tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> loc("sigmoid")
    %4 = "tf.Conv2D"(%3, %w2) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x8x8x32xf32>, tensor<1x1x32x8xf32>) -> tensor<1x8x8x8xf32> loc("head")
    return %4 : tensor<1x8x8x8xf32>
  }
}
