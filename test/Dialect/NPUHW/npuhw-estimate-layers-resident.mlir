// The lower bound of layers whose intermediate stays in LMEM
// (convert-npu-to-npuhw's lmem-resident): npu-record-costs charges every
// tensor a DRAM round trip, but the lowering moves the conv's 65536-byte
// result to the depthwise convolution within ACT, so npuhw-estimate-layers
// takes its store out of the conv's `dram` term and its load out of the
// depthwise's, 65536 / 4 = 16384 cycles each in the realistic
// configuration (the LMEM-to-LMEM copy on DMA_IN uses no DRAM port).
// With lmem-resident=false the recorded terms stay as they were. On the
// simulator no layer then runs faster than its lower bound (measured >=
// lower bound for each layer and for the whole stream); with the DRAM round
// trip charged, both layers measured below it.

// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s --npu-record-costs | FileCheck %s --check-prefix=ALONE
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline | FileCheck %s --check-prefix=RESIDENT
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline="lmem-resident=false cascade=false" | FileCheck %s --check-prefix=DRAM
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline --mlir-print-debuginfo | kiln-translate --npuhw-to-npub -o %t/m.npub
// RUN: %python -c "import sys; sys.stdout.buffer.write(bytes((i * 37 + 11) & 255 for i in range(65536)))" > %t/x.bin
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/m.npub --input=arg0=%t/x.bin --stats=false --layer_report=csv > %t/report.csv
// RUN: %python %S/Inputs/check-measured-bound.py %t/report.csv | FileCheck %s --check-prefix=SIM

// ALONE: npu.layer_costs = {chain = [{dram = 32896 : i64, {{.*}}}, {dram = 32868 : i64, {{.*}}}]}

// RESIDENT-NOT: npu.resident_tensors
// RESIDENT: npu.layer_costs = {chain = [{dram = 16512 : i64, {{.*}}}, {dram = 16484 : i64, {{.*}}}]}
// RESIDENT-NOT: npu.resident_tensors

// DRAM: npu.layer_costs = {chain = [{dram = 32896 : i64, {{.*}}}, {dram = 32868 : i64, {{.*}}}]}

// SIM: conv: measured >= lower bound
// SIM: dw: measured >= lower bound
// SIM: total: measured >= lower bound

module attributes {npu.target = #npu.target<"realistic">} {
  func.func @chain(%x: tensor<1x64x64x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x64x64x16x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x16x16xi8>
    %w = quant.scast %wi : tensor<1x1x16x16xi8> to tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>
    %di = arith.constant dense<2> : tensor<3x3x16xi8>
    %d = quant.scast %di : tensor<3x3x16xi8> to tensor<3x3x16x!quant.uniform<i8:f32, 0.0625>>
    %a = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x64x64x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.125>>) -> tensor<1x64x64x16x!quant.uniform<i8:f32, 0.5>> loc("conv")
    %b = npu.depthwise_conv2d %a, %d {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x64x64x16x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x16x!quant.uniform<i8:f32, 0.0625>>) -> tensor<1x64x64x16x!quant.uniform<i8:f32, 0.5>> loc("dw")
    return %b : tensor<1x64x64x16x!quant.uniform<i8:f32, 0.5>>
  }
}
