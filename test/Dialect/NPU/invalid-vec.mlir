// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Verifier errors of the VEC operations: element-wise, pooling, rescale,
// table, clamp, convert (the MAC operations are in invalid.mlir).

func.func @eltwise_broadcast(%x: tensor<1x4x4x8xf16>, %y: tensor<4x8xf16>) -> tensor<1x4x4x8xf16> {
  // expected-error @+1 {{rhs must have lhs's shape, be a per-channel vector of 8 or a single element (VEC_ELTWISE's TENSOR, CHANNEL and SCALAR broadcasts), got 'tensor<4x8xf16>'}}
  %0 = npu.add %x, %y : (tensor<1x4x4x8xf16>, tensor<4x8xf16>) -> tensor<1x4x4x8xf16>
  return %0 : tensor<1x4x4x8xf16>
}

// -----

func.func @eltwise_f16_clamp(%x: tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16> {
  // expected-error @+1 {{VEC_ELTWISE does not clamp fp16 results (use npu.clamp)}}
  %0 = npu.mul %x, %x {clamp_min = 0 : i64} : (tensor<1x4x4x8xf16>, tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16>
  return %0 : tensor<1x4x4x8xf16>
}

// -----

func.func @eltwise_mixed(%x: tensor<1x4x4x8xf16>, %y: tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8xf16> {
  // expected-error @+1 {{fp16 lhs needs f16 rhs and output}}
  %0 = npu.sub %x, %y : (tensor<1x4x4x8xf16>, tensor<1x4x4x8x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x8xf16>
  return %0 : tensor<1x4x4x8xf16>
}

// -----

func.func @minimum_rescales(%x: tensor<8x!quant.uniform<i8:f32, 0.5>>, %y: tensor<8x!quant.uniform<i8:f32, 0.25>>)
    -> tensor<8x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{compares stored values, so lhs, rhs and output need equal quantisation}}
  %0 = npu.minimum %x, %y : (tensor<8x!quant.uniform<i8:f32, 0.5>>, tensor<8x!quant.uniform<i8:f32, 0.25>>)
    -> tensor<8x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<8x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @add_multiplier(%x: tensor<8x!quant.uniform<i8:f32, 1.0>>, %y: tensor<8x!quant.uniform<i8:f32, 1.0>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0e-16>> {
  // expected-error @+1 {{output multiplier (2 * max input scale / (2^20 * output scale)) is 1.90735e+10, outside what VEC_ELTWISE can represent (shift in [-31, 30]: [2^-32, 2^30))}}
  %0 = npu.add %x, %y : (tensor<8x!quant.uniform<i8:f32, 1.0>>, tensor<8x!quant.uniform<i8:f32, 1.0>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0e-16>>
  return %0 : tensor<8x!quant.uniform<i8:f32, 1.0e-16>>
}

// -----

func.func @mul_multiplier(%x: tensor<8x!quant.uniform<i8:f32, 1.0e-10>>, %y: tensor<8x!quant.uniform<i8:f32, 1.0e-10>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0>> {
  // expected-error @+1 {{output multiplier (lhs scale * rhs scale / output scale) is 1e-20, outside what VEC_ELTWISE can represent (shift in [-31, 30]: [2^-32, 2^30))}}
  %0 = npu.mul %x, %y : (tensor<8x!quant.uniform<i8:f32, 1.0e-10>>, tensor<8x!quant.uniform<i8:f32, 1.0e-10>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<8x!quant.uniform<i8:f32, 1.0>>
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 1 : i64}>} {
  func.func @eltwise_lmem(%x: tensor<1x1x2x2048xf16>, %c: tensor<2048xf16>) -> tensor<1x1x2x2048xf16> {
    // expected-error @+1 {{two buffers of one position of each streamed operand and of the output, and the channel vector (128 channel block(s)) needs 20480 bytes of LMEM.ACT}}
    %0 = npu.maximum %x, %c : (tensor<1x1x2x2048xf16>, tensor<2048xf16>) -> tensor<1x1x2x2048xf16>
    return %0 : tensor<1x1x2x2048xf16>
  }
}

// -----

func.func @pool_kernel_field(%x: tensor<1x300x8x16xf16>) -> tensor<1x1x8x16xf16> {
  // expected-error @+1 {{kernel height 300 exceeds the 8-bit 'kh' field (max 255)}}
  %0 = npu.max_pool2d %x {kernel = array<i64: 300, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x300x8x16xf16>) -> tensor<1x1x8x16xf16>
  return %0 : tensor<1x1x8x16xf16>
}

// -----

func.func @pool_output_shape(%x: tensor<1x8x8x16xf16>) -> tensor<1x4x3x16xf16> {
  // expected-error @+1 {{output width 3, expected 4 from input width 8, kernel 2, stride 2, dilation 1 and padding 0/0}}
  %0 = npu.avg_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf16>) -> tensor<1x4x3x16xf16>
  return %0 : tensor<1x4x3x16xf16>
}

// -----

func.func @avg_pool_requant(%x: tensor<1x2x2x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x16x!quant.uniform<i8:f32, 0.25>> {
  // expected-error @+1 {{output element type must equal the input's}}
  %0 = npu.avg_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x2x2x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x16x!quant.uniform<i8:f32, 0.25>>
  return %0 : tensor<1x1x1x16x!quant.uniform<i8:f32, 0.25>>
}

// -----

func.func @sum_pool_type(%x: tensor<1x2x2x16xf16>) -> tensor<1x1x1x16xf16> {
  // expected-error @+1 {{sum of 'f16' values is 'f32', got 'f16'}}
  %0 = npu.sum_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x2x2x16xf16>) -> tensor<1x1x1x16xf16>
  return %0 : tensor<1x1x1x16xf16>
}

// -----

func.func @pool_f16_clamp(%x: tensor<1x2x2x16xf16>) -> tensor<1x1x1x16xf16> {
  // expected-error @+1 {{VEC_POOL clamps only int8 max and average pooling}}
  %0 = npu.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, clamp_min = 0 : i64}
    : (tensor<1x2x2x16xf16>) -> tensor<1x1x1x16xf16>
  return %0 : tensor<1x1x1x16xf16>
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 1 : i64}>} {
  func.func @pool_lmem(%x: tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x64x16x!quant.uniform<i8:f32, 0.5>> {
    // expected-error @+1 {{one output row and its 8 input rows (one channel block) needs 9216 bytes of LMEM.ACT, more than the target's 1024 ('lmem.act_kib' = 1)}}
    %0 = npu.max_pool2d %x {kernel = array<i64: 8, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x64x16x!quant.uniform<i8:f32, 0.5>>
    return %0 : tensor<1x1x64x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

func.func @rescale_multiplier(%x: tensor<16x!quant.uniform<i8:f32, 1.0>>) -> tensor<16x!quant.uniform<i8:f32, 1.0e-10>> {
  // expected-error @+1 {{multiplier (input scale / output scale) is 1e+10, outside what VEC_REQUANT can represent (shift in [2, 62]: [2^-32, 2^29))}}
  %0 = npu.rescale %x : (tensor<16x!quant.uniform<i8:f32, 1.0>>) -> tensor<16x!quant.uniform<i8:f32, 1.0e-10>>
  return %0 : tensor<16x!quant.uniform<i8:f32, 1.0e-10>>
}

// -----

func.func @rescale_i32_zero_point(%x: tensor<16x!quant.uniform<i32:f32, 0.01:5>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>> {
  // expected-error @+1 {{int32 input zero point 5 must be 0 (RESCALE subtracts in_zp from int8 input only)}}
  %0 = npu.rescale %x : (tensor<16x!quant.uniform<i32:f32, 0.01:5>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<16x!quant.uniform<i8:f32, 0.1>>
}

// -----

func.func @table_size(%x: tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>> {
  // expected-error @+1 {{table must have 256 entries, got 3}}
  %0 = npu.table %x {table = array<i8: 1, 2, 3>} : (tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<16x!quant.uniform<i8:f32, 0.1>>
}

// -----

func.func @clamp_s16(%x: tensor<16xi32>) -> tensor<16xi32> {
  // expected-error @+1 {{bound 40000 does not fit the s16 'min'/'max' fields ([-32768, 32767])}}
  %0 = npu.clamp %x {min = 0 : i64, max = 40000 : i64} : (tensor<16xi32>) -> tensor<16xi32>
  return %0 : tensor<16xi32>
}

// -----

func.func @clamp_fp16_range(%x: tensor<16xf16>) -> tensor<16xf16> {
  // expected-error @+1 {{bound 70000 is not representable in fp16 (max 65504)}}
  %0 = npu.clamp %x {min = 0.0 : f32, max = 70000.0 : f32} : (tensor<16xf16>) -> tensor<16xf16>
  return %0 : tensor<16xf16>
}

// -----

func.func @clamp_type(%x: tensor<16xf16>) -> tensor<16xf32> {
  // expected-error @+1 {{output type must equal the input type}}
  %0 = npu.clamp %x {min = 0.0 : f32, max = 1.0 : f32} : (tensor<16xf16>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @convert_quantised(%x: tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16xf16> {
  // expected-error @+1 {{converts raw values; quantised type '!quant.uniform<i8:f32, 1.000000e-01>' needs npu.rescale}}
  %0 = npu.convert %x : (tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16xf16>
  return %0 : tensor<16xf16>
}

// -----

func.func @convert_shape(%x: tensor<16xf16>) -> tensor<8xf32> {
  // expected-error @+1 {{output shape must equal the input's, got 'tensor<16xf16>' and 'tensor<8xf32>'}}
  %0 = npu.convert %x : (tensor<16xf16>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @eltwise_rank(%x: tensor<1x1x4x4x8xf16>) -> tensor<1x1x4x4x8xf16> {
  // expected-error @+1 {{lhs must have rank 1 to 4, got 'tensor<1x1x4x4x8xf16>'}}
  %0 = npu.add %x, %x : (tensor<1x1x4x4x8xf16>, tensor<1x1x4x4x8xf16>) -> tensor<1x1x4x4x8xf16>
  return %0 : tensor<1x1x4x4x8xf16>
}

// -----

func.func @eltwise_output_shape(%x: tensor<4x8xf16>, %s: tensor<1xf16>) -> tensor<1xf16> {
  // expected-error @+1 {{output shape must equal lhs's, got 'tensor<1xf16>'}}
  %0 = npu.sub %x, %s : (tensor<4x8xf16>, tensor<1xf16>) -> tensor<1xf16>
  return %0 : tensor<1xf16>
}

// -----

func.func @eltwise_not_int8(%x: tensor<8xi8>) -> tensor<8xi8> {
  // expected-error @+1 {{operands and output must be all f16 or all int8 quantised per tensor, got 'i8', 'i8' and 'i8'}}
  %0 = npu.maximum %x, %x : (tensor<8xi8>, tensor<8xi8>) -> tensor<8xi8>
  return %0 : tensor<8xi8>
}

// -----

func.func @add_lhs_multiplier(%x: tensor<8x!quant.uniform<i8:f32, 1.0e-10>>, %y: tensor<8x!quant.uniform<i8:f32, 1.0>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0>> {
  // expected-error @+1 {{lhs multiplier is 5e-11, outside what VEC_ELTWISE can represent}}
  %0 = npu.add %x, %y : (tensor<8x!quant.uniform<i8:f32, 1.0e-10>>, tensor<8x!quant.uniform<i8:f32, 1.0>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<8x!quant.uniform<i8:f32, 1.0>>
}

// -----

func.func @sub_rhs_multiplier(%x: tensor<8x!quant.uniform<i8:f32, 1.0>>, %y: tensor<8x!quant.uniform<i8:f32, 1.0e-10>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0>> {
  // expected-error @+1 {{rhs multiplier is 5e-11, outside what VEC_ELTWISE can represent}}
  %0 = npu.sub %x, %y : (tensor<8x!quant.uniform<i8:f32, 1.0>>, tensor<8x!quant.uniform<i8:f32, 1.0e-10>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<8x!quant.uniform<i8:f32, 1.0>>
}

// -----

func.func @eltwise_clamp_range(%x: tensor<8x!quant.uniform<i8:f32, 1.0>>) -> tensor<8x!quant.uniform<i8:f32, 1.0>> {
  // expected-error @+1 {{'clamp_min' -200 does not fit int8 ([-128, 127])}}
  %0 = npu.maximum %x, %x {clamp_min = -200 : i64} : (tensor<8x!quant.uniform<i8:f32, 1.0>>, tensor<8x!quant.uniform<i8:f32, 1.0>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<8x!quant.uniform<i8:f32, 1.0>>
}

// -----

func.func @pool_output_channels(%x: tensor<1x2x2x16xf16>) -> tensor<1x1x1x8xf16> {
  // expected-error @+1 {{output must be [1, OH, OW, 16], got 'tensor<1x1x1x8xf16>'}}
  %0 = npu.max_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x2x2x16xf16>) -> tensor<1x1x1x8xf16>
  return %0 : tensor<1x1x1x8xf16>
}

// -----

func.func @pool_input_type(%x: tensor<1x2x2x16xf32>) -> tensor<1x1x1x16xf32> {
  // expected-error @+1 {{input element type must be f16 or int8 quantised per tensor, got 'f32'}}
  %0 = npu.avg_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x2x2x16xf32>) -> tensor<1x1x1x16xf32>
  return %0 : tensor<1x1x1x16xf32>
}

// -----

func.func @sum_pool_clamp(%x: tensor<1x2x2x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x16xi32> {
  // expected-error @+1 {{VEC_POOL clamps only int8 max and average pooling}}
  %0 = npu.sum_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, clamp_max = 0 : i64}
    : (tensor<1x2x2x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x1x16xi32>
  return %0 : tensor<1x1x1x16xi32>
}

// -----

func.func @pool_kernel_length(%x: tensor<1x2x2x16xf16>) -> tensor<1x1x1x16xf16> {
  // expected-error @+1 {{'kernel' must have 2 values, got 3}}
  %0 = npu.max_pool2d %x {kernel = array<i64: 2, 2, 1>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x2x2x16xf16>) -> tensor<1x1x1x16xf16>
  return %0 : tensor<1x1x1x16xf16>
}

// -----

func.func @rescale_input(%x: tensor<16xf16>) -> tensor<16x!quant.uniform<i8:f32, 0.1>> {
  // expected-error @+1 {{input element type must be int8 or int32 quantised per tensor, got 'f16'}}
  %0 = npu.rescale %x : (tensor<16xf16>) -> tensor<16x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<16x!quant.uniform<i8:f32, 0.1>>
}

// -----

func.func @rescale_output(%x: tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16xi8> {
  // expected-error @+1 {{output element type must be int8 quantised per tensor, got 'i8'}}
  %0 = npu.rescale %x : (tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16xi8>
  return %0 : tensor<16xi8>
}

// -----

func.func @rescale_shape(%x: tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<8x!quant.uniform<i8:f32, 0.1>> {
  // expected-error @+1 {{output shape must equal the input's}}
  %0 = npu.rescale %x : (tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<8x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<8x!quant.uniform<i8:f32, 0.1>>
}

// -----

func.func @rescale_clamp(%x: tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>> {
  // expected-error @+1 {{'clamp_max' 128 does not fit int8 ([-128, 127])}}
  %0 = npu.rescale %x {clamp_max = 128 : i64} : (tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<16x!quant.uniform<i8:f32, 0.1>>
}

// -----

func.func @table_types(%x: tensor<16xf16>) -> tensor<16x!quant.uniform<i8:f32, 0.1>> {
  // expected-error @+1 {{input and output must be int8 quantised per tensor, got 'f16' and '!quant.uniform<i8:f32, 1.000000e-01>'}}
  %0 = npu.table %x {table = array<i8: 1>} : (tensor<16xf16>) -> tensor<16x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<16x!quant.uniform<i8:f32, 0.1>>
}

// -----

func.func @clamp_int8_range(%x: tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>> {
  // expected-error @+1 {{bound 200 does not fit int8 ([-128, 127])}}
  %0 = npu.clamp %x {min = 0 : i64, max = 200 : i64} : (tensor<16x!quant.uniform<i8:f32, 0.1>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<16x!quant.uniform<i8:f32, 0.1>>
}

// -----

func.func @clamp_int_empty(%x: tensor<16xi32>) -> tensor<16xi32> {
  // expected-error @+1 {{clamp range [5, 4] is empty}}
  %0 = npu.clamp %x {min = 5 : i64, max = 4 : i64} : (tensor<16xi32>) -> tensor<16xi32>
  return %0 : tensor<16xi32>
}

// -----

func.func @clamp_f16_empty(%x: tensor<16xf16>) -> tensor<16xf16> {
  // expected-error @+1 {{clamp range [1.5, -1.5] is empty}}
  %0 = npu.clamp %x {min = 1.5 : f32, max = -1.5 : f32} : (tensor<16xf16>) -> tensor<16xf16>
  return %0 : tensor<16xf16>
}

// -----

func.func @clamp_bound_kinds(%x: tensor<16xf16>, %i: tensor<16xi32>) -> tensor<16xf16> {
  // expected-error @+1 {{fp16 clamp bounds must be floats}}
  %0 = npu.clamp %x {min = 0 : i64, max = 6 : i64} : (tensor<16xf16>) -> tensor<16xf16>
  return %0 : tensor<16xf16>
}

// -----

func.func @clamp_int_bound_kinds(%i: tensor<16xi32>) -> tensor<16xi32> {
  // expected-error @+1 {{integer clamp bounds must be integers}}
  %0 = npu.clamp %i {min = 0.0 : f32, max = 6.0 : f32} : (tensor<16xi32>) -> tensor<16xi32>
  return %0 : tensor<16xi32>
}

// -----

func.func @clamp_element_type(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{element type must be f16, i32 or int8 quantised per tensor, got 'f32'}}
  %0 = npu.clamp %x {min = 0.0 : f32, max = 6.0 : f32} : (tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @convert_element_type(%x: tensor<16xi16>) -> tensor<16xf16> {
  // expected-error @+1 {{element type must be i8, i32, f16 or f32, got 'i16'}}
  %0 = npu.convert %x : (tensor<16xi16>) -> tensor<16xf16>
  return %0 : tensor<16xf16>
}

// -----

func.func @eltwise_zero_point(%x: tensor<8x!quant.uniform<i8:f32, 1.0>>, %y: tensor<8x!quant.uniform<i8:f32, 1.0:200>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0>> {
  // expected-error @+1 {{rhs zero point 200 is outside [-128, 127] (VEC_ELTWISE 'in2_zp')}}
  %0 = npu.mul %x, %y : (tensor<8x!quant.uniform<i8:f32, 1.0>>, tensor<8x!quant.uniform<i8:f32, 1.0:200>>)
    -> tensor<8x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<8x!quant.uniform<i8:f32, 1.0>>
}

// -----

func.func @rescale_zero_point(%x: tensor<16x!quant.uniform<i8:f32, 0.1:-300>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>> {
  // expected-error @+1 {{input zero point -300 is outside [-128, 127] (VEC_UNARY 'in_zp')}}
  %0 = npu.rescale %x : (tensor<16x!quant.uniform<i8:f32, 0.1:-300>>) -> tensor<16x!quant.uniform<i8:f32, 0.1>>
  return %0 : tensor<16x!quant.uniform<i8:f32, 0.1>>
}

// -----

// The realistic preset has 256 KiB of ACT; the same pooling verifies on
// "default" (ops.mlir, @pool_default_lmem).
module attributes {npu.target = #npu.target<"realistic">} {
  func.func @pool_realistic_lmem(%x: tensor<1x100x100x16xf16>) -> tensor<1x1x100x16xf16> {
    // expected-error @+1 {{one output row and its 100 input rows (one channel block) needs 323200 bytes of LMEM.ACT, more than the target's 262144 ('lmem.act_kib' = 256)}}
    %0 = npu.max_pool2d %x {kernel = array<i64: 100, 1>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x100x100x16xf16>) -> tensor<1x1x100x16xf16>
    return %0 : tensor<1x1x100x16xf16>
  }
}
