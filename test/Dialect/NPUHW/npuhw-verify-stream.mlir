// RUN: kiln-opt %s -split-input-file -npuhw-verify-stream -verify-diagnostics | FileCheck %s

// A stream that keeps every rule passes unchanged.
// CHECK-LABEL: npuhw.stream @valid
// CHECK:         %[[A:.+]] = npuhw.dma_fill
// CHECK-NEXT:    npuhw.nop after(%[[A]]) {wait0 = 0}
// CHECK-NEXT:    npuhw.end
module attributes {npu.target = #npu.target<"default">} {
  npuhw.stream @valid {
    %acc = npuhw.view : memref<64xi8, strided<[1]>, #npuhw.lmem<acc>>
    %a = npuhw.dma_fill dst(%acc : memref<64xi8, strided<[1]>, #npuhw.lmem<acc>>) {signal0 = 0}
    %b = npuhw.nop after(%a) {wait0 = 0}
    npuhw.end
  }
}

// -----

// The stream rule of docs/npu-isa.md §4: a wait needs an earlier signal.
module attributes {npu.target = #npu.target<"default", {"semaphores" = 4 : i64}>} {
  npuhw.stream @rule {
    %a = npuhw.nop {signal0 = 0}
    %b = npuhw.nop after(%a) {wait0 = 0}
    // expected-error @+1 {{command 2 (NOP): field 'wait0' waits on semaphore 1 with no earlier uncovered signal}}
    %c = npuhw.nop {wait0 = 1}
    npuhw.end
  }
}

// -----

// Static parameters the runtime checks.
npuhw.stream @rescale_shift {
  %x = npuhw.view : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>
  // expected-error @+1 {{command 0 (VEC_UNARY): field 'shift' 1 is outside [2, 62]}}
  %t = npuhw.vec_unary rescale in(%x : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>) out(%x : memref<1x1x1x16xi8, strided<[16, 16, 16, 1]>, #npuhw.lmem<act>>) {mult = 1, shift = 1, min = -128, max = 127}
  npuhw.end
}

// -----

npuhw.stream @window {
  %x = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
  %w = npuhw.view : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>
  %y = npuhw.view : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>
  // expected-error @+1 {{command 0 (MAC_CONV): field 'out.h' 4 does not match the window (2 expected)}}
  %t = npuhw.mac_conv in(%x : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%y : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) {kh = 3, kw = 3, sy = 1, sx = 1, dy = 1, dx = 1}
  npuhw.end
}

// -----

npuhw.stream @store_to_const {
  npuhw.region 0 const size 16
  npuhw.const dense<0> : tensor<16xi8>
  %a = npuhw.view : memref<16xi8, strided<[1]>, #npuhw.lmem<act>>
  %d = npuhw.view : memref<16xi8, strided<[1]>, #npuhw.dram<0>>
  // expected-error @+1 {{command 0 (DMA_STORE): field 'region': r0 holds constants and may not be written}}
  %t = npuhw.dma_store src(%a : memref<16xi8, strided<[1]>, #npuhw.lmem<act>>) dst(%d : memref<16xi8, strided<[1]>, #npuhw.dram<0>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 16}
  npuhw.end
}

// -----

// An error that belongs to no command is reported on the stream.
// expected-error @+1 {{IO tensor 'x': 256 bytes at offset 0 exceed region r2 (64 bytes)}}
npuhw.stream @io {
  npuhw.region 2 input size 64
  npuhw.io input "x" region 2 offset 0 i8 [1, 4, 4, 16] nhwc scale 1.0 zp 0
  npuhw.end
}

// -----

// The stream must serialize: an unplaced buffer is reported by the
// conversion the pass shares with --npuhw-to-npub.
npuhw.stream @unplaced {
  %b = npuhw.alloc : memref<64xi8, #npuhw.lmem<acc>>
  // expected-error @+1 {{operand 'dst' is not an npuhw.view}}
  %t = npuhw.dma_fill dst(%b : memref<64xi8, #npuhw.lmem<acc>>)
  npuhw.end
}
