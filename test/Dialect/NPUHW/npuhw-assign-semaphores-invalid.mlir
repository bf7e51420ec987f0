// RUN: kiln-opt %s -split-input-file -npuhw-assign-semaphores -verify-diagnostics

// Three engines signal (DMA_IN, MAC, VEC) but the target has one semaphore.

module attributes {npu.target = #npu.target<"default", {"semaphores" = 1 : i64}>} {
  // expected-error @+1 {{'npuhw.stream' op needs 3 semaphores (one per engine that signals) but the target has 1}}
  npuhw.stream @too_few {
    npuhw.region 2 input size 1024
    %x = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %a = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
    %b = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>
    %w = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %acc = npuhw.view : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>
    %l = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256}
    %m = npuhw.mac_conv in(%a : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) after(%l) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1}
    %r = npuhw.vec_unary rescale in(%acc : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) out(%b : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) after(%m) {mult = 1073741824, shift = 31, min = -128, max = 127}
    %f = npuhw.dma_fill dst(%a : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) after(%r) {pattern = 0}
    npuhw.end
  }
}

// -----

module {
  npuhw.stream @assigned {
    %a = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>
    // expected-error @+1 {{'npuhw.dma_fill' op already has 'signal0': npuhw-assign-semaphores expects a stream whose dependencies are tokens only}}
    %f = npuhw.dma_fill dst(%a : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>) {pattern = 0, signal0 = 0}
    npuhw.end
  }
}
