// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefI32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// tf.reduce_all and tf.reduce_any (All, Any) of
// [[true, true, false], [true, true, true]]: over axis 1, [false, true] and
// [true, true]; over axis 0 with keep_dims, [[true, true, false]] and
// [[true, true, true]]; printed as 0/1 after a cast to int32.
func.func private @printMemrefI32(tensor<*xi32>)
func.func @main() {
  %x = "tf.Const"() {value = dense<[[true, true, false], [true, true, true]]> : tensor<2x3xi1>} : () -> tensor<2x3xi1>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %all1 = "tf.All"(%x, %one) : (tensor<2x3xi1>, tensor<i32>) -> tensor<2xi1>
  %any1 = "tf.Any"(%x, %one) : (tensor<2x3xi1>, tensor<i32>) -> tensor<2xi1>
  %all0 = "tf.All"(%x, %zero) {keep_dims = true} : (tensor<2x3xi1>, tensor<1xi64>) -> tensor<1x3xi1>
  %any0 = "tf.Any"(%x, %zero) {keep_dims = true} : (tensor<2x3xi1>, tensor<1xi64>) -> tensor<1x3xi1>
  %a = "tf.Cast"(%all1) : (tensor<2xi1>) -> tensor<2xi32>
  %b = "tf.Cast"(%any1) : (tensor<2xi1>) -> tensor<2xi32>
  %c = "tf.Cast"(%all0) : (tensor<1x3xi1>) -> tensor<1x3xi32>
  %d = "tf.Cast"(%any0) : (tensor<1x3xi1>) -> tensor<1x3xi32>
  %ua = tensor.cast %a : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%ua) : (tensor<*xi32>) -> ()
  %ub = tensor.cast %b : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%ub) : (tensor<*xi32>) -> ()
  %uc = tensor.cast %c : tensor<1x3xi32> to tensor<*xi32>
  call @printMemrefI32(%uc) : (tensor<*xi32>) -> ()
  %ud = tensor.cast %d : tensor<1x3xi32> to tensor<*xi32>
  call @printMemrefI32(%ud) : (tensor<*xi32>) -> ()
  return
}
// CHECK:      sizes = [2]
// CHECK-NEXT: [0,  1]
// CHECK:      sizes = [2]
// CHECK-NEXT: [1,  1]
// CHECK:      sizes = [1, 3]
// CHECK-NEXT: {{\[\[}}1,   1,   0]]
// CHECK:      sizes = [1, 3]
// CHECK-NEXT: {{\[\[}}1,   1,   1]]
