// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file -verify-diagnostics

// Window gradients that convert-tf-to-linalg recognizes but cannot lower
// report why.

func.func @backprop_filter_nchw(%x: tensor<1x3x8x8xf32>, %dy: tensor<1x4x8x8xf32>) -> tensor<3x3x3x4xf32> {
  %sizes = "tf.Const"() {value = dense<[3, 3, 3, 4]> : tensor<4xi32>} : () -> tensor<4xi32>
  // expected-error @+2 {{failed to legalize operation 'tf.Conv2DBackpropFilter' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.Conv2DBackpropFilter' op cannot be lowered to linalg: data_format NCHW}}
  %0 = "tf.Conv2DBackpropFilter"(%x, %sizes, %dy) {data_format = "NCHW", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4xi32>, tensor<1x4x8x8xf32>) -> tensor<3x3x3x4xf32>
  return %0 : tensor<3x3x3x4xf32>
}

// -----

func.func @max_pool_grad_dynamic(%x: tensor<?x4x4x1xf32>, %y: tensor<?x2x2x1xf32>, %dy: tensor<?x2x2x1xf32>) -> tensor<?x4x4x1xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.MaxPoolGrad' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.MaxPoolGrad' op cannot be lowered to linalg: dynamic shapes}}
  %0 = "tf.MaxPoolGrad"(%x, %y, %dy) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<?x4x4x1xf32>, tensor<?x2x2x1xf32>, tensor<?x2x2x1xf32>) -> tensor<?x4x4x1xf32>
  return %0 : tensor<?x4x4x1xf32>
}

// -----

func.func @max_pool_grad_int(%x: tensor<1x4x4x1xi32>, %y: tensor<1x2x2x1xi32>, %dy: tensor<1x2x2x1xi32>) -> tensor<1x4x4x1xi32> {
  // expected-error @+2 {{failed to legalize operation 'tf.MaxPoolGrad' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.MaxPoolGrad' op cannot be lowered to linalg: }}
  %0 = "tf.MaxPoolGrad"(%x, %y, %dy) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x1xi32>, tensor<1x2x2x1xi32>, tensor<1x2x2x1xi32>) -> tensor<1x4x4x1xi32>
  return %0 : tensor<1x4x4x1xi32>
}
