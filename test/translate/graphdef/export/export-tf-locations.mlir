// RUN: kiln-translate --export-graphdef %s | FileCheck %s

// TensorFlow's converter (tf.mlir.experimental.convert_graph_def with debug
// info) fuses `<op type>:` before a node's name; the node keeps its name,
// not the op type's.

// CHECK-LABEL:  name: "model/dense/MatMul"
// CHECK-NEXT:   op: "MatMul"
// CHECK-LABEL:  name: "Identity"
// CHECK-NEXT:   op: "Identity"
// CHECK-NEXT:   input: "model/dense/MatMul"

#loc1 = loc("MatMul:")
#loc2 = loc("model/dense/MatMul")
#loc3 = loc("Identity:")
#loc4 = loc("Identity")
module {
  func.func @main(%arg0: tensor<1x2xf32>, %arg1: tensor<2x2xf32>) -> tensor<1x2xf32> attributes {tf.entry_function = {control_outputs = "", inputs = "x,w", outputs = "Identity:0"}} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.MatMul"(%arg0, %arg1) <{transpose_a = false, transpose_b = false}> {device = ""} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32> loc(fused[#loc1, #loc2])
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Identity"(%outputs) {device = ""} : (tensor<1x2xf32>) -> tensor<1x2xf32> loc(fused[#loc3, #loc4])
      tf_executor.fetch %outputs_0 : tensor<1x2xf32>
    }
    return %0 : tensor<1x2xf32>
  }
}
