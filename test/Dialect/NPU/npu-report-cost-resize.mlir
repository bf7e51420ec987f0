// RUN: kiln-opt %s -npu-report-cost -verify-diagnostics -o /dev/null

// The estimate is the busiest engine's steady state plus one DRAM latency
// for the first load and one for the last store (200 cycles each on the
// default target, 500 on the realistic one).

// Nearest up-sampling is DMA only: (25600 + 102400) bytes / 16.
func.func @nearest(%x: tensor<1x10x10x128xf16>) -> tensor<1x20x20x128xf16> {
  // expected-remark @+1 {{npu.resize_nearest: 0 MACs; cycles MAC 0, VEC 0, DRAM 8000; lower bound 8000 (DRAM); estimate 8400 cycles}}
  %0 = npu.resize_nearest %x {scale = array<i64: 2, 2>} : (tensor<1x10x10x128xf16>) -> tensor<1x20x20x128xf16>
  return %0 : tensor<1x20x20x128xf16>
}

// Bilinear, int8, default target: 4 MACs per output element, 32x32x32 * 4
// = 131072, at the depthwise peak of 32 per cycle; VEC 32768 / 16; DRAM
// 8192 + 32768 bytes of tensors, 512 of weights (4 phases x 2 blocks x 64)
// and a 16-byte record: 41488 / 16.
func.func @bilinear_int8(%x: tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x32x32x32x!quant.uniform<i8:f32, 0.5:-3>> {
  // expected-remark @+1 {{npu.resize_bilinear: 131072 MACs; cycles MAC 4096, VEC 2048, DRAM 2593; lower bound 4096 (MAC); estimate 4496 cycles}}
  %0 = npu.resize_bilinear %x : (tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5:-3>>) -> tensor<1x32x32x32x!quant.uniform<i8:f32, 0.5:-3>>
  return %0 : tensor<1x32x32x32x!quant.uniform<i8:f32, 0.5:-3>>
}

// fp16 on the realistic target (4 DRAM bytes per cycle) is DRAM bound:
// (65536 + 262144 + 4096 bytes of f16 weights) / 4; MAC at half rate.
module attributes {npu.target = #npu.target<"realistic">} {
  func.func @bilinear_f16(%x: tensor<1x16x16x128xf16>) -> tensor<1x32x32x128xf16> {
    // expected-remark @+1 {{npu.resize_bilinear: 524288 MACs; cycles MAC 32768, VEC 8192, DRAM 82944; lower bound 82944 (DRAM); estimate 83944 cycles}}
    %0 = npu.resize_bilinear %x : (tensor<1x16x16x128xf16>) -> tensor<1x32x32x128xf16>
    return %0 : tensor<1x32x32x128xf16>
  }
}
