// A stream with every command kind goes through .npub and back unchanged:
// fields, flags, operands (views), tokens and locations.

// RUN: kiln-opt %s > %t.expected
// RUN: kiln-translate --npuhw-to-npub %s -o %t.npub
// RUN: kiln-translate --npub-to-npuhw %t.npub | kiln-opt > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: kiln-translate --npub-to-npuhw %t.npub --mlir-print-debuginfo --mlir-print-local-scope | FileCheck %s

// Locations: a NameLoc keeps its name and source location (DEBUG section),
// a plain source location comes back as itself, an unknown one stays
// unknown (tag 0).
// CHECK:      npuhw.dma_load {{.*}} loc("npu.const"("model.mlir":3:5))
// CHECK-NEXT: npuhw.dma_load {{.*}} loc("load x")
// CHECK-NEXT: npuhw.dma_fill {{.*}} loc("{{.*}}roundtrip.mlir":{{[0-9]+}}:{{[0-9]+}})
// CHECK:      npuhw.mac_conv {{.*}} loc("npu.conv2d"("model.mlir":7:9))
// CHECK:      npuhw.vec_requant {{.*}} loc("npu.conv2d"("model.mlir":7:9))
// CHECK-NEXT: npuhw.vec_eltwise {{.*}} loc("model.mlir":9:1)
// CHECK:      npuhw.nop {{.*}} loc(unknown)
// CHECK-NEXT: npuhw.dma_store {{.*}} loc("store y")

module attributes {npu.target = #npu.target<"default", {"semaphores" = 16 : i64}>} {
  npuhw.stream @main {
    npuhw.region 0 const size 64
    npuhw.region 2 input size 1024
    npuhw.region 3 output size 256
    npuhw.const dense<7> : tensor<64xi8>
    npuhw.io input "x" region 2 offset 0 i8 [1, 4, 4, 64] nhwc scale 5.000000e-01 zp -3
    npuhw.io output "y" region 3 offset 0 i8 [1, 4, 4, 16] nhwc_c16 scale 2.500000e-01 zp 1
    %wd = npuhw.view : memref<64xi8, strided<[1]>, #npuhw.dram<0>>
    %p = npuhw.view : memref<64xi8, strided<[1]>, #npuhw.lmem<param>>
    %xd = npuhw.view : memref<976xi8, strided<[1]>, #npuhw.dram<2>>
    %xl = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>
    %fill = npuhw.view : memref<512xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %copy = npuhw.view : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<act>>
    %fm = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
    %w = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %acc = npuhw.view : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>
    %dww = npuhw.view : memref<16xi8, strided<[1]>, #npuhw.lmem<wgt>>
    %h = npuhw.view : memref<4x4x1x16xf16, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>
    %accf = npuhw.view : memref<4x4x1x16xf32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>>
    %rec = npuhw.view : memref<16xi8, strided<[1]>, #npuhw.lmem<param>>
    %lut = npuhw.view : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<param>>
    %y = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>
    %fm2 = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>
    %ch = npuhw.view : memref<1x1x1x16xi8, strided<[16, 16, 16, 1], offset: 512>, #npuhw.lmem<act>>
    %sum = npuhw.view : memref<2x2x1x16xi32, strided<[32, 16, 16, 1], offset: 2048>, #npuhw.lmem<act>>
    %yl = npuhw.view : memref<256xi8, strided<[1], offset: 1024>, #npuhw.lmem<act>>
    %yd = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.dram<3>>
    %t0 = npuhw.dma_load src(%wd : memref<64xi8, strided<[1]>, #npuhw.dram<0>>) dst(%p : memref<64xi8, strided<[1]>, #npuhw.lmem<param>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 64, dst_run = 64, signal0 = 0} loc("npu.const"("model.mlir":3:5))
    %t1 = npuhw.dma_load src(%xd : memref<976xi8, strided<[1]>, #npuhw.dram<2>>) dst(%xl : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>) {n0 = 16, n1 = 1, n2 = 1, src_run = 16, dst_run = 16, src_s0 = 64, dst_s0 = 16, pad = 253} loc("load x")
    %t2 = npuhw.dma_fill dst(%fill : memref<512xi8, strided<[1]>, #npuhw.lmem<wgt>>) {pattern = 16843009, signal0 = 2} 
    %t3 = npuhw.dma_load src(%xl : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>) dst(%copy : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<act>>) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, dst_run = 256, signal0 = 3}
    %t4 = npuhw.mac_conv in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%w : memref<256xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) after(%t3, %t2) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1, in_zp = -3, wait0 = 3, wait1 = 2} loc("npu.conv2d"("model.mlir":7:9))
    %t5 = npuhw.mac_dwconv in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) weights(%dww : memref<16xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%acc : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1, accumulate}
    %t6 = npuhw.mac_conv in(%h : memref<4x4x1x16xf16, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) weights(%fill : memref<512xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%accf : memref<4x4x1x16xf32, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<acc>>) {kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1, signal0 = 4, signal1 = 5}
    %t7 = npuhw.vec_requant in(%acc : memref<4x4x1x16xi32, strided<[64, 16, 16, 1]>, #npuhw.lmem<acc>>) params(%rec : memref<16xi8, strided<[1]>, #npuhw.lmem<param>>) table(%lut : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<param>>) out(%y : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 1024>, #npuhw.lmem<act>>) after(%t6, %t0) {out_zp = 1, min = -100, max = 100, per_tensor, double_round, wait0 = 4, wait1 = 0, signal0 = 9} loc("npu.conv2d"("model.mlir":7:9))
    %t8 = npuhw.vec_eltwise add tensor in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) in2(%fm2 : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) params(%p : memref<64xi8, strided<[1]>, #npuhw.lmem<param>>) out(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) loc("model.mlir":9:1)
    %t9 = npuhw.vec_eltwise mul scalar in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) params(%p : memref<64xi8, strided<[1]>, #npuhw.lmem<param>>) out(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>)
    %t10 = npuhw.vec_eltwise max channel in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) in2(%ch : memref<1x1x1x16xi8, strided<[16, 16, 16, 1], offset: 512>, #npuhw.lmem<act>>) params(%p : memref<64xi8, strided<[1]>, #npuhw.lmem<param>>) out(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>)
    %t11 = npuhw.vec_unary rescale in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) out(%fm2 : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) {mult = 1073741824, shift = 31, in_zp = -1, out_zp = 2, min = -128, max = 127, double_round}
    %t12 = npuhw.vec_unary lut in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) table(%lut : memref<256xi8, strided<[1], offset: 256>, #npuhw.lmem<param>>) out(%fm2 : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>)
    %t13 = npuhw.vec_pool sum in(%fm : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) out(%sum : memref<2x2x1x16xi32, strided<[32, 16, 16, 1], offset: 2048>, #npuhw.lmem<act>>) {kh = 2, kw = 2, sy = 2, sx = 2, signal0 = 6}
    %t14 = npuhw.nop after(%t13, %t6) {wait0 = 6, wait1 = 5, signal0 = 7} loc(unknown)
    %t15 = npuhw.dma_store src(%yl : memref<256xi8, strided<[1], offset: 1024>, #npuhw.lmem<act>>) dst(%yd : memref<256xi8, strided<[1]>, #npuhw.dram<3>>) after(%t7) {n0 = 1, n1 = 1, n2 = 1, src_run = 256, wait0 = 9, signal0 = 8} loc("store y")
    npuhw.end after(%t14, %t15) {wait0 = 7, wait1 = 8}
  }
}
