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

// A gradient array gets zeros of its forward array's shape, which must then
// be known.
func.func @gradient_array(%x: tensor<2xf32>, %n: tensor<i32>) -> tensor<2xf32> {
  %i = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  // expected-error @+1 {{'tf.TensorArrayGradV3' op cannot be decomposed: the gradient array needs the forward array's size and element shape to be static}}
  %g, %gflow = "tf.TensorArrayGradV3"(%h, %flow) {source = "gradients"} : (tensor<2x!tf_type.resource>, tensor<f32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %r = "tf.TensorArrayReadV3"(%g, %i, %gflow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// A gradient array first made inside a loop (the gradient of a read of an
// array the loop does not carry): it would restart at zeros each iteration.
func.func @gradient_in_loop(%x: tensor<2xf32>) -> tensor<i32> {
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %r = "tf.WhileRegion"(%zero) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%i: tensor<i32>):
    %c = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    // expected-error @+1 {{'tf.TensorArrayGradV3' op cannot be decomposed: the gradient array of source 'gradients' is first made inside a loop, which would not carry its sums from one iteration to the next}}
    %gh, %gflow = "tf.TensorArrayGradV3"(%h, %flow) {source = "gradients"} : (tensor<2x!tf_type.resource>, tensor<f32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
    %w = "tf.TensorArrayWriteV3"(%gh, %i, %x, %gflow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}
