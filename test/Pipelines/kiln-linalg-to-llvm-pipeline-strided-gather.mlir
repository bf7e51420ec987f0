// A GatherV2 of a StridedSlice of the last axis (x[:, 0:2] of an 8x3 x):
// the vectorizer's vector.gather takes row-major positions in the 8x2
// slice, and the slice bufferizes to a buffer whose rows are 3 apart, so
// without kiln-cpu-strided-gathers rows 5, 1, 3 were read as if rows were 2
// wide ([10, 11], [2, 3], [6, 7]; facemesh-attention-pinto's landmarks).
// x[i, j] = 3 * i + j, rows 5, 1, 3 of columns 0 and 1.
// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline="vectorize=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
// CHECK:      {{\[}}[15,   16],
// CHECK-NEXT:  [3,   4],
// CHECK-NEXT:  [9,   10]]
func.func private @printMemrefF32(tensor<*xf32>)

func.func @gather_slice(%x: tensor<8x3xf32>) -> tensor<3x2xf32> {
  %begin = "tf.Const"() {value = dense<[0, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %end = "tf.Const"() {value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<[1, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s = "tf.StridedSlice"(%x, %begin, %end, %strides) {begin_mask = 1 : i64, end_mask = 1 : i64, ellipsis_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64} : (tensor<8x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<8x2xf32>
  %i = "tf.Const"() {value = dense<[5, 1, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %g = "tf.GatherV2"(%s, %i, %axis) {batch_dims = 0 : i64} : (tensor<8x2xf32>, tensor<3xi32>, tensor<i32>) -> tensor<3x2xf32>
  return %g : tensor<3x2xf32>
}

func.func @main() {
  %x = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0], [12.0, 13.0, 14.0], [15.0, 16.0, 17.0], [18.0, 19.0, 20.0], [21.0, 22.0, 23.0]]> : tensor<8x3xf32>
  %g = call @gather_slice(%x) : (tensor<8x3xf32>) -> tensor<3x2xf32>
  %p = tensor.cast %g : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
