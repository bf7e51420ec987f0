// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw -verify-diagnostics

// The bias of an fp16 layer is f16 or f32 (the accumulators' type, or
// exactly widened to it); the op's verifier rejects anything else before the
// lowering runs.

module {
  func.func @bias_i32(%x: tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16> {
    %w = arith.constant dense<1.0> : tensor<1x1x16x16xf16>
    %b = arith.constant dense<1> : tensor<16xi32>
    // expected-error @+1 {{'npu.conv2d' op fp16 bias must be f16 or f32, got 'i32'}}
    %y = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x4x16xf16>, tensor<1x1x16x16xf16>, tensor<16xi32>) -> tensor<1x4x4x16xf16>
    return %y : tensor<1x4x4x16xf16>
  }
}

// -----

module {
  func.func @bias_bf16(%x: tensor<3x20xf16>) -> tensor<3x10xf16> {
    %w = arith.constant dense<1.0> : tensor<20x10xf16>
    %b = arith.constant dense<1.0> : tensor<10xbf16>
    // expected-error @+1 {{'npu.fully_connected' op fp16 bias must be f16 or f32, got 'bf16'}}
    %y = npu.fully_connected %x, %w, %b : (tensor<3x20xf16>, tensor<20x10xf16>, tensor<10xbf16>) -> tensor<3x10xf16>
    return %y : tensor<3x10xf16>
  }
}

// -----

// The bias is preloaded from the stream's constants, so it must be one.

module {
  func.func @bias_argument(%x: tensor<1x4x4x16xf16>, %b: tensor<16xf32>) -> tensor<1x4x4x16xf16> {
    %w = arith.constant dense<1.0> : tensor<1x1x16xf16>
    // expected-error @+1 {{'npu.depthwise_conv2d' op bias must be a constant}}
    %y = npu.depthwise_conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x4x16xf16>, tensor<1x1x16xf16>, tensor<16xf32>) -> tensor<1x4x4x16xf16>
    return %y : tensor<1x4x4x16xf16>
  }
}

// -----

module {
  func.func @weight_argument(%x: tensor<1x4x4x16xf16>, %w: tensor<1x1x16x16xf16>) -> tensor<1x4x4x16xf16> {
    // expected-error @+1 {{'npu.conv2d' op weight must be a constant}}
    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x4x16xf16>, tensor<1x1x16x16xf16>) -> tensor<1x4x4x16xf16>
    return %y : tensor<1x4x4x16xf16>
  }
}

// -----

// fp16 tiles have twice the bytes: the int8 twin of this layer fits 8 KiB
// of ACT double-buffered (2 x (3 + 1) rows x 64 x 16 bytes), the fp16 layer
// needs 16384 bytes, plus 64 for the f32 biases kept in ACT (the npu
// verifier's single-buffered smallest tile, 3 input rows of 2 KiB, fits).

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 8 : i64}>} {
  func.func @act_too_small(%x: tensor<1x8x64x16xf16>) -> tensor<1x8x64x16xf16> {
    %w = arith.constant dense<1.0> : tensor<3x3x16x16xf16>
    %b = arith.constant dense<1.0> : tensor<16xf32>
    // expected-error @+1 {{'npu.conv2d' op does not fit LMEM: two buffers of 1 output row(s) (16448 bytes of LMEM.ACT, 8192 bytes of LMEM.ACC) exceed the target's 8192 and 131072}}
    %y = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x64x16xf16>, tensor<3x3x16x16xf16>, tensor<16xf32>) -> tensor<1x8x64x16xf16>
    return %y : tensor<1x8x64x16xf16>
  }
}

// -----

// One output block of a 1x1 convolution over 160 input channels has 10
// fp16 weight blocks (5120 bytes), more than 4 KiB of WGT even in a single
// buffer (the npu verifier checks one 512-byte block).

module attributes {npu.target = #npu.target<"default", {"lmem.wgt_kib" = 4 : i64}>} {
  func.func @wgt_too_small(%x: tensor<1x2x2x160xf16>) -> tensor<1x2x2x32xf16> {
    %w = arith.constant dense<1.0> : tensor<1x1x160x32xf16>
    // expected-error @+1 {{'npu.conv2d' op does not fit LMEM: the weights of one output channel block (5120 bytes) exceed LMEM.WGT (4096)}}
    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x2x2x160xf16>, tensor<1x1x160x32xf16>) -> tensor<1x2x2x32xf16>
    return %y : tensor<1x2x2x32xf16>
  }
}
