// RUN: kiln-opt %s -split-input-file -npuhw-assign-semaphores | FileCheck %s
// The runtime's verifier (the stream rule included) accepts every result:
// RUN: kiln-opt %s -split-input-file -npuhw-assign-semaphores -npuhw-verify-stream | FileCheck %s

// Load, convolution, requantization, store. The convolution's dependency on
// the weights is implied by its wait on the later input load (DMA_IN runs in
// order), the requantization's on the parameters by its wait on the
// convolution (which waited on a later load). One semaphore per engine
// pair, ids in order of first use; the tokens left are the waits' producers.

// CHECK-LABEL: npuhw.stream @chain
// CHECK:         %[[W:.+]] = npuhw.dma_load {{.*}} {dst_run = 2304, n0 = 1, n1 = 1, n2 = 1, src_run = 2304}
// CHECK-NEXT:    %[[P:.+]] = npuhw.dma_load {{.*}} {dst_run = 256, n0 = 1, n1 = 1, n2 = 1, src_run = 256}
// CHECK-NEXT:    %[[X:.+]] = npuhw.dma_load {{.*}} {dst_run = 1024, n0 = 1, n1 = 1, n2 = 1, signal0 = 0, src_run = 1024}
// CHECK-NEXT:    %[[C:.+]] = npuhw.mac_conv {{.*}} after(%[[X]]) {dx = 1, dy = 1, kh = 3, kw = 3, pb = 1, pl = 1, pr = 1, pt = 1, signal0 = 1, sx = 1, sy = 1, wait0 = 0}
// CHECK-NEXT:    %[[R:.+]] = npuhw.vec_requant {{.*}} after(%[[C]]) {double_round, max = 127, min = -128, out_zp = -3, signal0 = 2, wait0 = 1}
// CHECK-NEXT:    npuhw.dma_store {{.*}} after(%[[R]]) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, wait0 = 2}
// CHECK-NEXT:    npuhw.end{{ *$}}
module attributes {npu.target = #npu.target<"default">} {
  npuhw.stream @chain {
    npuhw.region 0 const size 2560
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 1024
    npuhw.const dense<1> : tensor<2560xi8>
    %wd = npuhw.view : memref<2304xi8, strided<[1]>, #npuhw.dram<0>>
    %w = npuhw.view : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %pd = npuhw.view : memref<256xi8, strided<[1], offset: 2304>, #npuhw.dram<0>>
    %p = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>
    %xd = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %xl = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.lmem<act>>
    %x = npuhw.view : memref<8x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>
    %acc = npuhw.view : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>
    %y = npuhw.view : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>
    %yl = npuhw.view : memref<1024xi8, strided<[1], offset: 1024>, #npuhw.lmem<act>>
    %yd = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>
    %t0 = npuhw.dma_load src(%wd : memref<2304xi8, strided<[1]>, #npuhw.dram<0>>) dst(%w : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 2304, dst_run = 2304}
    %t1 = npuhw.dma_load src(%pd : memref<256xi8, strided<[1], offset: 2304>, #npuhw.dram<0>>) dst(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    %t2 = npuhw.dma_load src(%xd : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%xl : memref<1024xi8, strided<[1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, dst_run = 1024}
    %t3 = npuhw.mac_conv in(%x : memref<8x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>) after(%t2, %t0) {kh = 3, kw = 3, sy = 1, sx = 1, dy = 1, dx = 1, pt = 1, pb = 1, pl = 1, pr = 1}
    %t4 = npuhw.vec_requant in(%acc : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>) params(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) out(%y : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>) after(%t1, %t3) {out_zp = -3, min = -128, max = 127, double_round}
    %t5 = npuhw.dma_store src(%yl : memref<1024xi8, strided<[1], offset: 1024>, #npuhw.lmem<act>>) dst(%yd : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) after(%t4) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024}
    npuhw.end after(%t5)
  }
}

// -----

// A double-buffered pipeline unrolled over four tiles: tile t loads into
// A[t%2], convolves into B[t%2], requantizes into C[t%2] and stores; tile
// t+2 reuses the buffers of tile t, so it also depends on tile t's readers
// (write after read). Each dependency between two engines has its own
// semaphore, and each semaphore is waited on in the order it is signalled.

// CHECK-LABEL: npuhw.stream @double_buffered
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

// -----

// The pooling depends on three engines that nothing orders: two waits
// cannot cover them, so a NOP fence goes before it and it waits on nothing.
// The fill after it depends on the pooling through a semaphore as usual.

// CHECK-LABEL: npuhw.stream @fence
// CHECK:         npuhw.dma_load
// CHECK-NEXT:    npuhw.dma_store
// CHECK-NEXT:    npuhw.mac_conv
// CHECK-NEXT:    npuhw.nop{{ *$}}
// CHECK-NEXT:    %[[P:.+]] = npuhw.vec_pool max {{.*}} {kh = 1, kw = 1, max = 127, min = -128, signal0 = 0, sx = 1, sy = 1}
// CHECK-NEXT:    npuhw.dma_fill {{.*}} after(%[[P]]) {pattern = 0, wait0 = 0}
module {
  npuhw.stream @fence {
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 1024
    %x = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %y = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>
    %a = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
    %b = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>
    %c = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 512>, #npuhw.lmem<act>>
    %w = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %acc = npuhw.view : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>
    %l = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    %s = npuhw.dma_store src(%b : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) dst(%y : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256}
    %m = npuhw.mac_conv in(%c : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 512>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    // Reads %a (after the load), overwrites %b (after the store) and %c
    // (after the convolution read it).
    %p = npuhw.vec_pool max in(%a : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) out(%b : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) after(%l, %s, %m) {kh = 1, kw = 1, sy = 1, sx = 1, min = -128, max = 127}
    %f = npuhw.dma_fill dst(%b : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) after(%p) {pattern = 0}
    npuhw.end after(%f)
  }
}

// -----

// The requantization needs DMA_IN, DMA_OUT and MAC; the second convolution
// already waited on the first two, so one wait on it covers all three (and
// no fence is needed).

// CHECK-LABEL: npuhw.stream @promote
// CHECK:         %[[L:.+]] = npuhw.dma_load {{.*}}signal0 = 0
// CHECK-NEXT:    %[[S:.+]] = npuhw.dma_store {{.*}}signal0 = 1
// CHECK-NEXT:    npuhw.mac_conv {{.*}} {dx = 1, dy = 1, kh = 1, kw = 1, sx = 1, sy = 1}
// CHECK-NEXT:    %[[M:.+]] = npuhw.mac_conv {{.*}} after(%[[L]], %[[S]]) {{.*}}signal0 = 2, {{.*}}wait0 = 0, wait1 = 1}
// CHECK-NOT:     npuhw.nop
// CHECK-NEXT:    npuhw.vec_requant {{.*}} after(%[[M]]) {{.*}}wait0 = 2}
module {
  npuhw.stream @promote {
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 1024
    %x = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %y = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>
    %a = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
    %b = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>
    %w = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %p = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>
    %acc0 = npuhw.view : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>
    %acc1 = npuhw.view : memref<4x4x1x16xi32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>>
    %l = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    %s = npuhw.dma_store src(%b : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) dst(%y : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256}
    %m0 = npuhw.mac_conv in(%b : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc0 : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    %m1 = npuhw.mac_conv in(%a : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc1 : memref<4x4x1x16xi32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>>) after(%l, %s) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    %r = npuhw.vec_requant in(%acc0 : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) params(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) out(%b : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) after(%l, %s, %m0) {min = -128, max = 127}
    npuhw.end after(%r)
  }
}
