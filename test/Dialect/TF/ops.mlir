// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// Round trip of one representative op per family, written as TensorFlow
// writes them: inherent attributes in the attribute dictionary, type
// attributes (T, dtype) as extra attributes, `device` discardable.

// CHECK-LABEL: func.func @binary_broadcast
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[Y:.+]]: tensor<3xf32>)
func.func @binary_broadcast(%arg0: tensor<2x3xf32>, %arg1: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: "tf.AddV2"(%[[X]], %[[Y]]) {T = f32, device = ""} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = "tf.AddV2"(%arg0, %arg1) {T = f32, device = ""} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @unary_unranked_result
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
func.func @unary_unranked_result(%arg0: tensor<4xf32>) -> tensor<*xf32> {
  // CHECK: %[[R:.+]] = "tf.Relu"(%[[X]]) : (tensor<4xf32>) -> tensor<*xf32>
  // CHECK: "tf.Tanh"(%[[R]]) : (tensor<*xf32>) -> tensor<*xf32>
  %0 = "tf.Relu"(%arg0) : (tensor<4xf32>) -> tensor<*xf32>
  %1 = "tf.Tanh"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @compare_and_select
// CHECK-SAME: (%[[X:.+]]: tensor<2xi32>, %[[Y:.+]]: tensor<2xi32>)
func.func @compare_and_select(%arg0: tensor<2xi32>, %arg1: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: %[[C:.+]] = "tf.Less"(%[[X]], %[[Y]]) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  // CHECK: "tf.SelectV2"(%[[C]], %[[X]], %[[Y]]) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %0 = "tf.Less"(%arg0, %arg1) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  %1 = "tf.SelectV2"(%0, %arg0, %arg1) : (tensor<2xi1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %1 : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @const
func.func @const() -> (tensor<2xf32>, tensor<!tf_type.string>) {
  // CHECK: "tf.Const"() <{value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
  %0 = "tf.Const"() {device = "", value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  // CHECK: "tf.Const"() <{value = dense<"kiln"> : tensor<!tf_type.string>}> : () -> tensor<!tf_type.string>
  %1 = "tf.Const"() {value = dense<"kiln"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  return %0, %1 : tensor<2xf32>, tensor<!tf_type.string>
}

// -----

// CHECK-LABEL: func.func @placeholder_and_identity
func.func @placeholder_and_identity() -> tensor<1x?xf32> {
  // CHECK: %[[P:.+]] = "tf.Placeholder"() <{shape = #tf_type.shape<1x?>}> {dtype = f32} : () -> tensor<1x?xf32>
  // CHECK: "tf.Identity"(%[[P]]) {T = f32} : (tensor<1x?xf32>) -> tensor<1x?xf32>
  %0 = "tf.Placeholder"() {dtype = f32, shape = #tf_type.shape<1x?>} : () -> tensor<1x?xf32>
  %1 = "tf.Identity"(%0) {T = f32} : (tensor<1x?xf32>) -> tensor<1x?xf32>
  return %1 : tensor<1x?xf32>
}

// -----

// CHECK-LABEL: func.func @identity_n
// CHECK-SAME: (%[[A:.+]]: tensor<i32>, %[[B:.+]]: tensor<f32>)
func.func @identity_n(%arg0: tensor<i32>, %arg1: tensor<f32>) -> (tensor<i32>, tensor<f32>) {
  // CHECK: %[[R:.+]]:2 = "tf.IdentityN"(%[[A]], %[[B]]) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  // CHECK: return %[[R]]#0, %[[R]]#1
  %0:2 = "tf.IdentityN"(%arg0, %arg1) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  return %0#0, %0#1 : tensor<i32>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x3xf32>, %[[W:.+]]: tensor<3x3x3x16xf32>)
func.func @conv2d(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32> {
  // CHECK: "tf.Conv2D"(%[[X]], %[[W]]) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> {T = f32} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  %0 = "tf.Conv2D"(%arg0, %arg1) {T = f32, data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// -----

// CHECK-LABEL: func.func @fused_conv2d
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x3xf32>, %[[W:.+]]: tensor<3x3x3x16xf32>, %[[B:.+]]: tensor<16xf32>)
func.func @fused_conv2d(%arg0: tensor<1x8x8x3xf32>, %arg1: tensor<3x3x3x16xf32>, %arg2: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
  // CHECK: "tf._FusedConv2D"(%[[X]], %[[W]], %[[B]]) <{epsilon = 0.000000e+00 : f32, fused_ops = ["BiasAdd", "Relu6"], padding = "SAME", strides = [1, 1, 1, 1]}> {num_args = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
  %0 = "tf._FusedConv2D"(%arg0, %arg1, %arg2) {epsilon = 0.0 : f32, fused_ops = ["BiasAdd", "Relu6"], num_args = 1 : i64, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
  return %0 : tensor<1x8x8x16xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_and_bias
// CHECK-SAME: (%[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x2xf32>, %[[C:.+]]: tensor<2xf32>)
func.func @matmul_and_bias(%arg0: tensor<4x8xf32>, %arg1: tensor<8x2xf32>, %arg2: tensor<2xf32>) -> tensor<4x2xf32> {
  // CHECK: %[[M:.+]] = "tf.MatMul"(%[[A]], %[[B]]) <{transpose_a = false, transpose_b = false}> : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  // CHECK: "tf.BiasAdd"(%[[M]], %[[C]]) <{data_format = "NHWC"}> : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %0 = "tf.MatMul"(%arg0, %arg1) {transpose_a = false, transpose_b = false} : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  %1 = "tf.BiasAdd"(%0, %arg2) {data_format = "NHWC"} : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}

// -----

// CHECK-LABEL: func.func @max_pool
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x3xf32>)
func.func @max_pool(%arg0: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  // CHECK: "tf.MaxPool"(%[[X]]) <{ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]}> : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  %0 = "tf.MaxPool"(%arg0) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @reduction
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[AXES:.+]]: tensor<1xi32>)
func.func @reduction(%arg0: tensor<2x3xf32>, %arg1: tensor<1xi32>) -> tensor<2x1xf32> {
  // CHECK: "tf.Sum"(%[[X]], %[[AXES]]) <{keep_dims = true}> {Tidx = i32} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<2x1xf32>
  %0 = "tf.Sum"(%arg0, %arg1) {Tidx = i32, keep_dims = true} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_and_shape
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
func.func @reshape_and_shape(%arg0: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2xi64>) {
  // CHECK: %[[S:.+]] = "tf.Const"() <{value = dense<[3, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // CHECK: "tf.Reshape"(%[[X]], %[[S]]) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  // CHECK: "tf.Shape"(%[[X]]) : (tensor<2x3xf32>) -> tensor<2xi64>
  %0 = "tf.Const"() {value = dense<[3, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.Reshape"(%arg0, %0) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %2 = "tf.Shape"(%arg0) : (tensor<2x3xf32>) -> tensor<2xi64>
  return %1, %2 : tensor<3x2xf32>, tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @concat_and_pack
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<2x3xf32>, %[[AXIS:.+]]: tensor<i32>)
func.func @concat_and_pack(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<i32>) -> (tensor<2x6xf32>, tensor<2x2x3xf32>) {
  // CHECK: "tf.ConcatV2"(%[[A]], %[[B]], %[[AXIS]]) {N = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<2x6xf32>
  // CHECK: "tf.Pack"(%[[A]], %[[B]]) <{axis = 0 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2x3xf32>
  %0 = "tf.ConcatV2"(%arg0, %arg1, %arg2) {N = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<2x6xf32>
  %1 = "tf.Pack"(%arg0, %arg1) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2x3xf32>
  return %0, %1 : tensor<2x6xf32>, tensor<2x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @split
// CHECK-SAME: (%[[D:.+]]: tensor<i32>, %[[X:.+]]: tensor<4x6xf32>)
func.func @split(%arg0: tensor<i32>, %arg1: tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  // CHECK: %[[R:.+]]:2 = "tf.Split"(%[[D]], %[[X]]) {num_split = 2 : i64} : (tensor<i32>, tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  %0:2 = "tf.Split"(%arg0, %arg1) {num_split = 2 : i64} : (tensor<i32>, tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>)
  return %0#0, %0#1 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @cast
// CHECK-SAME: (%[[X:.+]]: tensor<4xi32>)
func.func @cast(%arg0: tensor<4xi32>) -> tensor<4xf32> {
  // CHECK: "tf.Cast"(%[[X]]) <{Truncate = false}> {DstT = f32, SrcT = i32} : (tensor<4xi32>) -> tensor<4xf32>
  %0 = "tf.Cast"(%arg0) {DstT = f32, SrcT = i32, Truncate = false} : (tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @then_branch(tensor<2xf32>) -> tensor<2xf32>
func.func private @else_branch(tensor<2xf32>) -> tensor<2xf32>

// CHECK-LABEL: func.func @functional_if
// CHECK-SAME: (%[[C:.+]]: tensor<i1>, %[[X:.+]]: tensor<2xf32>)
func.func @functional_if(%arg0: tensor<i1>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: "tf.If"(%[[C]], %[[X]]) <{else_branch = @else_branch, is_stateless = true, then_branch = @then_branch}> : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %0 = "tf.If"(%arg0, %arg1) {else_branch = @else_branch, is_stateless = true, then_branch = @then_branch} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func private @cond(tensor<i32>) -> tensor<i1>
func.func private @body(tensor<i32>) -> tensor<i32>

// CHECK-LABEL: func.func @functional_while
// CHECK-SAME: (%[[X:.+]]: tensor<i32>)
func.func @functional_while(%arg0: tensor<i32>) -> tensor<i32> {
  // CHECK: "tf.While"(%[[X]]) <{body = @body, cond = @cond, is_stateless = false, parallel_iterations = 10 : i64}> {T = [i32]} : (tensor<i32>) -> tensor<i32>
  %0 = "tf.While"(%arg0) {T = [i32], body = @body, cond = @cond, is_stateless = false, parallel_iterations = 10 : i64} : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func private @b0(tensor<2xf32>) -> tensor<2xf32>
func.func private @b1(tensor<2xf32>) -> tensor<2xf32>

// CHECK-LABEL: func.func @case_and_calls
// CHECK-SAME: (%[[I:.+]]: tensor<i32>, %[[X:.+]]: tensor<2xf32>)
func.func @case_and_calls(%arg0: tensor<i32>, %arg1: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // CHECK: "tf.Case"(%[[I]], %[[X]]) <{branches = [@b0, @b1], is_stateless = false}> : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: "tf.PartitionedCall"(%[[X]]) <{config = "", config_proto = "", executor_type = "", f = @b0}> : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: "tf.LegacyCall"(%[[X]]) <{_disable_call_shape_inference = true, f = @b1}> : (tensor<2xf32>) -> tensor<2xf32>
  %0 = "tf.Case"(%arg0, %arg1) {branches = [@b0, @b1], is_stateless = false} : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.PartitionedCall"(%arg1) {config = "", config_proto = "", executor_type = "", f = @b0} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.LegacyCall"(%arg1) {_disable_call_shape_inference = true, f = @b1} : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @resource_variable
func.func @resource_variable(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: %[[H:.+]] = "tf.VarHandleOp"() <{container = "", shared_name = "v"}> : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  // CHECK: "tf.AssignVariableOp"(%[[H]], %{{.+}}) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  // CHECK: "tf.ReadVariableOp"(%[[H]]) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %0 = "tf.VarHandleOp"() {container = "", shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  "tf.AssignVariableOp"(%0, %arg0) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %1 = "tf.ReadVariableOp"(%0) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @ref_variable
func.func @ref_variable(%arg0: tensor<i32>) -> tensor<*xi32> {
  // CHECK: %[[V:.+]] = "tf.VariableV2"() <{container = "", shape = #tf_type.shape<>, shared_name = ""}> : () -> tensor<!tf_type.int32ref>
  // CHECK: "tf.AssignAdd"(%[[V]], %{{.+}}) : (tensor<!tf_type.int32ref>, tensor<i32>) -> tensor<*x!tf_type.int32ref>
  %0 = "tf.VariableV2"() {container = "", shape = #tf_type.shape<>, shared_name = ""} : () -> tensor<!tf_type.int32ref>
  %1 = "tf.AssignAdd"(%0, %arg0) : (tensor<!tf_type.int32ref>, tensor<i32>) -> tensor<*x!tf_type.int32ref>
  %2 = "tf.Identity"(%1) : (tensor<*x!tf_type.int32ref>) -> tensor<*xi32>
  return %2 : tensor<*xi32>
}

// -----

// CHECK-LABEL: func.func @tensor_list
// CHECK-SAME: (%[[SHAPE:.+]]: tensor<1xi32>, %[[N:.+]]: tensor<i32>, %[[X:.+]]: tensor<3xf32>)
func.func @tensor_list(%arg0: tensor<1xi32>, %arg1: tensor<i32>, %arg2: tensor<3xf32>) -> tensor<?x3xf32> {
  // CHECK: %[[L:.+]] = "tf.TensorListReserve"(%[[SHAPE]], %[[N]]) <{element_dtype = f32}> : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  // CHECK: %[[L2:.+]] = "tf.TensorListSetItem"(%[[L]], %[[N]], %[[X]]) : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<i32>, tensor<3xf32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  // CHECK: "tf.TensorListStack"(%[[L2]], %[[SHAPE]]) <{num_elements = -1 : i64}> : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1xi32>) -> tensor<?x3xf32>
  %0 = "tf.TensorListReserve"(%arg0, %arg1) {element_dtype = f32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %1 = "tf.TensorListSetItem"(%0, %arg1, %arg2) : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<i32>, tensor<3xf32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %2 = "tf.TensorListStack"(%1, %arg0) {num_elements = -1 : i64} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1xi32>) -> tensor<?x3xf32>
  return %2 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @strided_slice
// CHECK-SAME: (%[[X:.+]]: tensor<4x3xf32>, %[[B:.+]]: tensor<1xi32>)
func.func @strided_slice(%arg0: tensor<4x3xf32>, %arg1: tensor<1xi32>) -> tensor<3xf32> {
  // CHECK: "tf.StridedSlice"(%[[X]], %[[B]], %[[B]], %[[B]]) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> : (tensor<4x3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xf32>
  %0 = "tf.StridedSlice"(%arg0, %arg1, %arg1, %arg1) {begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64} : (tensor<4x3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @no_op
func.func @no_op() {
  // CHECK: "tf.NoOp"() : () -> ()
  "tf.NoOp"() : () -> ()
  return
}

// -----

// Select's operands may differ in how much of the shape they know.
// CHECK-LABEL: func.func @select_partial_types
// CHECK-SAME: (%[[C:.+]]: tensor<2xi1>, %[[T:.+]]: tensor<2xf32>, %[[E:.+]]: tensor<*xf32>)
func.func @select_partial_types(%arg0: tensor<2xi1>, %arg1: tensor<2xf32>, %arg2: tensor<*xf32>) -> tensor<*xf32> {
  // CHECK: "tf.Select"(%[[C]], %[[T]], %[[E]]) : (tensor<2xi1>, tensor<2xf32>, tensor<*xf32>) -> tensor<*xf32>
  %0 = "tf.Select"(%arg0, %arg1, %arg2) : (tensor<2xi1>, tensor<2xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}
