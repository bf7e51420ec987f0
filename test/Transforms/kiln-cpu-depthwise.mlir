// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-depthwise{tile-w=2}),canonicalize,cse)' | FileCheck %s

// 3x3 SAME stride 1, 20 channels, bias + ReLU6. The filter is packed into
// [2 blocks, 3, 3, 16] (zero past channel 20); no padded copy is made. Per
// output row: the filter rows inside the input (kh from max(0, 1 - oh) to
// min(3, 5 - oh)), then the interior columns 1-4 in a loop of two tiles of
// 2 pixels (two vector<16xf32> accumulators carried through the kh loop,
// one FMA per tap and pixel), the rest (column 5) and the border columns 0
// and 6; the bias, max and min on the accumulators before one store each.
// The last block (channels 16-19) reads and writes with masks (in_bounds
// false, the default the printer leaves out).
// CHECK-LABEL: func.func @same_relu6
// CHECK-SAME:    (%[[X:.+]]: tensor<1x4x7x20xf32>, %[[B:.+]]: tensor<20xf32>)
// CHECK-NOT:     tensor.pad
// CHECK:         %[[P:.+]] = arith.constant dense<{{.+}}> : tensor<2x3x3x16xf32>
// CHECK:         scf.for %[[OH:[^ ]+]] = %c0 to %c4 step %c1 iter_args(%{{.+}} = %{{.+}}) -> (tensor<1x4x7x20xf32>)
// CHECK:           %[[TOP:.+]] = arith.subi %c1, %[[OH]]
// CHECK:           %[[LO:.+]] = arith.maxsi %[[TOP]], %c0
// CHECK:           %[[BOTTOM:.+]] = arith.subi %c5, %[[OH]]
// CHECK:           %[[HI:.+]] = arith.minsi %[[BOTTOM]], %c3
// CHECK:           scf.for %{{.+}} = %c0 to %c2 step %c1 iter_args(%{{.+}}) -> (tensor<1x4x7x20xf32>)
// CHECK:             %[[ACC:.+]]:2 = scf.for %[[KH:[^ ]+]] = %[[LO]] to %[[HI]] step %c1 iter_args(%[[A0:.+]] = %{{.+}}, %[[A1:.+]] = %{{.+}}) -> (vector<16xf32>, vector<16xf32>)
// CHECK:               %[[T0:.+]] = vector.transfer_read %[[P]][%c0, %[[KH]], %c0, %c0]
// CHECK:               %[[I0:.+]] = vector.transfer_read %[[X]]
// CHECK:               vector.fma %[[I0]], %[[T0]], %[[A0]] : vector<16xf32>
// CHECK-COUNT-5:       vector.fma
// CHECK:               scf.yield
// CHECK:             %[[BIAS:.+]] = vector.transfer_read %[[B]][%c0]
// CHECK:             arith.addf %[[ACC]]#0, %[[BIAS]] : vector<16xf32>
// CHECK:             arith.maximumf
// CHECK:             arith.minimumf
// CHECK:             vector.transfer_write {{.+}} {in_bounds = [true]} : vector<16xf32>, tensor<1x4x7x20xf32>
// CHECK:             arith.addf %[[ACC]]#1, %[[BIAS]] : vector<16xf32>
// CHECK:             vector.transfer_write
// CHECK:           vector.transfer_read %[[B]][%c16], %{{.+}} : tensor<20xf32>, vector<16xf32>
// CHECK:           vector.transfer_write %{{.+}}, %{{.+}}[%c0, %[[OH]], %c6, %c16] : vector<16xf32>, tensor<1x4x7x20xf32>
// CHECK-NOT:     linalg.depthwise_conv_2d_nhwc_hwc
// CHECK:         return

// 3x3 SAME stride 1 on 1x4x7x20 with bias + ReLU6.
func.func @same_relu6(%x: tensor<1x4x7x20xf32>, %bias: tensor<20xf32>) -> tensor<1x4x7x20xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %w = arith.constant dense<[[[-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0], [-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0], [-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0]], [[-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0], [-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0], [-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0]], [[-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0], [-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0], [-2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0, -2.0, -1.0, 0.0, 1.0, 2.0]]]> : tensor<3x3x20xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x7x20xf32> to tensor<1x6x9x20xf32>
  %e = tensor.empty() : tensor<1x4x7x20xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x7x20xf32>) -> tensor<1x4x7x20xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x6x9x20xf32>, tensor<3x3x20xf32>) outs(%acc : tensor<1x4x7x20xf32>) -> tensor<1x4x7x20xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                                        affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x4x7x20xf32>, tensor<20xf32>) outs(%e : tensor<1x4x7x20xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %lo = arith.maximumf %s, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x4x7x20xf32>
  return %r : tensor<1x4x7x20xf32>
}

// -----

// VALID stride 2 with a filter that is an argument: its taps are read from
// it (8 channels: masked reads of a 16-lane vector); no consumer, so the
// accumulators are stored as they are. Output column t of a tile reads
// input column 2t + kw.
// CHECK-LABEL: func.func @valid_s2
// CHECK-SAME:    (%[[X:.+]]: tensor<1x9x9x8xf32>, %[[W:.+]]: tensor<3x3x8xf32>)
// CHECK:         scf.for %[[OH:[^ ]+]] = %c0 to %c4
// CHECK:           scf.for %{{.+}} = %c0 to %c2
// CHECK:             scf.for %[[KH:[a-z0-9]+]] =
// CHECK:               vector.transfer_read %[[W]][%[[KH]], %c0, %c0], %{{.+}} : tensor<3x3x8xf32>, vector<16xf32>
// CHECK:               vector.transfer_read %[[X]]
// CHECK-COUNT-2:       vector.fma
// CHECK:             vector.transfer_write %{{.+}}#0
// CHECK:             vector.transfer_write %{{.+}}#1
// CHECK-NOT:     linalg
// CHECK:         return

