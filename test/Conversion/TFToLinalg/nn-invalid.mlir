// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file -verify-diagnostics

// Neural-network ops that convert-tf-to-linalg recognizes but cannot lower
// report why.

func.func @conv2d_grouped(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x8x8x4xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Conv2D' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv2D' op cannot be lowered to linalg: grouped convolution (filter of 2 input channels for an input of 4)}}
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x8x8x4xf32>
  return %0 : tensor<1x8x8x4xf32>
}

// -----

func.func @conv2d_dynamic_filter(%x: tensor<1x8x8x4xf32>, %w: tensor<?x?x4x4xf32>) -> tensor<1x?x?x4xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Conv2D' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv2D' op cannot be lowered to linalg: dynamic spatial dimensions of the filter}}
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<?x?x4x4xf32>) -> tensor<1x?x?x4xf32>
  return %0 : tensor<1x?x?x4xf32>
}

// -----

func.func @conv2d_explicit_batch_padding(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<3x8x8x4xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Conv2D' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv2D' op cannot be lowered to linalg: explicit padding of the batch or channel dimension}}
  %0 = "tf.Conv2D"(%x, %w) {padding = "EXPLICIT", explicit_paddings = [1, 1, 1, 1, 1, 1, 0, 0], strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<3x8x8x4xf32>
  return %0 : tensor<3x8x8x4xf32>
}

// -----

func.func @conv2d_valid_too_small(%x: tensor<1x2x2x4xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<1x0x0x4xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Conv2D' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv2D' op cannot be lowered to linalg: window of 3 larger than the padded input (2)}}
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x0x0x4xf32>
  return %0 : tensor<1x0x0x4xf32>
}

// -----

// Run-time input_sizes are lowered, but the kernel must be static.
func.func @backprop_input_sizes_not_constant_dynamic_kernel(%sizes: tensor<4xi32>, %w: tensor<?x?x8x16xf32>, %dy: tensor<1x4x4x16xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Conv2DBackpropInput' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv2DBackpropInput' op cannot be lowered to linalg: dynamic spatial dimensions of the filter}}
  %0 = "tf.Conv2DBackpropInput"(%sizes, %w, %dy) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<?x?x8x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

func.func @backprop_wrong_out_backprop(%w: tensor<3x3x8x16xf32>, %dy: tensor<1x3x3x16xf32>) -> tensor<1x8x8x8xf32> {
  %sizes = "tf.Const"() {value = dense<[1, 8, 8, 8]> : tensor<4xi32>} : () -> tensor<4xi32>
  // expected-error @+2 {{failed to legalize operation 'tf.Conv2DBackpropInput' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv2DBackpropInput' op cannot be lowered to linalg: result spatial size 3 differs from the computed 4}}
  %0 = "tf.Conv2DBackpropInput"(%sizes, %w, %dy) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<3x3x8x16xf32>, tensor<1x3x3x16xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

func.func @backprop_explicit_padding_beyond_kernel(%w: tensor<3x3x1x1xf32>, %dy: tensor<1x10x10x1xf32>) -> tensor<1x4x4x1xf32> {
  %sizes = "tf.Const"() {value = dense<[1, 4, 4, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  // expected-error @+2 {{failed to legalize operation 'tf.Conv2DBackpropInput' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv2DBackpropInput' op cannot be lowered to linalg: padding larger than the dilated kernel}}
  %0 = "tf.Conv2DBackpropInput"(%sizes, %w, %dy) {padding = "EXPLICIT", explicit_paddings = [0, 0, 4, 4, 4, 4, 0, 0], strides = [1, 1, 1, 1]} : (tensor<4xi32>, tensor<3x3x1x1xf32>, tensor<1x10x10x1xf32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}

// -----

func.func @max_pool_nchw_vect_c(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.MaxPool' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.MaxPool' op cannot be lowered to linalg: data_format 'NCHW_VECT_C' (expected NHWC or NCHW)}}
  %0 = "tf.MaxPool"(%x) {data_format = "NCHW_VECT_C", ksize = [1, 1, 2, 2], padding = "VALID", strides = [1, 1, 2, 2]} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @max_pool_window_in_padding(%x: tensor<1x4x4x1xf32>) -> tensor<1x8x8x1xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.MaxPool' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.MaxPool' op cannot be lowered to linalg: explicit padding as large as the window}}
  %0 = "tf.MaxPool"(%x) {explicit_paddings = [0, 0, 2, 2, 2, 2, 0, 0], ksize = [1, 1, 1, 1], padding = "EXPLICIT", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>) -> tensor<1x8x8x1xf32>
  return %0 : tensor<1x8x8x1xf32>
}

