// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=2 max-blocks-per-group=1" | FileCheck %s
// The full pipeline gives a stream the runtime's verifier accepts:
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline="max-rows-per-band=2 max-blocks-per-group=1" -o /dev/null

// A 3x3 SAME convolution, 4x4x8 -> 32, in two bands of two output rows and
// two output channel blocks. The weights (one 16x16 block per kernel tap and
// output block: 2 x 9 x 256 bytes) fit WGT and load once; then per band: the
// input load (rows 0-2, then 1-3: one halo row each, channels padded from 8
// to 16 with the input zero point -3 = 253; the second band copies the rows
// the first loaded), per block a MAC and a
// requantization, one store. The second band reuses the first band's
// buffers, so its MACs wait for the requantizations that read the
// accumulators before them. The records are {bias, multiplier, shift, 0}:
// 0.5 * 0.01 / 0.25 = 0.02 = 0x51EB851F * 2^-36.

// CHECK-LABEL: npuhw.stream @conv
// CHECK-NEXT:    npuhw.region 0 const size 5120
// CHECK-NEXT:    npuhw.region 2 input size 128
// CHECK-NEXT:    npuhw.region 3 output size 512
// CHECK-NEXT:    npuhw.const dense<"0x{{[0-9A-F]+}}070000001F85EB512400000000000000{{[0-9A-F]+}}"> : tensor<5120xi8>
// CHECK-NEXT:    npuhw.io input "image" region 2 offset 0 i8 [1, 4, 4, 8] nhwc scale 5.000000e-01 zp -3
// CHECK-NEXT:    npuhw.io output "features" region 3 offset 0 i8 [1, 4, 4, 32] nhwc scale 2.500000e-01 zp 5
// CHECK-DAG:     %[[IN0:.+]] = npuhw.alloc : memref<4x4x1x16xi8, #npuhw.lmem<act>>
// CHECK-DAG:     %[[OUT0:.+]] = npuhw.alloc : memref<2x4x2x16xi8, #npuhw.lmem<act>>
// CHECK-DAG:     %[[ACC0:.+]] = npuhw.alloc : memref<2x4x1x16xi32, #npuhw.lmem<acc>>
// CHECK-DAG:     %[[ACC1:.+]] = npuhw.alloc : memref<2x4x1x16xi32, #npuhw.lmem<acc>>
// CHECK:         %[[P:.+]] = npuhw.dma_load src({{.*}} : memref<512xi8, strided<[1], offset: 4608>, #npuhw.dram<0>>) dst({{.*}}#npuhw.lmem<param>>) {dst_run = 512, n0 = 1, n1 = 1, n2 = 1, src_run = 512}
// CHECK:         %[[W:.+]] = npuhw.dma_load src({{.*}} : memref<4608xi8, strided<[1]>, #npuhw.dram<0>>) dst({{.*}}#npuhw.lmem<wgt>>) {dst_run = 4608, n0 = 1, n1 = 1, n2 = 1, src_run = 4608}
// Band 0.
// CHECK:         %[[X0:.+]] = npuhw.dma_load src({{.*}} : memref<96xi8, strided<[1]>, #npuhw.dram<2>>) dst({{.*}} : memref<3x4x1x16xi8, {{.*}}) {dst_run = 16, dst_s0 = 16, dst_s1 = 64, n0 = 4, n1 = 3, n2 = 1, pad = 253, src_run = 8, src_s0 = 8, src_s1 = 32}
// CHECK:         %[[M00:.+]] = npuhw.mac_conv in({{.*}} : memref<3x4x1x16xi8, {{.*}}) weights({{.*}} : memref<2304xi8, strided<[1]>, #npuhw.lmem<wgt>>) out(%[[ACC0]] : {{.*}}) after(%[[X0]], %[[W]]) {dx = 1, dy = 1, in_zp = -3, kh = 3, kw = 3, pl = 1, pr = 1, pt = 1, sx = 1, sy = 1}
// CHECK:         %[[R00:.+]] = npuhw.vec_requant in(%[[ACC0]] : {{.*}}) params({{.*}} : memref<256xi8, strided<[1]>, #npuhw.lmem<param>>) out({{.*}} : memref<2x4x1x16xi8, strided<[128, 32, 16, 1]>, #npuhw.lmem<act>>) after(%[[M00]], %[[P]]) {double_round, max = 127, min = -100, out_zp = 5}
// CHECK:         %[[M01:.+]] = npuhw.mac_conv {{.*}} weights({{.*}} : memref<2304xi8, strided<[1], offset: 2304>, #npuhw.lmem<wgt>>) out(%[[ACC1]] : {{.*}}) after(%[[X0]], %[[W]])
// CHECK:         %[[R01:.+]] = npuhw.vec_requant in(%[[ACC1]] : {{.*}}) params({{.*}} offset: 256>, #npuhw.lmem<param>>) out({{.*}} : memref<2x4x1x16xi8, strided<[128, 32, 16, 1], offset: 16>, #npuhw.lmem<act>>) after(%[[M01]], %[[P]])
// CHECK:         %[[S0:.+]] = npuhw.dma_store src(%[[OUT0]] : {{.*}}) dst({{.*}} : memref<256xi8, strided<[1]>, #npuhw.dram<3>>) after(%[[R01]]) {dst_s0 = 32, dst_s1 = 128, n0 = 4, n1 = 2, n2 = 1, src_run = 32, src_s0 = 32, src_s1 = 128}
// Band 1: input rows 1-3, padding below instead of above. Rows 1-2, the
// halo, are copied from band 0's buffer (LMEM to LMEM on DMA_IN, after band
// 0's load); only row 3 comes from DRAM (byte 96).
// CHECK:         %[[H1:.+]] = npuhw.dma_load src({{.*}} : memref<2x4x1x16xi8, strided<[64, 16, 16, 1], offset: 64>, #npuhw.lmem<act>>) dst({{.*}} : memref<2x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) after(%[[X0]]) {dst_run = 128, n0 = 1, n1 = 1, n2 = 1, src_run = 128}
// CHECK-NEXT:    memref.subview
// CHECK-NEXT:    npuhw.view
// CHECK-NEXT:    %[[X1:.+]] = npuhw.dma_load src({{.*}} : memref<32xi8, strided<[1], offset: 96>, #npuhw.dram<2>>) dst({{.*}} : memref<1x4x1x16xi8, strided<[64, 16, 16, 1], offset: 128>, #npuhw.lmem<act>>) {{.*}}n1 = 1,
// CHECK:         %[[M10:.+]] = npuhw.mac_conv {{.*}} out(%[[ACC0]] : {{.*}}) after(%[[X1]], %[[W]], %[[R00]]) {dx = 1, dy = 1, in_zp = -3, kh = 3, kw = 3, pb = 1, pl = 1, pr = 1, sx = 1, sy = 1}
// CHECK:         %[[R10:.+]] = npuhw.vec_requant in(%[[ACC0]] : {{.*}}) after(%[[M10]], %[[P]])
// CHECK:         %[[M11:.+]] = npuhw.mac_conv {{.*}} out(%[[ACC1]] : {{.*}}) after(%[[X1]], %[[W]], %[[R01]])
// CHECK:         %[[R11:.+]] = npuhw.vec_requant in(%[[ACC1]] : {{.*}}) after(%[[M11]], %[[P]])
// CHECK:         %[[S1:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<256xi8, strided<[1], offset: 256>, #npuhw.dram<3>>) after(%[[R11]])
// CHECK-NEXT:    npuhw.end after(%[[S0]], %[[S1]])
// CHECK-NOT:     func.func
module attributes {npu.target = #npu.target<"default">} {
  func.func @conv(%x: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x4x4x32x!quant.uniform<i8:f32, 0.25:5>>
      attributes {tf.entry_function = {inputs = "image", outputs = "features"}} {
    %wi = arith.constant dense<1> : tensor<3x3x8x32xi8>
    %w = quant.scast %wi : tensor<3x3x8x32xi8> to tensor<3x3x8x32x!quant.uniform<i8:f32, 0.01>>
    %b = arith.constant dense<7> : tensor<32xi32>
    %y = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, clamp_min = -100 : i64}
      : (tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x3x8x32x!quant.uniform<i8:f32, 0.01>>, tensor<32xi32>) -> tensor<1x4x4x32x!quant.uniform<i8:f32, 0.25:5>>
    return %y : tensor<1x4x4x32x!quant.uniform<i8:f32, 0.25:5>>
  }
}

