// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --mlir-print-op-generic | kiln-opt | FileCheck %s

// CHECK-LABEL: func.func @resize_nearest_f16
// CHECK: npu.resize_nearest %{{.+}} {scale = array<i64: 2, 3>} : (tensor<2x10x10x24xf16>) -> tensor<2x20x30x24xf16>
func.func @resize_nearest_f16(%x: tensor<2x10x10x24xf16>) -> tensor<2x20x30x24xf16> {
  %0 = npu.resize_nearest %x {scale = array<i64: 2, 3>} : (tensor<2x10x10x24xf16>) -> tensor<2x20x30x24xf16>
  return %0 : tensor<2x20x30x24xf16>
}

// CHECK-LABEL: func.func @resize_bilinear_int8
// CHECK: npu.resize_bilinear %{{.+}} : (tensor<1x6x6x20x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<1x12x12x20x!quant.uniform<i8:f32, 2.500000e-01:7>>
func.func @resize_bilinear_int8(%x: tensor<1x6x6x20x!quant.uniform<i8:f32, 0.5:-3>>)
    -> tensor<1x12x12x20x!quant.uniform<i8:f32, 0.25:7>> {
  %0 = npu.resize_bilinear %x : (tensor<1x6x6x20x!quant.uniform<i8:f32, 0.5:-3>>)
    -> tensor<1x12x12x20x!quant.uniform<i8:f32, 0.25:7>>
  return %0 : tensor<1x12x12x20x!quant.uniform<i8:f32, 0.25:7>>
}
