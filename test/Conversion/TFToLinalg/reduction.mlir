// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @sum_negative_axis
// CHECK-SAME: (%[[ARG:.+]]: tensor<2x3x4xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x3xf32>)
// CHECK: %[[R:.+]] = linalg.reduce ins(%[[ARG]] : tensor<2x3x4xf32>) outs(%[[INIT]] : tensor<2x3xf32>) dimensions = [2]
// CHECK: arith.addf
// CHECK: return %[[R]]
func.func @sum_negative_axis(%arg0: tensor<2x3x4xf32>) -> tensor<2x3xf32> {
  %axes = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Sum"(%arg0, %axes) : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @sum_keep_dims
// CHECK-SAME: (%[[ARG:.+]]: tensor<2x3x4xi32>)
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : i32)
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[ARG]] : tensor<2x3x4xi32>) outs(%[[INIT]] : tensor<3xi32>) dimensions = [0, 2]
// CHECK: arith.addi
// CHECK: %[[R:.+]] = tensor.expand_shape %[[SUM]] {{\[}}[0, 1, 2]] output_shape [1, 3, 1] : tensor<3xi32> into tensor<1x3x1xi32>
// CHECK: return %[[R]]
func.func @sum_keep_dims(%arg0: tensor<2x3x4xi32>) -> tensor<1x3x1xi32> {
  %axes = "tf.Const"() {value = dense<[2, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "tf.Sum"(%arg0, %axes) {keep_dims = true} : (tensor<2x3x4xi32>, tensor<2xi64>) -> tensor<1x3x1xi32>
  return %0 : tensor<1x3x1xi32>
}

// -----

// CHECK-LABEL: func.func @sum_no_axes
// CHECK-SAME: (%[[ARG:.+]]: tensor<2x3xf32>)
// CHECK-NOT: linalg.reduce
// CHECK: return %[[ARG]]
func.func @sum_no_axes(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %axes = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %0 = "tf.Sum"(%arg0, %axes) : (tensor<2x3xf32>, tensor<0xi32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @mean_float
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x8x8x7xf32>)
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[ARG]] : tensor<1x8x8x7xf32>) outs(%{{.+}} : tensor<1x7xf32>) dimensions = [1, 2]
// CHECK: arith.addf
// CHECK: %[[COUNT:.+]] = arith.constant 6.400000e+01 : f32
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x7xf32>)
// CHECK: ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[Q:.+]] = arith.divf %[[IN]], %[[COUNT]] : f32
// CHECK: linalg.yield %[[Q]] : f32
// CHECK: return %[[R]]
func.func @mean_float(%arg0: tensor<1x8x8x7xf32>) -> tensor<1x7xf32> {
  %axes = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Mean"(%arg0, %axes) : (tensor<1x8x8x7xf32>, tensor<2xi32>) -> tensor<1x7xf32>
  return %0 : tensor<1x7xf32>
}

// -----

