// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(kiln-cpu-tile-and-vectorize))' | FileCheck %s

// A convolution whose output width (12) and input channels (40) do not
// divide by the tile (8 and 16): both loops are peeled. The reduction loop of
// each output tile must carry the static tile, so that the fused scale-and-
// bias consumer is vectorized without masks (EfficientNetB0 failed here with
// "'vector.mask' op expects a MaskableOpInterface within the mask region").

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>

// CHECK-LABEL: func.func @conv_scale_bias_peeled
// CHECK-NOT: vector.mask
// CHECK-NOT: vector.create_mask
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x8x32xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x4x32xf32>)
// CHECK-NOT: vector.mask
// CHECK-NOT: vector.create_mask
// CHECK: return
func.func @conv_scale_bias_peeled(%x: tensor<1x1x12x40xf32>,
    %w: tensor<1x1x40x32xf32>, %s: tensor<1x1x1x32xf32>,
    %b: tensor<1x1x1x32xf32>) -> tensor<1x1x12x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1x12x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x12x32xf32>) -> tensor<1x1x12x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
         ins(%x, %w : tensor<1x1x12x40xf32>, tensor<1x1x40x32xf32>)
         outs(%f : tensor<1x1x12x32xf32>) -> tensor<1x1x12x32xf32>
  %y = linalg.generic {indexing_maps = [#id, #chan, #chan, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%c, %s, %b : tensor<1x1x12x32xf32>, tensor<1x1x1x32xf32>, tensor<1x1x1x32xf32>)
         outs(%e : tensor<1x1x12x32xf32>) {
  ^bb0(%in: f32, %scale: f32, %bias: f32, %out: f32):
    %m = arith.mulf %in, %scale : f32
    %a = arith.addf %m, %bias : f32
    linalg.yield %a : f32
  } -> tensor<1x1x12x32xf32>
  return %y : tensor<1x1x12x32xf32>
}
