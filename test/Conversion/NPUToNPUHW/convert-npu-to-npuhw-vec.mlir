// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw | FileCheck %s
// The full pipeline gives streams the runtime's verifier accepts:
// RUN: kiln-opt %s -split-input-file -kiln-npu-to-npuhw-pipeline -o /dev/null

// CHANNEL broadcast on a 1 KiB ACT: the 24 channels take two blocks per
// position (runs of 24 bytes into 32-byte slots); rhs loads once into a
// 1x1x2 vector (32 bytes of ACT), which leaves (1024 - 32) / (2 x (32 + 32))
// = 7 positions per band: 40 positions in 5 bands of 7 and one of 5, with
// two input and two output buffers used alternately. The parameter block
// holds TFLite's add parameters: zero points 1, -2, 3, left shift 20,
// multipliers 2^30 with shifts 0 and -1 (0.5 and 0.25 of twice the larger
// scale), the output's 2^30 * 2^-18, clamp [-100, 127].

// CHECK-LABEL: npuhw.stream @add_channel
// CHECK-NEXT:    npuhw.region 0 const size 64
// CHECK-NEXT:    npuhw.region 2 input size 992
// CHECK-NEXT:    npuhw.region 3 output size 960
// CHECK-NEXT:    npuhw.const dense<[1, 0, 0, 0, -2, -1, -1, -1, 3, 0, 0, 0, 20, 0, 0, 0, 0, 0, 0, 64, 0, 0, 0, 0, 0, 0, 0, 64, -1, -1, -1, -1, 0, 0, 0, 64, -18, -1, -1, -1, -100, -1, -1, -1, 127, 0, 0, 0, 0,
// CHECK-NEXT:    npuhw.io input "arg0" region 2 offset 0 i8 [2, 20, 24] nhwc scale 5.000000e-01 zp 1
// CHECK-NEXT:    npuhw.io input "arg1" region 2 offset 960 i8 [24] nhwc scale 2.500000e-01 zp -2
// CHECK-NEXT:    npuhw.io output "result0" region 3 offset 0 i8 [2, 20, 24] nhwc scale 5.000000e-01 zp 3
// CHECK:         %[[P:.+]] = npuhw.dma_load {{.*}} dst(%[[PB:.+]] : memref<64xi8, #npuhw.lmem<param>>) {dst_run = 64
// CHECK:         %[[V:.+]] = npuhw.dma_load src({{.*}} : memref<24xi8, strided<[1], offset: 960>, #npuhw.dram<2>>) dst(%[[VB:.+]] : memref<1x1x2x16xi8, #npuhw.lmem<act>>) {dst_run = 32, dst_s0 = 32, n0 = 1, n1 = 1, n2 = 1, src_run = 24, src_s0 = 24}
// CHECK:         %[[L0:.+]] = npuhw.dma_load src({{.*}} : memref<168xi8, strided<[1]>, #npuhw.dram<2>>) dst(%[[IN0:.+]] : memref<1x7x2x16xi8, #npuhw.lmem<act>>) {dst_run = 32, dst_s0 = 32, n0 = 7, n1 = 1, n2 = 1, src_run = 24, src_s0 = 24}
// CHECK-NEXT:    %[[E0:.+]] = npuhw.vec_eltwise add channel in(%[[IN0]] : {{.*}}) in2(%[[VB]] : {{.*}}) params(%[[PB]] : {{.*}}) out(%[[OUT0:.+]] : memref<1x7x2x16xi8, #npuhw.lmem<act>>) after(%[[L0]], %[[P]], %[[V]])
// CHECK:         %[[S0:.+]] = npuhw.dma_store src(%[[OUT0]] : {{.*}}) dst({{.*}} : memref<168xi8, strided<[1]>, #npuhw.dram<3>>) after(%[[E0]]) {dst_s0 = 24, n0 = 7, n1 = 1, n2 = 1, src_run = 24, src_s0 = 32}
// CHECK:         %[[L1:.+]] = npuhw.dma_load src({{.*}} offset: 168>, #npuhw.dram<2>>) dst(%[[IN1:.+]] : memref<1x7x2x16xi8, #npuhw.lmem<act>>)
// CHECK:         %[[E1:.+]] = npuhw.vec_eltwise add channel in(%[[IN1]] : {{.*}} out(%[[OUT1:.+]] : memref<1x7x2x16xi8, #npuhw.lmem<act>>) after(%[[L1]], %[[P]], %[[V]])
// Band 2 reuses band 0's buffers: its load waits for the VEC that read
// them, its VEC for the store that read the output buffer.
// CHECK:         %[[L2:.+]] = npuhw.dma_load src({{.*}} offset: 336>, #npuhw.dram<2>>) dst(%[[IN0]] : {{.*}}) after(%[[E0]])
// CHECK-NEXT:    npuhw.vec_eltwise add channel in(%[[IN0]] : {{.*}} out(%[[OUT0]] : {{.*}} after(%[[L2]], %[[S0]], %[[P]], %[[V]])
// The last band: 5 positions, subviews of the buffers.
// CHECK:         npuhw.dma_load src({{.*}} : memref<120xi8, strided<[1], offset: 840>, #npuhw.dram<2>>) dst({{.*}} : memref<1x5x2x16xi8, strided<[224, 32, 16, 1]>, #npuhw.lmem<act>>)
// CHECK:         npuhw.dma_store {{.*}} dst({{.*}} : memref<120xi8, strided<[1], offset: 840>, #npuhw.dram<3>>)
// CHECK-NEXT:    npuhw.end after(%[[S0]], {{.*}}, {{.*}}, {{.*}}, {{.*}}, {{.*}})
module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 1 : i64}>} {
  func.func @add_channel(%a: tensor<2x20x24x!quant.uniform<i8:f32, 0.5:1>>, %b: tensor<24x!quant.uniform<i8:f32, 0.25:-2>>) -> tensor<2x20x24x!quant.uniform<i8:f32, 0.5:3>> {
    %0 = npu.add %a, %b {clamp_min = -100 : i64} : (tensor<2x20x24x!quant.uniform<i8:f32, 0.5:1>>, tensor<24x!quant.uniform<i8:f32, 0.25:-2>>) -> tensor<2x20x24x!quant.uniform<i8:f32, 0.5:3>>
    return %0 : tensor<2x20x24x!quant.uniform<i8:f32, 0.5:3>>
  }
}

