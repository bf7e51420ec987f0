// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// A 3x3 int8 convolution of an 8x8x16 input: loads, MAC, requantization,
// store, with semaphores assigned.

// CHECK-LABEL: npuhw.stream @conv
// CHECK:         npuhw.region 0 const size 2560
// CHECK-NEXT:    npuhw.region 2 input size 1024
// CHECK-NEXT:    npuhw.region 3 output size 1024
// CHECK-NEXT:    npuhw.const dense<1> : tensor<2560xi8>
// CHECK-NEXT:    npuhw.io input "x" region 2 offset 0 i8 [1, 8, 8, 16] nhwc scale 5.000000e-01 zp -3
// CHECK-NEXT:    npuhw.io output "y" region 3 offset 0 i8 [1, 8, 8, 16] nhwc_c16 scale 2.500000e-01 zp 1
// CHECK:         %[[T0:.+]] = npuhw.dma_load src(%{{.+}} : memref<2304xi8, strided<[1]>, #npuhw.dram<0>>) dst(%{{.+}} : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>) {dst_run = 2304, n0 = 1, n1 = 1, n2 = 1, signal0 = 0, src_run = 2304}
// CHECK:         %[[T1:.+]] = npuhw.dma_load
// CHECK:         %[[T2:.+]] = npuhw.dma_load
// CHECK:         %[[T3:.+]] = npuhw.mac_conv in(%{{.+}} : memref<8x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%{{.+}} : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%{{.+}} : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>) after(%[[T2]], %[[T0]]) {dx = 1, dy = 1, kh = 3, kw = 3, pb = 1, pl = 1, pr = 1, pt = 1, signal0 = 3, sx = 1, sy = 1, wait0 = 2, wait1 = 0}
// CHECK:         %[[T4:.+]] = npuhw.vec_requant in({{.+}}) params({{.+}}) out({{.+}}) after(%[[T1]], %[[T3]]) {double_round, max = 127, min = -128, out_zp = -3, signal0 = 4, wait0 = 3, wait1 = 1}
// CHECK:         npuhw.dma_store src({{.+}}) dst(%{{.+}} : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) after(%[[T4]]) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, wait0 = 4}
// CHECK-NEXT:    npuhw.end
module attributes {npu.target = #npu.target<"default">} {
  npuhw.stream @conv {
    npuhw.region 0 const size 2560
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 1024
    npuhw.const dense<1> : tensor<2560xi8>
    npuhw.io input "x" region 2 offset 0 i8 [1, 8, 8, 16] nhwc scale 0.5 zp -3
    npuhw.io output "y" region 3 offset 0 i8 [1, 8, 8, 16] nhwc_c16 scale 0.25 zp 1
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
    %t0 = npuhw.dma_load src(%wd : memref<2304xi8, strided<[1]>, #npuhw.dram<0>>) dst(%w : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 2304, dst_run = 2304, signal0 = 0}
    %t1 = npuhw.dma_load src(%pd : memref<256xi8, strided<[1], offset: 2304>, #npuhw.dram<0>>) dst(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256, signal0 = 1}
    %t2 = npuhw.dma_load src(%xd : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst(%xl : memref<1024xi8, strided<[1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, dst_run = 1024, signal0 = 2}
    %t3 = npuhw.mac_conv in(%x : memref<8x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>) after(%t2, %t0) {kh = 3, kw = 3, sy = 1, sx = 1, dy = 1, dx = 1, pt = 1, pb = 1, pl = 1, pr = 1, wait0 = 2, wait1 = 0, signal0 = 3}
    %t4 = npuhw.vec_requant in(%acc : memref<8x8x1x16xi32, strided<[128, 16, 16, 1]>, #npuhw.lmem<acc>>) params(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) out(%y : memref<8x8x1x16xi8, strided<[128, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>) after(%t1, %t3) {out_zp = -3, min = -128, max = 127, double_round, wait0 = 3, wait1 = 1, signal0 = 4}
    %t5 = npuhw.dma_store src(%yl : memref<1024xi8, strided<[1], offset: 1024>, #npuhw.lmem<act>>) dst(%yd : memref<1024xi8, strided<[1]>, #npuhw.dram<3>>) after(%t4) {n0 = 1, n1 = 1, n2 = 1, src_run = 1024, wait0 = 4}
    npuhw.end
  }
}

// -----

// Every other command, with the operand forms that set flags.

// CHECK-LABEL: npuhw.stream @others
// CHECK:         %[[B:.+]] = npuhw.alloc : memref<4x4x1x16xi8, #npuhw.lmem<act>>
// CHECK:         npuhw.dma_fill dst(%{{.+}} : memref<1024xi8, strided<[1], offset: 4096>, #npuhw.lmem<acc>>) {pattern = 7}
// CHECK:         npuhw.dma_load src(%{{.+}} : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>) dst(%{{.+}} : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<act>>) {dst_run = 256, n0 = 1, n1 = 1, n2 = 1, pad = 5, src_run = 256}
// CHECK:         npuhw.mac_dwconv in({{.+}}) weights({{.+}}) out({{.+}}) {accumulate, kh = 1, kw = 1, sx = 1, sy = 1}
// CHECK:         npuhw.mac_conv in(%{{.+}} : memref<4x4x1x16xf16{{.+}}) weights({{.+}}) out(%{{.+}} : memref<4x4x1x16xf32{{.+}}) {kh = 1, kw = 1, sx = 1, sy = 1}
// CHECK:         npuhw.vec_eltwise add tensor in({{.+}}) in2({{.+}}) params({{.+}}) out({{.+}})
// CHECK-NEXT:    npuhw.vec_eltwise mul scalar in({{.+}}) params({{.+}}) out({{.+}})
// CHECK-NEXT:    npuhw.vec_eltwise max channel in({{.+}}) in2(%{{.+}} : memref<1x1x1x16xi8{{.+}}) params({{.+}}) out({{.+}})
// CHECK-NEXT:    npuhw.vec_unary rescale in({{.+}}) out({{.+}}) {double_round, in_zp = -1, max = 127, min = -128, mult = 1073741824, shift = 31}
// CHECK-NEXT:    npuhw.vec_unary lut in({{.+}}) table({{.+}}) out({{.+}})
// CHECK-NEXT:    npuhw.vec_requant in({{.+}}) params({{.+}}) table({{.+}}) out({{.+}}) {max = 127, min = -128, per_tensor}
// CHECK-NEXT:    npuhw.vec_pool sum in({{.+}}) out(%{{.+}} : memref<2x2x1x16xi32{{.+}}) {kh = 2, kw = 2, sx = 2, sy = 2}
// CHECK-NEXT:    %[[N:.+]] = npuhw.nop after(%{{.+}}, %{{.+}}) {signal1 = 9, wait0 = 8}
// CHECK-NEXT:    npuhw.end after(%[[N]])
module attributes {npu.target = #npu.target<"default">} {
  npuhw.stream @others {
    %b = npuhw.alloc : memref<4x4x1x16xi8, #npuhw.lmem<act>>
    %a0 = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>
    %a1 = npuhw.view : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<act>>
    %fm = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
    %fm2 = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>
    %ch = npuhw.view : memref<1x1x1x16xi8, strided<[16, 16, 16, 1], offset: 512>, #npuhw.lmem<act>>
    %h = npuhw.view : memref<4x4x1x16xf16, strided<[64, 16, 16, 1], offset: 512>, #npuhw.lmem<act>>
    %acc = npuhw.view : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>
    %accf = npuhw.view : memref<4x4x1x16xf32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>>
    %fill = npuhw.view : memref<1024xi8, strided<[1], offset: 4096>, #npuhw.lmem<acc>>
    %w = npuhw.view : memref<512xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %p = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>
    %lut = npuhw.view : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<param>>
    %sum = npuhw.view : memref<2x2x1x16xi32, strided<[32, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>
    %t0 = npuhw.dma_fill dst(%fill : memref<1024xi8, strided<[1], offset: 4096>, #npuhw.lmem<acc>>) {pattern = 7}
    %t1 = npuhw.dma_load src(%a0 : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>) dst(%a1 : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256, pad = 5}
    %t2 = npuhw.mac_dwconv in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<512xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) {kh = 1, kw = 1, sy = 1, sx = 1, accumulate}
    %t3 = npuhw.mac_conv in(%h : memref<4x4x1x16xf16, strided<[64, 16, 16, 1], offset: 512>, #npuhw.lmem<act>>) weights(%w : memref<512xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%accf : memref<4x4x1x16xf32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>>) {kh = 1, kw = 1, sy = 1, sx = 1}
    %t4 = npuhw.vec_eltwise add tensor in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) in2(%fm2 : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) params(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) out(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>)
    %t5 = npuhw.vec_eltwise mul scalar in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) params(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) out(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>)
    %t6 = npuhw.vec_eltwise max channel in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) in2(%ch : memref<1x1x1x16xi8, strided<[16, 16, 16, 1], offset: 512>, #npuhw.lmem<act>>) params(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) out(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>)
    %t7 = npuhw.vec_unary rescale in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) out(%fm2 : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) {mult = 1073741824, shift = 31, in_zp = -1, min = -128, max = 127, double_round}
    %t8 = npuhw.vec_unary lut in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) table(%lut : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<param>>) out(%fm2 : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>)
    %t9 = npuhw.vec_requant in(%acc : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) params(%p : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) table(%lut : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<param>>) out(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) {min = -128, max = 127, per_tensor}
    %t10 = npuhw.vec_pool sum in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) out(%sum : memref<2x2x1x16xi32, strided<[32, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>) {kh = 2, kw = 2, sy = 2, sx = 2}
    %n = npuhw.nop after(%t0, %t10) {wait0 = 8, signal1 = 9}
    npuhw.end after(%n)
  }
}

// -----

// DRAM offsets need no alignment (docs/npu-isa.md §3): an unaligned run is
// legal, it only costs the bursts it overlaps.
// CHECK-LABEL: npuhw.stream @unaligned_dram
// CHECK:         npuhw.view : memref<40xi8, strided<[1], offset: 24>, #npuhw.dram<2>>
module attributes {npu.target = #npu.target<"default">} {
  npuhw.stream @unaligned_dram {
    npuhw.region 2 input size 64
    %x = npuhw.view : memref<40xi8, strided<[1], offset: 24>, #npuhw.dram<2>>
    %a = npuhw.view : memref<48xi8, strided<[1]>, #npuhw.lmem<act>>
    %t = npuhw.dma_load src(%x : memref<40xi8, strided<[1], offset: 24>, #npuhw.dram<2>>) dst(%a : memref<48xi8, strided<[1]>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 40, dst_run = 48}
    npuhw.end after(%t)
  }
}
