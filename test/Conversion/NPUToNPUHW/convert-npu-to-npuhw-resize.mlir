// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=2 max-blocks-per-group=1" | FileCheck %s
// The full pipeline gives streams the runtime's verifier accepts:
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline="max-rows-per-band=2 max-blocks-per-group=1" -o /dev/null

// Nearest up-sampling of 3x2x20 int8 by 2x3 in two bands (2 rows, then 1):
// one load per band (20-byte runs into 32-byte slots), then one store per
// output row replica (sy = 2): n0 = 3 copies of each pixel with source
// stride 0, n1 = 2 pixels, n2 = the band's rows; the second replica starts
// one output row (120 bytes) later. Only DMA.

// CHECK-LABEL: npuhw.stream @nearest
// CHECK-NOT:     npuhw.region 0
// CHECK:         %[[IN0:.+]] = npuhw.alloc : memref<2x2x2x16xi8, #npuhw.lmem<act>>
// CHECK:         %[[L0:.+]] = npuhw.dma_load src({{.*}} : memref<80xi8, strided<[1]>, #npuhw.dram<2>>) dst(%[[IN0]] : {{.*}}) {dst_run = 32, dst_s0 = 32, dst_s1 = 64, n0 = 2, n1 = 2, n2 = 1, src_run = 20, src_s0 = 20, src_s1 = 40}
// CHECK:         npuhw.dma_store src(%[[IN0]] : {{.*}}) dst({{.*}} : memref<360xi8, strided<[1]>, #npuhw.dram<3>>) after(%[[L0]]) {dst_s0 = 20, dst_s1 = 60, dst_s2 = 240, n0 = 3, n1 = 2, n2 = 2, src_run = 20, src_s1 = 32, src_s2 = 64}
// CHECK:         npuhw.dma_store src(%[[IN0]] : {{.*}}) dst({{.*}} : memref<360xi8, strided<[1], offset: 120>, #npuhw.dram<3>>) after(%[[L0]])
// CHECK:         npuhw.dma_load src({{.*}} : memref<40xi8, strided<[1], offset: 80>, #npuhw.dram<2>>)
// CHECK-SAME:      n1 = 1
// CHECK-COUNT-2: npuhw.dma_store {{.*}} n2 = 1
// CHECK-NOT:     npuhw.mac_dwconv
// CHECK:         npuhw.end
module attributes {npu.target = #npu.target<"default">} {
  func.func @nearest(%x: tensor<1x3x2x20x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x6x6x20x!quant.uniform<i8:f32, 0.5:-3>> {
    %y = npu.resize_nearest %x {scale = array<i64: 2, 3>}
      : (tensor<1x3x2x20x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x6x6x20x!quant.uniform<i8:f32, 0.5:-3>>
    return %y : tensor<1x6x6x20x!quant.uniform<i8:f32, 0.5:-3>>
  }
}

// -----

// Bilinear 2x of 3x2x20 int8 in two bands (2 rows, then 1) and two groups
// of one channel block. r0 holds the 2x2 weights of the four phases
// (1 3 3 9, 3 1 9 3, 3 9 1 3, 9 3 3 1, one 16-lane row per tap) and the
// per-tensor record {0, 2^30, 33, 0} of 0.5 / (16 * 0.25). Band 0 loads
// image rows 0-2 into rows 1-3 of a 5-row buffer (with a spare row) at
// column 1, copies row 1 to row 0 (the top border) and columns 1 and 2 to
// 0 and 3 (n0 = 2) on 4 rows. Each group runs four MAC_DWCONV, phase (a, b)
// reading the buffer from (a, b) and writing accumulators from (a, b) with
// strides 2, then one VEC_REQUANT; one store per band. Band 1 repeats image
// row 2 below itself, and its MACs wait for the requantisation that read
// their accumulators two units before.

// CHECK-LABEL: npuhw.stream @bilinear
// CHECK:         npuhw.const dense<"0x01010101010101010101010101010101030303030303030303030303030303030303030303030303030303030303030309090909090909090909090909090909{{.*}}00000000000000402100000000000000"> : tensor<272xi8>
// CHECK:         %[[B0:.+]] = npuhw.alloc : memref<5x4x2x16xi8, #npuhw.lmem<act>>
// CHECK-NEXT:    %[[OUT0:.+]] = npuhw.alloc : memref<4x4x2x16xi8, #npuhw.lmem<act>>
// CHECK-NEXT:    %[[ACC0:.+]] = npuhw.alloc : memref<4x4x1x16xi32, #npuhw.lmem<acc>>
// CHECK:         %[[W:.+]] = npuhw.dma_load {{.*}} {dst_run = 256, n0 = 1, n1 = 1, n2 = 1, src_run = 256}
// CHECK:         %[[P:.+]] = npuhw.dma_load {{.*}} {dst_run = 16, n0 = 1, n1 = 1, n2 = 1, src_run = 16}
// CHECK:         %[[L0:.+]] = npuhw.dma_load src({{.*}} : memref<120xi8, strided<[1]>, #npuhw.dram<2>>) dst({{.*}} : memref<4x3x2x16xi8, strided<[128, 32, 16, 1], offset: 160>, #npuhw.lmem<act>>) {dst_run = 32, dst_s0 = 32, dst_s1 = 128, n0 = 2, n1 = 3, n2 = 1, src_run = 20, src_s0 = 20, src_s1 = 40}
// CHECK:         %[[TOP:.+]] = npuhw.dma_load src({{.*}}offset: 160>, #npuhw.lmem<act>>) dst({{.*}}offset: 32>, #npuhw.lmem<act>>) after(%[[L0]]) {dst_run = 64, n0 = 1, n1 = 1, n2 = 1, src_run = 64}
// CHECK:         %[[COLS:.+]] = npuhw.dma_load src({{.*}} : memref<5x3x2x16xi8, strided<[128, 32, 16, 1], offset: 32>, #npuhw.lmem<act>>) dst(%[[B0]] : {{.*}}) after(%[[L0]], %[[TOP]]) {dst_run = 32, dst_s0 = 96, dst_s1 = 128, n0 = 2, n1 = 4, n2 = 1, src_run = 32, src_s0 = 32, src_s1 = 128}
// CHECK:         npuhw.mac_dwconv in({{.*}} : memref<3x3x1x16xi8, strided<[128, 32, 16, 1]>, #npuhw.lmem<act>>) weights({{.*}} : memref<64xi8, strided<[1]>, #npuhw.lmem<wgt>>) out({{.*}} : memref<2x2x1x16xi32, strided<[128, 32, 16, 1]>, #npuhw.lmem<acc>>) after(%[[COLS]], %[[W]]) {dx = 1, dy = 1, in_zp = -3, kh = 2, kw = 2, sx = 1, sy = 1}
// CHECK:         npuhw.mac_dwconv in({{.*}}offset: 32>, #npuhw.lmem<act>>) weights({{.*}}offset: 64>, #npuhw.lmem<wgt>>) out({{.*}}offset: 16>, #npuhw.lmem<acc>>)
// CHECK:         npuhw.mac_dwconv in({{.*}}offset: 128>, #npuhw.lmem<act>>) weights({{.*}}offset: 128>, #npuhw.lmem<wgt>>) out({{.*}}offset: 64>, #npuhw.lmem<acc>>)
// CHECK:         %[[M03:.+]] = npuhw.mac_dwconv in({{.*}}offset: 160>, #npuhw.lmem<act>>) weights({{.*}}offset: 192>, #npuhw.lmem<wgt>>) out({{.*}}offset: 80>, #npuhw.lmem<acc>>)
// CHECK:         %[[V00:.+]] = npuhw.vec_requant in(%[[ACC0]] : {{.*}}) params({{.*}}) out({{.*}}) after(%[[M03]], %[[P]]) {max = 127, min = -128, out_zp = 5, per_tensor}
// CHECK-COUNT-4: npuhw.mac_dwconv
// CHECK:         %[[V01:.+]] = npuhw.vec_requant
// CHECK:         %[[S0:.+]] = npuhw.dma_store src(%[[OUT0]] : {{.*}}) dst({{.*}} : memref<320xi8, strided<[1]>, #npuhw.dram<3>>) after(%[[V01]]) {dst_s0 = 20, dst_s1 = 80, n0 = 4, n1 = 4, n2 = 1, src_run = 20, src_s0 = 32, src_s1 = 128}
// CHECK:         %[[L1:.+]] = npuhw.dma_load src({{.*}} : memref<80xi8, strided<[1], offset: 40>, #npuhw.dram<2>>) {{.*}} n1 = 2,
// CHECK:         %[[BOTTOM:.+]] = npuhw.dma_load src({{.*}}offset: 160>, #npuhw.lmem<act>>) dst({{.*}}offset: 288>, #npuhw.lmem<act>>) after(%[[L1]])
// CHECK:         %[[COLS1:.+]] = npuhw.dma_load {{.*}} after(%[[L1]], %[[BOTTOM]]) {{{.*}}n1 = 3,
// CHECK:         npuhw.mac_dwconv {{.*}} after(%[[COLS1]], %[[W]], %[[V00]])
// CHECK:         npuhw.dma_store {{.*}} dst({{.*}} : memref<160xi8, strided<[1], offset: 320>, #npuhw.dram<3>>)
// CHECK:         npuhw.end after(%[[S0]], %{{.+}})
module attributes {npu.target = #npu.target<"default">} {
  func.func @bilinear(%x: tensor<1x3x2x20x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x6x4x20x!quant.uniform<i8:f32, 0.25:5>> {
    %y = npu.resize_bilinear %x
      : (tensor<1x3x2x20x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x6x4x20x!quant.uniform<i8:f32, 0.25:5>>
    return %y : tensor<1x6x4x20x!quant.uniform<i8:f32, 0.25:5>>
  }
}

// -----

// fp16: the weights are the fp16 values 1/16 (0x2c00), 3/16 (0x3200) and
// 9/16 (0x3880), the MACs accumulate in f32 and VEC_UNARY CONVERT rounds
// to f16; no record.

// CHECK-LABEL: npuhw.stream @bilinear_f16
// CHECK:         npuhw.region 0 const size 512
// CHECK:         npuhw.const dense<"0x002C002C{{.*}}00320032{{.*}}80388038
// CHECK:         npuhw.mac_dwconv in({{.*}}xf16{{.*}}) {{.*}} out({{.*}}xf32{{.*}})
// CHECK:         npuhw.vec_unary convert in({{.*}}xf32{{.*}}) out({{.*}}xf16{{.*}})
// CHECK-NOT:     npuhw.vec_requant
module attributes {npu.target = #npu.target<"default">} {
  func.func @bilinear_f16(%x: tensor<1x2x2x8xf16>) -> tensor<1x4x4x8xf16> {
    %y = npu.resize_bilinear %x : (tensor<1x2x2x8xf16>) -> tensor<1x4x4x8xf16>
    return %y : tensor<1x4x4x8xf16>
  }
}
