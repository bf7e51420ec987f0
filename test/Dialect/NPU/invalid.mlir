// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// Verifier errors of the MAC operations: conv2d, depthwise_conv2d,
// fully_connected (the VEC operations are in invalid-vec.mlir).

func.func @kernel_field(%x: tensor<1x300x1x16xf16>, %w: tensor<300x1x16x16xf16>) -> tensor<1x1x1x16xf16> {
  // expected-error @+1 {{kernel height 300 exceeds the 8-bit 'kh' field (max 255)}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x300x1x16xf16>, tensor<300x1x16x16xf16>) -> tensor<1x1x1x16xf16>
  return %0 : tensor<1x1x1x16xf16>
}

// -----

func.func @stride_zero(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{stride width 0 must be at least 1}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 0>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @dilation_field(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{dilation height 256 exceeds the 8-bit 'dy' field (max 255)}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 256, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @padding_field(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x8x264x16xf16> {
  // expected-error @+1 {{padding left 256 exceeds the 8-bit 'pl' field (max 255)}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 256, 0>}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x8x264x16xf16>
  return %0 : tensor<1x8x264x16xf16>
}

// -----

func.func @pad_length(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{'pad' must have 4 values, got 2}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0>}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @output_shape(%x: tensor<1x16x16x8xf16>, %w: tensor<3x3x8x16xf16>) -> tensor<1x5x8x16xf16> {
  // expected-error @+1 {{output height 5, expected 8 from input height 16, kernel 3, stride 2, dilation 1 and padding 0/1}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>}
    : (tensor<1x16x16x8xf16>, tensor<3x3x8x16xf16>) -> tensor<1x5x8x16xf16>
  return %0 : tensor<1x5x8x16xf16>
}

// -----

func.func @window_too_big(%x: tensor<1x4x4x8xf16>, %w: tensor<3x3x8x16xf16>) -> tensor<1x1x1x16xf16> {
  // expected-error @+1 {{window height 5 (kernel and dilation) does not fit the padded input height 4}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x8xf16>, tensor<3x3x8x16xf16>) -> tensor<1x1x1x16xf16>
  return %0 : tensor<1x1x1x16xf16>
}

// -----

func.func @groups(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x8x16xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{weight has 8 input channels, input 16 (groups other than 1 are not supported)}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf16>, tensor<1x1x8x16xf16>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @weight_axis(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                       %w: tensor<1x1x2x2x!quant.uniform<i8:f32:2, {0.1, 0.2}>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{weight is quantised along axis 2, expected the output-channel axis 3}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32:2, {0.1, 0.2}>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @weight_axis_zero_point(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                                  %w: tensor<1x1x2x2x!quant.uniform<i8:f32:3, {0.1, 0.2:4}>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{weight zero point 4 of output channel 1 must be 0}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32:3, {0.1, 0.2:4}>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @weight_tensor_zero_point(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                                    %w: tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1:-1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{weight zero point -1 must be 0}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1:-1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @weight_scale_count(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                              %w: tensor<1x1x2x3x!quant.uniform<i8:f32:3, {0.1, 0.2}>>)
    -> tensor<1x4x4x3x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{weight has 2 per-axis scales for 3 output channels}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x3x!quant.uniform<i8:f32:3, {0.1, 0.2}>>)
    -> tensor<1x4x4x3x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x3x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @requant_multiplier(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 1000.0>>,
                              %w: tensor<1x1x2x2x!quant.uniform<i8:f32:3, {0.1, 1000.0}>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.0001>> {
  // expected-error @+1 {{requantisation multiplier (input scale * weight scale / output scale) of output channel 1 is 1e+10, outside what VEC_REQUANT can represent (shift in [2, 62]: [2^-32, 2^29))}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 1000.0>>, tensor<1x1x2x2x!quant.uniform<i8:f32:3, {0.1, 1000.0}>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.0001>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.0001>>
}

// -----

func.func @clamp_range(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                       %w: tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{'clamp_max' 200 does not fit int8 ([-128, 127])}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, clamp_max = 200 : i64}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @clamp_float_on_int8(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                               %w: tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{'clamp_min' of an int8 operation must be an integer}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, clamp_min = 0.0 : f32}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @empty_clamp_f16(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{clamp range [6, 0] is empty}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>,
                          clamp_min = 6.0 : f32, clamp_max = 0.0 : f32}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @mixed_types(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{fp16 input needs f16 weight and output}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.1>>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @f32_input(%x: tensor<1x8x8x16xf32>, %w: tensor<1x1x16x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @+1 {{input element type must be f16 or int8 quantised per tensor, got 'f32'}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// -----

func.func @bias_size(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>, %b: tensor<8xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{bias must be a vector of 16 output channels, got 'tensor<8xf16>'}}
  %0 = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>, tensor<8xf16>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @int8_bias_type(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                          %w: tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>, %b: tensor<2xf32>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{int8 bias must be i32, got 'f32'}}
  %0 = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>, tensor<2xf32>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.wgt_kib" = 1 : i64}>} {
  func.func @lmem_weights(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x16xf16>) -> tensor<1x6x6x16xf16> {
    // expected-error @+1 {{one weight block set (3x3 kernel, one channel block) needs 4608 bytes of LMEM.WGT, more than the target's 1024 ('lmem.wgt_kib' = 1)}}
    %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x8x8x16xf16>, tensor<3x3x16x16xf16>) -> tensor<1x6x6x16xf16>
    return %0 : tensor<1x6x6x16xf16>
  }
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.acc_kib" = 1 : i64}>} {
  func.func @lmem_accumulators(%x: tensor<1x1x32x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x1x32x16xf16> {
    // expected-error @+1 {{one output row of accumulators (width 32, one channel block) needs 2048 bytes of LMEM.ACC, more than the target's 1024 ('lmem.acc_kib' = 1)}}
    %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x1x32x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x1x32x16xf16>
    return %0 : tensor<1x1x32x16xf16>
  }
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 1 : i64}>} {
  func.func @lmem_input_rows(%x: tensor<1x8x16x16x!quant.uniform<i8:f32, 0.5>>,
                             %w: tensor<3x3x16x1x!quant.uniform<i8:f32, 0.5>>)
      -> tensor<1x6x14x16x!quant.uniform<i8:f32, 0.5>> {
    // expected-error @+1 {{the input rows of one output row (5 rows of width 16, one channel block) needs 1280 bytes of LMEM.ACT}}
    %0 = npu.depthwise_conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 2, 1>, pad = array<i64: 2, 0, 0, 0>}
      : (tensor<1x8x16x16x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x16x1x!quant.uniform<i8:f32, 0.5>>)
      -> tensor<1x6x14x16x!quant.uniform<i8:f32, 0.5>>
    return %0 : tensor<1x6x14x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

func.func @depthwise_multiplier(%x: tensor<1x8x8x4xf16>, %w: tensor<3x3x4x2xf16>) -> tensor<1x6x6x4xf16> {
  // expected-error @+1 {{weight must be [kh, kw, C] or [kh, kw, C, 1] (multiplier 1), got 'tensor<3x3x4x2xf16>'}}
  %0 = npu.depthwise_conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x4xf16>, tensor<3x3x4x2xf16>) -> tensor<1x6x6x4xf16>
  return %0 : tensor<1x6x6x4xf16>
}

// -----

func.func @depthwise_axis(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                          %w: tensor<1x1x2x!quant.uniform<i8:f32:0, {0.1}>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{weight is quantised along axis 0, expected the output-channel axis 2}}
  %0 = npu.depthwise_conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x!quant.uniform<i8:f32:0, {0.1}>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @fc_contraction(%x: tensor<4x64xf16>, %w: tensor<32x10xf16>) -> tensor<4x10xf16> {
  // expected-error @+1 {{contraction mismatch: input has 64 columns, weight 32 rows}}
  %0 = npu.fully_connected %x, %w : (tensor<4x64xf16>, tensor<32x10xf16>) -> tensor<4x10xf16>
  return %0 : tensor<4x10xf16>
}

// -----

func.func @fc_rank(%x: tensor<1x4x64xf16>, %w: tensor<64x10xf16>) -> tensor<4x10xf16> {
  // expected-error @+1 {{input must have rank 2, got 'tensor<1x4x64xf16>'}}
  %0 = npu.fully_connected %x, %w : (tensor<1x4x64xf16>, tensor<64x10xf16>) -> tensor<4x10xf16>
  return %0 : tensor<4x10xf16>
}

// -----

func.func @conv_rank(%x: tensor<8x8x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{input must have rank 4, got 'tensor<8x8x16xf16>'}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<8x8x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @conv_output_channels(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x8x8x8xf16> {
  // expected-error @+1 {{output must be [1, OH, OW, 16], got 'tensor<1x8x8x8xf16>'}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x8x8x8xf16>
  return %0 : tensor<1x8x8x8xf16>
}

// -----

func.func @weight_not_int8(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                           %w: tensor<1x1x2x2x!quant.uniform<u8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{weight element type must be int8 quantised per tensor or per axis, got '!quant.uniform<u8:f32, 1.000000e-01>'}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<u8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @output_not_int8(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                           %w: tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i16:f32, 0.5>> {
  // expected-error @+1 {{output element type must be int8 quantised per tensor, got '!quant.uniform<i16:f32, 5.000000e-01>'}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i16:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i16:f32, 0.5>>
}

// -----

func.func @fp16_bias_type(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>, %b: tensor<16xi32>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{fp16 bias must be f16 or f32, got 'i32'}}
  %0 = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>, tensor<16xi32>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @fp16_clamp_integer(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @+1 {{'clamp_max' of an fp16 operation must be a float}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, clamp_max = 6 : i64}
    : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x8x8x16xf16>
  return %0 : tensor<1x8x8x16xf16>
}

// -----

func.func @empty_clamp_int8(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>,
                            %w: tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{clamp range [10, -10] is empty}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, clamp_min = 10 : i64, clamp_max = -10 : i64}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 1 : i64}>} {
  func.func @conv_lmem_rows(%x: tensor<1x3x40x16xf16>, %w: tensor<3x1x16x16xf16>) -> tensor<1x1x40x16xf16> {
    // expected-error @+1 {{the input rows of one output row (3 rows of width 40, one channel block) needs 3840 bytes of LMEM.ACT, more than the target's 1024 ('lmem.act_kib' = 1)}}
    %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x3x40x16xf16>, tensor<3x1x16x16xf16>) -> tensor<1x1x40x16xf16>
    return %0 : tensor<1x1x40x16xf16>
  }
}

// -----

module attributes {npu.target = #npu.target<"default", {"lmem.acc_kib" = 1 : i64}>} {
  func.func @fc_lmem_accumulators(%x: tensor<32x16xf16>, %w: tensor<16x16xf16>) -> tensor<32x16xf16> {
    // expected-error @+1 {{one output row of accumulators (width 32, one channel block) needs 2048 bytes of LMEM.ACC}}
    %0 = npu.fully_connected %x, %w : (tensor<32x16xf16>, tensor<16x16xf16>) -> tensor<32x16xf16>
    return %0 : tensor<32x16xf16>
  }
}

// -----

func.func @depthwise_channels(%x: tensor<1x8x8x4xf16>, %w: tensor<3x3x8xf16>) -> tensor<1x6x6x4xf16> {
  // expected-error @+1 {{weight has 8 channels, input 4}}
  %0 = npu.depthwise_conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x4xf16>, tensor<3x3x8xf16>) -> tensor<1x6x6x4xf16>
  return %0 : tensor<1x6x6x4xf16>
}

// -----

func.func @depthwise_output(%x: tensor<1x8x8x4xf16>, %w: tensor<3x3x4xf16>) -> tensor<2x6x6x4xf16> {
  // expected-error @+1 {{output must be [1, OH, OW, 4], got 'tensor<2x6x6x4xf16>'}}
  %0 = npu.depthwise_conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x8x8x4xf16>, tensor<3x3x4xf16>) -> tensor<2x6x6x4xf16>
  return %0 : tensor<2x6x6x4xf16>
}

// -----

func.func @fc_output(%x: tensor<4x64xf16>, %w: tensor<64x10xf16>) -> tensor<4x12xf16> {
  // expected-error @+1 {{output must be [4, 10], got 'tensor<4x12xf16>'}}
  %0 = npu.fully_connected %x, %w : (tensor<4x64xf16>, tensor<64x10xf16>) -> tensor<4x12xf16>
  return %0 : tensor<4x12xf16>
}

// -----

func.func @fc_weight_axis(%x: tensor<4x2x!quant.uniform<i8:f32, 0.5>>,
                          %w: tensor<2x3x!quant.uniform<i8:f32:0, {0.1, 0.2}>>)
    -> tensor<4x3x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{weight is quantised along axis 0, expected the output-channel axis 1}}
  %0 = npu.fully_connected %x, %w : (tensor<4x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x3x!quant.uniform<i8:f32:0, {0.1, 0.2}>>)
    -> tensor<4x3x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<4x3x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @conv_input_zero_point(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5:300>>,
                                 %w: tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{input zero point 300 is outside [-128, 127] (MAC_CONV 'in_zp')}}
  %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
    : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5:300>>, tensor<1x1x2x2x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @fc_output_zero_point(%x: tensor<4x2x!quant.uniform<i8:f32, 0.5>>,
                                %w: tensor<2x3x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<4x3x!quant.uniform<i8:f32, 0.5:-129>> {
  // expected-error @+1 {{output zero point -129 is outside [-128, 127] (VEC_REQUANT 'out_zp')}}
  %0 = npu.fully_connected %x, %w : (tensor<4x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x3x!quant.uniform<i8:f32, 0.1>>)
    -> tensor<4x3x!quant.uniform<i8:f32, 0.5:-129>>
  return %0 : tensor<4x3x!quant.uniform<i8:f32, 0.5:-129>>
}
