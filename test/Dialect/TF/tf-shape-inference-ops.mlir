// RUN: kiln-opt %s -split-input-file --tf-shape-inference | FileCheck %s

// The op-specific shape rules, one family per function, as the pass applies
// them to graphs whose intermediate results TensorFlow left unranked.

// A MobileNet-style block: convolutions, depthwise convolution, bias,
// activation, pooling, flattening and a dense layer.
// CHECK-LABEL: func.func @conv_block
// CHECK-SAME:    -> tensor<1x10xf32>
// CHECK:         "tf.Conv2D"({{.+}}) -> tensor<1x112x112x32xf32>
// CHECK:         "tf.BiasAdd"({{.+}}) -> tensor<1x112x112x32xf32>
// CHECK:         "tf.Relu6"({{.+}}) -> tensor<1x112x112x32xf32>
// CHECK:         "tf.DepthwiseConv2dNative"({{.+}}) -> tensor<1x112x112x32xf32>
// CHECK:         "tf._FusedConv2D"({{.+}}) -> tensor<1x56x56x64xf32>
// CHECK:         "tf.MaxPool"({{.+}}) -> tensor<1x28x28x64xf32>
// CHECK:         "tf.AvgPool"({{.+}}) -> tensor<1x1x1x64xf32>
// CHECK:         "tf.Reshape"({{.+}}) -> tensor<1x64xf32>
// CHECK:         "tf.MatMul"({{.+}}) -> tensor<1x10xf32>
// CHECK:         "tf.Softmax"({{.+}}) -> tensor<1x10xf32>
func.func @conv_block(%img: tensor<1x224x224x3xf32>, %w0: tensor<3x3x3x32xf32>,
                      %b0: tensor<32xf32>, %dw: tensor<3x3x32x1xf32>,
                      %w1: tensor<1x1x32x64xf32>, %b1: tensor<64xf32>,
                      %fc: tensor<64x10xf32>) -> tensor<*xf32> {
  %0 = "tf.Conv2D"(%img, %w0) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x224x224x3xf32>, tensor<3x3x3x32xf32>) -> tensor<*xf32>
  %1 = "tf.BiasAdd"(%0, %b0) : (tensor<*xf32>, tensor<32xf32>) -> tensor<*xf32>
  %2 = "tf.Relu6"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.DepthwiseConv2dNative"(%2, %dw) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<*xf32>, tensor<3x3x32x1xf32>) -> tensor<*xf32>
  %4 = "tf._FusedConv2D"(%3, %w1, %b1) {fused_ops = ["BiasAdd", "Relu"], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<*xf32>, tensor<1x1x32x64xf32>, tensor<64xf32>) -> tensor<*xf32>
  %5 = "tf.MaxPool"(%4) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<*xf32>) -> tensor<*xf32>
  %6 = "tf.AvgPool"(%5) {ksize = [1, 28, 28, 1], padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<*xf32>) -> tensor<*xf32>
  %shape = "tf.Const"() {value = dense<[1, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %7 = "tf.Reshape"(%6, %shape) : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xf32>
  %8 = "tf.MatMul"(%7, %fc) : (tensor<*xf32>, tensor<64x10xf32>) -> tensor<*xf32>
  %9 = "tf.Softmax"(%8) : (tensor<*xf32>) -> tensor<*xf32>
  return %9 : tensor<*xf32>
}

// -----

// Reductions with constant axes, with and without keep_dims.
// CHECK-LABEL: func.func @reductions
// CHECK:         "tf.Mean"({{.+}}) <{keep_dims = true}> : {{.+}} -> tensor<2x1x1x8xf32>
// CHECK:         "tf.Sum"({{.+}}) : {{.+}} -> tensor<2x8xf32>
// CHECK:         "tf.ArgMax"({{.+}}) : {{.+}} -> tensor<2xi64>
func.func @reductions(%x: tensor<2x4x4x8xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi64>) {
  %hw = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Mean"(%x, %hw) {keep_dims = true} : (tensor<2x4x4x8xf32>, tensor<2xi32>) -> tensor<*xf32>
  %1 = "tf.Sum"(%x, %hw) : (tensor<2x4x4x8xf32>, tensor<2xi32>) -> tensor<*xf32>
  %last = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %2 = "tf.ArgMax"(%1, %last) : (tensor<*xf32>, tensor<i32>) -> tensor<*xi64>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xi64>
}

// -----

// Layout ops with constant operands.
// CHECK-LABEL: func.func @layout
// CHECK:         "tf.Transpose"({{.+}}) -> tensor<3x2x4xf32>
// CHECK:         "tf.ExpandDims"({{.+}}) -> tensor<3x2x1x4xf32>
// CHECK:         "tf.Squeeze"({{.+}}) -> tensor<3x2x4xf32>
// CHECK:         "tf.ConcatV2"({{.+}}) -> tensor<3x2x8xf32>
// CHECK:         "tf.Pack"({{.+}}) -> tensor<2x3x2x8xf32>
// CHECK:         %{{.+}}:2 = "tf.Unpack"({{.+}}) -> (tensor<3x2x8xf32>, tensor<3x2x8xf32>)
// CHECK:         %{{.+}}:2 = "tf.Split"({{.+}}) -> (tensor<3x2x4xf32>, tensor<3x2x4xf32>)
// CHECK:         "tf.Pad"({{.+}}) -> tensor<5x2x4xf32>
// CHECK:         "tf.Tile"({{.+}}) -> tensor<5x4x4xf32>
// CHECK:         "tf.Shape"({{.+}}) -> tensor<3xi32>
func.func @layout(%x: tensor<2x3x4xf32>) -> tensor<*xi32> {
  %perm = "tf.Const"() {value = dense<[1, 0, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.Transpose"(%x, %perm) : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<*xf32>
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.ExpandDims"(%0, %two) : (tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
  %2 = "tf.Squeeze"(%1) {squeeze_dims = [2]} : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.ConcatV2"(%2, %2, %two) : (tensor<*xf32>, tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
  %4 = "tf.Pack"(%3, %3) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %5:2 = "tf.Unpack"(%4) : (tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  %6:2 = "tf.Split"(%two, %5#0) : (tensor<i32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  %pads = "tf.Const"() {value = dense<[[1, 1], [0, 0], [0, 0]]> : tensor<3x2xi32>} : () -> tensor<3x2xi32>
  %7 = "tf.Pad"(%6#0, %pads) : (tensor<*xf32>, tensor<3x2xi32>) -> tensor<*xf32>
  %mult = "tf.Const"() {value = dense<[1, 2, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %8 = "tf.Tile"(%7, %mult) : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  %9 = "tf.Shape"(%8) : (tensor<*xf32>) -> tensor<*xi32>
  return %9 : tensor<*xi32>
}

// -----

// StridedSlice with masks, and with indices only known at run time.
// CHECK-LABEL: func.func @strided_slice
// CHECK:         "tf.StridedSlice"({{.+}}) <{begin_mask = 1 : i64, end_mask = 1 : i64, shrink_axis_mask = 4 : i64}> : {{.+}} -> tensor<4x3xf32>
// CHECK:         "tf.StridedSlice"({{.+}}) <{shrink_axis_mask = 1 : i64}> : {{.+}} -> tensor<?x5xf32>
func.func @strided_slice(%x: tensor<4x6x5xf32>, %dyn: tensor<2xi32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %b = "tf.Const"() {value = dense<[0, 1, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %e = "tf.Const"() {value = dense<[0, 6, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %s = "tf.Const"() {value = dense<[1, 2, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.StridedSlice"(%x, %b, %e, %s) {begin_mask = 1 : i64, end_mask = 1 : i64, shrink_axis_mask = 4 : i64} : (tensor<4x6x5xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<*xf32>
  %1 = "tf.StridedSlice"(%x, %dyn, %dyn, %dyn) {shrink_axis_mask = 1 : i64} : (tensor<4x6x5xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Batched products: BatchMatMulV2 broadcasts batch dimensions, Einsum reads
// its equation.
// CHECK-LABEL: func.func @products
// CHECK:         "tf.BatchMatMulV2"({{.+}}) -> tensor<5x3x4x2xf32>
// CHECK:         "tf.Einsum"({{.+}}) -> tensor<5x3x4x7xf32>
func.func @products(%x: tensor<5x1x4x8xf32>, %y: tensor<3x8x2xf32>, %z: tensor<2x7xf32>) -> tensor<*xf32> {
  %0 = "tf.BatchMatMulV2"(%x, %y) : (tensor<5x1x4x8xf32>, tensor<3x8x2xf32>) -> tensor<*xf32>
  %1 = "tf.Einsum"(%0, %z) {equation = "abcd,de->abce"} : (tensor<*xf32>, tensor<2x7xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// Gathers and shape-producing ops.
// CHECK-LABEL: func.func @gather_fill
// CHECK:         "tf.GatherV2"({{.+}}) -> tensor<6x5xf32>
// CHECK:         "tf.Fill"({{.+}}) -> tensor<2x3xf32>
// CHECK:         "tf.BroadcastTo"({{.+}}) -> tensor<2x3xf32>
// CHECK:         "tf.Range"({{.+}}) -> tensor<5xi32>
func.func @gather_fill(%table: tensor<100x5xf32>, %ids: tensor<6xi32>, %v: tensor<f32>, %row: tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>) {
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.GatherV2"(%table, %ids, %axis) : (tensor<100x5xf32>, tensor<6xi32>, tensor<i32>) -> tensor<*xf32>
  %dims = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.Fill"(%dims, %v) : (tensor<2xi32>, tensor<f32>) -> tensor<*xf32>
  %2 = "tf.BroadcastTo"(%row, %dims) : (tensor<3xf32>, tensor<2xi32>) -> tensor<*xf32>
  %limit = "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %step = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %3 = "tf.Range"(%axis, %limit, %step) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
  return %0, %1, %2, %3 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>
}

// -----

// In TensorFlow's executor form every constant sits in its own island; the
// rules read constant operands through the island.
// CHECK-LABEL: func.func @constants_in_islands
// CHECK-SAME:    -> (tensor<2x4xf32>, tensor<8xf32>)
// CHECK:         tf_executor.island wraps "tf.Sum"({{.+}}) -> tensor<2x4xf32>
// CHECK:         tf_executor.island wraps "tf.Reshape"({{.+}}) -> tensor<8xf32>
func.func @constants_in_islands(%x: tensor<2x3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %g:2 = tf_executor.graph {
    %axes, %c0 = tf_executor.island wraps "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %sum, %c1 = tf_executor.island wraps "tf.Sum"(%x, %axes) : (tensor<2x3x4xf32>, tensor<1xi32>) -> tensor<*xf32>
    %shape, %c2 = tf_executor.island wraps "tf.Const"() {value = dense<[-1]> : tensor<1xi32>} : () -> tensor<1xi32>
    %flat, %c3 = tf_executor.island wraps "tf.Reshape"(%sum, %shape) : (tensor<*xf32>, tensor<1xi32>) -> tensor<*xf32>
    tf_executor.fetch %sum, %flat : tensor<*xf32>, tensor<*xf32>
  }
  return %g#0, %g#1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Shape operands computed from static shapes and constants (Shape,
// StridedSlice, Mul, Pack, ConcatV2) are evaluated through the folders, so
// one pass gives a whole chain of shape-arithmetic consumers static types.
// CHECK-LABEL: func.func @shape_arithmetic_operands
// CHECK-SAME:    -> (tensor<1x294x1xf32>, tensor<1x184x184x16xf32>, tensor<1x368x368x16xf32>)
// CHECK:         "tf.Reshape"({{.+}}) : (tensor<1x7x7x6xf32>, tensor<3xi32>) -> tensor<1x294x1xf32>
// CHECK:         "tf.Conv2DBackpropInput"({{.+}}) -> tensor<1x184x184x16xf32>
// CHECK:         "tf.Conv2DBackpropInput"({{.+}}) -> tensor<1x368x368x16xf32>
func.func @shape_arithmetic_operands(%x: tensor<1x7x7x6xf32>, %w: tensor<4x4x16x16xf32>, %dy: tensor<1x46x46x16xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %b = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %e2 = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %c16 = "tf.Const"() {value = dense<16> : tensor<i32>} : () -> tensor<i32>
  %tail = "tf.Const"() {value = dense<[294, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %shape = "tf.Shape"(%x) : (tensor<1x7x7x6xf32>) -> tensor<4xi32>
  %n = "tf.StridedSlice"(%shape, %b, %e, %e) : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
  %s = "tf.ConcatV2"(%n, %tail, %axis) : (tensor<1xi32>, tensor<2xi32>, tensor<i32>) -> tensor<3xi32>
  %0 = "tf.Reshape"(%x, %s) : (tensor<1x7x7x6xf32>, tensor<3xi32>) -> tensor<*xf32>
  // The first upsampling is 4x the height and width of %dy, the second 2x
  // the first's, read off its inferred shape.
  %dyShape = "tf.Shape"(%dy) : (tensor<1x46x46x16xf32>) -> tensor<4xi32>
  %h = "tf.StridedSlice"(%dyShape, %e, %e2, %e) {shrink_axis_mask = 1 : i64} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %h2 = "tf.Mul"(%h, %two) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %h4 = "tf.Mul"(%h2, %two) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %sizes = "tf.Pack"(%one, %h4, %h4, %c16) {axis = 0 : i64} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
  %1 = "tf.Conv2DBackpropInput"(%sizes, %w, %dy) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<4x4x16x16xf32>, tensor<1x46x46x16xf32>) -> tensor<*xf32>
  %upShape = "tf.Shape"(%1) : (tensor<*xf32>) -> tensor<*xi32>
  %uh = "tf.StridedSlice"(%upShape, %e, %e2, %e) {shrink_axis_mask = 1 : i64} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
  %uh2 = "tf.Mul"(%uh, %two) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %sizes2 = "tf.Pack"(%one, %uh2, %uh2, %c16) {axis = 0 : i64} : (tensor<i32>, tensor<*xi32>, tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %2 = "tf.Conv2DBackpropInput"(%sizes2, %w, %1) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<*xi32>, tensor<4x4x16x16xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Float ranges (a coordinate grid) with a limit cast from a shape dimension,
// and a Tile whose multiples come from ExpandDims of a constant.
// CHECK-LABEL: func.func @float_range_and_tile
// CHECK-SAME:    -> (tensor<64xf32>, tensor<3xf32>, tensor<6xf32>)
func.func @float_range_and_tile(%x: tensor<64x17xf32>, %v: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %shape = "tf.Shape"(%x) : (tensor<64x17xf32>) -> tensor<2xi32>
  %b = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %h = "tf.StridedSlice"(%shape, %b, %e, %e) {shrink_axis_mask = 1 : i64} : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %limit = "tf.Cast"(%h) : (tensor<i32>) -> tensor<f32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Range"(%zero, %limit, %one) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  %half = "tf.Const"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %lim = "tf.Const"() {value = dense<1.2> : tensor<f32>} : () -> tensor<f32>
  %1 = "tf.Range"(%zero, %lim, %half) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %m = "tf.ExpandDims"(%three, %axis) : (tensor<i32>, tensor<i32>) -> tensor<1xi32>
  %2 = "tf.Tile"(%v, %m) : (tensor<2xf32>, tensor<1xi32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// Tensor lists: a reserved list takes its element_shape operand; reads meet
// the list's element type with their own element_shape; TensorListStack
// puts num_elements (or `?` when -1) in front.
// CHECK-LABEL: func.func @tensor_lists
// CHECK:         "tf.TensorListReserve"({{.+}}) -> tensor<!tf_type.variant<tensor<?x3xf32>>>
// CHECK:         "tf.TensorListGetItem"({{.+}}) -> tensor<2x3xf32>
// CHECK:         "tf.TensorListStack"({{.+}}) -> tensor<?x?x3xf32>
// CHECK:         "tf.TensorListFromTensor"({{.+}}) -> tensor<!tf_type.variant<tensor<6xi32>>>
// CHECK:         "tf.TensorListSetItem"({{.+}}) -> tensor<!tf_type.variant<tensor<6xi32>>>
// CHECK:         "tf.TensorListStack"({{.+}}) <{num_elements = 5 : i64}> : {{.+}} -> tensor<5x6xi32>
func.func @tensor_lists(%n: tensor<i32>, %i: tensor<i32>, %t: tensor<5x6xi32>, %v: tensor<6xi32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xi32>) {
  %shape = "tf.Const"() {value = dense<[-1, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %read = "tf.Const"() {value = dense<[2, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %unknown = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %l = "tf.TensorListReserve"(%shape, %n) {element_dtype = f32} : (tensor<2xi32>, tensor<i32>) -> tensor<*x!tf_type.variant>
  %0 = "tf.TensorListGetItem"(%l, %i, %read) : (tensor<*x!tf_type.variant>, tensor<i32>, tensor<2xi32>) -> tensor<*xf32>
  %1 = "tf.TensorListStack"(%l, %unknown) : (tensor<*x!tf_type.variant>, tensor<i32>) -> tensor<*xf32>
  %m = "tf.TensorListFromTensor"(%t, %unknown) : (tensor<5x6xi32>, tensor<i32>) -> tensor<*x!tf_type.variant>
  %s = "tf.TensorListSetItem"(%m, %i, %v) : (tensor<*x!tf_type.variant>, tensor<i32>, tensor<6xi32>) -> tensor<*x!tf_type.variant>
  %2 = "tf.TensorListStack"(%s, %unknown) {num_elements = 5 : i64} : (tensor<*x!tf_type.variant>, tensor<i32>) -> tensor<*xi32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xi32>
}

// -----

// MirrorPad grows each dimension by its paddings, like Pad.
// CHECK-LABEL: func.func @mirror_pad
// CHECK:         "tf.MirrorPad"({{.+}}) -> tensor<4x7xf32>
func.func @mirror_pad(%x: tensor<2x3xf32>) -> tensor<*xf32> {
  %pads = "tf.Const"() {value = dense<[[1, 1], [2, 2]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.MirrorPad"(%x, %pads) {mode = "SYMMETRIC"} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Axes known only at run time: their count gives the result's rank (the
// sizes stay unknown; the batch dimensions of a gather lead the result).
// CHECK-LABEL: func.func @runtime_axes
// CHECK:         "tf.Sum"({{.+}}) : {{.+}} -> tensor<?x?xf32>
// CHECK:         "tf.Max"({{.+}}) : {{.+}} -> tensor<?xf32>
// CHECK:         "tf.Mean"({{.+}}) : {{.+}} -> tensor<*xf32>
// CHECK:         "tf.GatherV2"({{.+}}) : {{.+}} -> tensor<?x?x?x?xf32>
// CHECK:         "tf.GatherV2"({{.+}}) <{batch_dims = 1 : i64}> : {{.+}} -> tensor<2x?x?xf32>
func.func @runtime_axes(%x: tensor<2x3x4xf32>, %a: tensor<i32>, %a2: tensor<2xi32>, %an: tensor<?xi32>, %i: tensor<2x5xi32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.Sum"(%x, %a) : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<*xf32>
  %1 = "tf.Max"(%x, %a2) : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<*xf32>
  %2 = "tf.Mean"(%x, %an) : (tensor<2x3x4xf32>, tensor<?xi32>) -> tensor<*xf32>
  %3 = "tf.GatherV2"(%x, %i, %a) : (tensor<2x3x4xf32>, tensor<2x5xi32>, tensor<i32>) -> tensor<*xf32>
  %4 = "tf.GatherV2"(%x, %i, %a) {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5xi32>, tensor<i32>) -> tensor<*xf32>
  return %0, %1, %2, %3, %4 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}
