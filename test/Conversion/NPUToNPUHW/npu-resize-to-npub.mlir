// Up-sampling streams serialize to .npub and run on the simulator with race
// checking. Bilinear 2x of the int8 image [[0 1] [2 3]] (scale and zero
// point kept): the interpolated values 16 * [0 .25 .75 1 | .5 .6875 1.1875
// 1.5 | 1.5 1.5625 2.3125 2.5 | 2 2.25 2.75 3] round half up to the
// stored values below. Nearest 2x of the same image repeats each value in
// a 2x2 block.

// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '\x00\x01\x02\x03' > %t/x.bin
// RUN: kiln-opt %s --kiln-npu-to-npuhw-pipeline | kiln-translate --npuhw-to-npub -o %t/bilinear.npub
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/bilinear.npub --input=x=%t/x.bin --output=y=%t/y.bin --race_check
// RUN: od -An -tu1 -v -w4 %t/y.bin | FileCheck %s --check-prefix=BILINEAR
// RUN: sed -e 's/npu.resize_bilinear %x/npu.resize_nearest %x {scale = array<i64: 2, 2>}/' %s | kiln-opt --kiln-npu-to-npuhw-pipeline | kiln-translate --npuhw-to-npub -o %t/nearest.npub
// RUN: %kiln_obj_root/bin/kiln-npu-sim %t/nearest.npub --input=x=%t/x.bin --output=y=%t/z.bin --race_check
// RUN: od -An -tu1 -v -w4 %t/z.bin | FileCheck %s --check-prefix=NEAREST

// BILINEAR:      0 0 1 1
// BILINEAR-NEXT: 1 1 1 2
// BILINEAR-NEXT: 2 2 2 3
// BILINEAR-NEXT: 2 2 3 3
// NEAREST:      0 0 1 1
// NEAREST-NEXT: 0 0 1 1
// NEAREST-NEXT: 2 2 3 3
// NEAREST-NEXT: 2 2 3 3
module attributes {npu.target = #npu.target<"default">} {
  func.func @up(%x: tensor<1x2x2x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>
      attributes {tf.entry_function = {inputs = "x", outputs = "y"}} {
    %y = npu.resize_bilinear %x : (tensor<1x2x2x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>
    return %y : tensor<1x4x4x1x!quant.uniform<i8:f32, 0.5>>
  }
}
