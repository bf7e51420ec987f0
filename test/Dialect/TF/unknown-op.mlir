// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --canonicalize | FileCheck %s --check-prefix=CANON

// tf ops that Kiln does not define parse and print in generic form, keep
// their attributes and are never treated as side-effect free.

// CHECK-LABEL: func.func @unknown_op
// CHECK-SAME: (%[[X:.+]]: tensor<2xf32>)
// CANON-LABEL: func.func @unknown_op
func.func @unknown_op(%arg0: tensor<2xf32>) -> tensor<*xf32> {
  // CHECK: %[[R:.+]] = "tf.NoSuchOpForKiln"(%[[X]]) {T = f32, device = "", k = 3 : i64} : (tensor<2xf32>) -> tensor<*xf32>
  // CHECK: return %[[R]]
  // CANON: "tf.NoSuchOpForKiln"
  %0 = "tf.NoSuchOpForKiln"(%arg0) {T = f32, device = "", k = 3 : i64} : (tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func.func @unknown_op_no_results
// CANON-LABEL: func.func @unknown_op_no_results
func.func @unknown_op_no_results(%arg0: tensor<2xf32>) {
  // CHECK: "tf.NoSuchSinkForKiln"(%{{.+}}) : (tensor<2xf32>) -> ()
  // CANON: "tf.NoSuchSinkForKiln"
  "tf.NoSuchSinkForKiln"(%arg0) : (tensor<2xf32>) -> ()
  return
}
