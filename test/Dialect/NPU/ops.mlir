// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @conv2d_int8
// CHECK: npu.conv2d %{{.+}}, %{{.+}}, %{{.+}} {clamp_max = 127 : i64, clamp_min = -3 : i64, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>}
// CHECK-SAME: (tensor<1x16x16x8x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<3x3x8x2x!quant.uniform<i8:f32:3, {1.000000e-02,2.000000e-02}>>, tensor<2xi32>) -> tensor<1x8x8x2x!quant.uniform<i8:f32, 2.500000e-01:-3>>
func.func @conv2d_int8(%x: tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5:-3>>,
                       %w: tensor<3x3x8x2x!quant.uniform<i8:f32:3, {0.01, 0.02}>>,
                       %b: tensor<2xi32>) -> tensor<1x8x8x2x!quant.uniform<i8:f32, 0.25:-3>> {
  %0 = npu.conv2d %x, %w, %b {stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>,
                              pad = array<i64: 0, 1, 0, 1>, clamp_min = -3 : i64, clamp_max = 127 : i64}
    : (tensor<1x16x16x8x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x3x8x2x!quant.uniform<i8:f32:3, {0.01, 0.02}>>, tensor<2xi32>)
    -> tensor<1x8x8x2x!quant.uniform<i8:f32, 0.25:-3>>
  return %0 : tensor<1x8x8x2x!quant.uniform<i8:f32, 0.25:-3>>
}

// CHECK-LABEL: func.func @conv2d_f16_dilated
// CHECK: npu.conv2d %{{.+}}, %{{.+}} {clamp_max = 6.000000e+00 : f32, clamp_min = 0.000000e+00 : f32, dilation = array<i64: 2, 2>, pad = array<i64: 2, 2, 2, 2>, stride = array<i64: 1, 1>}
// CHECK-SAME: (tensor<2x8x8x16xf16>, tensor<3x3x16x32xf16>) -> tensor<2x8x8x32xf16>
func.func @conv2d_f16_dilated(%x: tensor<2x8x8x16xf16>, %w: tensor<3x3x16x32xf16>) -> tensor<2x8x8x32xf16> {
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 2, 2>,
                          pad = array<i64: 2, 2, 2, 2>, clamp_min = 0.0 : f32, clamp_max = 6.0 : f32}
    : (tensor<2x8x8x16xf16>, tensor<3x3x16x32xf16>) -> tensor<2x8x8x32xf16>
  return %0 : tensor<2x8x8x32xf16>
}

// CHECK-LABEL: func.func @depthwise_tf_layout
// CHECK: npu.depthwise_conv2d %{{.+}}, %{{.+}}, %{{.+}} {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
// CHECK-SAME: tensor<3x3x4x1x!quant.uniform<i8:f32:2, {1.000000e-01,2.000000e-01,3.000000e-01,4.000000e-01}>>
func.func @depthwise_tf_layout(%x: tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:1>>,
                               %w: tensor<3x3x4x1x!quant.uniform<i8:f32:2, {0.1, 0.2, 0.3, 0.4}>>,
                               %b: tensor<4xi32>) -> tensor<1x8x8x4x!quant.uniform<i8:f32, 1.0:0>> {
  %0 = npu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
    : (tensor<1x8x8x4x!quant.uniform<i8:f32, 0.5:1>>, tensor<3x3x4x1x!quant.uniform<i8:f32:2, {0.1, 0.2, 0.3, 0.4}>>, tensor<4xi32>)
    -> tensor<1x8x8x4x!quant.uniform<i8:f32, 1.0:0>>
  return %0 : tensor<1x8x8x4x!quant.uniform<i8:f32, 1.0:0>>
}

// CHECK-LABEL: func.func @depthwise_f16
// CHECK: npu.depthwise_conv2d %{{.+}}, %{{.+}}, %{{.+}} {{.+}} : (tensor<1x9x9x16xf16>, tensor<3x3x16xf16>, tensor<16xf32>) -> tensor<1x4x4x16xf16>
func.func @depthwise_f16(%x: tensor<1x9x9x16xf16>, %w: tensor<3x3x16xf16>, %b: tensor<16xf32>) -> tensor<1x4x4x16xf16> {
  %0 = npu.depthwise_conv2d %x, %w, %b {stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x9x9x16xf16>, tensor<3x3x16xf16>, tensor<16xf32>) -> tensor<1x4x4x16xf16>
  return %0 : tensor<1x4x4x16xf16>
}

