// The chain of convert-npu-to-npuhw-resident.mlir through .npub on the
// simulator with the race checker: its two intermediates stay in LMEM (no
// scratch region is declared), and the result equals the one with every
// intermediate through DRAM (lmem-resident=false).

// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline="max-rows-per-band=4" | kiln-translate --npuhw-to-npub -o %t/resident.npub
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline="max-rows-per-band=4 lmem-resident=false cascade=false" | kiln-translate --npuhw-to-npub -o %t/dram.npub
// RUN: %python -c "import sys; sys.stdout.buffer.write(bytes((i * 37 + 11) % 256 for i in range(1024)))" > %t/x.bin
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/resident.npub --input=arg0=%t/x.bin --output=result0=%t/resident.bin --race_check | FileCheck %s --check-prefix=SIM
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/dram.npub --input=arg0=%t/x.bin --output=result0=%t/dram.bin --race_check | FileCheck %s --check-prefix=SIM
// RUN: cmp %t/resident.bin %t/dram.bin
// RUN: kiln-translate --npub-to-npuhw %t/resident.npub | FileCheck %s --check-prefix=REGIONS

// SIM: MAC utilisation
// REGIONS-NOT: scratch
// REGIONS: npuhw.region 2 input
// REGIONS-NOT: scratch
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
