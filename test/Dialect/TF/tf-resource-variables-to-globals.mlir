// RUN: kiln-opt %s -split-input-file --tf-resource-variables-to-globals | FileCheck %s
// RUN: kiln-opt %s -split-input-file --tf-resource-variables-to-globals=freeze-read-only=false | FileCheck %s --check-prefix=NOFREEZE

// A variable initialized by a constant in @main, then read, incremented and
// assigned by @step, which @main calls twice: one global with the constant as
// initial value; loads and stores stay in program order. The initializing
// assignment stays as a store, so a second run of @main resets the variable
// as TensorFlow would.
// CHECK:         ml_program.global private mutable @counter(dense<0.000000e+00> : tensor<2xf32>) : tensor<2xf32>
// CHECK-LABEL: func.func @main
// CHECK-NOT:     tf.VarHandleOp
// CHECK:         %[[ZERO:.+]] = "tf.Const"
// CHECK:         ml_program.global_store @counter = %[[ZERO]] : tensor<2xf32>
// CHECK:         call @step
// CHECK:         call @step
// CHECK:         %[[R:.+]] = ml_program.global_load @counter : tensor<2xf32>
// CHECK:         return %[[R]]
// CHECK-LABEL: func.func private @step
// CHECK-NOT:     tf.VarHandleOp
// CHECK:         %[[OLD:.+]] = ml_program.global_load @counter : tensor<2xf32>
// CHECK:         %[[NEW:.+]] = "tf.AddV2"(%[[OLD]], %{{.+}})
// CHECK:         ml_program.global_store @counter = %[[NEW]] : tensor<2xf32>
// CHECK:         %[[AFTER:.+]] = ml_program.global_load @counter : tensor<2xf32>
// CHECK:         return %[[AFTER]]
func.func @main() -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "counter"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %zero) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %a = call @step() : () -> tensor<2xf32>
  %b = call @step() : () -> tensor<2xf32>
  %r = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func private @step() -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "counter"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %one = "tf.Const"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %old = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %new = "tf.AddV2"(%old, %one) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %new) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %after = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %after : tensor<2xf32>
}

// -----

// Two handles with one shared_name are one variable; another container is
// another variable. Names are sanitized and made unique. A variable read
// before any assignment has no initial value.
// CHECK-DAG:     ml_program.global private mutable @dense_kernel : tensor<3xi32>
// CHECK-DAG:     ml_program.global private mutable @dense_kernel_0 : tensor<3xi32>
// CHECK-LABEL: func.func @shared
// CHECK-SAME:    (%[[X:.+]]: tensor<3xi32>)
// CHECK:         %[[R:.+]] = ml_program.global_load @[[G:dense_kernel(_0)?]] : tensor<3xi32>
// CHECK:         ml_program.global_store @[[G]] = %[[X]] : tensor<3xi32>
// CHECK:         ml_program.global_store @[[O:dense_kernel(_0)?]] = %[[X]] : tensor<3xi32>
// CHECK:         %[[S:.+]] = ml_program.global_load @[[G]] : tensor<3xi32>
// CHECK:         return %[[R]], %[[S]]
func.func @shared(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %a = "tf.VarHandleOp"() {container = "", shared_name = "dense/kernel"} : () -> tensor<!tf_type.resource<tensor<3xi32>>>
  %b = "tf.VarHandleOp"() {container = "", shared_name = "dense/kernel"} : () -> tensor<!tf_type.resource<tensor<3xi32>>>
  %c = "tf.VarHandleOp"() {container = "other", shared_name = "dense/kernel"} : () -> tensor<!tf_type.resource<tensor<3xi32>>>
  %r = "tf.ReadVariableOp"(%a) : (tensor<!tf_type.resource<tensor<3xi32>>>) -> tensor<3xi32>
  "tf.AssignVariableOp"(%b, %x) : (tensor<!tf_type.resource<tensor<3xi32>>>, tensor<3xi32>) -> ()
  "tf.AssignVariableOp"(%c, %x) : (tensor<!tf_type.resource<tensor<3xi32>>>, tensor<3xi32>) -> ()
  %s = "tf.ReadVariableOp"(%a) : (tensor<!tf_type.resource<tensor<3xi32>>>) -> tensor<3xi32>
  return %r, %s : tensor<3xi32>, tensor<3xi32>
}

// -----

