// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// The activations and ops Keras layers emit beyond the core set. Expected
// values are TensorFlow 2.21's (tf.nn.elu, tf.nn.selu, tf.nn.softplus,
// tf.math.erfc, tf.pow, tf.stop_gradient, tf.reverse, tf.linalg.band_part)
// on the same inputs, printed to six digits.

func.func private @printMemrefF32(tensor<*xf32>)

func.func @print(%t: tensor<7xf32>) {
  %u = tensor.cast %t : tensor<7xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[-20.0, -2.0, -0.5, 0.0, 0.5, 3.0, 20.0]> : tensor<7xf32>

  %elu = "tf.Elu"(%x) : (tensor<7xf32>) -> tensor<7xf32>
  call @print(%elu) : (tensor<7xf32>) -> ()
  // CHECK: [-1,{{ +}}-0.864665,{{ +}}-0.393469,{{ +}}0,{{ +}}0.5,{{ +}}3,{{ +}}20]

  %selu = "tf.Selu"(%x) : (tensor<7xf32>) -> tensor<7xf32>
  call @print(%selu) : (tensor<7xf32>) -> ()
  // CHECK: [-1.7581,{{ +}}-1.52017,{{ +}}-0.691758,{{ +}}0,{{ +}}0.525351,{{ +}}3.1521,{{ +}}21.014]

  // Beyond the thresholds (|x| > 13.94 for f32): exp(x) below, x above.
  %softplus = "tf.Softplus"(%x) : (tensor<7xf32>) -> tensor<7xf32>
  call @print(%softplus) : (tensor<7xf32>) -> ()
  // CHECK: [2.06115e-09,{{ +}}0.126928,{{ +}}0.474077,{{ +}}0.693147,{{ +}}0.974077,{{ +}}3.04859,{{ +}}20]

  // erfc(x / 4): 2 - erfc(-x) for negative x; the last value, 1.53746e-12
  // in TensorFlow, is only checked to be tiny (the approximation's error is
  // absolute, 1.5e-7 at most).
  %quarter = arith.constant dense<0.25> : tensor<7xf32>
  %xq = "tf.Mul"(%x, %quarter) : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xf32>
  %erfc = "tf.Erfc"(%xq) : (tensor<7xf32>) -> tensor<7xf32>
  call @print(%erfc) : (tensor<7xf32>) -> ()
  // CHECK: [2,{{ +}}1.5205,{{ +}}1.14032,{{ +}}1,{{ +}}0.859684,{{ +}}0.288844,{{ +}}{{[0-9.]+}}e-{{1[0-9]}}]

  // Pow broadcasting a scalar exponent, and StopGradient forwarding.
  %three = arith.constant dense<3.0> : tensor<f32>
  %cube = "tf.Pow"(%x, %three) : (tensor<7xf32>, tensor<f32>) -> tensor<7xf32>
  %stopped = "tf.StopGradient"(%cube) : (tensor<7xf32>) -> tensor<7xf32>
  call @print(%stopped) : (tensor<7xf32>) -> ()
  // CHECK: [-8000,{{ +}}-8,{{ +}}-0.125,{{ +}}0,{{ +}}0.125,{{ +}}27,{{ +}}8000]

  %m = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>
  %one = arith.constant dense<1> : tensor<i64>
  %zero = arith.constant dense<0> : tensor<i64>
  %all = arith.constant dense<-1> : tensor<i64>
  %b0 = "tf.MatrixBandPart"(%m, %one, %zero) : (tensor<4x4xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
  %ub0 = tensor.cast %b0 : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%ub0) : (tensor<*xf32>) -> ()
  // CHECK: {{\[\[}}1,{{ +}}0,{{ +}}0,{{ +}}0],
  // CHECK-NEXT: [5,{{ +}}6,{{ +}}0,{{ +}}0],
  // CHECK-NEXT: [0,{{ +}}10,{{ +}}11,{{ +}}0],
  // CHECK-NEXT: [0,{{ +}}0,{{ +}}15,{{ +}}16]]
  %b1 = "tf.MatrixBandPart"(%m, %all, %one) : (tensor<4x4xf32>, tensor<i64>, tensor<i64>) -> tensor<4x4xf32>
  %ub1 = tensor.cast %b1 : tensor<4x4xf32> to tensor<*xf32>
  call @printMemrefF32(%ub1) : (tensor<*xf32>) -> ()
  // CHECK: {{\[\[}}1,{{ +}}2,{{ +}}0,{{ +}}0],
  // CHECK-NEXT: [5,{{ +}}6,{{ +}}7,{{ +}}0],
  // CHECK-NEXT: [9,{{ +}}10,{{ +}}11,{{ +}}12],
  // CHECK-NEXT: [13,{{ +}}14,{{ +}}15,{{ +}}16]]

  %r = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %last = arith.constant dense<[-1]> : tensor<1xi32>
  %rev = "tf.ReverseV2"(%r, %last) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<2x3xf32>
  %urev = tensor.cast %rev : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%urev) : (tensor<*xf32>) -> ()
  // CHECK: {{\[\[}}2,{{ +}}1,{{ +}}0],
  // CHECK-NEXT: [5,{{ +}}4,{{ +}}3]]
  return
}
