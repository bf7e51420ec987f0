// REQUIRES: mlir-runner
// RUN: kiln-opt %s --tf-decompose-tensor-arrays --tf-shape-inference --convert-tf-control-flow-to-scf --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// A TF1 loop gradient's stack, as TensorFlow builds it: a forward loop of
// three iterations (its counter below 3; max_size -1) pushes v0 = x,
// v1 = tanh(v0), v2 = tanh(v1) on the stack, and a backward loop that runs
// as many iterations pops them in reverse order into g = 2 g + v, giving
// 4 v2 + 2 v1 + v0: 3.15147 for x = 0.5 and 5.09125 for x = 1 (pops in
// push order would give 4 v0 + 2 v1 + v2 instead).
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x = "tf.Const"() {value = dense<[0.5, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %g0 = "tf.Const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %minus = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %s = "tf.StackV2"(%minus) {elem_type = f32, stack_name = "f_acc"} : (tensor<i32>) -> tensor<!tf_type.resource>
  %f:2 = "tf.WhileRegion"(%zero, %x) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%i: tensor<i32>, %v: tensor<2xf32>):
    %c = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %v: tensor<2xf32>):
    %p = "tf.StackPushV2"(%s, %v) {swap_memory = false} : (tensor<!tf_type.resource>, tensor<2xf32>) -> tensor<2xf32>
    %w = "tf.Tanh"(%p) : (tensor<2xf32>) -> tensor<2xf32>
    %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next, %w) : (tensor<i32>, tensor<2xf32>) -> ()
  }) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  %b:2 = "tf.WhileRegion"(%f#0, %g0) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%k: tensor<i32>, %g: tensor<2xf32>):
    %c = "tf.Greater"(%k, %zero) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%k: tensor<i32>, %g: tensor<2xf32>):
    %v = "tf.StackPopV2"(%s) : (tensor<!tf_type.resource>) -> tensor<2xf32>
    %g2 = "tf.Mul"(%g, %two) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %g1 = "tf.AddV2"(%g2, %v) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %k1 = "tf.Sub"(%k, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%k1, %g1) : (tensor<i32>, tensor<2xf32>) -> ()
  }) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  "tf.StackCloseV2"(%s) : (tensor<!tf_type.resource>) -> ()
  %u = tensor.cast %b#1 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
// CHECK:      rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [3.15147,  5.09125]
