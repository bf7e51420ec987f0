// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file -verify-diagnostics

// 3-D window ops that convert-tf-to-linalg recognizes but cannot lower
// report why.

func.func @conv3d_ncdhw(%x: tensor<1x2x4x4x4xf32>, %w: tensor<2x2x2x2x3xf32>) -> tensor<1x3x3x3x3xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Conv3D' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv3D' op cannot be lowered to linalg: data_format 'NCDHW' (expected NDHWC, the only one TensorFlow's CPU kernels run)}}
  %0 = "tf.Conv3D"(%x, %w) {data_format = "NCDHW", padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x2x4x4x4xf32>, tensor<2x2x2x2x3xf32>) -> tensor<1x3x3x3x3xf32>
  return %0 : tensor<1x3x3x3x3xf32>
}

// -----

func.func @conv3d_grouped(%x: tensor<1x4x4x4x4xf32>, %w: tensor<2x2x2x2x4xf32>) -> tensor<1x3x3x3x4xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Conv3D' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv3D' op cannot be lowered to linalg: grouped or dynamic channels (filter of 2 input channels for an input of 4)}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x4x4x4x4xf32>, tensor<2x2x2x2x4xf32>) -> tensor<1x3x3x3x4xf32>
  return %0 : tensor<1x3x3x3x4xf32>
}

// -----

func.func @max_pool3d_dynamic_depth(%x: tensor<1x?x4x4x2xf32>) -> tensor<1x?x2x2x2xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.MaxPool3D' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.MaxPool3D' op cannot be lowered to linalg: a dynamic spatial size (dimension 1 of the input)}}
  %0 = "tf.MaxPool3D"(%x) {ksize = [1, 2, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 2, 1]} : (tensor<1x?x4x4x2xf32>) -> tensor<1x?x2x2x2xf32>
  return %0 : tensor<1x?x2x2x2xf32>
}

// -----

func.func @avg_pool3d_window_too_large(%x: tensor<1x2x4x4x2xf32>) -> tensor<1x1x2x2x2xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.AvgPool3D' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.AvgPool3D' op cannot be lowered to linalg: a VALID window of 3 over an input of 2 in dimension 1}}
  %0 = "tf.AvgPool3D"(%x) {ksize = [1, 3, 2, 2, 1], padding = "VALID", strides = [1, 1, 2, 2, 1]} : (tensor<1x2x4x4x2xf32>) -> tensor<1x1x2x2x2xf32>
  return %0 : tensor<1x1x2x2x2xf32>
}

// -----

func.func @conv3d_dynamic_filter(%x: tensor<1x4x4x4x2xf32>, %w: tensor<?x2x2x2x3xf32>) -> tensor<1x?x3x3x3xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Conv3D' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv3D' op cannot be lowered to linalg: a dynamic window size (spatial dimension 0)}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x4x4x4x2xf32>, tensor<?x2x2x2x3xf32>) -> tensor<1x?x3x3x3xf32>
  return %0 : tensor<1x?x3x3x3xf32>
}
