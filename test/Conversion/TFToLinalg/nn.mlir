// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file | FileCheck %s

// MatMul: a plain linalg.matmul accumulating into a zero-filled result.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: tensor<2x3xf32>, %[[B:.+]]: tensor<3x4xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<2x4xf32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x4xf32>)
// CHECK: %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[INIT]] : tensor<2x4xf32>)
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "tf.MatMul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// transpose_a / transpose_b become transposed indexing maps (m, n, k).

// CHECK-DAG: #[[$AT:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[$BT:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[$C:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_transposed
// CHECK-SAME: (%[[A:.+]]: tensor<3x2xf32>, %[[B:.+]]: tensor<4x3xf32>)
// CHECK: %[[R:.+]] = linalg.matmul indexing_maps = [#[[$AT]], #[[$BT]], #[[$C]]] ins(%[[A]], %[[B]] : tensor<3x2xf32>, tensor<4x3xf32>) outs(%{{.+}} : tensor<2x4xf32>)
// CHECK: return %[[R]]
func.func @matmul_transposed(%a: tensor<3x2xf32>, %b: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %0 = "tf.MatMul"(%a, %b) {transpose_a = true, transpose_b = true} : (tensor<3x2xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// f16 accumulates in f32, then truncates.

// CHECK-LABEL: func.func @matmul_f16
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.+}} : tensor<2x4xf32>)
// CHECK: %[[ACC:.+]] = linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x3xf16>, tensor<3x4xf16>) outs(%[[INIT]] : tensor<2x4xf32>)
// CHECK: %[[R:.+]] = linalg.generic
// CHECK-SAME: ins(%[[ACC]] : tensor<2x4xf32>) outs(%{{.+}} : tensor<2x4xf16>)
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: return %[[R]]
func.func @matmul_f16(%a: tensor<2x3xf16>, %b: tensor<3x4xf16>) -> tensor<2x4xf16> {
  %0 = "tf.MatMul"(%a, %b) : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

// i32 with dynamic sizes taken from the operands.

// CHECK-LABEL: func.func @matmul_i32_dynamic
// CHECK-SAME: (%[[A:.+]]: tensor<?x3xi32>, %[[B:.+]]: tensor<3x?xi32>)
// CHECK-DAG: %[[M:.+]] = tensor.dim %[[A]], %{{.+}} : tensor<?x3xi32>
// CHECK-DAG: %[[N:.+]] = tensor.dim %[[B]], %{{.+}} : tensor<3x?xi32>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xi32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : i32) outs(%[[EMPTY]] : tensor<?x?xi32>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<?x3xi32>, tensor<3x?xi32>) outs(%[[INIT]] : tensor<?x?xi32>)
func.func @matmul_i32_dynamic(%a: tensor<?x3xi32>, %b: tensor<3x?xi32>) -> tensor<?x?xi32> {
  %0 = "tf.MatMul"(%a, %b) : (tensor<?x3xi32>, tensor<3x?xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

// -----

// CHECK-LABEL: func.func @batch_matmul
// CHECK-SAME: (%[[X:.+]]: tensor<5x2x3xf32>, %[[Y:.+]]: tensor<5x3x4xf32>)
// CHECK: %[[R:.+]] = linalg.batch_matmul ins(%[[X]], %[[Y]] : tensor<5x2x3xf32>, tensor<5x3x4xf32>) outs(%{{.+}} : tensor<5x2x4xf32>)
// CHECK: return %[[R]]
func.func @batch_matmul(%x: tensor<5x2x3xf32>, %y: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  %0 = "tf.BatchMatMulV2"(%x, %y) : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

// adj_x / adj_y transpose the inner two dimensions (b, m, n, k).

// CHECK-DAG: #[[$XT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG: #[[$YT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @batch_matmul_adjoint
// CHECK: linalg.batch_matmul indexing_maps = [#[[$XT]], #[[$YT]], #[[$OUT]]] ins(%{{.+}}, %{{.+}} : tensor<5x3x2xf32>, tensor<5x4x3xf32>)
func.func @batch_matmul_adjoint(%x: tensor<5x3x2xf32>, %y: tensor<5x4x3xf32>) -> tensor<5x2x4xf32> {
  %0 = "tf.BatchMatMulV2"(%x, %y) {adj_x = true, adj_y = true} : (tensor<5x3x2xf32>, tensor<5x4x3xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// -----

// Batch dimensions [2,1] and [6] broadcast to [2,6], collapse into 12 for
// linalg.batch_matmul, and expand back.

// CHECK-DAG: #[[$XB:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$YB:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-LABEL: func.func @batch_matmul_broadcast
// CHECK-SAME: (%[[X:.+]]: tensor<2x1x2x3xf32>, %[[Y:.+]]: tensor<6x3x4xf32>)
// CHECK: %[[XB:.+]] = linalg.generic {indexing_maps = [#[[$XB]], #[[$ID]]]
// CHECK-SAME: ins(%[[X]] : tensor<2x1x2x3xf32>) outs(%{{.+}} : tensor<2x6x2x3xf32>)
// CHECK: %[[YB:.+]] = linalg.generic {indexing_maps = [#[[$YB]], #[[$ID]]]
// CHECK-SAME: ins(%[[Y]] : tensor<6x3x4xf32>) outs(%{{.+}} : tensor<2x6x3x4xf32>)
// CHECK: %[[XC:.+]] = tensor.collapse_shape %[[XB]] {{\[}}[0, 1], [2], [3]] : tensor<2x6x2x3xf32> into tensor<12x2x3xf32>
// CHECK: %[[YC:.+]] = tensor.collapse_shape %[[YB]] {{\[}}[0, 1], [2], [3]] : tensor<2x6x3x4xf32> into tensor<12x3x4xf32>
// CHECK: %[[P:.+]] = linalg.batch_matmul ins(%[[XC]], %[[YC]] : tensor<12x2x3xf32>, tensor<12x3x4xf32>) outs(%{{.+}} : tensor<12x2x4xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[P]] {{\[}}[0, 1], [2], [3]] output_shape [2, 6, 2, 4] : tensor<12x2x4xf32> into tensor<2x6x2x4xf32>
// CHECK: return %[[R]]
func.func @batch_matmul_broadcast(%x: tensor<2x1x2x3xf32>, %y: tensor<6x3x4xf32>) -> tensor<2x6x2x4xf32> {
  %0 = "tf.BatchMatMulV2"(%x, %y) : (tensor<2x1x2x3xf32>, tensor<6x3x4xf32>) -> tensor<2x6x2x4xf32>
  return %0 : tensor<2x6x2x4xf32>
}

// -----

// A dynamic batch size comes from the operand that has it; the expand
// takes it as its output shape.

// CHECK-LABEL: func.func @batch_matmul_dynamic_batch
// CHECK-SAME: (%[[X:.+]]: tensor<?x1x2x3xf32>, %[[Y:.+]]: tensor<5x3x4xf32>)
// CHECK: %[[B:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x1x2x3xf32>
// CHECK: tensor.empty(%[[B]]) : tensor<?x5x2x3xf32>
// CHECK: %[[XB:.+]] = linalg.generic
// CHECK-SAME: ins(%[[X]] : tensor<?x1x2x3xf32>) outs(%{{.+}} : tensor<?x5x2x3xf32>)
// CHECK: tensor.empty(%[[B]]) : tensor<?x5x3x4xf32>
// CHECK: %[[YB:.+]] = linalg.generic
// CHECK-SAME: ins(%[[Y]] : tensor<5x3x4xf32>) outs(%{{.+}} : tensor<?x5x3x4xf32>)
// CHECK: %[[XC:.+]] = tensor.collapse_shape %[[XB]] {{\[}}[0, 1], [2], [3]] : tensor<?x5x2x3xf32> into tensor<?x2x3xf32>
// CHECK: %[[YC:.+]] = tensor.collapse_shape %[[YB]] {{\[}}[0, 1], [2], [3]] : tensor<?x5x3x4xf32> into tensor<?x3x4xf32>
// CHECK: %[[P:.+]] = linalg.batch_matmul ins(%[[XC]], %[[YC]] : tensor<?x2x3xf32>, tensor<?x3x4xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[P]] {{\[}}[0, 1], [2], [3]] output_shape [%[[B]], 5, 2, 4] : tensor<?x2x4xf32> into tensor<?x5x2x4xf32>
// CHECK: return %[[R]]
func.func @batch_matmul_dynamic_batch(%x: tensor<?x1x2x3xf32>, %y: tensor<5x3x4xf32>) -> tensor<?x5x2x4xf32> {
  %0 = "tf.BatchMatMulV2"(%x, %y) : (tensor<?x1x2x3xf32>, tensor<5x3x4xf32>) -> tensor<?x5x2x4xf32>
  return %0 : tensor<?x5x2x4xf32>
}
// -----

// Without batch dimensions: linalg.matmul.

// CHECK-LABEL: func.func @batch_matmul_rank2
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<3x4xf32>)
func.func @batch_matmul_rank2(%x: tensor<2x3xf32>, %y: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "tf.BatchMatMulV2"(%x, %y) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Einsum (the maxim models' equations): a loop per label, output labels
// first, the contracted label g last as a reduction.

// CHECK-DAG: #[[$X:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[$W:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @einsum_abcg_gf
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x16xf32>, %[[W:.+]]: tensor<16x32xf32>)
// CHECK: %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x8x8x32xf32>)
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[$X]], #[[$W]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]], %[[W]] : tensor<1x8x8x16xf32>, tensor<16x32xf32>) outs(%[[INIT]] : tensor<1x8x8x32xf32>)
// CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %[[ACC:.+]]: f32):
// CHECK: %[[P:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK: %[[S:.+]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK: return %[[R]]
func.func @einsum_abcg_gf(%x: tensor<1x8x8x16xf32>, %w: tensor<16x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = "tf.Einsum"(%x, %w) {equation = "abcg,gf->abcf"} : (tensor<1x8x8x16xf32>, tensor<16x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}

// -----

// CHECK-DAG: #[[$A:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d4, d0)>
// CHECK-DAG: #[[$T:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d2, d3)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @einsum_gb_cgef
// CHECK: linalg.generic {indexing_maps = [#[[$A]], #[[$T]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%{{.+}} : tensor<6x1x8x8xf32>)
func.func @einsum_gb_cgef(%a: tensor<4x6xf32>, %t: tensor<1x4x8x8xf32>) -> tensor<6x1x8x8xf32> {
  %0 = "tf.Einsum"(%a, %t) {equation = "gb,cgef->bcef"} : (tensor<4x6xf32>, tensor<1x4x8x8xf32>) -> tensor<6x1x8x8xf32>
  return %0 : tensor<6x1x8x8xf32>
}

// -----

// No contracted label: the body yields the operand, nothing is summed.

// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @einsum_transpose
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "parallel"]}
// CHECK: ^bb0(%[[V:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[V]] : f32
func.func @einsum_transpose(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "tf.Einsum"(%x) {equation = "ij->ji"} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// BiasAdd NHWC: the bias follows the last dimension.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$C:.+]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @bias_add
// CHECK-SAME: (%[[X:.+]]: tensor<1x4x4x8xf32>, %[[B:.+]]: tensor<8xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$C]], #[[$ID]]]
// CHECK-SAME: ins(%[[X]], %[[B]] : tensor<1x4x4x8xf32>, tensor<8xf32>)
// CHECK: arith.addf
func.func @bias_add(%x: tensor<1x4x4x8xf32>, %b: tensor<8xf32>) -> tensor<1x4x4x8xf32> {
  %0 = "tf.BiasAdd"(%x, %b) {data_format = "NHWC"} : (tensor<1x4x4x8xf32>, tensor<8xf32>) -> tensor<1x4x4x8xf32>
  return %0 : tensor<1x4x4x8xf32>
}

// -----

// BiasAdd NCHW: dimension 1; integers add with arith.addi.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$C:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @bias_add_nchw
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$C]], #[[$ID]]]
// CHECK: arith.addi
func.func @bias_add_nchw(%x: tensor<1x8x4x4xi32>, %b: tensor<8xi32>) -> tensor<1x8x4x4xi32> {
  %0 = "tf.BiasAdd"(%x, %b) {data_format = "NCHW"} : (tensor<1x8x4x4xi32>, tensor<8xi32>) -> tensor<1x8x4x4xi32>
  return %0 : tensor<1x8x4x4xi32>
}

// -----

// SAME, stride 2, even input 224: total padding (112-1)*2+3-224 = 1, all of
// it after.

// CHECK-LABEL: func.func @conv2d_same_stride2_even
// CHECK-SAME: (%[[X:.+]]: tensor<1x224x224x3xf32>, %[[W:.+]]: tensor<3x3x3x16xf32>)
// CHECK: %[[PAD:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[PAD]] : f32
// CHECK: } : tensor<1x224x224x3xf32> to tensor<1x225x225x3xf32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x112x112x16xf32>)
// CHECK: %[[R:.+]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[XP]], %[[W]] : tensor<1x225x225x3xf32>, tensor<3x3x3x16xf32>) outs(%[[INIT]] : tensor<1x112x112x16xf32>)
// CHECK: return %[[R]]
func.func @conv2d_same_stride2_even(%x: tensor<1x224x224x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<1x112x112x16xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x224x224x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x112x112x16xf32>
  return %0 : tensor<1x112x112x16xf32>
}

// -----

// SAME, stride 2, odd input: height 7, kernel 3 -> total 2 (1 + 1); width
// 9, kernel 5 -> total (5-1)*2+5-9 = 4 (2 + 2).

// CHECK-LABEL: func.func @conv2d_same_stride2_odd
// CHECK: tensor.pad %{{.+}} low[0, 1, 2, 0] high[0, 1, 2, 0]
// CHECK: } : tensor<1x7x9x3xf32> to tensor<1x9x13x3xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: outs(%{{.+}} : tensor<1x4x5x16xf32>)
func.func @conv2d_same_stride2_odd(%x: tensor<1x7x9x3xf32>, %w: tensor<3x5x3x16xf32>) -> tensor<1x4x5x16xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x7x9x3xf32>, tensor<3x5x3x16xf32>) -> tensor<1x4x5x16xf32>
  return %0 : tensor<1x4x5x16xf32>
}

// -----

// VALID with dilation 2: no padding; the batch stays dynamic.

// CHECK-LABEL: func.func @conv2d_valid_dilated
// CHECK-SAME: (%[[X:.+]]: tensor<?x10x10x3xf32>, %[[W:.+]]: tensor<3x3x3x8xf32>)
// CHECK-NOT: tensor.pad
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x10x10x3xf32>
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[N]]) : tensor<?x6x6x8xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<?x10x10x3xf32>, tensor<3x3x3x8xf32>)
func.func @conv2d_valid_dilated(%x: tensor<?x10x10x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1], dilations = [1, 2, 2, 1]} : (tensor<?x10x10x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32>
  return %0 : tensor<?x6x6x8xf32>
}

