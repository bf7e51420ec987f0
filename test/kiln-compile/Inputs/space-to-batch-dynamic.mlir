// A model with run-time checks: SpaceToBatchND with 2x2 blocks on an image
// of dynamic height and width, which must both be even.
func.func @main(%x: tensor<1x?x?x2xf32>) -> tensor<?x?x?x2xf32>
    attributes {tf.entry_function = {inputs = "image", outputs = "blocks"}} {
  %block = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32> loc("model/block_shape")
  %paddings = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32> loc("model/paddings")
  %0 = "tf.SpaceToBatchND"(%x, %block, %paddings) : (tensor<1x?x?x2xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x2xf32> loc("model/space_to_batch")
  %1 = "tf.AddV2"(%0, %0) : (tensor<?x?x?x2xf32>, tensor<?x?x?x2xf32>) -> tensor<?x?x?x2xf32> loc("model/double")
  return %1 : tensor<?x?x?x2xf32>
}
