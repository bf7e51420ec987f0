// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-plan-buffers))' | FileCheck %s

// A chain: %a dies when %c is made, so %c reuses %a's bytes; %b overlaps
// both. The returned buffer stays its own allocation (the caller frees it).

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.+]]: memref<1024xf32>)
// CHECK: %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<8192xi8>
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[A:.+]] = memref.view %[[ARENA]][%[[C0]]][] : memref<8192xi8> to memref<1024xf32>
// CHECK: linalg.copy ins(%[[X]] : memref<1024xf32>) outs(%[[A]] : memref<1024xf32>)
// CHECK: %[[C4096:.+]] = arith.constant 4096 : index
// CHECK-NEXT: %[[B:.+]] = memref.view %[[ARENA]][%[[C4096]]][] : memref<8192xi8> to memref<1024xf32>
// CHECK: linalg.add ins(%[[A]], %[[A]] : {{.*}}) outs(%[[B]] : memref<1024xf32>)
// CHECK: %[[C0_2:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[C:.+]] = memref.view %[[ARENA]][%[[C0_2]]][] : memref<8192xi8> to memref<1024xf32>
// CHECK: linalg.add ins(%[[B]], %[[B]] : {{.*}}) outs(%[[C]] : memref<1024xf32>)
// CHECK: %[[R:.+]] = memref.alloc() : memref<1024xf32>
// CHECK: linalg.add ins(%[[C]], %[[C]] : {{.*}}) outs(%[[R]] : memref<1024xf32>)
// CHECK: return %[[R]]
func.func @chain(%x: memref<1024xf32>) -> memref<1024xf32> {
  %a = memref.alloc() : memref<1024xf32>
  linalg.copy ins(%x : memref<1024xf32>) outs(%a : memref<1024xf32>)
  %b = memref.alloc() : memref<1024xf32>
  linalg.add ins(%a, %a : memref<1024xf32>, memref<1024xf32>) outs(%b : memref<1024xf32>)
  %c = memref.alloc() : memref<1024xf32>
  linalg.add ins(%b, %b : memref<1024xf32>, memref<1024xf32>) outs(%c : memref<1024xf32>)
  %r = memref.alloc() : memref<1024xf32>
  linalg.add ins(%c, %c : memref<1024xf32>, memref<1024xf32>) outs(%r : memref<1024xf32>)
  return %r : memref<1024xf32>
}

// -----

// %t is last used inside the loop, so it lives until the loop ends and %v,
// allocated before the loop, must not share its bytes (256 apart, 64-byte
// aligned). %u comes after both are dead and reuses offset 0. A buffer
// returned through a subview alias, a dynamic one and an i1 one are not
// planned.

// CHECK-LABEL: func.func @aliases_and_loops
// CHECK: %[[ARENA:.+]] = memref.alloc() {alignment = 64 : i64} : memref<512xi8>
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[T:.+]] = memref.view %[[ARENA]][%[[C0]]][] : memref<512xi8> to memref<64xf32>
// CHECK: %[[C256:.+]] = arith.constant 256 : index
// CHECK-NEXT: %[[V:.+]] = memref.view %[[ARENA]][%[[C256]]][] : memref<512xi8> to memref<64xf32>
// CHECK: scf.for
// CHECK: linalg.add ins(%[[T]], %{{.+}} : {{.*}}) outs(%[[T]] : memref<64xf32>)
// CHECK: %[[C0_2:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[U:.+]] = memref.view %[[ARENA]][%[[C0_2]]][] : memref<512xi8> to memref<64xf32>
// CHECK: %[[RET:.+]] = memref.alloc() : memref<128xf32>
// CHECK: memref.subview %[[RET]]
// CHECK: memref.alloc(%{{.+}}) : memref<?xf32>
// CHECK: memref.alloc() : memref<64xi1>
func.func @aliases_and_loops(%x: memref<64xf32>, %n: index)
    -> memref<64xf32, strided<[1], offset: 64>> {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<64xf32>
  linalg.copy ins(%x : memref<64xf32>) outs(%t : memref<64xf32>)
  %v = memref.alloc() : memref<64xf32>
  scf.for %i = %c1 to %c4 step %c1 {
    linalg.add ins(%t, %x : memref<64xf32>, memref<64xf32>) outs(%t : memref<64xf32>)
  }
  linalg.copy ins(%x : memref<64xf32>) outs(%v : memref<64xf32>)
  %u = memref.alloc() : memref<64xf32>
  linalg.add ins(%x, %x : memref<64xf32>, memref<64xf32>) outs(%u : memref<64xf32>)
  %ret = memref.alloc() : memref<128xf32>
  %half = memref.subview %ret[64] [64] [1] : memref<128xf32> to memref<64xf32, strided<[1], offset: 64>>
  linalg.copy ins(%u : memref<64xf32>) outs(%half : memref<64xf32, strided<[1], offset: 64>>)
  %dyn = memref.alloc(%n) : memref<?xf32>
  %bits = memref.alloc() : memref<64xi1>
  memref.dealloc %dyn : memref<?xf32>
  memref.dealloc %bits : memref<64xi1>
  return %half : memref<64xf32, strided<[1], offset: 64>>
}