// -----

// Dynamic height and width: SAME with stride 1 pads (3 - 1) / 2 on each
// side whatever the size; the output size is the padded size - 2.

// CHECK-LABEL: func.func @conv2d_dynamic_same
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?x3xf32>, %[[W:.+]]: tensor<3x3x3x8xf32>)
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<?x?x?x3xf32> to tensor<?x?x?x3xf32>
// CHECK: %[[N:.+]] = tensor.dim %[[XP]], %{{.+}} : tensor<?x?x?x3xf32>
// CHECK: %[[HP:.+]] = tensor.dim %[[XP]], %{{.+}} : tensor<?x?x?x3xf32>
// CHECK-NEXT: %[[TWO:.+]] = arith.constant 2 : index
// CHECK-NEXT: %[[H:.+]] = arith.subi %[[HP]], %[[TWO]] : index
// CHECK: %[[WP:.+]] = tensor.dim %[[XP]], %{{.+}} : tensor<?x?x?x3xf32>
// CHECK-NEXT: %[[TWO_W:.+]] = arith.constant 2 : index
// CHECK-NEXT: %[[WO:.+]] = arith.subi %[[WP]], %[[TWO_W]] : index
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[N]], %[[H]], %[[WO]]) : tensor<?x?x?x8xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.+}} ins(%[[XP]], %[[W]] : tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>)
func.func @conv2d_dynamic_same(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32>
  return %0 : tensor<?x?x?x8xf32>
}
// -----

