// A parse error that has nothing to do with legacy syntax.
func.func @f(%arg0: tensor<4xf32>) {
  %0 = arith.addf %arg0, %arg0 : tensor<4xf32>
  return %undefined : tensor<4xf32>
}
