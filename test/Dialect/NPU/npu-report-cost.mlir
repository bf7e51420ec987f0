// RUN: kiln-opt %s -npu-report-cost -verify-diagnostics -o /dev/null
// RUN: kiln-opt %s -npu-report-cost=table=markdown -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=MD
// RUN: kiln-opt %s -npu-report-cost="table=csv table-file=%t" -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=CSV < %t

// Default target: 3x3 int8 convolution, 32 -> 64 channels on 16x16.
// MAC: 4718592 useful MACs / 256 = 18432 cycles. VEC: one VEC_REQUANT
// pass, 16384 elements / 16 lanes. DRAM: 8192 + 18432 + 16384 bytes of
// tensors, 1024 bytes of channel records instead of the 256-byte bias:
// 44032 / 16. The estimate replays one band (the layer fits ACT): records
// 16 + 64 + 200 = 280, weights 16 + 1152 + 200 (to 1648), the input load
// 16 + 512 + 200 (to 2376), MAC_CONV 8 + 32 + 9 * 2 * 4 * 256 = 18472 (to
// 20848), VEC_REQUANT 8 + 1024 (to 21880), the store 16 + 1024 + 200:
// 23120.
func.func @conv_int8(%x: tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5:-3>>,
                     %w: tensor<3x3x32x64x!quant.uniform<i8:f32, 0.01>>,
                     %b: tensor<64xi32>) -> tensor<1x16x16x64x!quant.uniform<i8:f32, 0.25:-3>> {
  // expected-remark @+1 {{npu.conv2d: 4718592 MACs; cycles MAC 18432, VEC 1024, DRAM 2752; lower bound 18432 (MAC); estimate 23120 cycles}}
  %0 = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
    : (tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x3x32x64x!quant.uniform<i8:f32, 0.01>>, tensor<64xi32>)
    -> tensor<1x16x16x64x!quant.uniform<i8:f32, 0.25:-3>>
  return %0 : tensor<1x16x16x64x!quant.uniform<i8:f32, 0.25:-3>>
}

// Realistic target (4 DRAM bytes per cycle): an fp16 add is DRAM bound,
// (3 * 32768 + 64-byte parameter block) / 4.
module attributes {npu.target = #npu.target<"realistic">} {
  func.func @add_dram_bound(%x: tensor<1x32x32x16xf16>, %y: tensor<1x32x32x16xf16>) -> tensor<1x32x32x16xf16> {
    // expected-remark @+1 {{npu.add: 0 MACs; cycles MAC 0, VEC 1024, DRAM 24592; lower bound 24592 (DRAM); estimate 27688 cycles}}
    %0 = npu.add %x, %y : (tensor<1x32x32x16xf16>, tensor<1x32x32x16xf16>) -> tensor<1x32x32x16xf16>
    return %0 : tensor<1x32x32x16xf16>
  }
}

// A 32x16 MAC array: depthwise at 32 * 16 / 8 = 64 MACs per cycle, fp16 at
// half rate: 2 * 73728 / 64.
module attributes {npu.target = #npu.target<"default", {"mac.rows" = 32 : i64}>} {
  func.func @depthwise_f16(%x: tensor<1x16x16x32xf16>, %w: tensor<3x3x32xf16>) -> tensor<1x16x16x32xf16> {
    // expected-remark @+1 {{npu.depthwise_conv2d: 73728 MACs; cycles MAC 2304, VEC 512, DRAM 2084; lower bound 2304 (MAC); estimate 5596 cycles}}
    %0 = npu.depthwise_conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x16x16x32xf16>, tensor<3x3x32xf16>) -> tensor<1x16x16x32xf16>
    return %0 : tensor<1x16x16x32xf16>
  }
}

// Pooling: each output element costs its 2x2 window on VEC.
func.func @max_pool(%x: tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x32x!quant.uniform<i8:f32, 0.5>> {
  // expected-remark @+1 {{npu.max_pool2d: 0 MACs; cycles MAC 0, VEC 512, DRAM 640; lower bound 640 (DRAM); estimate 1592 cycles}}
  %0 = npu.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x32x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x8x8x32x!quant.uniform<i8:f32, 0.5>>
}

// MD: | op | location | MACs | MAC cycles | VEC cycles | DRAM cycles | bound | lower bound | estimate |
// MD-NEXT: |---|---|---:|---:|---:|---:|---|---:|---:|
// MD-NEXT: | npu.conv2d | {{.*}}npu-report-cost.mlir:{{[0-9]+}}:8 | 4718592 | 18432 | 1024 | 2752 | MAC | 18432 | 23120 |
// MD-NEXT: | npu.add | {{.*}}npu-report-cost.mlir:{{[0-9]+}}:10 | 0 | 0 | 1024 | 24592 | DRAM | 24592 | 27688 |
// MD-NEXT: | npu.depthwise_conv2d | {{.*}}npu-report-cost.mlir:{{[0-9]+}}:10 | 73728 | 2304 | 512 | 2084 | MAC | 2304 | 5596 |
// MD-NEXT: | npu.max_pool2d | {{.*}}npu-report-cost.mlir:{{[0-9]+}}:8 | 0 | 0 | 512 | 640 | DRAM | 640 | 1592 |
// MD-NEXT: | total |  | 4792320 | 20736 | 3072 | 30068 |  | 45968 | 57996 |

// CSV: op,location,macs,mac_cycles,vec_cycles,dram_cycles,bound,lower_bound,estimate
// CSV-NEXT: npu.conv2d,{{.*}}npu-report-cost.mlir:{{[0-9]+}}:8,4718592,18432,1024,2752,MAC,18432,23120
// CSV-NEXT: npu.add,{{.*}}npu-report-cost.mlir:{{[0-9]+}}:10,0,0,1024,24592,DRAM,24592,27688
// CSV-NEXT: npu.depthwise_conv2d,{{.*}}npu-report-cost.mlir:{{[0-9]+}}:10,73728,2304,512,2084,MAC,2304,5596
// CSV-NEXT: npu.max_pool2d,{{.*}}npu-report-cost.mlir:{{[0-9]+}}:8,0,0,512,640,DRAM,640,1592
// CSV-NEXT: total,,4792320,20736,3072,30068,,45968,57996
