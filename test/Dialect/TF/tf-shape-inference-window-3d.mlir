// RUN: kiln-opt %s -split-input-file --tf-shape-inference | FileCheck %s

// Shapes of the 3-D window ops: TensorFlow's SAME (ceil(in / stride)) and
// VALID ((in - effective window) / stride + 1) rules per spatial dimension,
// the filter's last dimension as channels for Conv3D, the input's for the
// pools.

// CHECK-LABEL: func.func @conv3d_pool3d
// CHECK:         "tf.Conv3D"({{.+}}) -> tensor<2x5x4x3x8xf32>
// CHECK:         "tf.Conv3D"({{.+}}) -> tensor<2x2x2x1x4xf32>
// CHECK:         "tf.MaxPool3D"({{.+}}) -> tensor<2x3x2x2x8xf32>
// CHECK:         "tf.AvgPool3D"({{.+}}) -> tensor<2x2x1x1x8xf32>
func.func @conv3d_pool3d(%x: tensor<2x9x7x6x3xf32>, %w: tensor<3x3x3x3x8xf32>, %w2: tensor<2x2x2x3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  // SAME, strides 2: ceil(9/2), ceil(7/2), ceil(6/2).
  %0 = "tf.Conv3D"(%x, %w) {padding = "SAME", strides = [1, 2, 2, 2, 1]} : (tensor<2x9x7x6x3xf32>, tensor<3x3x3x3x8xf32>) -> tensor<*xf32>
  // VALID, window 2 dilated by 3 (effective 4), strides 3, 2, 3:
  // (9-4)/3+1, (7-4)/2+1, (6-4)/3+1.
  %1 = "tf.Conv3D"(%x, %w2) {padding = "VALID", strides = [1, 3, 2, 3, 1], dilations = [1, 3, 3, 3, 1]} : (tensor<2x9x7x6x3xf32>, tensor<2x2x2x3x4xf32>) -> tensor<*xf32>
  // SAME, window 3, strides 2: ceil(5/2), ceil(4/2), ceil(3/2).
  %2 = "tf.MaxPool3D"(%0) {ksize = [1, 3, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 2, 1]} : (tensor<*xf32>) -> tensor<*xf32>
  // VALID, window 2: (3-2)/1+1, (2-2)/2+1, (2-2)/2+1.
  %3 = "tf.AvgPool3D"(%2) {ksize = [1, 2, 2, 2, 1], padding = "VALID", strides = [1, 1, 2, 2, 1]} : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// NCDHW keeps the channels in dimension 1; a dynamic batch stays dynamic.
// CHECK-LABEL: func.func @ncdhw_dynamic_batch
// CHECK:         "tf.AvgPool3D"({{.+}}) -> tensor<?x3x2x2x2xf32>
func.func @ncdhw_dynamic_batch(%x: tensor<?x3x4x4x4xf32>) -> tensor<*xf32> {
  %0 = "tf.AvgPool3D"(%x) {data_format = "NCDHW", ksize = [1, 1, 2, 2, 2], padding = "VALID", strides = [1, 1, 2, 2, 2]} : (tensor<?x3x4x4x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
