// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=2 max-blocks-per-group=1" | FileCheck %s
// The full pipeline gives streams the runtime's verifier accepts:
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline="max-rows-per-band=2 max-blocks-per-group=1" -o /dev/null

// A 3x3 stride-2 int8 max pool, 8x6x20 -> 4x3x20, in two bands of two
// output rows and two groups of one channel block (20 channels: 16, then
// 4 padded to a block). Band 0 reads input rows 0-3 with one padding row
// above (pt = 1); band 1 reads rows 3-7: row 3 is the halo both bands
// read, and no padding. Per band and group: a load of the group's channels
// (16- or 4-byte runs into 16-byte slots), a VEC_POOL with the clamp, and a
// store of the same channels. Units alternate between two input and two
// output buffers: the third unit's load waits for the first pool, which
// read its buffer, and its pool for the first store. No constants: no
// region 0.

// CHECK-LABEL: npuhw.stream @max
// CHECK-NEXT:    npuhw.region 2 input size 960
// CHECK-NEXT:    npuhw.region 3 output size 240
// CHECK-NEXT:    npuhw.io input "image" region 2 offset 0 i8 [1, 8, 6, 20] nhwc scale 5.000000e-01 zp -3
// CHECK-NEXT:    npuhw.io output "pooled" region 3 offset 0 i8 [1, 4, 3, 20] nhwc scale 5.000000e-01 zp -3
// CHECK-NEXT:    %[[IN0:.+]] = npuhw.alloc : memref<5x6x1x16xi8, #npuhw.lmem<act>>
// CHECK-NEXT:    %[[OUT0:.+]] = npuhw.alloc : memref<2x3x1x16xi8, #npuhw.lmem<act>>
// CHECK-NEXT:    %[[IN1:.+]] = npuhw.alloc : memref<5x6x1x16xi8, #npuhw.lmem<act>>
// CHECK-NEXT:    %[[OUT1:.+]] = npuhw.alloc : memref<2x3x1x16xi8, #npuhw.lmem<act>>
// Band 0, channels 0-15.
// CHECK:         %[[L00:.+]] = npuhw.dma_load src({{.*}} : memref<476xi8, strided<[1]>, #npuhw.dram<2>>) dst({{.*}} : memref<4x6x1x16xi8, strided<[96, 16, 16, 1]>, #npuhw.lmem<act>>) {dst_run = 16, dst_s0 = 16, dst_s1 = 96, n0 = 6, n1 = 4, n2 = 1, src_run = 16, src_s0 = 20, src_s1 = 120}
// CHECK-NEXT:    %[[P00:.+]] = npuhw.vec_pool max in({{.*}} : memref<4x6x1x16xi8, strided<[96, 16, 16, 1]>, #npuhw.lmem<act>>) out(%[[OUT0]] : {{.*}}) after(%[[L00]]) {kh = 3, kw = 3, max = 127, min = -100, pl = 1, pr = 1, pt = 1, sx = 2, sy = 2}
// CHECK-NEXT:    %[[S00:.+]] = npuhw.dma_store src(%[[OUT0]] : {{.*}}) dst({{.*}} : memref<116xi8, strided<[1]>, #npuhw.dram<3>>) after(%[[P00]]) {dst_s0 = 20, dst_s1 = 60, n0 = 3, n1 = 2, n2 = 1, src_run = 16, src_s0 = 16, src_s1 = 48}
// Band 0, channels 16-19 from byte 16.
// CHECK:         %[[L01:.+]] = npuhw.dma_load src({{.*}} : memref<464xi8, strided<[1], offset: 16>, #npuhw.dram<2>>) {{.*}} {dst_run = 16, {{.*}}src_run = 4, src_s0 = 20, src_s1 = 120}
// CHECK-NEXT:    %[[P01:.+]] = npuhw.vec_pool max {{.*}} out(%[[OUT1]] : {{.*}}) after(%[[L01]])
// CHECK-NEXT:    %[[S01:.+]] = npuhw.dma_store src(%[[OUT1]] : {{.*}}) dst({{.*}} : memref<104xi8, strided<[1], offset: 16>, #npuhw.dram<3>>) after(%[[P01]]) {{{.*}}src_run = 4,
// Band 1: input rows 3-7 from byte 360, no padding rows.
// CHECK:         %[[L10:.+]] = npuhw.dma_load src({{.*}} : memref<596xi8, strided<[1], offset: 360>, #npuhw.dram<2>>) dst(%[[IN0]] : {{.*}}) after(%[[P00]]) {{{.*}}n1 = 5,
// CHECK-NEXT:    %[[P10:.+]] = npuhw.vec_pool max in(%[[IN0]] : {{.*}}) out(%[[OUT0]] : {{.*}}) after(%[[L10]], %[[S00]]) {kh = 3, kw = 3, max = 127, min = -100, pl = 1, pr = 1, sx = 2, sy = 2}
// CHECK-NEXT:    %[[S10:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<116xi8, strided<[1], offset: 120>, #npuhw.dram<3>>) after(%[[P10]])
// CHECK:         %[[L11:.+]] = npuhw.dma_load src({{.*}} : memref<584xi8, strided<[1], offset: 376>, #npuhw.dram<2>>) dst(%[[IN1]] : {{.*}}) after(%[[P01]])
// CHECK-NEXT:    %[[P11:.+]] = npuhw.vec_pool max in(%[[IN1]] : {{.*}}) out(%[[OUT1]] : {{.*}}) after(%[[L11]], %[[S01]])
// CHECK-NEXT:    %[[S11:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<104xi8, strided<[1], offset: 136>, #npuhw.dram<3>>) after(%[[P11]])
// CHECK-NEXT:    npuhw.end after(%[[S00]], %[[S01]], %[[S10]], %[[S11]])
// CHECK-NOT:     func.func
module attributes {npu.target = #npu.target<"default">} {
  func.func @max(%x: tensor<1x8x6x20x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x4x3x20x!quant.uniform<i8:f32, 0.5:-3>>
      attributes {tf.entry_function = {inputs = "image", outputs = "pooled"}} {
    %y = npu.max_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 1>, clamp_min = -100 : i64}
      : (tensor<1x8x6x20x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x4x3x20x!quant.uniform<i8:f32, 0.5:-3>>
    return %y : tensor<1x4x3x20x!quant.uniform<i8:f32, 0.5:-3>>
  }
}

// -----

// fp16: IO in f16, region sizes in bytes, 8 channels (16 bytes) loaded into
// 32-byte blocks; no clamp fields. Two images, the second from byte 256.

// CHECK-LABEL: npuhw.stream @avg_f16
// CHECK-NEXT:    npuhw.region 2 input size 512
// CHECK-NEXT:    npuhw.region 3 output size 128
// CHECK-NEXT:    npuhw.io input "arg0" region 2 offset 0 f16 [2, 4, 4, 8] nhwc scale 1.000000e+00 zp 0
// CHECK-NEXT:    npuhw.io output "result0" region 3 offset 0 f16 [2, 2, 2, 8] nhwc scale 1.000000e+00 zp 0
// CHECK:         npuhw.dma_load src({{.*}} : memref<256xi8, strided<[1]>, #npuhw.dram<2>>) dst({{.*}} : memref<4x4x1x16xf16, {{.*}}) {dst_run = 32, dst_s0 = 32, dst_s1 = 128, n0 = 4, n1 = 4, n2 = 1, src_run = 16, src_s0 = 16, src_s1 = 64}
// CHECK-NEXT:    npuhw.vec_pool avg in({{.*}} : memref<4x4x1x16xf16, {{.*}}) out({{.*}} : memref<2x2x1x16xf16, {{.*}}) {{.*}}{kh = 2, kw = 2, sx = 2, sy = 2}
// CHECK:         npuhw.dma_load src({{.*}} : memref<256xi8, strided<[1], offset: 256>, #npuhw.dram<2>>)
module {
  func.func @avg_f16(%x: tensor<2x4x4x8xf16>) -> tensor<2x2x2x8xf16> {
    %y = npu.avg_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<2x4x4x8xf16>) -> tensor<2x2x2x8xf16>
    return %y : tensor<2x2x2x8xf16>
  }
}

