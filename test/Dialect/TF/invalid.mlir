// RUN: kiln-opt %s -split-input-file -verify-diagnostics

func.func @const_type_mismatch() -> tensor<3xf32> {
  // expected-error @+1 {{requires the type of value ('tensor<2xf32>') to match the result type ('tensor<3xf32>')}}
  %0 = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @addv2_bad_element_type(%arg0: tensor<2x!tf_type.string>) -> tensor<2x!tf_type.string> {
  // expected-error @+1 {{operand #0 must be tensor of}}
  %0 = "tf.AddV2"(%arg0, %arg0) : (tensor<2x!tf_type.string>, tensor<2x!tf_type.string>) -> tensor<2x!tf_type.string>
  return %0 : tensor<2x!tf_type.string>
}

// -----

func.func @addv2_not_broadcastable(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{operands don't have broadcast-compatible shapes}}
  %0 = "tf.AddV2"(%arg0, %arg1) : (tensor<2xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @identity_n_count(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{requires as many results as operands, got 2 results and 1 operands}}
  %0:2 = "tf.IdentityN"(%arg0) : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  return %0#0 : tensor<i32>
}

// -----

func.func @add_n_empty() -> tensor<2xf32> {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  %0 = "tf.AddN"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @softmax_scalar(%arg0: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{requires logits to have rank at least 1, got 'tensor<f32>'}}
  %0 = "tf.Softmax"(%arg0) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @conv2d_strides(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires strides to have 4 elements, got 3}}
  %0 = "tf.Conv2D"(%arg0, %arg1) {padding = "SAME", strides = [1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv2d_dilations(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires dilations to have 4 elements, got 2}}
  %0 = "tf.Conv2D"(%arg0, %arg1) {dilations = [1, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv2d_stride_zero(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires strides to be positive, got 0}}
  %0 = "tf.Conv2D"(%arg0, %arg1) {padding = "SAME", strides = [1, 0, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv2d_padding(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires padding to be one of "SAME", "VALID", "EXPLICIT", got "FULL"}}
  %0 = "tf.Conv2D"(%arg0, %arg1) {padding = "FULL", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv2d_data_format(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires data_format to be one of "NHWC", "NCHW", got "HWCN"}}
  %0 = "tf.Conv2D"(%arg0, %arg1) {data_format = "HWCN", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv2d_explicit_paddings(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires explicit_paddings to have 8 elements, got 4}}
  %0 = "tf.Conv2D"(%arg0, %arg1) {explicit_paddings = [1, 1, 1, 1], padding = "EXPLICIT", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv2d_explicit_paddings_unused(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires explicit_paddings to be empty unless padding is "EXPLICIT", got 8 elements}}
  %0 = "tf.Conv2D"(%arg0, %arg1) {explicit_paddings = [0, 0, 1, 1, 1, 1, 0, 0], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv2d_input_rank(%arg0: tensor<8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires input to have rank 4, got 'tensor<8x8x3xf32>'}}
  %0 = "tf.Conv2D"(%arg0, %arg1) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @depthwise_filter_rank(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires filter to have rank 4, got 'tensor<3x3x3xf32>'}}
  %0 = "tf.DepthwiseConv2dNative"(%arg0, %arg1) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @fused_conv2d_filter_format(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>, %arg2: tensor<16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires filter_format to be one of "HWIO", "OIHW", "OIHW_VECT_I", got "IOHW"}}
  %0 = "tf._FusedConv2D"(%arg0, %arg1, %arg2) {filter_format = "IOHW", fused_ops = ["BiasAdd"], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv2d_backprop_input_sizes(%arg0: tensor<3xi32>, %arg1: tensor<3x3x8x16xf32>, %arg2: tensor<1x4x4x16xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires input_sizes to have 4 elements, got 'tensor<3xi32>'}}
  %0 = "tf.Conv2DBackpropInput"(%arg0, %arg1, %arg2) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<3xi32>, tensor<3x3x8x16xf32>, tensor<1x4x4x16xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @matmul_rank(%arg0: tensor<2x4x8xf32>, %arg1: tensor<8x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires a to have rank 2, got 'tensor<2x4x8xf32>'}}
  %0 = "tf.MatMul"(%arg0, %arg1) : (tensor<2x4x8xf32>, tensor<8x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @batch_matmul_rank(%arg0: tensor<8xf32>, %arg1: tensor<8x2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires x to have rank at least 2, got 'tensor<8xf32>'}}
  %0 = "tf.BatchMatMulV2"(%arg0, %arg1) : (tensor<8xf32>, tensor<8x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @einsum_inputs(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires equation to name 2 inputs like the operands, got "ab->ba" with 1}}
  %0 = "tf.Einsum"(%arg0, %arg1) {equation = "ab->ba"} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bias_add_bias_rank(%arg0: tensor<1x4x4x3xf32>, %arg1: tensor<1x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires bias to have rank 1, got 'tensor<1x3xf32>'}}
  %0 = "tf.BiasAdd"(%arg0, %arg1) : (tensor<1x4x4x3xf32>, tensor<1x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bias_add_channels(%arg0: tensor<1x4x4x3xf32>, %arg1: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires bias to have the 3 elements of the channel dimension, got 4}}
  %0 = "tf.BiasAdd"(%arg0, %arg1) : (tensor<1x4x4x3xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bias_add_data_format(%arg0: tensor<1x4x4x3xf32>, %arg1: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires data_format to be one of "NHWC", "NCHW", got "CHWN"}}
  %0 = "tf.BiasAdd"(%arg0, %arg1) {data_format = "CHWN"} : (tensor<1x4x4x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bias_add_nchw_rank(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires value to have rank at least 3 with data_format "NCHW", got 'tensor<4x3xf32>'}}
  %0 = "tf.BiasAdd"(%arg0, %arg1) {data_format = "NCHW"} : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @max_pool_ksize(%arg0: tensor<1x8x8x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires ksize to have 4 elements, got 2}}
  %0 = "tf.MaxPool"(%arg0) {ksize = [2, 2], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @max_pool_explicit(%arg0: tensor<1x8x8x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires explicit_paddings to have 8 elements, got 0}}
  %0 = "tf.MaxPool"(%arg0) {ksize = [1, 2, 2, 1], padding = "EXPLICIT", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @avg_pool_padding(%arg0: tensor<1x8x8x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires padding to be one of "SAME", "VALID", got "EXPLICIT"}}
  %0 = "tf.AvgPool"(%arg0) {ksize = [1, 2, 2, 1], padding = "EXPLICIT", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @avg_pool_ksize_zero(%arg0: tensor<1x8x8x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires ksize to be positive, got 0}}
  %0 = "tf.AvgPool"(%arg0) {ksize = [1, 0, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reshape_shape_rank(%arg0: tensor<2x3xf32>, %arg1: tensor<1x2xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires shape to have rank 1, got 'tensor<1x2xi32>'}}
  %0 = "tf.Reshape"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<1x2xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @shape_result_rank(%arg0: tensor<2x3xf32>) -> tensor<2x1xi32> {
  // expected-error @+1 {{requires the result to have rank 1, got 'tensor<2x1xi32>'}}
  %0 = "tf.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2x1xi32>
  return %0 : tensor<2x1xi32>
}

// -----

func.func @shape_result_size(%arg0: tensor<2x3xf32>) -> tensor<3xi32> {
  // expected-error @+1 {{requires the result to have 2 elements like the rank of input, got 'tensor<3xi32>'}}
  %0 = "tf.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @expand_dims_dim(%arg0: tensor<2x3xf32>, %arg1: tensor<2xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires dim to be a scalar, got 'tensor<2xi32>'}}
  %0 = "tf.ExpandDims"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @squeeze_range(%arg0: tensor<1x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires squeeze_dims entries to be in [-2, 2), got 2}}
  %0 = "tf.Squeeze"(%arg0) {squeeze_dims = [2]} : (tensor<1x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @squeeze_not_one(%arg0: tensor<1x3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires squeezed dimension -1 to have size 1, got 3}}
  %0 = "tf.Squeeze"(%arg0) {squeeze_dims = [-1]} : (tensor<1x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @transpose_perm_rank(%arg0: tensor<2x3xf32>, %arg1: tensor<i32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires perm to have rank 1, got 'tensor<i32>'}}
  %0 = "tf.Transpose"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<i32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @transpose_perm_size(%arg0: tensor<2x3xf32>, %arg1: tensor<3xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires perm to have 2 elements like the rank of x, got 3}}
  %0 = "tf.Transpose"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @concat_axis_not_scalar(%arg0: tensor<2xf32>, %arg1: tensor<1xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires axis to have rank 0, got 'tensor<1xi32>'}}
  %0 = "tf.ConcatV2"(%arg0, %arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>, tensor<1xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @concat_one_value(%arg0: tensor<2xf32>, %arg1: tensor<i32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires at least 2 values, got 1}}
  %0 = "tf.ConcatV2"(%arg0, %arg1) : (tensor<2xf32>, tensor<i32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pack_axis(%arg0: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires axis to be in [-2, 2), got 2}}
  %0 = "tf.Pack"(%arg0, %arg0) {axis = 2 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pack_empty() -> tensor<*xf32> {
  // expected-error @+1 {{requires at least 1 value}}
  %0 = "tf.Pack"() : () -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @unpack_count(%arg0: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{requires one result per element of dimension 0 (3), got 2}}
  %0:2 = "tf.Unpack"(%arg0) : (tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0 : tensor<2xf32>
}

// -----

func.func @unpack_axis(%arg0: tensor<3x2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{requires axis to be in [-2, 2), got 2}}
  %0:2 = "tf.Unpack"(%arg0) {axis = 2 : i64} : (tensor<3x2xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<3xf32>
}

// -----

func.func @split_dim_not_scalar(%arg0: tensor<1xi32>, %arg1: tensor<4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires split_dim to have rank 0, got 'tensor<1xi32>'}}
  %0:2 = "tf.Split"(%arg0, %arg1) : (tensor<1xi32>, tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @split_v_sizes(%arg0: tensor<4xf32>, %arg1: tensor<3xi32>, %arg2: tensor<i32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires size_splits to have one element per result (2), got 3}}
  %0:2 = "tf.SplitV"(%arg0, %arg1, %arg2) : (tensor<4xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func @fill_value_not_scalar(%arg0: tensor<2xi32>, %arg1: tensor<1xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires value to have rank 0, got 'tensor<1xf32>'}}
  %0 = "tf.Fill"(%arg0, %arg1) : (tensor<2xi32>, tensor<1xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pad_paddings_shape(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires paddings to have shape [rank, 2], got 'tensor<2x3xi32>'}}
  %0 = "tf.Pad"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pad_paddings_rows(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires paddings to have 2 rows like the rank of input, got 3}}
  %0 = "tf.Pad"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3x2xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @mirror_pad_paddings_rows(%arg0: tensor<2x3xf32>, %arg1: tensor<3x2xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires paddings to have 2 rows like the rank of input, got 3}}
  %0 = "tf.MirrorPad"(%arg0, %arg1) {mode = "REFLECT"} : (tensor<2x3xf32>, tensor<3x2xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @mirror_pad_mode(%arg0: tensor<2x3xf32>, %arg1: tensor<2x2xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.MirrorPad' op requires mode to be REFLECT or SYMMETRIC, got 'CONSTANT'}}
  %0 = "tf.MirrorPad"(%arg0, %arg1) {mode = "CONSTANT"} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @pad_v2_constant(%arg0: tensor<2x3xf32>, %arg1: tensor<2x2xi32>, %arg2: tensor<2xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires constant_values to have rank 0, got 'tensor<2xf32>'}}
  %0 = "tf.PadV2"(%arg0, %arg1, %arg2) : (tensor<2x3xf32>, tensor<2x2xi32>, tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @strided_slice_lengths(%arg0: tensor<4x3xf32>, %arg1: tensor<1xi32>, %arg2: tensor<2xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires begin, end and strides to have the same length, got 1 and 2 (end)}}
  %0 = "tf.StridedSlice"(%arg0, %arg1, %arg2, %arg1) : (tensor<4x3xf32>, tensor<1xi32>, tensor<2xi32>, tensor<1xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @strided_slice_ellipsis(%arg0: tensor<4x3xf32>, %arg1: tensor<2xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires at most one bit set in ellipsis_mask, got 3}}
  %0 = "tf.StridedSlice"(%arg0, %arg1, %arg1, %arg1) {ellipsis_mask = 3 : i64} : (tensor<4x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @top_k_k(%arg0: tensor<2x10xf32>, %arg1: tensor<1xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{requires k to have rank 0, got 'tensor<1xi32>'}}
  %0:2 = "tf.TopKV2"(%arg0, %arg1) : (tensor<2x10xf32>, tensor<1xi32>) -> (tensor<*xf32>, tensor<*xi32>)
  return %0#0 : tensor<*xf32>
}

// -----

func.func private @cond(tensor<i32>) -> tensor<i1>
func.func private @body(tensor<i32>) -> tensor<i32>

func.func @while_count(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{requires as many results as loop values, got 2 results and 1 operands}}
  %0:2 = "tf.While"(%arg0) {body = @body, cond = @cond, is_stateless = true} : (tensor<i32>) -> (tensor<i32>, tensor<i32>)
  return %0#0 : tensor<i32>
}

