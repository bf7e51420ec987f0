// REQUIRES: mlir-runner
// RUN: kiln-opt %s --tf-decompose-tensor-arrays --tf-shape-inference --convert-tf-control-flow-to-scf --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// A TF1 tf.while_loop over tensor arrays, as TensorFlow builds it: %in is
// unstacked from [[1], [2], [3], [4]] (a scatter of every element), the
// loop reads element i of %in for i = 0, 1, 2, writes [i, 10 i] + in[i] to
// element i of %out (5 elements, the last two never written), and %out is
// stacked after the loop. TensorFlow gives [[1, 1], [3, 12], [5, 23], [0, 0],
// [0, 0]]: elements never written read as zeros.
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %five = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %four = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %scale = "tf.Const"() {value = dense<[1.0, 10.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %rows = "tf.Const"() {value = dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %out, %outFlow = "tf.TensorArrayV3"(%five) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %in, %inFlow = "tf.TensorArrayV3"(%four) {dtype = f32, element_shape = #tf_type.shape<1>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
  %range = "tf.Range"(%zero, %four, %one) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
  %inFull = "tf.TensorArrayScatterV3"(%in, %range, %rows, %inFlow) : (tensor<2x!tf_type.resource>, tensor<4xi32>, tensor<4x1xf32>, tensor<f32>) -> tensor<f32>
  %r:2 = "tf.WhileRegion"(%zero, %outFlow) <{is_stateless = false, parallel_iterations = 10 : i64}> ({
  ^bb0(%i: tensor<i32>, %flow: tensor<f32>):
    %c = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %flow: tensor<f32>):
    %f = "tf.Cast"(%i) : (tensor<i32>) -> tensor<f32>
    %item = "tf.Mul"(%scale, %f) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
    %row = "tf.TensorArrayReadV3"(%in, %i, %inFull) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<1xf32>
    %sum = "tf.AddV2"(%item, %row) : (tensor<2xf32>, tensor<1xf32>) -> tensor<2xf32>
    %flow1 = "tf.TensorArrayWriteV3"(%out, %i, %sum, %flow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next, %flow1) : (tensor<i32>, tensor<f32>) -> ()
  }) : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  %exit = "tf.Identity"(%r#1) : (tensor<f32>) -> tensor<f32>
  %size = "tf.TensorArraySizeV3"(%out, %exit) : (tensor<2x!tf_type.resource>, tensor<f32>) -> tensor<i32>
  %all = "tf.Range"(%zero, %size, %one) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  %stacked = "tf.TensorArrayGatherV3"(%out, %all, %exit) {element_shape = #tf_type.shape<2>} : (tensor<2x!tf_type.resource>, tensor<?xi32>, tensor<f32>) -> tensor<5x2xf32>
  "tf.TensorArrayCloseV3"(%out) : (tensor<2x!tf_type.resource>) -> ()
  %u = tensor.cast %stacked : tensor<5x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
// CHECK:      rank = 2 offset = 0 sizes = [5, 2]
// CHECK-NEXT: [1,   1]
// CHECK-NEXT: [3,   12]
// CHECK-NEXT: [5,   23]
// CHECK-NEXT: [0,   0]
// CHECK-NEXT: [0,   0]
