// RUN: kiln-opt %s -split-input-file --tf-decompose-fused-ops | FileCheck %s

// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-SAME:    (%[[X:.+]]: tensor<1x8x8x3xf32>, %[[W:.+]]: tensor<3x3x3x16xf32>, %[[B:.+]]: tensor<16xf32>)
// CHECK:         %[[C:.+]] = "tf.Conv2D"(%[[X]], %[[W]]) <{{{.*}}padding = "SAME"{{.*}}strides = [1, 2, 2, 1]{{.*}}}> {kiln.fused_from = "tf._FusedConv2D"}
// CHECK:         %[[BA:.+]] = "tf.BiasAdd"(%[[C]], %[[B]]) {{.*}}kiln.fused_from = "tf._FusedConv2D"
// CHECK:         %[[R:.+]] = "tf.Relu"(%[[BA]]) {kiln.fused_from = "tf._FusedConv2D"} : (tensor<*xf32>) -> tensor<1x4x4x16xf32>
// CHECK:         return %[[R]]
func.func @conv_bias_relu(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x4x4x16xf32> {
  %0 = "tf._FusedConv2D"(%x, %w, %b) {fused_ops = ["BiasAdd", "Relu"], num_args = 1 : i64, strides = [1, 2, 2, 1], padding = "SAME", data_format = "NHWC", dilations = [1, 1, 1, 1], epsilon = 0.0 : f32} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<16xf32>) -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}

// -----

// Batch norm folded into a depthwise convolution, with Prelu.
// CHECK-LABEL: func.func @depthwise_norm_prelu
// CHECK-DAG:     %[[EPS:.+]] = "tf.Const"() <{value = dense<1.000000e-03> : tensor<f32>}>
// CHECK-DAG:     %[[Z:.+]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}>
// CHECK:         %[[D:.+]] = "tf.DepthwiseConv2dNative"
// CHECK:         %[[VE:.+]] = "tf.AddV2"(%[[VAR:.+]], %[[EPS]])
// CHECK:         %[[RS:.+]] = "tf.Rsqrt"(%[[VE]])
// CHECK:         %[[M:.+]] = "tf.Mul"(%[[SCALE:.+]], %[[RS]])
// CHECK:         %[[XM:.+]] = "tf.Mul"(%[[D]], %[[M]])
// CHECK:         %[[MM:.+]] = "tf.Mul"(%[[MEAN:.+]], %[[M]])
// CHECK:         %[[SH:.+]] = "tf.Sub"(%[[OFF:.+]], %[[MM]])
// CHECK:         %[[N:.+]] = "tf.AddV2"(%[[XM]], %[[SH]])
// CHECK:         %[[POS:.+]] = "tf.Maximum"(%[[N]], %[[Z]])
// CHECK:         %[[NEG:.+]] = "tf.Minimum"(%[[N]], %[[Z]])
// CHECK:         %[[SC:.+]] = "tf.Mul"(%[[ALPHA:.+]], %[[NEG]])
// CHECK:         "tf.AddV2"(%[[POS]], %[[SC]])
// CHECK-NOT:     "tf.FusedDepthwiseConv2dNative"(
func.func @depthwise_norm_prelu(%x: tensor<1x4x4x8xf32>, %w: tensor<3x3x8x1xf32>, %scale: tensor<8xf32>, %off: tensor<8xf32>, %mean: tensor<8xf32>, %var: tensor<8xf32>, %alpha: tensor<8xf32>) -> tensor<1x4x4x8xf32> {
  %0 = "tf.FusedDepthwiseConv2dNative"(%x, %w, %scale, %off, %mean, %var, %alpha) {fused_ops = ["FusedBatchNorm", "Prelu"], num_args = 5 : i64, strides = [1, 1, 1, 1], padding = "SAME", data_format = "NHWC", dilations = [1, 1, 1, 1], epsilon = 0.001 : f32} : (tensor<1x4x4x8xf32>, tensor<3x3x8x1xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_bias
// CHECK:         %[[MM:.+]] = "tf.MatMul"(%{{.+}}, %{{.+}}) <{transpose_a = false, transpose_b = true}>
// CHECK:         "tf.BiasAdd"(%[[MM]], %{{.+}}) {{.*}} -> tensor<2x4xf32>
func.func @matmul_bias(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = "tf._FusedMatMul"(%a, %b, %c) {fused_ops = ["BiasAdd"], num_args = 1 : i64, transpose_a = false, transpose_b = true, epsilon = 0.0 : f32} : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Inference batch norm: the batch statistics are the given mean/variance.
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME:    (%[[X:.+]]: tensor<1x2x2x3xf32>, %[[S:.+]]: tensor<3xf32>, %[[O:.+]]: tensor<3xf32>, %[[MEAN:.+]]: tensor<3xf32>, %[[VAR:.+]]: tensor<3xf32>)
// CHECK:         %[[Y:.+]] = "tf.AddV2"(%{{.+}}, %{{.+}}) {kiln.fused_from = "tf.FusedBatchNormV3"} : (tensor<*xf32>, tensor<*xf32>) -> tensor<1x2x2x3xf32>
// CHECK:         return %[[Y]], %[[MEAN]], %[[VAR]]
func.func @batch_norm(%x: tensor<1x2x2x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %y, %bm, %bv, %r1, %r2, %r3 = "tf.FusedBatchNormV3"(%x, %s, %o, %m, %v) {epsilon = 0.001 : f32, is_training = false, data_format = "NHWC"} : (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %y, %bm, %bv : tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>
}
