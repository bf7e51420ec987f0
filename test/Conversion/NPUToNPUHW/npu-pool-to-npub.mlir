// A pooling stream serializes to .npub and runs on the simulator with race
// checking: a 2x2 stride-2 int8 average over [[1 2 3 4] [5 6 7 8]] is
// 14/4 and 22/4, rounded half away from zero to 4 and 6.

// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline | kiln-translate --npuhw-to-npub -o %t/pool.npub
// RUN: printf '\x01\x02\x03\x04\x05\x06\x07\x08' > %t/x.bin
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/pool.npub --input=x=%t/x.bin --output=y=%t/y.bin --race_check
// RUN: od -An -tu1 -v %t/y.bin | FileCheck %s

// CHECK: 4 6
module attributes {npu.target = #npu.target<"default">} {
  func.func @avg(%x: tensor<1x2x4x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x1x!quant.uniform<i8:f32, 0.5>>
      attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
    %y = npu.avg_pool2d %x {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>}
      : (tensor<1x2x4x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x2x1x!quant.uniform<i8:f32, 0.5>>
    return %y : tensor<1x1x2x1x!quant.uniform<i8:f32, 0.5>>
  }
}
