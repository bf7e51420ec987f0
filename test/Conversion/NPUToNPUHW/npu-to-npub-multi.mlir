// A function of three fp16 ops with two arguments and two results runs on
// the simulator with race checking: %c = conv2d(%y) (1x1, weights 1.0: the
// sum of 8 channels of 0.25 = 2.0) reads the second argument at offset 256
// of r2 and writes r1; %a = %c + %x = 2.5 (0x4100) is a result that the
// depthwise %d = 2.0 * %a = 5.0 (0x4500) reads back from r3.

// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline | kiln-translate --npuhw-to-npub -o %t/net.npub
// RUN: %python -c "import sys; sys.stdout.buffer.write(b'\x00\x38' * 128)" > %t/x.bin
// RUN: %python -c "import sys; sys.stdout.buffer.write(b'\x00\x34' * 128)" > %t/y.bin
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/net.npub --input=x=%t/x.bin,y=%t/y.bin --output=a=%t/a.bin,d=%t/d.bin --race_check | FileCheck %s --check-prefix=SIM
// RUN: od -An -tx2 -v %t/a.bin | FileCheck %s --check-prefix=A
// RUN: od -An -tx2 -v %t/d.bin | FileCheck %s --check-prefix=D

// SIM: MAC utilisation
// A-COUNT-16: 4100 4100 4100 4100 4100 4100 4100 4100
// A-NOT: {{[0-9a-f]}}
// D-COUNT-16: 4500 4500 4500 4500 4500 4500 4500 4500
// D-NOT: {{[0-9a-f]}}
module attributes {npu.target = #npu.target<"default">} {
  func.func @f16_chain(%x: tensor<1x4x4x8xf16>, %y: tensor<1x4x4x8xf16>) -> (tensor<1x4x4x8xf16>, tensor<1x4x4x8xf16>)
      attributes {tf.entry_function = {inputs = "x,y", outputs = "a,d"}} {
    %w = arith.constant dense<1.0> : tensor<1x1x8x8xf16>
    %c = npu.conv2d %y, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x4x8xf16>, tensor<1x1x8x8xf16>) -> tensor<1x4x4x8xf16>
    %w2 = arith.constant dense<2.0> : tensor<1x1x8xf16>
    %a = npu.add %c, %x : (tensor<1x4x4x8xf16>, tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16>
    %d = npu.depthwise_conv2d %a, %w2 {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x4x4x8xf16>, tensor<1x1x8xf16>) -> tensor<1x4x4x8xf16>
    return %a, %d : tensor<1x4x4x8xf16>, tensor<1x4x4x8xf16>
  }
}
