// RUN: kiln-opt %s -split-input-file --tf-executor-raise-conditionals | FileCheck %s

// pred ? x * y : x + 1, with two switched values and a control edge inside
// the true side: one island with a tf.IfRegion replaces Switches and Merge.
// CHECK-LABEL: func.func @cond
// CHECK-SAME:    (%[[X:.+]]: tensor<f32>, %[[Y:.+]]: tensor<f32>, %[[P:.+]]: tensor<i1>)
// CHECK:         %[[ONE:[^,]+]], %{{.+}} = tf_executor.island wraps "tf.Const"
// CHECK:         %[[R:[^,]+]], %{{.+}} = tf_executor.island wraps "tf.IfRegion"(%[[P]]) <{is_stateless = false}> ({
// CHECK:           %[[M:.+]] = "tf.Mul"(%[[X]], %[[Y]])
// CHECK:           "tf.Yield"(%[[M]])
// CHECK:         }, {
// CHECK:           %[[A:.+]] = "tf.AddV2"(%[[X]], %[[ONE]])
// CHECK:           "tf.Yield"(%[[A]])
// CHECK:         })
// CHECK:         tf_executor.fetch %[[R]]
// CHECK-NOT:     tf_executor.Switch
// CHECK-NOT:     tf_executor.Merge
func.func @cond(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %g = tf_executor.graph {
    %one, %oc = tf_executor.island wraps "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
    %xf, %xt, %xc = tf_executor.Switch %x, %p : tensor<f32>
    %yf, %yt, %yc = tf_executor.Switch %y, %p : tensor<f32>
    %m, %mc = tf_executor.island(%yc) wraps "tf.Mul"(%xt, %yt) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %a, %ac = tf_executor.island wraps "tf.AddV2"(%xf, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %r, %ri, %rc = tf_executor.Merge %a, %m : tensor<f32>
    tf_executor.fetch %r : tensor<f32>
  }
  return %g : tensor<f32>
}

// -----

// Nested: the inner conditional (on %q, inside the true side of %p) is
// raised first and becomes an island of the outer one's then_branch.
// CHECK-LABEL: func.func @nested
// CHECK:         tf_executor.island wraps "tf.IfRegion"(%{{.+}}) <{is_stateless = false}> ({
// CHECK:           "tf.IfRegion"
// CHECK:         }, {
// CHECK-NOT:     tf_executor.Switch
func.func @nested(%x: tensor<f32>, %p: tensor<i1>, %q: tensor<i1>) -> tensor<f32> {
  %g = tf_executor.graph {
    %xf, %xt, %xc = tf_executor.Switch %x, %p : tensor<f32>
    %qf, %qt, %qc = tf_executor.Switch %q, %p : tensor<i1>
    %if, %it, %ic = tf_executor.Switch %xt, %qt : tensor<f32>
    %n, %nc = tf_executor.island wraps "tf.Neg"(%it) : (tensor<f32>) -> tensor<f32>
    %s, %sc = tf_executor.island wraps "tf.Square"(%if) : (tensor<f32>) -> tensor<f32>
    %inner, %ii, %inc = tf_executor.Merge %s, %n : tensor<f32>
    %ab, %abc = tf_executor.island wraps "tf.Abs"(%xf) : (tensor<f32>) -> tensor<f32>
    %r, %ri, %rc = tf_executor.Merge %ab, %inner : tensor<f32>
    tf_executor.fetch %r : tensor<f32>
  }
  return %g : tensor<f32>
}

// -----

// _SwitchN: one side per output; a Merge with one input from each side
// joins them into a tf.CaseRegion.
// CHECK-LABEL: func.func @switch_n
// CHECK-SAME:    (%[[X:.+]]: tensor<f32>, %[[I:.+]]: tensor<i32>)
// CHECK:         %[[R:[^,]+]], %{{.+}} = tf_executor.island wraps "tf.CaseRegion"(%[[I]]) <{is_stateless = false}> ({
// CHECK:           "tf.Neg"(%[[X]])
// CHECK:         }, {
// CHECK:           "tf.Abs"(%[[X]])
// CHECK:         }, {
// CHECK:           "tf.Square"(%[[X]])
// CHECK:         })
// CHECK:         tf_executor.fetch %[[R]]
// CHECK-NOT:     tf_executor._SwitchN
func.func @switch_n(%x: tensor<f32>, %i: tensor<i32>) -> tensor<f32> {
  %g = tf_executor.graph {
    %o:3, %c = tf_executor._SwitchN %x, %i of 3 : tensor<f32>
    %a, %ac = tf_executor.island wraps "tf.Neg"(%o#0) : (tensor<f32>) -> tensor<f32>
    %b, %bc = tf_executor.island wraps "tf.Abs"(%o#1) : (tensor<f32>) -> tensor<f32>
    %s, %sc = tf_executor.island wraps "tf.Square"(%o#2) : (tensor<f32>) -> tensor<f32>
    %r, %ri, %rc = "tf_executor.Merge"(%a, %b, %s) : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch %r : tensor<f32>
  }
  return %g : tensor<f32>
}
