// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// Ops whose result shape depends on an operand known only at run time (an
// axis, a permutation, multiples, float bounds), each run with two values of
// that operand. Expected values are TensorFlow 2.21's for the same calls
// (tf.reduce_sum, tf.gather, tf.concat, tf.expand_dims, tf.transpose,
// tf.tile, tf.range, tf.einsum).

func.func private @printMemrefF32(tensor<*xf32>)

func.func @sum(%x: tensor<2x3xf32>, %a: tensor<i32>) -> tensor<?xf32> {
  %0 = "tf.Sum"(%x, %a) : (tensor<2x3xf32>, tensor<i32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

func.func @mean_keep_dims(%x: tensor<2x3xf32>, %a: tensor<1xi32>) -> tensor<?x?xf32> {
  %0 = "tf.Mean"(%x, %a) {keep_dims = true} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @gather(%x: tensor<2x3xf32>, %i: tensor<2xi32>, %a: tensor<i32>) -> tensor<?x?xf32> {
  %0 = "tf.GatherV2"(%x, %i, %a) : (tensor<2x3xf32>, tensor<2xi32>, tensor<i32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @concat(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %a: tensor<i32>) -> tensor<?x?xf32> {
  %0 = "tf.ConcatV2"(%x, %y, %a) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Operands of sizes 1x3 and 2x3 concatenate only along axis 0: the other
// axis is no case of the switch.
func.func @concat_rows(%x: tensor<1x3xf32>, %y: tensor<2x3xf32>, %a: tensor<i32>) -> tensor<?x?xf32> {
  %0 = "tf.ConcatV2"(%x, %y, %a) : (tensor<1x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

func.func @expand_dims(%x: tensor<2x3xf32>, %a: tensor<i32>) -> tensor<?x?x?xf32> {
  %0 = "tf.ExpandDims"(%x, %a) : (tensor<2x3xf32>, tensor<i32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

func.func @transpose(%x: tensor<2x1x3xf32>, %p: tensor<3xi32>) -> tensor<?x?x?xf32> {
  %0 = "tf.Transpose"(%x, %p) : (tensor<2x1x3xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

func.func @tile(%x: tensor<2x3xf32>, %m: tensor<2xi32>) -> tensor<?x?xf32> {
  %0 = "tf.Tile"(%x, %m) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// tf.range(start, limit, delta) - start: TensorFlow 2.21's CPU kernel
// computes start + i * delta, so from 2^24 by 1 the values are 2^24, 2^24,
// 2^24 + 2, 2^24 + 4 (an accumulation would stay at 2^24).
func.func @range_from(%s: tensor<f32>, %l: tensor<f32>, %d: tensor<f32>) -> tensor<?xf32> {
  %0 = "tf.Range"(%s, %l, %d) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  %1 = "tf.Sub"(%0, %s) : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// An ellipsis standing for one dimension on the left operand, none on the
// right: "...ij,jk->...ik" batches the left operand's leading dimension.
func.func @einsum(%x: tensor<2x1x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x1x2xf32> {
  %0 = "tf.Einsum"(%x, %w) {equation = "...ij,jk->...ik"} : (tensor<2x1x3xf32>, tensor<3x2xf32>) -> tensor<2x1x2xf32>
  return %0 : tensor<2x1x2xf32>
}

func.func @print(%t: tensor<?xf32>) {
  %u = tensor.cast %t : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print2(%t: tensor<?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print3(%t: tensor<?x?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %y = arith.constant dense<[[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<2x3xf32>
  %a0 = arith.constant dense<0> : tensor<i32>
  %a1 = arith.constant dense<1> : tensor<i32>
  %am1 = arith.constant dense<-1> : tensor<i32>
  %am2 = arith.constant dense<-2> : tensor<i32>

  %s0 = call @sum(%x, %a0) : (tensor<2x3xf32>, tensor<i32>) -> tensor<?xf32>
  call @print(%s0) : (tensor<?xf32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [5,{{ +}}7,{{ +}}9]
  %s1 = call @sum(%x, %am1) : (tensor<2x3xf32>, tensor<i32>) -> tensor<?xf32>
  call @print(%s1) : (tensor<?xf32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [6,{{ +}}15]

  %k1 = arith.constant dense<1> : tensor<1xi32>
  %m1 = call @mean_keep_dims(%x, %k1) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<?x?xf32>
  call @print2(%m1) : (tensor<?x?xf32>) -> ()
  // CHECK: sizes = [2, 1]
  // CHECK-NEXT: {{\[\[}}2],
  // CHECK-NEXT: [5]]

  %i = arith.constant dense<[2, 0]> : tensor<2xi32>
  %g1 = call @gather(%x, %i, %a1) : (tensor<2x3xf32>, tensor<2xi32>, tensor<i32>) -> tensor<?x?xf32>
  call @print2(%g1) : (tensor<?x?xf32>) -> ()
  // CHECK: sizes = [2, 2]
  // CHECK-NEXT: {{\[\[}}3,{{ +}}1],
  // CHECK-NEXT: [6,{{ +}}4]]
  %j = arith.constant dense<[1, 1]> : tensor<2xi32>
  %g0 = call @gather(%x, %j, %am2) : (tensor<2x3xf32>, tensor<2xi32>, tensor<i32>) -> tensor<?x?xf32>
  call @print2(%g0) : (tensor<?x?xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}4,{{ +}}5,{{ +}}6],
  // CHECK-NEXT: [4,{{ +}}5,{{ +}}6]]

  %c0 = call @concat(%x, %y, %a0) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<?x?xf32>
  call @print2(%c0) : (tensor<?x?xf32>) -> ()
  // CHECK: sizes = [4, 3]
  // CHECK-NEXT: {{\[\[}}1,{{ +}}2,{{ +}}3],
  // CHECK-NEXT: [4,{{ +}}5,{{ +}}6],
  // CHECK-NEXT: [7,{{ +}}8,{{ +}}9],
  // CHECK-NEXT: [10,{{ +}}11,{{ +}}12]]
  %c1 = call @concat(%x, %y, %am1) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<?x?xf32>
  call @print2(%c1) : (tensor<?x?xf32>) -> ()
  // CHECK: sizes = [2, 6]
  // CHECK-NEXT: {{\[\[}}1,{{ +}}2,{{ +}}3,{{ +}}7,{{ +}}8,{{ +}}9],
  // CHECK-NEXT: [4,{{ +}}5,{{ +}}6,{{ +}}10,{{ +}}11,{{ +}}12]]

  %row = arith.constant dense<[[0.0, -1.0, -2.0]]> : tensor<1x3xf32>
  %cr = call @concat_rows(%row, %x, %am2) : (tensor<1x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<?x?xf32>
  call @print2(%cr) : (tensor<?x?xf32>) -> ()
  // CHECK: sizes = [3, 3]
  // CHECK-NEXT: {{\[\[}}0,{{ +}}-1,{{ +}}-2],
  // CHECK-NEXT: [1,{{ +}}2,{{ +}}3],
  // CHECK-NEXT: [4,{{ +}}5,{{ +}}6]]

  %e1 = call @expand_dims(%x, %a1) : (tensor<2x3xf32>, tensor<i32>) -> tensor<?x?x?xf32>
  call @print3(%e1) : (tensor<?x?x?xf32>) -> ()
  // CHECK: sizes = [2, 1, 3]
  %e2 = call @expand_dims(%x, %am1) : (tensor<2x3xf32>, tensor<i32>) -> tensor<?x?x?xf32>
  call @print3(%e2) : (tensor<?x?x?xf32>) -> ()
  // CHECK: sizes = [2, 3, 1]

  %x3 = arith.constant dense<[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]]> : tensor<2x1x3xf32>
  %p = arith.constant dense<[2, 0, 1]> : tensor<3xi32>
  %t = call @transpose(%x3, %p) : (tensor<2x1x3xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  call @print3(%t) : (tensor<?x?x?xf32>) -> ()
  // CHECK: sizes = [3, 2, 1]
  // CHECK-NEXT: {{\[\[\[}}1],
  // CHECK-NEXT: [4]],
  // CHECK-NEXT: {{\[\[}}2],
  // CHECK-NEXT: [5]],
  // CHECK-NEXT: {{\[\[}}3],
  // CHECK-NEXT: [6]]]
  %q = arith.constant dense<[1, 2, 0]> : tensor<3xi32>
  %tq = call @transpose(%x3, %q) : (tensor<2x1x3xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  call @print3(%tq) : (tensor<?x?x?xf32>) -> ()
  // CHECK: sizes = [1, 3, 2]
  // CHECK-NEXT: {{\[\[\[}}1,{{ +}}4],
  // CHECK-NEXT: [2,{{ +}}5],
  // CHECK-NEXT: [3,{{ +}}6]]]

  %w = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]]> : tensor<3x2xf32>
  %es = call @einsum(%x3, %w) : (tensor<2x1x3xf32>, tensor<3x2xf32>) -> tensor<2x1x2xf32>
  %esd = tensor.cast %es : tensor<2x1x2xf32> to tensor<?x?x?xf32>
  call @print3(%esd) : (tensor<?x?x?xf32>) -> ()
  // CHECK: sizes = [2, 1, 2]
  // CHECK-NEXT: {{\[\[\[}}4,{{ +}}-1]],
  // CHECK-NEXT: {{\[\[}}10,{{ +}}-1]]]

  %mult = arith.constant dense<[1, 2]> : tensor<2xi32>
  %tl = call @tile(%x, %mult) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  call @print2(%tl) : (tensor<?x?xf32>) -> ()
  // CHECK: sizes = [2, 6]
  // CHECK-NEXT: {{\[\[}}1,{{ +}}2,{{ +}}3,{{ +}}1,{{ +}}2,{{ +}}3],
  // CHECK-NEXT: [4,{{ +}}5,{{ +}}6,{{ +}}4,{{ +}}5,{{ +}}6]]

  %big = arith.constant dense<16777216.0> : tensor<f32>
  %bigl = arith.constant dense<16777220.0> : tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %r0 = call @range_from(%big, %bigl, %one) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  call @print(%r0) : (tensor<?xf32>) -> ()
  // CHECK: sizes = [4]
  // CHECK-NEXT: [0,{{ +}}0,{{ +}}2,{{ +}}4]
  %two = arith.constant dense<2.0> : tensor<f32>
  %lim = arith.constant dense<-1.0> : tensor<f32>
  %half = arith.constant dense<-0.5> : tensor<f32>
  %r1 = call @range_from(%two, %lim, %half) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  call @print(%r1) : (tensor<?xf32>) -> ()
  // CHECK: sizes = [6]
  // CHECK-NEXT: [0,{{ +}}-0.5,{{ +}}-1,{{ +}}-1.5,{{ +}}-2,{{ +}}-2.5]
  return
}
