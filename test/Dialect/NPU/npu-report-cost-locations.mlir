// RUN: kiln-opt %s -npu-report-cost="table=csv" -o /dev/null 2>/dev/null | FileCheck %s

// The table's location column is the file location inside names, call
// sites and fusions; a field with a comma is quoted, and an op without a
// file location shows its printed location.

// CHECK: op,location,macs,mac_cycles,vec_cycles,dram_cycles,bound,lower_bound,estimate
// CHECK-NEXT: npu.clamp,model.mlir:3:7,0,0,1,4,DRAM,4,449
// CHECK-NEXT: npu.clamp,"dir,with,commas/model.mlir:5:9",0,0,1,4,DRAM,4,449
// CHECK-NEXT: npu.clamp,callee.mlir:1:2,0,0,1,4,DRAM,4,449
// CHECK-NEXT: npu.clamp,fused.mlir:8:1,0,0,1,4,DRAM,4,449
// CHECK-NEXT: npu.clamp,loc(unknown),0,0,1,4,DRAM,4,449
// CHECK-NEXT: total,,0,0,5,20,,20,2245
func.func @locations(%x: tensor<16xf16>) -> tensor<16xf16> {
  %0 = npu.clamp %x {min = 0.0 : f32, max = 1.0 : f32} : (tensor<16xf16>) -> tensor<16xf16> loc("conv1"("model.mlir":3:7))
  %1 = npu.clamp %0 {min = 0.0 : f32, max = 1.0 : f32} : (tensor<16xf16>) -> tensor<16xf16> loc("dir,with,commas/model.mlir":5:9)
  %2 = npu.clamp %1 {min = 0.0 : f32, max = 1.0 : f32} : (tensor<16xf16>) -> tensor<16xf16> loc(callsite("callee.mlir":1:2 at "caller.mlir":9:9))
  %3 = npu.clamp %2 {min = 0.0 : f32, max = 1.0 : f32} : (tensor<16xf16>) -> tensor<16xf16> loc(fused["fused.mlir":8:1, "other.mlir":2:2])
  %4 = npu.clamp %3 {min = 0.0 : f32, max = 1.0 : f32} : (tensor<16xf16>) -> tensor<16xf16> loc(unknown)
  return %4 : tensor<16xf16>
}
