// RUN: kiln-opt %s -split-input-file --tf-shape-inference | FileCheck %s

// The shape rules of the training ops (TFShapeInferenceTraining.cpp and the
// shared rules their definitions name).

// CHECK-LABEL: func.func @gradients
// CHECK:         "tf.SoftmaxCrossEntropyWithLogits"({{.+}}) -> (tensor<4xf32>, tensor<4x3xf32>)
// CHECK:         "tf.ReluGrad"({{.+}}) -> tensor<4x3xf32>
// CHECK:         "tf.RsqrtGrad"({{.+}}) -> tensor<4x3xf32>
// CHECK:         "tf.BiasAddGrad"({{.+}}) -> tensor<3xf32>
func.func @gradients(%x: tensor<4x3xf32>, %l: tensor<4x3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0:2 = "tf.SoftmaxCrossEntropyWithLogits"(%x, %l) : (tensor<4x3xf32>, tensor<4x3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  %1 = "tf.ReluGrad"(%0#1, %x) : (tensor<*xf32>, tensor<4x3xf32>) -> tensor<*xf32>
  %2 = "tf.RsqrtGrad"(%1, %x) : (tensor<*xf32>, tensor<4x3xf32>) -> tensor<*xf32>
  %3 = "tf.BiasAddGrad"(%2) : (tensor<*xf32>) -> tensor<*xf32>
  return %0#0, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Labels broadcast against the logits (a row of labels for every example).
// CHECK-LABEL: func.func @cross_entropy_broadcast
// CHECK:         -> (tensor<4xf32>, tensor<4x3xf32>)
func.func @cross_entropy_broadcast(%x: tensor<4x3xf32>, %l: tensor<1x3xf32>) -> tensor<*xf32> {
  %0:2 = "tf.SoftmaxCrossEntropyWithLogits"(%x, %l) : (tensor<4x3xf32>, tensor<1x3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#1 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @bias_add_grad_nchw
// CHECK:         "tf.BiasAddGrad"({{.+}}) <{data_format = "NCHW"}> : (tensor<2x8x4x4xf32>) -> tensor<8xf32>
func.func @bias_add_grad_nchw(%dy: tensor<2x8x4x4xf32>) -> tensor<*xf32> {
  %0 = "tf.BiasAddGrad"(%dy) {data_format = "NCHW"} : (tensor<2x8x4x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @shape_n
// CHECK:         "tf.ShapeN"({{.+}}) : (tensor<2x3xf32>, tensor<*xf32>, tensor<4xf32>) -> (tensor<2xi32>, tensor<?xi32>, tensor<1xi32>)
func.func @shape_n(%a: tensor<2x3xf32>, %b: tensor<*xf32>, %c: tensor<4xf32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) {
  %0:3 = "tf.ShapeN"(%a, %b, %c) : (tensor<2x3xf32>, tensor<*xf32>, tensor<4xf32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>)
  return %0#0, %0#1, %0#2 : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}

// -----

// CHECK-LABEL: func.func @window_gradients
// CHECK:         "tf.Conv2DBackpropFilter"({{.+}}) -> tensor<3x3x2x4xf32>
// CHECK:         "tf.MaxPoolGrad"({{.+}}) -> tensor<1x6x6x4xf32>
func.func @window_gradients(%x: tensor<1x6x6x2xf32>, %dy: tensor<1x6x6x4xf32>, %y: tensor<1x3x3x4xf32>, %dp: tensor<1x3x3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %sizes = "tf.Const"() {value = dense<[3, 3, 2, 4]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "tf.Conv2DBackpropFilter"(%x, %sizes, %dy) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x6x6x2xf32>, tensor<4xi32>, tensor<1x6x6x4xf32>) -> tensor<*xf32>
  %1 = "tf.MaxPoolGrad"(%dy, %y, %dp) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x6x6x4xf32>, tensor<1x3x3x4xf32>, tensor<1x3x3x4xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @batch_norm_grad
// CHECK:         -> (tensor<2x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<0xf32>, tensor<0xf32>)
func.func @batch_norm_grad(%dy: tensor<2x4x4x3xf32>, %x: tensor<2x4x4x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %r: tensor<0xf32>) -> tensor<*xf32> {
  %0:5 = "tf.FusedBatchNormGradV3"(%dy, %x, %s, %m, %v, %r) : (tensor<2x4x4x3xf32>, tensor<2x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<0xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}
