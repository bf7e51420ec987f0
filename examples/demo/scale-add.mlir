// The demo input: y = 2 * x + b on tensors, as linalg. The README's first
// command lowers it with kiln-linalg-to-llvm-pipeline and translates it to
// LLVM IR with kiln-translate.
func.func @scale_add(%x: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %init = tensor.empty(%n) : tensor<?xf32>
  %two = arith.constant 2.0 : f32
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x, %b : tensor<?xf32>, tensor<?xf32>) outs(%init : tensor<?xf32>) {
  ^bb0(%xi: f32, %bi: f32, %out: f32):
    %m = arith.mulf %xi, %two : f32
    %s = arith.addf %m, %bi : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %y : tensor<?xf32>
}
