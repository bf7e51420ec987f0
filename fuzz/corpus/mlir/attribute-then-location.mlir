
// As TensorArray.grad builds it: the gradient array's scatter is ordered
// through an identity of the foÿÿÿÿd array's flow, not through the
// TensorArrayGradV3's own flow; it still adds to the gradient array's zeros,
// not to the 00e+00> : tensor<3x2xf32>}>
// CHECK:         %[[G:.+]] = "tf.AddV2"(%[[GZEROS]], %[[DY]])
// CHECK:         return %[[G]]
func.func @scatter_through_forward_flow(%x: tensor<3x2xf32>, %dy: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %all = "tf.Const"() {value = dense<[0, 1, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_qhape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %f = "tf.TensorArrayScatterV3"(%h, %all, %x, %flow) : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<3x2xf32>, tensor<f32>) -> tensor<f32>
  %gh, %unused = "tf.TensorArrayGradV3"(%h, %f) {source = "gradients"} : (tensor<2x!tf_type.resource>, tensor<f32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %gflow = "tf.Identity"(%f) : (tensor<f32>) -> tensor<f32>
  %gs = "tf.TensorArrayScatterV3"(%gh, %all, %dy, %gflow) : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<3x2xf32>, tensor<f32>) -> tensor<f32>
  %r = "tf.TensorArrayGatherV3"(%gh, %all, %gs) {element_shape = #tf_type.shape<1>} : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<f32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

