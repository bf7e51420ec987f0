// RUN: kiln-opt %s --convert-tf-to-npu="remarks analyze-only" -split-input-file -verify-diagnostics
// RUN: kiln-opt %s --convert-tf-to-npu=analyze-only -split-input-file | FileCheck %s
// CHECK-NOT: npu.
// CHECK-NOT: call

// The placement of each supported op family, and every kind of CPU
// fallback with its reason, as remarks. analyze-only leaves the IR as it is.

func.func @conv_families(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %w = "tf.Const"() {value = dense<0.5> : tensor<3x3x16x16xf32>} : () -> tensor<3x3x16x16xf32>
  %d = "tf.Const"() {value = dense<0.5> : tensor<3x3x16x1xf32>} : () -> tensor<3x3x16x1xf32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %1 = "tf.DepthwiseConv2dNative"(%0, %d) {padding = "EXPLICIT", explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0], strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x8x8x16xf32>
  return %1 : tensor<1x8x8x16xf32>
}

// -----

func.func @matmul(%x: tensor<2x64xf32>) -> (tensor<2x10xf32>, tensor<2x10xf32>) {
  %w = "tf.Const"() {value = dense<0.5> : tensor<64x10xf32>} : () -> tensor<64x10xf32>
  %t = "tf.Const"() {value = dense<0.5> : tensor<10x64xf32>} : () -> tensor<10x64xf32>
  // expected-remark @+1 {{NPU (@npu_MatMul)}}
  %0 = "tf.MatMul"(%x, %w) : (tensor<2x64xf32>, tensor<64x10xf32>) -> tensor<2x10xf32>
  // expected-remark @+1 {{NPU (@npu_MatMul_1)}}
  %1 = "tf.MatMul"(%x, %t) {transpose_b = true} : (tensor<2x64xf32>, tensor<10x64xf32>) -> tensor<2x10xf32>
  return %0, %1 : tensor<2x10xf32>, tensor<2x10xf32>
}

// -----

func.func @eltwise(%x: tensor<1x4x4x16xf32>, %y: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %c = "tf.Const"() {value = dense<0.5> : tensor<16xf32>} : () -> tensor<16xf32>
  %s = "tf.Const"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %0 = "tf.BiasAdd"(%x, %c) : (tensor<1x4x4x16xf32>, tensor<16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %1 = "tf.Add"(%0, %y) : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %2 = "tf.AddV2"(%s, %1) : (tensor<f32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %3 = "tf.Sub"(%2, %c) : (tensor<1x4x4x16xf32>, tensor<16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %4 = "tf.Mul"(%3, %3) : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %5 = "tf.Minimum"(%4, %s) : (tensor<1x4x4x16xf32>, tensor<f32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %6 = "tf.Maximum"(%5, %y) : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %7 = "tf.Square"(%6) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %8 = "tf.Relu"(%7) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_BiasAdd)}}
  %9 = "tf.Relu6"(%8) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %9 : tensor<1x4x4x16xf32>
}

// -----

func.func @pools(%x: tensor<1x8x8x16xf32>) -> tensor<1x1x1x16xf32> {
  %axes = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-remark @+1 {{NPU (@npu_MaxPool)}}
  %0 = "tf.MaxPool"(%x) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{NPU (@npu_MaxPool)}}
  %1 = "tf.AvgPool"(%0) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x16xf32>) -> tensor<1x2x2x16xf32>
  // expected-remark @+1 {{NPU (@npu_MaxPool)}}
  %2 = "tf.Mean"(%1, %axes) {keep_dims = true} : (tensor<1x2x2x16xf32>, tensor<2xi32>) -> tensor<1x1x1x16xf32>
  return %2 : tensor<1x1x1x16xf32>
}

// -----