// -----

// SUM widens: int8 to i32 and f16 to f32, with 4-byte output elements.
// (The DRAM plan rounds each tensor, so each region, up to 16 bytes: the
// 360-byte input takes 368.)

// CHECK-LABEL: npuhw.stream @sum_i8
// CHECK-NEXT:    npuhw.region 2 input size 368
// CHECK-NEXT:    npuhw.region 3 output size 160
// CHECK:         npuhw.io output "result0" region 3 offset 0 i32 [1, 1, 1, 40] nhwc scale 1.000000e+00 zp 0
// CHECK:         npuhw.vec_pool sum in({{.*}} : memref<3x3x1x16xi8, {{.*}}) out({{.*}} : memref<1x1x1x16xi32, {{.*}}) {{.*}}{kh = 3, kw = 3, sx = 1, sy = 1}
// CHECK-NEXT:    npuhw.dma_store {{.*}} dst({{.*}} : memref<64xi8, strided<[1]>, #npuhw.dram<3>>) {{.*}} {dst_s0 = 160, dst_s1 = 160, n0 = 1, n1 = 1, n2 = 1, src_run = 64, src_s0 = 64, src_s1 = 64}
// CHECK-LABEL: npuhw.stream @sum_f16
// CHECK:         npuhw.region 3 output size 256
// CHECK:         npuhw.io output "result0" region 3 offset 0 f32 [1, 2, 2, 16]
// CHECK:         npuhw.vec_pool sum in({{.*}}xf16, {{.*}}) out({{.*}} : memref<2x2x1x16xf32, #npuhw.lmem<act>>)
module {
  func.func @sum_i8(%x: tensor<1x3x3x40x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x1x40xi32> {
    %y = npu.sum_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x3x3x40x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x1x40xi32>
    return %y : tensor<1x1x1x40xi32>
  }
  func.func @sum_f16(%x: tensor<1x2x2x16xf16>) -> tensor<1x2x2x16xf32> {
    %y = npu.sum_pool2d %x {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x2x2x16xf16>) -> tensor<1x2x2x16xf32>
    return %y : tensor<1x2x2x16xf32>
  }
}

// -----

// Padding beyond the kernel: the first band (output rows 0-1) reads only
// padding rows, which VEC_POOL cannot take (its input needs a row), so the
// output buffer is filled with the empty window's value, here the int8
// MAX's -128 clamped to -5 (0xFB bytes), and stored; band 1 reads image
// rows 0-1 with no padding.

// CHECK-LABEL: npuhw.stream @empty_band
// CHECK:         %[[F:.+]] = npuhw.dma_fill dst(%[[OUT0:.+]] : memref<2x3x1x16xi8, #npuhw.lmem<act>>) {pattern = 4227595259}
// CHECK-NEXT:    npuhw.dma_store src(%[[OUT0]] : {{.*}}) {{.*}} after(%[[F]])
// CHECK:         npuhw.vec_pool max in({{.*}} : memref<2x3x1x16xi8, {{.*}}) {{.*}} {kh = 1, kw = 1, max = 127, min = -5, sx = 1, sy = 1}
module {
  func.func @empty_band(%x: tensor<1x2x3x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x3x16x!quant.uniform<i8:f32, 0.5>> {
    %y = npu.max_pool2d %x {kernel = array<i64: 1, 1>, stride = array<i64: 1, 1>, pad = array<i64: 2, 0, 0, 0>, clamp_min = -5 : i64}
      : (tensor<1x2x3x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x3x16x!quant.uniform<i8:f32, 0.5>>
    return %y : tensor<1x4x3x16x!quant.uniform<i8:f32, 0.5>>
  }
}
