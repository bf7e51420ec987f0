// RUN: kiln-opt %s -split-input-file -npuhw-allocate-lmem -verify-diagnostics

// A is loaded and stored; B is loaded with no dependency on that store,
// which may still be reading A: the two 768-byte buffers share no byte, 1536
// bytes at peak in a 1 KiB ACT region.

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 1 : i64}>} {
  npuhw.stream @overflow {
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 1024
    %x = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>
    %y = npuhw.view : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>
    %a = npuhw.alloc : memref<768xi8, #npuhw.lmem<act>>
    // expected-error @+1 {{'npuhw.alloc' op does not fit in LMEM region act (1024 bytes): the region's buffers need 1536 bytes at peak}}
    %b = npuhw.alloc : memref<768xi8, #npuhw.lmem<act>>
    %l0 = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%a : memref<768xi8, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 768, dst_run = 768}
    %s0 = npuhw.dma_store src(%a : memref<768xi8, #npuhw.lmem<act>>) dst(%y : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) after(%l0) {n0 = 1, n1 = 1, n2 = 1, src_run = 768}
    %l1 = npuhw.dma_load src(%x : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%b : memref<768xi8, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 768, dst_run = 768}
    npuhw.end
  }
}

// -----

module {
  npuhw.stream @dynamic {
    %a = npuhw.alloc : memref<1024xi8, #npuhw.lmem<act>>
    %i = arith.constant 16 : index
    // expected-error @+1 {{'memref.subview' op has a dynamic offset, size or stride: npuhw-allocate-lmem needs static subviews}}
    %s = memref.subview %a[%i] [256] [1] : memref<1024xi8, #npuhw.lmem<act>> to memref<256xi8, strided<[1], offset: ?>, #npuhw.lmem<act>>
    %f = npuhw.dma_fill dst(%s : memref<256xi8, strided<[1], offset: ?>, #npuhw.lmem<act>>) {pattern = 0}
    npuhw.end
  }
}

// -----

module {
  npuhw.stream @foreign_use {
    // expected-error @+1 {{'npuhw.alloc' op is used by 'memref.cast', which npuhw-allocate-lmem cannot give an address to}}
    %a = npuhw.alloc : memref<256xi8, #npuhw.lmem<act>>
    %c = memref.cast %a : memref<256xi8, #npuhw.lmem<act>> to memref<?xi8, #npuhw.lmem<act>>
    npuhw.end
  }
}