// SAME with stride 2 over a dynamic height: TensorFlow's formula at run
// time, total = max((ceil(h / 2) - 1) * 2 + 3 - h, 0), half of it before;
// the static width 8 pads 0 and 1.

// CHECK-LABEL: func.func @conv2d_dynamic_same_stride2
// CHECK-SAME: (%[[X:.+]]: tensor<1x?x8x3xf32>
// CHECK: %[[H:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<1x?x8x3xf32>
// CHECK: %[[OUT:.+]] = arith.ceildivui %[[H]], %{{.+}} : index
// CHECK: %[[OUT1:.+]] = arith.subi %[[OUT]], %{{.+}} : index
// CHECK: %[[STEPS:.+]] = arith.muli %[[OUT1]], %{{.+}} : index
// CHECK: %[[COVERED:.+]] = arith.addi %[[STEPS]], %{{.+}} : index
// CHECK: %[[EXCESS:.+]] = arith.subi %[[COVERED]], %[[H]] : index
// CHECK: %[[TOTAL:.+]] = arith.maxsi %[[EXCESS]], %{{.+}} : index
// CHECK: %[[BEFORE:.+]] = arith.divui %[[TOTAL]], %{{.+}} : index
// CHECK: %[[AFTER:.+]] = arith.subi %[[TOTAL]], %[[BEFORE]] : index
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, %[[BEFORE]], 0, 0] high[0, %[[AFTER]], 1, 0]
// CHECK: } : tensor<1x?x8x3xf32> to tensor<1x?x9x3xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.+}} ins(%[[XP]], %{{.+}} : tensor<1x?x9x3xf32>, tensor<3x3x3x8xf32>) outs(%{{.+}} : tensor<1x?x4x8xf32>)
func.func @conv2d_dynamic_same_stride2(%x: tensor<1x?x8x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x?x4x8xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x?x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x?x4x8xf32>
  return %0 : tensor<1x?x4x8xf32>
}
// -----

