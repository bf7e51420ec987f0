// RUN: kiln-opt %s -split-input-file --tf-decompose-tensor-arrays | FileCheck %s

// The gradient of dynamic_rnn's output array, as TensorFlow builds it: after
// the forward loop, TensorArrayGradV3 of the array (from its final flow)
// makes the gradient array, zeros, and a scatter of every element adds the
// incoming gradient %dy to it; the backward loop carries its flow, calls
// TensorArrayGradV3 again (the same array: the flow passes through) and
// reads element k. A second write to the gradient array adds to the element.
// CHECK-LABEL: func.func @output_gradient
// CHECK-SAME:    (%[[X:.+]]: tensor<2xf32>, %[[DY:.+]]: tensor<3x2xf32>)
// CHECK-NOT:     tf.TensorArray
// CHECK:         %[[ZEROS:.+]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<3x2xf32>}>
// CHECK:         %[[F:.+]]:2 = "tf.WhileRegion"(%{{.+}}, %[[ZEROS]])
// CHECK:         %[[GZEROS:.+]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<3x2xf32>}>
// CHECK:         %[[G:.+]] = "tf.AddV2"(%[[GZEROS]], %[[DY]]) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK:         %[[B:.+]]:3 = "tf.WhileRegion"(%{{.+}}, %[[G]], %{{.+}})
// CHECK:         "tf.Greater"
// CHECK:         ^bb0(%[[K:.+]]: tensor<i32>, %[[GF:.+]]: tensor<3x2xf32>, %[[S:.+]]: tensor<2xf32>):
// CHECK:           %[[K1:.+]] = "tf.Sub"(%[[K]],
// CHECK:           %[[R:.+]] = "tf.GatherV2"(%[[GF]], %[[K1]], %{{.+}}) <{batch_dims = 0 : i64}> : (tensor<3x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
// CHECK:           %[[SUM:.+]] = "tf.AddV2"(%[[GF]], %[[R]]) : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
// CHECK:           %[[W:.+]] = "tf.SelectV2"(%{{.+}}, %[[SUM]], %[[GF]])
// CHECK:           "tf.Yield"(%{{.+}}, %[[W]], %{{.+}})
// CHECK:         return %[[B]]#2 :
func.func @output_gradient(%x: tensor<2xf32>, %dy: tensor<3x2xf32>) -> tensor<2xf32> {
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %zs = "tf.Const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %all = "tf.Const"() {value = dense<[0, 1, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %r:2 = "tf.WhileRegion"(%zero, %flow) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%i: tensor<i32>, %f: tensor<f32>):
    %c = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %f: tensor<f32>):
    %f1 = "tf.TensorArrayWriteV3"(%h, %i, %x, %f) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next, %f1) : (tensor<i32>, tensor<f32>) -> ()
  }) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  %gh, %gflow = "tf.TensorArrayGradV3"(%h, %r#1) {source = "gradients"} : (tensor<2x!tf_type.resource>, tensor<f32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %gs = "tf.TensorArrayScatterV3"(%gh, %all, %dy, %gflow) : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<3x2xf32>, tensor<f32>) -> tensor<f32>
  %b:3 = "tf.WhileRegion"(%r#0, %gs, %zs) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%k: tensor<i32>, %g: tensor<f32>, %s: tensor<2xf32>):
    %c = "tf.Greater"(%k, %zero) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%k: tensor<i32>, %g: tensor<f32>, %s: tensor<2xf32>):
    %k1 = "tf.Sub"(%k, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %lh, %lflow = "tf.TensorArrayGradV3"(%h, %g) {source = "gradients"} : (tensor<2x!tf_type.resource>, tensor<f32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
    %v = "tf.TensorArrayReadV3"(%lh, %k1, %lflow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<2xf32>
    %s1 = "tf.AddV2"(%s, %v) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %w = "tf.TensorArrayWriteV3"(%lh, %k1, %v, %lflow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%k1, %w, %s1) : (tensor<i32>, tensor<f32>, tensor<2xf32>) -> ()
  }) : (tensor<i32>, tensor<f32>, tensor<2xf32>) -> (tensor<i32>, tensor<f32>, tensor<2xf32>)
  return %b#2 : tensor<2xf32>
}

// -----

// As TensorArray.grad builds it: the gradient array's scatter is ordered
// through an identity of the forward array's flow, not through the
// TensorArrayGradV3's own flow; it still adds to the gradient array's zeros,
// not to the forward array's elements.
// CHECK-LABEL: func.func @scatter_through_forward_flow
// CHECK-SAME:    (%[[X:.+]]: tensor<3x2xf32>, %[[DY:.+]]: tensor<3x2xf32>)
// CHECK:         %[[GZEROS:.+]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<3x2xf32>}>
// CHECK:         %[[G:.+]] = "tf.AddV2"(%[[GZEROS]], %[[DY]])
// CHECK:         return %[[G]]
func.func @scatter_through_forward_flow(%x: tensor<3x2xf32>, %dy: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %all = "tf.Const"() {value = dense<[0, 1, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %f = "tf.TensorArrayScatterV3"(%h, %all, %x, %flow) : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<3x2xf32>, tensor<f32>) -> tensor<f32>
  %gh, %unused = "tf.TensorArrayGradV3"(%h, %f) {source = "gradients"} : (tensor<2x!tf_type.resource>, tensor<f32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %gflow = "tf.Identity"(%f) : (tensor<f32>) -> tensor<f32>
  %gs = "tf.TensorArrayScatterV3"(%gh, %all, %dy, %gflow) : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<3x2xf32>, tensor<f32>) -> tensor<f32>
  %r = "tf.TensorArrayGatherV3"(%gh, %all, %gs) {element_shape = #tf_type.shape<2>} : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<f32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