// CHECK-LABEL: func.func @fully_connected
// CHECK: npu.fully_connected %{{.+}}, %{{.+}}, %{{.+}} {clamp_min = -128 : i64} : (tensor<4x64x!quant.uniform<i8:f32, 5.000000e-01:1>>, tensor<64x3x!quant.uniform<i8:f32:1, {1.000000e-02,2.000000e-02,3.000000e-02}>>, tensor<3xi32>) -> tensor<4x3x!quant.uniform<i8:f32, 1.000000e-01:-128>>
func.func @fully_connected(%x: tensor<4x64x!quant.uniform<i8:f32, 0.5:1>>,
                           %w: tensor<64x3x!quant.uniform<i8:f32:1, {0.01, 0.02, 0.03}>>,
                           %b: tensor<3xi32>) -> tensor<4x3x!quant.uniform<i8:f32, 0.1:-128>> {
  %0 = npu.fully_connected %x, %w, %b {clamp_min = -128 : i64}
    : (tensor<4x64x!quant.uniform<i8:f32, 0.5:1>>, tensor<64x3x!quant.uniform<i8:f32:1, {0.01, 0.02, 0.03}>>, tensor<3xi32>)
    -> tensor<4x3x!quant.uniform<i8:f32, 0.1:-128>>
  return %0 : tensor<4x3x!quant.uniform<i8:f32, 0.1:-128>>
}

// CHECK-LABEL: func.func @eltwise_int8
// CHECK: npu.add %{{.+}}, %{{.+}} {clamp_min = 0 : i64} : (tensor<1x4x4x8x!quant.uniform<i8:f32, 5.000000e-01:-1>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 2.500000e-01:3>>) -> tensor<1x4x4x8x!quant.uniform<i8:f32, 1.000000e+00>>
// CHECK: npu.sub %{{.+}}, %{{.+}} : (tensor<1x4x4x8x!quant.uniform<i8:f32, 5.000000e-01:-1>>, tensor<8x!quant.uniform<i8:f32, 2.500000e-01:3>>)
// CHECK: npu.mul %{{.+}}, %{{.+}} : (tensor<1x4x4x8x!quant.uniform<i8:f32, 5.000000e-01:-1>>, tensor<1x!quant.uniform<i8:f32, 2.500000e-01:3>>)
// CHECK: npu.minimum %{{.+}}, %{{.+}} : (tensor<1x4x4x8x!quant.uniform<i8:f32, 5.000000e-01:-1>>, tensor<1x1x1x8x!quant.uniform<i8:f32, 5.000000e-01:-1>>)
// CHECK: npu.maximum
!a = !quant.uniform<i8:f32, 0.5:-1>
!b = !quant.uniform<i8:f32, 0.25:3>
!o = !quant.uniform<i8:f32, 1.0>
func.func @eltwise_int8(%x: tensor<1x4x4x8x!a>, %y: tensor<1x4x4x8x!b>, %c: tensor<8x!b>,
                        %s: tensor<1x!b>, %m: tensor<1x1x1x8x!a>) -> tensor<1x4x4x8x!a> {
  %0 = npu.add %x, %y {clamp_min = 0 : i64} : (tensor<1x4x4x8x!a>, tensor<1x4x4x8x!b>) -> tensor<1x4x4x8x!o>
  %1 = npu.sub %x, %c : (tensor<1x4x4x8x!a>, tensor<8x!b>) -> tensor<1x4x4x8x!o>
  %2 = npu.mul %x, %s : (tensor<1x4x4x8x!a>, tensor<1x!b>) -> tensor<1x4x4x8x!o>
  %3 = npu.minimum %x, %m : (tensor<1x4x4x8x!a>, tensor<1x1x1x8x!a>) -> tensor<1x4x4x8x!a>
  %4 = npu.maximum %3, %x : (tensor<1x4x4x8x!a>, tensor<1x4x4x8x!a>) -> tensor<1x4x4x8x!a>
  return %4 : tensor<1x4x4x8x!a>
}

// CHECK-LABEL: func.func @eltwise_f16
// CHECK: npu.add %{{.+}}, %{{.+}} : (tensor<3x32xf16>, tensor<32xf16>) -> tensor<3x32xf16>
func.func @eltwise_f16(%x: tensor<3x32xf16>, %c: tensor<32xf16>) -> tensor<3x32xf16> {
  %0 = npu.add %x, %c : (tensor<3x32xf16>, tensor<32xf16>) -> tensor<3x32xf16>
  return %0 : tensor<3x32xf16>
}