// -----

func.func @bias_add_nchw_rank5(%x: tensor<1x2x3x4x5xf32>, %b: tensor<3xf32>) -> tensor<1x2x3x4x5xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.BiasAdd' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.BiasAdd' op cannot be lowered to linalg: NCHW value of rank 5 (the shape function's channel dimension, rank - 3, and the kernel's, 1, differ)}}
  %0 = "tf.BiasAdd"(%x, %b) {data_format = "NCHW"} : (tensor<1x2x3x4x5xf32>, tensor<3xf32>) -> tensor<1x2x3x4x5xf32>
  return %0 : tensor<1x2x3x4x5xf32>
}

// -----

func.func @einsum_ellipsis_not_in_output(%x: tensor<2x3x4xf32>, %y: tensor<2x4x5xf32>) -> tensor<3x5xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Einsum' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Einsum' op cannot be lowered to linalg: equation '...ij,...jk->ij': an ellipsis on the operands but not in the output}}
  %0 = "tf.Einsum"(%x, %y) {equation = "...ij,...jk->ij"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @einsum_diagonal(%x: tensor<3x3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Einsum' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Einsum' op cannot be lowered to linalg: equation 'ii->i' (labels must be letters, each once per operand)}}
  %0 = "tf.Einsum"(%x) {equation = "ii->i"} : (tensor<3x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @einsum_size_mismatch(%x: tensor<2x3xf32>, %y: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.Einsum' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Einsum' op cannot be lowered to linalg: label 'j' of sizes 3 and 4}}
  %0 = "tf.Einsum"(%x, %y) {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @batch_matmul_unsigned(%x: tensor<2x3x4xui8>, %y: tensor<2x4x5xui8>) -> tensor<2x3x5xui8> {
  // expected-error @+2 {{failed to legalize operation 'tf.BatchMatMulV2' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.BatchMatMulV2' op cannot be lowered to linalg: element type ui8}}
  %0 = "tf.BatchMatMulV2"(%x, %y) : (tensor<2x3x4xui8>, tensor<2x4x5xui8>) -> tensor<2x3x5xui8>
  return %0 : tensor<2x3x5xui8>
}

// -----

func.func @batch_matmul_mismatch(%x: tensor<2x3x4xf32>, %y: tensor<?x4x5xf32>) -> tensor<3x3x5xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.BatchMatMulV2' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.BatchMatMulV2' op cannot be lowered to linalg: batch dimensions that do not broadcast to the result's}}
  %0 = "tf.BatchMatMulV2"(%x, %y) : (tensor<2x3x4xf32>, tensor<?x4x5xf32>) -> tensor<3x3x5xf32>
  return %0 : tensor<3x3x5xf32>
}

// -----

func.func @matmul_i8(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi8> {
  // expected-error @+2 {{failed to legalize operation 'tf.MatMul' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.MatMul' op cannot be lowered to linalg: element type i8}}
  %0 = "tf.MatMul"(%a, %b) : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

func.func @resize_both_flags(%x: tensor<1x2x2x1xf32>) -> tensor<1x4x4x1xf32> {
  %size = "tf.Const"() {value = dense<4> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-error @+2 {{failed to legalize operation 'tf.ResizeBilinear' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.ResizeBilinear' op cannot be lowered to linalg: align_corners together with half_pixel_centers}}
  %0 = "tf.ResizeBilinear"(%x, %size) {align_corners = true, half_pixel_centers = true} : (tensor<1x2x2x1xf32>, tensor<2xi32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}

// -----

func.func @resize_empty_image(%x: tensor<1x0x2x1xf32>) -> tensor<1x4x4x1xf32> {
  %size = "tf.Const"() {value = dense<4> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-error @+2 {{failed to legalize operation 'tf.ResizeBilinear' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.ResizeBilinear' op cannot be lowered to linalg: image of zero height or width}}
  %0 = "tf.ResizeBilinear"(%x, %size) : (tensor<1x0x2x1xf32>, tensor<2xi32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}

// -----

func.func @resize_size_unranked(%x: tensor<1x2x2x1xf32>, %size: tensor<*xi32>) -> tensor<1x4x4x1xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.ResizeBilinear' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.ResizeBilinear' op cannot be lowered to linalg: size operand not of shape [2]}}
  %0 = "tf.ResizeBilinear"(%x, %size) : (tensor<1x2x2x1xf32>, tensor<*xi32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}