// -----

// TENSOR and SCALAR broadcasts view the tensor flat, 16 elements per
// position whatever its shape: 15 fp16 values load as one 30-byte run into
// a 32-byte vector. A constant scalar is word 12 of the parameter block
// (fp16 2.0 = 0x4000 in its low half); a scalar argument is copied over
// that word in PARAM after the block loads.

// CHECK-LABEL: npuhw.stream @mul_scalar_const
// CHECK:         npuhw.const dense<[{{(0, )+}}-128, -1, -1, -1, 127, 0, 0, 0, 0, 64, 0, 0,
// CHECK:         npuhw.dma_load src({{.*}} : memref<30xi8, strided<[1]>, #npuhw.dram<2>>) dst({{.*}} : memref<1x1x1x16xf16, #npuhw.lmem<act>>) {dst_run = 32, n0 = 1, n1 = 1, n2 = 1, src_run = 30}
// CHECK-NEXT:    npuhw.vec_eltwise mul scalar in({{.*}} : memref<1x1x1x16xf16, #npuhw.lmem<act>>) params(
// CHECK-LABEL: npuhw.stream @sub_scalar_arg
// CHECK:         npuhw.io input "arg1" region 2 offset 48 i8 [1, 1]
// CHECK:         %[[P:.+]] = npuhw.dma_load {{.*}} dst(%[[PB:.+]] : memref<64xi8, #npuhw.lmem<param>>)
// CHECK-NEXT:    %[[W:.+]] = memref.subview %[[PB]][48] [1] [1]
// CHECK-NEXT:    npuhw.view : memref<1xi8, strided<[1], offset: 48>, #npuhw.dram<2>>
// CHECK-NEXT:    %[[S:.+]] = npuhw.dma_load src({{.*}}) dst(%[[W]] : {{.*}}) after(%[[P]]) {dst_run = 1, n0 = 1, n1 = 1, n2 = 1, src_run = 1}
// CHECK:         npuhw.vec_eltwise sub scalar in({{.*}} : memref<1x3x1x16xi8, #npuhw.lmem<act>>) params(%[[PB]] : {{.*}}) out({{.*}}) after({{.*}}, %[[P]], %[[S]])
// CHECK-LABEL: npuhw.stream @min_tensor
// CHECK:         %[[A:.+]] = npuhw.dma_load src({{.*}} : memref<42xi8, strided<[1]>, #npuhw.dram<2>>) dst(%[[AB:.+]] : memref<1x2x1x16xf16, #npuhw.lmem<act>>) {dst_run = 64,
// CHECK:         %[[B:.+]] = npuhw.dma_load src({{.*}} : memref<42xi8, strided<[1], offset: 48>, #npuhw.dram<2>>) dst(%[[BB:.+]] : memref<1x2x1x16xf16, #npuhw.lmem<act>>)
// CHECK-NEXT:    npuhw.vec_eltwise min tensor in(%[[AB]] : {{.*}}) in2(%[[BB]] : {{.*}}) params({{.*}}) out({{.*}}) after(%[[A]], %[[B]],
module {
  func.func @mul_scalar_const(%a: tensor<3x5xf16>) -> tensor<3x5xf16> {
    %s = arith.constant dense<2.0> : tensor<1xf16>
    %0 = npu.mul %a, %s : (tensor<3x5xf16>, tensor<1xf16>) -> tensor<3x5xf16>
    return %0 : tensor<3x5xf16>
  }
  func.func @sub_scalar_arg(%a: tensor<40x!quant.uniform<i8:f32, 0.5>>, %s: tensor<1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<40x!quant.uniform<i8:f32, 0.5>> {
    %0 = npu.sub %a, %s : (tensor<40x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<40x!quant.uniform<i8:f32, 0.5>>
    return %0 : tensor<40x!quant.uniform<i8:f32, 0.5>>
  }
  func.func @min_tensor(%a: tensor<3x7xf16>, %b: tensor<3x7xf16>) -> tensor<3x7xf16> {
    %0 = npu.minimum %a, %b : (tensor<3x7xf16>, tensor<3x7xf16>) -> tensor<3x7xf16>
    return %0 : tensor<3x7xf16>
  }
}

// -----

// VEC_UNARY: RESCALE from i32 (0.001 / 0.1 = 0.01 = 1374389535 * 2^-37,
// double rounding, clamp_min 0 leaves 'min' at its absent value 0); LUT
// with the table loaded into PARAM; an i32 CLAMP; CONVERT of a rank-0
// tensor (one element, padded to a vector; the IO shape is [1]).

// CHECK-LABEL: npuhw.stream @rescale
// CHECK:         npuhw.dma_load src({{.*}} : memref<1024xi8, strided<[1]>, #npuhw.dram<2>>) dst({{.*}} : memref<1x16x1x16xi32, #npuhw.lmem<act>>)
// CHECK-NEXT:    npuhw.vec_unary rescale in({{.*}} : memref<1x16x1x16xi32, #npuhw.lmem<act>>) out({{.*}} : memref<1x16x1x16xi8, #npuhw.lmem<act>>) after({{.*}}) {double_round, max = 127, mult = 1374389535, out_zp = -128, shift = 37}
// CHECK-LABEL: npuhw.stream @table
// CHECK:         %[[T:.+]] = npuhw.dma_load src({{.*}} : memref<256xi8, strided<[1]>, #npuhw.dram<0>>) dst(%[[TB:.+]] : memref<256xi8, #npuhw.lmem<param>>)
// CHECK:         npuhw.vec_unary lut in({{.*}}) table(%[[TB]] : {{.*}}) out({{.*}}) after({{.*}}, %[[T]])
// CHECK-LABEL: npuhw.stream @clamp_i32
// CHECK:         npuhw.vec_unary clamp in({{.*}} : memref<1x1x1x16xi32, #npuhw.lmem<act>>) out({{.*}} : memref<1x1x1x16xi32, #npuhw.lmem<act>>) after({{.*}}) {max = 1000, min = -300}
// CHECK-LABEL: npuhw.stream @convert
// CHECK:         npuhw.io input "arg0" region 2 offset 0 i8 [1] nhwc
// CHECK:         npuhw.io output "result0" region 3 offset 0 f32 [1] nhwc
// CHECK:         npuhw.vec_unary convert in({{.*}} : memref<1x1x1x16xi8, #npuhw.lmem<act>>) out({{.*}} : memref<1x1x1x16xf32, #npuhw.lmem<act>>)
// CHECK:         npuhw.dma_store {{.*}} dst({{.*}} : memref<4xi8, strided<[1]>, #npuhw.dram<3>>) after({{.*}}) {n0 = 1, n1 = 1, n2 = 1, src_run = 4}

// A value returned twice is stored once and declared twice.

// CHECK-LABEL: npuhw.stream @twice
// CHECK:         npuhw.region 3 output size 16
// CHECK:         npuhw.io output "result0" region 3 offset 0 f16 [5]
// CHECK-NEXT:    npuhw.io output "result1" region 3 offset 0 f16 [5]
// CHECK-COUNT-1: npuhw.dma_store
// CHECK-NOT:     npuhw.dma_store
module {
  func.func @rescale(%x: tensor<1x4x4x16x!quant.uniform<i32:f32, 0.001>>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.1:-128>> {
    %y = npu.rescale %x {clamp_min = 0 : i64} : (tensor<1x4x4x16x!quant.uniform<i32:f32, 0.001>>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.1:-128>>
    return %y : tensor<1x4x4x16x!quant.uniform<i8:f32, 0.1:-128>>
  }
  func.func @table(%x: tensor<5x!quant.uniform<i8:f32, 0.1>>) -> tensor<5x!quant.uniform<i8:f32, 0.1>> {
    %y = npu.table %x {table = array<i8: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127>} : (tensor<5x!quant.uniform<i8:f32, 0.1>>) -> tensor<5x!quant.uniform<i8:f32, 0.1>>
    return %y : tensor<5x!quant.uniform<i8:f32, 0.1>>
  }
  func.func @clamp_i32(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
    %y = npu.clamp %x {min = -300 : i64, max = 1000 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi32>
    return %y : tensor<2x3xi32>
  }
  func.func @convert(%x: tensor<i8>) -> tensor<f32> {
    %y = npu.convert %x : (tensor<i8>) -> tensor<f32>
    return %y : tensor<f32>
  }
  func.func @twice(%x: tensor<5xi8>) -> (tensor<5xf16>, tensor<5xf16>) {
    %y = npu.convert %x : (tensor<5xi8>) -> tensor<5xf16>
    return %y, %y : tensor<5xf16>, tensor<5xf16>
  }
}
