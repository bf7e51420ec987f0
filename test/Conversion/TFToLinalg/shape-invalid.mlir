// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file -verify-diagnostics

func.func @reshape_shape_unknown_length(%arg0: tensor<?x4xf32>, %shape: tensor<?xi32>) -> tensor<?x2xf32> {
  // expected-error @+2 {{'tf.Reshape' op cannot be lowered to linalg: shape operand must have 2 elements}}
  // expected-error @+1 {{failed to legalize operation 'tf.Reshape'}}
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<?x4xf32>, tensor<?xi32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @reshape_two_unknown_sizes(%arg0: tensor<?x4xf32>) -> tensor<?x?xf32> {
  %shape = "tf.Const"() {value = dense<[-1, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-error @+2 {{'tf.Reshape' op cannot be lowered to linalg: more than one result size is unknown}}
  // expected-error @+1 {{failed to legalize operation 'tf.Reshape'}}
  %0 = "tf.Reshape"(%arg0, %shape) : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @expand_dims_runtime_dim_not_single(%arg0: tensor<3xf32>, %dim: tensor<?xi32>) -> tensor<1x3xf32> {
  // expected-error @+2 {{'tf.ExpandDims' op cannot be lowered to linalg: dim operand is not a single integer}}
  // expected-error @+1 {{failed to legalize operation 'tf.ExpandDims'}}
  %0 = "tf.ExpandDims"(%arg0, %dim) : (tensor<3xf32>, tensor<?xi32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @expand_dims_out_of_range(%arg0: tensor<3xf32>) -> tensor<1x3xf32> {
  %dim = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.ExpandDims' op cannot be lowered to linalg: dim 3 is out of range for rank 1}}
  // expected-error @+1 {{failed to legalize operation 'tf.ExpandDims'}}
  %0 = "tf.ExpandDims"(%arg0, %dim) : (tensor<3xf32>, tensor<i32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @squeeze_all_dynamic(%arg0: tensor<?x1xf32>) -> tensor<?xf32> {
  // expected-error @+2 {{'tf.Squeeze' op cannot be lowered to linalg: squeeze of all size-1 dimensions with dynamic dimension 0}}
  // expected-error @+1 {{failed to legalize operation 'tf.Squeeze'}}
  %0 = "tf.Squeeze"(%arg0) : (tensor<?x1xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @transpose_runtime_perm_unknown_size(%arg0: tensor<2x3xf32>, %perm: tensor<?xi32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{'tf.Transpose' op cannot be lowered to linalg: perm must have shape [2]}}
  // expected-error @+1 {{failed to legalize operation 'tf.Transpose'}}
  %0 = "tf.Transpose"(%arg0, %perm) : (tensor<2x3xf32>, tensor<?xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_not_a_permutation(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %perm = "tf.Const"() {value = dense<[1, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  // expected-error @+2 {{'tf.Transpose' op cannot be lowered to linalg: perm is not a permutation of the 2 dimensions}}
  // expected-error @+1 {{failed to legalize operation 'tf.Transpose'}}
  %0 = "tf.Transpose"(%arg0, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @concat_runtime_axis_not_single(%a: tensor<2xf32>, %b: tensor<2xf32>, %axis: tensor<*xi32>) -> tensor<4xf32> {
  // expected-error @+2 {{'tf.ConcatV2' op cannot be lowered to linalg: axis operand is not a single integer}}
  // expected-error @+1 {{failed to legalize operation 'tf.ConcatV2'}}
  %0 = "tf.ConcatV2"(%a, %b, %axis) : (tensor<2xf32>, tensor<2xf32>, tensor<*xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concat_axis_out_of_range(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<4xf32> {
  %axis = "tf.Const"() {value = dense<-2> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.ConcatV2' op cannot be lowered to linalg: axis -2 is out of range for rank 1}}
  // expected-error @+1 {{failed to legalize operation 'tf.ConcatV2'}}
  %0 = "tf.ConcatV2"(%a, %b, %axis) : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_negative(%arg0: tensor<2xf32>) -> tensor<1xf32> {
  %paddings = "tf.Const"() {value = dense<[[-1, 0]]> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
  // expected-error @+2 {{'tf.Pad' op cannot be lowered to linalg: negative paddings in dimension 0}}
  // expected-error @+1 {{failed to legalize operation 'tf.Pad'}}
  %0 = "tf.Pad"(%arg0, %paddings) : (tensor<2xf32>, tensor<1x2xi32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @slice_out_of_bounds(%arg0: tensor<4xf32>) -> tensor<2xf32> {
  %begin = "tf.Const"() {value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
  %size = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+2 {{'tf.Slice' op cannot be lowered to linalg: slice [3, +2) is out of bounds in dimension 0}}
  // expected-error @+1 {{failed to legalize operation 'tf.Slice'}}
  %0 = "tf.Slice"(%arg0, %begin, %size) : (tensor<4xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @strided_slice_strides_not_constant(%arg0: tensor<4xf32>, %strides: tensor<1xi32>) -> tensor<2xf32> {
  %begin = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %end = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+2 {{'tf.StridedSlice' op cannot be lowered to linalg: strides operand is not a constant}}
  // expected-error @+1 {{failed to legalize operation 'tf.StridedSlice'}}
  %0 = "tf.StridedSlice"(%arg0, %begin, %end, %strides) : (tensor<4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @strided_slice_zero_stride(%arg0: tensor<4xf32>) -> tensor<2xf32> {
  %begin = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %end = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %strides = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+2 {{'tf.StridedSlice' op cannot be lowered to linalg: stride of dimension 0 is zero}}
  // expected-error @+1 {{failed to legalize operation 'tf.StridedSlice'}}
  %0 = "tf.StridedSlice"(%arg0, %begin, %end, %strides) : (tensor<4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @strided_slice_shrink_out_of_bounds(%arg0: tensor<4xf32>) -> tensor<f32> {
  %begin = "tf.Const"() {value = dense<4> : tensor<1xi32>} : () -> tensor<1xi32>
  %end = "tf.Const"() {value = dense<5> : tensor<1xi32>} : () -> tensor<1xi32>
  %strides = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+2 {{'tf.StridedSlice' op cannot be lowered to linalg: slice index 4 of dimension 0 is out of bounds}}
  // expected-error @+1 {{failed to legalize operation 'tf.StridedSlice'}}
  %0 = "tf.StridedSlice"(%arg0, %begin, %end, %strides) {shrink_axis_mask = 1 : i64} : (tensor<4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @strided_slice_shrink_negative_stride(%arg0: tensor<4xf32>) -> tensor<f32> {
  %begin = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %end = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %strides = "tf.Const"() {value = dense<-1> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error @+2 {{'tf.StridedSlice' op cannot be lowered to linalg: negative stride on the shrunk dimension 0}}
  // expected-error @+1 {{failed to legalize operation 'tf.StridedSlice'}}
  %0 = "tf.StridedSlice"(%arg0, %begin, %end, %strides) {shrink_axis_mask = 1 : i64} : (tensor<4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @gather_runtime_axis_batch_dims_too_large(%params: tensor<4xf32>, %indices: tensor<2xi32>, %axis: tensor<i32>) -> tensor<?xf32> {
  // expected-error @+2 {{'tf.GatherV2' op cannot be lowered to linalg: batch_dims 1 is out of range for the indices' and params' ranks}}
  // expected-error @+1 {{failed to legalize operation 'tf.GatherV2'}}
  %0 = "tf.GatherV2"(%params, %indices, %axis) {batch_dims = 1 : i64} : (tensor<4xf32>, tensor<2xi32>, tensor<i32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @gather_nd_dynamic_depth(%params: tensor<4x4xf32>, %indices: tensor<2x?xi32>) -> tensor<2x?xf32> {
  // expected-error @+2 {{'tf.GatherNd' op cannot be lowered to linalg: the last dimension of indices must be static}}
  // expected-error @+1 {{failed to legalize operation 'tf.GatherNd'}}
  %0 = "tf.GatherNd"(%params, %indices) : (tensor<4x4xf32>, tensor<2x?xi32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

func.func @range_unsigned_start_not_constant(%start: tensor<ui32>) -> tensor<?xui32> {
  %limit = "tf.Const"() {value = dense<4> : tensor<ui32>} : () -> tensor<ui32>
  %delta = "tf.Const"() {value = dense<1> : tensor<ui32>} : () -> tensor<ui32>
  // expected-error @+2 {{'tf.Range' op cannot be lowered to linalg: start operand is not a constant}}
  // expected-error @+1 {{failed to legalize operation 'tf.Range'}}
  %0 = "tf.Range"(%start, %limit, %delta) : (tensor<ui32>, tensor<ui32>, tensor<ui32>) -> tensor<?xui32>
  return %0 : tensor<?xui32>
}

// -----

func.func @range_wrong_direction() -> tensor<?xi32> {
  %start = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %limit = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %delta = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.Range' op cannot be lowered to linalg: delta does not move start towards limit}}
  // expected-error @+1 {{failed to legalize operation 'tf.Range'}}
  %0 = "tf.Range"(%start, %limit, %delta) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

func.func @tile_runtime_multiples_unknown_size(%arg0: tensor<2xf32>, %multiples: tensor<?xi32>) -> tensor<?xf32> {
  // expected-error @+2 {{'tf.Tile' op cannot be lowered to linalg: multiples must have shape [1]}}
  // expected-error @+1 {{failed to legalize operation 'tf.Tile'}}
  %0 = "tf.Tile"(%arg0, %multiples) : (tensor<2xf32>, tensor<?xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @split_dim_not_constant(%dim: tensor<i32>, %arg0: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+2 {{'tf.Split' op cannot be lowered to linalg: split_dim operand is not a constant}}
  // expected-error @+1 {{failed to legalize operation 'tf.Split'}}
  %0:2 = "tf.Split"(%dim, %arg0) : (tensor<i32>, tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

func.func @split_uneven(%arg0: tensor<5xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %dim = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.Split' op cannot be lowered to linalg: dimension of size 5 does not split evenly into 2}}
  // expected-error @+1 {{failed to legalize operation 'tf.Split'}}
  %0:2 = "tf.Split"(%dim, %arg0) : (tensor<i32>, tensor<5xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

func.func @split_v_sizes_not_constant(%arg0: tensor<4xf32>, %sizes: tensor<2xi32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %dim = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.SplitV' op cannot be lowered to linalg: size_splits operand is not a constant}}
  // expected-error @+1 {{failed to legalize operation 'tf.SplitV'}}
  %0:2 = "tf.SplitV"(%arg0, %sizes, %dim) : (tensor<4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xf32>
}

// -----

func.func @depth_to_space_nchw(%arg0: tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error @+2 {{'tf.DepthToSpace' op cannot be lowered to linalg: data_format 'NCHW' (only NHWC)}}
  // expected-error @+1 {{failed to legalize operation 'tf.DepthToSpace'}}
  %0 = "tf.DepthToSpace"(%arg0) {block_size = 2 : i64, data_format = "NCHW"} : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

func.func @space_to_batch_block_not_constant(%arg0: tensor<1x4x4x1xf32>, %block: tensor<2xi32>) -> tensor<4x2x2x1xf32> {
  %paddings = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // expected-error @+2 {{'tf.SpaceToBatchND' op cannot be lowered to linalg: block_shape operand is not a constant}}
  // expected-error @+1 {{failed to legalize operation 'tf.SpaceToBatchND'}}
  %0 = "tf.SpaceToBatchND"(%arg0, %block, %paddings) : (tensor<1x4x4x1xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<4x2x2x1xf32>
  return %0 : tensor<4x2x2x1xf32>
}

// -----

func.func @batch_to_space_batch_not_divisible(%arg0: tensor<3x2x2x1xf32>) -> tensor<?x4x4x1xf32> {
  %block = "tf.Const"() {value = dense<2> : tensor<2xi32>} : () -> tensor<2xi32>
  %crops = "tf.Const"() {value = dense<0> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // expected-error @+2 {{'tf.BatchToSpaceND' op cannot be lowered to linalg: batch 3 is not divisible by 4 blocks}}
  // expected-error @+1 {{failed to legalize operation 'tf.BatchToSpaceND'}}
  %0 = "tf.BatchToSpaceND"(%arg0, %block, %crops) : (tensor<3x2x2x1xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x4x4x1xf32>
  return %0 : tensor<?x4x4x1xf32>
}

// -----

// A constant index out of range is TensorFlow's error at run time on CPU; with
// the indices known at compile time it is a compile error, not a clamped read.
func.func @gather_constant_index_out_of_range(%params: tensor<5x3xf32>) -> tensor<2x3xf32> {
  %indices = "tf.Const"() {value = dense<[4, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.GatherV2' op index 5 (element 1 of the constant indices) is out of range [0, 5) of params' dimension 0}}
  // expected-error @+1 {{failed to legalize operation 'tf.GatherV2'}}
  %0 = "tf.GatherV2"(%params, %indices, %axis) {batch_dims = 0 : i64} : (tensor<5x3xf32>, tensor<2xi32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_constant_negative_index(%params: tensor<5x3xf32>) -> tensor<5x1xf32> {
  %indices = "tf.Const"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %axis = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  // expected-error @+2 {{'tf.GatherV2' op index -1 (element 0 of the constant indices) is out of range [0, 3) of params' dimension 1}}
  // expected-error @+1 {{failed to legalize operation 'tf.GatherV2'}}
  %0 = "tf.GatherV2"(%params, %indices, %axis) {batch_dims = 0 : i64} : (tensor<5x3xf32>, tensor<1xi64>, tensor<i32>) -> tensor<5x1xf32>
  return %0 : tensor<5x1xf32>
}

// -----

func.func @gather_nd_constant_index_out_of_range(%params: tensor<4x6xf32>) -> tensor<2xf32> {
  %indices = "tf.Const"() {value = dense<[[3, 5], [1, 6]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // expected-error @+2 {{'tf.GatherNd' op index 6 (element 3 of the constant indices) is out of range [0, 6) of params' dimension 1}}
  // expected-error @+1 {{failed to legalize operation 'tf.GatherNd'}}
  %0 = "tf.GatherNd"(%params, %indices) : (tensor<4x6xf32>, tensor<2x2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
