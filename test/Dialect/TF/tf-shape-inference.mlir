// RUN: kiln-opt %s -split-input-file --tf-shape-inference | FileCheck %s

// Static argument shapes flow through element-wise and broadcasting ops and
// into the function's result types.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME:    -> tensor<4x3xf32>
// CHECK:         "tf.Neg"(%{{.+}}) : (tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK:         "tf.AddV2"(%{{.+}}, %{{.+}}) : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
func.func @elementwise(%a: tensor<4x1xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  %0 = "tf.Neg"(%a) : (tensor<4x1xf32>) -> tensor<*xf32>
  %1 = "tf.AddV2"(%0, %b) : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// Constant operands decide shapes: a Reshape with -1.
// CHECK-LABEL: func.func @reshape
// CHECK:         "tf.Reshape"(%{{.+}}, %{{.+}}) : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<6x4xf32>
func.func @reshape(%x: tensor<2x3x4xf32>) -> tensor<*xf32> {
  %shape = "tf.Const"() {value = dense<[-1, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%x, %shape) : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Types flow through islands and out of the graph.
// CHECK-LABEL: func.func @through_islands
// CHECK-SAME:    -> tensor<5xi32>
// CHECK:         %[[G:.+]] = tf_executor.graph
// CHECK:           tf_executor.island wraps "tf.Neg"(%{{.+}}) : (tensor<5xi32>) -> tensor<5xi32>
// CHECK:           tf_executor.island wraps "tf.Abs"(%{{.+}}) : (tensor<5xi32>) -> tensor<5xi32>
// CHECK:           tf_executor.fetch %{{.+}} : tensor<5xi32>
func.func @through_islands(%x: tensor<5xi32>) -> tensor<*xi32> {
  %g = tf_executor.graph {
    %n, %nc = tf_executor.island wraps "tf.Neg"(%x) : (tensor<5xi32>) -> tensor<*xi32>
    %a, %ac = tf_executor.island wraps "tf.Abs"(%n) : (tensor<*xi32>) -> tensor<*xi32>
    tf_executor.fetch %a : tensor<*xi32>
  }
  return %g : tensor<*xi32>
}

// -----

// Unknown dimensions stay dynamic; what is known is kept.
// CHECK-LABEL: func.func @dynamic_batch
// CHECK:         "tf.AddV2"(%{{.+}}, %{{.+}}) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
func.func @dynamic_batch(%x: tensor<?x8xf32>, %b: tensor<8xf32>) -> tensor<*xf32> {
  %0 = "tf.AddV2"(%x, %b) : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Branch results join what the branches yield.
// CHECK-LABEL: func.func @if_region
// CHECK:         "tf.IfRegion"
// CHECK:         }) : (tensor<i1>) -> tensor<?x3xf32>
func.func @if_region(%c: tensor<i1>, %a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<*xf32> {
  %r = "tf.IfRegion"(%c) ({
    %n = "tf.Neg"(%a) : (tensor<2x3xf32>) -> tensor<*xf32>
    "tf.Yield"(%n) : (tensor<*xf32>) -> ()
  }, {
    "tf.Yield"(%b) : (tensor<4x3xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

// A loop value that keeps its shape keeps it; one that grows gets `?`, and
// what was inferred from the narrower shape inside the body is redone.
// CHECK-LABEL: func.func @while_region
// CHECK:         "tf.WhileRegion"
// CHECK:         ^bb0(%{{.+}}: tensor<i32>, %{{.+}}: tensor<?xf32>):
// CHECK:         ^bb0(%{{.+}}: tensor<i32>, %[[V:.+]]: tensor<?xf32>):
// CHECK:           "tf.AddV2"(%{{.+}}, %{{.+}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK:           "tf.ConcatV2"(%[[V]], %[[V]], %{{.+}}) : (tensor<?xf32>, tensor<?xf32>, tensor<i32>) -> tensor<?xf32>
// CHECK:         }) : (tensor<i32>, tensor<1xf32>) -> (tensor<i32>, tensor<?xf32>)
func.func @while_region(%i0: tensor<i32>, %x: tensor<1xf32>, %p: tensor<i1>) -> (tensor<*xi32>, tensor<*xf32>) {
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %r:2 = "tf.WhileRegion"(%i0, %x) ({
  ^bb0(%i: tensor<*xi32>, %v: tensor<*xf32>):
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<*xi32>, %v: tensor<*xf32>):
    %j = "tf.AddV2"(%i, %one) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
    %n = "tf.ConcatV2"(%v, %v, %axis) : (tensor<*xf32>, tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
    "tf.Yield"(%j, %n) : (tensor<*xi32>, tensor<*xf32>) -> ()
  }) {is_stateless = true} : (tensor<i32>, tensor<1xf32>) -> (tensor<*xi32>, tensor<*xf32>)
  return %r#0, %r#1 : tensor<*xi32>, tensor<*xf32>
}

// -----

// The map_fn of TensorFlow's object-detection preprocessing (handtrack): a
// loop reads the rows of a list made from the input, and sets a resized
// image into a list reserved with an unknown element shape. The reserved
// list takes the type of the items set into it, which the loop carries, so
// TensorListStack after the loop is static. The loop values carry the
// lists' element types.
// CHECK-LABEL: func.func @tensor_list_map_fn
// CHECK-SAME:    -> tensor<1x4x4x3xf32>
// CHECK:         %[[OUT:.+]] = "tf.TensorListReserve"({{.+}}) <{element_dtype = f32}> : (tensor<i32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<4x4x3xf32>>>
// CHECK:         %[[IN:.+]] = "tf.TensorListFromTensor"({{.+}}) : (tensor<1x8x8x3xui8>, tensor<3xi32>) -> tensor<!tf_type.variant<tensor<8x8x3xui8>>>
// CHECK:         %[[R:.+]]:3 = "tf.WhileRegion"(%{{.+}}, %[[OUT]], %[[IN]])
// CHECK:         ^bb0(%{{.+}}: tensor<i32>, %{{.+}}: tensor<!tf_type.variant<tensor<4x4x3xf32>>>, %{{.+}}: tensor<!tf_type.variant<tensor<8x8x3xui8>>>):
// CHECK:         ^bb0(%{{.+}}: tensor<i32>, %[[ACC:.+]]: tensor<!tf_type.variant<tensor<4x4x3xf32>>>, %[[ROWS:.+]]: tensor<!tf_type.variant<tensor<8x8x3xui8>>>):
// CHECK:           "tf.TensorListGetItem"(%[[ROWS]], %{{.+}}, %{{.+}}) : (tensor<!tf_type.variant<tensor<8x8x3xui8>>>, tensor<i32>, tensor<3xi32>) -> tensor<8x8x3xui8>
// CHECK:           "tf.ResizeBilinear"({{.+}}) {{.+}} -> tensor<1x4x4x3xf32>
// CHECK:           "tf.TensorListSetItem"(%[[ACC]], {{.+}}) : (tensor<!tf_type.variant<tensor<4x4x3xf32>>>, tensor<i32>, tensor<4x4x3xf32>) -> tensor<!tf_type.variant<tensor<4x4x3xf32>>>
// CHECK:         "tf.TensorListStack"(%[[R]]#1, %{{.+}}) <{num_elements = 1 : i64}> : (tensor<!tf_type.variant<tensor<4x4x3xf32>>>, tensor<3xi32>) -> tensor<1x4x4x3xf32>
func.func @tensor_list_map_fn(%x: tensor<1x8x8x3xui8>) -> tensor<*xf32> {
  %unknown = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %rows = "tf.Const"() {value = dense<[-1, -1, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %size = "tf.Const"() {value = dense<4> : tensor<2xi32>} : () -> tensor<2xi32>
  %stacked = "tf.Const"() {value = dense<[-1, -1, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %out = "tf.TensorListReserve"(%unknown, %one) {element_dtype = f32} : (tensor<i32>, tensor<i32>) -> tensor<*x!tf_type.variant>
  %in = "tf.TensorListFromTensor"(%x, %rows) : (tensor<1x8x8x3xui8>, tensor<3xi32>) -> tensor<*x!tf_type.variant>
  %r:3 = "tf.WhileRegion"(%zero, %out, %in) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<*x!tf_type.variant>, %l: tensor<*x!tf_type.variant>):
    %c = "tf.Less"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<*x!tf_type.variant>, %l: tensor<*x!tf_type.variant>):
    %image = "tf.TensorListGetItem"(%l, %i, %rows) : (tensor<*x!tf_type.variant>, tensor<i32>, tensor<3xi32>) -> tensor<*xui8>
    %f = "tf.Cast"(%image) : (tensor<*xui8>) -> tensor<*xf32>
    %b = "tf.ExpandDims"(%f, %zero) : (tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
    %resized = "tf.ResizeBilinear"(%b, %size) : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xf32>
    %s = "tf.Squeeze"(%resized) {squeeze_dims = [0]} : (tensor<*xf32>) -> tensor<*xf32>
    %next = "tf.TensorListSetItem"(%acc, %i, %s) : (tensor<*x!tf_type.variant>, tensor<i32>, tensor<*xf32>) -> tensor<*x!tf_type.variant>
    %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%j, %next, %l) : (tensor<i32>, tensor<*x!tf_type.variant>, tensor<*x!tf_type.variant>) -> ()
  }) {is_stateless = true} : (tensor<i32>, tensor<*x!tf_type.variant>, tensor<*x!tf_type.variant>) -> (tensor<i32>, tensor<*x!tf_type.variant>, tensor<*x!tf_type.variant>)
  %y = "tf.TensorListStack"(%r#1, %stacked) {num_elements = 1 : i64} : (tensor<*x!tf_type.variant>, tensor<3xi32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Items of two shapes set into one list (in two branches): the list's
// element type is their join, and a read gets the `?`.
// CHECK-LABEL: func.func @tensor_list_items_join
// CHECK:         "tf.TensorListReserve"({{.+}}) -> tensor<!tf_type.variant<tensor<?x3xf32>>>
// CHECK:         "tf.TensorListGetItem"({{.+}}) -> tensor<?x3xf32>
func.func @tensor_list_items_join(%p: tensor<i1>, %a: tensor<2x3xf32>, %b: tensor<5x3xf32>) -> tensor<*xf32> {
  %unknown = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %l = "tf.TensorListReserve"(%unknown, %two) {element_dtype = f32} : (tensor<i32>, tensor<i32>) -> tensor<*x!tf_type.variant>
  %s = "tf.IfRegion"(%p) ({
    %x = "tf.TensorListSetItem"(%l, %zero, %a) : (tensor<*x!tf_type.variant>, tensor<i32>, tensor<2x3xf32>) -> tensor<*x!tf_type.variant>
    "tf.Yield"(%x) : (tensor<*x!tf_type.variant>) -> ()
  }, {
    %y = "tf.TensorListSetItem"(%l, %zero, %b) : (tensor<*x!tf_type.variant>, tensor<i32>, tensor<5x3xf32>) -> tensor<*x!tf_type.variant>
    "tf.Yield"(%y) : (tensor<*x!tf_type.variant>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<*x!tf_type.variant>
  %item = "tf.TensorListGetItem"(%s, %zero, %unknown) : (tensor<*x!tf_type.variant>, tensor<i32>, tensor<i32>) -> tensor<*xf32>
  return %item : tensor<*xf32>
}

// -----

// Constants inside a loop keep their types when the loop's values widen and
// the body is inferred again (a constant's type is its value's): faceboxes'
// non-max-suppression map reads a TensorArray at a constant index inside
// nested loops, and that constant used to be left unranked, which its
// verifier refuses.
// CHECK-LABEL: func.func @while_region_inner_constants
// CHECK:         "tf.WhileRegion"
// CHECK:           "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
// CHECK:           "tf.WhileRegion"
// CHECK:             "tf.Const"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
// CHECK:             "tf.ConcatV2"({{.+}}) : (tensor<?xf32>, tensor<?xf32>, tensor<i32>) -> tensor<?xf32>
func.func @while_region_inner_constants(%x: tensor<1xf32>, %p: tensor<i1>) -> tensor<*xf32> {
  %r = "tf.WhileRegion"(%x) ({
  ^bb0(%v: tensor<*xf32>):
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%v: tensor<*xf32>):
    %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %inner = "tf.WhileRegion"(%v) ({
    ^bb0(%w: tensor<*xf32>):
      "tf.Yield"(%p) : (tensor<i1>) -> ()
    }, {
    ^bb0(%w: tensor<*xf32>):
      %k = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
      %n = "tf.ConcatV2"(%w, %w, %k) : (tensor<*xf32>, tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
      "tf.Yield"(%n) : (tensor<*xf32>) -> ()
    }) {is_stateless = true} : (tensor<*xf32>) -> tensor<*xf32>
    %m = "tf.ConcatV2"(%inner, %v, %axis) : (tensor<*xf32>, tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
    "tf.Yield"(%m) : (tensor<*xf32>) -> ()
  }) {is_stateless = true} : (tensor<1xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}
