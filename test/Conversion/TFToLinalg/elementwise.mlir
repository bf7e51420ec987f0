// RUN: kiln-opt %s --convert-tf-to-linalg -split-input-file | FileCheck %s

// Same shapes: identity maps, the scalar op in the body.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @add_same_shape
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[Y:.+]]: tensor<2x3xf32>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[R:.+]] = linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]]]
// CHECK-SAME: iterator_types = ["parallel", "parallel"]
// CHECK-SAME: ins(%[[X]], %[[Y]] : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-SAME: outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK: linalg.yield %[[S]] : f32
// CHECK: return %[[R]]
func.func @add_same_shape(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "tf.AddV2"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// [2,1,3] * [4,1] -> [2,4,3]: the size-1 dims read index 0, the missing
// leading dim of the second operand is dropped.

// CHECK-DAG: #[[$LHS:.+]] = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
// CHECK-DAG: #[[$RHS:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @mul_broadcast
// CHECK: tensor.empty() : tensor<2x4x3xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$LHS]], #[[$RHS]], #[[$OUT]]]
// CHECK: arith.mulf
func.func @mul_broadcast(%x: tensor<2x1x3xf32>, %y: tensor<4x1xf32>) -> tensor<2x4x3xf32> {
  %0 = "tf.Mul"(%x, %y) : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// A scalar operand reads no dimension.

// CHECK-DAG: #[[$SCALAR:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @sub_scalar
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$SCALAR]], #[[$ID]], #[[$ID]]]
// CHECK: arith.subi
func.func @sub_scalar(%x: tensor<i32>, %y: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = "tf.Sub"(%x, %y) : (tensor<i32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// A dynamic result size comes from the operand that has it.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>, %[[Y:.+]]: tensor<3xf32>)
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[D0:.+]] = tensor.dim %[[X]], %[[C0]] : tensor<?x3xf32>
// CHECK: %[[INIT:.+]] = tensor.empty(%[[D0]]) : tensor<?x3xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME: outs(%[[INIT]] : tensor<?x3xf32>)
func.func @add_dynamic(%x: tensor<?x3xf32>, %y: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = "tf.Add"(%x, %y) : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @real_div
// CHECK: arith.divf
func.func @real_div(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.RealDiv"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// FloorDiv: floor of the float quotient; signed integers round toward
// -inf; unsigned integers divide unsigned.

// CHECK-LABEL: func.func @floor_div_f32
// CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[Q:.+]] = arith.divf %[[A]], %[[B]] : f32
// CHECK: %[[F:.+]] = math.floor %[[Q]] : f32
// CHECK: linalg.yield %[[F]]
func.func @floor_div_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.FloorDiv"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @floor_div_i32
// CHECK: arith.floordivsi
func.func @floor_div_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "tf.FloorDiv"(%x, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @floor_div_ui8
// CHECK-SAME: tensor<4xi8>
// CHECK: arith.divui
func.func @floor_div_ui8(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  %0 = "tf.FloorDiv"(%x, %y) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// FloorMod: the truncated remainder, plus y where it is nonzero and its sign
// differs from y's.

// CHECK-LABEL: func.func @floor_mod_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %[[Y:.+]]: i32, %{{.+}}: i32):
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[REM:.+]] = arith.remsi %[[X]], %[[Y]] : i32
// CHECK-DAG: %[[NZ:.+]] = arith.cmpi ne, %[[REM]], %[[ZERO]] : i32
// CHECK-DAG: %[[RNEG:.+]] = arith.cmpi slt, %[[REM]], %[[ZERO]] : i32
// CHECK-DAG: %[[YNEG:.+]] = arith.cmpi slt, %[[Y]], %[[ZERO]] : i32
// CHECK-DAG: %[[ADJ:.+]] = arith.addi %[[REM]], %[[Y]] : i32
// CHECK: %[[DIFF:.+]] = arith.xori %[[RNEG]], %[[YNEG]] : i1
// CHECK: %[[FIX:.+]] = arith.andi %[[NZ]], %[[DIFF]] : i1
// CHECK: %[[R:.+]] = arith.select %[[FIX]], %[[ADJ]], %[[REM]] : i32
// CHECK: linalg.yield %[[R]]
func.func @floor_mod_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "tf.FloorMod"(%x, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @floor_mod_f32
// CHECK: arith.remf
// CHECK: arith.cmpf one
// CHECK: arith.select
func.func @floor_mod_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.FloorMod"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Maximum and Minimum propagate NaN; integers compare by signedness.

// CHECK-LABEL: func.func @maximum_f32
// CHECK: arith.maximumf
func.func @maximum_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Maximum"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @minimum_f32
// CHECK: arith.minimumf
func.func @minimum_f32(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Minimum"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @maximum_ui8
// CHECK: arith.maxui
func.func @maximum_ui8(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  %0 = "tf.Maximum"(%x, %y) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// CHECK-LABEL: func.func @minimum_i64
// CHECK: arith.minsi
func.func @minimum_i64(%x: tensor<4xi64>, %y: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "tf.Minimum"(%x, %y) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @squared_difference
// CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[D:.+]] = arith.subf %[[A]], %[[B]] : f32
// CHECK: %[[S:.+]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK: linalg.yield %[[S]]
func.func @squared_difference(%x: tensor<4xf32>, %y: tensor<f32>) -> tensor<4xf32> {
  %0 = "tf.SquaredDifference"(%x, %y) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @atan2
// CHECK: ^bb0(%[[Y:.+]]: f32, %[[X:.+]]: f32, %{{.+}}: f32):
// CHECK: math.atan2 %[[Y]], %[[X]] : f32
func.func @atan2(%y: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Atan2"(%y, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// AddN adds all operands in one generic.

// CHECK-LABEL: func.func @add_n
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %[[C:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[AB:.+]] = arith.addf %[[A]], %[[B]] : f32
// CHECK: %[[ABC:.+]] = arith.addf %[[AB]], %[[C]] : f32
// CHECK: linalg.yield %[[ABC]]
func.func @add_n(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.AddN"(%a, %b, %c) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Activations.

// CHECK-LABEL: func.func @relu
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[R:.+]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// CHECK: linalg.yield %[[R]]
func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @relu6
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[MAX:.+]] = arith.maximumf %[[X]], %[[ZERO]] : f32
// CHECK: %[[SIX:.+]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[MIN:.+]] = arith.minimumf %[[MAX]], %[[SIX]] : f32
// CHECK: linalg.yield %[[MIN]]
func.func @relu6(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Relu6"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @relu_i32
// CHECK: arith.maxsi
func.func @relu_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "tf.Relu"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @leaky_relu
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-DAG: %[[ALPHA:.+]] = arith.constant 3.000000e-01 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[SCALED:.+]] = arith.mulf %[[X]], %[[ALPHA]] : f32
// CHECK-DAG: %[[POS:.+]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : f32
// CHECK: %[[R:.+]] = arith.select %[[POS]], %[[X]], %[[SCALED]] : f32
// CHECK: linalg.yield %[[R]]
func.func @leaky_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.LeakyRelu"(%x) {alpha = 3.000000e-01 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @sigmoid
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[NEG:.+]] = arith.negf %[[X]] : f32
// CHECK: %[[EXP:.+]] = math.exp %[[NEG]] : f32
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[DEN:.+]] = arith.addf %[[ONE]], %[[EXP]] : f32
// CHECK: %[[R:.+]] = arith.divf %[[ONE]], %[[DEN]] : f32
// CHECK: linalg.yield %[[R]]
func.func @sigmoid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Sigmoid"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Prelu broadcasts alpha against x.

// CHECK-DAG: #[[$ALPHA:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @prelu
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ID]], #[[$ALPHA]], #[[$ID]]]
// CHECK: ^bb0(%[[X:.+]]: f32, %[[A:.+]]: f32, %{{.+}}: f32):
// CHECK-DAG: %[[SCALED:.+]] = arith.mulf %[[A]], %[[X]] : f32
// CHECK-DAG: %[[POS:.+]] = arith.cmpf ogt, %[[X]], %{{.+}} : f32
// CHECK: arith.select %[[POS]], %[[X]], %[[SCALED]] : f32
func.func @prelu(%x: tensor<2x4xf32>, %alpha: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = "tf.Prelu"(%x, %alpha) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Unary math.

// CHECK-LABEL: func.func @unary_math
// CHECK: math.tanh
// CHECK: math.exp
// CHECK: math.log
// CHECK: math.rsqrt
// CHECK: math.sqrt
// CHECK: math.sin
// CHECK: math.cos
// CHECK: math.floor
// CHECK: math.ceil
// CHECK: math.absf
// CHECK: arith.negf
// CHECK: arith.mulf
// CHECK: arith.divf
func.func @unary_math(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "tf.Exp"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "tf.Log"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "tf.Rsqrt"(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "tf.Sqrt"(%3) : (tensor<4xf32>) -> tensor<4xf32>
  %5 = "tf.Sin"(%4) : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "tf.Cos"(%5) : (tensor<4xf32>) -> tensor<4xf32>
  %7 = "tf.Floor"(%6) : (tensor<4xf32>) -> tensor<4xf32>
  %8 = "tf.Ceil"(%7) : (tensor<4xf32>) -> tensor<4xf32>
  %9 = "tf.Abs"(%8) : (tensor<4xf32>) -> tensor<4xf32>
  %10 = "tf.Neg"(%9) : (tensor<4xf32>) -> tensor<4xf32>
  %11 = "tf.Square"(%10) : (tensor<4xf32>) -> tensor<4xf32>
  %12 = "tf.Reciprocal"(%11) : (tensor<4xf32>) -> tensor<4xf32>
  return %12 : tensor<4xf32>
}

// -----

// Integer Neg wraps (0 - x); unsigned Abs is the identity.

// CHECK-LABEL: func.func @neg_i32
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: i32):
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: arith.subi %[[ZERO]], %[[X]] : i32
func.func @neg_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "tf.Neg"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @abs_i32
// CHECK: math.absi
func.func @abs_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "tf.Abs"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @abs_ui8
// CHECK: ^bb0(%[[X:.+]]: i8, %{{.+}}: i8):
// CHECK-NEXT: linalg.yield %[[X]] : i8
func.func @abs_ui8(%x: tensor<4xui8>) -> tensor<4xui8> {
  %0 = "tf.Abs"(%x) : (tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Sign: NaN and zeros fall through as x.

// CHECK-LABEL: func.func @sign_f32
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[MONE:.+]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG: %[[POS:.+]] = arith.cmpf ogt, %[[X]], %[[ZERO]] : f32
// CHECK-DAG: %[[NEG:.+]] = arith.cmpf olt, %[[X]], %[[ZERO]] : f32
// CHECK: %[[S1:.+]] = arith.select %[[NEG]], %[[MONE]], %[[X]] : f32
// CHECK: %[[S2:.+]] = arith.select %[[POS]], %[[ONE]], %[[S1]] : f32
// CHECK: linalg.yield %[[S2]]
func.func @sign_f32(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "tf.Sign"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Comparisons produce i1 with ordered float predicates (NotEqual: UNE).

// CHECK-LABEL: func.func @greater_f32
// CHECK: tensor.empty() : tensor<2x3xi1>
// CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: i1):
// CHECK: %[[C:.+]] = arith.cmpf ogt, %[[A]], %[[B]] : f32
// CHECK: linalg.yield %[[C]] : i1
func.func @greater_f32(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = "tf.Greater"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  return %0 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @compare_predicates
// CHECK: arith.cmpf oge
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ole
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf une
func.func @compare_predicates(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = "tf.GreaterEqual"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = "tf.Less"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = "tf.LessEqual"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = "tf.Equal"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = "tf.NotEqual"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @compare_unsigned
// CHECK: arith.cmpi ult
// CHECK: arith.cmpi sge
func.func @compare_unsigned(%x: tensor<4xui16>, %y: tensor<4xui16>, %a: tensor<4xi16>, %b: tensor<4xi16>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = "tf.Less"(%x, %y) : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xi1>
  %1 = "tf.GreaterEqual"(%a, %b) : (tensor<4xi16>, tensor<4xi16>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// CHECK-LABEL: func.func @equal_bool
// CHECK: arith.cmpi eq
// CHECK-SAME: : i1
func.func @equal_bool(%x: tensor<4xi1>, %y: tensor<4xi1>) -> tensor<4xi1> {
  %0 = "tf.Equal"(%x, %y) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @logical_and
// CHECK: arith.andi
func.func @logical_and(%x: tensor<2x4xi1>, %y: tensor<1x4xi1>) -> tensor<2x4xi1> {
  %0 = "tf.LogicalAnd"(%x, %y) : (tensor<2x4xi1>, tensor<1x4xi1>) -> tensor<2x4xi1>
  return %0 : tensor<2x4xi1>
}

// -----

// SelectV2 broadcasts all three operands.

// CHECK-DAG: #[[$COND:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$SCALAR:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @select_v2
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$COND]], #[[$ID]], #[[$SCALAR]], #[[$ID]]]
// CHECK: ^bb0(%[[C:.+]]: i1, %[[T:.+]]: f32, %[[E:.+]]: f32, %{{.+}}: f32):
// CHECK: arith.select %[[C]], %[[T]], %[[E]] : f32
func.func @select_v2(%c: tensor<2x1xi1>, %t: tensor<2x3xf32>, %e: tensor<f32>) -> tensor<2x3xf32> {
  %0 = "tf.SelectV2"(%c, %t, %e) : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Select (v1) with a vector condition selects rows.

// CHECK-DAG: #[[$ROWS:.+]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @select_rows
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ROWS]], #[[$ID]], #[[$ID]], #[[$ID]]]
// CHECK: arith.select
func.func @select_rows(%c: tensor<2xi1>, %t: tensor<2x3x4xi32>, %e: tensor<2x3x4xi32>) -> tensor<2x3x4xi32> {
  %0 = "tf.Select"(%c, %t, %e) : (tensor<2xi1>, tensor<2x3x4xi32>, tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
  return %0 : tensor<2x3x4xi32>
}

// -----

// Select (v1) with values and condition of the same shape.

// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @select_same_shape
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$ID]], #[[$ID]], #[[$ID]], #[[$ID]]]
func.func @select_same_shape(%c: tensor<2xi1>, %t: tensor<2xf32>, %e: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Select"(%c, %t, %e) : (tensor<2xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Cast by source and destination kinds.

// CHECK-LABEL: func.func @cast_f32_to_i32
// CHECK: arith.fptosi %{{.+}} : f32 to i32
func.func @cast_f32_to_i32(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = "tf.Cast"(%x) {Truncate = false} : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @cast_f32_to_ui8
// CHECK: arith.fptoui %{{.+}} : f32 to i8
func.func @cast_f32_to_ui8(%x: tensor<4xf32>) -> tensor<4xui8> {
  %0 = "tf.Cast"(%x) : (tensor<4xf32>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// CHECK-LABEL: func.func @cast_ui8_to_f32
// CHECK: arith.uitofp %{{.+}} : i8 to f32
func.func @cast_ui8_to_f32(%x: tensor<4xui8>) -> tensor<4xf32> {
  %0 = "tf.Cast"(%x) : (tensor<4xui8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @cast_i32_to_f32
// CHECK: arith.sitofp %{{.+}} : i32 to f32
func.func @cast_i32_to_f32(%x: tensor<4xi32>) -> tensor<4xf32> {
  %0 = "tf.Cast"(%x) : (tensor<4xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @cast_ui8_to_i32
// CHECK: arith.extui %{{.+}} : i8 to i32
func.func @cast_ui8_to_i32(%x: tensor<4xui8>) -> tensor<4xi32> {
  %0 = "tf.Cast"(%x) : (tensor<4xui8>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @cast_i8_to_i64
// CHECK: arith.extsi %{{.+}} : i8 to i64
func.func @cast_i8_to_i64(%x: tensor<4xi8>) -> tensor<4xi64> {
  %0 = "tf.Cast"(%x) : (tensor<4xi8>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func.func @cast_i64_to_i32
// CHECK: arith.trunci %{{.+}} : i64 to i32
func.func @cast_i64_to_i32(%x: tensor<4xi64>) -> tensor<4xi32> {
  %0 = "tf.Cast"(%x) : (tensor<4xi64>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @cast_i32_to_ui32
// CHECK: ^bb0(%[[X:.+]]: i32, %{{.+}}: i32):
// CHECK-NEXT: linalg.yield %[[X]] : i32
func.func @cast_i32_to_ui32(%x: tensor<4xi32>) -> tensor<4xui32> {
  %0 = "tf.Cast"(%x) : (tensor<4xi32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// Float to bool treats denormals as zero, as TensorFlow's flush-to-zero
// CPU threads do: true when |x| >= the smallest normal, or NaN.
// CHECK-LABEL: func.func @cast_f32_to_bool
// CHECK: ^bb0(%[[X:.+]]: f32, %{{.+}}: i1):
// CHECK: %[[MIN:.+]] = arith.constant 1.17549435E-38 : f32
// CHECK: %[[ABS:.+]] = math.absf %[[X]] : f32
// CHECK: %[[B:.+]] = arith.cmpf uge, %[[ABS]], %[[MIN]] : f32
// CHECK: linalg.yield %[[B]] : i1
func.func @cast_f32_to_bool(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = "tf.Cast"(%x) : (tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @cast_f64_to_bool
// CHECK: arith.constant 2.2250738585072014E-308 : f64
// CHECK: arith.cmpf uge
func.func @cast_f64_to_bool(%x: tensor<4xf64>) -> tensor<4xi1> {
  %0 = "tf.Cast"(%x) : (tensor<4xf64>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// f16 keeps its denormals in TensorFlow (converted in software): x != 0.
// CHECK-LABEL: func.func @cast_f16_to_bool
// CHECK-NOT: math.absf
// CHECK: arith.cmpf une
func.func @cast_f16_to_bool(%x: tensor<4xf16>) -> tensor<4xi1> {
  %0 = "tf.Cast"(%x) : (tensor<4xf16>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @cast_i32_to_bool
// CHECK: arith.cmpi ne
func.func @cast_i32_to_bool(%x: tensor<4xi32>) -> tensor<4xi1> {
  %0 = "tf.Cast"(%x) : (tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// CHECK-LABEL: func.func @cast_bool_to_f32
// CHECK: arith.uitofp %{{.+}} : i1 to f32
func.func @cast_bool_to_f32(%x: tensor<4xi1>) -> tensor<4xf32> {
  %0 = "tf.Cast"(%x) : (tensor<4xi1>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @cast_bool_to_i32
// CHECK: arith.extui %{{.+}} : i1 to i32
func.func @cast_bool_to_i32(%x: tensor<4xi1>) -> tensor<4xi32> {
  %0 = "tf.Cast"(%x) : (tensor<4xi1>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// CHECK-LABEL: func.func @cast_f32_to_f16
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @cast_f32_to_f16(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = "tf.Cast"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// CHECK-LABEL: func.func @cast_f16_to_bf16
// CHECK: %[[WIDE:.+]] = arith.extf %{{.+}} : f16 to f32
// CHECK: arith.truncf %[[WIDE]] : f32 to bf16
func.func @cast_f16_to_bf16(%x: tensor<4xf16>) -> tensor<4xbf16> {
  %0 = "tf.Cast"(%x) : (tensor<4xf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// CHECK-LABEL: func.func @cast_truncate_widening
// CHECK: arith.extf %{{.+}} : f16 to f32
func.func @cast_truncate_widening(%x: tensor<4xf16>) -> tensor<4xf32> {
  %0 = "tf.Cast"(%x) {Truncate = true} : (tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// ZerosLike: a generic that yields 0 of the element type.

// CHECK-LABEL: func.func @zeros_like
// CHECK: ^bb0(%{{.+}}: i32, %{{.+}}: i32):
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK: linalg.yield %[[ZERO]] : i32
func.func @zeros_like(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %0 = "tf.ZerosLike"(%x) : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// BroadcastTo with a constant shape.

// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1, d2) -> (0, d2)>
// CHECK-DAG: #[[$ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast_to
// CHECK-SAME: (%[[X:.+]]: tensor<1x3xf32>)
// CHECK: %[[INIT:.+]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK: linalg.generic
// CHECK-SAME: indexing_maps = [#[[$IN]], #[[$ID]]]
// CHECK-SAME: ins(%[[X]] : tensor<1x3xf32>)
// CHECK: ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: linalg.yield %[[A]] : f32
func.func @broadcast_to(%x: tensor<1x3xf32>) -> tensor<4x2x3xf32> {
  %shape = "tf.Const"() {value = dense<[4, 2, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.BroadcastTo"(%x, %shape) : (tensor<1x3xf32>, tensor<3xi32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

// BroadcastTo whose result type is less static than its constant shape.

// CHECK-LABEL: func.func @broadcast_to_cast
// CHECK: %[[R:.+]] = linalg.generic
// CHECK: %[[C:.+]] = tensor.cast %[[R]] : tensor<2x3xf32> to tensor<?x3xf32>
// CHECK: return %[[C]]
func.func @broadcast_to_cast(%x: tensor<3xf32>) -> tensor<?x3xf32> {
  %shape = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "tf.BroadcastTo"(%x, %shape) : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// BroadcastTo with a shape computed at run time: the result's dynamic sizes
// are read from the shape operand; the input's unit dimension is read at 0.

// CHECK-DAG: #[[$IN:.+]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[$OUT:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @broadcast_to_runtime_shape
// CHECK-SAME: (%[[X:.+]]: tensor<1x3xf32>, %[[S:.+]]: tensor<2xi32>)
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[S0:.+]] = tensor.extract %[[S]][%[[C0]]] : tensor<2xi32>
// CHECK: %[[D0:.+]] = arith.index_cast %[[S0]] : i32 to index
// CHECK: %[[INIT:.+]] = tensor.empty(%[[D0]]) : tensor<?x3xf32>
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<1x3xf32>) outs(%[[INIT]] : tensor<?x3xf32>)
// CHECK: return %[[R]]
func.func @broadcast_to_runtime_shape(%x: tensor<1x3xf32>, %s: tensor<2xi32>) -> tensor<?x3xf32> {
  %0 = "tf.BroadcastTo"(%x, %s) : (tensor<1x3xf32>, tensor<2xi32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
