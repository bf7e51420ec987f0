// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file | FileCheck %s

// Conv3D: TensorFlow's SAME padding as a tensor.pad of zeros and
// linalg.conv_3d_ndhwc_dhwcf on TensorFlow's own filter layout, strides and
// dilations over D, H, W. With a 3x3x3 window, the depth (5, stride 1) and
// width (7, stride 1) pad 1 on each side; the height (6, stride 2, output 3)
// pads (3-1)*2 + 3 - 6 = 1 in all, after.

// CHECK-LABEL: func.func @conv3d_same
// CHECK-SAME: (%[[X:.+]]: tensor<1x5x6x7x2xf32>, %[[W:.+]]: tensor<3x3x3x2x4xf32>)
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 1, 0, 1, 0] high[0, 1, 1, 1, 0]
// CHECK: tensor.yield %{{.+}} : f32
// CHECK: } : tensor<1x5x6x7x2xf32> to tensor<1x7x7x9x2xf32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x5x3x7x4xf32>)
// CHECK: %[[R:.+]] = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<1> : tensor<3xi64>, strides = dense<[1, 2, 1]> : tensor<3xi64>} ins(%[[XP]], %[[W]] : tensor<1x7x7x9x2xf32>, tensor<3x3x3x2x4xf32>) outs(%[[INIT]] : tensor<1x5x3x7x4xf32>)
// CHECK: return %[[R]]
func.func @conv3d_same(%x: tensor<1x5x6x7x2xf32>, %w: tensor<3x3x3x2x4xf32>) -> tensor<1x5x3x7x4xf32> {
  %0 = "tf.Conv3D"(%x, %w) {padding = "SAME", strides = [1, 1, 2, 1, 1]} : (tensor<1x5x6x7x2xf32>, tensor<3x3x3x2x4xf32>) -> tensor<1x5x3x7x4xf32>
  return %0 : tensor<1x5x3x7x4xf32>
}

// -----

// VALID pads nothing; the dilations and a dynamic batch pass through, f16
// accumulates in f32 and is truncated after.

// CHECK-LABEL: func.func @conv3d_valid_dilated_f16
// CHECK-SAME: (%[[X:.+]]: tensor<?x6x6x6x2xf16>, %[[W:.+]]: tensor<2x2x2x2x3xf16>)
// CHECK-NOT: tensor.pad
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x6x6x6x2xf16>
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[N]]) : tensor<?x4x5x3x3xf32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<?x4x5x3x3xf32>)
// CHECK: %[[C:.+]] = linalg.conv_3d_ndhwc_dhwcf {dilations = dense<[2, 1, 3]> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>} ins(%[[X]], %[[W]] : tensor<?x6x6x6x2xf16>, tensor<2x2x2x2x3xf16>) outs(%[[INIT]] : tensor<?x4x5x3x3xf32>)
// CHECK: linalg.generic
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @conv3d_valid_dilated_f16(%x: tensor<?x6x6x6x2xf16>, %w: tensor<2x2x2x2x3xf16>) -> tensor<?x4x5x3x3xf16> {
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1, 1], dilations = [1, 2, 1, 3, 1]} : (tensor<?x6x6x6x2xf16>, tensor<2x2x2x2x3xf16>) -> tensor<?x4x5x3x3xf16>
  return %0 : tensor<?x4x5x3x3xf16>
}

// -----

// MaxPool3D pads with -inf and starts from -inf, as TensorFlow's 3-D kernel
// does.