// Mean of 32-bit (and narrower) integers sums and divides in i64, as
// TensorFlow's kernel does, then truncates the quotient.
// CHECK-LABEL: func.func @mean_int
// CHECK-SAME: (%[[ARG:.+]]: tensor<4xi32>)
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[ARG]] : tensor<4xi32>) outs(%{{.+}} : tensor<i64>) dimensions = [0]
// CHECK: (%[[E:.+]]: i32, %[[ACC:.+]]: i64)
// CHECK: %[[WIDE:.+]] = arith.extsi %[[E]] : i32 to i64
// CHECK: arith.addi %[[WIDE]], %[[ACC]] : i64
// CHECK: %[[COUNT:.+]] = arith.constant 4 : i64
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<i64>) outs(%{{.+}} : tensor<i32>)
// CHECK: ^bb0(%[[IN:.+]]: i64, %{{.+}}: i32):
// CHECK: %[[Q:.+]] = arith.divsi %[[IN]], %[[COUNT]] : i64
// CHECK: %[[T:.+]] = arith.trunci %[[Q]] : i64 to i32
// CHECK: linalg.yield %[[T]] : i32
// CHECK: return %[[R]]
func.func @mean_int(%arg0: tensor<4xi32>) -> tensor<i32> {
  %axes = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Mean"(%arg0, %axes) : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

// Unsigned: zero-extended to TensorFlow's uint64 accumulator, divided
// unsigned.
// CHECK-LABEL: func.func @mean_unsigned
// CHECK-SAME: (%[[ARG:.+]]: tensor<4xi8>)
// CHECK: linalg.reduce ins(%[[ARG]] : tensor<4xi8>) outs(%{{.+}} : tensor<i64>)
// CHECK: arith.extui %{{.+}} : i8 to i64
// CHECK: %[[COUNT:.+]] = arith.constant 4 : i64
// CHECK: linalg.generic
// CHECK: ^bb0(%[[IN:.+]]: i64, %{{.+}}: i8):
// CHECK: %[[Q:.+]] = arith.divui %[[IN]], %[[COUNT]] : i64
// CHECK: arith.trunci %[[Q]] : i64 to i8
func.func @mean_unsigned(%arg0: tensor<4xui8>) -> tensor<ui8> {
  %axes = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Mean"(%arg0, %axes) : (tensor<4xui8>, tensor<i32>) -> tensor<ui8>
  return %0 : tensor<ui8>
}

// -----

// Mean of i64 keeps its type (TensorFlow has no wider accumulator).
// CHECK-LABEL: func.func @mean_i64
// CHECK: linalg.reduce ins(%{{.+}} : tensor<4xi64>) outs(%{{.+}} : tensor<i64>)
// CHECK-NOT: arith.extsi
// CHECK: arith.divsi %{{.+}}, %{{.+}} : i64
// CHECK-NOT: arith.trunci
func.func @mean_i64(%arg0: tensor<4xi64>) -> tensor<i64> {
  %axes = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Mean"(%arg0, %axes) : (tensor<4xi64>, tensor<i32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// Sum of i8 accumulates in i8 and wraps, as TensorFlow's does.
// CHECK-LABEL: func.func @sum_i8_wraps
// CHECK: %[[R:.+]] = linalg.reduce ins(%{{.+}} : tensor<4xi8>) outs(%{{.+}} : tensor<i8>)
// CHECK-NOT: arith.extsi
// CHECK: arith.addi %{{.+}}, %{{.+}} : i8
// CHECK: return %[[R]]
func.func @sum_i8_wraps(%arg0: tensor<4xi8>) -> tensor<i8> {
  %axes = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Sum"(%arg0, %axes) : (tensor<4xi8>, tensor<i32>) -> tensor<i8>
  return %0 : tensor<i8>
}

// -----

// Sum and Mean of bf16 accumulate in f32 (TensorFlow's bf16 specializations).
// CHECK-LABEL: func.func @sum_bf16
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%{{.+}} : tensor<4xbf16>) outs(%{{.+}} : tensor<f32>)
// CHECK: arith.extf %{{.+}} : bf16 to f32
// CHECK: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<f32>) outs(%{{.+}} : tensor<bf16>)
// CHECK-NOT: arith.divf
// CHECK: arith.truncf %{{.+}} : f32 to bf16
// CHECK-LABEL: func.func @mean_bf16
// CHECK: linalg.reduce ins(%{{.+}} : tensor<4xbf16>) outs(%{{.+}} : tensor<f32>)
// CHECK: %[[Q:.+]] = arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: arith.truncf %[[Q]] : f32 to bf16
func.func @sum_bf16(%arg0: tensor<4xbf16>) -> tensor<bf16> {
  %axes = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Sum"(%arg0, %axes) : (tensor<4xbf16>, tensor<i32>) -> tensor<bf16>
  return %0 : tensor<bf16>
}
func.func @mean_bf16(%arg0: tensor<4xbf16>) -> tensor<bf16> {
  %axes = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Mean"(%arg0, %axes) : (tensor<4xbf16>, tensor<i32>) -> tensor<bf16>
  return %0 : tensor<bf16>
}

// -----

// CHECK-LABEL: func.func @mean_dynamic
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x4xf32>)
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[ARG]] : tensor<?x4xf32>) outs(%{{.+}} : tensor<4xf32>) dimensions = [0]
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[WIDE:.+]] = arith.index_castui %[[DIM]] : index to i64
// CHECK: %[[COUNT:.+]] = arith.uitofp %[[WIDE]] : i64 to f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<4xf32>)
// CHECK: arith.divf %{{.+}}, %[[COUNT]] : f32
func.func @mean_dynamic(%arg0: tensor<?x4xf32>) -> tensor<4xf32> {
  %axes = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Mean"(%arg0, %axes) : (tensor<?x4xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @max_float
// CHECK-SAME: (%[[ARG:.+]]: tensor<?x4xf32>)
// CHECK: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?x4xf32>
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[DIM]]) : tensor<?xf32>
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%[[EMPTY]] : tensor<?xf32>)
// CHECK: %[[R:.+]] = linalg.reduce ins(%[[ARG]] : tensor<?x4xf32>) outs(%[[INIT]] : tensor<?xf32>) dimensions = [1]
// CHECK: arith.maximumf
// CHECK: return %[[R]]
func.func @max_float(%arg0: tensor<?x4xf32>) -> tensor<?xf32> {
  %axes = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Max"(%arg0, %axes) : (tensor<?x4xf32>, tensor<i32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @max_unsigned
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i8
// CHECK: linalg.fill ins(%[[ZERO]] : i8)
// CHECK: linalg.reduce
// CHECK: arith.maxui
func.func @max_unsigned(%arg0: tensor<4xui8>) -> tensor<ui8> {
  %axes = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Max"(%arg0, %axes) : (tensor<4xui8>, tensor<i32>) -> tensor<ui8>
  return %0 : tensor<ui8>
}

// -----

// CHECK-LABEL: func.func @min_int
// CHECK: %[[MAX:.+]] = arith.constant 2147483647 : i32
// CHECK: linalg.fill ins(%[[MAX]] : i32)
// CHECK: linalg.reduce {{.*}} dimensions = [1]
// CHECK: arith.minsi
func.func @min_int(%arg0: tensor<3x4xi32>) -> tensor<3xi32> {
  %axes = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Min"(%arg0, %axes) : (tensor<3x4xi32>, tensor<i32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// CHECK-LABEL: func.func @prod
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ONE]] : f32)
// CHECK: linalg.reduce {{.*}} dimensions = [0]
// CHECK: arith.mulf
func.func @prod(%arg0: tensor<3x4xf32>) -> tensor<4xf32> {
  %axes = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Prod"(%arg0, %axes) : (tensor<3x4xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @arg_max
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x2304x17xf32>)
// CHECK-DAG: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[VALUES:.+]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.+}} : tensor<1x17xf32>)
// CHECK: %[[INDICES:.+]] = linalg.fill ins(%[[ZERO]] : i32) outs(%{{.+}} : tensor<1x17xi32>)
// CHECK: %[[R:.+]]:2 = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]], #[[$OUT]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[ARG]] : tensor<1x2304x17xf32>) outs(%[[VALUES]], %[[INDICES]] : tensor<1x17xf32>, tensor<1x17xi32>)
// CHECK: ^bb0(%[[X:.+]]: f32, %[[BEST:.+]]: f32, %[[BEST_INDEX:.+]]: i32):
// CHECK: %[[I:.+]] = linalg.index 1 : index
// CHECK: %[[POS:.+]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[GT:.+]] = arith.cmpf ogt, %[[X]], %[[BEST]] : f32
// CHECK: %[[EQ:.+]] = arith.cmpf oeq, %[[X]], %[[BEST]] : f32
// CHECK: %[[LT:.+]] = arith.cmpi slt, %[[POS]], %[[BEST_INDEX]] : i32
// CHECK: %[[TIE:.+]] = arith.andi %[[EQ]], %[[LT]] : i1
// CHECK: %[[TAKE:.+]] = arith.ori %[[GT]], %[[TIE]] : i1
// CHECK: %[[V:.+]] = arith.select %[[TAKE]], %[[X]], %[[BEST]] : f32
// CHECK: %[[N:.+]] = arith.select %[[TAKE]], %[[POS]], %[[BEST_INDEX]] : i32
// CHECK: linalg.yield %[[V]], %[[N]] : f32, i32
// CHECK: return %[[R]]#1
func.func @arg_max(%arg0: tensor<1x2304x17xf32>) -> tensor<1x17xi32> {
  %dim = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ArgMax"(%arg0, %dim) : (tensor<1x2304x17xf32>, tensor<i32>) -> tensor<1x17xi32>
  return %0 : tensor<1x17xi32>
}

