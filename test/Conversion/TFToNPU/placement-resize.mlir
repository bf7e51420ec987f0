// RUN: kiln-opt %s --convert-tf-to-npu="remarks analyze-only" -split-input-file -verify-diagnostics
// RUN: kiln-opt %s --convert-tf-to-npu -split-input-file | FileCheck %s

// Up-sampling on the NPU: ResizeBilinear 2x with half-pixel centres,
// ResizeNearestNeighbor by integer factors, and the TF Object Detection
// API's stacked nearest-neighbour up-sampling (Pack, Pack, Reshape), which
// becomes one npu.resize_nearest. Other settings stay on the CPU with a
// reason, and the ops around them form separate segments.

// CHECK-LABEL: func.func @bilinear
// CHECK: call @npu_Conv2D
// CHECK-NOT: tf.ResizeBilinear
// CHECK-LABEL: func.func private @npu_Conv2D
// CHECK: npu.conv2d
// CHECK: npu.resize_bilinear %{{.*}} : (tensor<1x4x6x16xf16>) -> tensor<1x8x12x16xf16>
// CHECK: npu.add
func.func @bilinear(%x: tensor<1x4x6x16xf32>, %y: tensor<1x8x12x16xf32>) -> tensor<1x8x12x16xf32> {
  %w = "tf.Const"() {value = dense<0.5> : tensor<1x1x16x16xf32>} : () -> tensor<1x1x16x16xf32>
  %size = "tf.Const"() {value = dense<[8, 12]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x6x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x4x6x16xf32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %1 = "tf.ResizeBilinear"(%0, %size) {align_corners = false, half_pixel_centers = true} : (tensor<1x4x6x16xf32>, tensor<2xi32>) -> tensor<1x8x12x16xf32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %2 = "tf.AddV2"(%1, %y) : (tensor<1x8x12x16xf32>, tensor<1x8x12x16xf32>) -> tensor<1x8x12x16xf32>
  return %2 : tensor<1x8x12x16xf32>
}

// -----

// CHECK-LABEL: func.func private @npu_ResizeNearestNeighbor
// CHECK: npu.resize_nearest %{{.*}} {scale = array<i64: 3, 2>} : (tensor<1x4x6x8xf16>) -> tensor<1x12x12x8xf16>
func.func @nearest(%x: tensor<1x4x6x8xf32>) -> tensor<1x12x12x8xf32> {
  %size = "tf.Const"() {value = dense<[12, 12]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-remark @+1 {{NPU (@npu_ResizeNearestNeighbor)}}
  %0 = "tf.ResizeNearestNeighbor"(%x, %size) {align_corners = false, half_pixel_centers = true} : (tensor<1x4x6x8xf32>, tensor<2xi32>) -> tensor<1x12x12x8xf32>
  return %0 : tensor<1x12x12x8xf32>
}

// -----

// The three ops of the pattern build the same npu.resize_nearest; one is
// left in the segment.
// CHECK-LABEL: func.func @stacked
// CHECK-NOT: tf.Pack
// CHECK-NOT: tf.Reshape
// CHECK-LABEL: func.func private @npu_Conv2D
// CHECK: npu.conv2d
// CHECK: npu.resize_nearest %{{.*}} {scale = array<i64: 2, 2>} : (tensor<1x5x5x16xf16>) -> tensor<1x10x10x16xf16>
// CHECK-NOT: npu.resize_nearest
// CHECK: npu.add
func.func @stacked(%x: tensor<1x5x5x16xf32>, %y: tensor<1x10x10x16xf32>) -> tensor<1x10x10x16xf32> {
  %w = "tf.Const"() {value = dense<0.5> : tensor<1x1x16x16xf32>} : () -> tensor<1x1x16x16xf32>
  %shape = "tf.Const"() {value = dense<[1, 10, 10, 16]> : tensor<4xi32>} : () -> tensor<4xi32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x5x5x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x5x5x16xf32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %1 = "tf.Pack"(%0, %0) {axis = 3 : i64} : (tensor<1x5x5x16xf32>, tensor<1x5x5x16xf32>) -> tensor<1x5x5x2x16xf32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %2 = "tf.Pack"(%1, %1) {axis = 2 : i64} : (tensor<1x5x5x2x16xf32>, tensor<1x5x5x2x16xf32>) -> tensor<1x5x2x5x2x16xf32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %3 = "tf.Reshape"(%2, %shape) : (tensor<1x5x2x5x2x16xf32>, tensor<4xi32>) -> tensor<1x10x10x16xf32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %4 = "tf.AddV2"(%3, %y) : (tensor<1x10x10x16xf32>, tensor<1x10x10x16xf32>) -> tensor<1x10x10x16xf32>
  return %4 : tensor<1x10x10x16xf32>
}

// -----

// A stacked copy that something else also reads is not the pattern: its
// Packs and Reshape stay on the CPU.
func.func @stacked_escapes(%x: tensor<1x5x5x16xf32>) -> (tensor<1x10x10x16xf32>, tensor<1x5x5x2x16xf32>) {
  %shape = "tf.Const"() {value = dense<[1, 10, 10, 16]> : tensor<4xi32>} : () -> tensor<4xi32>
  // expected-remark @+1 {{CPU (op): tf.Pack has no npu equivalent}}
  %1 = "tf.Pack"(%x, %x) {axis = 3 : i64} : (tensor<1x5x5x16xf32>, tensor<1x5x5x16xf32>) -> tensor<1x5x5x2x16xf32>
  // expected-remark @+1 {{CPU (op): tf.Pack has no npu equivalent}}
  %2 = "tf.Pack"(%1, %1) {axis = 2 : i64} : (tensor<1x5x5x2x16xf32>, tensor<1x5x5x2x16xf32>) -> tensor<1x5x2x5x2x16xf32>
  // expected-remark @+1 {{CPU (op): tf.Reshape has no npu equivalent}}
  %3 = "tf.Reshape"(%2, %shape) : (tensor<1x5x2x5x2x16xf32>, tensor<4xi32>) -> tensor<1x10x10x16xf32>
  return %3, %1 : tensor<1x10x10x16xf32>, tensor<1x5x5x2x16xf32>
}

// -----

// Resizes the NPU does not do, each with its reason; the convolutions on
// either side land in two segments.
// CHECK-LABEL: func.func @cpu_resizes
// CHECK: call @npu_Conv2D(
// CHECK: "tf.ResizeBilinear"
// CHECK: call @npu_Conv2D_1(
func.func @cpu_resizes(%x: tensor<1x4x4x16xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x12x12x16xf32>, tensor<1x8x8x16xf32>, tensor<1x6x6x16xf32>) {
  %w = "tf.Const"() {value = dense<0.5> : tensor<1x1x16x16xf32>} : () -> tensor<1x1x16x16xf32>
  %s8 = "tf.Const"() {value = dense<8> : tensor<2xi32>} : () -> tensor<2xi32>
  %s12 = "tf.Const"() {value = dense<12> : tensor<2xi32>} : () -> tensor<2xi32>
  %s6 = "tf.Const"() {value = dense<6> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-remark @+1 {{NPU (@npu_Conv2D)}}
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x4x4x16xf32>
  // expected-remark @+1 {{CPU (attribute): align_corners = true: the NPU's up-sampling aligns pixel centres (half_pixel_centers), not corners}}
  %1 = "tf.ResizeBilinear"(%0, %s8) {align_corners = true, half_pixel_centers = false} : (tensor<1x4x4x16xf32>, tensor<2xi32>) -> tensor<1x8x8x16xf32>
  // expected-remark @+1 {{NPU (@npu_Conv2D_1)}}
  %2 = "tf.Conv2D"(%1, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x8x8x16xf32>
  // expected-remark @+1 {{CPU (shape): a bilinear resize by 3x3: the NPU's bilinear up-sampling is 2x}}
  %3 = "tf.ResizeBilinear"(%0, %s12) {half_pixel_centers = true} : (tensor<1x4x4x16xf32>, tensor<2xi32>) -> tensor<1x12x12x16xf32>
  // expected-remark @+1 {{CPU (attribute): half_pixel_centers = false: the NPU's bilinear up-sampling has half-pixel centres}}
  %4 = "tf.ResizeBilinear"(%0, %s8) : (tensor<1x4x4x16xf32>, tensor<2xi32>) -> tensor<1x8x8x16xf32>
  // expected-remark @+1 {{CPU (shape): resizes tensor<1x4x4x16xf32> to tensor<1x6x6x16xf32>: the NPU up-samples NHWC tensors by integer factors}}
  %5 = "tf.ResizeNearestNeighbor"(%0, %s6) : (tensor<1x4x4x16xf32>, tensor<2xi32>) -> tensor<1x6x6x16xf32>
  return %2, %3, %4, %5 : tensor<1x8x8x16xf32>, tensor<1x12x12x16xf32>, tensor<1x8x8x16xf32>, tensor<1x6x6x16xf32>
}

// -----

// One copy of each row and four of each pixel, reshaped to twice the height
// and width, is not an up-sampling: the Reshape splits each row of 4W
// pixels into two.
func.func @stacked_misshaped(%x: tensor<1x5x5x16xf32>) -> tensor<1x10x10x16xf32> {
  %shape = "tf.Const"() {value = dense<[1, 10, 10, 16]> : tensor<4xi32>} : () -> tensor<4xi32>
  // expected-remark @+1 {{CPU (shape): the Reshape of 1x4 stacked copies does not make an up-sampling by them}}
  %1 = "tf.Pack"(%x, %x, %x, %x) {axis = 3 : i64} : (tensor<1x5x5x16xf32>, tensor<1x5x5x16xf32>, tensor<1x5x5x16xf32>, tensor<1x5x5x16xf32>) -> tensor<1x5x5x4x16xf32>
  // expected-remark @+1 {{CPU (shape): the Reshape of 1x4 stacked copies does not make an up-sampling by them}}
  %2 = "tf.Pack"(%1) {axis = 2 : i64} : (tensor<1x5x5x4x16xf32>) -> tensor<1x5x1x5x4x16xf32>
  // expected-remark @+1 {{CPU (shape): the Reshape of 1x4 stacked copies does not make an up-sampling by them}}
  %3 = "tf.Reshape"(%2, %shape) : (tensor<1x5x1x5x4x16xf32>, tensor<4xi32>) -> tensor<1x10x10x16xf32>
  return %3 : tensor<1x10x10x16xf32>
}
