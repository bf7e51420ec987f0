// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefI32 | not --crash mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s --allow-empty

// A dynamic dimension named in tf.Squeeze's squeeze_dims must be 1 at run
// time (TensorFlow reports an error otherwise): squeezing the last dimension
// of a [2, 2] tensor seen as [?, ?] stops at the run-time check (cf.assert
// aborts) before anything is printed.

func.func private @printMemrefI32(tensor<*xi32>)

func.func @squeeze(%arg0: tensor<?x?xi32>) -> tensor<?xi32> {
  %0 = "tf.Squeeze"(%arg0) {squeeze_dims = [-1]} : (tensor<?x?xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// CHECK-NOT: sizes
func.func @main() {
  %in = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %dynamic = tensor.cast %in : tensor<2x2xi32> to tensor<?x?xi32>
  %result = call @squeeze(%dynamic) : (tensor<?x?xi32>) -> tensor<?xi32>
  %unranked = tensor.cast %result : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%unranked) : (tensor<*xi32>) -> ()
  return
}
