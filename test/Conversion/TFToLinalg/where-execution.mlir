// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefI64 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// tf.Where(condition): the row-major coordinates of the elements for which
// TensorFlow's CPU kernel (core/kernels/where_op.cc) finds `x != T(0)`, as
// int64. The expected coordinates are worked by hand from that definition:
// NaN != 0 is true, -0.0 != 0 is false. Each result's shape is printed
// first, from tensor.dim, as [num_true, rank].

func.func private @printMemrefI64(tensor<*xi64>)

func.func @print(%t: tensor<?x?xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %t, %c0 : tensor<?x?xi64>
  %cols = tensor.dim %t, %c1 : tensor<?x?xi64>
  %r = arith.index_cast %rows : index to i64
  %c = arith.index_cast %cols : index to i64
  %shape = tensor.from_elements %r, %c : tensor<2xi64>
  %su = tensor.cast %shape : tensor<2xi64> to tensor<*xi64>
  call @printMemrefI64(%su) : (tensor<*xi64>) -> ()
  %u = tensor.cast %t : tensor<?x?xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  return
}

// A condition whose sizes are known only at run time.
func.func @where_dynamic(%x: tensor<?xi32>) -> tensor<?x1xi64> {
  %0 = "tf.Where"(%x) : (tensor<?xi32>) -> tensor<?x1xi64>
  return %0 : tensor<?x1xi64>
}

func.func @main() {
  // Booleans, 2-D: [[0, 0], [0, 2], [1, 1], [1, 2]].
  %b = "tf.Const"() {value = dense<[[true, false, true], [false, true, true]]> : tensor<2x3xi1>} : () -> tensor<2x3xi1>
  %w0 = "tf.Where"(%b) : (tensor<2x3xi1>) -> tensor<?x2xi64>
  %p0 = tensor.cast %w0 : tensor<?x2xi64> to tensor<?x?xi64>
  call @print(%p0) : (tensor<?x?xi64>) -> ()
  // CHECK: [4,  2]
  // CHECK: [0,   0],
  // CHECK-NEXT: [0,   2],
  // CHECK-NEXT: [1,   1],
  // CHECK-NEXT: [1,   2]]

  // Floats: 1.5, NaN and -2 are true; -0.0 and 0.0 are false.
  %f = "tf.Const"() {value = dense<[1.5, 0x7FC00000, -0.0, 0.0, -2.0]> : tensor<5xf32>} : () -> tensor<5xf32>
  %w1 = "tf.Where"(%f) : (tensor<5xf32>) -> tensor<?x1xi64>
  %p1 = tensor.cast %w1 : tensor<?x1xi64> to tensor<?x?xi64>
  call @print(%p1) : (tensor<?x?xi64>) -> ()
  // CHECK: [3,  1]
  // CHECK: [0],
  // CHECK-NEXT: [1],
  // CHECK-NEXT: [4]]

  // All false: an empty [0, 2] result.
  %z = "tf.Const"() {value = dense<0> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %w2 = "tf.Where"(%z) : (tensor<2x3xi32>) -> tensor<?x2xi64>
  %p2 = tensor.cast %w2 : tensor<?x2xi64> to tensor<?x?xi64>
  call @print(%p2) : (tensor<?x?xi64>) -> ()
  // CHECK: [0,  2]
  // CHECK: rank = 2 offset = 0 sizes = [0, 2]

  // Rank 1 with a run-time size; negative integers are true.
  %i = arith.constant dense<[0, 3, 0, -1, 7]> : tensor<5xi32>
  %id = tensor.cast %i : tensor<5xi32> to tensor<?xi32>
  %w3 = call @where_dynamic(%id) : (tensor<?xi32>) -> tensor<?x1xi64>
  %p3 = tensor.cast %w3 : tensor<?x1xi64> to tensor<?x?xi64>
  call @print(%p3) : (tensor<?x?xi64>) -> ()
  // CHECK: [3,  1]
  // CHECK: [1],
  // CHECK-NEXT: [3],
  // CHECK-NEXT: [4]]

  // Unsigned 8-bit, rank 3 (255 and 128 are non-zero, not negative):
  // [[0, 0, 1], [1, 0, 0], [1, 1, 1]].
  %u = "tf.Const"() {value = dense<[[[0, 255], [0, 0]], [[1, 0], [0, 128]]]> : tensor<2x2x2xui8>} : () -> tensor<2x2x2xui8>
  %w4 = "tf.Where"(%u) : (tensor<2x2x2xui8>) -> tensor<?x3xi64>
  %p4 = tensor.cast %w4 : tensor<?x3xi64> to tensor<?x?xi64>
  call @print(%p4) : (tensor<?x?xi64>) -> ()
  // CHECK: [3,  3]
  // CHECK: [0,   0,   1],
  // CHECK-NEXT: [1,   0,   0],
  // CHECK-NEXT: [1,   1,   1]]

  // Rank 0: [1, 0] for a true scalar, [0, 0] for a false one.
  %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %w5 = "tf.Where"(%t) : (tensor<i1>) -> tensor<?x0xi64>
  %p5 = tensor.cast %w5 : tensor<?x0xi64> to tensor<?x?xi64>
  call @print(%p5) : (tensor<?x?xi64>) -> ()
  // CHECK: [1,  0]
  %n = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %w6 = "tf.Where"(%n) : (tensor<f32>) -> tensor<?x0xi64>
  %p6 = tensor.cast %w6 : tensor<?x0xi64> to tensor<?x?xi64>
  call @print(%p6) : (tensor<?x?xi64>) -> ()
  // CHECK: [0,  0]
  return
}