// -----

// Depthwise: the MAC reads the channel block of its group from the input
// buffer; weights are [cb][kh][kw][16]. Without tf.entry_function the IO
// names are arg0 and result0. A fully connected layer is a 1x1 convolution
// of a 1 x M x K image.

// CHECK-LABEL: npuhw.stream @depthwise
// CHECK:         npuhw.io input "arg0" region 2 offset 0 i8 [1, 2, 4, 32]
// CHECK:         npuhw.io output "result0" region 3 offset 0 i8 [1, 2, 4, 32]
// CHECK:         npuhw.mac_dwconv in({{.*}} : memref<2x4x1x16xi8, strided<[128, 32, 16, 1]>, #npuhw.lmem<act>>) weights({{.*}} : memref<144xi8, strided<[1]>, #npuhw.lmem<wgt>>)
// CHECK:         npuhw.mac_dwconv in({{.*}} : memref<2x4x1x16xi8, strided<[128, 32, 16, 1], offset: 16>, #npuhw.lmem<act>>) weights({{.*}} : memref<144xi8, strided<[1], offset: 144>, #npuhw.lmem<wgt>>)
// CHECK-LABEL: npuhw.stream @fully_connected
// CHECK:         npuhw.io input "arg0" region 2 offset 0 i8 [3, 20]
// CHECK:         npuhw.dma_load {{.*}} dst({{.*}} : memref<1x3x2x16xi8, strided<[96, 32, 16, 1]>, #npuhw.lmem<act>>) {dst_run = 32, dst_s0 = 32, dst_s1 = 96, n0 = 3, n1 = 1, n2 = 1, pad = 1, src_run = 20, src_s0 = 20, src_s1 = 60}
// CHECK:         npuhw.mac_conv {{.*}} out({{.*}} : memref<1x3x1x16xi32, #npuhw.lmem<acc>>) {{.*}}{dx = 1, dy = 1, in_zp = 1, kh = 1, kw = 1, sx = 1, sy = 1}
module {
  func.func @depthwise(%x: tensor<1x2x4x32x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x4x32x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<2> : tensor<3x3x32xi8>
    %w = quant.scast %wi : tensor<3x3x32xi8> to tensor<3x3x32x!quant.uniform<i8:f32, 0.01>>
    %y = npu.depthwise_conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x2x4x32x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x32x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x2x4x32x!quant.uniform<i8:f32, 0.5>>
    return %y : tensor<1x2x4x32x!quant.uniform<i8:f32, 0.5>>
  }
  func.func @fully_connected(%x: tensor<3x20x!quant.uniform<i8:f32, 0.5:1>>) -> tensor<3x10x!quant.uniform<i8:f32, 0.125:-2>> {
    %wi = arith.constant dense<3> : tensor<20x10xi8>
    %w = quant.scast %wi : tensor<20x10xi8> to tensor<20x10x!quant.uniform<i8:f32, 0.01>>
    %y = npu.fully_connected %x, %w : (tensor<3x20x!quant.uniform<i8:f32, 0.5:1>>, tensor<20x10x!quant.uniform<i8:f32, 0.01>>) -> tensor<3x10x!quant.uniform<i8:f32, 0.125:-2>>
    return %y : tensor<3x10x!quant.uniform<i8:f32, 0.125:-2>>
  }
}
