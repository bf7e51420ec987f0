// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %x = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c = "tf.Const"() {value = dense<3.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.AddV2"(%c, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %u = tensor.cast %0 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
// CHECK: [4, 5]
