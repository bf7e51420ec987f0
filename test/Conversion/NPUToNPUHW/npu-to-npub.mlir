// The pipeline's stream serializes to .npub and runs on the simulator, with
// race checking, reading the input and writing the output under the
// function's IO names; a 1x1 convolution with weight 1 and multiplier 1/2
// (0.5 * 0.5 / 0.5, no bias) halves the one input channel's values.

// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline | kiln-translate --npuhw-to-npub -o %t/layer.npub
// RUN: printf '\x02\x04\x06\x08\x0a\x0c\x0e\x10\x12\x14\x16\x18\x1a\x1c\x1e\x20' > %t/x.bin
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/layer.npub --input=x=%t/x.bin --output=y=%t/y.bin --race_check | FileCheck %s --check-prefix=SIM
// RUN: od -An -tu1 -v %t/y.bin | FileCheck %s

// SIM: MAC utilisation
// CHECK: 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
module attributes {npu.target = #npu.target<"default">} {
  func.func @halve(%x: tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>
      attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
    %wi = arith.constant dense<1> : tensor<1x1x1x1xi8>
    %w = quant.scast %wi : tensor<1x1x1x1xi8> to tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>
    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x1x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>
    return %y : tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>
  }
}
