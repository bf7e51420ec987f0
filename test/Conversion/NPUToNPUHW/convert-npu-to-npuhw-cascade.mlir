// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=2 lmem-resident=false" | FileCheck %s
// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw="max-rows-per-band=2 lmem-resident=false cascade=false" | FileCheck %s --check-prefix=OFF
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline="max-rows-per-band=2 lmem-resident=false" -o /dev/null
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline -o /dev/null

// Cascading: a 1x1 conv -> 3x3 depthwise pair at 8x8x16 in bands of 2
// rows (lmem-resident=false, so that the 1 KiB intermediate is not kept
// whole). The intermediate lives in a ring of 7 rows of 128 bytes in ACT
// (R + the depthwise band's 4 input rows + 1): no scratch region. Band
// stores become copies into slots row mod 7; the last band (rows 6-7)
// wraps, so it is two copies (row 6 into bytes [768, 896), row 7 into
// [0, 128)). The depthwise loads its bands with their halo rows from the
// ring (rows 5-7 wrap too: two loads), and its commands are interleaved
// with the conv's: its first MAC comes before the conv's last one.

// CHECK-LABEL: npuhw.stream @pair
// CHECK-NOT:     npuhw.region 1
// CHECK:         %[[RING:.+]] = npuhw.alloc : memref<896xi8, #npuhw.lmem<act>>
// CHECK-NOT:     #npuhw.dram<1>
// CHECK:         npuhw.mac_conv
// CHECK:         memref.subview %[[RING]][0] [256] [1]
// CHECK:         npuhw.mac_dwconv
// CHECK:         npuhw.mac_conv
// CHECK:         %[[W6:.+]] = memref.subview %[[RING]][768] [128] [1]
// CHECK-NEXT:    %[[S6:.+]] = memref.subview %{{.+}}[0, 0, 0, 0] [1, 8, 1, 16]
// CHECK-NEXT:    %[[W7:.+]] = memref.subview %[[RING]][0] [128] [1]
// CHECK:         npuhw.dma_load src(%[[S6]] : memref<1x8x1x16xi8{{.*}}) dst(%[[W6]] : {{.*}}) {{.*}}n1 = 1
// CHECK-NEXT:    npuhw.dma_load {{.*}} dst(%[[W7]]
// CHECK:         %[[R5:.+]] = memref.subview %[[RING]][640] [256] [1]
// CHECK:         npuhw.dma_load src(%[[R5]] {{.*}}n1 = 2
// CHECK:         %[[R7:.+]] = memref.subview %[[RING]][0] [128] [1]
// CHECK:         npuhw.dma_load src(%[[R7]]
// CHECK:         npuhw.mac_dwconv
// CHECK-NOT:     #npuhw.dram<1>
// CHECK:         npuhw.end

// Without cascading the intermediate goes through scratch (r1).
// OFF-LABEL:     npuhw.stream @pair
// OFF:           npuhw.region 1 scratch size 1024
// OFF-NOT:       memref<896xi8, #npuhw.lmem<act>>
// OFF:           npuhw.dma_store {{.*}}#npuhw.dram<1>>
// OFF:           npuhw.dma_load src({{.*}}#npuhw.dram<1>>)

