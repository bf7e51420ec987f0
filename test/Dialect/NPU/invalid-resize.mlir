// RUN: kiln-opt %s -split-input-file -verify-diagnostics

func.func @nearest_scale(%x: tensor<1x4x4x16xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{scale must be two factors [sy, sx], sy >= 1 and 1 <= sx <= 65535 (a DMA count), got array<i64: 2, 0>}}
  %0 = npu.resize_nearest %x {scale = array<i64: 2, 0>} : (tensor<1x4x4x16xf16>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @nearest_shape(%x: tensor<1x4x4x16xf16>) -> tensor<1x8x4x16xf16> {
  // expected-error @+1 {{output shape must be [1, 8, 8, 16] (the input scaled by 2x2), got 'tensor<1x8x4x16xf16>'}}
  %0 = npu.resize_nearest %x {scale = array<i64: 2, 2>} : (tensor<1x4x4x16xf16>) -> tensor<1x8x4x16xf16>
  return %0 : tensor<1x8x4x16xf16>
}

// -----

func.func @nearest_requantises(%x: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.25>> {
  // expected-error @+1 {{copies stored values, so the output element type must equal the input's}}
  %0 = npu.resize_nearest %x {scale = array<i64: 2, 2>} : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.25>>
  return %0 : tensor<1x8x8x16x!quant.uniform<i8:f32, 0.25>>
}

// -----

func.func @nearest_f32(%x: tensor<1x4x4x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{input and output must be both f16 or both int8 quantised per tensor, got 'f32' and 'f32'}}
  %0 = npu.resize_nearest %x {scale = array<i64: 2, 2>} : (tensor<1x4x4x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 1 : i64}>} {
  func.func @nearest_row_too_wide(%x: tensor<1x2x40x16xf16>) -> tensor<1x4x80x16xf16> {
    // expected-error @+1 {{two buffers of one input row (width 40, all channel blocks) needs 2560 bytes of LMEM.ACT, more than the target's 1024 ('lmem.act_kib' = 1)}}
    %0 = npu.resize_nearest %x {scale = array<i64: 2, 2>} : (tensor<1x2x40x16xf16>) -> tensor<1x4x80x16xf16>
    return %0 : tensor<1x4x80x16xf16>
  }
}

// -----

func.func @bilinear_not_2x(%x: tensor<1x4x4x16xf16>) -> tensor<1x12x12x16xf16> {
  // expected-error @+1 {{output shape must be [1, 8, 8, 16] (the input scaled by 2x2), got 'tensor<1x12x12x16xf16>'}}
  %0 = npu.resize_bilinear %x : (tensor<1x4x4x16xf16>) -> tensor<1x12x12x16xf16>
  return %0 : tensor<1x12x12x16xf16>
}

// -----

func.func @bilinear_rank(%x: tensor<4x4x16xf16>) -> tensor<8x8x16xf16> {
  // expected-error @+1 {{input and output must be NHWC (rank 4), got 'tensor<4x4x16xf16>' and 'tensor<8x8x16xf16>'}}
  %0 = npu.resize_bilinear %x : (tensor<4x4x16xf16>) -> tensor<8x8x16xf16>
  return %0 : tensor<8x8x16xf16>
}

// -----

func.func @bilinear_mixed(%x: tensor<1x4x4x16xf16>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{input and output must be both f16 or both int8 quantised per tensor}}
  %0 = npu.resize_bilinear %x : (tensor<1x4x4x16xf16>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x8x8x16x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @bilinear_multiplier(%x: tensor<1x4x4x16x!quant.uniform<i8:f32, 1.0e-12>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 1.0>> {
  // expected-error @+1 {{multiplier (input scale / (16 * output scale))}}
  %0 = npu.resize_bilinear %x : (tensor<1x4x4x16x!quant.uniform<i8:f32, 1.0e-12>>) -> tensor<1x8x8x16x!quant.uniform<i8:f32, 1.0>>
  return %0 : tensor<1x8x8x16x!quant.uniform<i8:f32, 1.0>>
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.acc_kib" = 1 : i64}>} {
  func.func @bilinear_acc(%x: tensor<1x2x8x16xf16>) -> tensor<1x4x16x16xf16> {
    // expected-error @+1 {{two accumulator buffers of one band of one input row and one channel block needs 4096 bytes of LMEM.ACC, more than the target's 1024 ('lmem.acc_kib' = 1)}}
    %0 = npu.resize_bilinear %x : (tensor<1x2x8x16xf16>) -> tensor<1x4x16x16xf16>
    return %0 : tensor<1x4x16x16xf16>
  }
}
