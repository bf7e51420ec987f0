// RUN: kiln-opt %s --kiln-tf-graph-pipeline | FileCheck %s

// An imported graph with a functional conditional becomes one function of
// tf ops with static shapes; the branch functions are dropped.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.+]]: tensor<2x3xf32>, %[[C:.+]]: tensor<i1>) -> tensor<2x3xf32>
// CHECK-NOT:     tf_executor
// CHECK:         %[[R:.+]] = "tf.IfRegion"(%[[C]])
// CHECK:           "tf.Neg"(%[[X]]) {{.*}} -> tensor<2x3xf32>
// CHECK:         }) : (tensor<i1>) -> tensor<2x3xf32>
// CHECK:         %[[S:.+]] = "tf.Relu"(%[[R]]) {{.*}} -> tensor<2x3xf32>
// CHECK:         return %[[S]]
// CHECK-NOT:     func.func private
func.func @main(%x: tensor<2x3xf32>, %c: tensor<i1>) -> tensor<*xf32> {
  %g = tf_executor.graph {
    %r, %rc = tf_executor.island wraps "tf.If"(%c, %x) {then_branch = @neg, else_branch = @id, is_stateless = true} : (tensor<i1>, tensor<2x3xf32>) -> tensor<*xf32>
    %s, %sc = tf_executor.island wraps "tf.Relu"(%r) : (tensor<*xf32>) -> tensor<*xf32>
    tf_executor.fetch %s : tensor<*xf32>
  }
  return %g : tensor<*xf32>
}
func.func private @neg(%a: tensor<*xf32>) -> tensor<*xf32> {
  %0 = tf_executor.graph {
    %n, %nc = tf_executor.island wraps "tf.Neg"(%a) : (tensor<*xf32>) -> tensor<*xf32>
    tf_executor.fetch %n : tensor<*xf32>
  }
  return %0 : tensor<*xf32>
}
func.func private @id(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}
