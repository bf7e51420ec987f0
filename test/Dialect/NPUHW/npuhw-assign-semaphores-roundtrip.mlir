// The tokens npuhw-assign-semaphores leaves are those the .npub importer
// rebuilds from the FIFO pairing of waits and signals: the double-buffered
// pipeline, serialized and read back, has the same dependencies and ids.

// RUN: kiln-opt %s -npuhw-assign-semaphores | kiln-translate --npuhw-to-npub -o %t.npub
// RUN: kiln-translate --npub-to-npuhw %t.npub | FileCheck %s

// CHECK-LABEL: npuhw.stream @main
// CHECK:         %[[L0:.+]] = npuhw.dma_load {{.*}}signal0 = 0,
// CHECK-NEXT:    %[[C0:.+]] = npuhw.mac_conv {{.*}} after(%[[L0]]) {{.*}}signal0 = 1, signal1 = 3, {{.*}}wait0 = 0}
// CHECK-NEXT:    %[[R0:.+]] = npuhw.vec_unary {{.*}} after(%[[C0]]) {{.*}}signal0 = 2, signal1 = 4, wait0 = 1}
// CHECK-NEXT:    %[[S0:.+]] = npuhw.dma_store {{.*}} after(%[[R0]]) {{.*}}signal0 = 5, {{.*}}wait0 = 2}
// CHECK-NEXT:    %[[L1:.+]] = npuhw.dma_load {{.*}}signal0 = 0,
// CHECK-NEXT:    %[[C1:.+]] = npuhw.mac_conv {{.*}} after(%[[L1]]) {{.*}}signal0 = 1, signal1 = 3, {{.*}}wait0 = 0}
// CHECK-NEXT:    %[[R1:.+]] = npuhw.vec_unary {{.*}} after(%[[C1]]) {{.*}}signal0 = 2, signal1 = 4, wait0 = 1}
// CHECK-NEXT:    %[[S1:.+]] = npuhw.dma_store {{.*}} after(%[[R1]]) {{.*}}signal0 = 5, {{.*}}wait0 = 2}
// CHECK-NEXT:    %[[L2:.+]] = npuhw.dma_load {{.*}} after(%[[C0]]) {{.*}}signal0 = 0, {{.*}}wait0 = 3}
// CHECK-NEXT:    %[[C2:.+]] = npuhw.mac_conv {{.*}} after(%[[L2]], %[[R0]]) {{.*}}signal0 = 1, {{.*}}wait0 = 0, wait1 = 4}
// CHECK-NEXT:    %[[R2:.+]] = npuhw.vec_unary {{.*}} after(%[[S0]], %[[C2]]) {{.*}}signal0 = 2, wait0 = 5, wait1 = 1}
// CHECK-NEXT:    npuhw.dma_store {{.*}} after(%[[R2]]) {{.*}}wait0 = 2}
// CHECK-NEXT:    %[[L3:.+]] = npuhw.dma_load {{.*}} after(%[[C1]]) {{.*}}signal0 = 0, {{.*}}wait0 = 3}
// CHECK-NEXT:    %[[C3:.+]] = npuhw.mac_conv {{.*}} after(%[[L3]], %[[R1]]) {{.*}}signal0 = 1, {{.*}}wait0 = 0, wait1 = 4}
// CHECK-NEXT:    %[[R3:.+]] = npuhw.vec_unary {{.*}} after(%[[S1]], %[[C3]]) {{.*}}signal0 = 2, wait0 = 5, wait1 = 1}
// CHECK-NEXT:    npuhw.dma_store {{.*}} after(%[[R3]]) {{.*}}wait0 = 2}
// CHECK-NEXT:    npuhw.end{{ *$}}
module attributes {npu.target = #npu.target<"default">} {
  npuhw.stream @double_buffered {
    npuhw.region 2 input size 4096
    npuhw.region 3 output size 4096
    %x0 = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %x1 = npuhw.view : memref<1024xi8, strided<[1], offset: 1024>, #npuhw.dram<2>>
    %x2 = npuhw.view : memref<1024xi8, strided<[1], offset: 2048>, #npuhw.dram<2>>
    %x3 = npuhw.view : memref<1024xi8, strided<[1], offset: 3072>, #npuhw.dram<2>>
    %y0 = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>
    %y1 = npuhw.view : memref<1024xi8, strided<[1], offset: 1024>, #npuhw.dram<3>>
    %y2 = npuhw.view : memref<1024xi8, strided<[1], offset: 2048>, #npuhw.dram<3>>
    %y3 = npuhw.view : memref<1024xi8, strided<[1], offset: 3072>, #npuhw.dram<3>>
    %w = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %a0 = npuhw.view : memref<8x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>
    %a1 = npuhw.view : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>
    %c0 = npuhw.view : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 2048>, #npuhw.lmem<act>>
    %c1 = npuhw.view : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 3072>, #npuhw.lmem<act>>
    %b0 = npuhw.view : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>
    %b1 = npuhw.view : memref<8x8x1x16xi32, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<acc>>
    %l0 = npuhw.dma_load src(%x0 : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a0 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, dst_run = 1024}
    %k0 = npuhw.mac_conv in(%a0 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%b0 : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>) after(%l0) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    %r0 = npuhw.vec_unary rescale in(%b0 : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>) out(%c0 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 2048>, #npuhw.lmem<act>>) after(%k0) {mult = 1073741824, shift = 31, min = -128, max = 127}
    %s0 = npuhw.dma_store src(%c0 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 2048>, #npuhw.lmem<act>>) dst(%y0 : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) after(%r0) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024}
    %l1 = npuhw.dma_load src(%x1 : memref<1024xi8, strided<[1], offset: 1024>, #npuhw.dram<2>>) dst(%a1 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, dst_run = 1024}
    %k1 = npuhw.mac_conv in(%a1 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%b1 : memref<8x8x1x16xi32, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<acc>>) after(%l1) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    %r1 = npuhw.vec_unary rescale in(%b1 : memref<8x8x1x16xi32, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<acc>>) out(%c1 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 3072>, #npuhw.lmem<act>>) after(%k1) {mult = 1073741824, shift = 31, min = -128, max = 127}
    %s1 = npuhw.dma_store src(%c1 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 3072>, #npuhw.lmem<act>>) dst(%y1 : memref<1024xi8, strided<[1], offset: 1024>, #npuhw.dram<3>>) after(%r1) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024}
    %l2 = npuhw.dma_load src(%x2 : memref<1024xi8, strided<[1], offset: 2048>, #npuhw.dram<2>>) dst(%a0 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>) after(%k0) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, dst_run = 1024}
    %k2 = npuhw.mac_conv in(%a0 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%b0 : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>) after(%l2, %r0) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    %r2 = npuhw.vec_unary rescale in(%b0 : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>) out(%c0 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 2048>, #npuhw.lmem<act>>) after(%k2, %s0) {mult = 1073741824, shift = 31, min = -128, max = 127}
    %s2 = npuhw.dma_store src(%c0 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 2048>, #npuhw.lmem<act>>) dst(%y2 : memref<1024xi8, strided<[1], offset: 2048>, #npuhw.dram<3>>) after(%r2) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024}
    %l3 = npuhw.dma_load src(%x3 : memref<1024xi8, strided<[1], offset: 3072>, #npuhw.dram<2>>) dst(%a1 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>) after(%k1) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, dst_run = 1024}
    %k3 = npuhw.mac_conv in(%a1 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%b1 : memref<8x8x1x16xi32, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<acc>>) after(%l3, %r1) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    %r3 = npuhw.vec_unary rescale in(%b1 : memref<8x8x1x16xi32, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<acc>>) out(%c1 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 3072>, #npuhw.lmem<act>>) after(%k3, %s1) {mult = 1073741824, shift = 31, min = -128, max = 127}
    %s3 = npuhw.dma_store src(%c1 : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 3072>, #npuhw.lmem<act>>) dst(%y3 : memref<1024xi8, strided<[1], offset: 3072>, #npuhw.dram<3>>) after(%r3) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024}
    npuhw.end after(%s0, %s1, %s2, %s3)
  }
}

