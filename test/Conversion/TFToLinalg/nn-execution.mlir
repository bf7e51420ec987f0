// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32,printMemrefI32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// The numbers pin TensorFlow's semantics; each was worked out by hand from
// TensorFlow's definitions (noted per case) and cross-checked with a direct
// transcription of those definitions (windows summed element by element,
// Conv2DBackpropInput as the scatter of the forward convolution's
// products), not with the lowering.

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @print4(%t: tensor<?x?x?x?xf32>) {
  %flat = tensor.collapse_shape %t [[0, 1, 2, 3]] : tensor<?x?x?x?xf32> into tensor<?xf32>
  %u = tensor.cast %flat : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print2(%t: tensor<?x?xf32>) {
  %flat = tensor.collapse_shape %t [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %u = tensor.cast %flat : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @resize_runtime_half_pixel(%x: tensor<1x?x?x1xf32>, %size: tensor<2xi32>) -> tensor<?x?x?x?xf32> {
  %0 = "tf.ResizeBilinear"(%x, %size) {half_pixel_centers = true} : (tensor<1x?x?x1xf32>, tensor<2xi32>) -> tensor<1x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<1x?x?x1xf32> to tensor<?x?x?x?xf32>
  return %1 : tensor<?x?x?x?xf32>
}

func.func @resize_runtime_legacy(%x: tensor<1x?x?x1xf32>, %size: tensor<2xi32>) -> tensor<?x?x?x?xf32> {
  %0 = "tf.ResizeBilinear"(%x, %size) : (tensor<1x?x?x1xf32>, tensor<2xi32>) -> tensor<1x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<1x?x?x1xf32> to tensor<?x?x?x?xf32>
  return %1 : tensor<?x?x?x?xf32>
}

func.func @resize_runtime_align_corners(%x: tensor<1x?x?x1xf32>, %size: tensor<2xi32>) -> tensor<?x?x?x?xf32> {
  %0 = "tf.ResizeBilinear"(%x, %size) {align_corners = true} : (tensor<1x?x?x1xf32>, tensor<2xi32>) -> tensor<1x?x?x1xf32>
  %1 = tensor.cast %0 : tensor<1x?x?x1xf32> to tensor<?x?x?x?xf32>
  return %1 : tensor<?x?x?x?xf32>
}

// Conv2DBackpropInput with input_sizes known only at run time (as when the
// image size is dynamic): the padding and buffer sizes are computed from
// the values, the result is fully dynamic.
func.func @backprop_runtime_valid(%sizes: tensor<4xi32>, %f: tensor<3x3x1x1xf32>, %dy: tensor<1x?x?x1xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "tf.Conv2DBackpropInput"(%sizes, %f, %dy) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<3x3x1x1xf32>, tensor<1x?x?x1xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

func.func @backprop_runtime_same(%sizes: tensor<4xi32>, %f: tensor<3x3x2x3xf32>, %dy: tensor<?x?x?x3xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "tf.Conv2DBackpropInput"(%sizes, %f, %dy) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<3x3x2x3xf32>, tensor<?x?x?x3xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

func.func @main() {
  // --- MatMul: [[1,2,3],[4,5,6]] x [[1,2],[3,4],[5,6]] = [[22,28],[49,64]],
  // with each operand given transposed under transpose_a / transpose_b.
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %at = arith.constant dense<[[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]> : tensor<3x2xf32>
  %b = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %bt = arith.constant dense<[[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]> : tensor<2x3xf32>
  %mm0 = "tf.MatMul"(%a, %b) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %mm1 = "tf.MatMul"(%at, %b) {transpose_a = true} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %mm2 = "tf.MatMul"(%a, %bt) {transpose_b = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %mm3 = "tf.MatMul"(%at, %bt) {transpose_a = true, transpose_b = true} : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  // CHECK-COUNT-4: [22, 28, 49, 64]
  %p0 = tensor.cast %mm0 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print2(%p0) : (tensor<?x?xf32>) -> ()
  %p1 = tensor.cast %mm1 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print2(%p1) : (tensor<?x?xf32>) -> ()
  %p2 = tensor.cast %mm2 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print2(%p2) : (tensor<?x?xf32>) -> ()
  %p3 = tensor.cast %mm3 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print2(%p3) : (tensor<?x?xf32>) -> ()

  // int32 accumulates in int32.
  %ai = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %bi = arith.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %mmi = "tf.MatMul"(%ai, %bi) : (tensor<2x3xi32>, tensor<3x2xi32>) -> tensor<2x2xi32>
  // CHECK: {{\[}}[22, 28],
  // CHECK-NEXT: [49, 64]]
  %pmmi = tensor.cast %mmi : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%pmmi) : (tensor<*xi32>) -> ()

  // --- BatchMatMulV2: x [2,1,2,3] with y [3,3,2] (given as its adjoint
  // [3,2,3] under adj_y) broadcast to batch [2,3]; out[b,c] = x[b,0] . y[c].
  %x = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], [[[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]]> : tensor<2x1x2x3xf32>
  %yt = arith.constant dense<[[[-2.0, 0.0, 2.0], [-1.0, 1.0, -2.0]], [[-1.0, 1.0, -2.0], [0.0, 2.0, -1.0]], [[0.0, 2.0, -1.0], [1.0, -2.0, 0.0]]]> : tensor<3x2x3xf32>
  %bmm = "tf.BatchMatMulV2"(%x, %yt) {adj_y = true} : (tensor<2x1x2x3xf32>, tensor<3x2x3xf32>) -> tensor<2x3x2x2xf32>
  // CHECK: [4, -5, 4, -11, -5, 1, -11, 4, 1, -3, 4, -6, 4, -17, 4, -23, -17, 7, -23, 10, 7, -9, 10, -12]
  %pb = tensor.cast %bmm : tensor<2x3x2x2xf32> to tensor<?x?x?x?xf32>
  call @print4(%pb) : (tensor<?x?x?x?xf32>) -> ()

  // The same with x's batch size dynamic.
  %xd = tensor.cast %x : tensor<2x1x2x3xf32> to tensor<?x1x2x3xf32>
  %bmmd = "tf.BatchMatMulV2"(%xd, %yt) {adj_y = true} : (tensor<?x1x2x3xf32>, tensor<3x2x3xf32>) -> tensor<?x3x2x2xf32>
  // CHECK: [4, -5, 4, -11, -5, 1, -11, 4, 1, -3, 4, -6, 4, -17, 4, -23, -17, 7, -23, 10, 7, -9, 10, -12]
  %pbd = tensor.cast %bmmd : tensor<?x3x2x2xf32> to tensor<?x?x?x?xf32>
  call @print4(%pbd) : (tensor<?x?x?x?xf32>) -> ()

  // --- Einsum as in maxim: abcg,gf->abcf and gb,cgef->bcef.
  %ex = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]]> : tensor<1x2x2x3xf32>
  %ew = arith.constant dense<[[1.0, -1.0], [2.0, 0.0], [0.0, 3.0]]> : tensor<3x2xf32>
  %e1 = "tf.Einsum"(%ex, %ew) {equation = "abcg,gf->abcf"} : (tensor<1x2x2x3xf32>, tensor<3x2xf32>) -> tensor<1x2x2x2xf32>
  // CHECK: [5, 8, 14, 14, 23, 20, 32, 26]
  %pe1 = tensor.cast %e1 : tensor<1x2x2x2xf32> to tensor<?x?x?x?xf32>
  call @print4(%pe1) : (tensor<?x?x?x?xf32>) -> ()
  %ga = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %gt = arith.constant dense<[[[[1.0, 2.0], [3.0, 1.0]], [[2.0, 3.0], [1.0, 2.0]], [[3.0, 1.0], [2.0, 3.0]]]]> : tensor<1x3x2x2xf32>
  %e2 = "tf.Einsum"(%ga, %gt) {equation = "gb,cgef->bcef"} : (tensor<3x2xf32>, tensor<1x3x2x2xf32>) -> tensor<2x1x2x2xf32>
  // CHECK: [22, 16, 16, 22, 28, 22, 22, 28]
  %pe2 = tensor.cast %e2 : tensor<2x1x2x2xf32> to tensor<?x?x?x?xf32>
  call @print4(%pe2) : (tensor<?x?x?x?xf32>) -> ()

  // --- BiasAdd: NHWC adds along the last dimension, NCHW along dimension 1.
  %bv = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %bias = arith.constant dense<[10.0, 100.0]> : tensor<2xf32>
  %ba0 = "tf.BiasAdd"(%bv, %bias) {data_format = "NHWC"} : (tensor<1x1x2x2xf32>, tensor<2xf32>) -> tensor<1x1x2x2xf32>
  // CHECK: [11, 102, 13, 104]
  %pba0 = tensor.cast %ba0 : tensor<1x1x2x2xf32> to tensor<?x?x?x?xf32>
  call @print4(%pba0) : (tensor<?x?x?x?xf32>) -> ()
  %bvc = arith.constant dense<[[[[1.0, 2.0]], [[3.0, 4.0]]]]> : tensor<1x2x1x2xf32>
  %ba1 = "tf.BiasAdd"(%bvc, %bias) {data_format = "NCHW"} : (tensor<1x2x1x2xf32>, tensor<2xf32>) -> tensor<1x2x1x2xf32>
  // CHECK: [11, 12, 103, 104]
  %pba1 = tensor.cast %ba1 : tensor<1x2x1x2xf32> to tensor<?x?x?x?xf32>
  call @print4(%pba1) : (tensor<?x?x?x?xf32>) -> ()

  // --- Conv2D SAME, stride 2, 3x3 ones. Even input 4x4 (1..16): out 2x2,
  // total padding (2-1)*2+3-4 = 1, all of it after: the windows are rows
  // and columns {0,1,2} and {2,3}: 54, 45, 72, 54.
  %x4 = arith.constant dense<[[[[1.0], [2.0], [3.0], [4.0]], [[5.0], [6.0], [7.0], [8.0]], [[9.0], [10.0], [11.0], [12.0]], [[13.0], [14.0], [15.0], [16.0]]]]> : tensor<1x4x4x1xf32>
  %ones = arith.constant dense<1.0> : tensor<3x3x1x1xf32>
  %c0 = "tf.Conv2D"(%x4, %ones) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x4x4x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  // CHECK: [54, 45, 72, 54]
  %pc0 = tensor.cast %c0 : tensor<1x2x2x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pc0) : (tensor<?x?x?x?xf32>) -> ()
  // Odd input 5x5 (1..25): out 3x3, total padding 2*2+3-5 = 2, one on each
  // side: windows {0,1}, {1,2,3}, {3,4}.
  %x5 = arith.constant dense<[[[[1.0], [2.0], [3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0], [9.0], [10.0]], [[11.0], [12.0], [13.0], [14.0], [15.0]], [[16.0], [17.0], [18.0], [19.0], [20.0]], [[21.0], [22.0], [23.0], [24.0], [25.0]]]]> : tensor<1x5x5x1xf32>
  %c1 = "tf.Conv2D"(%x5, %ones) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x5x5x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  // CHECK: [16, 33, 28, 69, 117, 87, 76, 123, 88]
  %pc1 = tensor.cast %c1 : tensor<1x3x3x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pc1) : (tensor<?x?x?x?xf32>) -> ()
  // The same in NCHW (a 1-channel image is laid out alike).
  %x5c = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0], [21.0, 22.0, 23.0, 24.0, 25.0]]]]> : tensor<1x1x5x5xf32>
  %c1c = "tf.Conv2D"(%x5c, %ones) {padding = "SAME", strides = [1, 1, 2, 2], data_format = "NCHW"} : (tensor<1x1x5x5xf32>, tensor<3x3x1x1xf32>) -> tensor<1x1x3x3xf32>
  // CHECK: [16, 33, 28, 69, 117, 87, 76, 123, 88]
  %pc1c = tensor.cast %c1c : tensor<1x1x3x3xf32> to tensor<?x?x?x?xf32>
  call @print4(%pc1c) : (tensor<?x?x?x?xf32>) -> ()
  // VALID, dilation 2, 2 input and 3 output channels: the one output
  // pixel is sum over kh, kw, ci of x[2kh, 2kw, ci] * w[kh, kw, ci, co].
  %x3 = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]], [[13.0, 14.0], [15.0, 16.0], [17.0, 18.0]]]]> : tensor<1x3x3x2xf32>
  %w2 = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]], [[[13.0, 14.0, 15.0], [16.0, 17.0, 18.0]], [[19.0, 20.0, 21.0], [22.0, 23.0, 24.0]]]]> : tensor<2x2x2x3xf32>
  %c2 = "tf.Conv2D"(%x3, %w2) {padding = "VALID", strides = [1, 1, 1, 1], dilations = [1, 2, 2, 1]} : (tensor<1x3x3x2xf32>, tensor<2x2x2x3xf32>) -> tensor<1x1x1x3xf32>
  // CHECK: [1216, 1292, 1368]
  %pc2 = tensor.cast %c2 : tensor<1x1x1x3xf32> to tensor<?x?x?x?xf32>
  call @print4(%pc2) : (tensor<?x?x?x?xf32>) -> ()

  // Dynamic spatial sizes: SAME with stride 1 pads (k - 1) / 2 before
  // whatever the size; 3x3 ones over 1..9 sum each neighbourhood.
  %x9 = arith.constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %x33d = tensor.cast %x9 : tensor<1x3x3x1xf32> to tensor<?x?x?x1xf32>
  %c3 = "tf.Conv2D"(%x33d, %ones) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<?x?x?x1xf32>, tensor<3x3x1x1xf32>) -> tensor<?x?x?x1xf32>
  // CHECK: [12, 21, 16, 27, 45, 33, 24, 39, 28]
  %pc3 = tensor.cast %c3 : tensor<?x?x?x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pc3) : (tensor<?x?x?x?xf32>) -> ()

  // SAME with stride 2 over dynamic sizes: the padding is computed at run
  // time, as for the static 4x4 and 5x5 above.
  %x4d = tensor.cast %x4 : tensor<1x4x4x1xf32> to tensor<?x?x?x1xf32>
  %c4 = "tf.Conv2D"(%x4d, %ones) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<?x?x?x1xf32>, tensor<3x3x1x1xf32>) -> tensor<?x?x?x1xf32>
  // CHECK: [54, 45, 72, 54]
  %pc4 = tensor.cast %c4 : tensor<?x?x?x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pc4) : (tensor<?x?x?x?xf32>) -> ()
  %x5dd = tensor.cast %x5 : tensor<1x5x5x1xf32> to tensor<?x?x?x1xf32>
  %c5 = "tf.Conv2D"(%x5dd, %ones) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<?x?x?x1xf32>, tensor<3x3x1x1xf32>) -> tensor<?x?x?x1xf32>
  // CHECK: [16, 33, 28, 69, 117, 87, 76, 123, 88]
  %pc5 = tensor.cast %c5 : tensor<?x?x?x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pc5) : (tensor<?x?x?x?xf32>) -> ()

  // --- DepthwiseConv2dNative, channel multiplier 2, 1x1 filter: output
  // channel c * 2 + m is x[c] * w[c, m] (TensorFlow's order).
  %dx = arith.constant dense<[[[[1.0, 10.0], [2.0, 20.0]], [[3.0, 30.0], [4.0, 40.0]]]]> : tensor<1x2x2x2xf32>
  %dw = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %d0 = "tf.DepthwiseConv2dNative"(%dx, %dw) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x2x2x4xf32>
  // CHECK: [1, 2, 30, 40, 2, 4, 60, 80, 3, 6, 90, 120, 4, 8, 120, 160]
  %pd0 = tensor.cast %d0 : tensor<1x2x2x4xf32> to tensor<?x?x?x?xf32>
  call @print4(%pd0) : (tensor<?x?x?x?xf32>) -> ()
  // Multiplier 1, SAME stride 2 on the odd input: as the Conv2D above.
  %ones3 = arith.constant dense<1.0> : tensor<3x3x1x1xf32>
  %d1 = "tf.DepthwiseConv2dNative"(%x5, %ones3) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x5x5x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  // CHECK: [16, 33, 28, 69, 117, 87, 76, 123, 88]
  %pd1 = tensor.cast %d1 : tensor<1x3x3x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pd1) : (tensor<?x?x?x?xf32>) -> ()

  // --- Conv2DBackpropInput, stride 2, SAME, input 4x4 (forward padding 0
  // before, 1 after), filter 1..9, out_backprop [[1, 10], [100, 1000]]:
  // dx[h, w] = sum of dy[o] * f[k] over o * 2 + k = (h, w); e.g.
  // dx[0, 2] = 1 * f[0, 2] + 10 * f[0, 0] = 13.
  %sizes = arith.constant dense<[1, 4, 4, 1]> : tensor<4xi32>
  %f9 = arith.constant dense<[[[[1.0]], [[2.0]], [[3.0]]], [[[4.0]], [[5.0]], [[6.0]]], [[[7.0]], [[8.0]], [[9.0]]]]> : tensor<3x3x1x1xf32>
  %dy = arith.constant dense<[[[[1.0], [10.0]], [[100.0], [1000.0]]]]> : tensor<1x2x2x1xf32>
  %bp0 = "tf.Conv2DBackpropInput"(%sizes, %f9, %dy) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<3x3x1x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x4x4x1xf32>
  // CHECK: [1, 2, 13, 20, 4, 5, 46, 50, 107, 208, 1379, 2080, 400, 500, 4600, 5000]
  %pbp0 = tensor.cast %bp0 : tensor<1x4x4x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pbp0) : (tensor<?x?x?x?xf32>) -> ()
  // Stride 2, SAME, input 3x3 (padding 1 on each side), 2 input and 3
  // output channels: checks the swap of the filter's channel dimensions.
  %sizes3 = arith.constant dense<[1, 3, 3, 2]> : tensor<4xi32>
  %fb = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]], [[13.0, 14.0, 15.0], [16.0, 17.0, 18.0]]], [[[19.0, 20.0, 21.0], [22.0, 23.0, 24.0]], [[25.0, 26.0, 27.0], [28.0, 29.0, 30.0]], [[31.0, 32.0, 33.0], [34.0, 35.0, 36.0]]], [[[37.0, 38.0, 39.0], [40.0, 41.0, 42.0]], [[43.0, 44.0, 45.0], [46.0, 47.0, 48.0]], [[49.0, 50.0, 51.0], [52.0, 53.0, 54.0]]]]> : tensor<3x3x2x3xf32>
  %dy3 = arith.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]]> : tensor<1x2x2x3xf32>
  %bp1 = "tf.Conv2DBackpropInput"(%sizes3, %fb, %dy3) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<3x3x2x3xf32>, tensor<1x2x2x3xf32>) -> tensor<1x3x3x2xf32>
  // CHECK: [158, 176, 496, 559, 392, 437, 460, 550, 1280, 1514, 928, 1072, 626, 698, 1432, 1603, 860, 959]
  %pbp1 = tensor.cast %bp1 : tensor<1x3x3x2xf32> to tensor<?x?x?x?xf32>
  call @print4(%pbp1) : (tensor<?x?x?x?xf32>) -> ()
  // Stride 2, VALID, input 5x5: every input row is reached.
  %sizes5 = arith.constant dense<[1, 5, 5, 1]> : tensor<4xi32>
  %dy5 = arith.constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %bp2 = "tf.Conv2DBackpropInput"(%sizes5, %f9, %dy5) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<3x3x1x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x5x5x1xf32>
  // CHECK: [1, 2, 5, 4, 6, 4, 5, 14, 10, 12, 10, 14, 36, 24, 30, 12, 15, 34, 20, 24, 21, 24, 55, 32, 36]
  %pbp2 = tensor.cast %bp2 : tensor<1x5x5x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pbp2) : (tensor<?x?x?x?xf32>) -> ()

  // 2x2 filter, stride 2, SAME (the upsampling of the selfie model): no
  // forward padding, each dy[o] lands on its own 2x2 block dy[o] * f.
  %f22 = arith.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>
  %bp3 = "tf.Conv2DBackpropInput"(%sizes, %f22, %dy) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<2x2x1x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x4x4x1xf32>
  // CHECK: [1, 2, 10, 20, 3, 4, 30, 40, 100, 200, 1000, 2000, 300, 400, 3000, 4000]
  %pbp3 = tensor.cast %bp3 : tensor<1x4x4x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pbp3) : (tensor<?x?x?x?xf32>) -> ()

  // Dilation 2 (the gradient of a dilated convolution; TensorFlow's CPU
  // kernel refuses dilations, the definition does not): 2x2 filter, stride
  // 1, SAME on 4x4, forward padding 1 and 1; dx[0, 0] = dy[1, 1] * f[0, 0].
  %dy44 = arith.constant dense<[[[[1.0], [2.0], [3.0], [4.0]], [[5.0], [6.0], [7.0], [8.0]], [[9.0], [10.0], [11.0], [12.0]], [[13.0], [14.0], [15.0], [16.0]]]]> : tensor<1x4x4x1xf32>
  %bp4 = "tf.Conv2DBackpropInput"(%sizes, %f22, %dy44) {padding = "SAME", strides = [1, 1, 1, 1], dilations = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<2x2x1x1xf32>, tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
  // CHECK: [6, 17, 20, 14, 16, 42, 52, 34, 32, 82, 92, 58, 30, 69, 76, 44]
  %pbp4 = tensor.cast %bp4 : tensor<1x4x4x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pbp4) : (tensor<?x?x?x?xf32>) -> ()

  // The same gradients with input_sizes as a run-time value: equal to the
  // constant-size cases above (%bp2, VALID 5x5; %bp1, SAME 3x3 with
  // forward padding 1 before and 2 channels).
  %dy5d = tensor.cast %dy5 : tensor<1x2x2x1xf32> to tensor<1x?x?x1xf32>
  %rbp2 = call @backprop_runtime_valid(%sizes5, %f9, %dy5d) : (tensor<4xi32>, tensor<3x3x1x1xf32>, tensor<1x?x?x1xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: [1, 2, 5, 4, 6, 4, 5, 14, 10, 12, 10, 14, 36, 24, 30, 12, 15, 34, 20, 24, 21, 24, 55, 32, 36]
  call @print4(%rbp2) : (tensor<?x?x?x?xf32>) -> ()
  %dy3d = tensor.cast %dy3 : tensor<1x2x2x3xf32> to tensor<?x?x?x3xf32>
  %rbp1 = call @backprop_runtime_same(%sizes3, %fb, %dy3d) : (tensor<4xi32>, tensor<3x3x2x3xf32>, tensor<?x?x?x3xf32>) -> tensor<?x?x?x?xf32>
  // CHECK: [158, 176, 496, 559, 392, 437, 460, 550, 1280, 1514, 928, 1072, 626, 698, 1432, 1603, 860, 959]
  call @print4(%rbp1) : (tensor<?x?x?x?xf32>) -> ()

  // --- MaxPool 3x3, stride 2, SAME on -(1..16) 4x4: the padding (one
  // after) must not win, so the maxima are -1, -3, -9, -11, not 0.
  %xn = arith.constant dense<[[[[-1.0], [-2.0], [-3.0], [-4.0]], [[-5.0], [-6.0], [-7.0], [-8.0]], [[-9.0], [-10.0], [-11.0], [-12.0]], [[-13.0], [-14.0], [-15.0], [-16.0]]]]> : tensor<1x4x4x1xf32>
  %m0 = "tf.MaxPool"(%xn) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
  // CHECK: [-1, -3, -9, -11]
  %pm0 = tensor.cast %m0 : tensor<1x2x2x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pm0) : (tensor<?x?x?x?xf32>) -> ()

  // VALID 3x3, stride 2 over a dynamic 5x5 (1..25): output (5 - 3) / 2 + 1
  // = 2 computed at run time; windows {0,1,2} and {2,3,4}.
  %x5d = tensor.cast %x5 : tensor<1x5x5x1xf32> to tensor<1x?x?x1xf32>
  %m1 = "tf.MaxPool"(%x5d) {ksize = [1, 3, 3, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  // CHECK: [13, 15, 23, 25]
  %pm1 = tensor.cast %m1 : tensor<1x?x?x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pm1) : (tensor<?x?x?x?xf32>) -> ()

  // A window of only -inf gives the lowest finite float, as TensorFlow's
  // kernel does (it starts from that value), not -inf.
  %ninf = arith.constant dense<0xFF800000> : tensor<1x2x2x1xf32>
  %mi = "tf.MaxPool"(%ninf) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x2x2x1xf32>) -> tensor<1x1x1x1xf32>
  // CHECK: [-3.40282e+38]
  %pmi = tensor.cast %mi : tensor<1x1x1x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pmi) : (tensor<?x?x?x?xf32>) -> ()

  // The same SAME 3x3, stride 2 over -(1..16) with dynamic sizes.
  %xnd = tensor.cast %xn : tensor<1x4x4x1xf32> to tensor<1x?x?x1xf32>
  %m2 = "tf.MaxPool"(%xnd) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  // CHECK: [-1, -3, -9, -11]
  %pm2 = tensor.cast %m2 : tensor<1x?x?x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pm2) : (tensor<?x?x?x?xf32>) -> ()

  // --- AvgPool SAME divides by the count of non-padded elements. 3x3
  // input 1..9, 2x2 window, stride 1: padding 1 after; the last column's
  // windows hold 2 elements, the corner 1 (e.g. (3 + 6) / 2 = 4.5).
  %x33 = arith.constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %av0 = "tf.AvgPool"(%x33) {ksize = [1, 2, 2, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  // CHECK: [3, 4, 4.5, 6, 7, 7.5, 7.5, 8.5, 9]
  %pav0 = tensor.cast %av0 : tensor<1x3x3x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pav0) : (tensor<?x?x?x?xf32>) -> ()
  // 3x3 window, stride 1: padding 1 on each side; corners average 4
  // elements, edges 6, the center 9.
  %av1 = "tf.AvgPool"(%x33) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  // CHECK: [3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7]
  %pav1 = tensor.cast %av1 : tensor<1x3x3x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pav1) : (tensor<?x?x?x?xf32>) -> ()
  // VALID 2x2, stride 2 on 4x4: plain means.
  %av2 = "tf.AvgPool"(%x4) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
  // CHECK: [3.5, 5.5, 11.5, 13.5]
  %pav2 = tensor.cast %av2 : tensor<1x2x2x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pav2) : (tensor<?x?x?x?xf32>) -> ()

  // 3x3 window, stride 2, SAME on 4x4 (1..16): padding 1 after; windows
  // {0,1,2} and {2,3}: 54 / 9, 45 / 6, 72 / 6, 54 / 4.
  %av3 = "tf.AvgPool"(%x4) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
  // CHECK: [6, 7.5, 12, 13.5]
  %pav3 = tensor.cast %av3 : tensor<1x2x2x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pav3) : (tensor<?x?x?x?xf32>) -> ()
  // The same two over dynamic sizes: the counts are computed at run time.
  %x4dyn = tensor.cast %x4 : tensor<1x4x4x1xf32> to tensor<1x?x?x1xf32>
  %av4 = "tf.AvgPool"(%x4dyn) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  // CHECK: [6, 7.5, 12, 13.5]
  %pav4 = tensor.cast %av4 : tensor<1x?x?x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pav4) : (tensor<?x?x?x?xf32>) -> ()
  %x33dyn = tensor.cast %x33 : tensor<1x3x3x1xf32> to tensor<1x?x?x1xf32>
  %av5 = "tf.AvgPool"(%x33dyn) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x?x?x1xf32>) -> tensor<1x?x?x1xf32>
  // CHECK: [3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7]
  %pav5 = tensor.cast %av5 : tensor<1x?x?x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pav5) : (tensor<?x?x?x?xf32>) -> ()

  // --- ResizeBilinear 2x2 [[0, 4], [8, 12]] -> 4x4 with half_pixel_centers:
  // scale 1/2, source (o + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25;
  // -0.25 clamps to row 0 and 1.25 to row 1 (lower = max(floor, 0),
  // upper = min(ceil, 1)), so rows and columns weigh 0, 1/4, 3/4, 1.
  %img = arith.constant dense<[[[[0.0], [4.0]], [[8.0], [12.0]]]]> : tensor<1x2x2x1xf32>
  %size4 = arith.constant dense<[4, 4]> : tensor<2xi32>
  %r0 = "tf.ResizeBilinear"(%img, %size4) {half_pixel_centers = true} : (tensor<1x2x2x1xf32>, tensor<2xi32>) -> tensor<1x4x4x1xf32>
  // CHECK: [0, 1, 3, 4, 2, 3, 5, 6, 6, 7, 9, 10, 8, 9, 11, 12]
  %pr0 = tensor.cast %r0 : tensor<1x4x4x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pr0) : (tensor<?x?x?x?xf32>) -> ()
  // Neither flag: source o / 2 = 0, 0.5, 1, 1.5; 1.5 reads row 1 only.
  %r1 = "tf.ResizeBilinear"(%img, %size4) : (tensor<1x2x2x1xf32>, tensor<2xi32>) -> tensor<1x4x4x1xf32>
  // CHECK: [0, 2, 4, 4, 4, 6, 8, 8, 8, 10, 12, 12, 8, 10, 12, 12]
  %pr1 = tensor.cast %r1 : tensor<1x4x4x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pr1) : (tensor<?x?x?x?xf32>) -> ()
  // align_corners to 3x3: scale (2 - 1) / (3 - 1), source 0, 0.5, 1.
  %size3 = arith.constant dense<[3, 3]> : tensor<2xi32>
  %r2 = "tf.ResizeBilinear"(%img, %size3) {align_corners = true} : (tensor<1x2x2x1xf32>, tensor<2xi32>) -> tensor<1x3x3x1xf32>
  // CHECK: [0, 2, 4, 4, 6, 8, 8, 10, 12]
  %pr2 = tensor.cast %r2 : tensor<1x3x3x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pr2) : (tensor<?x?x?x?xf32>) -> ()
  // An integer image converts to f32 first.
  %imgi = arith.constant dense<[[[[0], [4]], [[8], [12]]]]> : tensor<1x2x2x1xi32>
  %r3 = "tf.ResizeBilinear"(%imgi, %size4) {half_pixel_centers = true} : (tensor<1x2x2x1xi32>, tensor<2xi32>) -> tensor<1x4x4x1xf32>
  // CHECK: [0, 1, 3, 4, 2, 3, 5, 6, 6, 7, 9, 10, 8, 9, 11, 12]
  %pr3 = tensor.cast %r3 : tensor<1x4x4x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pr3) : (tensor<?x?x?x?xf32>) -> ()
  // Downscaling 4x2 [[0, 1], [4, 5], [8, 9], [12, 13]] to 2x1 with neither
  // flag: scale 2, source rows 0 and 2, column 0, all weights 0; rows 1
  // and 3 are never read (the W pass runs on rows 0 and 2 only).
  %imgtall = arith.constant dense<[[[[0.0], [1.0]], [[4.0], [5.0]], [[8.0], [9.0]], [[12.0], [13.0]]]]> : tensor<1x4x2x1xf32>
  %size21 = arith.constant dense<[2, 1]> : tensor<2xi32>
  %r4 = "tf.ResizeBilinear"(%imgtall, %size21) : (tensor<1x4x2x1xf32>, tensor<2xi32>) -> tensor<1x2x1x1xf32>
  // CHECK: [0, 8]
  %pr4 = tensor.cast %r4 : tensor<1x2x1x1xf32> to tensor<?x?x?x?xf32>
  call @print4(%pr4) : (tensor<?x?x?x?xf32>) -> ()
  // Eight channels of a 2x2 image to 3x3 with align_corners: each channel
  // k is the first image times k + 1, so the resized channels are the
  // first case's [0, 2, 4, 4, 6, 8, 8, 10, 12] times k + 1 (whole channel
  // vectors in the vectorized passes).
  %img8 = arith.constant dense<[[[[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [4.0, 8.0, 12.0, 16.0, 20.0, 24.0, 28.0, 32.0]], [[8.0, 16.0, 24.0, 32.0, 40.0, 48.0, 56.0, 64.0], [12.0, 24.0, 36.0, 48.0, 60.0, 72.0, 84.0, 96.0]]]]> : tensor<1x2x2x8xf32>
  %r5 = "tf.ResizeBilinear"(%img8, %size3) {align_corners = true} : (tensor<1x2x2x8xf32>, tensor<2xi32>) -> tensor<1x3x3x8xf32>
  %r5c = tensor.extract_slice %r5[0, 1, 1, 0] [1, 1, 1, 8] [1, 1, 1, 1] : tensor<1x3x3x8xf32> to tensor<1x1x1x8xf32>
  // The centre pixel, 6 times k + 1:
  // CHECK: [6, 12, 18, 24, 30, 36, 42, 48]
  %pr5 = tensor.cast %r5c : tensor<1x1x1x8xf32> to tensor<?x?x?x?xf32>
  call @print4(%pr5) : (tensor<?x?x?x?xf32>) -> ()
  // The same three resizes with the size and the image's sizes known only at
  // run time: the body computes the source rows with the tables' formulas.
  %imgd = tensor.cast %img : tensor<1x2x2x1xf32> to tensor<1x?x?x1xf32>
  // CHECK: [0, 1, 3, 4, 2, 3, 5, 6, 6, 7, 9, 10, 8, 9, 11, 12]
  %rr0 = call @resize_runtime_half_pixel(%imgd, %size4) : (tensor<1x?x?x1xf32>, tensor<2xi32>) -> tensor<?x?x?x?xf32>
  call @print4(%rr0) : (tensor<?x?x?x?xf32>) -> ()
  // CHECK: [0, 2, 4, 4, 4, 6, 8, 8, 8, 10, 12, 12, 8, 10, 12, 12]
  %rr1 = call @resize_runtime_legacy(%imgd, %size4) : (tensor<1x?x?x1xf32>, tensor<2xi32>) -> tensor<?x?x?x?xf32>
  call @print4(%rr1) : (tensor<?x?x?x?xf32>) -> ()
  // CHECK: [0, 2, 4, 4, 6, 8, 8, 10, 12]
  %rr2 = call @resize_runtime_align_corners(%imgd, %size3) : (tensor<1x?x?x1xf32>, tensor<2xi32>) -> tensor<?x?x?x?xf32>
  call @print4(%rr2) : (tensor<?x?x?x?xf32>) -> ()
  // align_corners to a size of 1 uses in / out: source 0, the first pixel.
  // CHECK: [0]
  %size1 = arith.constant dense<[1, 1]> : tensor<2xi32>
  %rr3 = call @resize_runtime_align_corners(%imgd, %size1) : (tensor<1x?x?x1xf32>, tensor<2xi32>) -> tensor<?x?x?x?xf32>
  call @print4(%rr3) : (tensor<?x?x?x?xf32>) -> ()
  return
}
