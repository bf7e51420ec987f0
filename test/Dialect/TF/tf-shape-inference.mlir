// RUN: kiln-opt %s -split-input-file --tf-shape-inference | FileCheck %s

// Static argument shapes flow through element-wise and broadcasting ops and
// into the function's result types.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    -> tensor<4x3xf32>
// CHECK:         "tf.Neg"(%{{.+}}) : (tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK:         "tf.AddV2"(%{{.+}}, %{{.+}}) : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
func.func @elementwise(%a: tensor<4x1xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  %0 = "tf.Neg"(%a) : (tensor<4x1xf32>) -> tensor<*xf32>
  %1 = "tf.AddV2"(%0, %b) : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// Constant operands decide shapes: a Reshape with -1.
// CHECK-LABEL: func.func @reshape
// CHECK:         "tf.Reshape"(%{{.+}}, %{{.+}}) : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<6x4xf32>
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %shape = "tf.Const"() {value = dense<[-1, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%x, %shape) : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Types flow through islands and out of the graph.
// CHECK-LABEL: func.func @through_islands
// CHECK-SAME:    -> tensor<5xi32>
// CHECK:         %[[G:.+]] = tf_executor.graph
// CHECK:           tf_executor.island wraps "tf.Neg"(%{{.+}}) : (tensor<5xi32>) -> tensor<5xi32>
// CHECK:           tf_executor.island wraps "tf.Abs"(%{{.+}}) : (tensor<5xi32>) -> tensor<5xi32>
// CHECK:           tf_executor.fetch %{{.+}} : tensor<5xi32>
func.func @through_islands(%x: tensor<5xi32>) -> tensor<*xi32> {
  %g = tf_executor.graph {
    %n, %nc = tf_executor.island wraps "tf.Neg"(%x) : (tensor<5xi32>) -> tensor<*xi32>
    %a, %ac = tf_executor.island wraps "tf.Abs"(%n) : (tensor<*xi32>) -> tensor<*xi32>
    tf_executor.fetch %a : tensor<*xi32>
  }
  return %g : tensor<*xi32>
}

// -----

// Unknown dimensions stay dynamic; what is known is kept.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK:         "tf.AddV2"(%{{.+}}, %{{.+}}) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
func.func @dynamic_batch(%x: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<*xf32> {
  %0 = "tf.AddV2"(%x, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
