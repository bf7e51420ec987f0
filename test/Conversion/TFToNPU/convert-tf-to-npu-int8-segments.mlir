// RUN: kiln-opt %s --convert-tf-to-npu="precision=int8 calibration-file=%S/Inputs/int8-ranges-segments.json" -split-input-file | FileCheck %s

// int8 partitions whose ranges must be resolved before outlining
// (Inputs/int8-ranges-segments.json).

// Two segments around a CPU Pad, the second reading the first's result
// directly as well (merging them would not be convex). Once @npu_ca is
// outlined, its result is a call whose key would be its first member's,
// "ca:0", which the file does not have: the range of "ra:0" (scale 1/64,
// zero point -128) must follow the value into @npu_cb, where the argument
// is quantised with it: 32768 / 3.984375 = 8224 (in fp16), rescaled to
// scale 1/64.
// CHECK-LABEL: func.func @two_segments
// CHECK: %[[A:.+]] = call @npu_ca(%arg0)
// CHECK: %[[P:.+]] = "tf.Pad"(%[[A]]
// CHECK: call @npu_cb(%[[P]], %[[A]])
// CHECK-LABEL: func.func private @npu_ca
// CHECK-LABEL: func.func private @npu_cb
// CHECK-SAME: (%[[PAD:.+]]: tensor<1x6x6x4xf32>, %[[R:.+]]: tensor<1x4x4x4xf32>)
// CHECK: npu.convert %[[R]]
// CHECK: arith.constant dense<8.224000e+03> : tensor<1xf16>
// CHECK: npu.rescale {{.*}} -> tensor<1x4x4x4x!quant.uniform<i8:f32, 1.562500e-02:-128>>
// CHECK: npu.add
// CHECK-SAME: -> tensor<1x4x4x4x!quant.uniform<i8:f32, 6.250000e-02>>
func.func @two_segments(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    attributes {tf.entry_function = {inputs = "x", outputs = "add"}} {
  %w = "tf.Const"() {value = dense<0.25> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32> loc("w")
  %w2 = "tf.Const"() {value = dense<0.125> : tensor<3x3x4x4xf32>} : () -> tensor<3x3x4x4xf32> loc("w2")
  %pads = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32> loc("pads")
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x4x4x4xf32> loc("ca")
  %1 = "tf.Relu"(%0) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("ra")
  %2 = "tf.Pad"(%1, %pads) : (tensor<1x4x4x4xf32>, tensor<4x2xi32>) -> tensor<1x6x6x4xf32> loc("pad")
  %3 = "tf.Conv2D"(%2, %w2) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x6x6x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x4x4x4xf32> loc("cb")
  %4 = "tf.AddV2"(%3, %1) : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("add")
  return %4 : tensor<1x4x4x4xf32>
}

// -----

// A channel of near-zero weights (mobileface has such channels): max|w| /
// 127 would make the requantisation multiplier (input scale * weight scale
// / output scale) 1e-20 / 127 * 2, below VEC_REQUANT's 2^-32, which the
// verifier rejects. The channel's scale is raised to 2^-31 * output scale /
// input scale = 2^-31 * (1/64) / (1/128) = 2^-30, and its weights round
// to 0.
// CHECK-LABEL: func.func private @npu_conv
// CHECK: arith.constant dense<{{\[\[\[\[}}127, 0], [64, 0], [-127, 0], [32, 0]]]]> : tensor<1x1x4x2xi8>
// CHECK: quant.uniform<i8:f32:3, {0.003937007874015748,9.3132257461547852E-10}>
// CHECK: npu.conv2d
func.func @tiny_channel(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x2xf32>
    attributes {tf.entry_function = {inputs = "x", outputs = "relu"}} {
  %w = "tf.Const"() {value = dense<[[[[0.5, 1.0e-20], [0.25, -1.0e-20], [-0.5, 0.5e-20], [0.125, 0.0]]]]> : tensor<1x1x4x2xf32>} : () -> tensor<1x1x4x2xf32> loc("w")
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x4xf32>, tensor<1x1x4x2xf32>) -> tensor<1x4x4x2xf32> loc("conv")
  %1 = "tf.Relu"(%0) : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("relu")
  return %1 : tensor<1x4x4x2xf32>
}

// -----

// Maximum with a constant (mobileface's PReLU has Maximum(x, 0)): the
// constant, quantised with the output's type, is built before the
// npu.maximum that reads it (it was built after it, which the verifier
// rejected: "operand #1 does not dominate this use").
// CHECK-LABEL: func.func private @npu_cm
// CHECK: %[[Z:.+]] = quant.scast {{.*}} to tensor<!quant.uniform<i8:f32, 1.562500e-02:-128>>
// CHECK: npu.maximum %{{.+}}, %[[Z]]
func.func @maximum_constant(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    attributes {tf.entry_function = {inputs = "x", outputs = "mx"}} {
  %w = "tf.Const"() {value = dense<0.25> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32> loc("w")
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32> loc("zero")
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x4x4x4xf32> loc("cm")
  %1 = "tf.Maximum"(%0, %zero) : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32> loc("mx")
  return %1 : tensor<1x4x4x4xf32>
}

// -----

// The stacked nearest up-sampling of an FPN (ssd320fpnlite): its two Packs
// and its Reshape each build the one rank-4 npu.resize_nearest, which takes
// the result's quantisation with its own shape (the Packs' rank-5 shapes
// failed the verifier: "input and output must be NHWC").
// CHECK-LABEL: func.func private @npu_cu
// CHECK: npu.resize_nearest {{.*}} -> tensor<1x8x8x4x!quant.uniform<i8:f32, 1.562500e-02:-128>>
// CHECK-NOT: tensor<1x4x4x2x4x!quant
func.func @stacked_upsampling(%x: tensor<1x4x4x4xf32>) -> tensor<1x8x8x4xf32>
    attributes {tf.entry_function = {inputs = "x", outputs = "rs"}} {
  %w = "tf.Const"() {value = dense<0.25> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32> loc("w")
  %shape = "tf.Const"() {value = dense<[1, 8, 8, 4]> : tensor<4xi32>} : () -> tensor<4xi32> loc("shape")
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x4x4x4xf32> loc("cu")
  %1 = "tf.Relu"(%0) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("ru")
  %2 = "tf.Pack"(%1, %1) {axis = 3 : i64} : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x2x4xf32> loc("p1")
  %3 = "tf.Pack"(%2, %2) {axis = 2 : i64} : (tensor<1x4x4x2x4xf32>, tensor<1x4x4x2x4xf32>) -> tensor<1x4x2x4x2x4xf32> loc("p2")
  %4 = "tf.Reshape"(%3, %shape) : (tensor<1x4x2x4x2x4xf32>, tensor<4xi32>) -> tensor<1x8x8x4xf32> loc("rs")
  return %4 : tensor<1x8x8x4xf32>
}
