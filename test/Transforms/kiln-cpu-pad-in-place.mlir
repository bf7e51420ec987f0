// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-pad-in-place))' | FileCheck %s
// RUN: kiln-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(kiln-cpu-pad-in-place),eliminate-empty-tensors)' | FileCheck %s --check-prefix=ELIM

// A SAME-padded input: the padded tensor is built before the producer, its
// four border slabs (rows 0 and 9 across the width, then columns 0 and 9 of
// the interior rows) filled with the padding value, and the producer's
// result inserted into the interior.
// CHECK-LABEL: func.func @same_padding
// CHECK:         %[[V:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT:     arith.constant
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x10x10x4xf32>
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 1, 10, 4] [1, 1, 1, 1]
// CHECK:         %[[F0:.+]] = linalg.fill ins(%[[V]] : f32) outs(%[[S0]] : tensor<1x1x10x4xf32>)
// CHECK:         %[[B0:.+]] = tensor.insert_slice %[[F0]] into %[[E]][0, 0, 0, 0] [1, 1, 10, 4]
// CHECK:         tensor.extract_slice %[[B0]][0, 9, 0, 0] [1, 1, 10, 4]
// CHECK:         %[[B1:.+]] = tensor.insert_slice %{{.+}}[0, 9, 0, 0] [1, 1, 10, 4]
// CHECK:         tensor.extract_slice %[[B1]][0, 1, 0, 0] [1, 8, 1, 4]
// CHECK:         %[[B2:.+]] = tensor.insert_slice %{{.+}}[0, 1, 0, 0] [1, 8, 1, 4]
// CHECK:         tensor.extract_slice %[[B2]][0, 1, 9, 0] [1, 8, 1, 4]
// CHECK:         %[[B3:.+]] = tensor.insert_slice %{{.+}}[0, 1, 9, 0] [1, 8, 1, 4]
// CHECK:         %[[X:.+]] = linalg.generic
// CHECK-NOT:     tensor.pad
// CHECK:         %[[P:.+]] = tensor.insert_slice %[[X]] into %[[B3]][0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1]
// CHECK:         return %[[P]]
// Empty-tensor elimination then makes the producer write into the interior.
// ELIM-LABEL:  func.func @same_padding
// ELIM:          %[[B3:.+]] = tensor.insert_slice %{{.+}}[0, 1, 9, 0] [1, 8, 1, 4]
// ELIM:          %[[I:.+]] = tensor.extract_slice %[[B3]][0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1]
// ELIM:          %[[X:.+]] = linalg.generic {{.+}} outs(%[[I]] : tensor<1x8x8x4xf32>)
// ELIM:          tensor.insert_slice %[[X]] into %[[B3]][0, 1, 1, 0] [1, 8, 8, 4]
func.func @same_padding(%a: tensor<1x8x8x4xf32>) -> tensor<1x10x10x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>,
                                        affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x8x8x4xf32>) outs(%e : tensor<1x8x8x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x8x8x4xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
  return %p : tensor<1x10x10x4xf32>
}

// -----

// Padding on one side only (TensorFlow's stride-2 SAME, a ZeroPadding2D),
// a non-zero padding value, and a function argument as the source: the
// border is the last row and column, filled with -inf; the argument is
// inserted where it was (no producer to move before).
// CHECK-LABEL: func.func @one_sided
// CHECK:         %[[V:.+]] = arith.constant 0xFF800000 : f32
// CHECK-NOT:     arith.constant
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x5x5x2xf32>
// CHECK:         tensor.extract_slice %[[E]][0, 4, 0, 0] [1, 1, 5, 2]
// CHECK:         linalg.fill ins(%[[V]] : f32)
// CHECK:         tensor.extract_slice %{{.+}}[0, 0, 4, 0] [1, 4, 1, 2]
// CHECK:         linalg.fill ins(%[[V]] : f32)
// CHECK-NOT:     linalg.fill
// CHECK:         tensor.insert_slice %arg0 into %{{.+}}[0, 0, 0, 0] [1, 4, 4, 2]
func.func @one_sided(%a: tensor<1x4x4x2xf32>) -> tensor<1x5x5x2xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %p = tensor.pad %a low[0, 0, 0, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x4x4x2xf32> to tensor<1x5x5x2xf32>
  return %p : tensor<1x5x5x2xf32>
}

// -----

// Dynamic shapes and a padding value computed from the index stay pads.
// CHECK-LABEL: func.func @left_alone
// CHECK:         tensor.pad %arg0
// CHECK:         tensor.pad %arg1
func.func @left_alone(%a: tensor<?x4xf32>, %b: tensor<4x4xf32>)
    -> (tensor<?x6xf32>, tensor<6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<?x4xf32> to tensor<?x6xf32>
  %q = tensor.pad %b low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    tensor.yield %f : f32
  } : tensor<4x4xf32> to tensor<6x6xf32>
  return %p, %q : tensor<?x6xf32>, tensor<6x6xf32>
}