// A variable only read after its constant initializer is frozen: the reads
// become the constant and no global is left. Without freezing it is an
// immutable global read with global_load_const.
// CHECK-NOT:     ml_program.global
// CHECK-LABEL: func.func @frozen
// CHECK-NOT:     tf.VarHandleOp
// CHECK-NOT:     tf.AssignVariableOp
// CHECK-NOT:     ml_program
// CHECK:         %[[C:.+]] = "tf.Const"() <{value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}>
// CHECK:         %[[M:.+]] = "tf.Mul"(%[[C]], %{{.+}})
// CHECK:         return %[[M]]
// NOFREEZE:      ml_program.global private @w(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : tensor<2xf32>
// NOFREEZE-LABEL: func.func @frozen
// NOFREEZE-NOT:  tf.AssignVariableOp
// NOFREEZE:      ml_program.global_load_const @w : tensor<2xf32>
func.func @frozen(%x: tensor<2xf32>) -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {shared_name = "w"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %init = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %init) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %w = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %m = "tf.Mul"(%w, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %m : tensor<2xf32>
}

// -----

// Reads and assignments inside tf.WhileRegion and tf.IfRegion bodies become
// loads and stores in place. Without a subtype the global takes the type of
// the values read and assigned; a read of another type gets a tf.Identity.
// CHECK:         ml_program.global private mutable @acc(dense<0> : tensor<i32>) : tensor<i32>
// CHECK-LABEL: func.func @nested
// CHECK:         ml_program.global_store @acc
// CHECK:         "tf.WhileRegion"
// CHECK:           %[[L:.+]] = ml_program.global_load @acc : tensor<i32>
// CHECK:           %[[A:.+]] = "tf.AddV2"(%[[L]], %{{.+}})
// CHECK:           ml_program.global_store @acc = %[[A]] : tensor<i32>
// CHECK:         "tf.IfRegion"
// CHECK:           ml_program.global_store @acc = %{{.+}} : tensor<i32>
// CHECK:         }, {
// CHECK:         %[[F:.+]] = ml_program.global_load @acc : tensor<i32>
// CHECK:         %[[U:.+]] = "tf.Identity"(%[[F]]) : (tensor<i32>) -> tensor<*xi32>
// CHECK:         return %[[U]]
func.func @nested(%n: tensor<i32>, %c: tensor<i1>) -> tensor<*xi32> {
  %h = "tf.VarHandleOp"() {shared_name = "acc"} : () -> tensor<!tf_type.resource>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  "tf.AssignVariableOp"(%h, %zero) : (tensor<!tf_type.resource>, tensor<i32>) -> ()
  %r = "tf.WhileRegion"(%zero) ({
  ^bb0(%i: tensor<i32>):
    %p = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    %v = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource>) -> tensor<i32>
    %a = "tf.AddV2"(%v, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.AssignVariableOp"(%h, %a) : (tensor<!tf_type.resource>, tensor<i32>) -> ()
    %j = "tf.AddV2"(%i, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%j) : (tensor<i32>) -> ()
  }) {is_stateless = false, parallel_iterations = 10 : i64} : (tensor<i32>) -> tensor<i32>
  "tf.IfRegion"(%c) ({
    "tf.AssignVariableOp"(%h, %r) : (tensor<!tf_type.resource>, tensor<i32>) -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i1>) -> ()
  %f = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource>) -> tensor<*xi32>
  return %f : tensor<*xi32>
}

// -----

// A SavedModel's restore from its checkpoint (the importer marks it
// `_kiln_restore`) gives the initial value and is dropped even though the
// function assigns the variable again: a call must not reset the state.
// CHECK:         ml_program.global private mutable @restored(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : tensor<2xf32>
// CHECK-LABEL: func.func @restored_main
// CHECK-NOT:     ml_program.global_store @restored = %{{.+}} : tensor<2xf32>{{$}}
// CHECK:         %[[OLD:.+]] = ml_program.global_load @restored
// CHECK:         %[[NEW:.+]] = "tf.AddV2"(%[[OLD]], %arg0)
// CHECK:         ml_program.global_store @restored = %[[NEW]]
// CHECK-NOT:     ml_program.global_store
func.func @restored_main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "restored"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %init = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %init) {_kiln_restore = true} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %old = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %new = "tf.AddV2"(%old, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %new) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  return %new : tensor<2xf32>
}