// -----

// CHECK-LABEL: func.func @arg_max_int_i64
// CHECK-SAME: (%[[ARG:.+]]: tensor<3x4xi32>)
// CHECK-DAG: %[[MIN:.+]] = arith.constant -2147483648 : i32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK: %[[R:.+]]:2 = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[ARG]] : tensor<3x4xi32>) outs(%{{.+}}, %{{.+}} : tensor<3xi32>, tensor<3xi64>)
// CHECK: arith.index_cast %{{.+}} : index to i64
// CHECK: arith.cmpi sgt
// CHECK: return %[[R]]#1 : tensor<3xi64>
func.func @arg_max_int_i64(%arg0: tensor<3x4xi32>) -> tensor<3xi64> {
  %dim = "tf.Const"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %0 = "tf.ArgMax"(%arg0, %dim) : (tensor<3x4xi32>, tensor<i64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[ARG:.+]]: tensor<1x7xf32>)
// CHECK: %[[MAX:.+]] = linalg.reduce ins(%[[ARG]] : tensor<1x7xf32>) outs(%{{.+}} : tensor<1xf32>) dimensions = [1]
// CHECK: arith.maximumf
// CHECK: %[[EXP:.+]] = linalg.generic {{.*}} ins(%[[ARG]], %[[MAX]] : tensor<1x7xf32>, tensor<1xf32>)
// CHECK: ^bb0(%[[X:.+]]: f32, %[[M:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[SHIFTED:.+]] = arith.subf %[[X]], %[[M]] : f32
// CHECK: %[[E:.+]] = math.exp %[[SHIFTED]] : f32
// CHECK: linalg.yield %[[E]] : f32
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[EXP]] : tensor<1x7xf32>) outs(%{{.+}} : tensor<1xf32>) dimensions = [1]
// CHECK: arith.addf
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<1x7xf32>, tensor<1xf32>)
// CHECK: arith.divf
// CHECK: return %[[R]]
func.func @softmax(%arg0: tensor<1x7xf32>) -> tensor<1x7xf32> {
  %0 = "tf.Softmax"(%arg0) : (tensor<1x7xf32>) -> tensor<1x7xf32>
  return %0 : tensor<1x7xf32>
}