// CHECK-LABEL: func.func @pooling
// CHECK: npu.max_pool2d %{{.+}} {clamp_max = 100 : i64, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x8x16x!quant.uniform<i8:f32, 5.000000e-01:-1>>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 5.000000e-01:-1>>
// CHECK: npu.avg_pool2d %{{.+}} {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x16xf16>) -> tensor<1x4x4x16xf16>
// CHECK: npu.sum_pool2d %{{.+}} {{.+}} : (tensor<1x8x8x16x!quant.uniform<i8:f32, 5.000000e-01:-1>>) -> tensor<1x1x1x16xi32>
func.func @pooling(%x: tensor<1x8x8x16x!a>, %f: tensor<1x8x8x16xf16>)
    -> (tensor<1x4x4x16x!a>, tensor<1x4x4x16xf16>, tensor<1x1x1x16xi32>) {
  %0 = npu.max_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>, clamp_max = 100 : i64}
    : (tensor<1x8x8x16x!a>) -> tensor<1x4x4x16x!a>
  %1 = npu.avg_pool2d %f {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf16>) -> tensor<1x4x4x16xf16>
  %2 = npu.sum_pool2d %x {kernel = array<i64: 8, 8>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16x!a>) -> tensor<1x1x1x16xi32>
  return %0, %1, %2 : tensor<1x4x4x16x!a>, tensor<1x4x4x16xf16>, tensor<1x1x1x16xi32>
}

// CHECK-LABEL: func.func @unary
// CHECK: npu.rescale %{{.+}} {clamp_min = 0 : i64} : (tensor<1x4x4x16x!quant.uniform<i32:f32, 1.000000e-03>>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 1.000000e-01:-128>>
// CHECK: npu.table %{{.+}} {table = array<i8: -128, -127
// CHECK-SAME: 126, 127>}
// CHECK: npu.clamp %{{.+}} {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32} : (tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
// CHECK: npu.clamp %{{.+}} {max = 1000 : i64, min = -1000 : i64} : (tensor<4x16xi32>) -> tensor<4x16xi32>
// CHECK: npu.convert %{{.+}} : (tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf32>
!acc = !quant.uniform<i32:f32, 0.001>
!q = !quant.uniform<i8:f32, 0.1:-128>
func.func @unary(%a: tensor<1x4x4x16x!acc>, %f: tensor<1x4x4x16xf16>, %i: tensor<4x16xi32>)
    -> (tensor<1x4x4x16x!q>, tensor<1x4x4x16xf16>, tensor<4x16xi32>, tensor<1x4x4x16xf32>) {
  %0 = npu.rescale %a {clamp_min = 0 : i64} : (tensor<1x4x4x16x!acc>) -> tensor<1x4x4x16x!q>
  %1 = npu.table %0 {table = array<i8: -128, -127, -126, -125, -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113, -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101, -100, -99, -98, -97, -96, -95, -94, -93, -92, -91, -90, -89, -88, -87, -86, -85, -84, -83, -82, -81, -80, -79, -78, -77, -76, -75, -74, -73, -72, -71, -70, -69, -68, -67, -66, -65, -64, -63, -62, -61, -60, -59, -58, -57, -56, -55, -54, -53, -52, -51, -50, -49, -48, -47, -46, -45, -44, -43, -42, -41, -40, -39, -38, -37, -36, -35, -34, -33, -32, -31, -30, -29, -28, -27, -26, -25, -24, -23, -22, -21, -20, -19, -18, -17, -16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127>}
    : (tensor<1x4x4x16x!q>) -> tensor<1x4x4x16x!q>
  %2 = npu.clamp %f {min = 0.0 : f32, max = 6.0 : f32} : (tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  %3 = npu.clamp %i {min = -1000 : i64, max = 1000 : i64} : (tensor<4x16xi32>) -> tensor<4x16xi32>
  %4 = npu.convert %2 : (tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf32>
  return %1, %2, %3, %4 : tensor<1x4x4x16x!q>, tensor<1x4x4x16xf16>, tensor<4x16xi32>, tensor<1x4x4x16xf32>
}

// CHECK-LABEL: func.func @pool_default_lmem
// CHECK: npu.max_pool2d
func.func @pool_default_lmem(%x: tensor<1x100x100x16xf16>) -> tensor<1x1x100x16xf16> {
  %0 = npu.max_pool2d %x {kernel = array<i64: 100, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x100x100x16xf16>) -> tensor<1x1x100x16xf16>
  return %0 : tensor<1x1x100x16xf16>
}

// CHECK: module attributes {npu.target = #npu.target<"realistic">}
// CHECK: func.func @with_target
// CHECK: npu.convert %{{.+}} : (tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf32>
module attributes {npu.target = #npu.target<"realistic">} {
  func.func @with_target(%x: tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf32> {
    %0 = npu.convert %x : (tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf32>
    return %0 : tensor<1x8x8x16xf32>
  }
}