// EXPLICIT padding: [before, after] per dimension in data-format order.

// CHECK-LABEL: func.func @conv2d_explicit
// CHECK: tensor.pad %{{.+}} low[0, 2, 0, 0] high[0, 1, 1, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-SAME: outs(%{{.+}} : tensor<1x9x7x8xf32>)
func.func @conv2d_explicit(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x9x7x8xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "EXPLICIT", explicit_paddings = [0, 0, 2, 1, 0, 1, 0, 0], strides = [1, 1, 1, 1]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x9x7x8xf32>
  return %0 : tensor<1x9x7x8xf32>
}

// -----

// NCHW: transposed to NHWC and back.

// CHECK-LABEL: func.func @conv2d_nchw
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x8x8xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<1x3x8x8xf32>) outs(%{{.+}} : tensor<1x8x8x3xf32>) permutation = [0, 2, 3, 1]
// CHECK: %[[XP:.+]] = tensor.pad %[[T]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[C:.+]] = linalg.conv_2d_nhwc_hwcf {{.+}} ins(%[[XP]], %{{.+}} : tensor<1x10x10x3xf32>, tensor<3x3x3x8xf32>)
// CHECK: %[[R:.+]] = linalg.transpose ins(%[[C]] : tensor<1x8x8x8xf32>) outs(%{{.+}} : tensor<1x8x8x8xf32>) permutation = [0, 3, 1, 2]
// CHECK: return %[[R]]
func.func @conv2d_nchw(%x: tensor<1x3x8x8xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = "tf.Conv2D"(%x, %w) {data_format = "NCHW", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<3x3x3x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// bf16 accumulates in f32.

// CHECK-LABEL: func.func @conv2d_bf16
// CHECK: %[[C:.+]] = linalg.conv_2d_nhwc_hwcf {{.+}} ins(%{{.+}}, %{{.+}} : tensor<1x4x4x3xbf16>, tensor<1x1x3x8xbf16>) outs(%{{.+}} : tensor<1x4x4x8xf32>)
// CHECK: linalg.generic {{.+}} ins(%[[C]] : tensor<1x4x4x8xf32>) outs(%{{.+}} : tensor<1x4x4x8xbf16>)
// CHECK: arith.truncf %{{.+}} : f32 to bf16
func.func @conv2d_bf16(%x: tensor<1x4x4x3xbf16>, %w: tensor<1x1x3x8xbf16>) -> tensor<1x4x4x8xbf16> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xbf16>, tensor<1x1x3x8xbf16>) -> tensor<1x4x4x8xbf16>
  return %0 : tensor<1x4x4x8xbf16>
}

// -----

// CHECK-LABEL: func.func @conv2d_i32
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : i32)
// CHECK: %[[R:.+]] = linalg.conv_2d_nhwc_hwcf {{.+}} outs(%[[INIT]] : tensor<1x4x4x8xi32>)
// CHECK: return %[[R]]
func.func @conv2d_i32(%x: tensor<1x4x4x3xi32>, %w: tensor<1x1x3x8xi32>) -> tensor<1x4x4x8xi32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xi32>, tensor<1x1x3x8xi32>) -> tensor<1x4x4x8xi32>
  return %0 : tensor<1x4x4x8xi32>
}

// -----

// Channel multiplier 1: the filter's last dimension collapses into
// linalg.depthwise_conv_2d_nhwc_hwc.

// CHECK-LABEL: func.func @depthwise
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x16xf32>, %[[W:.+]]: tensor<3x3x16x1xf32>)
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: %[[WC:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1], [2, 3]] : tensor<3x3x16x1xf32> into tensor<3x3x16xf32>
// CHECK: %[[R:.+]] = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[XP]], %[[WC]] : tensor<1x9x9x16xf32>, tensor<3x3x16xf32>) outs(%{{.+}} : tensor<1x4x4x16xf32>)
// CHECK: return %[[R]]
func.func @depthwise(%x: tensor<1x8x8x16xf32>, %w: tensor<3x3x16x1xf32>) -> tensor<1x4x4x16xf32> {
  %0 = "tf.DepthwiseConv2dNative"(%x, %w) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x1xf32>) -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}

// -----

// Channel multiplier 2: linalg.depthwise_conv_2d_nhwc_hwcm, [C, M]
// collapsed into channel c * M + m.

