// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// The verifiers of the 3-D window ops (Conv3D, MaxPool3D, AvgPool3D) make
// TensorFlow's kernels' checks.

func.func @conv3d_strides_length(%x: tensor<1x4x4x4x2xf32>, %w: tensor<2x2x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Conv3D' op requires strides to have 5 elements, got 4}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x4x2xf32>, tensor<2x2x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv3d_batch_stride(%x: tensor<1x4x4x4x2xf32>, %w: tensor<2x2x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Conv3D' op requires strides to be 1 in the batch and channel dimensions, got [2, 1, 1, 1, 1]}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [2, 1, 1, 1, 1]} : (tensor<1x4x4x4x2xf32>, tensor<2x2x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv3d_dilation_zero(%x: tensor<1x4x4x4x2xf32>, %w: tensor<2x2x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Conv3D' op requires dilations to be positive, got 0}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1, 1], dilations = [1, 0, 1, 1, 1]} : (tensor<1x4x4x4x2xf32>, tensor<2x2x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv3d_channel_dilation_ncdhw(%x: tensor<1x2x4x4x4xf32>, %w: tensor<2x2x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Conv3D' op requires dilations to be 1 in the batch and channel dimensions, got [1, 2, 1, 1, 1]}}
  %0 = "tf.Conv3D"(%x, %w) {data_format = "NCDHW", padding = "VALID", strides = [1, 1, 1, 1, 1], dilations = [1, 2, 1, 1, 1]} : (tensor<1x2x4x4x4xf32>, tensor<2x2x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv3d_padding(%x: tensor<1x4x4x4x2xf32>, %w: tensor<2x2x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Conv3D' op requires padding to be one of "SAME", "VALID", got "EXPLICIT"}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "EXPLICIT", strides = [1, 1, 1, 1, 1]} : (tensor<1x4x4x4x2xf32>, tensor<2x2x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv3d_data_format(%x: tensor<1x4x4x4x2xf32>, %w: tensor<2x2x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Conv3D' op requires data_format to be one of "NDHWC", "NCDHW", got "NHWC"}}
  %0 = "tf.Conv3D"(%x, %w) {data_format = "NHWC", padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x4x4x4x2xf32>, tensor<2x2x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv3d_input_rank(%x: tensor<1x4x4x2xf32>, %w: tensor<2x2x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Conv3D' op requires input to have rank 5, got 'tensor<1x4x4x2xf32>'}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<2x2x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv3d_filter_rank(%x: tensor<1x4x4x4x2xf32>, %w: tensor<2x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Conv3D' op requires filter to have rank 5, got 'tensor<2x2x2x3xf32>'}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x4x4x4x2xf32>, tensor<2x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv3d_channels(%x: tensor<1x4x4x4x3xf32>, %w: tensor<2x2x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Conv3D' op requires the input's 3 channels to be a multiple of the filter's in_channels, got 2}}
  %0 = "tf.Conv3D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x4x4x4x3xf32>, tensor<2x2x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @max_pool3d_ksize_length(%x: tensor<1x4x4x4x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.MaxPool3D' op requires ksize to have 5 elements, got 4}}
  %0 = "tf.MaxPool3D"(%x) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 2, 1]} : (tensor<1x4x4x4x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @max_pool3d_channel_window(%x: tensor<1x4x4x4x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.MaxPool3D' op requires ksize to be 1 in the batch and channel dimensions, got [1, 2, 2, 2, 2]}}
  %0 = "tf.MaxPool3D"(%x) {ksize = [1, 2, 2, 2, 2], padding = "VALID", strides = [1, 2, 2, 2, 1]} : (tensor<1x4x4x4x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @max_pool3d_element(%x: tensor<1x4x4x4x2xf64>) -> tensor<*xf64> {
  // expected-error @+1 {{'tf.MaxPool3D' op operand #0 must be tensor of 16-bit float or bfloat16 type or 32-bit float values}}
  %0 = "tf.MaxPool3D"(%x) {ksize = [1, 2, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 2, 1]} : (tensor<1x4x4x4x2xf64>) -> tensor<*xf64>
  return %0 : tensor<*xf64>
}

// -----

func.func @avg_pool3d_stride_zero(%x: tensor<1x4x4x4x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.AvgPool3D' op requires strides to be positive, got 0}}
  %0 = "tf.AvgPool3D"(%x) {ksize = [1, 2, 2, 2, 1], padding = "VALID", strides = [1, 0, 2, 2, 1]} : (tensor<1x4x4x4x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @avg_pool3d_input_rank(%x: tensor<1x4x4x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.AvgPool3D' op requires input to have rank 5, got 'tensor<1x4x4x2xf32>'}}
  %0 = "tf.AvgPool3D"(%x) {ksize = [1, 2, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 2, 1]} : (tensor<1x4x4x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
