// Current function syntax, but a pre-2022 type spelling.
func.func @f(%arg0: tensor<!tf.resource>) {
  return
}