func.func @valid_s2(%x: tensor<1x9x9x8xf32>, %w: tensor<3x3x8xf32>) -> tensor<1x4x4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x8xf32>, tensor<3x3x8xf32>) outs(%acc : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %c : tensor<1x4x4x8xf32>
}

// -----

// Dilated: left to kiln-cpu-tile-and-vectorize.
// CHECK-LABEL: func.func @dilated
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2>
// CHECK-NOT:     scf.for

func.func @dilated(%x: tensor<1x9x9x8xf32>, %w: tensor<3x3x8xf32>) -> tensor<1x5x5x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x5x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %c = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x8xf32>, tensor<3x3x8xf32>) outs(%acc : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  return %c : tensor<1x5x5x8xf32>
}

// -----

// A 2x2 convolution with one output channel (selfie's last layer) and its
// bias + exp consumer: per output row, tiles of 2 pixels (tile-w) whose
// accumulators are vectors of the 16 input channels, one FMA per tap; then
// each pixel's lanes summed by a tree of shuffles and adds (the two
// accumulators' halves side by side, then halved until one lane each), the
// sums a vector along W, the bias broadcast and the consumer on vectors,
// one write along W.

// CHECK-DAG: #[[$ALONGW:.+]] = affine_map<(d0, d1, d2, d3) -> (d2)>
// CHECK-LABEL: func.func @single_channel
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x5x16xf32>, %[[W:.+]]: tensor<2x2x16x1xf32>, %[[B:.+]]: tensor<1xf32>)
// CHECK-NOT: linalg.conv_2d
// CHECK: %[[TAPS:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1], [2, 3]] : tensor<2x2x16x1xf32> into tensor<2x2x16xf32>
// CHECK: scf.for %[[OH:[^ ]+]] = %{{.+}} to %{{.+}} step
// CHECK: scf.for %[[TILE:[^ ]+]] = %{{.+}} to %{{.+}} step
// CHECK: %[[ACCS:.+]]:2 = scf.for %[[KH:[^ ]+]] = {{.+}} -> (vector<16xf32>, vector<16xf32>)
// CHECK: vector.transfer_read %[[TAPS]][%[[KH]], %{{.+}}, %{{.+}}], %{{.+}} {in_bounds = [true]} : tensor<2x2x16xf32>, vector<16xf32>
// CHECK: vector.transfer_read %[[X]]{{.+}} : tensor<1x3x5x16xf32>, vector<16xf32>
// CHECK-COUNT-4: vector.fma {{.+}} : vector<16xf32>
// CHECK: %[[HI:.+]] = vector.shuffle %[[ACCS]]#0, %[[ACCS]]#1 [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
// CHECK: %[[LO:.+]] = vector.shuffle %[[ACCS]]#0, %[[ACCS]]#1 [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23] : vector<16xf32>, vector<16xf32>
// CHECK: %[[PAIRS:.+]] = arith.addf %[[LO]], %[[HI]] : vector<16xf32>
// CHECK: vector.shuffle %[[PAIRS]], %[[PAIRS]] [4, 5, 6, 7, 12, 13, 14, 15] : vector<16xf32>, vector<16xf32>
// CHECK: arith.addf {{.+}} : vector<8xf32>
// CHECK: arith.addf {{.+}} : vector<4xf32>
// CHECK: %[[ROW:.+]] = arith.addf {{.+}} : vector<2xf32>
// CHECK: %[[BIAS:.+]] = tensor.extract %[[B]]
// CHECK: %[[SPLAT:.+]] = vector.broadcast %[[BIAS]] : f32 to vector<2xf32>
// CHECK: %[[SUM:.+]] = arith.addf %[[ROW]], %[[SPLAT]] : vector<2xf32>
// CHECK: %[[NEG:.+]] = arith.negf %[[SUM]] : vector<2xf32>
// CHECK: %[[EXP:.+]] = math.exp %[[NEG]] : vector<2xf32>
// CHECK: vector.transfer_write %[[EXP]], %{{.+}}[%{{.+}}, %[[OH]], %{{.+}}, %{{.+}}] {in_bounds = [true], permutation_map = #[[$ALONGW]]} : vector<2xf32>, tensor<1x2x4x1xf32>
func.func @single_channel(%x: tensor<1x3x5x16xf32>, %w: tensor<2x2x16x1xf32>, %b: tensor<1xf32>) -> tensor<1x2x4x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x5x16xf32>, tensor<2x2x16x1xf32>) outs(%f : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<1x2x4x1xf32>, tensor<1xf32>) outs(%e : tensor<1x2x4x1xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %n = arith.negf %s : f32
    %x2 = math.exp %n : f32
    linalg.yield %x2 : f32
  } -> tensor<1x2x4x1xf32>
  return %y : tensor<1x2x4x1xf32>
}
