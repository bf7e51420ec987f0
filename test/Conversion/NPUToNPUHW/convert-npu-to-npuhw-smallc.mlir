// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw | FileCheck %s
// The full pipeline gives streams the runtime's verifier accepts:
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline -o /dev/null

// Small input channels (docs/npu-lowering.md): a 5x5 stride-2 convolution of
// 3 channels, 37 wide (17 output columns), packed. Stride 2 does not divide
// 5, so three pieces per band: window columns 0-1 (6 bytes, lanes 0-15),
// 2-3 (lanes 16-31), and column 4 (lanes 32-47), whose load reads columns
// 3 and 4 of each window in turn into the same lanes (n0 = 2, no dst_s0) so
// that its runs stay contiguous in DRAM (src_s1 = 6 = 2 pixels). The MAC is
// the 5x1 convolution (stride 2 down the rows) of the 17 packed pixels of 3
// lane blocks: 5 x 3 weight blocks instead of 5 x 5.

// CHECK-LABEL: npuhw.stream @packed
// CHECK:         %[[IN:.+]] = npuhw.alloc : memref<17x17x3x16xi8, #npuhw.lmem<act>>
// CHECK:         npuhw.dma_load src({{.*}} : memref<1878xi8, strided<[1]>, #npuhw.dram<2>>) dst(%[[IN]] : {{.*}}) {dst_run = 16, dst_s1 = 48, dst_s2 = 816, n0 = 1, n1 = 17, n2 = 17, pad = 253, src_run = 6, src_s0 = 6, src_s1 = 6, src_s2 = 111}
// CHECK:         npuhw.dma_load src({{.*}} : memref<1878xi8, strided<[1], offset: 6>, #npuhw.dram<2>>) dst({{.*}} : memref<17x17x2x16xi8, strided<[816, 48, 16, 1], offset: 16>, #npuhw.lmem<act>>) {dst_run = 16, dst_s1 = 48, dst_s2 = 816, n0 = 1, n1 = 17, n2 = 17, pad = 253, src_run = 6, src_s0 = 6, src_s1 = 6, src_s2 = 111}
// CHECK:         %[[L:.+]] = npuhw.dma_load src({{.*}} : memref<1878xi8, strided<[1], offset: 9>, #npuhw.dram<2>>) dst({{.*}} : memref<17x17x1x16xi8, strided<[816, 48, 16, 1], offset: 32>, #npuhw.lmem<act>>) {dst_run = 16, dst_s1 = 48, dst_s2 = 816, n0 = 2, n1 = 17, n2 = 17, pad = 253, src_run = 3, src_s0 = 3, src_s1 = 6, src_s2 = 111}
// CHECK:         npuhw.mac_conv in(%[[IN]] : {{.*}}) weights({{.*}} : memref<3840xi8, #npuhw.lmem<wgt>>) {{.*}} after(%[[L]], {{.*}}) {dx = 1, dy = 1, in_zp = -3, kh = 5, kw = 1, sx = 1, sy = 2}
module attributes {npu.target = #npu.target<"default">} {
  func.func @packed(%x: tensor<1x18x37x3x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x7x17x11x!quant.uniform<i8:f32, 0.25:5>> {
    %wi = arith.constant dense<1> : tensor<5x5x3x11xi8>
    %w = quant.scast %wi : tensor<5x5x3x11xi8> to tensor<5x5x3x11x!quant.uniform<i8:f32, 0.01>>
    %y = npu.conv2d %x, %w {stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x18x37x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<5x5x3x11x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x7x17x11x!quant.uniform<i8:f32, 0.25:5>>
    return %y : tensor<1x7x17x11x!quant.uniform<i8:f32, 0.25:5>>
  }
}

// -----

// Partial output blocks: 7 output channels of a 3x3 convolution of 48. Of
// the block's 6912 bytes of weights (27 rows of 16 output lanes x 16), DRAM
// keeps the 7 lanes that exist (3024 bytes: 3888 fewer, 243 cycles at 16
// bytes per cycle, more than the 216 of a second load's setup and latency),
// and the load pads each 7-byte row back to 16 in WGT.

// CHECK-LABEL: npuhw.stream @compact
// CHECK-NEXT:    npuhw.region 0 const size 3328
// CHECK:         npuhw.dma_load src({{.*}} : memref<3024xi8, strided<[1]>, #npuhw.dram<0>>) dst({{.*}} : memref<6912xi8, #npuhw.lmem<wgt>>) {dst_run = 16, dst_s0 = 16, dst_s1 = 256, n0 = 16, n1 = 27, n2 = 1, src_run = 7, src_s0 = 7, src_s1 = 112}
module attributes {npu.target = #npu.target<"default">} {
  func.func @compact(%x: tensor<1x4x4x48x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x4x4x7x!quant.uniform<i8:f32, 0.25:5>> {
    %wi = arith.constant dense<1> : tensor<3x3x48x7xi8>
    %w = quant.scast %wi : tensor<3x3x48x7xi8> to tensor<3x3x48x7x!quant.uniform<i8:f32, 0.01>>
    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x4x4x48x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x3x48x7x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x4x4x7x!quant.uniform<i8:f32, 0.25:5>>
    return %y : tensor<1x4x4x7x!quant.uniform<i8:f32, 0.25:5>>
  }
}

// -----

// With 32 input channels the block is 4608 bytes; the 2592 bytes compact
// weights would save (162 cycles) do not pay for a second load: one whole
// load.

// CHECK-LABEL: npuhw.stream @whole
// CHECK-NEXT:    npuhw.region 0 const size 4864
// CHECK:         npuhw.dma_load src({{.*}} : memref<4608xi8, strided<[1]>, #npuhw.dram<0>>) dst({{.*}} : memref<4608xi8, #npuhw.lmem<wgt>>) {dst_run = 4608, n0 = 1, n1 = 1, n2 = 1, src_run = 4608}
module attributes {npu.target = #npu.target<"default">} {
  func.func @whole(%x: tensor<1x4x4x32x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x4x4x7x!quant.uniform<i8:f32, 0.25:5>> {
    %wi = arith.constant dense<1> : tensor<3x3x32x7xi8>
    %w = quant.scast %wi : tensor<3x3x32x7xi8> to tensor<3x3x32x7x!quant.uniform<i8:f32, 0.01>>
    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x4x4x32x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x3x32x7x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x4x4x7x!quant.uniform<i8:f32, 0.25:5>>
    return %y : tensor<1x4x4x7x!quant.uniform<i8:f32, 0.25:5>>
  }
}