// -----

// CHECK-LABEL: func.func @where_bool
// CHECK-SAME: (%[[ARG:.+]]: tensor<2x3xi1>)
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[ZERO]] : i64) outs(%{{.+}} : tensor<i64>)
// CHECK: %[[COUNT:.+]] = linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]} ins(%[[ARG]] : tensor<2x3xi1>) outs(%[[INIT]] : tensor<i64>)
// CHECK: ^bb0(%[[IN:.+]]: i1, %[[ACC:.+]]: i64):
// CHECK: %[[ONE:.+]] = arith.extui %[[IN]] : i1 to i64
// CHECK: %[[SUM:.+]] = arith.addi %[[ACC]], %[[ONE]] : i64
// CHECK: linalg.yield %[[SUM]] : i64
// CHECK: %[[N:.+]] = tensor.extract %[[COUNT]][] : tensor<i64>
// CHECK: %[[NI:.+]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[NI]]) : tensor<?x2xi64>
// CHECK: %[[R:.+]]:2 = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[OUTER:.+]] = %[[EMPTY]], %[[OUTERPOS:.+]] = %{{.+}}) -> (tensor<?x2xi64>, index)
// CHECK: %{{.+}}:2 = scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[RES:.+]] = %[[OUTER]], %[[POS:.+]] = %[[OUTERPOS]]) -> (tensor<?x2xi64>, index)
// CHECK: %[[X:.+]] = tensor.extract %[[ARG]][%[[I]], %[[J]]] : tensor<2x3xi1>
// CHECK: scf.if %[[X]] -> (tensor<?x2xi64>, index)
// CHECK: %[[CI:.+]] = arith.index_cast %[[I]] : index to i64
// CHECK: %[[W0:.+]] = tensor.insert %[[CI]] into %[[RES]][%[[POS]], %{{.+}}] : tensor<?x2xi64>
// CHECK: %[[CJ:.+]] = arith.index_cast %[[J]] : index to i64
// CHECK: %[[W1:.+]] = tensor.insert %[[CJ]] into %[[W0]][%[[POS]], %{{.+}}] : tensor<?x2xi64>
// CHECK: %[[NEXT:.+]] = arith.addi %[[POS]], %{{.+}} : index
// CHECK: scf.yield %[[W1]], %[[NEXT]] : tensor<?x2xi64>, index
// CHECK: } else {
// CHECK: scf.yield %[[RES]], %[[POS]] : tensor<?x2xi64>, index
// CHECK: return %[[R]]#0 : tensor<?x2xi64>
func.func @where_bool(%arg0: tensor<2x3xi1>) -> tensor<?x2xi64> {
  %0 = "tf.Where"(%arg0) : (tensor<2x3xi1>) -> tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}

