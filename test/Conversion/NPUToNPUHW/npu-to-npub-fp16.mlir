// An fp16 layer through the pipeline, --npuhw-to-npub and the simulator
// with race checking: a 1x1 convolution with weight 0.5, f32 bias 0.25 and
// clamp_max 2.0 maps 1, 2, 3, 4 (f16 0x3C00, 0x4000, 0x4200, 0x4400) to 0.75,
// 1.25, 1.75 and 2.25 clamped to 2.0 (0x3A00, 0x3D00, 0x3F00, 0x4000).

// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline | kiln-translate --npuhw-to-npub -o %t/layer.npub
// RUN: printf '\x00\x3c\x00\x40\x00\x42\x00\x44' > %t/x.bin
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/layer.npub --input=x=%t/x.bin --output=y=%t/y.bin --race_check | FileCheck %s --check-prefix=SIM
// RUN: od -An -tx1 -v %t/y.bin | FileCheck %s

// SIM: MAC utilisation
// CHECK: 00 3a 00 3d 00 3f 00 40
module attributes {npu.target = #npu.target<"default">} {
  func.func @scale(%x: tensor<1x2x2x1xf16>) -> tensor<1x2x2x1xf16>
      attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
    %w = arith.constant dense<0.5> : tensor<1x1x1x1xf16>
    %b = arith.constant dense<0.25> : tensor<1xf32>
    %y = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, clamp_max = 2.0 : f32}
      : (tensor<1x2x2x1xf16>, tensor<1x1x1x1xf16>, tensor<1xf32>) -> tensor<1x2x2x1xf16>
    return %y : tensor<1x2x2x1xf16>
  }
}
