// RUN: kiln-opt %s -split-input-file -convert-npu-to-npuhw -verify-diagnostics

// A dynamic argument has no DRAM region size.

module {
  // expected-error @+1 {{'func.func' op argument 1 must be a statically shaped tensor, got 'tensor<?x4xi8>'}}
  func.func @dynamic(%x: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>, %d: tensor<?x4xi8>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x16x16xi8>
    %w = quant.scast %wi : tensor<1x1x16x16xi8> to tensor<1x1x16x16x!quant.uniform<i8:f32, 0.01>>
    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>
    return %y : tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// One band of one output row fits ACT single-buffered (the npu verifier's
// smallest tile: 3 input rows of 64x16 = 3 KiB of 4 KiB), but not with the
// two buffers per stage of the double-buffered schedule.

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 4 : i64}>} {
  func.func @too_big(%x: tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<3x3x16x16xi8>
    %w = quant.scast %wi : tensor<3x3x16x16xi8> to tensor<3x3x16x16x!quant.uniform<i8:f32, 0.01>>
    // expected-error @+1 {{'npu.conv2d' op does not fit LMEM: two buffers of 1 output row(s) (8192 bytes of LMEM.ACT, 8192 bytes of LMEM.ACC) exceed the target's 4096 and}}
    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>}
      : (tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>, tensor<3x3x16x16x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>
    return %y : tensor<1x8x64x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Weights must be constants: they are packed into the stream's CONST.

module {
  func.func @weight_argument(%x: tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>, %w: tensor<1x1x16x16x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>> {
    // expected-error @+1 {{'npu.conv2d' op weight must be a constant}}
    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x16x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>
    return %y : tensor<1x4x4x16x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Two images whose outputs are 3x3x3 = 27 bytes each: the second image's
// store would start at an unaligned DRAM offset, which npuhw.view rejects.

module {
  func.func @unaligned_batch(%x: tensor<2x3x3x3x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x3x3x3x!quant.uniform<i8:f32, 0.5>> {
    %wi = arith.constant dense<1> : tensor<1x1x3x3xi8>
    %w = quant.scast %wi : tensor<1x1x3x3xi8> to tensor<1x1x3x3x!quant.uniform<i8:f32, 0.01>>
    // expected-error @+1 {{'npu.conv2d' op does not fit LMEM: an output image of 27 bytes leaves the next image's stores unaligned in DRAM}}
    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<2x3x3x3x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x3x3x!quant.uniform<i8:f32, 0.01>>) -> tensor<2x3x3x3x!quant.uniform<i8:f32, 0.5>>
    return %y : tensor<2x3x3x3x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Ops other than npu ops, constants and quant.scast have no lowering.

module {
  func.func @foreign(%x: tensor<3x32xi8>) -> tensor<3x32xi8> {
    // expected-error @+1 {{'arith.addi' op has no lowering to npuhw}}
    %0 = arith.addi %x, %x : tensor<3x32xi8>
    %1 = npu.convert %0 : (tensor<3x32xi8>) -> tensor<3x32xf16>
    return %x : tensor<3x32xi8>
  }
}

// -----

// A result must be written by one of the function's npu ops.

module {
  func.func @returns_argument(%x: tensor<3x32xi8>) -> (tensor<3x32xf16>, tensor<3x32xi8>) {
    %0 = npu.convert %x : (tensor<3x32xi8>) -> tensor<3x32xf16>
    // expected-error @+1 {{'func.return' op result 1 must be computed by an npu operation of the function}}
    return %0, %x : tensor<3x32xf16>, tensor<3x32xi8>
  }
}

// -----

// One position of 13 channel blocks: two input and two output buffers
// (832 bytes) and the broadcast vector (208 bytes) exceed a 1 KiB ACT. The
// npu verifier checks what the lowering needs, so it reports it first.

module attributes {npu.target = #npu.target<"default", {"lmem.act_kib" = 1 : i64}>} {
  func.func @position_too_big(%a: tensor<2x208x!quant.uniform<i8:f32, 0.5>>, %b: tensor<208x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x208x!quant.uniform<i8:f32, 0.5>> {
    // expected-error @+1 {{'npu.maximum' op two buffers of one position of each streamed operand and of the output, and the channel vector (13 channel block(s)) needs 1040 bytes of LMEM.ACT, more than the target's 1024 ('lmem.act_kib' = 1)}}
    %0 = npu.maximum %a, %b : (tensor<2x208x!quant.uniform<i8:f32, 0.5>>, tensor<208x!quant.uniform<i8:f32, 0.5>>) -> tensor<2x208x!quant.uniform<i8:f32, 0.5>>
    return %0 : tensor<2x208x!quant.uniform<i8:f32, 0.5>>
  }
}

// -----

// Constant operands are copied into r0, so they must be dense elements.

module {
  func.func @resource_constant(%a: tensor<4xi8>) -> tensor<4xf32> {
    %c = arith.constant dense_resource<blob> : tensor<4xi8>
    // expected-error @+1 {{'npu.convert' op operand 0 is neither a tensor of the function nor a dense constant}}
    %0 = npu.convert %c : (tensor<4xi8>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x0100000001020304"
    }
  }
#-}
