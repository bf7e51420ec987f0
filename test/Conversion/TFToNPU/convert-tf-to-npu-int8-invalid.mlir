// A value the int8 segment quantises has no range in the file: the error
// names the node (or the argument) and the key.
// RUN: not kiln-opt %s --convert-tf-to-npu="precision=int8 calibration-file=%S/Inputs/int8-ranges.json" -split-input-file 2>&1 | FileCheck %s

// CHECK: error: {{.*}}'tf.Relu' op result 0 of node 'nope' has no calibrated range: no 'nope:0' in '{{.*}}int8-ranges.json'
func.func @missing_result(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = "tf.Relu"(%x) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("nope")
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// An argument of the segment, named by tf.entry_function.
// CHECK: error: {{.*}}'func.func' op argument 0 has no calibrated range: no 'image:0' in '{{.*}}int8-ranges.json'
func.func @missing_argument(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    attributes {tf.entry_function = {inputs = "image", outputs = "relu"}} {
  %0 = "tf.Relu"(%x) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("relu")
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// The intermediate of a node decomposed into several ops is keyed
// `<node>/<op>`: here the Relu6 of `act` is a table and needs the range of
// the Add of the same node, `act/AddV2:0`.
// CHECK: error: {{.*}}'tf.AddV2' op result 0 of node 'act' has no calibrated range: no 'act/AddV2:0' in
func.func @decomposed(%x: tensor<1x4x4x4xf32>, %y: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = "tf.AddV2"(%x, %y) : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("act")
  %1 = "tf.Relu6"(%0) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("act")
  return %1 : tensor<1x4x4x4xf32>
}
