// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-parallelize-loops{min-work=0}))' | FileCheck %s
// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-parallelize-loops))' | FileCheck %s --check-prefix=SMALL

// Loops with less work than min-work (65536 by default) stay sequential.
// SMALL-NOT: scf.forall

// Rows of a tensor written by one transfer each: a forall over the rows.
// CHECK-LABEL: func.func @rows
// CHECK: scf.forall (%[[I:.+]]) in (16) shared_outs(%[[O:.+]] = %{{.+}}) -> (tensor<16x32xf32>)
// CHECK: %[[SLAB:.+]] = tensor.extract_slice %[[O]][%[[I]], 0] [1, 32] [1, 1] : tensor<16x32xf32> to tensor<1x32xf32>
// CHECK: vector.transfer_read %{{.+}}[%[[I]], %{{.+}}]
// CHECK: %[[W:.+]] = vector.transfer_write %{{.+}}, %[[SLAB]][%{{.+}}, %{{.+}}] {{.*}} : vector<1x32xf32>, tensor<1x32xf32>
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[W]] into %[[O]][%[[I]], 0] [1, 32] [1, 1]
// CHECK-NOT: scf.for
func.func @rows(%in: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%t = %e) -> (tensor<16x32xf32>) {
    %v = vector.transfer_read %in[%i, %c0], %cst {in_bounds = [true, true]} : tensor<16x32xf32>, vector<1x32xf32>
    %w = arith.addf %v, %v : vector<1x32xf32>
    %t2 = vector.transfer_write %w, %t[%i, %c0] {in_bounds = [true, true]} : vector<1x32xf32>, tensor<16x32xf32>
    scf.yield %t2 : tensor<16x32xf32>
  }
  return %r : tensor<16x32xf32>
}

// -----

// Tiles of 4 rows, an inner loop over column tiles of the same tensor, and a
// read of the tile before it is written (an accumulator): each forall
// iteration owns 4 rows.
// CHECK-LABEL: func.func @nested
// CHECK: scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (16, 64) step (4, 32) shared_outs(%[[O:.+]] = %{{.+}})
// CHECK: tensor.extract_slice %[[O]][%[[I]], %[[J]]] [4, 32] [1, 1] : tensor<16x64xf32> to tensor<4x32xf32>
// CHECK: tensor.parallel_insert_slice %{{.+}} into %[[O]][%[[I]], %[[J]]] [4, 32] [1, 1]
// CHECK-NOT: scf.for
func.func @nested(%in: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %cst = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c16 step %c4 iter_args(%t = %in) -> (tensor<16x64xf32>) {
    %s = scf.for %j = %c0 to %c64 step %c32 iter_args(%u = %t) -> (tensor<16x64xf32>) {
      %v = vector.transfer_read %u[%i, %j], %cst {in_bounds = [true, true]} : tensor<16x64xf32>, vector<4x32xf32>
      %w = arith.mulf %v, %v : vector<4x32xf32>
      %u2 = vector.transfer_write %w, %u[%i, %j] {in_bounds = [true, true]} : vector<4x32xf32>, tensor<16x64xf32>
      scf.yield %u2 : tensor<16x64xf32>
    }
    scf.yield %s : tensor<16x64xf32>
  }
  return %r : tensor<16x64xf32>
}

// -----

// Slices: extract the tile, compute, insert it back.
// CHECK-LABEL: func.func @slices
// CHECK: scf.forall (%[[I:.+]]) = (0) to (8) step (2) shared_outs(%[[O:.+]] = %{{.+}})
// CHECK: %[[SLAB:.+]] = tensor.extract_slice %[[O]][%[[I]], 0] [2, 16] [1, 1]
// CHECK: tensor.extract_slice %[[SLAB]][%{{.+}}, 0] [2, 16] [1, 1] : tensor<2x16xf32> to tensor<2x16xf32>
// CHECK: linalg.negf
// CHECK: tensor.insert_slice %{{.+}} into %[[SLAB]][%{{.+}}, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<2x16xf32>
// CHECK: tensor.parallel_insert_slice
func.func @slices(%in: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%t = %in) -> (tensor<8x16xf32>) {
    %s = tensor.extract_slice %t[%i, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
    %n = linalg.negf ins(%s : tensor<2x16xf32>) outs(%s : tensor<2x16xf32>) -> tensor<2x16xf32>
    %t2 = tensor.insert_slice %n into %t[%i, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
    scf.yield %t2 : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}

// -----

// A reduction loop: every iteration writes the same row.
// CHECK-LABEL: func.func @reduction
// CHECK-NOT: scf.forall
// CHECK: scf.for
func.func @reduction(%in: tensor<16x32xf32>) -> tensor<1x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32xf32>
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%t = %e) -> (tensor<1x32xf32>) {
    %a = vector.transfer_read %t[%c0, %c0], %cst {in_bounds = [true, true]} : tensor<1x32xf32>, vector<1x32xf32>
    %v = vector.transfer_read %in[%i, %c0], %cst {in_bounds = [true, true]} : tensor<16x32xf32>, vector<1x32xf32>
    %w = arith.addf %a, %v : vector<1x32xf32>
    %t2 = vector.transfer_write %w, %t[%c0, %c0] {in_bounds = [true, true]} : vector<1x32xf32>, tensor<1x32xf32>
    scf.yield %t2 : tensor<1x32xf32>
  }
  return %r : tensor<1x32xf32>
}

// -----

// A read of the next row (a stencil): not the iteration's own slab.
// CHECK-LABEL: func.func @reads_next_row
// CHECK-NOT: scf.forall
// CHECK: scf.for
func.func @reads_next_row(%in: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %cst = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c15 step %c1 iter_args(%t = %in) -> (tensor<16x32xf32>) {
    %n = arith.addi %i, %c1 : index
    %v = vector.transfer_read %t[%n, %c0], %cst {in_bounds = [true, true]} : tensor<16x32xf32>, vector<1x32xf32>
    %t2 = vector.transfer_write %v, %t[%i, %c0] {in_bounds = [true, true]} : vector<1x32xf32>, tensor<16x32xf32>
    scf.yield %t2 : tensor<16x32xf32>
  }
  return %r : tensor<16x32xf32>
}

// -----

// The last tile would reach past the tensor (rows 12-15 of 14).
// CHECK-LABEL: func.func @partial_last_tile
// CHECK-NOT: scf.forall
// CHECK: scf.for
func.func @partial_last_tile(%in: tensor<14x32xf32>) -> tensor<14x32xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c14 = arith.constant 14 : index
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<14x32xf32>
  %r = scf.for %i = %c0 to %c14 step %c4 iter_args(%t = %e) -> (tensor<14x32xf32>) {
    %v = vector.transfer_read %in[%i, %c0], %cst : tensor<14x32xf32>, vector<4x32xf32>
    %t2 = vector.transfer_write %v, %t[%i, %c0] : vector<4x32xf32>, tensor<14x32xf32>
    scf.yield %t2 : tensor<14x32xf32>
  }
  return %r : tensor<14x32xf32>
}
