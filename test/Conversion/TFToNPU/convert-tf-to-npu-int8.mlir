// RUN: kiln-opt %s --convert-tf-to-npu="precision=int8 calibration-file=%S/Inputs/int8-ranges.json" -split-input-file | FileCheck %s

// int8 segments from calibrated ranges (Inputs/int8-ranges.json): scale =
// (max - min) / 255 of the range widened to hold 0, zero point
// round(-128 - min / scale).

// A convolution with bias and Relu. The argument (named `x` by
// tf.entry_function, range [0, 255/128]) is quantised on the NPU: f32 ->
// f16, times 16448 (32768 / 1.9921875 rounded to f16), f16 -> i32 read with
// scale 1/16448, rescaled to scale 1/128, zero point -128. Weights are
// per output channel, scale max|w|/127 (0.5/127 and 0.25/127), stored
// round(w / scale); the bias is round(b / (1/128 * weight scale)): 0.25 ->
// 8128, -0.5 -> -32512. Relu (range [0, 255/64]) is the clamp at the output
// zero point, and the result is dequantised: i8 -> f16, - (-128), * 1/64,
// f16 -> f32.
// CHECK-LABEL: func.func private @npu_conv
// CHECK-SAME: kiln.npu_nodes = ["conv", "bias", "relu"]
// CHECK: %[[H:.+]] = npu.convert %arg0 : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf16>
// CHECK: %[[C:.+]] = arith.constant dense<1.644800e+04> : tensor<1xf16>
// CHECK: %[[M:.+]] = npu.mul %[[H]], %[[C]]
// CHECK: %[[I:.+]] = npu.convert %[[M]] : (tensor<1x4x4x4xf16>) -> tensor<1x4x4x4xi32>
// CHECK: %[[IQ:.+]] = quant.scast %[[I]] : tensor<1x4x4x4xi32> to tensor<1x4x4x4x!quant.uniform<i32:f32, 6.0797665369649806E-5>>
// CHECK: %[[Q:.+]] = npu.rescale %[[IQ]] : {{.*}} -> tensor<1x4x4x4x!quant.uniform<i8:f32, 7.812500e-03:-128>>
// CHECK: %[[WI:.+]] = arith.constant dense<{{\[\[\[\[}}127, -127], [64, 64], [-127, 32], [32, 127]]]]> : tensor<1x1x4x2xi8>
// CHECK: %[[W:.+]] = quant.scast %[[WI]] : tensor<1x1x4x2xi8> to tensor<1x1x4x2x!quant.uniform<i8:f32:3, {0.003937007874015748,0.001968503937007874}>>
// CHECK: %[[B:.+]] = arith.constant dense<[8128, -32512]> : tensor<2xi32>
// CHECK: %[[Y:.+]] = npu.conv2d %[[Q]], %[[W]], %[[B]] {clamp_min = -128 : i64, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}
// CHECK-SAME: -> tensor<1x4x4x2x!quant.uniform<i8:f32, 1.562500e-02:-128>>
// CHECK: %[[S:.+]] = quant.scast %[[Y]] : tensor<1x4x4x2x!quant.uniform<i8:f32, 1.562500e-02:-128>> to tensor<1x4x4x2xi8>
// CHECK: %[[F:.+]] = npu.convert %[[S]] : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf16>
// CHECK: %[[Z:.+]] = arith.constant dense<-1.280000e+02> : tensor<1xf16>
// CHECK: %[[D:.+]] = npu.sub %[[F]], %[[Z]]
// CHECK: %[[SC:.+]] = arith.constant dense<1.562500e-02> : tensor<1xf16>
// CHECK: %[[R:.+]] = npu.mul %[[D]], %[[SC]]
// CHECK: %[[O:.+]] = npu.convert %[[R]] : (tensor<1x4x4x2xf16>) -> tensor<1x4x4x2xf32>
// CHECK: return %[[O]]
func.func @conv_bias_relu(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x2xf32>
    attributes {tf.entry_function = {inputs = "x", outputs = "relu"}} {
  %w = "tf.Const"() {value = dense<[[[[0.5, -0.25], [0.25, 0.125], [-0.5, 0.0625], [0.125, 0.25]]]]> : tensor<1x1x4x2xf32>} : () -> tensor<1x1x4x2xf32> loc("w")
  %b = "tf.Const"() {value = dense<[0.25, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32> loc("b")
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x4xf32>, tensor<1x1x4x2xf32>) -> tensor<1x4x4x2xf32> loc("conv")
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32> loc("bias")
  %2 = "tf.Relu"(%1) : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> loc("relu")
  return %2 : tensor<1x4x4x2xf32>
}

// -----

// Depthwise with Relu6: per-channel weights along axis 2 of [kh][kw][C][1];
// Relu6 (range [0, 255/32]) clamps to [zp, zp + round(6 / scale)] =
// [-128, 64].
// CHECK-LABEL: func.func private @npu_dw
// CHECK: quant.scast %{{.+}} : tensor<1x1x4x1xi8> to tensor<1x1x4x1x!quant.uniform<i8:f32:2, {0.003937007874015748,0.0078740157480314959,0.011811023622047244,0.015748031496062992}>>
// CHECK: npu.depthwise_conv2d {{.*}} {clamp_max = 64 : i64, clamp_min = -128 : i64,
// CHECK-SAME: -> tensor<1x4x4x4x!quant.uniform<i8:f32, 3.125000e-02:-128>>
func.func @depthwise_relu6(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = "tf.Const"() {value = dense<[[[[0.5], [1.0], [1.5], [-2.0]]]]> : tensor<1x1x4x1xf32>} : () -> tensor<1x1x4x1xf32> loc("w")
  %0 = "tf.DepthwiseConv2dNative"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x4xf32>, tensor<1x1x4x1xf32>) -> tensor<1x4x4x4xf32> loc("dw")
  %1 = "tf.Relu6"(%0) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("relu6")
  return %1 : tensor<1x4x4x4xf32>
}

// -----

// MatMul: weights per column (axis 1 of [K][N]); no activation, so no clamp.
// The output range [-2, 255/128 - 2] has scale 1/64 and zero point 0.
// CHECK-LABEL: func.func private @npu_fc
// CHECK: quant.scast %{{.+}} : tensor<4x2xi8> to tensor<4x2x!quant.uniform<i8:f32:1, {0.0078740157480314959,0.003937007874015748}>>
// CHECK: npu.fully_connected
// CHECK-NOT: clamp
// CHECK-SAME: -> tensor<1x2x!quant.uniform<i8:f32, 1.562500e-02>>
func.func @matmul(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %w = "tf.Const"() {value = dense<[[1.0, 0.5], [-1.0, 0.25], [0.5, -0.5], [0.0, 0.125]]> : tensor<4x2xf32>} : () -> tensor<4x2xf32> loc("w")
  %0 = "tf.MatMul"(%x, %w) : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32> loc("fc")
  return %0 : tensor<1x2xf32>
}

// -----

// Add of two activations has its own output quantisation (range [-4,
// 255/32 - 4]: scale 1/32, zero point 0); a Relu6 that follows no
// convolution is a table from the add's quantisation to its own ([0, 6]).
// Both arguments are quantised at the boundary.
// CHECK-LABEL: func.func private @npu_add
// CHECK-COUNT-2: npu.rescale
// CHECK: %[[A:.+]] = npu.add %{{.+}}, %{{.+}} : (tensor<1x2x2x16x!quant.uniform<i8:f32, 7.812500e-03:-128>>, tensor<1x2x2x16x!quant.uniform<i8:f32, 7.812500e-03>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 3.125000e-02>>
// CHECK: npu.table %[[A]] {table = array<i8: -128, -128,
// CHECK-SAME: -> tensor<1x2x2x16x!quant.uniform<i8:f32, 0.023529411764705882:-128>>
func.func @add_relu6(%x: tensor<1x2x2x16xf32>, %y: tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32> {
  %0 = "tf.AddV2"(%x, %y) : (tensor<1x2x2x16xf32>, tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32> loc("add")
  %1 = "tf.Relu6"(%0) : (tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32> loc("r6")
  return %1 : tensor<1x2x2x16xf32>
}

// -----

// Sigmoid and Tanh run in int8 only, as tables with TFLite's fixed output
// quantisation (1/256 with zero point -128, 1/128 with 0); they need no
// range of their own.
// CHECK-LABEL: func.func @sigmoid_tanh
// CHECK-NEXT: call @npu_sig
// CHECK-LABEL: func.func private @npu_sig
// CHECK: npu.table {{.*}} -> tensor<1x4x4x4x!quant.uniform<i8:f32, 3.906250e-03:-128>>
// CHECK: npu.table {{.*}} -> tensor<1x4x4x4x!quant.uniform<i8:f32, 7.812500e-03>>
func.func @sigmoid_tanh(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = "tf.Sigmoid"(%x) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("sig")
  %1 = "tf.Tanh"(%0) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("tanh")
  return %1 : tensor<1x4x4x4xf32>
}

// -----

// Max and average pooling (and Mean, an average pool) keep their input's
// quantisation; no range is needed for their results.
// CHECK-LABEL: func.func private @npu_pool
// CHECK: npu.max_pool2d {{.*}} -> tensor<1x2x2x4x!quant.uniform<i8:f32, 7.812500e-03:-128>>
// CHECK: npu.avg_pool2d {{.*}} -> tensor<1x1x1x4x!quant.uniform<i8:f32, 7.812500e-03:-128>>
func.func @pool_mean(%x: tensor<1x4x4x4xf32>) -> tensor<1x1x1x4xf32> {
  %axes = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32> loc("axes")
  %0 = "tf.MaxPool"(%x) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32> loc("pool")
  %1 = "tf.Mean"(%0, %axes) {keep_dims = true} : (tensor<1x2x2x4xf32>, tensor<2xi32>) -> tensor<1x1x1x4xf32> loc("mean")
  return %1 : tensor<1x1x1x4xf32>
}

// -----

// Minimum compares stored values: both operands are rescaled to the
// result's quantisation (range [-0.5, 0.49609375]: scale 1/256, zero
// point 0).
// CHECK-LABEL: func.func private @npu_min
// CHECK: %[[L:.+]] = npu.rescale %{{.+}} : (tensor<1x2x2x16x!quant.uniform<i8:f32, 7.812500e-03:-128>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 3.906250e-03>>
// CHECK: %[[R:.+]] = npu.rescale %{{.+}} : (tensor<1x2x2x16x!quant.uniform<i8:f32, 7.812500e-03>>) -> tensor<1x2x2x16x!quant.uniform<i8:f32, 3.906250e-03>>
// CHECK: npu.minimum %[[L]], %[[R]] : {{.*}} -> tensor<1x2x2x16x!quant.uniform<i8:f32, 3.906250e-03>>
func.func @minimum(%x: tensor<1x2x2x16xf32>, %y: tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32> {
  %0 = "tf.Minimum"(%x, %y) : (tensor<1x2x2x16xf32>, tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32> loc("min")
  return %0 : tensor<1x2x2x16xf32>
}
