// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=2 max-blocks-per-group=1" | FileCheck %s
// The full pipeline gives a stream the runtime's verifier accepts:
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline="max-rows-per-band=2 max-blocks-per-group=1" -o /dev/null

// An fp16 3x3 SAME convolution, 4x4x1 -> 20, f32 bias, clamp [0.1, 6], in two
// bands of two output rows and two output channel blocks. r0 holds the f16
// weights (0.5 = 0x3800) in 16x16 blocks whose padding input lanes (ci 1-15)
// are -0.0 (0x8000), then the f32 biases (0.25 = 0x3E800000) padded with
// +0.0 to 32 channels. The biases are loaded into ACT once; per block, an
// LMEM-to-LMEM DMA_LOAD repeats the block's 16 biases (64 bytes, source
// strides 0) over the 2x4 pixels of the f32 accumulators, MAC_CONV
// accumulates onto them, VEC_UNARY CONVERT writes f16 into the band's output
// buffer and CLAMP clamps it in place with the bounds rounded to fp16
// (0.1 -> 0x2E66 = 11878, 6.0 -> 0x4600 = 17920). DRAM offsets, runs and
// strides count 2 bytes per element.

// CHECK-LABEL: npuhw.stream @conv
// CHECK-NEXT:    npuhw.region 0 const size 9344
// CHECK-NEXT:    npuhw.region 2 input size 32
// CHECK-NEXT:    npuhw.region 3 output size 640
// CHECK-NEXT:    npuhw.const dense<"0x{{(0038){16}(0080){240}(0038){15}0038}}{{.*}}{{(0038){4}(0000){12}(0080){239}0080}}{{(0000803E){20}(00000000){11}00000000}}"> : tensor<9344xi8>
// CHECK-NEXT:    npuhw.io input "image" region 2 offset 0 f16 [1, 4, 4, 1] nhwc scale 1.000000e+00 zp 0
// CHECK-NEXT:    npuhw.io output "features" region 3 offset 0 f16 [1, 4, 4, 20] nhwc scale 1.000000e+00 zp 0
// CHECK-DAG:     %[[IN0:.+]] = npuhw.alloc : memref<5x4x1x16xf16, #npuhw.lmem<act>>
// CHECK-DAG:     %[[OUT0:.+]] = npuhw.alloc : memref<2x4x2x16xf16, #npuhw.lmem<act>>
// CHECK-DAG:     %[[ACC0:.+]] = npuhw.alloc : memref<2x4x1x16xf32, #npuhw.lmem<acc>>
// CHECK-DAG:     %[[ACC1:.+]] = npuhw.alloc : memref<2x4x1x16xf32, #npuhw.lmem<acc>>
// CHECK-DAG:     %[[B:.+]] = npuhw.alloc : memref<32xf32, #npuhw.lmem<act>>
// CHECK:         %[[BL:.+]] = npuhw.dma_load src({{.*}} : memref<128xi8, strided<[1], offset: 9216>, #npuhw.dram<0>>) dst(%[[B]] : memref<32xf32, #npuhw.lmem<act>>) {dst_run = 128, n0 = 1, n1 = 1, n2 = 1, src_run = 128}
// CHECK:         %[[W:.+]] = npuhw.dma_load src({{.*}} : memref<9216xi8, strided<[1]>, #npuhw.dram<0>>) dst({{.*}}#npuhw.lmem<wgt>>) {dst_run = 9216, n0 = 1, n1 = 1, n2 = 1, src_run = 9216}
// Band 0: input rows 0-2, channels padded from 1 to 16 with +0.0.
// CHECK:         %[[X0:.+]] = npuhw.dma_load src({{.*}} : memref<24xi8, strided<[1]>, #npuhw.dram<2>>) dst({{.*}} : memref<3x4x1x16xf16, {{.*}}) {dst_run = 32, dst_s0 = 32, dst_s1 = 128, n0 = 4, n1 = 3, n2 = 1, src_run = 2, src_s0 = 2, src_s1 = 8}
// CHECK:         %[[B0:.+]] = memref.subview %[[B]][0] [16] [1]
// CHECK:         %[[P00:.+]] = npuhw.dma_load src(%[[B0]] : memref<16xf32, strided<[1]>, #npuhw.lmem<act>>) dst(%[[ACC0]] : memref<2x4x1x16xf32, #npuhw.lmem<acc>>) after(%[[BL]]) {dst_run = 64, dst_s0 = 64, dst_s1 = 256, n0 = 4, n1 = 2, n2 = 1, src_run = 64}
// CHECK:         %[[M00:.+]] = npuhw.mac_conv in({{.*}} : memref<3x4x1x16xf16, {{.*}}) weights({{.*}} : memref<4608xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%[[ACC0]] : {{.*}}) after(%[[X0]], %[[W]], %[[P00]]) {accumulate, dx = 1, dy = 1, kh = 3, kw = 3, pl = 1, pr = 1, pt = 1, sx = 1, sy = 1}
// CHECK:         %[[O00:.+]] = memref.subview %[[OUT0]][0, 0, 0, 0] [2, 4, 1, 16]
// CHECK:         %[[C00:.+]] = npuhw.vec_unary convert in(%[[ACC0]] : {{.*}}) out(%[[O00]] : {{.*}}) after(%[[M00]])
// CHECK:         %[[K00:.+]] = npuhw.vec_unary clamp in(%[[O00]] : {{.*}}) out(%[[O00]] : {{.*}}) after(%[[C00]]) {max = 17920, min = 11878}
// CHECK:         %[[B1:.+]] = memref.subview %[[B]][16] [16] [1]
// CHECK:         %[[P01:.+]] = npuhw.dma_load src(%[[B1]] : {{.*}}) dst(%[[ACC1]] : {{.*}}) after(%[[BL]])
// CHECK:         npuhw.mac_conv {{.*}} out(%[[ACC1]] : {{.*}}) after(%[[X0]], %[[W]], %[[P01]]) {accumulate,
// CHECK:         %[[K01:.+]] = npuhw.vec_unary clamp
// CHECK:         npuhw.dma_store src(%[[OUT0]] : memref<2x4x2x16xf16, #npuhw.lmem<act>>) dst({{.*}} : memref<320xi8, strided<[1]>, #npuhw.dram<3>>) after(%[[K01]]) {dst_s0 = 40, dst_s1 = 160, n0 = 4, n1 = 2, n2 = 1, src_run = 40, src_s0 = 64, src_s1 = 256}
// Band 1 reuses ACC0: its preload waits for the CONVERT that read it.
// CHECK:         npuhw.dma_load src({{.*}}#npuhw.lmem<act>>) dst(%[[ACC0]] : {{.*}}) after(%[[BL]], %[[C00]])
// CHECK:         npuhw.end
module {
  func.func @conv(%x: tensor<1x4x4x1xf16>) -> tensor<1x4x4x20xf16> attributes {tf.entry_function = {inputs = "image", outputs = "features"}} {
    %w = arith.constant dense<0.5> : tensor<3x3x1x20xf16>
    %b = arith.constant dense<0.25> : tensor<20xf32>
    %y = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, clamp_min = 0.1 : f32, clamp_max = 6.0 : f32}
      : (tensor<1x4x4x1xf16>, tensor<3x3x1x20xf16>, tensor<20xf32>) -> tensor<1x4x4x20xf16>
    return %y : tensor<1x4x4x20xf16>
  }
}

