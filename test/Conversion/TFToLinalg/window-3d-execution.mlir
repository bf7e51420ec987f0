// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// Conv3D, MaxPool3D and AvgPool3D on numbers worked out by hand from
// TensorFlow's definitions. %x is 0..26 as a 3x3x3 volume (x[d,h,w] =
// 9d + 3h + w, one channel), so a window's sum over the index sets D, H, W
// is |H||W| 9 sum(D) + |D||W| 3 sum(H) + |D||H| sum(W). The SAME numbers
// for AvgPool3D were also checked against TensorFlow 2.21's kernel.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print5(%t: tensor<?x?x?x?x?xf32>) {
  %flat = tensor.collapse_shape %t [[0, 1, 2, 3, 4]] : tensor<?x?x?x?x?xf32> into tensor<?xf32>
  %u = tensor.cast %flat : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[[[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0]]], [[[9.0], [10.0], [11.0]], [[12.0], [13.0], [14.0]], [[15.0], [16.0], [17.0]]], [[[18.0], [19.0], [20.0]], [[21.0], [22.0], [23.0]], [[24.0], [25.0], [26.0]]]]]> : tensor<1x3x3x3x1xf32>
  %ones = arith.constant dense<1.0> : tensor<2x2x2x1x1xf32>

  // --- Conv3D VALID, stride 1: window sums 52 + 8 (9d + 3h + w).
  // CHECK: [52, 60, 76, 84, 124, 132, 148, 156]
  %c0 = "tf.Conv3D"(%x, %ones) {padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x3x3x3x1xf32>, tensor<2x2x2x1x1xf32>) -> tensor<1x2x2x2x1xf32>
  %p0 = tensor.cast %c0 : tensor<1x2x2x2x1xf32> to tensor<?x?x?x?x?xf32>
  call @print5(%p0) : (tensor<?x?x?x?x?xf32>) -> ()

  // --- Conv3D SAME, stride 2: output ceil(3/2) = 2, total padding
  // (2-1)*2 + 2 - 3 = 1, all of it after; windows {0,1} and {2} per
  // dimension.
  // CHECK: [52, 32, 44, 25, 80, 43, 49, 26]
  %c1 = "tf.Conv3D"(%x, %ones) {padding = "SAME", strides = [1, 2, 2, 2, 1]} : (tensor<1x3x3x3x1xf32>, tensor<2x2x2x1x1xf32>) -> tensor<1x2x2x2x1xf32>
  %p1 = tensor.cast %c1 : tensor<1x2x2x2x1xf32> to tensor<?x?x?x?x?xf32>
  call @print5(%p1) : (tensor<?x?x?x?x?xf32>) -> ()

  // --- Conv3D dilated by 2, VALID: the corners {0,2}^3, 72 + 24 + 8.
  // CHECK: [104]
  %c2 = "tf.Conv3D"(%x, %ones) {padding = "VALID", strides = [1, 1, 1, 1, 1], dilations = [1, 2, 2, 2, 1]} : (tensor<1x3x3x3x1xf32>, tensor<2x2x2x1x1xf32>) -> tensor<1x1x1x1x1xf32>
  %p2 = tensor.cast %c2 : tensor<1x1x1x1x1xf32> to tensor<?x?x?x?x?xf32>
  call @print5(%p2) : (tensor<?x?x?x?x?xf32>) -> ()

  // --- Conv3D's filter is [D, H, W, in, out]: 1 * w[0, f] + 10 * w[1, f].
  // CHECK: [41, 52, 63]
  %xc = arith.constant dense<[[[[[1.0, 10.0]]]]]> : tensor<1x1x1x1x2xf32>
  %wc = arith.constant dense<[[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]]]]> : tensor<1x1x1x2x3xf32>
  %c3 = "tf.Conv3D"(%xc, %wc) {padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x1x1x1x2xf32>, tensor<1x1x1x2x3xf32>) -> tensor<1x1x1x1x3xf32>
  %p3 = tensor.cast %c3 : tensor<1x1x1x1x3xf32> to tensor<?x?x?x?x?xf32>
  call @print5(%p3) : (tensor<?x?x?x?x?xf32>) -> ()

  // --- MaxPool3D SAME, window 2, stride 2: each window's last element.
  // CHECK: [13, 14, 16, 17, 22, 23, 25, 26]
  %m0 = "tf.MaxPool3D"(%x) {ksize = [1, 2, 2, 2, 1], padding = "SAME", strides = [1, 2, 2, 2, 1]} : (tensor<1x3x3x3x1xf32>) -> tensor<1x2x2x2x1xf32>
  %q0 = tensor.cast %m0 : tensor<1x2x2x2x1xf32> to tensor<?x?x?x?x?xf32>
  call @print5(%q0) : (tensor<?x?x?x?x?xf32>) -> ()

  // --- MaxPool3D of -inf gives -inf, in a padded window too (TensorFlow's
  // 3-D kernel starts from -inf, not from the lowest finite float).
  // CHECK: [-inf, -inf]
  %ninf = arith.constant dense<0xFF800000> : tensor<1x2x1x1x1xf32>
  %m1 = "tf.MaxPool3D"(%ninf) {ksize = [1, 2, 1, 1, 1], padding = "SAME", strides = [1, 1, 1, 1, 1]} : (tensor<1x2x1x1x1xf32>) -> tensor<1x2x1x1x1xf32>
  %q1 = tensor.cast %m1 : tensor<1x2x1x1x1xf32> to tensor<?x?x?x?x?xf32>
  call @print5(%q1) : (tensor<?x?x?x?x?xf32>) -> ()

  // --- AvgPool3D VALID, window 2, stride 1: the Conv3D sums over 8.
  // CHECK: [6.5, 7.5, 9.5, 10.5, 15.5, 16.5, 18.5, 19.5]
  %a0 = "tf.AvgPool3D"(%x) {ksize = [1, 2, 2, 2, 1], padding = "VALID", strides = [1, 1, 1, 1, 1]} : (tensor<1x3x3x3x1xf32>) -> tensor<1x2x2x2x1xf32>
  %r0 = tensor.cast %a0 : tensor<1x2x2x2x1xf32> to tensor<?x?x?x?x?xf32>
  call @print5(%r0) : (tensor<?x?x?x?x?xf32>) -> ()

  // --- AvgPool3D SAME, window 2, stride 2: the SAME Conv3D sums over the
  // non-padded counts 8, 4, 4, 2, 4, 2, 2, 1.
  // CHECK: [6.5, 8, 11, 12.5, 20, 21.5, 24.5, 26]
  %a1 = "tf.AvgPool3D"(%x) {ksize = [1, 2, 2, 2, 1], padding = "SAME", strides = [1, 2, 2, 2, 1]} : (tensor<1x3x3x3x1xf32>) -> tensor<1x2x2x2x1xf32>
  %r1 = tensor.cast %a1 : tensor<1x2x2x2x1xf32> to tensor<?x?x?x?x?xf32>
  call @print5(%r1) : (tensor<?x?x?x?x?xf32>) -> ()
  return
}