// CHECK-LABEL: func.func @max_pool3d_same
// CHECK-SAME: (%[[X:.+]]: tensor<1x5x4x3x8xf32>)
// CHECK: %[[PAD:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 1, 0, 1, 0] high[0, 1, 1, 1, 0]
// CHECK: tensor.yield %[[PAD]] : f32
// CHECK: %[[NEGINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[NEGINF]] : f32) outs(%{{.+}} : tensor<1x3x2x2x8xf32>)
// CHECK: %[[WINDOW:.+]] = tensor.empty() : tensor<3x3x3xf32>
// CHECK: %[[R:.+]] = linalg.pooling_ndhwc_max {dilations = dense<1> : tensor<3xi64>, strides = dense<2> : tensor<3xi64>} ins(%[[XP]], %[[WINDOW]] : tensor<1x7x5x5x8xf32>, tensor<3x3x3xf32>) outs(%[[INIT]] : tensor<1x3x2x2x8xf32>)
// CHECK: return %[[R]]
func.func @max_pool3d_same(%x: tensor<1x5x4x3x8xf32>) -> tensor<1x3x2x2x8xf32> {
  %0 = "tf.MaxPool3D"(%x) {ksize = [1, 3, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 2, 1]} : (tensor<1x5x4x3x8xf32>) -> tensor<1x3x2x2x8xf32>
  return %0 : tensor<1x3x2x2x8xf32>
}

// -----

// AvgPool3D VALID: every window holds 2*2*2 elements, one scalar divisor.

// CHECK-LABEL: func.func @avg_pool3d_valid
// CHECK-NOT: tensor.pad
// CHECK: %[[SUM:.+]] = linalg.pooling_ndhwc_sum {dilations = dense<1> : tensor<3xi64>, strides = dense<2> : tensor<3xi64>} ins(%{{.+}}, %{{.+}} : tensor<1x4x4x4x3xf32>, tensor<2x2x2xf32>) outs(%{{.+}} : tensor<1x2x2x2x3xf32>)
// CHECK: %[[COUNT:.+]] = arith.constant 8.000000e+00 : f32
// CHECK: linalg.generic {{.+}} ins(%[[SUM]] : tensor<1x2x2x2x3xf32>)
// CHECK: arith.divf %{{.+}}, %[[COUNT]] : f32
func.func @avg_pool3d_valid(%x: tensor<1x4x4x4x3xf32>) -> tensor<1x2x2x2x3xf32> {
  %0 = "tf.AvgPool3D"(%x) {ksize = [1, 2, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 2, 1]} : (tensor<1x4x4x4x3xf32>) -> tensor<1x2x2x2x3xf32>
  return %0 : tensor<1x2x2x2x3xf32>
}

// -----

// AvgPool3D SAME: zero padding after each dimension, and a [OD, OH, OW]
// table of the non-padded counts (2*2*2 inside, fewer at the far borders).

// CHECK-DAG: #[[$TABLE:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3)>
// CHECK-LABEL: func.func @avg_pool3d_same
// CHECK: tensor.pad %{{.+}} low[0, 0, 0, 0, 0] high[0, 1, 1, 1, 0]
// CHECK: %[[SUM:.+]] = linalg.pooling_ndhwc_sum
// CHECK-SAME: outs(%{{.+}} : tensor<1x2x2x2x1xf32>)
// CHECK: %[[COUNTS:.+]] = arith.constant dense<{{\[\[\[}}8.000000e+00, 4.000000e+00], [4.000000e+00, 2.000000e+00]], {{\[\[}}4.000000e+00, 2.000000e+00], [2.000000e+00, 1.000000e+00]]]> : tensor<2x2x2xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[$TABLE]], #{{.+}}], {{.+}} ins(%[[SUM]], %[[COUNTS]] : tensor<1x2x2x2x1xf32>, tensor<2x2x2xf32>)
func.func @avg_pool3d_same(%x: tensor<1x3x3x3x1xf32>) -> tensor<1x2x2x2x1xf32> {
  %0 = "tf.AvgPool3D"(%x) {ksize = [1, 2, 2, 2, 1], padding = "SAME", strides = [1, 2, 2, 2, 1]} : (tensor<1x3x3x3x1xf32>) -> tensor<1x2x2x2x1xf32>
  return %0 : tensor<1x2x2x2x1xf32>
}