// -----

// Without a bias the MAC starts from +0.0 (no preload, no ACCUMULATE);
// without a clamp there is no CLAMP. Depthwise weights are [c/16][kh][kw][16]
// f16 (-1.0 = 0xBC00), with +0.0 in the padding channels 20-31.

// CHECK-LABEL: npuhw.stream @depthwise
// CHECK:         npuhw.const dense<"0x{{(00BC){148}(0000){11}0000}}
// CHECK-NOT:     lmem<act>>) dst({{.*}}lmem<acc>>)
// CHECK:         %[[M:.+]] = npuhw.mac_dwconv in({{.*}} : memref<2x4x1x16xf16, {{.*}}) weights({{.*}}) out({{.*}} : memref<2x4x1x16xf32, {{.*}}) after({{.*}}) {dx = 1, dy = 1, kh = 3, kw = 3, pb = 1, pl = 1, pr = 1, pt = 1, sx = 1, sy = 1}
// CHECK-NEXT:    memref.subview
// CHECK-NEXT:    npuhw.vec_unary convert {{.*}} after(%[[M]])
// CHECK-NOT:     vec_unary clamp
// CHECK:         npuhw.end
module {
  func.func @depthwise(%x: tensor<1x2x4x20xf16>) -> tensor<1x2x4x20xf16> {
    %w = arith.constant dense<-1.0> : tensor<3x3x20xf16>
    %y = npu.depthwise_conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x4x20xf16>, tensor<3x3x20xf16>) -> tensor<1x2x4x20xf16>
    return %y : tensor<1x2x4x20xf16>
  }
}

// -----

// An f16 bias is widened exactly to f32 (1.5 = 0x3FC00000). A clamp with
// only an upper bound clamps below at -inf (0xFC00 = -1024); 65519 rounds to
// the largest finite fp16, 65504 (0x7BFF = 31743), not to infinity.

// CHECK-LABEL: npuhw.stream @fully_connected
// CHECK:         npuhw.const dense<"0x{{.*}}{{(0000C03F){10}(00000000){5}00000000}}"> : tensor<1088xi8>
// CHECK:         npuhw.io input "arg0" region 2 offset 0 f16 [3, 20] nhwc
// CHECK:         npuhw.dma_load src({{.*}} : memref<16xf32, #npuhw.lmem<act>>) dst({{.*}} : memref<1x3x1x16xf32, #npuhw.lmem<acc>>) after({{.*}}) {dst_run = 64, dst_s0 = 64, dst_s1 = 192, n0 = 3, n1 = 1, n2 = 1, src_run = 64}
// CHECK:         npuhw.mac_conv {{.*}} {accumulate, dx = 1, dy = 1, kh = 1, kw = 1, sx = 1, sy = 1}
// CHECK:         npuhw.vec_unary clamp {{.*}} {max = 31743, min = -1024}
module {
  func.func @fully_connected(%x: tensor<3x20xf16>) -> tensor<3x10xf16> {
    %w = arith.constant dense<2.0> : tensor<20x10xf16>
    %b = arith.constant dense<1.5> : tensor<10xf16>
    %y = npu.fully_connected %x, %w, %b {clamp_max = 65519.0 : f32} : (tensor<3x20xf16>, tensor<20x10xf16>, tensor<10xf16>) -> tensor<3x10xf16>
    return %y : tensor<3x10xf16>
  }
}
