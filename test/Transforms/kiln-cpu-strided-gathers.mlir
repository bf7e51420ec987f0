// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-strided-gathers))' | FileCheck %s

// A gather on a slice of the last axis (8x2 of an 8x3 buffer): the indices
// are row-major positions in 8x2 (2 * row + column); in memory the rows are
// 3 apart, so each becomes (p / 2) * 3 + (p % 2) * 1.
// CHECK-LABEL: func.func @slice_of_last_axis
// CHECK-SAME:    (%[[S:.+]]: memref<8x2xf32, strided<[3, 1]>>, %[[I:.+]]: vector<4xindex>,
// CHECK:         %[[TWO:.+]] = arith.constant dense<2> : vector<4xindex>
// CHECK:         %[[COL:.+]] = arith.remui %[[I]], %[[TWO]]
// CHECK:         %[[ROW:.+]] = arith.divui %[[I]], %[[TWO]]
// CHECK:         %[[ONE:.+]] = arith.constant dense<1> : vector<4xindex>
// CHECK:         %[[COLOFF:.+]] = arith.muli %[[COL]], %[[ONE]]
// CHECK:         %[[THREE:.+]] = arith.constant dense<3> : vector<4xindex>
// CHECK:         %[[ROWOFF:.+]] = arith.muli %[[ROW]], %[[THREE]]
// CHECK:         %[[OFF:.+]] = arith.addi %[[COLOFF]], %[[ROWOFF]]
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         vector.gather %[[S]][%[[C0]], %[[C0]]] [%[[OFF]]]
func.func @slice_of_last_axis(%s: memref<8x2xf32, strided<[3, 1]>>, %i: vector<4xindex>, %m: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %g = vector.gather %s[%c0, %c0] [%i], %m, %p : memref<8x2xf32, strided<[3, 1]>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// Non-zero offsets are a row-major position too (1 * 2 + 1 = 3), added to
// every lane before the split; the offsets become zero.
// CHECK-LABEL: func.func @offsets
// CHECK-SAME:    (%[[S:.+]]: memref<8x2xf32, strided<[3, 1], offset: 4>>, %[[I:.+]]: vector<4xindex>,
// CHECK:         %[[START:.+]] = arith.constant dense<3> : vector<4xindex>
// CHECK:         %[[P:.+]] = arith.addi %[[I]], %[[START]]
// CHECK:         arith.remui %[[P]]
// CHECK:         %[[Z:.+]] = arith.constant 0 : index
// CHECK:         vector.gather %[[S]][%[[Z]], %[[Z]]]
func.func @offsets(%s: memref<8x2xf32, strided<[3, 1], offset: 4>>, %i: vector<4xindex>, %m: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  %c1 = arith.constant 1 : index
  %g = vector.gather %s[%c1, %c1] [%i], %m, %p : memref<8x2xf32, strided<[3, 1], offset: 4>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// Dynamic sizes and strides come from the buffer (memref.dim and
// memref.extract_strided_metadata); i32 indices are cast to index first.
// CHECK-LABEL: func.func @dynamic
// CHECK:         arith.index_cast %{{.+}} : vector<4xi32> to vector<4xindex>
// CHECK-DAG:     memref.dim
// CHECK-DAG:     memref.extract_strided_metadata
// CHECK:         arith.remui
// CHECK:         vector.broadcast
// CHECK:         vector.gather
func.func @dynamic(%s: memref<?x?xf32, strided<[?, 1], offset: ?>>, %i: vector<4xi32>, %m: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %g = vector.gather %s[%c0, %c0] [%i], %m, %p : memref<?x?xf32, strided<[?, 1], offset: ?>>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g : vector<4xf32>
}

// -----

// Contiguous buffers (an identity layout, or static row-major strides with
// an offset) already take row-major positions as memory offsets: unchanged.
// CHECK-LABEL: func.func @contiguous
// CHECK-NOT:     arith.remui
// CHECK:         vector.gather %{{.+}}[%{{.+}}, %{{.+}}] [%{{.+}}]
// CHECK-NOT:     arith.remui
// CHECK:         vector.gather %{{.+}}[%{{.+}}, %{{.+}}] [%{{.+}}]
// CHECK-NOT:     arith.remui
// CHECK:         return
func.func @contiguous(%a: memref<8x2xf32>, %b: memref<8x2xf32, strided<[2, 1], offset: 6>>, %i: vector<4xindex>, %m: vector<4xi1>, %p: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %g = vector.gather %a[%c0, %c0] [%i], %m, %p : memref<8x2xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  %h = vector.gather %b[%c0, %c0] [%i], %m, %p : memref<8x2xf32, strided<[2, 1], offset: 6>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return %g, %h : vector<4xf32>, vector<4xf32>
}
