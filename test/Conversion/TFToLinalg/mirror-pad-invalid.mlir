// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file -verify-diagnostics

func.func @reflect_too_large(%x: tensor<2x3xf32>) -> tensor<2x9xf32> {
  %p = "tf.Const"() {value = dense<[[0, 0], [3, 3]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // expected-error @+2 {{failed to legalize operation 'tf.MirrorPad' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.MirrorPad' op cannot be lowered to linalg: paddings 3, 3 in dimension 1 exceed 2 (REFLECT of size 3)}}
  %0 = "tf.MirrorPad"(%x, %p) {mode = "REFLECT"} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

// -----

func.func @runtime_paddings(%x: tensor<2x3xf32>, %p: tensor<2x2xi32>) -> tensor<?x?xf32> {
  // expected-error @+2 {{failed to legalize operation 'tf.MirrorPad' that was explicitly marked illegal}}
  // expected-error @+1 {{'tf.MirrorPad' op cannot be lowered to linalg: paddings operand is not a constant}}
  %0 = "tf.MirrorPad"(%x, %p) {mode = "SYMMETRIC"} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @bad_mode(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %p = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // expected-error @+1 {{'tf.MirrorPad' op requires mode to be REFLECT or SYMMETRIC, got 'EDGE'}}
  %0 = "tf.MirrorPad"(%x, %p) {mode = "EDGE"} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
