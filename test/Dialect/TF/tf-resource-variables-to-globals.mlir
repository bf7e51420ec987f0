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

// -----

// Two entries compiled into one object (kiln-compile --entries), each
// imported with the SavedModel's restore of the state: both restores give
// the initial value and are dropped, so neither entry resets the state; the
// reset (`zero`) and the step's update stay stores. The weight, restored in
// one entry only and never assigned, is folded.
// CHECK:         ml_program.global private mutable @state(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : tensor<2xf32>
// CHECK-LABEL: func.func @reset
// CHECK-NOT:     "tf.AssignVariableOp"
// CHECK:         %[[Z:.+]] = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2xf32>}>
// CHECK-NEXT:    ml_program.global_store @state = %[[Z]]
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @step
// CHECK-NOT:     "tf.AssignVariableOp"
// CHECK-NOT:     @weight
// CHECK:         %[[OLD:.+]] = ml_program.global_load @state
// CHECK:         %[[NEW:.+]] = "tf.AddV2"(%[[OLD]], %{{.+}})
// CHECK:         ml_program.global_store @state = %[[NEW]]
// CHECK-NOT:     ml_program.global_store
func.func @reset() {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "state"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %init = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %init) {_kiln_restore = true} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %zero = "tf.Const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %zero) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  return
}
func.func @step(%x: tensor<2xf32>) -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "state"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %init = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %init) {_kiln_restore = true} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %w = "tf.VarHandleOp"() {container = "", shared_name = "weight"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %wv = "tf.Const"() {value = dense<[3.0, 4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%w, %wv) {_kiln_restore = true} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %old = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %weight = "tf.ReadVariableOp"(%w) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %scaled = "tf.Mul"(%x, %weight) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %new = "tf.AddV2"(%old, %scaled) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %new) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  return %new : tensor<2xf32>
}

// -----

// TensorFlow 2's while_v2 carries the handles of the variables its body
// reads as loop values (Keras' RNN layers): a handle the body yields
// unchanged is the loop's input throughout, so the reads in the loop read
// the global and the loop drops the handle.
// CHECK:         ml_program.global private mutable @carried : tensor<2xf32>
// CHECK-LABEL: func.func @loop_carried_handle
// CHECK:         %[[R:.+]]:2 = "tf.WhileRegion"(%{{.+}}, %{{.+}}) <{is_stateless = false}> ({
// CHECK-NEXT:    ^bb0(%{{.+}}: tensor<i32>, %{{.+}}: tensor<2xf32>):
// CHECK:         }, {
// CHECK-NEXT:    ^bb0(%{{.+}}: tensor<i32>, %[[ACC:.+]]: tensor<2xf32>):
// CHECK:           %[[V:.+]] = ml_program.global_load @carried
// CHECK:           %[[S:.+]] = "tf.AddV2"(%[[ACC]], %[[V]])
// CHECK:           "tf.Yield"(%{{.+}}, %[[S]]) : (tensor<i32>, tensor<2xf32>) -> ()
// CHECK:         }) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
// CHECK:         ml_program.global_store @carried = %[[R]]#1
func.func @loop_carried_handle(%n: tensor<i32>) -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "carried"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %r:3 = "tf.WhileRegion"(%n, %zero, %h) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<2xf32>, %hc: tensor<!tf_type.resource<tensor<2xf32>>>):
    %z = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %p = "tf.Greater"(%i, %z) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<2xf32>, %hb: tensor<!tf_type.resource<tensor<2xf32>>>):
    %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %j = "tf.Sub"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %v = "tf.ReadVariableOp"(%hb) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
    %s = "tf.AddV2"(%acc, %v) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "tf.Yield"(%j, %s, %hb) : (tensor<i32>, tensor<2xf32>, tensor<!tf_type.resource<tensor<2xf32>>>) -> ()
  }) {is_stateless = false} : (tensor<i32>, tensor<2xf32>, tensor<!tf_type.resource<tensor<2xf32>>>) -> (tensor<i32>, tensor<2xf32>, tensor<!tf_type.resource>)
  "tf.AssignVariableOp"(%r#2, %r#1) : (tensor<!tf_type.resource>, tensor<2xf32>) -> ()
  return %r#1 : tensor<2xf32>
}