// -----

func.func private @t()
func.func private @e()

func.func @if_missing_is_stateless(%arg0: tensor<i1>) {
  // expected-error @+1 {{requires attribute 'is_stateless'}}
  "tf.If"(%arg0) {else_branch = @e, then_branch = @t} : (tensor<i1>) -> ()
  return
}

// -----

func.func @case_no_branches(%arg0: tensor<i32>) {
  // expected-error @+1 {{attribute 'branches' failed to satisfy constraint}}
  "tf.Case"(%arg0) {branches = [], is_stateless = true} : (tensor<i32>) -> ()
  return
}

// -----

func.func @if_undefined_branch(%arg0: tensor<i1>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{requires then_branch to name a function, got @nowhere}}
  %0 = "tf.If"(%arg0, %arg1) {else_branch = @nowhere, is_stateless = true, then_branch = @nowhere} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func private @then(tensor<2xf32>) -> tensor<2xf32>
func.func private @else(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>

func.func @if_branch_arity(%arg0: tensor<i1>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{requires else_branch @else to take 1 arguments, got 2}}
  %0 = "tf.If"(%arg0, %arg1) {else_branch = @else, is_stateless = true, then_branch = @then} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func private @cond(tensor<i32>) -> (tensor<i1>, tensor<i1>)
func.func private @body(tensor<i32>) -> tensor<i32>

func.func @while_cond_results(%arg0: tensor<i32>) -> tensor<i32> {
  // expected-error @+1 {{requires cond @cond to return 1 results, got 2}}
  %0 = "tf.While"(%arg0) {body = @body, cond = @cond, is_stateless = true} : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func private @b0(tensor<2xf32>) -> tensor<2xf32>
func.func private @b1() -> tensor<2xf32>

func.func @case_branch_arity(%arg0: tensor<i32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{requires branches @b1 to take 1 arguments, got 0}}
  %0 = "tf.Case"(%arg0, %arg1) {branches = [@b0, @b1], is_stateless = true} : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @partitioned_call_undefined(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{requires f to name a function, got @missing}}
  %0 = "tf.PartitionedCall"(%arg0) {f = @missing} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func private @fn(tensor<i32>) -> tensor<i32>

func.func @legacy_call_results(%arg0: tensor<i32>) {
  // expected-error @+1 {{requires f @fn to return 0 results, got 1}}
  "tf.LegacyCall"(%arg0) {f = @fn} : (tensor<i32>) -> ()
  return
}
