// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @if_region
// CHECK:         %[[R:.+]] = "tf.IfRegion"(%{{.+}}) <{is_stateless = true}> ({
// CHECK:           "tf.Yield"(%{{.+}}) : (tensor<2xf32>) -> ()
// CHECK:         }, {
// CHECK:           "tf.Yield"(%{{.+}}) : (tensor<?xf32>) -> ()
// CHECK:         }) : (tensor<i1>) -> tensor<?xf32>
func.func @if_region(%c: tensor<i1>, %a: tensor<2xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %r = "tf.IfRegion"(%c) ({
    "tf.Yield"(%a) : (tensor<2xf32>) -> ()
  }, {
    "tf.Yield"(%b) : (tensor<?xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @while_region
// CHECK:         "tf.WhileRegion"(%{{.+}}) <{is_stateless = false, parallel_iterations = 4 : i64}> ({
// CHECK:         ^bb0(%[[I:.+]]: tensor<i32>):
// CHECK:           "tf.Yield"(%{{.+}}) : (tensor<i1>) -> ()
// CHECK:         }, {
// CHECK:         ^bb0(%[[J:.+]]: tensor<i32>):
// CHECK:           "tf.Yield"(%{{.+}}) : (tensor<i32>) -> ()
func.func @while_region(%x: tensor<i32>, %n: tensor<i32>) -> tensor<i32> {
  %r = "tf.WhileRegion"(%x) ({
  ^bb0(%i: tensor<i32>):
    %p = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%p) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    %j = "tf.AddV2"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%j) : (tensor<i32>) -> ()
  }) {is_stateless = false, parallel_iterations = 4 : i64} : (tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// -----

// CHECK-LABEL: func.func @case_region
// CHECK:         "tf.CaseRegion"(%{{.+}}) <{is_stateless = true}> ({
// CHECK:         }, {
// CHECK:         }, {
// CHECK:         }) : (tensor<i32>) -> tensor<f32>
func.func @case_region(%i: tensor<i32>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %r = "tf.CaseRegion"(%i) ({
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%b) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%a) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<f32>
  return %r : tensor<f32>
}
