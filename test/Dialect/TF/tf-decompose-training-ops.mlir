// RUN: kiln-opt %s -split-input-file --tf-decompose-training-ops | FileCheck %s

// CHECK-LABEL: func.func @relu_grad
// CHECK-SAME:    (%[[G:.+]]: tensor<2x3xf32>, %[[F:.+]]: tensor<2x3xf32>)
// CHECK:         %[[Z:.+]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}>
// CHECK:         %[[P:.+]] = "tf.Greater"(%[[F]], %[[Z]])
// CHECK:         %[[R:.+]] = "tf.SelectV2"(%[[P]], %[[G]], %{{.+}}) : (tensor<*xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK:         return %[[R]]
func.func @relu_grad(%g: tensor<2x3xf32>, %f: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "tf.ReluGrad"(%g, %f) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Multiplication by the constant is commutative: canonical order puts it
// second.
// CHECK-LABEL: func.func @rsqrt_grad
// CHECK-SAME:    (%[[Y:.+]]: tensor<3xf32>, %[[DY:.+]]: tensor<3xf32>)
// CHECK-DAG:     %[[H:.+]] = "tf.Const"() <{value = dense<-5.000000e-01> : tensor<f32>}>
// CHECK-DAG:     %[[A:.+]] = "tf.Mul"(%[[DY]], %[[Y]])
// CHECK-DAG:     %[[B:.+]] = "tf.Mul"(%[[A]], %[[H]])
// CHECK-DAG:     %[[C:.+]] = "tf.Mul"(%[[Y]], %[[Y]])
// CHECK:         %[[R:.+]] = "tf.Mul"(%[[B]], %[[C]]) {{.+}} -> tensor<3xf32>
// CHECK:         return %[[R]]
func.func @rsqrt_grad(%y: tensor<3xf32>, %dy: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "tf.RsqrtGrad"(%y, %dy) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_cross_entropy
// CHECK-SAME:    (%[[X:.+]]: tensor<4x3xf32>, %[[L:.+]]: tensor<4x3xf32>)
// CHECK:         %[[M:.+]] = "tf.Max"(%[[X]], %{{.+}}) <{keep_dims = true}>
// CHECK:         %[[S:.+]] = "tf.Sub"(%[[X]], %[[M]])
// CHECK:         %[[E:.+]] = "tf.Exp"(%[[S]])
// CHECK:         %[[Z:.+]] = "tf.Sum"(%[[E]], %{{.+}}) <{keep_dims = true}>
// CHECK:         %[[LZ:.+]] = "tf.Log"(%[[Z]])
// CHECK:         %[[D:.+]] = "tf.Sub"(%[[LZ]], %[[S]])
// CHECK:         %[[T:.+]] = "tf.Mul"(%[[L]], %[[D]])
// CHECK:         %[[LOSS:.+]] = "tf.Sum"(%[[T]], %{{.+}}) <{keep_dims = false}>
// CHECK:         %[[P:.+]] = "tf.RealDiv"(%[[E]], %[[Z]])
// CHECK:         %[[B:.+]] = "tf.Sub"(%[[P]], %[[L]])
// CHECK:         return %[[LOSS]], %[[B]]
func.func @softmax_cross_entropy(%x: tensor<4x3xf32>, %l: tensor<4x3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0:2 = "tf.SoftmaxCrossEntropyWithLogits"(%x, %l) : (tensor<4x3xf32>, tensor<4x3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @shape_n
// CHECK-SAME:    (%[[A:.+]]: tensor<?x3xf32>, %[[B:.+]]: tensor<?xf32>)
// CHECK:         %[[SA:.+]] = "tf.Shape"(%[[A]]) : (tensor<?x3xf32>) -> tensor<2xi32>
// CHECK:         %[[SB:.+]] = "tf.Shape"(%[[B]]) : (tensor<?xf32>) -> tensor<1xi32>
// CHECK:         return %[[SA]], %[[SB]]
func.func @shape_n(%a: tensor<?x3xf32>, %b: tensor<?xf32>) -> (tensor<2xi32>, tensor<1xi32>) {
  %0:2 = "tf.ShapeN"(%a, %b) : (tensor<?x3xf32>, tensor<?xf32>) -> (tensor<2xi32>, tensor<1xi32>)
  return %0#0, %0#1 : tensor<2xi32>, tensor<1xi32>
}

// -----

// CHECK-LABEL: func.func @bias_add_grad
// CHECK:         %[[AX:.+]] = "tf.Const"() <{value = dense<[0, 1, 2]> : tensor<3xi32>}>
// CHECK:         %[[S:.+]] = "tf.Sum"(%{{.+}}, %[[AX]]) <{keep_dims = false}> : (tensor<2x4x4x8xf32>, tensor<3xi32>) -> tensor<8xf32>
// CHECK:         return %[[S]]
func.func @bias_add_grad(%dy: tensor<2x4x4x8xf32>) -> tensor<8xf32> {
  %0 = "tf.BiasAddGrad"(%dy) : (tensor<2x4x4x8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// NCHW: the channel is dimension 1.
// CHECK-LABEL: func.func @bias_add_grad_nchw
// CHECK:         "tf.Const"() <{value = dense<[0, 2, 3]> : tensor<3xi32>}>
func.func @bias_add_grad_nchw(%dy: tensor<2x8x4x4xf32>) -> tensor<8xf32> {
  %0 = "tf.BiasAddGrad"(%dy) {data_format = "NCHW"} : (tensor<2x8x4x4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @apply_gradient_descent
// CHECK-SAME:    (%[[H:.+]]: tensor<!tf_type.resource<tensor<3xf32>>>, %[[A:.+]]: tensor<f32>, %[[D:.+]]: tensor<3xf32>)
// CHECK:         %[[V:.+]] = "tf.ReadVariableOp"(%[[H]]) : (tensor<!tf_type.resource<tensor<3xf32>>>) -> tensor<3xf32>
// CHECK:         %[[S:.+]] = "tf.Mul"(%[[D]], %[[A]])
// CHECK:         %[[N:.+]] = "tf.Sub"(%[[V]], %[[S]])
// CHECK:         "tf.AssignVariableOp"(%[[H]], %[[N]])
// CHECK-NOT:     tf.ResourceApplyGradientDescent
func.func @apply_gradient_descent(%h: tensor<!tf_type.resource<tensor<3xf32>>>, %alpha: tensor<f32>, %delta: tensor<3xf32>) {
  "tf.ResourceApplyGradientDescent"(%h, %alpha, %delta) : (tensor<!tf_type.resource<tensor<3xf32>>>, tensor<f32>, tensor<3xf32>) -> ()
  return
}

// -----

// The moments first (m, then v), the variable last, each read before any
// assignment.
// CHECK-LABEL: func.func @apply_adam
// CHECK-SAME:    (%[[VAR:[^:]+]]: {{[^,]+}}, %[[M:[^:]+]]: {{[^,]+}}, %[[V:[^:]+]]: {{[^,]+}}, %[[B1P:[^:]+]]: tensor<f32>, %[[B2P:[^:]+]]: tensor<f32>, %[[LR:[^:]+]]: tensor<f32>, %[[B1:[^:]+]]: tensor<f32>, %[[B2:[^:]+]]: tensor<f32>, %[[EPS:[^:]+]]: tensor<f32>, %[[G:[^:]+]]: tensor<3xf32>)
// CHECK-DAG:     %[[ONE:.+]] = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK-DAG:     %[[Q2:.+]] = "tf.Sub"(%[[ONE]], %[[B2P]])
// CHECK-DAG:     %[[SQ:.+]] = "tf.Sqrt"(%[[Q2]])
// CHECK-DAG:     %[[NUM:.+]] = "tf.Mul"(%[[LR]], %[[SQ]])
// CHECK-DAG:     %[[Q1:.+]] = "tf.Sub"(%[[ONE]], %[[B1P]])
// CHECK-DAG:     %[[ALPHA:.+]] = "tf.RealDiv"(%[[NUM]], %[[Q1]])
// CHECK-DAG:     %[[RM:.+]] = "tf.ReadVariableOp"(%[[M]])
// CHECK-DAG:     %[[RV:.+]] = "tf.ReadVariableOp"(%[[V]])
// CHECK-DAG:     %[[RVAR:.+]] = "tf.ReadVariableOp"(%[[VAR]])
// CHECK-DAG:     %[[OMB1:.+]] = "tf.Sub"(%[[ONE]], %[[B1]])
// CHECK-DAG:     %[[DM:.+]] = "tf.Sub"(%[[G]], %[[RM]])
// CHECK-DAG:     %[[SM:.+]] = "tf.Mul"(%[[DM]], %[[OMB1]])
// CHECK-DAG:     %[[NM:.+]] = "tf.AddV2"(%[[RM]], %[[SM]])
// CHECK-DAG:     %[[OMB2:.+]] = "tf.Sub"(%[[ONE]], %[[B2]])
// CHECK-DAG:     %[[G2:.+]] = "tf.Mul"(%[[G]], %[[G]])
// CHECK-DAG:     %[[DV:.+]] = "tf.Sub"(%[[G2]], %[[RV]])
// CHECK-DAG:     %[[SV:.+]] = "tf.Mul"(%[[DV]], %[[OMB2]])
// CHECK-DAG:     %[[NV:.+]] = "tf.AddV2"(%[[RV]], %[[SV]])
// CHECK:         "tf.AssignVariableOp"(%[[M]], %[[NM]])
// CHECK-NEXT:    "tf.AssignVariableOp"(%[[V]], %[[NV]])
// CHECK-DAG:     %[[STEP:.+]] = "tf.Mul"(%[[NM]], %[[ALPHA]])
// CHECK-DAG:     %[[ROOT:.+]] = "tf.Sqrt"(%[[NV]])
// CHECK-DAG:     %[[DEN:.+]] = "tf.AddV2"(%[[ROOT]], %[[EPS]])
// CHECK:         %[[UPD:.+]] = "tf.RealDiv"(%[[STEP]], %[[DEN]])
// CHECK:         %[[NEW:.+]] = "tf.Sub"(%[[RVAR]], %[[UPD]])
// CHECK:         "tf.AssignVariableOp"(%[[VAR]], %[[NEW]])
func.func @apply_adam(%var: tensor<!tf_type.resource<tensor<3xf32>>>, %m: tensor<!tf_type.resource<tensor<3xf32>>>, %v: tensor<!tf_type.resource<tensor<3xf32>>>, %b1p: tensor<f32>, %b2p: tensor<f32>, %lr: tensor<f32>, %b1: tensor<f32>, %b2: tensor<f32>, %eps: tensor<f32>, %g: tensor<3xf32>) {
  "tf.ResourceApplyAdam"(%var, %m, %v, %b1p, %b2p, %lr, %b1, %b2, %eps, %g) : (tensor<!tf_type.resource<tensor<3xf32>>>, tensor<!tf_type.resource<tensor<3xf32>>>, tensor<!tf_type.resource<tensor<3xf32>>>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<3xf32>) -> ()
  return
}

// -----

// Nesterov: the numerator is (grad * (1 - beta1) + beta1 * m) * alpha.
// CHECK-LABEL: func.func @apply_adam_nesterov
// CHECK-SAME:    %[[B1:[^:]+]]: tensor<f32>, %[[B2:[^:]+]]: tensor<f32>, %[[EPS:[^:]+]]: tensor<f32>, %[[G:[^:]+]]: tensor<3xf32>)
// CHECK-DAG:     %[[OMB1:.+]] = "tf.Sub"(%{{.+}}, %[[B1]]) :
// CHECK-DAG:     %[[GT:.+]] = "tf.Mul"(%[[G]], %[[OMB1]])
// CHECK-DAG:     %[[MT:.+]] = "tf.Mul"(%[[B1]], %[[NM:.+]]) :
// CHECK-DAG:     %[[S:.+]] = "tf.AddV2"(%[[GT]], %[[MT]])
// CHECK-DAG:     "tf.Mul"(%[[S]], %{{.+}})
func.func @apply_adam_nesterov(%var: tensor<!tf_type.resource<tensor<3xf32>>>, %m: tensor<!tf_type.resource<tensor<3xf32>>>, %v: tensor<!tf_type.resource<tensor<3xf32>>>, %b1p: tensor<f32>, %b2p: tensor<f32>, %lr: tensor<f32>, %b1: tensor<f32>, %b2: tensor<f32>, %eps: tensor<f32>, %g: tensor<3xf32>) {
  "tf.ResourceApplyAdam"(%var, %m, %v, %b1p, %b2p, %lr, %b1, %b2, %eps, %g) {use_nesterov = true} : (tensor<!tf_type.resource<tensor<3xf32>>>, tensor<!tf_type.resource<tensor<3xf32>>>, tensor<!tf_type.resource<tensor<3xf32>>>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<3xf32>) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @assign_add_sub
// CHECK-SAME:    (%[[H:.+]]: tensor<!tf_type.resource<tensor<2xf32>>>, %[[X:.+]]: tensor<2xf32>)
// CHECK:         %[[A:.+]] = "tf.ReadVariableOp"(%[[H]])
// CHECK:         %[[S:.+]] = "tf.AddV2"(%[[A]], %[[X]])
// CHECK:         "tf.AssignVariableOp"(%[[H]], %[[S]])
// CHECK:         %[[B:.+]] = "tf.ReadVariableOp"(%[[H]])
// CHECK:         %[[D:.+]] = "tf.Sub"(%[[B]], %[[X]])
// CHECK:         "tf.AssignVariableOp"(%[[H]], %[[D]])
func.func @assign_add_sub(%h: tensor<!tf_type.resource<tensor<2xf32>>>, %x: tensor<2xf32>) {
  "tf.AssignAddVariableOp"(%h, %x) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  "tf.AssignSubVariableOp"(%h, %x) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  return
}

// -----

// Training batch norm: batch mean, biased variance; batch_variance is the
// unbiased one (2 * 2 * 2 = 8 elements per channel: factor 8 / 7).
// CHECK-LABEL: func.func @batch_norm_training
// CHECK-SAME:    (%[[X:.+]]: tensor<2x2x2x3xf32>, %[[SC:.+]]: tensor<3xf32>, %[[OF:.+]]: tensor<3xf32>,
// CHECK-DAG:     %[[EMPTY:.+]] = "tf.Const"() <{value = dense<> : tensor<0xf32>}>
// CHECK-DAG:     %[[ADJ:.+]] = "tf.Const"() <{value = dense<1.14285719> : tensor<f32>}>
// CHECK-DAG:     %[[EPS:.+]] = "tf.Const"() <{value = dense<1.000000e-03> : tensor<f32>}>
// CHECK-DAG:     %[[AX:.+]] = "tf.Const"() <{value = dense<[0, 1, 2]> : tensor<3xi32>}>
// CHECK:         %[[MEAN:.+]] = "tf.Mean"(%[[X]], %[[AX]]) <{keep_dims = false}>
// CHECK:         %[[C:.+]] = "tf.Sub"(%[[X]], %[[MEAN]])
// CHECK:         %[[SQ:.+]] = "tf.Mul"(%[[C]], %[[C]])
// CHECK:         %[[VAR:.+]] = "tf.Mean"(%[[SQ]], %[[AX]]) <{keep_dims = false}>
// CHECK:         %[[VE:.+]] = "tf.AddV2"(%[[VAR]], %[[EPS]])
// CHECK:         %[[RS:.+]] = "tf.Rsqrt"(%[[VE]])
// CHECK:         %[[F:.+]] = "tf.Mul"(%[[RS]], %[[SC]])
// CHECK:         %[[XF:.+]] = "tf.Mul"(%[[C]], %[[F]])
// CHECK:         %[[Y:.+]] = "tf.AddV2"(%[[XF]], %[[OF]])
// CHECK:         %[[UNB:.+]] = "tf.Mul"(%[[VAR]], %[[ADJ]])
// CHECK:         %[[R3:.+]] = "tf.Identity"(%[[EMPTY]]) : (tensor<0xf32>) -> tensor<*xf32>
// CHECK:         return %[[Y]], %[[MEAN]], %[[UNB]], %[[MEAN]], %[[VAR]], %[[R3]]
func.func @batch_norm_training(%x: tensor<2x2x2x3xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>, %mean: tensor<0xf32>, %var: tensor<0xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0:6 = "tf.FusedBatchNormV3"(%x, %scale, %offset, %mean, %var) {epsilon = 0.001 : f32, is_training = true} : (tensor<2x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<0xf32>, tensor<0xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// An exponential_avg_factor below 1 blends the given statistics in.
// CHECK-LABEL: func.func @batch_norm_training_average
// CHECK-SAME:    %[[OLD:[^:]+]]: tensor<3xf32>, %{{[^:]+}}: tensor<3xf32>)
// CHECK-DAG:     %[[KEEP:.+]] = "tf.Const"() <{value = dense<7.500000e-01> : tensor<f32>}>
// CHECK-DAG:     %[[TAKE:.+]] = "tf.Const"() <{value = dense<2.500000e-01> : tensor<f32>}>
// CHECK-DAG:     %[[A:.+]] = "tf.Mul"(%[[OLD]], %[[KEEP]])
// CHECK-DAG:     %[[B:.+]] = "tf.Mul"(%[[NEW:.+]], %[[TAKE]])
// CHECK:         %[[R:.+]] = "tf.AddV2"(%[[A]], %[[B]])
// CHECK:         return %[[R]]
func.func @batch_norm_training_average(%x: tensor<2x2x2x3xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>) -> tensor<*xf32> {
  %0:6 = "tf.FusedBatchNormV3"(%x, %scale, %offset, %mean, %var) {epsilon = 0.001 : f32, exponential_avg_factor = 0.25 : f32, is_training = true} : (tensor<2x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#1 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @batch_norm_grad_training
// CHECK-SAME:    (%[[DY:.+]]: tensor<2x2x2x3xf32>, %[[X:.+]]: tensor<2x2x2x3xf32>, %[[SC:.+]]: tensor<3xf32>, %[[M:.+]]: tensor<3xf32>, %[[V:.+]]: tensor<3xf32>,
// CHECK-DAG:     %[[INV:.+]] = "tf.Const"() <{value = dense<1.250000e-01> : tensor<f32>}>
// CHECK-DAG:     %[[EPS:.+]] = "tf.Const"() <{value = dense<1.000000e-03> : tensor<f32>}>
// CHECK-DAG:     %[[VE:.+]] = "tf.AddV2"(%[[V]], %[[EPS]])
// CHECK-DAG:     %[[C:.+]] = "tf.Rsqrt"(%[[VE]])
// CHECK-DAG:     %[[XC:.+]] = "tf.Sub"(%[[X]], %[[M]])
// CHECK-DAG:     %[[DB:.+]] = "tf.Sum"(%[[DY]], %{{.+}}) <{keep_dims = false}>
// CHECK-DAG:     %[[P:.+]] = "tf.Mul"(%[[DY]], %[[XC]])
// CHECK-DAG:     %[[S1:.+]] = "tf.Sum"(%[[P]], %{{.+}}) <{keep_dims = false}>
// CHECK-DAG:     %[[DS:.+]] = "tf.Mul"(%[[S1]], %[[C]])
// CHECK-DAG:     %[[COEF:.+]] = "tf.Mul"(%[[SC]], %[[C]])
// CHECK-DAG:     %[[DYM:.+]] = "tf.Mul"(%[[DB]], %[[INV]])
// CHECK-DAG:     %[[S1M:.+]] = "tf.Mul"(%[[S1]], %[[INV]])
// CHECK-DAG:     %[[T:.+]] = "tf.Mul"(%[[XC]], %[[S1M]])
// CHECK-DAG:     %[[CC:.+]] = "tf.Mul"(%[[C]], %[[C]])
// CHECK-DAG:     %[[PROJ:.+]] = "tf.Mul"(%[[T]], %[[CC]])
// CHECK-DAG:     %[[D1:.+]] = "tf.Sub"(%[[DY]], %[[DYM]])
// CHECK-DAG:     %[[D2:.+]] = "tf.Sub"(%[[D1]], %[[PROJ]])
// CHECK:         %[[DX:.+]] = "tf.Mul"(%[[COEF]], %[[D2]])
// CHECK:         return %[[DX]], %[[DS]], %[[DB]]
func.func @batch_norm_grad_training(%dy: tensor<2x2x2x3xf32>, %x: tensor<2x2x2x3xf32>, %scale: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %r: tensor<0xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0:5 = "tf.FusedBatchNormGradV3"(%dy, %x, %scale, %m, %v, %r) {epsilon = 0.001 : f32, is_training = true} : (tensor<2x2x2x3xf32>, tensor<2x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<0xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0, %0#1, %0#2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Inference: dx = dy * (scale * rsqrt(variance + epsilon)).
// CHECK-LABEL: func.func @batch_norm_grad_inference
// CHECK:         %[[COEF:.+]] = "tf.Mul"(%{{.+}}, %{{.+}}) : (tensor<3xf32>, tensor<*xf32>)
// CHECK-NEXT:    %[[DX:.+]] = "tf.Mul"(%[[DY:.+]], %[[COEF]])
// CHECK:         return %[[DX]]
func.func @batch_norm_grad_inference(%dy: tensor<2x2x2x3xf32>, %x: tensor<2x2x2x3xf32>, %scale: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %r: tensor<0xf32>) -> tensor<*xf32> {
  %0:5 = "tf.FusedBatchNormGradV3"(%dy, %x, %scale, %m, %v, %r) {epsilon = 0.001 : f32, is_training = false} : (tensor<2x2x2x3xf32>, tensor<2x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<0xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

// An inference batch norm whose reserve spaces feed a gradient: they become
// the given mean and variance, and the op stays for tf-decompose-fused-ops.
// CHECK-LABEL: func.func @batch_norm_inference_reserves
// CHECK-SAME:    %[[M:[^:]+]]: tensor<3xf32>, %[[V:[^:]+]]: tensor<3xf32>)
// CHECK:         %[[Y:[^,]+]], {{.+}} = "tf.FusedBatchNormV3"
// CHECK:         return %[[Y]], %[[M]], %[[V]]
func.func @batch_norm_inference_reserves(%x: tensor<2x2x2x3xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>) -> (tensor<*xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:6 = "tf.FusedBatchNormV3"(%x, %scale, %offset, %mean, %var) {epsilon = 0.001 : f32, is_training = false} : (tensor<2x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<3xf32>, tensor<3xf32>, tensor<*xf32>)
  return %0#0, %0#3, %0#4 : tensor<*xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// Left alone: NCHW batch norm gradient (the unsupported-op report names it).
// CHECK-LABEL: func.func @batch_norm_grad_nchw
// CHECK:         "tf.FusedBatchNormGradV3"
func.func @batch_norm_grad_nchw(%dy: tensor<2x3x2x2xf32>, %x: tensor<2x3x2x2xf32>, %scale: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>, %r: tensor<0xf32>) -> tensor<*xf32> {
  %0:5 = "tf.FusedBatchNormGradV3"(%dy, %x, %scale, %m, %v, %r) {data_format = "NCHW", is_training = true} : (tensor<2x3x2x2xf32>, tensor<2x3x2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<0xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @log_softmax
// CHECK-SAME:    (%[[X:.+]]: tensor<2x5xf32>)
// CHECK:         %[[AX:.+]] = "tf.Const"() <{value = dense<1> : tensor<1xi32>}>
// CHECK:         %[[M:.+]] = "tf.Max"(%[[X]], %[[AX]]) <{keep_dims = true}>
// CHECK:         %[[S:.+]] = "tf.Sub"(%[[X]], %[[M]])
// CHECK:         %[[E:.+]] = "tf.Exp"(%[[S]])
// CHECK:         %[[Z:.+]] = "tf.Sum"(%[[E]], %{{.+}}) <{keep_dims = true}>
// CHECK:         %[[L:.+]] = "tf.Log"(%[[Z]])
// CHECK:         %[[R:.+]] = "tf.Sub"(%[[S]], %[[L]]) : (tensor<*xf32>, tensor<*xf32>) -> tensor<2x5xf32>
// CHECK:         return %[[R]]
func.func @log_softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = "tf.LogSoftmax"(%x) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// TanhGrad(y, dy) = dy * (1 - y * y); SigmoidGrad(y, dy) = (dy * y) * (1 - y).
// Neither is in the op list: they are unregistered tf ops, matched by name.
// CHECK-LABEL: func.func @activation_grads
// CHECK-SAME:    (%[[Y:.+]]: tensor<3xf32>, %[[DY:.+]]: tensor<3xf32>)
// CHECK-DAG:     %[[ONE:.+]] = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}>
// CHECK-DAG:     %[[YY:.+]] = "tf.Mul"(%[[Y]], %[[Y]])
// CHECK-DAG:     %[[T:.+]] = "tf.Sub"(%[[ONE]], %[[YY]])
// CHECK-DAG:     %[[TANH:.+]] = "tf.Mul"(%[[DY]], %[[T]]) {{.*}} -> tensor<3xf32>
// CHECK-DAG:     %[[DYY:.+]] = "tf.Mul"(%[[DY]], %[[Y]])
// CHECK-DAG:     %[[S:.+]] = "tf.Sub"(%{{.+}}, %[[Y]])
// CHECK-DAG:     %[[SIG:.+]] = "tf.Mul"(%[[DYY]], %[[S]]) {{.*}} -> tensor<3xf32>
// CHECK:         return %[[TANH]], %[[SIG]]
func.func @activation_grads(%y: tensor<3xf32>, %dy: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %0 = "tf.TanhGrad"(%y, %dy) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = "tf.SigmoidGrad"(%y, %dy) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// InvertPermutation of a constant folds: q[p[i]] = i.
// CHECK-LABEL: func.func @invert_permutation
// CHECK:         %[[Q:.+]] = "tf.Const"() <{value = dense<[2, 0, 1]> : tensor<3xi32>}>
// CHECK:         return %[[Q]]
func.func @invert_permutation() -> tensor<3xi32> {
  %p = "tf.Const"() {value = dense<[1, 2, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.InvertPermutation"(%p) : (tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
