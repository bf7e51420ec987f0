// tf_type types and attributes in a function signature and in tf ops.
func.func @types(%arg0: tensor<*x!tf_type.resource<tensor<2x?xf32>>>, %arg1: tensor<!tf_type.string>,
                 %arg2: tensor<2x!tf_type.variant<tensor<4xi32>>>, %arg3: tensor<?x3x!tf_type.qint8>)
    -> tensor<3xf32> attributes {tf.shape = #tf_type.shape<1x?x3>, tf.func = #tf_type.func<@types, {}>} {
  %0 = "tf.Const"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %1 = "tf.Relu"(%0) : (tensor<3xf32>) -> tensor<3xf32>
  func.return %1 : tensor<3xf32>
}
