// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-pack-weights{tile-m=1 tile-n=4}))' | FileCheck %s
// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-pack-weights{tile-n=4 cache-bytes=0}))' | FileCheck %s --check-prefix=OUTER
// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-pack-weights{tile-n=4}))' | FileCheck %s --check-prefix=ROWS8

// The filter packed as [2 panels, KH, KW, C, 4], zero past F = 6; the
// output rows outermost (a small filter), each row's conv and its fused
// bias + ReLU over the whole panel and the peeled partial one.
// CHECK-LABEL: func.func @conv_rows
// CHECK:         %[[P:.+]] = arith.constant dense<{{\[\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [7.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01], [1.300000e+01, 1.400000e+01, 1.500000e+01, 1.600000e+01]]]], {{\[\[\[\[}}5.000000e+00, 6.000000e+00, 0.000000e+00, 0.000000e+00], [1.100000e+01, 1.200000e+01, 0.000000e+00, 0.000000e+00], [1.700000e+01, 1.800000e+01, 0.000000e+00, 0.000000e+00]]]]]> : tensor<2x1x1x3x4xf32>
// CHECK:         scf.for %[[OH:.+]] = %c0 to %c2 step %c1
// CHECK:           tensor.extract_slice %[[P]][0, 0, 0, 0, 0] [1, 1, 1, 3, 4] [1, 1, 1, 1, 1] : tensor<2x1x1x3x4xf32> to tensor<1x1x3x4xf32>
// CHECK:           linalg.fill
// CHECK:           linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x1x3x4xf32>
// CHECK:           linalg.generic {{.+}} : tensor<1x1x3x4xf32>, tensor<4xf32>)
// CHECK:           tensor.insert_slice {{.+}}[0, %[[OH]], 0, 0] [1, 1, 3, 4]
// CHECK:           tensor.extract_slice %[[P]][1, 0, 0, 0, 0] [1, 1, 1, 3, 2] [1, 1, 1, 1, 1] : tensor<2x1x1x3x4xf32> to tensor<1x1x3x2xf32>
// CHECK:           linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x1x3x2xf32>
// CHECK:           linalg.generic {{.+}} : tensor<1x1x3x2xf32>, tensor<2xf32>)
// CHECK:           tensor.insert_slice {{.+}}[0, %[[OH]], 0, 4] [1, 1, 3, 2]
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// CHECK:         return
// A filter larger than cache-bytes: the panels are the outermost loop (here
// two iterations, peeled into straight-line code), each over all rows.
// OUTER-LABEL: func.func @conv_rows
// OUTER-NOT:     scf.for
// OUTER:         linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x2x3x4xf32>
// OUTER:         linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x2x3x2xf32>
// 1x1 convolution, 6 filters in panels of 4: a full panel and a partial one.
func.func @conv_rows(%x: tensor<1x2x3x3xf32>, %bias: tensor<6xf32>) -> tensor<1x2x3x6xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                               [7.0, 8.0, 9.0, 10.0, 11.0, 12.0],
                               [13.0, 14.0, 15.0, 16.0, 17.0, 18.0]]]]> : tensor<1x1x3x6xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x6xf32>) -> tensor<1x2x3x6xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x3x3xf32>, tensor<1x1x3x6xf32>) outs(%acc : tensor<1x2x3x6xf32>) -> tensor<1x2x3x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>,
                                        affine_map<(n, h, w, f) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x2x3x6xf32>, tensor<6xf32>) outs(%e : tensor<1x2x3x6xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x3x6xf32>
  return %r : tensor<1x2x3x6xf32>
}

// -----

// A one-row matmul: with tile-m=1 its panels are tile-n wide, the panel
// loop outermost, [K, 4] slices of the packed [2, K, 4] weights.
// CHECK-LABEL: func.func @matmul
// CHECK:         %[[P:.+]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00], [9.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01]], {{\[\[}}5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00], [1.300000e+01, 1.400000e+01, 1.500000e+01, 1.600000e+01]]]> : tensor<2x2x4xf32>
// CHECK:         scf.for %[[N:.+]] = %c0 to %c8 step %c4
// CHECK:           %[[I:.+]] = affine.apply #{{.+}}(%[[N]])
// CHECK:           %[[S:.+]] = tensor.extract_slice %[[P]][%[[I]], 0, 0] [1, 2, 4] [1, 1, 1] : tensor<2x2x4xf32> to tensor<2x4xf32>
// CHECK:           linalg.matmul ins(%{{.+}}, %[[S]] : tensor<1x2xf32>, tensor<2x4xf32>)
// With tile-m=8, one row gets a register tile 4 x 4 = 16 columns wide, wider
// than the 8 columns: not packed.
// ROWS8-LABEL: func.func @matmul
// ROWS8-NOT:     scf.for
// ROWS8:         linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<1x2xf32>, tensor<2x8xf32>)
// matmul with a constant right-hand side of 8 columns: two whole panels.
func.func @matmul(%a: tensor<1x2xf32>) -> tensor<1x8xf32> {
  %b = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                             [9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0]]> : tensor<2x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x2xf32>, tensor<2x8xf32>) outs(%acc : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %r : tensor<1x8xf32>
}

// -----

// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:     scf.for
// CHECK-COUNT-3: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     scf.for
// Weights that are not packed: an argument, a splat, fewer channels than a
// panel.
func.func @unchanged(%x: tensor<1x2x3x3xf32>, %w: tensor<1x1x3x6xf32>) -> (tensor<1x2x3x6xf32>, tensor<1x2x3x6xf32>, tensor<1x2x3x2xf32>) {
  %splat = arith.constant dense<1.0> : tensor<1x1x3x6xf32>
  %narrow = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]]> : tensor<1x1x3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x6xf32>) -> tensor<1x2x3x6xf32>
  %e2 = tensor.empty() : tensor<1x2x3x2xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
  %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x2x3x3xf32>, tensor<1x1x3x6xf32>) outs(%acc : tensor<1x2x3x6xf32>) -> tensor<1x2x3x6xf32>
  %1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %splat : tensor<1x2x3x3xf32>, tensor<1x1x3x6xf32>) outs(%acc : tensor<1x2x3x6xf32>) -> tensor<1x2x3x6xf32>
  %2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %narrow : tensor<1x2x3x3xf32>, tensor<1x1x3x2xf32>) outs(%acc2 : tensor<1x2x3x2xf32>) -> tensor<1x2x3x2xf32>
  return %0, %1, %2 : tensor<1x2x3x6xf32>, tensor<1x2x3x6xf32>, tensor<1x2x3x2xf32>
}