func.func @op_dtype_shape(%x: tensor<1x4x4x16xf32>, %i: tensor<4xi32>, %d: tensor<?x16xf32>) -> (tensor<1x4x4x16xf32>, tensor<4xi32>, tensor<?x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) {
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %hw = "tf.Const"() {value = dense<1.0> : tensor<4x4x1xf32>} : () -> tensor<4x4x1xf32>
  // expected-remark @+1 {{CPU (op): tf.Sigmoid has no npu equivalent}}
  %0 = "tf.Sigmoid"(%x) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{CPU (dtype): operand #0 element type i32: fp16 mode runs f32 tensors only}}
  %1 = "tf.AddV2"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // expected-remark @+1 {{CPU (shape): operand #0 tensor<?x16xf32> has a dynamic shape}}
  %2 = "tf.Relu"(%d) : (tensor<?x16xf32>) -> tensor<?x16xf32>
  // expected-remark @+1 {{CPU (shape): lhs tensor<f32> broadcasts to tensor<1x4x4x16xf32>: VEC_ELTWISE broadcasts only its second operand}}
  %3 = "tf.Sub"(%one, %x) : (tensor<f32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{CPU (limit): 'npu.mul' op rhs must have lhs's shape, be a per-channel vector of 16 or a single element (VEC_ELTWISE's TENSOR, CHANNEL and SCALAR broadcasts), got 'tensor<4x4x1xf16>'}}
  %4 = "tf.Mul"(%x, %hw) : (tensor<1x4x4x16xf32>, tensor<4x4x1xf32>) -> tensor<1x4x4x16xf32>
  return %0, %1, %2, %3, %4 : tensor<1x4x4x16xf32>, tensor<4xi32>, tensor<?x16xf32>, tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>
}

// -----

func.func @attributes_operands(%x: tensor<1x16x8x8xf32>, %y: tensor<1x8x8x16xf32>, %f: tensor<3x3x16x16xf32>, %a: tensor<64x2xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<2x10xf32>, tensor<1x16xf32>, tensor<1x8x8x16xf32>) {
  %w = "tf.Const"() {value = dense<0.5> : tensor<3x3x16x16xf32>} : () -> tensor<3x3x16x16xf32>
  %big = "tf.Const"() {value = dense<1.0e6> : tensor<3x3x16x16xf32>} : () -> tensor<3x3x16x16xf32>
  %m = "tf.Const"() {value = dense<0.5> : tensor<64x10xf32>} : () -> tensor<64x10xf32>
  %axes = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-remark @+1 {{CPU (attribute): data_format NCHW: the NPU runs NHWC tensors}}
  %0 = "tf.Conv2D"(%x, %w) {data_format = "NCHW", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<3x3x16x16xf32>) -> tensor<1x16x8x8xf32>
  // expected-remark @+1 {{CPU (operand): the filter is not a constant: NPU-v1 reads weights from the stream's constants}}
  %1 = "tf.Conv2D"(%y, %f) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32>
  // expected-remark @+1 {{CPU (dtype): the filter holds 1000000.000000, beyond fp16's range (65504)}}
  %2 = "tf.Conv2D"(%y, %big) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32>
  // expected-remark @+1 {{CPU (attribute): transpose_a: the NPU reads the activations untransposed}}
  %3 = "tf.MatMul"(%a, %m) {transpose_a = true} : (tensor<64x2xf32>, tensor<64x10xf32>) -> tensor<2x10xf32>
  // expected-remark @+1 {{CPU (shape): keep_dims = false drops the pooled dimensions, which no npu op does}}
  %4 = "tf.Mean"(%y, %axes) {keep_dims = false} : (tensor<1x8x8x16xf32>, tensor<2xi32>) -> tensor<1x16xf32>
  // expected-remark @+1 {{CPU (attribute): ksize [1, 1, 1, 2]: the NPU windows only height and width (batch and channel entries must be 1)}}
  %5 = "tf.MaxPool"(%y) {ksize = [1, 1, 1, 2], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x16x8x8xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<2x10xf32>, tensor<1x16xf32>, tensor<1x8x8x16xf32>
}

// -----

// Limits come from the npu verifiers, on the function's target.
func.func @limits(%x: tensor<1x300x1x16xf32>, %wide: tensor<1x3x65536x16xf32>, %y: tensor<1x8x8x16xf32>) -> (tensor<1x1x1x16xf32>, tensor<1x1x65534x16xf32>, tensor<1x8x8x32xf32>) {
  %k = "tf.Const"() {value = dense<0.5> : tensor<300x1x16x16xf32>} : () -> tensor<300x1x16x16xf32>
  %d = "tf.Const"() {value = dense<0.5> : tensor<3x3x16x1xf32>} : () -> tensor<3x3x16x1xf32>
  %m = "tf.Const"() {value = dense<0.5> : tensor<3x3x16x2xf32>} : () -> tensor<3x3x16x2xf32>
  // expected-remark @+1 {{CPU (limit): 'npu.conv2d' op kernel height 300 exceeds the 8-bit 'kh' field (max 255)}}
  %0 = "tf.Conv2D"(%x, %k) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x300x1x16xf32>, tensor<300x1x16x16xf32>) -> tensor<1x1x1x16xf32>
  // expected-remark @+1 {{CPU (limit): 'npu.depthwise_conv2d' op the input rows of one output row (3 rows of width 65536, one channel block) needs 6291456 bytes of LMEM.ACT}}
  %1 = "tf.DepthwiseConv2dNative"(%wide, %d) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x3x65536x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x1x65534x16xf32>
  // expected-remark @+1 {{CPU (limit): 'npu.depthwise_conv2d' op weight must be [kh, kw, C] or [kh, kw, C, 1] (multiplier 1), got 'tensor<3x3x16x2xf16>'}}
  %2 = "tf.DepthwiseConv2dNative"(%y, %m) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x2xf32>) -> tensor<1x8x8x32xf32>
  return %0, %1, %2 : tensor<1x1x1x16xf32>, tensor<1x1x65534x16xf32>, tensor<1x8x8x32xf32>
}

