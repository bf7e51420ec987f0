// RUN: kiln-opt %s -split-input-file -npuhw-allocate-lmem | FileCheck %s
// The addresses pass the runtime's verifier (alignment, regions, rights):
// RUN: kiln-opt %s -split-input-file -npuhw-allocate-lmem -npuhw-assign-semaphores -npuhw-verify-stream -o /dev/null

// load A; B = rescale(A); C = rescale(B); store C. Every access of A
// happens-before every access of C (through the tokens), so C reuses A's
// bytes; B overlaps both in time and gets its own.

// CHECK-LABEL: npuhw.stream @chain
// CHECK-NOT:     npuhw.alloc
// CHECK-DAG:     %[[A:.+]] = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
// CHECK-DAG:     %[[B:.+]] = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>
// CHECK-DAG:     %[[C:.+]] = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
// CHECK:         npuhw.dma_load {{.*}} dst(%[[A]] :
// CHECK-NEXT:    npuhw.vec_unary rescale in(%[[A]] : {{.*}} out(%[[B]] :
// CHECK-NEXT:    npuhw.vec_unary rescale in(%[[B]] : {{.*}} out(%[[C]] :
// CHECK-NEXT:    npuhw.dma_store src(%[[C]] :
module {
  npuhw.stream @chain {
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 1024
    %x = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %y = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>
    %a = npuhw.alloc : memref<4x4x1x16xi8, #npuhw.lmem<act>>
    %b = npuhw.alloc : memref<4x4x1x16xi8, #npuhw.lmem<act>>
    %c = npuhw.alloc : memref<4x4x1x16xi8, #npuhw.lmem<act>>
    %l = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<4x4x1x16xi8, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    %u = npuhw.vec_unary rescale in(%a : memref<4x4x1x16xi8, #npuhw.lmem<act>>) out(%b : memref<4x4x1x16xi8, #npuhw.lmem<act>>) after(%l) {mult = 1073741824, shift = 31, min = -128, max = 127}
    %v = npuhw.vec_unary rescale in(%b : memref<4x4x1x16xi8, #npuhw.lmem<act>>) out(%c : memref<4x4x1x16xi8, #npuhw.lmem<act>>) after(%u) {mult = 1073741824, shift = 31, min = -128, max = 127}
    %s = npuhw.dma_store src(%c : memref<4x4x1x16xi8, #npuhw.lmem<act>>) dst(%y : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) after(%v) {n0 = 1, n1 = 1, n2 = 1, src_run = 256}
    npuhw.end
  }
}

// -----

// The store of A (DMA_OUT) and the load of C (DMA_IN) are not ordered by any
// token: they may run at the same time, so C gets bytes of its own although
// it comes after A's last access in stream order.

// CHECK-LABEL: npuhw.stream @concurrent
// CHECK-DAG:     npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>
// CHECK-DAG:     npuhw.view : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<act>>
module {
  npuhw.stream @concurrent {
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 1024
    %x = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %y = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>
    %a = npuhw.alloc : memref<256xi8, #npuhw.lmem<act>>
    %c = npuhw.alloc : memref<256xi8, #npuhw.lmem<act>>
    %l = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<256xi8, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    %s = npuhw.dma_store src(%a : memref<256xi8, #npuhw.lmem<act>>) dst(%y : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) after(%l) {n0 = 1, n1 = 1, n2 = 1, src_run = 256}
    %l2 = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%c : memref<256xi8, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    npuhw.end
  }
}

// -----

// Tiles taken with memref.subview become views at the tile's offset plus the
// buffer's; i32 offsets count elements (the bytes are a multiple of 16). The
// accumulator buffer B is placed after A, which is still live, in ACC; B
// itself is only used through its tiles, so no view of it is left.

// CHECK-LABEL: npuhw.stream @subviews
// CHECK-NOT:     memref.subview
// CHECK-NOT:     memref<8x4x1x16xi32
// CHECK-DAG:     %[[T0:.+]] = npuhw.view : memref<4x4x1x16xi32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>>
// CHECK-DAG:     %[[T1:.+]] = npuhw.view : memref<4x4x1x16xi32, strided<[64, 16, 16, 1], offset: 512>, #npuhw.lmem<acc>>
// CHECK-DAG:     %[[R:.+]] = npuhw.view : memref<2x4x1x16xi32, strided<[64, 16, 16, 1], offset: 576>, #npuhw.lmem<acc>>
// CHECK:         npuhw.dma_fill dst(%{{.+}} : memref<256xi32, strided<[1]>, #npuhw.lmem<acc>>)
// CHECK:         npuhw.mac_conv {{.*}} out(%[[T0]] :
// CHECK-NEXT:    npuhw.mac_conv {{.*}} out(%[[T1]] :
// CHECK-NEXT:    npuhw.vec_unary rescale in(%[[R]] :
module {
  npuhw.stream @subviews {
    %x = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
    %o = npuhw.view : memref<2x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>
    %w = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %a = npuhw.alloc : memref<256xi32, #npuhw.lmem<acc>>
    %b = npuhw.alloc : memref<8x4x1x16xi32, #npuhw.lmem<acc>>
    %t0 = memref.subview %b[0, 0, 0, 0] [4, 4, 1, 16] [1, 1, 1, 1] : memref<8x4x1x16xi32, #npuhw.lmem<acc>> to memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>
    %t1 = memref.subview %b[4, 0, 0, 0] [4, 4, 1, 16] [1, 1, 1, 1] : memref<8x4x1x16xi32, #npuhw.lmem<acc>> to memref<4x4x1x16xi32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>>
    %r = memref.subview %t1[1, 0, 0, 0] [2, 4, 1, 16] [1, 1, 1, 1] : memref<4x4x1x16xi32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>> to memref<2x4x1x16xi32, strided<[64, 16, 16, 1], offset: 320>, #npuhw.lmem<acc>>
    %f = npuhw.dma_fill dst(%a : memref<256xi32, #npuhw.lmem<acc>>) {pattern = 0}
    %m0 = npuhw.mac_conv in(%x : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%t0 : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    %m1 = npuhw.mac_conv in(%x : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%t1 : memref<4x4x1x16xi32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>>) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    %u = npuhw.vec_unary rescale in(%r : memref<2x4x1x16xi32, strided<[64, 16, 16, 1], offset: 320>, #npuhw.lmem<acc>>) out(%o : memref<2x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) after(%m1, %f) {mult = 1073741824, shift = 31, min = -128, max = 127}
    npuhw.end
  }
}

// -----

// The same stream with the load of C after the store of A: now every access
// of A happens-before C's, and C takes A's bytes.

// CHECK-LABEL: npuhw.stream @ordered
// CHECK-COUNT-2: npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>
// CHECK-NOT:     offset: 256
module {
  npuhw.stream @ordered {
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 1024
    %x = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %y = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>
    %a = npuhw.alloc : memref<256xi8, #npuhw.lmem<act>>
    %c = npuhw.alloc : memref<256xi8, #npuhw.lmem<act>>
    %l = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<256xi8, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    %s = npuhw.dma_store src(%a : memref<256xi8, #npuhw.lmem<act>>) dst(%y : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) after(%l) {n0 = 1, n1 = 1, n2 = 1, src_run = 256}
    %l2 = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%c : memref<256xi8, #npuhw.lmem<act>>) after(%s) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    npuhw.end
  }
}

// -----

// from_top: A is placed from the bottom of ACT, B (from_top) so that it
// ends at the end of the 512 KiB region (524288 - 256), and C, from_top and
// ordered after B by a token, reuses the top bytes of B.

// CHECK-LABEL: npuhw.stream @top
// CHECK-DAG:     %[[A:.+]] = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>
// CHECK-DAG:     %[[B:.+]] = npuhw.view : memref<256xi8, strided<[1], offset: 524032>, #npuhw.lmem<act>>
// CHECK-DAG:     %[[C:.+]] = npuhw.view : memref<128xi8, strided<[1], offset: 524160>, #npuhw.lmem<act>>
// CHECK:         npuhw.dma_load {{.*}} dst(%[[A]] :
// CHECK:         npuhw.dma_load {{.*}} dst(%[[B]] :
// CHECK:         npuhw.dma_store src(%[[B]] :
// CHECK:         npuhw.dma_load {{.*}} dst(%[[C]] :
module {
  npuhw.stream @top {
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 1024
    %x = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %y = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>
    %a = npuhw.alloc : memref<256xi8, #npuhw.lmem<act>>
    %b = npuhw.alloc {from_top} : memref<256xi8, #npuhw.lmem<act>>
    %c = npuhw.alloc {from_top} : memref<128xi8, #npuhw.lmem<act>>
    %la = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<256xi8, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    %lb = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%b : memref<256xi8, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    %sb = npuhw.dma_store src(%b : memref<256xi8, #npuhw.lmem<act>>) dst(%y : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) after(%lb) {n0 = 1, n1 = 1, n2 = 1, src_run = 256}
    %lc = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%c : memref<128xi8, #npuhw.lmem<act>>) after(%sb) {n0 = 1, n1 = 1, n2 = 1, src_run = 128, dst_run = 128}
    npuhw.end
  }
}
