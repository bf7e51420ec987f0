// Calibration: observe-npu-ranges returns the tensors the int8 segment
// quantises (the argument, the convolution's output after its folded bias
// and Relu, the add; not the Sigmoid, whose quantisation is fixed), the
// CPU runs them on seeded and on .npy inputs, and kiln-npu-calibrate reduces
// them to the ranges file, which convert-tf-to-npu precision=int8 reads.
// The file is the same for the same runs, in any order and on a second
// calibration.

// RUN: rm -rf %t && mkdir -p %t
// RUN: kiln-opt %s --observe-npu-ranges -o %t/observed.mlir
// RUN: FileCheck %s --check-prefix=OBS < %t/observed.mlir
// RUN: kiln-run %t/observed.mlir --seed=0 --output-dir=%t/s0
// RUN: kiln-run %t/observed.mlir --seed=1 --float-range=-1,1 --output-dir=%t/s1
// RUN: kiln-run %t/observed.mlir --input=%t/s0/input_0.npy --output-dir=%t/npy
// RUN: kiln-npu-calibrate %t/observed.mlir --runs=%t/s0,%t/s1 -o %t/a.json
// RUN: kiln-npu-calibrate %t/observed.mlir --runs=%t/s1,%t/s0 -o %t/b.json
// RUN: kiln-npu-calibrate %t/observed.mlir --runs=%t/s1,%t/npy -o %t/c.json
// RUN: kiln-run %t/observed.mlir --seed=0 --output-dir=%t/again0
// RUN: kiln-run %t/observed.mlir --seed=1 --float-range=-1,1 --output-dir=%t/again1
// RUN: kiln-npu-calibrate %t/observed.mlir --runs=%t/again0,%t/again1 -o %t/d.json
// RUN: cmp %t/a.json %t/b.json
// RUN: cmp %t/a.json %t/c.json
// RUN: cmp %t/a.json %t/d.json
// RUN: FileCheck %s --check-prefix=JSON < %t/a.json
// RUN: kiln-opt %s --convert-tf-to-npu="precision=int8 calibration-file=%t/a.json" | FileCheck %s --check-prefix=INT8
// RUN: not kiln-npu-calibrate %s --runs=%t/s0 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: not kiln-npu-calibrate %t/observed.mlir --runs=%t/none 2>&1 | FileCheck %s --check-prefix=NOOUT

// OBS: func.func @main(%{{.+}}: tensor<1x4x4x8xf32>{{.*}}) -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32> {kiln.range_key = "x:0"}, tensor<1x4x4x8xf32> {kiln.range_key = "conv:0"}, tensor<1x4x4x8xf32> {kiln.range_key = "add:0"})
// OBS-SAME: outputs = "add,x:0,conv:0,add:0"

// JSON: {
// JSON-NEXT:   "format": "kiln-npu-ranges",
// JSON-NEXT:   "version": 1,
// JSON-NEXT:   "samples": 2,
// JSON-NEXT:   "ranges": {
// JSON-NEXT:     "add:0": {
// JSON-NEXT:       "min": {{.+}},
// JSON-NEXT:       "max": {{.+}}
// JSON-NEXT:     },
// JSON-NEXT:     "conv:0": {
// JSON-NEXT:       "min": 0,
// JSON:          "x:0": {
// JSON-NEXT:       "min": -{{0\.9.+}},
// JSON-NEXT:       "max": {{0\.9.+}}

// INT8: func.func private @npu_conv
// INT8: npu.conv2d
// INT8: npu.table
// INT8: npu.add

// PLAIN: kiln-npu-calibrate: error: 'main' has no observed results (run observe-npu-ranges first)
// NOOUT: kiln-npu-calibrate: error: {{.*}}none/output_1.npy: No such file or directory

func.func @main(%x: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
    attributes {tf.entry_function = {inputs = "x", outputs = "add"}} {
  %w = "tf.Const"() {value = dense<0.25> : tensor<1x1x8x8xf32>} : () -> tensor<1x1x8x8xf32> loc("w")
  %b = "tf.Const"() {value = dense<-0.5> : tensor<8xf32>} : () -> tensor<8xf32> loc("b")
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x4x4x8xf32> loc("conv")
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<1x4x4x8xf32>, tensor<8xf32>) -> tensor<1x4x4x8xf32> loc("conv")
  %2 = "tf.Relu"(%1) : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> loc("conv")
  %3 = "tf.Sigmoid"(%x) : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> loc("sig")
  %4 = "tf.AddV2"(%2, %3) : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> loc("add")
  return %4 : tensor<1x4x4x8xf32>
}
