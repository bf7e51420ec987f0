// exp, log, tanh and sigmoid of one feed, elementwise: the vectorized code
// whose accuracy TranscendentalAccuracyTest measures against libm.
func.func @main(%x: tensor<65536xf32>)
    -> (tensor<65536xf32>, tensor<65536xf32>, tensor<65536xf32>,
        tensor<65536xf32>)
    attributes {tf.entry_function = {inputs = "x",
                                     outputs = "exp,log,tanh,sigmoid"}} {
  %e = "tf.Exp"(%x) : (tensor<65536xf32>) -> tensor<65536xf32>
  %l = "tf.Log"(%x) : (tensor<65536xf32>) -> tensor<65536xf32>
  %t = "tf.Tanh"(%x) : (tensor<65536xf32>) -> tensor<65536xf32>
  %s = "tf.Sigmoid"(%x) : (tensor<65536xf32>) -> tensor<65536xf32>
  return %e, %l, %t, %s
      : tensor<65536xf32>, tensor<65536xf32>, tensor<65536xf32>,
        tensor<65536xf32>
}
