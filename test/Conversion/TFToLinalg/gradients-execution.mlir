// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// Conv2DBackpropFilter and MaxPoolGrad on inputs small enough to work out by
// hand from TensorFlow's definitions (each case says how); MaxPoolGrad's
// ties pin TensorFlow's choice of the first maximum in row-major order.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<?x?x?x?xf32>) {
  %flat = tensor.collapse_shape %t [[0, 1, 2, 3]] : tensor<?x?x?x?xf32> into tensor<?xf32>
  %u = tensor.cast %flat : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  // --- Conv2DBackpropFilter, SAME, stride 1: x = 1..9 (3x3), dy = ones.
  // dw[kh][kw] sums x over the rows and columns the window offset reaches:
  // the centre all nine (45), a corner the four nearest (1+2+4+5 = 12), ...
  %x = arith.constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %ones = arith.constant dense<1.0> : tensor<1x3x3x1xf32>
  %s33 = "tf.Const"() {value = dense<[3, 3, 1, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %dw0 = "tf.Conv2DBackpropFilter"(%x, %s33, %ones) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x3x1xf32>, tensor<4xi32>, tensor<1x3x3x1xf32>) -> tensor<3x3x1x1xf32>
  // CHECK: [12, 21, 16, 27, 45, 33, 24, 39, 28]
  %p0 = tensor.cast %dw0 : tensor<3x3x1x1xf32> to tensor<?x?x?x?xf32>
  call @print(%p0) : (tensor<?x?x?x?xf32>) -> ()

  // --- VALID, stride 2, two output channels: x[r][c] = 4r + c (4x4),
  // dy[..., 0] = [[1, 2], [3, 4]], dy[..., 1] = [[1, 0], [0, 0]]:
  // dw[kh][kw][0] = sum x[2oh + kh][2ow + kw] * dy = 68, 78, 108, 118;
  // dw[kh][kw][1] = x[kh][kw] = 0, 1, 4, 5.
  %x4 = arith.constant dense<[[[[0.0], [1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0], [7.0]], [[8.0], [9.0], [10.0], [11.0]], [[12.0], [13.0], [14.0], [15.0]]]]> : tensor<1x4x4x1xf32>
  %dy2 = arith.constant dense<[[[[1.0, 1.0], [2.0, 0.0]], [[3.0, 0.0], [4.0, 0.0]]]]> : tensor<1x2x2x2xf32>
  %s22 = "tf.Const"() {value = dense<[2, 2, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %dw1 = "tf.Conv2DBackpropFilter"(%x4, %s22, %dy2) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x1xf32>, tensor<4xi32>, tensor<1x2x2x2xf32>) -> tensor<2x2x1x2xf32>
  // CHECK: [68, 0, 78, 1, 108, 4, 118, 5]
  %p1 = tensor.cast %dw1 : tensor<2x2x1x2xf32> to tensor<?x?x?x?xf32>
  call @print(%p1) : (tensor<?x?x?x?xf32>) -> ()

  // --- MaxPoolGrad, 2x2 VALID stride 2, with ties: the windows' maxima are
  // 5 (at (0,1) and (1,1): the first wins), 2 (at (0,2) and (0,3)), 7 and 4
  // (three times: (2,2) wins); their gradients 10, 20, 30, 40 go there.
  %m = arith.constant dense<[[[[1.0], [5.0], [2.0], [2.0]], [[3.0], [5.0], [0.0], [1.0]], [[7.0], [1.0], [4.0], [4.0]], [[0.0], [2.0], [4.0], [3.0]]]]> : tensor<1x4x4x1xf32>
  %mo = arith.constant dense<[[[[5.0], [2.0]], [[7.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %mg = arith.constant dense<[[[[10.0], [20.0]], [[30.0], [40.0]]]]> : tensor<1x2x2x1xf32>
  %g0 = "tf.MaxPoolGrad"(%m, %mo, %mg) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x1xf32>, tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x4x4x1xf32>
  // CHECK: [0, 10, 20, 0, 0, 0, 0, 0, 30, 0, 40, 0, 0, 0, 0, 0]
  %p2 = tensor.cast %g0 : tensor<1x4x4x1xf32> to tensor<?x?x?x?xf32>
  call @print(%p2) : (tensor<?x?x?x?xf32>) -> ()

  // --- Overlapping windows (2x2, stride 1, VALID) over
  // [[1,2,3],[4,9,5],[6,7,8]]: 9 is every window's maximum and gets the sum
  // of the gradients, 1 + 2 + 3 + 4.
  %o = arith.constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [9.0], [5.0]], [[6.0], [7.0], [8.0]]]]> : tensor<1x3x3x1xf32>
  %oo = arith.constant dense<9.0> : tensor<1x2x2x1xf32>
  %og = arith.constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %g1 = "tf.MaxPoolGrad"(%o, %oo, %og) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x3x3x1xf32>, tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x3x3x1xf32>
  // CHECK: [0, 0, 0, 0, 10, 0, 0, 0, 0]
  %p3 = tensor.cast %g1 : tensor<1x3x3x1xf32> to tensor<?x?x?x?xf32>
  call @print(%p3) : (tensor<?x?x?x?xf32>) -> ()

  // --- SAME, 2x2 stride 2 over the same 3x3: one row and column of padding
  // after; the windows' maxima are 9 at (1,1), 5 at (1,2), 7 at (2,1) and
  // 8 at (2,2).
  %so = arith.constant dense<[[[[9.0], [5.0]], [[7.0], [8.0]]]]> : tensor<1x2x2x1xf32>
  %g2 = "tf.MaxPoolGrad"(%o, %so, %og) {ksize = [1, 2, 2, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x3x3x1xf32>, tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x3x3x1xf32>
  // CHECK: [0, 0, 0, 0, 1, 2, 0, 3, 4]
  %p4 = tensor.cast %g2 : tensor<1x3x3x1xf32> to tensor<?x?x?x?xf32>
  call @print(%p4) : (tensor<?x?x?x?xf32>) -> ()
  return
}
