// RUN: kiln-opt %s -npu-record-costs --mlir-print-debuginfo | FileCheck %s

// npu-record-costs keeps each npu op's cost in the module's npu.layer_costs,
// per function, under the location the lowering gives the op's commands (a
// NameLoc of the op name around the op's location); functions without npu
// ops get no entry. The figures are npu-report-cost's (npu-report-cost.mlir
// derives the conv's).

// CHECK-DAG: #[[C1:loc[0-9]*]] = loc("model/conv1")
// CHECK-DAG: #[[R1:loc[0-9]*]] = loc("model/relu_a")
// CHECK-DAG: #[[R2:loc[0-9]*]] = loc("model/relu_b")
// CHECK-DAG: #[[CONV:loc[0-9]*]] = loc("npu.conv2d"(#[[C1]]))
// CHECK-DAG: #[[FIRST:loc[0-9]*]] = loc("npu.clamp"(#[[R1]]))
// CHECK-DAG: #[[SECOND:loc[0-9]*]] = loc("npu.clamp"(#[[R2]]))
// CHECK: module attributes {npu.layer_costs = {conv = [{dram = 2752 : i64, estimate = 23120 : i64, loc = #[[CONV]], mac = 18432 : i64, macs = 4718592 : i64, vec = 1024 : i64}], pair = [{dram = 4 : i64, estimate = 449 : i64, loc = #[[FIRST]], mac = 0 : i64, macs = 0 : i64, vec = 1 : i64}, {dram = 4 : i64, estimate = 449 : i64, loc = #[[SECOND]], mac = 0 : i64, macs = 0 : i64, vec = 1 : i64}]}} {


func.func @conv(%x: tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5:-3>>,
                %w: tensor<3x3x32x64x!quant.uniform<i8:f32, 0.01>>,
                %b: tensor<64xi32>) -> tensor<1x16x16x64x!quant.uniform<i8:f32, 0.25:-3>> {
  %0 = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
    : (tensor<1x16x16x32x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x3x32x64x!quant.uniform<i8:f32, 0.01>>, tensor<64xi32>)
    -> tensor<1x16x16x64x!quant.uniform<i8:f32, 0.25:-3>> loc("model/conv1")
  return %0 : tensor<1x16x16x64x!quant.uniform<i8:f32, 0.25:-3>>
}

func.func @pair(%x: tensor<16xf16>) -> tensor<16xf16> {
  %0 = npu.clamp %x {min = 0.0 : f32, max = 6.0 : f32} : (tensor<16xf16>) -> tensor<16xf16> loc("model/relu_a")
  %1 = npu.clamp %0 {min = 0.0 : f32, max = 6.0 : f32} : (tensor<16xf16>) -> tensor<16xf16> loc("model/relu_b")
  return %1 : tensor<16xf16>
}

func.func @cpu(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