// -----

// NaN is true (unordered or not equal), -0.0 is false.
// CHECK-LABEL: func.func @where_float
// CHECK-SAME: (%[[ARG:.+]]: tensor<4x5xf16>)
// CHECK: linalg.generic {{.*}} ins(%[[ARG]] : tensor<4x5xf16>)
// CHECK: ^bb0(%[[IN:.+]]: f16, %{{.+}}: i64):
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f16
// CHECK: arith.cmpf une, %[[IN]], %[[ZERO]] : f16
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[X:.+]] = tensor.extract %[[ARG]]
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f16
// CHECK: %[[T:.+]] = arith.cmpf une, %[[X]], %[[Z]] : f16
// CHECK: scf.if %[[T]]
func.func @where_float(%arg0: tensor<4x5xf16>) -> tensor<?x2xi64> {
  %0 = "tf.Where"(%arg0) : (tensor<4x5xf16>) -> tensor<?x2xi64>
  return %0 : tensor<?x2xi64>
}

// -----

// A dynamic size bounds its loop; unsigned elements become signless and
// compare with `ne`.
// CHECK-LABEL: func.func @where_dynamic_unsigned
// CHECK-SAME: (%[[ARG:.+]]: tensor<?xi8>)
// CHECK: arith.cmpi ne
// CHECK: %[[DIM:.+]] = tensor.dim %[[ARG]], %{{.+}} : tensor<?xi8>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[DIM]] step
// CHECK: %[[X:.+]] = tensor.extract %[[ARG]][%[[I]]] : tensor<?xi8>
// CHECK: %[[T:.+]] = arith.cmpi ne, %[[X]], %{{.+}} : i8
// CHECK: scf.if %[[T]]
// CHECK: tensor.insert %{{.+}} into %{{.+}}[%{{.+}}, %{{.+}}] : tensor<?x1xi64>
// CHECK-NOT: tensor.insert
// CHECK: } else {
func.func @where_dynamic_unsigned(%arg0: tensor<?xui8>) -> tensor<?x1xi64> {
  %0 = "tf.Where"(%arg0) : (tensor<?xui8>) -> tensor<?x1xi64>
  return %0 : tensor<?x1xi64>
}

// -----

// A scalar condition has no coordinates to write: the result is the empty
// [num_true, 0] tensor.
// CHECK-LABEL: func.func @where_scalar
// CHECK-SAME: (%[[ARG:.+]]: tensor<i32>)
// CHECK: %[[COUNT:.+]] = linalg.generic {{.*}} iterator_types = []} ins(%[[ARG]] : tensor<i32>)
// CHECK: arith.cmpi ne
// CHECK: %[[N:.+]] = tensor.extract %[[COUNT]][] : tensor<i64>
// CHECK: %[[NI:.+]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[EMPTY:.+]] = tensor.empty(%[[NI]]) : tensor<?x0xi64>
// CHECK-NOT: scf.for
// CHECK: return %[[EMPTY]] : tensor<?x0xi64>
func.func @where_scalar(%arg0: tensor<i32>) -> tensor<?x0xi64> {
  %0 = "tf.Where"(%arg0) : (tensor<i32>) -> tensor<?x0xi64>
  return %0 : tensor<?x0xi64>
}