// CHECK-LABEL: func.func @depthwise_multiplier
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x4xf32>, %[[W:.+]]: tensor<3x3x4x2xf32>)
// CHECK: %[[C:.+]] = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) outs(%{{.+}} : tensor<1x6x6x4x2xf32>)
// CHECK: %[[R:.+]] = tensor.collapse_shape %[[C]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x6x6x4x2xf32> into tensor<1x6x6x8xf32>
// CHECK: return %[[R]]
func.func @depthwise_multiplier(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x4x2xf32>) -> tensor<1x6x6x8xf32> {
  %0 = "tf.DepthwiseConv2dNative"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

// Conv2DBackpropInput, 3x3, stride 2, SAME, input 8: the forward padding is
// 0 before and 1 after, so out_backprop (4x4) goes with stride 2 into a
// zero tensor at offset 3 - 1 - 0 = 2, padded to 8 + 3 - 1 = 10; the filter
// is flipped spatially with its channel dimensions swapped.

// CHECK-DAG: #[[$FLIP:.+]] = affine_map<(d0, d1, d2, d3) -> (-d0 + 2, -d1 + 2, d3, d2)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv2d_backprop_input
// CHECK-SAME: (%[[W:.+]]: tensor<3x3x8x16xf32>, %[[DY:.+]]: tensor<1x4x4x16xf32>)
// CHECK: %[[ZEROS:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x10x10x16xf32>)
// CHECK: %[[DIL:.+]] = tensor.insert_slice %[[DY]] into %[[ZEROS]][0, 2, 2, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x4x4x16xf32> into tensor<1x10x10x16xf32>
// CHECK: %[[FLIPPED:.+]] = linalg.generic {indexing_maps = [#[[$FLIP]], #[[$ID]]]
// CHECK-SAME: ins(%[[W]] : tensor<3x3x8x16xf32>) outs(%{{.+}} : tensor<3x3x16x8xf32>)
// CHECK: %[[R:.+]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[DIL]], %[[FLIPPED]] : tensor<1x10x10x16xf32>, tensor<3x3x16x8xf32>) outs(%{{.+}} : tensor<1x8x8x8xf32>)
// CHECK: return %[[R]]
func.func @conv2d_backprop_input(%w: tensor<3x3x8x16xf32>, %dy: tensor<1x4x4x16xf32>) -> tensor<1x8x8x8xf32> {
  %sizes = "tf.Const"() {value = dense<[1, 8, 8, 8]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "tf.Conv2DBackpropInput"(%sizes, %w, %dy) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<3x3x8x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// The selfie model's upsampling: 2x2, stride 2, SAME, 128 -> 256; no
// forward padding, offset 1, 1 + 255 + 1 = 257 rows.

// CHECK-LABEL: func.func @conv2d_backprop_input_2x2
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 1, 1, 0] [1, 128, 128, 16] [1, 2, 2, 1] : tensor<1x128x128x16xf32> into tensor<1x257x257x16xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-SAME: tensor<1x257x257x16xf32>, tensor<2x2x16x1xf32>
// CHECK-SAME: outs(%{{.+}} : tensor<1x256x256x1xf32>)
func.func @conv2d_backprop_input_2x2(%w: tensor<2x2x1x16xf32>, %dy: tensor<1x128x128x16xf32>) -> tensor<1x256x256x1xf32> {
  %sizes = "tf.Const"() {value = dense<[1, 256, 256, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "tf.Conv2DBackpropInput"(%sizes, %w, %dy) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<2x2x1x16xf32>, tensor<1x128x128x16xf32>) -> tensor<1x256x256x1xf32>
  return %0 : tensor<1x256x256x1xf32>
}

// -----

// maxim's upsampling: input_sizes computed at run time, VALID, 2x2, stride
// 2. H and W are read from input_sizes; the zeros have H + 1 and W + 1
// rows and columns, out_backprop goes at offset 2 - 1 - 0 = 1; the result
// [N, H, W, 128] is cast to the fully dynamic result type.

// CHECK-LABEL: func.func @conv2d_backprop_input_runtime_sizes
// CHECK-SAME: (%[[SIZES:.+]]: tensor<4xi32>, %[[W:.+]]: tensor<2x2x128x128xf32>, %[[DY:.+]]: tensor<?x?x?x128xf32>)
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[N:.+]] = tensor.dim %[[DY]], %[[C0]] : tensor<?x?x?x128xf32>
// CHECK: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[HI:.+]] = tensor.extract %[[SIZES]][%[[C1]]] : tensor<4xi32>
// CHECK: %[[H:.+]] = arith.index_cast %[[HI]] : i32 to index
// CHECK: %[[HP:.+]] = arith.addi %[[H]], %{{.+}} : index
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK: %[[WI:.+]] = tensor.extract %[[SIZES]][%[[C2]]] : tensor<4xi32>
// CHECK: %[[WW:.+]] = arith.index_cast %[[WI]] : i32 to index
// CHECK: %[[WP:.+]] = arith.addi %[[WW]], %{{.+}} : index
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[N]], %[[HP]], %[[WP]]) : tensor<?x?x?x128xf32>
// CHECK: %[[ZEROS:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<?x?x?x128xf32>)
// CHECK: %[[DIL:.+]] = tensor.insert_slice %[[DY]] into %[[ZEROS]][0, 1, 1, 0] [%{{.+}}, %{{.+}}, %{{.+}}, 128] [1, 2, 2, 1] : tensor<?x?x?x128xf32> into tensor<?x?x?x128xf32>
// CHECK: %[[FLIPPED:.+]] = linalg.generic
// CHECK-SAME: ins(%[[W]] : tensor<2x2x128x128xf32>) outs(%{{.+}} : tensor<2x2x128x128xf32>)
// CHECK: %[[INIT_EMPTY:.+]] = tensor.empty(%[[N]], %[[H]], %[[WW]]) : tensor<?x?x?x128xf32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[INIT_EMPTY]] : tensor<?x?x?x128xf32>)
// CHECK: %[[CONV:.+]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[DIL]], %[[FLIPPED]] : tensor<?x?x?x128xf32>, tensor<2x2x128x128xf32>) outs(%[[INIT]] : tensor<?x?x?x128xf32>)
// CHECK: %[[R:.+]] = tensor.cast %[[CONV]] : tensor<?x?x?x128xf32> to tensor<?x?x?x?xf32>
// CHECK: return %[[R]]
func.func @conv2d_backprop_input_runtime_sizes(%sizes: tensor<4xi32>, %w: tensor<2x2x128x128xf32>, %dy: tensor<?x?x?x128xf32>) -> tensor<?x?x?x?xf32> {
  %0 = "tf.Conv2DBackpropInput"(%sizes, %w, %dy) {padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<2x2x128x128xf32>, tensor<?x?x?x128xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// MaxPool SAME pads with the lowest finite float, which also fills the
// result (TensorFlow's kernel starts from it, not from -inf).

// CHECK-LABEL: func.func @max_pool_same
// CHECK-SAME: (%[[X:.+]]: tensor<1x5x5x8xf32>)
// CHECK: %[[PAD:.+]] = arith.constant -3.40282347E+38 : f32
// CHECK: %[[XP:.+]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: tensor.yield %[[PAD]] : f32
// CHECK: %[[LOWEST:.+]] = arith.constant -3.40282347E+38 : f32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[LOWEST]] : f32) outs(%{{.+}} : tensor<1x3x3x8xf32>)
// CHECK: %[[WINDOW:.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK: %[[R:.+]] = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[XP]], %[[WINDOW]] : tensor<1x7x7x8xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<1x3x3x8xf32>)
// CHECK: return %[[R]]
func.func @max_pool_same(%x: tensor<1x5x5x8xf32>) -> tensor<1x3x3x8xf32> {
  %0 = "tf.MaxPool"(%x) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x5x5x8xf32>) -> tensor<1x3x3x8xf32>
  return %0 : tensor<1x3x3x8xf32>
}

// -----

// uint8: the unsigned max, starting from 0.

// CHECK-LABEL: func.func @max_pool_unsigned
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i8
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : i8)
// CHECK: linalg.pooling_nhwc_max_unsigned {{.+}} outs(%[[INIT]] : tensor<1x2x2x8xi8>)
func.func @max_pool_unsigned(%x: tensor<1x4x4x8xui8>) -> tensor<1x2x2x8xui8> {
  %0 = "tf.MaxPool"(%x) {ksize = [1, 2, 2, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x4x4x8xui8>) -> tensor<1x2x2x8xui8>
  return %0 : tensor<1x2x2x8xui8>
}

// -----

// CHECK-LABEL: func.func @max_pool_nchw
// CHECK: linalg.transpose {{.+}} permutation = [0, 2, 3, 1]
// CHECK: linalg.pooling_nhwc_max
// CHECK: linalg.transpose {{.+}} permutation = [0, 3, 1, 2]
func.func @max_pool_nchw(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x2x2xf32> {
  %0 = "tf.MaxPool"(%x) {data_format = "NCHW", ksize = [1, 1, 2, 2], padding = "VALID", strides = [1, 1, 2, 2]} : (tensor<1x8x4x4xf32>) -> tensor<1x8x2x2xf32>
  return %0 : tensor<1x8x2x2xf32>
}

// -----

// VALID over dynamic sizes: (size - 3) / 2 + 1 at run time.

// CHECK-LABEL: func.func @max_pool_dynamic_valid
// CHECK-SAME: (%[[X:.+]]: tensor<1x?x?x8xf32>)
// CHECK-NOT: tensor.pad
// CHECK: %[[H:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<1x?x?x8xf32>
// CHECK: %[[SPAN:.+]] = arith.subi %[[H]], %{{.+}} : index
// CHECK: %[[STEPS:.+]] = arith.divui %[[SPAN]], %{{.+}} : index
// CHECK: %[[OH:.+]] = arith.addi %[[STEPS]], %{{.+}} : index
// CHECK: %[[OW:.+]] = arith.addi
// CHECK: tensor.empty(%[[OH]], %[[OW]]) : tensor<1x?x?x8xf32>
// CHECK: linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %{{.+}} : tensor<1x?x?x8xf32>, tensor<3x3xf32>)
func.func @max_pool_dynamic_valid(%x: tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32> {
  %0 = "tf.MaxPool"(%x) {ksize = [1, 3, 3, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32>
  return %0 : tensor<1x?x?x8xf32>
}
// -----

// AvgPool VALID: every window counts 16 * 16 = 256 elements.

// CHECK-LABEL: func.func @avg_pool_valid
// CHECK: %[[SUM:.+]] = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<16> : tensor<2xi64>}
// CHECK: %[[COUNT:.+]] = arith.constant 2.560000e+02 : f32
// CHECK: %[[R:.+]] = linalg.generic {{.+}} ins(%[[SUM]] : tensor<1x1x1x8xf32>)
// CHECK: arith.divf %{{.+}}, %[[COUNT]] : f32
// CHECK: return %[[R]]
func.func @avg_pool_valid(%x: tensor<1x16x16x8xf32>) -> tensor<1x1x1x8xf32> {
  %0 = "tf.AvgPool"(%x) {ksize = [1, 16, 16, 1], padding = "VALID", strides = [1, 16, 16, 1]} : (tensor<1x16x16x8xf32>) -> tensor<1x1x1x8xf32>
  return %0 : tensor<1x1x1x8xf32>
}

// -----

// AvgPool SAME: each window's sum is divided by its count of non-padded
// elements (2x2 over 3x3 padded after: 4 inside, 2 on the last row and
// column, 1 in the corner).

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$HW:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d2)>
// CHECK-LABEL: func.func @avg_pool_same
// CHECK: %[[XP:.+]] = tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: %[[SUM:.+]] = linalg.pooling_nhwc_sum {{.+}} ins(%[[XP]], %{{.+}} : tensor<1x4x4x2xf32>, tensor<2x2xf32>)
// CHECK: %[[COUNTS:.+]] = arith.constant dense<{{\[}}[4.000000e+00, 4.000000e+00, 2.000000e+00], [4.000000e+00, 4.000000e+00, 2.000000e+00], [2.000000e+00, 2.000000e+00, 1.000000e+00]]> : tensor<3x3xf32>
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$HW]], #[[$ID]]]
// CHECK-SAME: ins(%[[SUM]], %[[COUNTS]] : tensor<1x3x3x2xf32>, tensor<3x3xf32>)
// CHECK: ^bb0(%[[S:.+]]: f32, %[[C:.+]]: f32, %{{.+}}: f32):
// CHECK: arith.divf %[[S]], %[[C]] : f32
// CHECK: return %[[R]]
func.func @avg_pool_same(%x: tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32> {
  %0 = "tf.AvgPool"(%x) {ksize = [1, 2, 2, 1], padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}

// -----

// AvgPool SAME over dynamic sizes: each window's count of non-padded
// elements, min(start + 3, size) - max(start, 0) per dimension with
// start = o * 2 - before, is computed in the body.

// CHECK-LABEL: func.func @avg_pool_dynamic_same
// CHECK-SAME: (%[[X:.+]]: tensor<1x?x?x4xf32>)
// CHECK: %[[SUM:.+]] = linalg.pooling_nhwc_sum
// CHECK: %[[R:.+]] = linalg.generic {{.+}} ins(%[[SUM]] : tensor<1x?x?x4xf32>)
// CHECK: ^bb0(%[[S:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[O:.+]] = linalg.index 1 : index
// CHECK: %[[START:.+]] = arith.subi %{{.+}}, %{{.+}} : index
// CHECK: %[[END:.+]] = arith.addi %[[START]], %{{.+}} : index
// CHECK: %[[LAST:.+]] = arith.minsi %[[END]], %{{.+}} : index
// CHECK: %[[FIRST:.+]] = arith.maxsi %[[START]], %{{.+}} : index
// CHECK: %[[ROWS:.+]] = arith.subi %[[LAST]], %[[FIRST]] : index
// CHECK: linalg.index 2 : index
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK-NEXT: %[[COLS:.+]] = arith.subi
// CHECK: %[[COUNT:.+]] = arith.muli %[[ROWS]], %[[COLS]] : index
// CHECK: %[[WIDE:.+]] = arith.index_cast %[[COUNT]] : index to i64
// CHECK: %[[F:.+]] = arith.sitofp %[[WIDE]] : i64 to f32
// CHECK: %[[Q:.+]] = arith.divf %[[S]], %[[F]] : f32
// CHECK: linalg.yield %[[Q]] : f32
// CHECK: return %[[R]]
func.func @avg_pool_dynamic_same(%x: tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32> {
  %0 = "tf.AvgPool"(%x) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x?x?x4xf32>) -> tensor<1x?x?x4xf32>
  return %0 : tensor<1x?x?x4xf32>
}
// -----

// ResizeBilinear with half_pixel_centers, 2x3 -> 4x6: two passes whose
// constant tables hold TensorFlow's lower / upper source indices (clamped)
// and weights, read with linalg.index so that the gathers' indices do not
// vary along the channels. First along W (left / right columns of each
// output column, on every input row), then along H (top / bottom rows of
// each output row), TensorFlow's order of operations.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @resize_bilinear
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x3x4xf32>)
// CHECK-DAG: %[[XLO:.+]] = arith.constant dense<[0, 0, 0, 1, 1, 2]> : tensor<6xi32>
// CHECK-DAG: %[[XHI:.+]] = arith.constant dense<[0, 1, 1, 2, 2, 2]> : tensor<6xi32>
// CHECK-DAG: %[[XW:.+]] = arith.constant dense<[7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01]> : tensor<6xf32>
// CHECK: %[[ROWS:.+]] = linalg.generic {indexing_maps = [#[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.+}} : tensor<1x2x6x4xf32>)
// CHECK: %[[N:.+]] = linalg.index 0 : index
// CHECK: %[[H:.+]] = linalg.index 1 : index
// CHECK: %[[OW:.+]] = linalg.index 2 : index
// CHECK: %[[C:.+]] = linalg.index 3 : index
// CHECK: %[[L32:.+]] = tensor.extract %[[XLO]][%[[OW]]] : tensor<6xi32>
// CHECK: %[[L:.+]] = arith.index_cast %[[L32]] : i32 to index
// CHECK: %[[LV:.+]] = tensor.extract %[[X]][%[[N]], %[[H]], %[[L]], %[[C]]]
// CHECK: %[[R32:.+]] = tensor.extract %[[XHI]][%[[OW]]] : tensor<6xi32>
// CHECK: %[[R:.+]] = arith.index_cast %[[R32]] : i32 to index
// CHECK: %[[RV:.+]] = tensor.extract %[[X]][%[[N]], %[[H]], %[[R]], %[[C]]]
// CHECK: %[[WX:.+]] = tensor.extract %[[XW]][%[[OW]]] : tensor<6xf32>
// CHECK: %[[D:.+]] = arith.subf %[[RV]], %[[LV]] : f32
// CHECK: %[[M:.+]] = arith.mulf %[[D]], %[[WX]] : f32
// CHECK: %[[S:.+]] = arith.addf %[[LV]], %[[M]] : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK-DAG: %[[YLO:.+]] = arith.constant dense<[0, 0, 0, 1]> : tensor<4xi32>
// CHECK-DAG: %[[YHI:.+]] = arith.constant dense<[0, 1, 1, 1]> : tensor<4xi32>
// CHECK-DAG: %[[YW:.+]] = arith.constant dense<[7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01]> : tensor<4xf32>
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.+}} : tensor<1x4x6x4xf32>)
// CHECK: %[[N2:.+]] = linalg.index 0 : index
// CHECK: %[[OH:.+]] = linalg.index 1 : index
// CHECK: %[[OW2:.+]] = linalg.index 2 : index
// CHECK: %[[C2:.+]] = linalg.index 3 : index
// CHECK: tensor.extract %[[YLO]][%[[OH]]] : tensor<4xi32>
// CHECK: %[[TV:.+]] = tensor.extract %[[ROWS]][%[[N2]], %{{.+}}, %[[OW2]], %[[C2]]]
// CHECK: tensor.extract %[[YHI]][%[[OH]]] : tensor<4xi32>
// CHECK: %[[BV:.+]] = tensor.extract %[[ROWS]][%[[N2]], %{{.+}}, %[[OW2]], %[[C2]]]
// CHECK: %[[WY:.+]] = tensor.extract %[[YW]][%[[OH]]] : tensor<4xf32>
// CHECK: %[[D2:.+]] = arith.subf %[[BV]], %[[TV]] : f32
// CHECK: %[[M2:.+]] = arith.mulf %[[D2]], %[[WY]] : f32
// CHECK: arith.addf %[[TV]], %[[M2]] : f32
// CHECK: return %[[R]]
func.func @resize_bilinear(%x: tensor<1x2x3x4xf32>) -> tensor<1x4x6x4xf32> {
  %size = "tf.Const"() {value = dense<[4, 6]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.ResizeBilinear"(%x, %size) {half_pixel_centers = true} : (tensor<1x2x3x4xf32>, tensor<2xi32>) -> tensor<1x4x6x4xf32>
  return %0 : tensor<1x4x6x4xf32>
}

// -----

// A resize that reads only some source rows (8 -> 2 with align_corners:
// rows 0 and 7) interpolates only those along W: the first pass has two
// rows, read through a table of source rows, and the second pass's tables
// hold positions among them.

// CHECK-LABEL: func.func @resize_bilinear_drops_rows
// CHECK-SAME: (%[[X:.+]]: tensor<2x8x3x5xf32>)
// CHECK-DAG: %[[SRC:.+]] = arith.constant dense<[0, 7]> : tensor<2xi32>
// CHECK: %[[ROWS:.+]] = linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x6x5xf32>)
// CHECK: %[[K:.+]] = linalg.index 1 : index
// CHECK: %[[H32:.+]] = tensor.extract %[[SRC]][%[[K]]] : tensor<2xi32>
// CHECK: %[[H:.+]] = arith.index_cast %[[H32]] : i32 to index
// CHECK: tensor.extract %[[X]][%{{.+}}, %[[H]], %{{.+}}, %{{.+}}] : tensor<2x8x3x5xf32>
// CHECK-DAG: %[[TOP:.+]] = arith.constant dense<[0, 1]> : tensor<2xi32>
// CHECK-DAG: %[[YW:.+]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: linalg.generic {{.+}} outs(%{{.+}} : tensor<2x2x6x5xf32>)
// CHECK: tensor.extract %[[TOP]]
// CHECK: tensor.extract %[[ROWS]]
func.func @resize_bilinear_drops_rows(%x: tensor<2x8x3x5xf32>) -> tensor<2x2x6x5xf32> {
  %size = "tf.Const"() {value = dense<[2, 6]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.ResizeBilinear"(%x, %size) {align_corners = true} : (tensor<2x8x3x5xf32>, tensor<2xi32>) -> tensor<2x2x6x5xf32>
  return %0 : tensor<2x2x6x5xf32>
}

// -----

// A dynamic batch with static spatial sizes still takes the two passes,
// each over the run-time batch.

// CHECK-LABEL: func.func @resize_bilinear_dynamic_batch
// CHECK-SAME: (%[[X:.+]]: tensor<?x4x4x16xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x4x4x16xf32>
// CHECK: %[[E1:.+]] = tensor.empty(%[[N]]) : tensor<?x4x8x16xf32>
// CHECK: linalg.generic {{.+}} outs(%[[E1]] : tensor<?x4x8x16xf32>)
// CHECK: %[[E2:.+]] = tensor.empty(%[[N]]) : tensor<?x8x8x16xf32>
// CHECK: linalg.generic {{.+}} outs(%[[E2]] : tensor<?x8x8x16xf32>)
func.func @resize_bilinear_dynamic_batch(%x: tensor<?x4x4x16xf32>) -> tensor<?x8x8x16xf32> {
  %size = "tf.Const"() {value = dense<[8, 8]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.ResizeBilinear"(%x, %size) {half_pixel_centers = true} : (tensor<?x4x4x16xf32>, tensor<2xi32>) -> tensor<?x8x8x16xf32>
  return %0 : tensor<?x8x8x16xf32>
}

// -----

// ResizeBilinear with a size computed at run time: the output sizes are read
// from the size operand, the scale in / out is computed once per dimension,
// and the body computes each source row from linalg.index with TensorFlow's
// half-pixel formula.

// CHECK-LABEL: func.func @resize_runtime_size
// CHECK-SAME: (%[[X:.+]]: tensor<1x?x?x3xf32>, %[[SIZE:.+]]: tensor<2xi32>)
// CHECK: %[[H:.+]] = tensor.extract %[[SIZE]][%{{.+}}] : tensor<2xi32>
// CHECK: %[[OH:.+]] = arith.index_cast %[[H]] : i32 to index
// CHECK: %[[W:.+]] = tensor.extract %[[SIZE]][%{{.+}}] : tensor<2xi32>
// CHECK: %[[OW:.+]] = arith.index_cast %[[W]] : i32 to index
// CHECK: %[[IH:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<1x?x?x3xf32>
// CHECK: %[[SCALEY:.+]] = arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: %[[SCALEX:.+]] = arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: %[[INIT:.+]] = tensor.empty(%[[OH]], %[[OW]]) : tensor<1x?x?x3xf32>
// CHECK: %[[R:.+]] = linalg.generic {{.+}} outs(%[[INIT]] : tensor<1x?x?x3xf32>)
// CHECK: %[[Y:.+]] = linalg.index 1 : index
// CHECK: %[[YF:.+]] = arith.sitofp %{{.+}} : i64 to f32
// CHECK: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[CENTER:.+]] = arith.addf %[[YF]], %[[HALF]] : f32
// CHECK: %[[SCALED:.+]] = arith.mulf %[[CENTER]], %[[SCALEY]] : f32
// CHECK: %[[SRC:.+]] = arith.subf %[[SCALED]], %[[HALF]] : f32
// CHECK: %[[FLOOR:.+]] = math.floor %[[SRC]] : f32
// CHECK: %[[CEIL:.+]] = math.ceil %[[SRC]] : f32
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: %[[LERP:.+]] = arith.subf %[[SRC]], %[[FLOOR]] : f32
// CHECK: linalg.index 2 : index
// CHECK: arith.mulf %{{.+}}, %[[SCALEX]] : f32
// CHECK: tensor.extract %[[X]]
// CHECK: linalg.yield
// CHECK: return %[[R]]
func.func @resize_runtime_size(%x: tensor<1x?x?x3xf32>, %size: tensor<2xi32>) -> tensor<1x?x?x3xf32> {
  %0 = "tf.ResizeBilinear"(%x, %size) {half_pixel_centers = true} : (tensor<1x?x?x3xf32>, tensor<2xi32>) -> tensor<1x?x?x3xf32>
  return %0 : tensor<1x?x?x3xf32>
}
