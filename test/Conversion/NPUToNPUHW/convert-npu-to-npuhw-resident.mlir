// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=4" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=4 lmem-resident=false cascade=false" | FileCheck %s --check-prefix=DRAM
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline="max-rows-per-band=4" -o /dev/null

// LMEM-resident intermediates: a 1x1 conv -> 3x3 depthwise -> 1x1 conv
// chain at 8x8x16, two bands of 4 rows per op. Each intermediate (1 KiB)
// is read only by the next op and fits in ACT, so it stays there: no
// scratch region, no DMA_STORE but the result's. %a's band stores became
// LMEM-to-LMEM DMA_LOADs into a 1024-byte ACT buffer (each after the
// requantisation of its band, moved down past the next band's input load
// and compute to the next band's copy, so DMA_IN does not wait for it),
// and %b loads its bands, halo rows included, from that buffer.

// CHECK-LABEL: npuhw.stream @chain
// CHECK-NOT:     npuhw.region 1
// CHECK:         npuhw.region 2 input size 1024
// CHECK-NOT:     #npuhw.dram<1>
// %a, band 0 into bytes [0, 512) of its buffer, band 1 into [512, 1024).
// CHECK:         %[[RQ0:.+]] = npuhw.vec_requant
// CHECK:         %[[A:.+]] = npuhw.alloc : memref<1024xi8, #npuhw.lmem<act>>
// CHECK-NEXT:    %[[A0:.+]] = memref.subview %[[A]][0] [512] [1]
// CHECK-NEXT:    npuhw.view
// CHECK-NEXT:    npuhw.dma_load src({{.*}}#npuhw.dram<2>>)
// CHECK-NEXT:    npuhw.mac_conv
// CHECK-NEXT:    npuhw.vec_requant
// CHECK-NEXT:    %[[A1:.+]] = memref.subview %[[A]][512] [512] [1]
// CHECK-NEXT:    npuhw.dma_load src(%{{.+}} : memref<4x8x1x16xi8, #npuhw.lmem<act>>) dst(%[[A0]] : memref<512xi8, strided<[1]>, #npuhw.lmem<act>>) after(%[[RQ0]]) {dst_run = 16, dst_s0 = 16, dst_s1 = 128, n0 = 8, n1 = 4, n2 = 1, src_run = 16, src_s0 = 16, src_s1 = 128}
// %a's last copy moved past %b's weight load (DMA_IN would otherwise
// hold %b's prefetch behind it), to just before %b's first band, which
// reads rows 0-4 of %a (640 bytes) from LMEM after it.
// CHECK:         npuhw.dma_load src({{.*}}#npuhw.dram<0>>) dst(%{{.+}} : memref<144xi8, #npuhw.lmem<wgt>>)
// CHECK:         %[[R0:.+]] = memref.subview %[[A]][0] [640] [1]
// CHECK-NEXT:    %[[W1:.+]] = npuhw.dma_load src(%{{.+}} : memref<4x8x1x16xi8, #npuhw.lmem<act>>) dst(%[[A1]] : memref<512xi8, strided<[1], offset: 512>, #npuhw.lmem<act>>)
// CHECK-NEXT:    npuhw.dma_load src(%[[R0]] : memref<640xi8, strided<[1]>, #npuhw.lmem<act>>) dst(%{{.+}} : memref<5x8x1x16xi8, strided<[128, 16, 16, 1]>, #npuhw.lmem<act>>) after(%[[W1]])
// CHECK-NOT:     #npuhw.dram<1>
// CHECK:         npuhw.mac_dwconv
// CHECK:         npuhw.alloc : memref<1024xi8, #npuhw.lmem<act>>
// CHECK-NOT:     #npuhw.dram<1>
// CHECK:         npuhw.dma_store {{.*}}#npuhw.dram<3>>
// CHECK-NOT:     #npuhw.dram<1>
// CHECK:         npuhw.end

// Without lmem-resident, both intermediates go through the scratch region.
// DRAM-LABEL:    npuhw.stream @chain
// DRAM:          npuhw.region 1 scratch size 2048
// DRAM-NOT:      memref<1024xi8, #npuhw.lmem<act>>
// DRAM:          npuhw.dma_store {{.*}}#npuhw.dram<1>>
// DRAM:          npuhw.dma_load src({{.*}}#npuhw.dram<1>>)
module attributes {npu.target = #npu.target<"default">} {
  func.func @chain(%x: tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x16x16xi8>
    %w = quant.scast %wi : tensor<1x1x16x16xi8> to tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>
    %di = arith.constant dense<2> : tensor<3x3x16xi8>
    %d = quant.scast %di : tensor<3x3x16xi8> to tensor<3x3x16x!quant.uniform<i8:f32, 0.0625>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    %b = npu.depthwise_conv2d %a, %d {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x16x!quant.uniform<i8:f32, 0.0625>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    %c = npu.conv2d %b, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    return %c : tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// %a is read by %b and, later, by %c: it stays in DRAM (r1); %b, read only
// by the next op, stays in LMEM.

// CHECK-LABEL: npuhw.stream @skip
// CHECK:         npuhw.region 1 scratch size 1024
// CHECK:         npuhw.dma_store {{.*}}#npuhw.dram<1>>
// CHECK:         npuhw.dma_load src({{.*}}#npuhw.dram<1>>)
// CHECK:         npuhw.mac_dwconv
// CHECK:         %[[B:.+]] = npuhw.alloc : memref<1024xi8, #npuhw.lmem<act>>
// CHECK:         npuhw.vec_eltwise add
// CHECK:         npuhw.end
module attributes {npu.target = #npu.target<"default">} {
  func.func @skip(%x: tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x16x16xi8>
    %w = quant.scast %wi : tensor<1x1x16x16xi8> to tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>
    %di = arith.constant dense<2> : tensor<3x3x16xi8>
    %d = quant.scast %di : tensor<3x3x16xi8> to tensor<3x3x16x!quant.uniform<i8:f32, 0.0625>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    %b = npu.depthwise_conv2d %a, %d {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x16x!quant.uniform<i8:f32, 0.0625>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    %c = npu.add %b, %a : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    return %c : tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
  }
}
