// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @reshape_collapse
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x8x8x32xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[ARG]] {{\[}}[0], [1, 2, 3]] : tensor<1x8x8x32xf32> into tensor<1x2048xf32>
// CHECK: return %[[R]]
func.func @reshape_collapse(%arg0: tensor<1x8x8x32xf32>) -> tensor<1x2048xf32> {
  %shape = "tf.Const"() {value = dense<[1, 2048]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<1x8x8x32xf32>, tensor<2xi32>) -> tensor<1x2048xf32>
  return %0 : tensor<1x2048xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_expand
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x34xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[ARG]] {{\[}}[0], [1, 2]] output_shape [1, 17, 2] : tensor<1x34xf32> into tensor<1x17x2xf32>
// CHECK: return %[[R]]
func.func @reshape_expand(%arg0: tensor<1x34xf32>) -> tensor<1x17x2xf32> {
  %shape = "tf.Const"() {value = dense<[1, 17, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<1x34xf32>, tensor<3xi32>) -> tensor<1x17x2xf32>
  return %0 : tensor<1x17x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_regroup
// CHECK-SAME: (%[[ARG:.+]]: tensor<2x3xf32>)
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[ARG]] {{\[}}[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
// CHECK: %[[R:.+]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [3, 2] : tensor<6xf32> into tensor<3x2xf32>
// CHECK: return %[[R]]
func.func @reshape_regroup(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %shape = "tf.Const"() {value = dense<[3, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_to_scalar
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x1xi32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[ARG]] [] : tensor<1x1xi32> into tensor<i32>
// CHECK: return %[[R]]
func.func @reshape_to_scalar(%arg0: tensor<1x1xi32>) -> tensor<i32> {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<1x1xi32>, tensor<0xi32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// CHECK-LABEL: func.func @reshape_dynamic_batch
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x8x8x32xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[ARG]] {{\[}}[0], [1, 2, 3]] : tensor<?x8x8x32xf32> into tensor<?x2048xf32>
// CHECK: return %[[R]]
func.func @reshape_dynamic_batch(%arg0: tensor<?x8x8x32xf32>) -> tensor<?x2048xf32> {
  %shape = "tf.Const"() {value = dense<[-1, 2048]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<?x8x8x32xf32>, tensor<2xi32>) -> tensor<?x2048xf32>
  return %0 : tensor<?x2048xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_dynamic_expand
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x64xf32>)
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x64xf32>
// CHECK: %[[R:.+]] = tensor.expand_shape %[[ARG]] {{\[}}[0], [1, 2]] output_shape [%[[DIM]], 8, 8] : tensor<?x64xf32> into tensor<?x8x8xf32>
// CHECK: return %[[R]]
func.func @reshape_dynamic_expand(%arg0: tensor<?x64xf32>) -> tensor<?x8x8xf32> {
  %shape = "tf.Const"() {value = dense<[-1, 8, 8]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<?x64xf32>, tensor<3xi32>) -> tensor<?x8x8xf32>
  return %0 : tensor<?x8x8xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_dynamic_regroup
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x6xf32>)
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[ARG]] {{\[}}[0, 1]] : tensor<?x6xf32> into tensor<?xf32>
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x6xf32>
// CHECK: %[[C6:.+]] = arith.constant 6 : index
// CHECK: %[[COUNT:.+]] = arith.muli %[[DIM]], %[[C6]] : index
// CHECK: %[[C4:.+]] = arith.constant 4 : index
// CHECK: %[[ROWS:.+]] = arith.divui %[[COUNT]], %[[C4]] : index
// CHECK: %[[R:.+]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [%[[ROWS]], 4] : tensor<?xf32> into tensor<?x4xf32>
// CHECK: return %[[R]]
func.func @reshape_dynamic_regroup(%arg0: tensor<?x6xf32>) -> tensor<?x4xf32> {
  %shape = "tf.Const"() {value = dense<[-1, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<?x6xf32>, tensor<2xi32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// A dynamic input whose result TensorFlow's shape inference made static: the
// flat tensor gets its static size before the expand.

// CHECK-LABEL: func.func @reshape_dynamic_to_static
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x4xf32>)
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[ARG]] {{\[}}[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
// CHECK: %[[STATIC:.+]] = tensor.cast %[[FLAT]] : tensor<?xf32> to tensor<8xf32>
// CHECK: %[[R:.+]] = tensor.expand_shape %[[STATIC]] {{\[}}[0, 1, 2]] output_shape [2, 2, 2] : tensor<8xf32> into tensor<2x2x2xf32>
// CHECK: return %[[R]]
func.func @reshape_dynamic_to_static(%arg0: tensor<?x4xf32>) -> tensor<2x2x2xf32> {
  %shape = "tf.Const"() {value = dense<[2, 2, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<2x2x2xf32>
  return %0 : tensor<2x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_dynamic_to_scalar
// CHECK-SAME: (%[[ARG:.+]]: tensor<?xf32>)
// CHECK: %[[STATIC:.+]] = tensor.cast %[[ARG]] : tensor<?xf32> to tensor<1xf32>
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[STATIC]] [] : tensor<1xf32> into tensor<f32>
// CHECK: return %[[R]]
func.func @reshape_dynamic_to_scalar(%arg0: tensor<?xf32>) -> tensor<f32> {
  %shape = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<?xf32>, tensor<0xi32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @expand_dims_negative
// CHECK-SAME: (%[[ARG:.+]]: tensor<17xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[ARG]] {{\[}}[0, 1]] output_shape [17, 1] : tensor<17xf32> into tensor<17x1xf32>
// CHECK: return %[[R]]
func.func @expand_dims_negative(%arg0: tensor<17xf32>) -> tensor<17x1xf32> {
  %dim = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ExpandDims"(%arg0, %dim) : (tensor<17xf32>, tensor<i32>) -> tensor<17x1xf32>
  return %0 : tensor<17x1xf32>
}

// -----

// CHECK-LABEL: func.func @expand_dims_scalar
// CHECK-SAME: (%[[ARG:.+]]: tensor<f32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[ARG]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK: return %[[R]]
func.func @expand_dims_scalar(%arg0: tensor<f32>) -> tensor<1xf32> {
  %dim = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ExpandDims"(%arg0, %dim) : (tensor<f32>, tensor<i32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

// CHECK-LABEL: func.func @squeeze_dims
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x192x1x3xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[ARG]] {{\[}}[0, 1], [2], [3]] : tensor<1x192x1x3xf32> into tensor<192x1x3xf32>
// CHECK: return %[[R]]
func.func @squeeze_dims(%arg0: tensor<1x192x1x3xf32>) -> tensor<192x1x3xf32> {
  %0 = "tf.Squeeze"(%arg0) {squeeze_dims = [0]} : (tensor<1x192x1x3xf32>) -> tensor<192x1x3xf32>
  return %0 : tensor<192x1x3xf32>
}

// -----

// CHECK-LABEL: func.func @squeeze_all
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x4x1xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[ARG]] {{\[}}[0, 1, 2]] : tensor<1x4x1xf32> into tensor<4xf32>
// CHECK: return %[[R]]
func.func @squeeze_all(%arg0: tensor<1x4x1xf32>) -> tensor<4xf32> {
  %0 = "tf.Squeeze"(%arg0) : (tensor<1x4x1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x3x4xf32>)
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x3x4xf32>
// CHECK: %[[INIT:.+]] = tensor.empty(%[[DIM]]) : tensor<4x?x3xf32>
// CHECK: %[[R:.+]] = linalg.transpose ins(%[[ARG]] : tensor<?x3x4xf32>) outs(%[[INIT]] : tensor<4x?x3xf32>) permutation = [2, 0, 1]
// CHECK: return %[[R]]
func.func @transpose(%arg0: tensor<?x3x4xf32>) -> tensor<4x?x3xf32> {
  %perm = "tf.Const"() {value = dense<[2, 0, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.Transpose"(%arg0, %perm) : (tensor<?x3x4xf32>, tensor<3xi32>) -> tensor<4x?x3xf32>
  return %0 : tensor<4x?x3xf32>
}

// -----

// CHECK-LABEL: func.func @concat_negative_axis
// CHECK-SAME: (%[[A:.+]]: tensor<17x3xi32>, %[[B:.+]]: tensor<17x1xi32>)
// CHECK: %[[R:.+]] = tensor.concat dim(1) %[[A]], %[[B]] : (tensor<17x3xi32>, tensor<17x1xi32>) -> tensor<17x4xi32>
// CHECK: return %[[R]]
func.func @concat_negative_axis(%arg0: tensor<17x3xi32>, %arg1: tensor<17x1xi32>) -> tensor<17x4xi32> {
  %axis = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ConcatV2"(%arg0, %arg1, %axis) : (tensor<17x3xi32>, tensor<17x1xi32>, tensor<i32>) -> tensor<17x4xi32>
  return %0 : tensor<17x4xi32>
}

// -----

// CHECK-LABEL: func.func @concat_dynamic_batch
// CHECK-SAME: (%[[A:.+]]: tensor<?x2xf32>, %[[B:.+]]: tensor<?x3xf32>)
// CHECK: %[[R:.+]] = tensor.concat dim(1) %[[A]], %[[B]] : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x5xf32>
// CHECK: return %[[R]]
func.func @concat_dynamic_batch(%arg0: tensor<?x2xf32>, %arg1: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %axis = "tf.Const"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %0 = "tf.ConcatV2"(%arg0, %arg1, %axis) : (tensor<?x2xf32>, tensor<?x3xf32>, tensor<i64>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// Operands of static size 0 along the axis are dropped: tensor.concat would
// insert them with a size-0 slice past the end of the data before them,
// which MLIR rejects once bufferized ("offset 0 is out-of-bounds: 3 >= 3").

// CHECK-LABEL: func.func @concat_empty_after_nonempty
// CHECK-SAME: (%[[A:.+]]: tensor<3x2xf32>, %[[B:.+]]: tensor<0x2xf32>)
// CHECK-NOT: tensor.concat
// CHECK: return %[[A]] : tensor<3x2xf32>
func.func @concat_empty_after_nonempty(%a: tensor<3x2xf32>, %b: tensor<0x2xf32>) -> tensor<3x2xf32> {
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ConcatV2"(%a, %b, %axis) : (tensor<3x2xf32>, tensor<0x2xf32>, tensor<i32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// CHECK-LABEL: func.func @concat_empty_between
// CHECK-SAME: (%[[A:.+]]: tensor<3x2xf32>, %[[B:.+]]: tensor<0x2xf32>, %[[C:.+]]: tensor<1x2xf32>)
// CHECK: %[[R:.+]] = tensor.concat dim(0) %[[A]], %[[C]] : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
// CHECK: return %[[R]] : tensor<4x2xf32>
func.func @concat_empty_between(%a: tensor<3x2xf32>, %b: tensor<0x2xf32>, %c: tensor<1x2xf32>) -> tensor<4x2xf32> {
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ConcatV2"(%a, %b, %c, %axis) : (tensor<3x2xf32>, tensor<0x2xf32>, tensor<1x2xf32>, tensor<i32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// All empty with a dynamic result size (so not a static empty result): one
// operand is kept.

// CHECK-LABEL: func.func @concat_all_empty_dynamic
// CHECK-SAME: (%[[A:.+]]: tensor<0x2xf32>, %[[B:.+]]: tensor<0x2xf32>)
// CHECK-NOT: tensor.concat
// CHECK: %[[R:.+]] = tensor.cast %[[A]] : tensor<0x2xf32> to tensor<?x2xf32>
// CHECK: return %[[R]] : tensor<?x2xf32>
func.func @concat_all_empty_dynamic(%a: tensor<0x2xf32>, %b: tensor<0x2xf32>) -> tensor<?x2xf32> {
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ConcatV2"(%a, %b, %axis) : (tensor<0x2xf32>, tensor<0x2xf32>, tensor<i32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// CHECK-LABEL: func.func @pack
// CHECK-SAME: (%[[A:.+]]: tensor<17xi32>, %[[B:.+]]: tensor<17xi32>)
// CHECK: %[[EA:.+]] = tensor.expand_shape %[[A]] {{\[}}[0, 1]] output_shape [17, 1] : tensor<17xi32> into tensor<17x1xi32>
// CHECK: %[[EB:.+]] = tensor.expand_shape %[[B]] {{\[}}[0, 1]] output_shape [17, 1] : tensor<17xi32> into tensor<17x1xi32>
// CHECK: %[[R:.+]] = tensor.concat dim(1) %[[EA]], %[[EB]] : (tensor<17x1xi32>, tensor<17x1xi32>) -> tensor<17x2xi32>
// CHECK: return %[[R]]
func.func @pack(%arg0: tensor<17xi32>, %arg1: tensor<17xi32>) -> tensor<17x2xi32> {
  %0 = "tf.Pack"(%arg0, %arg1) {axis = 1 : i64} : (tensor<17xi32>, tensor<17xi32>) -> tensor<17x2xi32>
  return %0 : tensor<17x2xi32>
}

// -----

// CHECK-LABEL: func.func @pack_scalars
// CHECK-SAME: (%[[A:.+]]: tensor<i32>, %[[B:.+]]: tensor<i32>)
// CHECK: %[[EA:.+]] = tensor.expand_shape %[[A]] [] output_shape [1] : tensor<i32> into tensor<1xi32>
// CHECK: %[[EB:.+]] = tensor.expand_shape %[[B]] [] output_shape [1] : tensor<i32> into tensor<1xi32>
// CHECK: %[[R:.+]] = tensor.concat dim(0) %[[EA]], %[[EB]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK: return %[[R]]
func.func @pack_scalars(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<2xi32> {
  %0 = "tf.Pack"(%arg0, %arg1) : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @unpack
// CHECK-SAME: (%[[ARG:.+]]: tensor<17x2xf32>)
// CHECK: %[[R0:.+]] = tensor.extract_slice %[[ARG]][0, 0] [17, 1] [1, 1] : tensor<17x2xf32> to tensor<17xf32>
// CHECK: %[[R1:.+]] = tensor.extract_slice %[[ARG]][0, 1] [17, 1] [1, 1] : tensor<17x2xf32> to tensor<17xf32>
// CHECK: return %[[R0]], %[[R1]]
func.func @unpack(%arg0: tensor<17x2xf32>) -> (tensor<17xf32>, tensor<17xf32>) {
  %0:2 = "tf.Unpack"(%arg0) {axis = -1 : i64} : (tensor<17x2xf32>) -> (tensor<17xf32>, tensor<17xf32>)
  return %0#0, %0#1 : tensor<17xf32>, tensor<17xf32>
}

// -----

// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x28x28x32xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[R:.+]] = tensor.pad %[[ARG]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[ZERO]] : f32
// CHECK: } : tensor<1x28x28x32xf32> to tensor<1x30x30x32xf32>
// CHECK: return %[[R]]
func.func @pad(%arg0: tensor<1x28x28x32xf32>) -> tensor<1x30x30x32xf32> {
  %paddings = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %0 = "tf.Pad"(%arg0, %paddings) : (tensor<1x28x28x32xf32>, tensor<4x2xi32>) -> tensor<1x30x30x32xf32>
  return %0 : tensor<1x30x30x32xf32>
}

// -----

// CHECK-LABEL: func.func @pad_v2
// CHECK-SAME: (%[[ARG:.+]]: tensor<2x3xi8>, %[[VALUE:.+]]: tensor<i8>)
// CHECK: %[[SCALAR:.+]] = tensor.extract %[[VALUE]][] : tensor<i8>
// CHECK: %[[R:.+]] = tensor.pad %[[ARG]] low[1, 2] high[0, 1]
// CHECK: tensor.yield %[[SCALAR]] : i8
// CHECK: } : tensor<2x3xi8> to tensor<3x6xi8>
// CHECK: return %[[R]]
func.func @pad_v2(%arg0: tensor<2x3xui8>, %arg1: tensor<ui8>) -> tensor<3x6xui8> {
  %paddings = "tf.Const"() {value = dense<[[1, 0], [2, 1]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %0 = "tf.PadV2"(%arg0, %paddings, %arg1) : (tensor<2x3xui8>, tensor<2x2xi64>, tensor<ui8>) -> tensor<3x6xui8>
  return %0 : tensor<3x6xui8>
}

// -----

// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[ARG:.+]]: tensor<4x5xf32>)
// CHECK: %[[R:.+]] = tensor.extract_slice %[[ARG]][1, 2] [2, 3] [1, 1] : tensor<4x5xf32> to tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @slice(%arg0: tensor<4x5xf32>) -> tensor<2x3xf32> {
  %begin = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %size = "tf.Const"() {value = dense<[2, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Slice"(%arg0, %begin, %size) : (tensor<4x5xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @strided_slice_shrink
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x17x3xf32>)
// CHECK: %[[S:.+]] = tensor.extract_slice %[[ARG]][0, 0, 2] [1, 17, 1] [1, 1, 1] : tensor<1x17x3xf32> to tensor<1x17x1xf32>
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[S]] {{\[}}[0, 1, 2]] : tensor<1x17x1xf32> into tensor<17xf32>
// CHECK: return %[[R]]
func.func @strided_slice_shrink(%arg0: tensor<1x17x3xf32>) -> tensor<17xf32> {
  %begin = "tf.Const"() {value = dense<[0, 0, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %end = "tf.Const"() {value = dense<[0, 0, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %strides = "tf.Const"() {value = dense<1> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.StridedSlice"(%arg0, %begin, %end, %strides) {begin_mask = 2 : i64, end_mask = 2 : i64, shrink_axis_mask = 5 : i64} : (tensor<1x17x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<17xf32>
  return %0 : tensor<17xf32>
}

// -----

// CHECK-LABEL: func.func @strided_slice_reverse
// CHECK-SAME: (%[[ARG:.+]]: tensor<4x6xf32>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<4x3xf32>
// CHECK: %[[R:.+]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<4x3xf32>)
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[J:.+]] = linalg.index 1 : index
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG: %[[CM2:.+]] = arith.constant -2 : index
// CHECK: %[[OFF:.+]] = arith.muli %[[J]], %[[CM2]] : index
// CHECK: %[[COL:.+]] = arith.addi %[[C5]], %[[OFF]] : index
// CHECK: %[[E:.+]] = tensor.extract %[[ARG]][%{{.+}}, %[[COL]]] : tensor<4x6xf32>
// CHECK: linalg.yield %[[E]] : f32
// CHECK: return %[[R]]
func.func @strided_slice_reverse(%arg0: tensor<4x6xf32>) -> tensor<4x3xf32> {
  %begin = "tf.Const"() {value = dense<[0, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %end = "tf.Const"() {value = dense<0> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<[1, -2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.StridedSlice"(%arg0, %begin, %end, %strides) {begin_mask = 1 : i64, end_mask = 3 : i64} : (tensor<4x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @strided_slice_ellipsis_new_axis
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x4x6xf32>)
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x4x6xf32>
// CHECK: %[[S:.+]] = tensor.extract_slice %[[ARG]][0, 0, 1] {{\[}}%[[DIM]], 4, 3] [1, 1, 2] : tensor<?x4x6xf32> to tensor<?x4x3xf32>
// CHECK: %[[R:.+]] = tensor.expand_shape %[[S]] {{\[}}[0], [1], [2, 3]] output_shape [%{{.+}}, 4, 1, 3] : tensor<?x4x3xf32> into tensor<?x4x1x3xf32>
// CHECK: return %[[R]]
func.func @strided_slice_ellipsis_new_axis(%arg0: tensor<?x4x6xf32>) -> tensor<?x4x1x3xf32> {
  %begin = "tf.Const"() {value = dense<[0, 0, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %end = "tf.Const"() {value = dense<[0, 0, 6]> : tensor<3xi32>} : () -> tensor<3xi32>
  %strides = "tf.Const"() {value = dense<[1, 1, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.StridedSlice"(%arg0, %begin, %end, %strides) {ellipsis_mask = 1 : i64, new_axis_mask = 2 : i64} : (tensor<?x4x6xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x4x1x3xf32>
  return %0 : tensor<?x4x1x3xf32>
}

// -----

// CHECK-DAG: #[[$IDX:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @gather_v2
// CHECK-SAME: (%[[PARAMS:.+]]: tensor<5x4xf32>, %[[INDICES:.+]]: tensor<2x3xi32>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<5x2x3xf32>
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[$IDX]], #[[$OUT]]], {{.*}} ins(%[[INDICES]] : tensor<2x3xi32>) outs(%[[INIT]] : tensor<5x2x3xf32>)
// CHECK: ^bb0(%[[IN:.+]]: i32, %{{.+}}: f32):
// CHECK: %[[ROW:.+]] = linalg.index 0 : index
// CHECK: %[[RAW:.+]] = arith.index_cast %[[IN]] : i32 to index
// CHECK: %[[LOW:.+]] = arith.maxsi %[[RAW]], %{{.+}} : index
// CHECK: %[[CLAMPED:.+]] = arith.minsi %[[LOW]], %{{.+}} : index
// CHECK: %[[E:.+]] = tensor.extract %[[PARAMS]][%[[ROW]], %[[CLAMPED]]] : tensor<5x4xf32>
// CHECK: linalg.yield %[[E]] : f32
// CHECK: return %[[R]]
func.func @gather_v2(%arg0: tensor<5x4xf32>, %arg1: tensor<2x3xi32>) -> tensor<5x2x3xf32> {
  %axis = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.GatherV2"(%arg0, %arg1, %axis) : (tensor<5x4xf32>, tensor<2x3xi32>, tensor<i32>) -> tensor<5x2x3xf32>
  return %0 : tensor<5x2x3xf32>
}

// -----

// CHECK-DAG: #[[$IDX:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @gather_v2_batch_dims
// CHECK-SAME: (%[[PARAMS:.+]]: tensor<2x5x4xf32>, %[[INDICES:.+]]: tensor<2x3xi64>)
// CHECK: linalg.generic {indexing_maps = [#[[$IDX]], {{.*}} ins(%[[INDICES]] : tensor<2x3xi64>)
// CHECK: %[[BATCH:.+]] = linalg.index 0 : index
// CHECK: %[[CLAMPED:.+]] = arith.minsi
// CHECK: %[[INNER:.+]] = linalg.index 2 : index
// CHECK: tensor.extract %[[PARAMS]][%[[BATCH]], %[[CLAMPED]], %[[INNER]]] : tensor<2x5x4xf32>
func.func @gather_v2_batch_dims(%arg0: tensor<2x5x4xf32>, %arg1: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %axis = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.GatherV2"(%arg0, %arg1, %axis) {batch_dims = 1 : i64} : (tensor<2x5x4xf32>, tensor<2x3xi64>, tensor<i32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @gather_nd
// CHECK-SAME: (%[[PARAMS:.+]]: tensor<4x5x6xf32>, %[[INDICES:.+]]: tensor<3x2xi32>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<3x6xf32>
// CHECK: %[[R:.+]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<3x6xf32>)
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[J:.+]] = linalg.index 1 : index
// CHECK: %[[K0:.+]] = tensor.extract %[[INDICES]][%[[I]], %{{.+}}] : tensor<3x2xi32>
// CHECK: %[[C0:.+]] = arith.minsi
// CHECK: %[[K1:.+]] = tensor.extract %[[INDICES]][%[[I]], %{{.+}}] : tensor<3x2xi32>
// CHECK: %[[C1:.+]] = arith.minsi
// CHECK: %[[E:.+]] = tensor.extract %[[PARAMS]][%[[C0]], %[[C1]], %[[J]]] : tensor<4x5x6xf32>
// CHECK: linalg.yield %[[E]] : f32
// CHECK: return %[[R]]
func.func @gather_nd(%arg0: tensor<4x5x6xf32>, %arg1: tensor<3x2xi32>) -> tensor<3x6xf32> {
  %0 = "tf.GatherNd"(%arg0, %arg1) : (tensor<4x5x6xf32>, tensor<3x2xi32>) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

// CHECK-LABEL: func.func @shape_static
// CHECK: %[[R:.+]] = arith.constant dense<[2, 3]> : tensor<2xi32>
// CHECK: return %[[R]]
func.func @shape_static(%arg0: tensor<2x3xf32>) -> tensor<2xi32> {
  %0 = "tf.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @shape_dynamic
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x3xf32>)
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x3xf32>
// CHECK: %[[D0:.+]] = arith.index_cast %[[DIM]] : index to i64
// CHECK: %[[D1:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK: %[[R:.+]] = tensor.from_elements %[[D0]], %[[D1]] : tensor<2xi64>
// CHECK: return %[[R]]
func.func @shape_dynamic(%arg0: tensor<?x3xf32>) -> tensor<2xi64> {
  %0 = "tf.Shape"(%arg0) : (tensor<?x3xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @size
// CHECK: %[[R:.+]] = arith.constant dense<6> : tensor<i32>
// CHECK: return %[[R]]
func.func @size(%arg0: tensor<2x3xf32>) -> tensor<i32> {
  %0 = "tf.Size"(%arg0) : (tensor<2x3xf32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// CHECK-LABEL: func.func @fill
// CHECK-SAME: (%[[VALUE:.+]]: tensor<f32>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[SCALAR:.+]] = tensor.extract %[[VALUE]][] : tensor<f32>
// CHECK: %[[R:.+]] = linalg.fill ins(%[[SCALAR]] : f32) outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK: return %[[R]]
func.func @fill(%arg0: tensor<f32>) -> tensor<2x3xf32> {
  %dims = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Fill"(%dims, %arg0) : (tensor<2xi32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @range_int
// CHECK: %[[R:.+]] = arith.constant dense<[10, 8, 6, 4]> : tensor<4xi32>
// CHECK: return %[[R]]
func.func @range_int() -> tensor<4xi32> {
  %start = "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %limit = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %delta = "tf.Const"() {value = dense<-2> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Range"(%start, %limit, %delta) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @range_float
// CHECK: %[[R:.+]] = arith.constant dense<[0.000000e+00, 4.000000e-01, 8.000000e-01]> : tensor<3xf32>
// CHECK: return %[[R]]
func.func @range_float() -> tensor<3xf32> {
  %start = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %limit = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %delta = "tf.Const"() {value = dense<0.4> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// TensorFlow 2.21 computes start + i * delta, so from 2^24 by 1 the third
// value is 2^24 + 2 (an accumulation would stay at 2^24).
// CHECK-LABEL: func.func @range_float_rounding
// CHECK: arith.constant dense<[0x4B800000, 0x4B800000, 0x4B800001, 0x4B800002]> : tensor<4xf32>
func.func @range_float_rounding() -> tensor<4xf32> {
  %start = "tf.Const"() {value = dense<16777216.0> : tensor<f32>} : () -> tensor<f32>
  %limit = "tf.Const"() {value = dense<16777220.0> : tensor<f32>} : () -> tensor<f32>
  %delta = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-LABEL: func.func @tile
// CHECK-SAME: (%[[ARG:.+]]: tensor<2x3xf32>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<2x2x1x3xf32>
// CHECK: %[[B:.+]] = linalg.generic {indexing_maps = [#[[$IN]], {{.*}} ins(%[[ARG]] : tensor<2x3xf32>) outs(%[[INIT]] : tensor<2x2x1x3xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1], [2, 3]] : tensor<2x2x1x3xf32> into tensor<4x3xf32>
// CHECK: return %[[R]]
func.func @tile(%arg0: tensor<2x3xf32>) -> tensor<4x3xf32> {
  %multiples = "tf.Const"() {value = dense<[2, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Tile"(%arg0, %multiples) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[ARG:.+]]: tensor<2x6xf32>)
// CHECK: %[[R0:.+]] = tensor.extract_slice %[[ARG]][0, 0] [2, 3] [1, 1] : tensor<2x6xf32> to tensor<2x3xf32>
// CHECK: %[[R1:.+]] = tensor.extract_slice %[[ARG]][0, 3] [2, 3] [1, 1] : tensor<2x6xf32> to tensor<2x3xf32>
// CHECK: return %[[R0]], %[[R1]]
func.func @split(%arg0: tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %dim = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0:2 = "tf.Split"(%dim, %arg0) : (tensor<i32>, tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @split_v
// CHECK-SAME: (%[[ARG:.+]]: tensor<7x2xf32>)
// CHECK: %[[R0:.+]] = tensor.extract_slice %[[ARG]][0, 0] [2, 2] [1, 1] : tensor<7x2xf32> to tensor<2x2xf32>
// CHECK: %[[R1:.+]] = tensor.extract_slice %[[ARG]][2, 0] [5, 2] [1, 1] : tensor<7x2xf32> to tensor<5x2xf32>
// CHECK: return %[[R0]], %[[R1]]
func.func @split_v(%arg0: tensor<7x2xf32>) -> (tensor<2x2xf32>, tensor<5x2xf32>) {
  %sizes = "tf.Const"() {value = dense<[2, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %dim = "tf.Const"() {value = dense<-2> : tensor<i32>} : () -> tensor<i32>
  %0:2 = "tf.SplitV"(%arg0, %sizes, %dim) : (tensor<7x2xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<5x2xf32>)
  return %0#0, %0#1 : tensor<2x2xf32>, tensor<5x2xf32>
}

// -----

// CHECK-LABEL: func.func @depth_to_space
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x2x3x8xf32>)
// CHECK: %[[E:.+]] = tensor.expand_shape %[[ARG]] {{\[}}[0], [1], [2], [3, 4, 5]] output_shape [1, 2, 3, 2, 2, 2] : tensor<1x2x3x8xf32> into tensor<1x2x3x2x2x2xf32>
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<1x2x2x3x2x2xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<1x2x3x2x2x2xf32>) outs(%[[INIT]] : tensor<1x2x2x3x2x2xf32>) permutation = [0, 1, 3, 2, 4, 5]
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1, 2], [3, 4], [5]] : tensor<1x2x2x3x2x2xf32> into tensor<1x4x6x2xf32>
// CHECK: return %[[R]]
func.func @depth_to_space(%arg0: tensor<1x2x3x8xf32>) -> tensor<1x4x6x2xf32> {
  %0 = "tf.DepthToSpace"(%arg0) {block_size = 2 : i64} : (tensor<1x2x3x8xf32>) -> tensor<1x4x6x2xf32>
  return %0 : tensor<1x4x6x2xf32>
}

// -----

// CHECK-LABEL: func.func @space_to_batch_nd
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x3x4x2xf32>)
// CHECK: %[[P:.+]] = tensor.pad %[[ARG]] low[0, 1, 0, 0] high[0, 0, 0, 0]
// CHECK: } : tensor<1x3x4x2xf32> to tensor<1x4x4x2xf32>
// CHECK: %[[E:.+]] = tensor.expand_shape %[[P]] {{\[}}[0], [1, 2], [3, 4], [5]] output_shape [1, 2, 2, 2, 2, 2] : tensor<1x4x4x2xf32> into tensor<1x2x2x2x2x2xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<1x2x2x2x2x2xf32>) outs(%{{.+}} : tensor<2x2x1x2x2x2xf32>) permutation = [2, 4, 0, 1, 3, 5]
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0, 1, 2], [3], [4], [5]] : tensor<2x2x1x2x2x2xf32> into tensor<4x2x2x2xf32>
// CHECK: return %[[R]]
func.func @space_to_batch_nd(%arg0: tensor<1x3x4x2xf32>) -> tensor<4x2x2x2xf32> {
  %block = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %paddings = "tf.Const"() {value = dense<[[1, 0], [0, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.SpaceToBatchND"(%arg0, %block, %paddings) : (tensor<1x3x4x2xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<4x2x2x2xf32>
  return %0 : tensor<4x2x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @batch_to_space_nd
// CHECK-SAME: (%[[ARG:.+]]: tensor<4x2x2x2xf32>)
// CHECK: %[[E:.+]] = tensor.expand_shape %[[ARG]] {{\[}}[0, 1, 2], [3], [4], [5]] output_shape [2, 2, 1, 2, 2, 2] : tensor<4x2x2x2xf32> into tensor<2x2x1x2x2x2xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<2x2x1x2x2x2xf32>) outs(%{{.+}} : tensor<1x2x2x2x2x2xf32>) permutation = [2, 3, 0, 4, 1, 5]
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1, 2], [3, 4], [5]] : tensor<1x2x2x2x2x2xf32> into tensor<1x4x4x2xf32>
// CHECK: %[[R:.+]] = tensor.extract_slice %[[C]][0, 1, 0, 0] [1, 3, 4, 2] [1, 1, 1, 1] : tensor<1x4x4x2xf32> to tensor<1x3x4x2xf32>
// CHECK: return %[[R]]
func.func @batch_to_space_nd(%arg0: tensor<4x2x2x2xf32>) -> tensor<1x3x4x2xf32> {
  %block = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %crops = "tf.Const"() {value = dense<[[1, 0], [0, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.BatchToSpaceND"(%arg0, %block, %crops) : (tensor<4x2x2x2xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<1x3x4x2xf32>
  return %0 : tensor<1x3x4x2xf32>
}

// -----

// CHECK-LABEL: func.func @squeeze_dynamic
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x?xi32>)
// CHECK: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[D:.+]] = tensor.dim %[[ARG]], %[[C1]] : tensor<?x?xi32>
// CHECK: %[[ONE:.+]] = arith.constant 1 : index
// CHECK: %[[EQ:.+]] = arith.cmpi eq, %[[D]], %[[ONE]] : index
// CHECK: cf.assert %[[EQ]], "tf.Squeeze: squeezed dimension 1 must have size 1"
// CHECK: %[[C:.+]] = tensor.cast %[[ARG]] : tensor<?x?xi32> to tensor<?x1xi32>
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[C]] {{\[}}[0, 1]] : tensor<?x1xi32> into tensor<?xi32>
// CHECK: return %[[R]]
func.func @squeeze_dynamic(%arg0: tensor<?x?xi32>) -> tensor<?xi32> {
  %0 = "tf.Squeeze"(%arg0) {squeeze_dims = [-1]} : (tensor<?x?xi32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// CHECK-LABEL: func.func @space_to_batch_nd_dynamic
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x?x?x2xf32>)
// CHECK: %[[P:.+]] = tensor.pad %[[ARG]] low[0, 1, 0, 0] high[0, 0, 0, 0]
// CHECK: } : tensor<1x?x?x2xf32> to tensor<1x?x?x2xf32>
// CHECK-DAG: %[[H:.+]] = tensor.dim %[[P]], %{{.+}} : tensor<1x?x?x2xf32>
// CHECK-DAG: %[[W:.+]] = tensor.dim %[[P]], %{{.+}} : tensor<1x?x?x2xf32>
// CHECK: %[[HR:.+]] = arith.remui %[[H]], %[[B0:.+]] : index
// CHECK: %[[HOK:.+]] = arith.cmpi eq, %[[HR]], %{{.+}} : index
// CHECK: cf.assert %[[HOK]], "tf.SpaceToBatchND: padded spatial dimension 0 must be divisible by its block size"
// CHECK: %[[HB:.+]] = arith.divui %[[H]], %[[B0]] : index
// CHECK: %[[WR:.+]] = arith.remui %[[W]], %[[B1:.+]] : index
// CHECK: %[[WOK:.+]] = arith.cmpi eq, %[[WR]], %{{.+}} : index
// CHECK: cf.assert %[[WOK]], "tf.SpaceToBatchND: padded spatial dimension 1 must be divisible by its block size"
// CHECK: %[[WB:.+]] = arith.divui %[[W]], %[[B1]] : index
// CHECK: %[[E:.+]] = tensor.expand_shape %[[P]] {{\[}}[0], [1, 2], [3, 4], [5]] output_shape [1, %[[HB]], 2, %[[WB]], 2, 2] : tensor<1x?x?x2xf32> into tensor<1x?x2x?x2x2xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<1x?x2x?x2x2xf32>) outs(%{{.+}} : tensor<2x2x1x?x?x2xf32>) permutation = [2, 4, 0, 1, 3, 5]
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0, 1, 2], [3], [4], [5]] : tensor<2x2x1x?x?x2xf32> into tensor<4x?x?x2xf32>
// CHECK: %[[R:.+]] = tensor.cast %[[C]] : tensor<4x?x?x2xf32> to tensor<?x?x?x2xf32>
// CHECK: return %[[R]]
func.func @space_to_batch_nd_dynamic(%arg0: tensor<1x?x?x2xf32>) -> tensor<?x?x?x2xf32> {
  %block = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %paddings = "tf.Const"() {value = dense<[[1, 0], [0, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.SpaceToBatchND"(%arg0, %block, %paddings) : (tensor<1x?x?x2xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}

// -----

// CHECK-LABEL: func.func @batch_to_space_nd_dynamic
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x2x?x2xf32>)
// CHECK-DAG: %[[B:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x2x?x2xf32>
// CHECK-DAG: %[[W:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x2x?x2xf32>
// CHECK: %[[BR:.+]] = arith.remui %[[B]], %[[C4:.+]] : index
// CHECK: %[[BOK:.+]] = arith.cmpi eq, %[[BR]], %{{.+}} : index
// CHECK: cf.assert %[[BOK]], "tf.BatchToSpaceND: batch must be divisible by the block count"
// CHECK: %[[NB:.+]] = arith.divui %[[B]], %[[C4]] : index
// CHECK: %[[E:.+]] = tensor.expand_shape %[[ARG]] {{\[}}[0, 1, 2], [3], [4], [5]] output_shape [2, 2, %[[NB]], 2, %[[W]], 2] : tensor<?x2x?x2xf32> into tensor<2x2x?x2x?x2xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<2x2x?x2x?x2xf32>) outs(%{{.+}} : tensor<?x2x2x?x2x2xf32>) permutation = [2, 3, 0, 4, 1, 5]
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1, 2], [3, 4], [5]] : tensor<?x2x2x?x2x2xf32> into tensor<?x4x?x2xf32>
// CHECK: %[[FW:.+]] = arith.muli %[[W]], %{{.+}} : index
// CHECK: %[[S:.+]] = tensor.extract_slice %[[C]][0, 1, 0, 0] {{\[}}%[[NB]], 3, %[[FW]], 2] [1, 1, 1, 1] : tensor<?x4x?x2xf32> to tensor<?x3x?x2xf32>
// CHECK: %[[R:.+]] = tensor.cast %[[S]] : tensor<?x3x?x2xf32> to tensor<?x?x?x2xf32>
// CHECK: return %[[R]]
func.func @batch_to_space_nd_dynamic(%arg0: tensor<?x2x?x2xf32>) -> tensor<?x?x?x2xf32> {
  %block = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %crops = "tf.Const"() {value = dense<[[1, 0], [0, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.BatchToSpaceND"(%arg0, %block, %crops) : (tensor<?x2x?x2xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}

// -----

// CHECK-LABEL: func.func @space_to_batch_nd_runtime_paddings
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x?x?x2xf32>, %[[PAD:.+]]: tensor<2x2xi32>)
// CHECK: %[[HL:.+]] = tensor.extract %[[PAD]][%{{.+}}, %{{.+}}] : tensor<2x2xi32>
// CHECK: %[[HLI:.+]] = arith.index_cast %[[HL]] : i32 to index
// CHECK: %[[HLC:.+]] = arith.maxsi %[[HLI]], %{{.+}} : index
// CHECK: %[[HH:.+]] = tensor.extract %[[PAD]][%{{.+}}, %{{.+}}] : tensor<2x2xi32>
// CHECK: %[[HHI:.+]] = arith.index_cast %[[HH]] : i32 to index
// CHECK: %[[HHC:.+]] = arith.maxsi %[[HHI]], %{{.+}} : index
// CHECK: %[[WL:.+]] = tensor.extract %[[PAD]][%{{.+}}, %{{.+}}] : tensor<2x2xi32>
// CHECK: %[[WLI:.+]] = arith.index_cast %[[WL]] : i32 to index
// CHECK: %[[WLC:.+]] = arith.maxsi %[[WLI]], %{{.+}} : index
// CHECK: %[[WH:.+]] = tensor.extract %[[PAD]][%{{.+}}, %{{.+}}] : tensor<2x2xi32>
// CHECK: %[[WHI:.+]] = arith.index_cast %[[WH]] : i32 to index
// CHECK: %[[WHC:.+]] = arith.maxsi %[[WHI]], %{{.+}} : index
// CHECK: %[[P:.+]] = tensor.pad %[[ARG]] low[0, %[[HLC]], %[[WLC]], 0] high[0, %[[HHC]], %[[WHC]], 0]
// CHECK: } : tensor<1x?x?x2xf32> to tensor<1x?x?x2xf32>
// CHECK: cf.assert %{{.+}}, "tf.SpaceToBatchND: padded spatial dimension 0 must be divisible by its block size"
// CHECK: cf.assert %{{.+}}, "tf.SpaceToBatchND: padded spatial dimension 1 must be divisible by its block size"
// CHECK: %[[E:.+]] = tensor.expand_shape %[[P]] {{\[}}[0], [1, 2], [3, 4], [5]] output_shape [1, %{{.+}}, 2, %{{.+}}, 2, 2] : tensor<1x?x?x2xf32> into tensor<1x?x2x?x2x2xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[E]] : tensor<1x?x2x?x2x2xf32>)
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0, 1, 2], [3], [4], [5]] : tensor<2x2x1x?x?x2xf32> into tensor<4x?x?x2xf32>
// CHECK: %[[R:.+]] = tensor.cast %[[C]] : tensor<4x?x?x2xf32> to tensor<?x?x?x2xf32>
// CHECK: return %[[R]]
func.func @space_to_batch_nd_runtime_paddings(%arg0: tensor<1x?x?x2xf32>, %paddings: tensor<2x2xi32>) -> tensor<?x?x?x2xf32> {
  %block = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.SpaceToBatchND"(%arg0, %block, %paddings) : (tensor<1x?x?x2xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}

// -----

// CHECK-LABEL: func.func @batch_to_space_nd_runtime_crops
// CHECK-SAME: (%[[ARG:.+]]: tensor<4x2x2x2xf32>, %[[CROPS:.+]]: tensor<2x2xi32>)
// CHECK: %[[C:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4], [5]] : tensor<1x2x2x2x2x2xf32> into tensor<1x4x4x2xf32>
// CHECK: %[[HS:.+]] = arith.maxsi %{{.+}}, %{{.+}} : index
// CHECK: %[[HE:.+]] = arith.maxsi %{{.+}}, %{{.+}} : index
// CHECK: %[[WS:.+]] = arith.maxsi %{{.+}}, %{{.+}} : index
// CHECK: %[[WE:.+]] = arith.maxsi %{{.+}}, %{{.+}} : index
// CHECK: %[[HF:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK: %[[HC:.+]] = arith.addi %[[HS]], %[[HE]] : index
// CHECK: %[[HOK:.+]] = arith.cmpi uge, %[[HF]], %[[HC]] : index
// CHECK: cf.assert %[[HOK]], "tf.BatchToSpaceND: crops of spatial dimension 0 must not exceed its size"
// CHECK: %[[H:.+]] = arith.subi %[[HF]], %[[HC]] : index
// CHECK: %[[WF:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK: %[[WC:.+]] = arith.addi %[[WS]], %[[WE]] : index
// CHECK: %[[WOK:.+]] = arith.cmpi uge, %[[WF]], %[[WC]] : index
// CHECK: cf.assert %[[WOK]], "tf.BatchToSpaceND: crops of spatial dimension 1 must not exceed its size"
// CHECK: %[[W:.+]] = arith.subi %[[WF]], %[[WC]] : index
// CHECK: %[[S:.+]] = tensor.extract_slice %[[C]][0, %[[HS]], %[[WS]], 0] [1, %[[H]], %[[W]], 2] [1, 1, 1, 1] : tensor<1x4x4x2xf32> to tensor<1x?x?x2xf32>
// CHECK: %[[R:.+]] = tensor.cast %[[S]] : tensor<1x?x?x2xf32> to tensor<?x?x?x2xf32>
// CHECK: return %[[R]]
func.func @batch_to_space_nd_runtime_crops(%arg0: tensor<4x2x2x2xf32>, %crops: tensor<2x2xi32>) -> tensor<?x?x?x2xf32> {
  %block = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.BatchToSpaceND"(%arg0, %block, %crops) : (tensor<4x2x2x2xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x2xf32>
  return %0 : tensor<?x?x?x2xf32>
}

// -----

// CHECK-LABEL: func.func @identity_n
// CHECK-SAME: (%[[A:.+]]: tensor<2xf32>, %[[B:.+]]: tensor<i32>)
// CHECK-NOT: tf.
// CHECK: return %[[A]], %[[B]]
func.func @identity_n(%arg0: tensor<2xf32>, %arg1: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  %0:2 = "tf.IdentityN"(%arg0, %arg1) : (tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<i32>
}

// -----

// CHECK-LABEL: func.func @slice_dynamic_to_end
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x5xf32>)
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x5xf32>
// CHECK: %[[REST:.+]] = arith.subi %[[DIM]], %{{.+}} : index
// CHECK: %[[R:.+]] = tensor.extract_slice %[[ARG]][1, 3] {{\[}}%[[REST]], 2] [1, 1] : tensor<?x5xf32> to tensor<?x2xf32>
// CHECK: return %[[R]]
func.func @slice_dynamic_to_end(%arg0: tensor<?x5xf32>) -> tensor<?x2xf32> {
  %begin = "tf.Const"() {value = dense<[1, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %size = "tf.Const"() {value = dense<[-1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Slice"(%arg0, %begin, %size) : (tensor<?x5xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// CHECK-LABEL: func.func @unpack_dynamic
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x2xf32>)
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x2xf32>
// CHECK: %[[R0:.+]] = tensor.extract_slice %[[ARG]][0, 0] {{\[}}%[[DIM]], 1] [1, 1] : tensor<?x2xf32> to tensor<?xf32>
// CHECK: %[[R1:.+]] = tensor.extract_slice %[[ARG]][0, 1] {{\[}}%[[DIM]], 1] [1, 1] : tensor<?x2xf32> to tensor<?xf32>
// CHECK: return %[[R0]], %[[R1]]
func.func @unpack_dynamic(%arg0: tensor<?x2xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0:2 = "tf.Unpack"(%arg0) {axis = 1 : i64} : (tensor<?x2xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @fill_dynamic
// CHECK-SAME: (%[[DIMS:.+]]: tensor<2xi64>, %[[VALUE:.+]]: tensor<i32>)
// CHECK: %[[D0:.+]] = tensor.extract %[[DIMS]][%{{.+}}] : tensor<2xi64>
// CHECK: %[[SIZE:.+]] = arith.index_cast %[[D0]] : i64 to index
// CHECK: %[[INIT:.+]] = tensor.empty(%[[SIZE]]) : tensor<?x3xi32>
// CHECK: %[[SCALAR:.+]] = tensor.extract %[[VALUE]][] : tensor<i32>
// CHECK: %[[R:.+]] = linalg.fill ins(%[[SCALAR]] : i32) outs(%[[INIT]] : tensor<?x3xi32>)
// CHECK: return %[[R]]
func.func @fill_dynamic(%dims: tensor<2xi64>, %value: tensor<i32>) -> tensor<?x3xi32> {
  %0 = "tf.Fill"(%dims, %value) : (tensor<2xi64>, tensor<i32>) -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32>
}

// -----

// CHECK-LABEL: func.func @size_dynamic
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x3xf32>)
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x3xf32>
// CHECK: %[[C3:.+]] = arith.constant 3 : index
// CHECK: %[[COUNT:.+]] = arith.muli %[[DIM]], %[[C3]] : index
// CHECK: %[[WIDE:.+]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK: %[[R:.+]] = tensor.from_elements %[[WIDE]] : tensor<i64>
// CHECK: return %[[R]]
func.func @size_dynamic(%arg0: tensor<?x3xf32>) -> tensor<i64> {
  %0 = "tf.Size"(%arg0) : (tensor<?x3xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// CHECK-LABEL: func.func @gather_nd_ignore
// CHECK-SAME: (%[[PARAMS:.+]]: tensor<3xf32>, %[[INDICES:.+]]: tensor<2x1xi32>)
// CHECK: %[[C3:.+]] = arith.constant 3 : index
// CHECK: linalg.generic
// CHECK: %[[RAW:.+]] = tensor.extract %[[INDICES]]
// CHECK: %[[K:.+]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK: %[[GE:.+]] = arith.cmpi sge, %[[K]], %{{.+}} : index
// CHECK: %[[LT:.+]] = arith.cmpi slt, %[[K]], %[[C3]] : index
// CHECK: %[[OK:.+]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: %[[CLAMPED:.+]] = arith.minsi
// CHECK: %[[E:.+]] = tensor.extract %[[PARAMS]][%[[CLAMPED]]] : tensor<3xf32>
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[V:.+]] = arith.select %[[OK]], %[[E]], %[[ZERO]] : f32
// CHECK: linalg.yield %[[V]] : f32
func.func @gather_nd_ignore(%arg0: tensor<3xf32>, %arg1: tensor<2x1xi32>) -> tensor<2xf32> {
  %0 = "tf.GatherNd"(%arg0, %arg1) {bad_indices_policy = "IGNORE"} : (tensor<3xf32>, tensor<2x1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// TensorFlow 2.21 computes start + i * delta in float (its values, printed
// by tf.range(0.0, 1.0, 0.1) there); accumulating start + delta + delta + ...
// would give 0.700000048, 0.800000071, 0.900000095.

// CHECK-LABEL: func.func @range_float_tenth
// CHECK: %[[R:.+]] = arith.constant dense<[0.000000e+00, 1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01, 5.000000e-01, 6.000000e-01, 0.699999988, 8.000000e-01, 0.900000035]> : tensor<10xf32>
// CHECK: return %[[R]]
func.func @range_float_tenth() -> tensor<10xf32> {
  %start = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %limit = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %delta = "tf.Const"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<10xf32>
  return %0 : tensor<10xf32>
}

// -----

// Runtime slice sizes: read from the operand, clamped into the input, -1
// meaning to the end.

// CHECK-LABEL: func.func @slice_runtime_size
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x8xf32>, %[[SIZE:.+]]: tensor<2xi32>)
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x8xf32>
// CHECK: %[[OFF0:.+]] = arith.minsi %{{.+}}, %[[DIM]] : index
// CHECK: %[[REST0:.+]] = arith.subi %[[DIM]], %[[OFF0]] : index
// CHECK: %[[RAW0:.+]] = tensor.extract %[[SIZE]][%{{.+}}] : tensor<2xi32>
// CHECK: %[[S0:.+]] = arith.index_cast %[[RAW0]] : i32 to index
// CHECK: %[[TO_END0:.+]] = arith.cmpi eq, %[[S0]], %{{.+}} : index
// CHECK: %[[CLAMPED0:.+]] = arith.minsi %{{.+}}, %[[REST0]] : index
// CHECK: %[[SIZE0:.+]] = arith.select %[[TO_END0]], %[[REST0]], %[[CLAMPED0]] : index
// CHECK: %[[SIZE1:.+]] = arith.select
// CHECK: %[[R:.+]] = tensor.extract_slice %[[ARG]]{{\[}}%[[OFF0]], %{{.+}}] {{\[}}%[[SIZE0]], %[[SIZE1]]] [1, 1] : tensor<?x8xf32> to tensor<?x?xf32>
// CHECK: return %[[R]]
func.func @slice_runtime_size(%arg0: tensor<?x8xf32>, %size: tensor<2xi32>) -> tensor<?x?xf32> {
  %begin = "tf.Const"() {value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Slice"(%arg0, %begin, %size) : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A runtime begin with sizes the result type makes static: the offset is
// clamped to [0, extent - size].

// CHECK-LABEL: func.func @slice_runtime_begin
// CHECK-SAME: (%[[ARG:.+]]: tensor<4x8xf32>, %[[BEGIN:.+]]: tensor<2xi64>)
// CHECK: %[[RAW:.+]] = tensor.extract %[[BEGIN]][%{{.+}}] : tensor<2xi64>
// CHECK: %[[B0:.+]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK: %[[LOW:.+]] = arith.maxsi %[[B0]], %{{.+}} : index
// CHECK: %[[HIGH:.+]] = arith.minsi %[[LOW]], %{{.+}} : index
// CHECK: %[[OFF0:.+]] = arith.maxsi %[[HIGH]], %{{.+}} : index
// CHECK: %[[R:.+]] = tensor.extract_slice %[[ARG]]{{\[}}%[[OFF0]], %{{.+}}] [2, 3] [1, 1] : tensor<4x8xf32> to tensor<2x3xf32>
// CHECK: return %[[R]]
func.func @slice_runtime_begin(%arg0: tensor<4x8xf32>, %begin: tensor<2xi64>) -> tensor<2x3xf32> {
  %size = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "tf.Slice"(%arg0, %begin, %size) : (tensor<4x8xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @pad_runtime
// CHECK-SAME: (%[[ARG:.+]]: tensor<2x3xf32>, %[[PADDINGS:.+]]: tensor<2x2xi32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: tensor.extract %[[PADDINGS]]
// CHECK: %[[L0:.+]] = arith.maxsi
// CHECK: tensor.extract %[[PADDINGS]]
// CHECK: %[[H0:.+]] = arith.maxsi
// CHECK: tensor.extract %[[PADDINGS]]
// CHECK: %[[L1:.+]] = arith.maxsi
// CHECK: tensor.extract %[[PADDINGS]]
// CHECK: %[[H1:.+]] = arith.maxsi
// CHECK: %[[R:.+]] = tensor.pad %[[ARG]] low{{\[}}%[[L0]], %[[L1]]] high{{\[}}%[[H0]], %[[H1]]]
// CHECK: tensor.yield %[[ZERO]] : f32
// CHECK: } : tensor<2x3xf32> to tensor<?x?xf32>
// CHECK: return %[[R]]
func.func @pad_runtime(%arg0: tensor<2x3xf32>, %paddings: tensor<2x2xi32>) -> tensor<?x?xf32> {
  %0 = "tf.Pad"(%arg0, %paddings) : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A runtime shape: a -1 entry becomes the element count over the product of
// the others, a size the result type makes static is taken from it.

// CHECK-LABEL: func.func @reshape_runtime
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x4xf32>, %[[SHAPE:.+]]: tensor<3xi32>)
// CHECK: %[[RAW0:.+]] = tensor.extract %[[SHAPE]]
// CHECK: %[[S0:.+]] = arith.index_cast %[[RAW0]] : i32 to index
// CHECK: %[[UNKNOWN0:.+]] = arith.cmpi eq, %[[S0]], %{{.+}} : index
// CHECK: %[[MISSING:.+]] = arith.divui
// CHECK: %[[D0:.+]] = arith.select %[[UNKNOWN0]], %[[MISSING]], %[[S0]] : index
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[D2:.+]] = arith.select %{{.+}}, %[[MISSING]], %{{.+}} : index
// CHECK: %[[DIMS:.+]] = tensor.from_elements %[[D0]], %[[C2]], %[[D2]] : tensor<3xindex>
// CHECK: %[[R:.+]] = tensor.reshape %[[ARG]](%[[DIMS]]) : (tensor<?x4xf32>, tensor<3xindex>) -> tensor<?x2x?xf32>
// CHECK: return %[[R]]
func.func @reshape_runtime(%arg0: tensor<?x4xf32>, %shape: tensor<3xi32>) -> tensor<?x2x?xf32> {
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<?x4xf32>, tensor<3xi32>) -> tensor<?x2x?xf32>
  return %0 : tensor<?x2x?xf32>
}

// -----

// CHECK-LABEL: func.func @range_runtime
// CHECK-SAME: (%[[START:.+]]: tensor<i32>, %[[LIMIT:.+]]: tensor<i32>)
// CHECK: %[[DELTA:.+]] = arith.constant dense<-3> : tensor<i32>
// CHECK: %[[S:.+]] = tensor.extract %[[START]][] : tensor<i32>
// CHECK: tensor.extract %[[LIMIT]][] : tensor<i32>
// CHECK: %[[D:.+]] = tensor.extract %[[DELTA]][] : tensor<i32>
// CHECK: %[[COUNT:.+]] = arith.divui
// CHECK: %[[SIZE:.+]] = arith.select %{{.+}}, %[[COUNT]], %{{.+}} : index
// CHECK: %[[INIT:.+]] = tensor.empty(%[[SIZE]]) : tensor<?xi32>
// CHECK: %[[R:.+]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<?xi32>)
// CHECK: %[[I:.+]] = linalg.index 0 : index
// CHECK: %[[II:.+]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[OFFSET:.+]] = arith.muli %[[II]], %[[D]] : i32
// CHECK: %[[V:.+]] = arith.addi %[[S]], %[[OFFSET]] : i32
// CHECK: linalg.yield %[[V]] : i32
// CHECK: return %[[R]]
func.func @range_runtime(%start: tensor<i32>, %limit: tensor<i32>) -> tensor<?xi32> {
  %delta = "tf.Const"() {value = dense<-3> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Range"(%start, %limit, %delta) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// Bounds known only at run time: counted from the end when negative,
// clamped, ceil((end - begin) / stride) elements.

// CHECK-LABEL: func.func @strided_slice_runtime_end
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x8xf32>, %[[END:.+]]: tensor<2xi32>)
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x8xf32>
// CHECK: %[[FIRST0:.+]] = arith.minsi %{{.+}}, %[[DIM]] : index
// CHECK: %[[RAW:.+]] = tensor.extract %[[END]][%{{.+}}] : tensor<2xi32>
// CHECK: %[[E0:.+]] = arith.index_cast %[[RAW]] : i32 to index
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[E0]], %{{.+}} : index
// CHECK: %[[FROM_END:.+]] = arith.addi %[[E0]], %[[DIM]] : index
// CHECK: %[[FWD:.+]] = arith.select %[[NEG]], %[[FROM_END]], %[[E0]] : index
// CHECK: %[[LOW:.+]] = arith.maxsi %[[FWD]], %{{.+}} : index
// CHECK: %[[LAST0:.+]] = arith.minsi %[[LOW]], %[[DIM]] : index
// CHECK: %[[SPAN:.+]] = arith.subi %[[LAST0]], %[[FIRST0]] : index
// CHECK: %[[SIZE0:.+]] = arith.divui
// CHECK: %[[SIZE1:.+]] = arith.divui
// CHECK: %[[S:.+]] = tensor.extract_slice %[[ARG]]{{\[}}%[[FIRST0]], %{{.+}}] {{\[}}%[[SIZE0]], %[[SIZE1]]] [1, 2] : tensor<?x8xf32> to tensor<?x?xf32>
// CHECK: %[[R:.+]] = tensor.cast %[[S]] : tensor<?x?xf32> to tensor<?x3xf32>
// CHECK: return %[[R]]
func.func @strided_slice_runtime_end(%arg0: tensor<?x8xf32>, %end: tensor<2xi32>) -> tensor<?x3xf32> {
  %begin = "tf.Const"() {value = dense<[1, -6]> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.StridedSlice"(%arg0, %begin, %end, %strides) : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