module attributes {npu.target = #npu.target<"default">} {
  func.func @pair(%x: tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x16x16xi8>
    %w = quant.scast %wi : tensor<1x1x16x16xi8> to tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>
    %di = arith.constant dense<2> : tensor<3x3x16xi8>
    %d = quant.scast %di : tensor<3x3x16xi8> to tensor<3x3x16x!quant.uniform<i8:f32, 0.0625>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    %b = npu.depthwise_conv2d %a, %d {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x16x!quant.uniform<i8:f32, 0.0625>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    return %b : tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// A tensor too large to stay resident (8 KiB; half of the 12 KiB ACT is
// 6 KiB) cascades with the default options too (the last RUN line). Bands
// of 2 rows would not fit beside a ring of 7 rows, so the group takes
// bands of 1 row and a ring of 5 rows of 512 bytes.

// CHECK-LABEL: npuhw.stream @large
// CHECK-NOT:     npuhw.region 1
// CHECK:         npuhw.alloc : memref<2560xi8, #npuhw.lmem<act>>
// CHECK-NOT:     #npuhw.dram<1>
// CHECK:         npuhw.end
// OFF-LABEL:     npuhw.stream @large
// OFF:           npuhw.region 1 scratch size 8192

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 12 : i64}>} {
  func.func @large(%x: tensor<1x16x16x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x16x32xi8>
    %w = quant.scast %wi : tensor<1x1x16x32xi8> to tensor<1x1x16x32x!quant.uniform<i8:f32, 0.125>>
    %di = arith.constant dense<2> : tensor<3x3x32xi8>
    %d = quant.scast %di : tensor<3x3x32xi8> to tensor<3x3x32x!quant.uniform<i8:f32, 0.0625>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x16x16x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x32x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5>>
    %b = npu.depthwise_conv2d %a, %d {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x32x!quant.uniform<i8:f32, 0.0625>>) -> tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5>>
    return %b : tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Three ops, two cascaded tensors: one group, two rings (the second of 5
// rows: R + the 1x1 conv's 2 input rows + 1), no scratch; the last conv's
// MACs interleave with the depthwise's.

// CHECK-LABEL: npuhw.stream @three
// CHECK-NOT:     npuhw.region 1
// CHECK-DAG:     npuhw.alloc : memref<896xi8, #npuhw.lmem<act>>
// CHECK-DAG:     npuhw.alloc : memref<640xi8, #npuhw.lmem<act>>
// CHECK-NOT:     #npuhw.dram<1>
// CHECK:         npuhw.mac_dwconv
// CHECK:         npuhw.mac_conv
// CHECK:         npuhw.mac_dwconv
// CHECK:         npuhw.dma_store {{.*}}#npuhw.dram<3>>
// CHECK:         npuhw.end
// OFF-LABEL:     npuhw.stream @three
// OFF:           npuhw.region 1 scratch size 2048

module attributes {npu.target = #npu.target<"default">} {
  func.func @three(%x: tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>> {
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

// An intermediate read by an element-wise op is not cascaded (only
// convolutions interleave their bands): it stays in scratch.

// CHECK-LABEL: npuhw.stream @eltwise
// CHECK:         npuhw.region 1 scratch size 1024
// CHECK-NOT:     npuhw.alloc : memref<{{[0-9]+}}xi8, #npuhw.lmem<act>>
// CHECK:         npuhw.end

module attributes {npu.target = #npu.target<"default">} {
  func.func @eltwise(%x: tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x16x16xi8>
    %w = quant.scast %wi : tensor<1x1x16x16xi8> to tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    %s = npu.add %a, %x : (tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
    return %s : tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Rows of 15 bytes (3 pixels x 5 channels) are not 16-byte multiples: a
// band load of the depthwise would start early for alignment, so the
// tensor is not cascaded.

// CHECK-LABEL: npuhw.stream @odd_rows
// CHECK:         npuhw.region 1 scratch size 120
// CHECK-NOT:     npuhw.alloc : memref<{{[0-9]+}}xi8, #npuhw.lmem<act>>
// CHECK:         npuhw.end

module attributes {npu.target = #npu.target<"default">} {
  func.func @odd_rows(%x: tensor<1x8x3x5x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x3x5x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x5x5xi8>
    %w = quant.scast %wi : tensor<1x1x5x5xi8> to tensor<1x1x5x5x!quant.uniform<i8:f32, 0.125>>
    %di = arith.constant dense<2> : tensor<3x3x5xi8>
    %d = quant.scast %di : tensor<3x3x5xi8> to tensor<3x3x5x!quant.uniform<i8:f32, 0.0625>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x3x5x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x5x5x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x8x3x5x!quant.uniform<i8:f32, 0.5>>
    %b = npu.depthwise_conv2d %a, %d {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x3x5x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x5x!quant.uniform<i8:f32, 0.0625>>) -> tensor<1x8x3x5x!quant.uniform<i8:f32, 0.5>>
    return %b : tensor<1x8x3x5x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// A pair that is MAC-bound either way (a 3x3 conv 16x16x64->64, 36864 MAC
// cycles, against 2 KiB of DRAM traffic per band pair at 16 bytes/cycle)
// gains nothing from a ring: its interleaved time is not below the ops'
// times one after the other, so the intermediate stays in scratch.

// CHECK-LABEL: npuhw.stream @mac_bound
// CHECK:         npuhw.region 1 scratch size 16384
// CHECK-NOT:     npuhw.alloc : memref<{{[0-9]+}}xi8, #npuhw.lmem<act>>
// CHECK:         npuhw.end

module attributes {npu.target = #npu.target<"default">} {
  func.func @mac_bound(%x: tensor<1x16x16x64x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x16x16x64x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<3x3x64x64xi8>
    %w = quant.scast %wi : tensor<3x3x64x64xi8> to tensor<3x3x64x64x!quant.uniform<i8:f32, 0.125>>
    %di = arith.constant dense<2> : tensor<3x3x64xi8>
    %d = quant.scast %di : tensor<3x3x64xi8> to tensor<3x3x64x!quant.uniform<i8:f32, 0.0625>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x16x16x64x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x64x64x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x16x16x64x!quant.uniform<i8:f32, 0.5>>
    %b = npu.depthwise_conv2d %a, %d {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x16x16x64x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x64x!quant.uniform<i8:f32, 0.0625>>) -> tensor<1x16x16x64x!quant.uniform<i8:f32, 0.5>>
    return %b : tensor<1x16x16x64x!quant.uniform<i8:f32, 0.5>>
  }
}