// -----

// Ops in regions stay on the CPU.
func.func @control_flow(%c: tensor<i1>, %x: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  // expected-remark @+1 {{CPU (op): tf.IfRegion has no npu equivalent}}
  %r = "tf.IfRegion"(%c) ({
    // expected-remark @+1 {{CPU (control flow): inside tf.IfRegion: ops in regions stay on the CPU}}
    %0 = "tf.Relu"(%x) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
    "tf.Yield"(%0) : (tensor<1x4x4x16xf32>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<1x4x4x16xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<1x4x4x16xf32>
  return %r : tensor<1x4x4x16xf32>
}

// -----

func.func @more_fallbacks(%y: tensor<1x8x8x16xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x1x16xf32>) {
  %w = "tf.Const"() {value = dense<0.5> : tensor<1x1x16x16xf32>} : () -> tensor<1x1x16x16xf32>
  %huge = "tf.Const"() {value = dense<7.0e4> : tensor<16xf32>} : () -> tensor<16xf32>
  %axis = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-remark @+1 {{CPU (attribute): explicit padding of the batch or channels}}
  %0 = "tf.Conv2D"(%y, %w) {padding = "EXPLICIT", explicit_paddings = [1, 0, 0, 0, 0, 0, 0, 0], strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x8x8x16xf32>
  // expected-remark @+1 {{CPU (attribute): data_format NCHW: the NPU runs NHWC tensors}}
  %1 = "tf.AvgPool"(%y) {data_format = "NCHW", ksize = [1, 1, 1, 1], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  // expected-remark @+1 {{CPU (dtype): constant operand holds 70000.000000, beyond fp16's range (65504)}}
  %2 = "tf.Mul"(%y, %huge) : (tensor<1x8x8x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
  // expected-remark @+1 {{CPU (attribute): a mean over axes other than height and width of an NHWC tensor}}
  %3 = "tf.Mean"(%y, %axis) {keep_dims = true} : (tensor<1x8x8x16xf32>, tensor<1xi32>) -> tensor<1x8x1x16xf32>
  return %0, %1, %2, %3 : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>, tensor<1x8x1x16xf32>
}
