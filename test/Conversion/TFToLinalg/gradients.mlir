// RUN: kiln-opt %s -split-input-file --convert-tf-to-linalg | FileCheck %s

// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 * 2 + d0, d6 * 2 + d1, d2)>
// CHECK-DAG: #[[$DY:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>
// CHECK-DAG: #[[$DW:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_backprop_filter
// CHECK-SAME:    (%[[X:.+]]: tensor<2x7x7x3xf32>, %[[DY:.+]]: tensor<2x4x4x8xf32>)
// CHECK:         %[[P:.+]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         %[[Z:.+]] = linalg.fill {{.+}} -> tensor<3x3x3x8xf32>
// CHECK:         %[[R:.+]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$DY]], #[[$DW]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[P]], %[[DY]] : tensor<2x9x9x3xf32>, tensor<2x4x4x8xf32>) outs(%[[Z]] : tensor<3x3x3x8xf32>)
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK:         return %[[R]]
func.func @conv_backprop_filter(%x: tensor<2x7x7x3xf32>, %dy: tensor<2x4x4x8xf32>) -> tensor<3x3x3x8xf32> {
  %sizes = "tf.Const"() {value = dense<[3, 3, 3, 8]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "tf.Conv2DBackpropFilter"(%x, %sizes, %dy) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<2x7x7x3xf32>, tensor<4xi32>, tensor<2x4x4x8xf32>) -> tensor<3x3x3x8xf32>
  return %0 : tensor<3x3x3x8xf32>
}

// -----

// The first generic finds each window's maximum and its position; the
// second gathers the gradients per input element.
// CHECK-LABEL: func.func @max_pool_grad
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<1x4x4x2xf32>
// CHECK:         %[[ARG:.+]]:2 = linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]], %{{.+}} : tensor<1x4x4x2xf32>, tensor<2x2xf32>) outs(%{{.+}}, %{{.+}} : tensor<1x2x2x2xf32>, tensor<1x2x2x2xi32>)
// CHECK:           arith.cmpf ogt
// CHECK:           arith.cmpf oeq
// CHECK:           arith.cmpi slt
// CHECK:         %[[R:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<1x4x4x2xf32>)
// CHECK:           tensor.extract %[[ARG]]#1
// CHECK:           tensor.extract
// CHECK:         return %[[R]]
func.func @max_pool_grad(%x: tensor<1x4x4x2xf32>, %y: tensor<1x2x2x2xf32>, %dy: tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = "tf.MaxPoolGrad"(%x, %y, %dy) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x2xf32>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}
