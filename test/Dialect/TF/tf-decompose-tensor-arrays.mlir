// RUN: kiln-opt %s -split-input-file --tf-decompose-tensor-arrays | FileCheck %s

// A write in a loop and a stack after it (dynamic_rnn's output array): the
// flow becomes a zero buffer carried by the loop, the write a select on an
// iota mask, the stack (a gather of 0..N-1) the buffer itself.
// CHECK-LABEL: func.func @loop_write
// CHECK-SAME:    (%[[X:.+]]: tensor<2xf32>)
// CHECK-NOT:     tf.TensorArray
// CHECK:         %[[ZEROS:.+]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<3x2xf32>}>
// CHECK:         %[[R:.+]]:2 = "tf.WhileRegion"(%{{.+}}, %[[ZEROS]])
// CHECK:         ^bb0(%{{.+}}: tensor<i32>, %{{.+}}: tensor<3x2xf32>):
// CHECK:         ^bb0(%[[I:.+]]: tensor<i32>, %[[B:.+]]: tensor<3x2xf32>):
// CHECK:           %[[IOTA:.+]] = "tf.Const"() <{value = dense<{{\[\[}}0], [1], [2]]> : tensor<3x1xi32>}>
// CHECK:           %[[MASK:.+]] = "tf.Equal"(%[[IOTA]], %[[I]]) {{.*}} -> tensor<3x1xi1>
// CHECK:           %[[W:.+]] = "tf.SelectV2"(%[[MASK]], %[[X]], %[[B]]) : (tensor<3x1xi1>, tensor<2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK:           "tf.Yield"(%{{.+}}, %[[W]])
// CHECK:         }) : (tensor<i32>, tensor<3x2xf32>) -> (tensor<i32>, tensor<3x2xf32>)
// CHECK:         return %[[R]]#1 : tensor<3x2xf32>
func.func @loop_write(%x: tensor<2xf32>) -> tensor<3x2xf32> {
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
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
  %s = "tf.TensorArrayGatherV3"(%h, %all, %r#1) {element_shape = #tf_type.shape<2>} : (tensor<2x!tf_type.resource>, tensor<3xi32>, tensor<f32>) -> tensor<3x2xf32>
  return %s : tensor<3x2xf32>
}

// -----

// unstack then read (dynamic_rnn's input array): no zero buffer, the scatter
// of every element is the value, a read a GatherV2 of it. The element shape
// comes from the value (TF.js graphs give none).
// CHECK-LABEL: func.func @unstack_read
// CHECK-SAME:    (%[[X:.+]]: tensor<4x3xf32>, %[[I:.+]]: tensor<i32>)
// CHECK-NOT:     tf.TensorArray
// CHECK-NOT:     tf.Fill
// CHECK:         %[[R:.+]] = "tf.GatherV2"(%[[X]], %[[I]], %{{.+}}) {{.*}} : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<3xf32>
// CHECK:         %[[ID:.+]] = "tf.Identity"(%[[R]]) : (tensor<3xf32>) -> tensor<*xf32>
// CHECK:         return %[[ID]] : tensor<*xf32>
func.func @unstack_read(%x: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<*xf32> {
  %n = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32} : (tensor<i32>) -> (tensor<*x!tf_type.resource>, tensor<*xf32>)
  %range = "tf.Range"(%zero, %n, %one) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  %f = "tf.TensorArrayScatterV3"(%h, %range, %x, %flow) : (tensor<*x!tf_type.resource>, tensor<?xi32>, tensor<4x3xf32>, tensor<*xf32>) -> tensor<*xf32>
  %id = "tf.Identity"(%f) : (tensor<*xf32>) -> tensor<*xf32>
  %r = "tf.TensorArrayReadV3"(%h, %i, %id) : (tensor<*x!tf_type.resource>, tensor<i32>, tensor<*xf32>) -> tensor<*xf32>
  "tf.TensorArrayCloseV3"(%h) : (tensor<*x!tf_type.resource>) -> ()
  return %r : tensor<*xf32>
}

// -----

// A size known only at run time: a Fill of [n, 2]; the size op is n.
// CHECK-LABEL: func.func @dynamic_size
// CHECK-SAME:    (%[[N:.+]]: tensor<i32>, %[[X:.+]]: tensor<2xf32>)
// CHECK:         %[[N1:.+]] = "tf.Reshape"(%[[N]], %{{.+}}) : (tensor<i32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK:         %[[DIMS:.+]] = "tf.ConcatV2"(%[[N1]], %{{.+}}, %{{.+}}) : (tensor<1xi32>, tensor<1xi32>, tensor<i32>) -> tensor<2xi32>
// CHECK:         %[[B:.+]] = "tf.Fill"(%[[DIMS]], %{{.+}}) : (tensor<2xi32>, tensor<f32>) -> tensor<?x2xf32>
// CHECK:         %[[SHAPE:.+]] = "tf.Shape"(%[[B]])
// CHECK:         %[[COUNT:.+]] = "tf.GatherV2"(%[[SHAPE]],
// CHECK:         %[[RANGE:.+]] = "tf.Range"(%{{.+}}, %[[COUNT]], %{{.+}})
// CHECK:         %[[IOTA:.+]] = "tf.Reshape"(%[[RANGE]], %{{.+}}) : (tensor<?xi32>, tensor<2xi32>) -> tensor<?x1xi32>
// CHECK:         %[[MASK:.+]] = "tf.Equal"(%[[IOTA]],
// CHECK:         %[[W:.+]] = "tf.SelectV2"(%[[MASK]], %[[X]], %[[B]]) : (tensor<?x1xi1>, tensor<2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK:         return %[[N]], %[[W]] : tensor<i32>, tensor<?x2xf32>
func.func @dynamic_size(%n: tensor<i32>, %x: tensor<2xf32>) -> (tensor<i32>, tensor<?x2xf32>) {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %f = "tf.TensorArrayWriteV3"(%h, %zero, %x, %flow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
  %size = "tf.TensorArraySizeV3"(%h, %f) : (tensor<2x!tf_type.resource>, tensor<f32>) -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %all = "tf.Range"(%zero, %size, %one) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  %s = "tf.TensorArrayGatherV3"(%h, %all, %f) : (tensor<2x!tf_type.resource>, tensor<?xi32>, tensor<f32>) -> tensor<?x2xf32>
  return %size, %s : tensor<i32>, tensor<?x2xf32>
}

// -----

// A flow yielded by both branches of a conditional takes the buffer's type.
// CHECK-LABEL: func.func @branches
// CHECK:         %[[ZEROS:.+]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x2xf32>}>
// CHECK:         %[[R:.+]] = "tf.IfRegion"
// CHECK:           "tf.Yield"(%{{.+}}) : (tensor<2x2xf32>) -> ()
// CHECK:           "tf.Yield"(%[[ZEROS]]) : (tensor<2x2xf32>) -> ()
// CHECK:         }) : (tensor<i1>) -> tensor<2x2xf32>
// CHECK:         "tf.GatherV2"(%[[R]], {{.*}} : (tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<2xf32>
func.func @branches(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %n = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %r = "tf.IfRegion"(%p) <{is_stateless = false}> ({
    %f = "tf.TensorArrayWriteV3"(%h, %zero, %x, %flow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%f) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%flow) : (tensor<f32>) -> ()
  }) : (tensor<i1>) -> tensor<f32>
  %v = "tf.TensorArrayReadV3"(%h, %zero, %r) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<2xf32>
  return %v : tensor<2xf32>
}

// -----

// TensorFlow computes an array's size and the range its unstack covers
// from two Shape ops of the same tensor (TF.js graphs keep both): the
// scatter still covers every element, so it is the value and no buffer of
// unknown element shape is needed.
// CHECK-LABEL: func.func @unstack_equivalent_size
// CHECK-SAME:    (%[[X:.+]]: tensor<?x3xf32>, %[[I:.+]]: tensor<i32>)
// CHECK-NOT:     tf.Fill
// CHECK:         "tf.GatherV2"(%[[X]], %[[I]], %{{.+}}) {{.*}} -> tensor<3xf32>
func.func @unstack_equivalent_size(%x: tensor<?x3xf32>, %i: tensor<i32>) -> tensor<*xf32> {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %b = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %s0 = "tf.Shape"(%x) : (tensor<?x3xf32>) -> tensor<2xi32>
  %n0 = "tf.StridedSlice"(%s0, %b, %e, %e) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %s1 = "tf.Shape"(%x) : (tensor<?x3xf32>) -> tensor<2xi32>
  %n1 = "tf.StridedSlice"(%s1, %b, %e, %e) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %h, %flow = "tf.TensorArrayV3"(%n0) {dtype = f32} : (tensor<i32>) -> (tensor<*x!tf_type.resource>, tensor<*xf32>)
  %range = "tf.Range"(%zero, %n1, %one) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  %f = "tf.TensorArrayScatterV3"(%h, %range, %x, %flow) : (tensor<*x!tf_type.resource>, tensor<?xi32>, tensor<?x3xf32>, tensor<*xf32>) -> tensor<*xf32>
  %r = "tf.TensorArrayReadV3"(%h, %i, %f) : (tensor<*x!tf_type.resource>, tensor<i32>, tensor<*xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// unstack(x) of an array sized from another tensor (as TF.js graphs have
// it): the indices run to x's first dimension, so the first write is x.
// CHECK-LABEL: func.func @unstack_other_size
// CHECK-SAME:    (%[[N:.+]]: tensor<i32>, %[[X:.+]]: tensor<?x3xf32>, %[[I:.+]]: tensor<i32>)
// CHECK-NOT:     tf.Fill
// CHECK:         "tf.GatherV2"(%[[X]], %[[I]], %{{.+}}) {{.*}} -> tensor<3xf32>
func.func @unstack_other_size(%n: tensor<i32>, %x: tensor<?x3xf32>, %i: tensor<i32>) -> tensor<*xf32> {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %b = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tf.Shape"(%x) : (tensor<?x3xf32>) -> tensor<2xi32>
  %m = "tf.StridedSlice"(%s, %b, %e, %e) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32} : (tensor<i32>) -> (tensor<*x!tf_type.resource>, tensor<*xf32>)
  %range = "tf.Range"(%zero, %m, %one) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  %f = "tf.TensorArrayScatterV3"(%h, %range, %x, %flow) : (tensor<*x!tf_type.resource>, tensor<?xi32>, tensor<?x3xf32>, tensor<*xf32>) -> tensor<*xf32>
  %r = "tf.TensorArrayReadV3"(%h, %i, %f) : (tensor<*x!tf_type.resource>, tensor<i32>, tensor<*xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// Before shape inference a TF.js graph's tensors are unranked: the read of
// an unstacked array is an unranked GatherV2, refined later.
// CHECK-LABEL: func.func @unranked_unstack
// CHECK-SAME:    (%[[N:.+]]: tensor<i32>, %[[X:.+]]: tensor<*xf32>, %[[I:.+]]: tensor<i32>)
// CHECK:         %[[R:.+]] = "tf.GatherV2"(%[[X]], %[[I]], %{{.+}}) {{.*}} : (tensor<*xf32>, tensor<i32>, tensor<i32>) -> tensor<*xf32>
// CHECK:         return %[[R]] : tensor<*xf32>
func.func @unranked_unstack(%n: tensor<i32>, %x: tensor<*xf32>, %i: tensor<i32>) -> tensor<*xf32> {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %b = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tf.Shape"(%x) : (tensor<*xf32>) -> tensor<?xi32>
  %m = "tf.StridedSlice"(%s, %b, %e, %e) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> : (tensor<?xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %h, %flow = "tf.TensorArrayV3"(%n) {dtype = f32} : (tensor<i32>) -> (tensor<*x!tf_type.resource>, tensor<*xf32>)
  %range = "tf.Range"(%zero, %m, %one) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  %f = "tf.TensorArrayScatterV3"(%h, %range, %x, %flow) : (tensor<*x!tf_type.resource>, tensor<?xi32>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %r = "tf.TensorArrayReadV3"(%h, %i, %f) : (tensor<*x!tf_type.resource>, tensor<i32>, tensor<*xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
