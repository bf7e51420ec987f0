// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=4 lmem-resident=false cascade=false" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline="max-rows-per-band=4" -o /dev/null
// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=4 overlap-ops=false lmem-resident=false cascade=false" | FileCheck %s --check-prefix=SERIAL

// Four 1x1 convolutions in a chain, two bands of 4 rows each. Each op
// tiles to half of LMEM; odd ops' buffers are placed from the top. DRAM
// dependencies are per band: %b's first band loads only the rows %a's
// first band stored. %c's loads (constants included) wait for %a's
// stores, the op whose LMEM end it shares. %c reuses %a's scratch bytes
// (r1 at 0), so each of its stores waits for the load of %b that read
// those bytes (write after read).

// CHECK-LABEL: npuhw.stream @chain
// %a: bottom of LMEM, loads wait for nothing.
// CHECK:         npuhw.alloc : memref<4x8x1x16xi8, #npuhw.lmem<act>>
// CHECK:         npuhw.dma_load src({{.*}}#npuhw.dram<0>>) dst({{.*}}) {
// CHECK:         npuhw.dma_load src({{.*}}#npuhw.dram<2>>) dst({{.*}}) {
// CHECK:         %[[A0:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<512xi8, strided<[1]>, #npuhw.dram<1>>)
// CHECK:         %[[A1:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<512xi8, strided<[1], offset: 512>, #npuhw.dram<1>>)
// %b: top of LMEM, weights prefetched, band i after %a's band i.
// CHECK:         npuhw.alloc {from_top} : memref<4x8x1x16xi8, #npuhw.lmem<act>>
// CHECK:         npuhw.dma_load src({{.*}}#npuhw.dram<0>>) dst({{.*}}) {
// CHECK:         %[[B0L:.+]] = npuhw.dma_load src({{.*}} : memref<512xi8, strided<[1]>, #npuhw.dram<1>>) dst({{.*}}) after(%[[A0]]) {
// CHECK:         %[[B0:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<512xi8, strided<[1], offset: 1024>, #npuhw.dram<1>>)
// CHECK:         %[[B1L:.+]] = npuhw.dma_load src({{.*}} : memref<512xi8, strided<[1], offset: 512>, #npuhw.dram<1>>) dst({{.*}}) after(%[[A1]]) {
// CHECK:         %[[B1:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<512xi8, strided<[1], offset: 1536>, #npuhw.dram<1>>)
// %c: bottom again, after %a's stores; its stores over %a's bytes wait
// for %b's loads of them.
// CHECK:         npuhw.alloc : memref<4x8x1x16xi8, #npuhw.lmem<act>>
// CHECK:         npuhw.dma_load src({{.*}}#npuhw.dram<0>>) dst({{.*}}) after(%[[A0]], %[[A1]]) {
// CHECK:         npuhw.dma_load src({{.*}} : memref<512xi8, strided<[1], offset: 1024>, #npuhw.dram<1>>) dst({{.*}}) after(%[[A0]], %[[A1]], %[[B0]]) {
// CHECK:         %[[C0:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<512xi8, strided<[1]>, #npuhw.dram<1>>) after(%{{.+}}, %[[B0L]])
// CHECK:         %[[C1:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<512xi8, strided<[1], offset: 512>, #npuhw.dram<1>>) after(%{{.+}}, %[[B1L]])
// %d: top, after %b's stores.
// CHECK:         npuhw.alloc {from_top}
// CHECK:         npuhw.dma_load src({{.*}}#npuhw.dram<0>>) dst({{.*}}) after(%[[B0]], %[[B1]]) {
// CHECK:         npuhw.dma_load src({{.*}} : memref<512xi8, strided<[1]>, #npuhw.dram<1>>) dst({{.*}}) after(%[[B0]], %[[B1]], %[[C0]]) {
// CHECK:         npuhw.end

// Without overlap, every op's loads wait for all stores of the op before.
// SERIAL-LABEL: npuhw.stream @chain
// SERIAL-NOT:    from_top
// SERIAL:        %[[A0:.+]] = npuhw.dma_store
// SERIAL:        %[[A1:.+]] = npuhw.dma_store
// SERIAL:        npuhw.dma_load src({{.*}}#npuhw.dram<0>>) dst({{.*}}) after(%[[A0]], %[[A1]]) {
module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 8 : i64}>} {
  func.func @chain(%x: tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x16x16xi8>
    %w = quant.scast %wi : tensor<1x1x16x16xi8> to tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    %b = npu.conv2d %a, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    %c = npu.conv2d %b, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    %d = npu.conv2d %c, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    return %d : tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// An op whose double-buffered tile does not fit half of ACT (two input and
// two output buffers of one 64x16 row: 4 KiB, ACT 6 KiB) takes what the op
// before it leaves (%a: all of it, from the bottom). %b then has 2 KiB
// left, where it does not fit either, so it takes the whole regions and
// runs after %a: all its loads wait for all eight of %a's stores, and
// nothing is placed from the top.

// CHECK-LABEL: npuhw.stream @wide
// CHECK-NOT:     from_top
// CHECK:         %[[S0:.+]] = npuhw.dma_store
// CHECK:         %[[S7:.+]] = npuhw.dma_store {{.*}} dst({{.*}} : memref<1024xi8, strided<[1], offset: 7168>, #npuhw.dram<1>>)
// CHECK-NOT:     from_top
// CHECK:         npuhw.dma_load src({{.*}}#npuhw.dram<0>>) dst({{.*}}) after(%[[S0]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[S7]]) {
// CHECK-NOT:     from_top
// CHECK:         npuhw.end
module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 6 : i64}>} {
  func.func @wide(%x: tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x16x16xi8>
    %w = quant.scast %wi : tensor<1x1x16x16xi8> to tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>
    %b = npu.conv2d %a, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>
    return %b : tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>
  }
}
