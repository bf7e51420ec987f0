// RUN: kiln-opt %s -split-input-file --tf-decompose-tensor-arrays -verify-diagnostics

// An array that grows with its writes has no bound on its size.
func.func @dynamic_size(%x: tensor<2xf32>) -> tensor<f32> {
  %n = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorArrayV3' op cannot be decomposed: dynamic_size = true lets the array grow with its writes, and no bound on its size is known}}
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, dynamic_size = true, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %f = "tf.TensorArrayWriteV3"(%h, %n, %x, %flow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
  return %f : tensor<f32>
}

// -----

// Nothing gives the shape of the elements.
func.func @unknown_element(%x: tensor<*xf32>) -> tensor<*xf32> {
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorArrayV3' op cannot be decomposed: the shape of its elements is unknown (no element_shape, and no write or read gives one)}}
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %f = "tf.TensorArrayWriteV3"(%h, %n, %x, %flow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<*xf32>, tensor<f32>) -> tensor<f32>
  %r = "tf.TensorArrayReadV3"(%h, %n, %f) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// Zeros of an element shape known only at run time are not built.
func.func @dynamic_element(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorArrayV3' op cannot be decomposed: the shape of its elements 'tensor<?x4xf32>' is not static}}
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<?x4>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %f = "tf.TensorArrayWriteV3"(%h, %n, %x, %flow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<?x4xf32>, tensor<f32>) -> tensor<f32>
  %r = "tf.TensorArrayReadV3"(%h, %n, %f) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}

// -----

// The written values contradict the declared element shape.
func.func @conflicting_elements(%x: tensor<3xf32>) -> tensor<f32> {
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorArrayV3' op cannot be decomposed: its elements are given the types 'tensor<2xf32>' and 'tensor<3xf32>'}}
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %f = "tf.TensorArrayWriteV3"(%h, %n, %x, %flow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<3xf32>, tensor<f32>) -> tensor<f32>
  return %f : tensor<f32>
}

// -----

// A handle from outside the function is not decomposed.
func.func @handle_argument(%h: tensor<2x!tf_type.resource>, %flow: tensor<f32>) -> tensor<2xf32> {
  %i = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorArrayReadV3' op cannot be decomposed: its tensor array handle is a function or block argument, not made by a tf.TensorArrayV3 in this function}}
  %r = "tf.TensorArrayReadV3"(%h, %i, %flow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Unequal lengths would make elements of different shapes.
func.func @split_unequal(%x: tensor<5xf32>) -> tensor<f32> {
  %n = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %lengths = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  // expected-error @+1 {{'tf.TensorArraySplitV3' op cannot be decomposed: elements of different lengths; only equal lengths make elements of one shape}}
  %f = "tf.TensorArraySplitV3"(%h, %x, %lengths, %flow) : (tensor<2x!tf_type.resource>, tensor<5xf32>, tensor<2xi64>, tensor<f32>) -> tensor<f32>
  return %f : tensor<f32>
}

// -----

// Gradient arrays (TF1 training of loops) share their source's elements
// and are not decomposed.
func.func @gradient_array(%x: tensor<2xf32>) -> tensor<f32> {
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %i = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  // expected-note @+1 {{the tensor array is made here}}
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  // expected-error @+1 {{'tf.TensorArrayGradV3' op uses a tensor array, which cannot be decomposed here}}
  %g, %gflow = "tf.TensorArrayGradV3"(%h, %flow) {source = "gradients"} : (tensor<2x!tf_type.resource>, tensor<f32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  return %gflow : tensor<f32>
}
