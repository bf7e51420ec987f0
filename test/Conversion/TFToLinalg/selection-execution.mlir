// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32,printMemrefI32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// The numbers pin TensorFlow's semantics. TopKV2: the two examples of
// tf.math.top_k's documentation (k largest, "if two elements are equal, the
// lower-index element appears first"), worked by hand otherwise; NaN ranks
// below every number (Kiln's choice, see Selection.cpp). Non-max suppression:
// the "three clusters" boxes of TensorFlow's kernel tests
// (non_max_suppression_op_test.cc: selected {3, 0, 5}; {3, 0} with
// score_threshold 0.4; the same with flipped corners), the rest worked by
// hand from the kernel's definition (IoU > iou_threshold suppresses, score >
// score_threshold is a candidate, equal scores go by the lower index, a box
// of zero area overlaps nothing).

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @printF32(%t: tensor<?xf32>) {
  %u = tensor.cast %t : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @printI32(%t: tensor<?xi32>) {
  %u = tensor.cast %t : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @topk_runtime_k(%x: tensor<6xf32>, %k: tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %v, %i = "tf.TopKV2"(%x, %k) : (tensor<6xf32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %v, %i : tensor<?xf32>, tensor<?xi32>
}

func.func @nms_v3(%boxes: tensor<6x4xf32>, %scores: tensor<6xf32>, %max: tensor<i32>, %iou: tensor<f32>, %thr: tensor<f32>) {
  %0 = "tf.NonMaxSuppressionV3"(%boxes, %scores, %max, %iou, %thr) : (tensor<6x4xf32>, tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<?xi32>
  call @printI32(%0) : (tensor<?xi32>) -> ()
  return
}

func.func @nms_v3_seven(%boxes: tensor<7x4xf32>, %scores: tensor<7xf32>, %max: tensor<i32>, %iou: tensor<f32>, %thr: tensor<f32>) {
  %0 = "tf.NonMaxSuppressionV3"(%boxes, %scores, %max, %iou, %thr) : (tensor<7x4xf32>, tensor<7xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<?xi32>
  call @printI32(%0) : (tensor<?xi32>) -> ()
  return
}

func.func @main() {
  // TopKV2, the documentation's examples: [99, 98, 96] at [5, 2, 9]; ties
  // [0, 1, 3].
  %doc = arith.constant dense<[[1.0, 2.0, 98.0, 1.0, 1.0, 99.0, 3.0, 1.0, 3.0, 96.0, 4.0, 1.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]]> : tensor<2x14xf32>
  %k3 = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %dv, %di = "tf.TopKV2"(%doc, %k3) {sorted = true} : (tensor<2x14xf32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %dvu = tensor.cast %dv : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%dvu) : (tensor<*xf32>) -> ()
  %diu = tensor.cast %di : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%diu) : (tensor<*xi32>) -> ()
  // CHECK: [99,   98,   96]
  // CHECK-NEXT: [1,   1,   1]
  // CHECK: [5,   2,   9]
  // CHECK-NEXT: [0,   1,   3]

  // An ascending row with k = n (every element enters and shifts the
  // others), and NaN below the numbers: [2, 1, nan] at [1, 3, 0].
  %asc = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [0x7FC00000, 2.0, 0x7FC00000, 1.0]]> : tensor<2x4xf32>
  %k4 = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %av, %ai = "tf.TopKV2"(%asc, %k4) : (tensor<2x4xf32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %avu = tensor.cast %av : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%avu) : (tensor<*xf32>) -> ()
  %aiu = tensor.cast %ai : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%aiu) : (tensor<*xi32>) -> ()
  // CHECK: [4,   3,   2]
  // CHECK-NEXT: [2,   1,   nan]
  // CHECK: [3,   2,   1]
  // CHECK-NEXT: [1,   3,   0]

  // Unsigned elements compare unsigned (255 > 200 > 5); signed ones signed,
  // with ties by index: [3, 3, -1] at [1, 3, 0].
  %u8 = "tf.Const"() {value = dense<[200, 5, 255, 5]> : tensor<4xui8>} : () -> tensor<4xui8>
  %k2 = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %uv, %ui = "tf.TopKV2"(%u8, %k2) : (tensor<4xui8>, tensor<i32>) -> (tensor<2xui8>, tensor<2xi32>)
  %uvw = "tf.Cast"(%uv) : (tensor<2xui8>) -> tensor<2xi32>
  %uvd = tensor.cast %uvw : tensor<2xi32> to tensor<?xi32>
  call @printI32(%uvd) : (tensor<?xi32>) -> ()
  %uid = tensor.cast %ui : tensor<2xi32> to tensor<?xi32>
  call @printI32(%uid) : (tensor<?xi32>) -> ()
  // CHECK: [255,  200]
  // CHECK: [2,  0]
  %s32 = arith.constant dense<[-1, 3, -5, 3]> : tensor<4xi32>
  %sv, %si = "tf.TopKV2"(%s32, %k3) : (tensor<4xi32>, tensor<i32>) -> (tensor<3xi32>, tensor<3xi32>)
  %svd = tensor.cast %sv : tensor<3xi32> to tensor<?xi32>
  call @printI32(%svd) : (tensor<?xi32>) -> ()
  %sid = tensor.cast %si : tensor<3xi32> to tensor<?xi32>
  call @printI32(%sid) : (tensor<?xi32>) -> ()
  // CHECK: [3,  3,  -1]
  // CHECK: [1,  3,  0]

  // A run-time k.
  %row = arith.constant dense<[0.5, -2.0, 7.0, 0.5, 3.0, -1.0]> : tensor<6xf32>
  %kr = arith.constant dense<4> : tensor<i32>
  %rv, %ri = call @topk_runtime_k(%row, %kr) : (tensor<6xf32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
  call @printF32(%rv) : (tensor<?xf32>) -> ()
  call @printI32(%ri) : (tensor<?xi32>) -> ()
  // CHECK: [7,  3,  0.5,  0.5]
  // CHECK: [2,  4,  0,  3]

  // Non-max suppression on three clusters: 0 suppresses 1 and 2 (IoU 0.82),
  // 3 suppresses 4.
  %boxes = arith.constant dense<[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9], [0.0, 10.0, 1.0, 11.0], [0.0, 10.1, 1.0, 11.1], [0.0, 100.0, 1.0, 101.0]]> : tensor<6x4xf32>
  %scores = arith.constant dense<[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]> : tensor<6xf32>
  %max3 = arith.constant dense<3> : tensor<i32>
  %max6 = arith.constant dense<6> : tensor<i32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %thr4 = arith.constant dense<0.4> : tensor<f32>
  call @nms_v3(%boxes, %scores, %max3, %half, %zero) : (tensor<6x4xf32>, tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> ()
  // CHECK: [3,  0,  5]
  // Only scores above 0.4 are candidates.
  call @nms_v3(%boxes, %scores, %max6, %half, %thr4) : (tensor<6x4xf32>, tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> ()
  // CHECK: [3,  0]
  // Corners in either order.
  %flipped = arith.constant dense<[[1.0, 1.0, 0.0, 0.0], [0.0, 0.1, 1.0, 1.1], [0.0, 0.9, 1.0, -0.1], [0.0, 10.0, 1.0, 11.0], [1.0, 10.1, 0.0, 11.1], [1.0, 101.0, 0.0, 100.0]]> : tensor<6x4xf32>
  call @nms_v3(%flipped, %scores, %max3, %half, %zero) : (tensor<6x4xf32>, tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> ()
  // CHECK: [3,  0,  5]
  // max_output_size 0 selects nothing (the printer shows a size of 0; the
  // data it prints for an empty memref is not read).
  %max0 = arith.constant dense<0> : tensor<i32>
  call @nms_v3(%boxes, %scores, %max0, %half, %zero) : (tensor<6x4xf32>, tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> ()
  // CHECK: rank = 1 offset = 0 sizes = [0]

  // Disjoint boxes with equal scores go by index: [1, 3, 0, 2, 4, 5]. A
  // score equal to the threshold is not a candidate (box 5 has 0.25).
  %apart = arith.constant dense<[[0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0], [4.0, 4.0, 5.0, 5.0], [6.0, 6.0, 7.0, 7.0], [8.0, 8.0, 9.0, 9.0], [10.0, 10.0, 11.0, 11.0]]> : tensor<6x4xf32>
  %ties = arith.constant dense<[0.5, 0.75, 0.5, 0.75, 0.375, 0.25]> : tensor<6xf32>
  %quarter = arith.constant dense<0.25> : tensor<f32>
  call @nms_v3(%apart, %ties, %max6, %half, %quarter) : (tensor<6x4xf32>, tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> ()
  // CHECK: [1,  3,  0,  2,  4]
  // Seven disjoint boxes in scrambled score order (three merge passes):
  // 0.9 at 1 and 3, 0.7 at 6, 0.5 at 2 and 5, 0.3 at 4, 0.1 at 0.
  %seven = arith.constant dense<[[0.0, 0.0, 1.0, 1.0], [2.0, 2.0, 3.0, 3.0], [4.0, 4.0, 5.0, 5.0], [6.0, 6.0, 7.0, 7.0], [8.0, 8.0, 9.0, 9.0], [10.0, 10.0, 11.0, 11.0], [12.0, 12.0, 13.0, 13.0]]> : tensor<7x4xf32>
  %sevenScores = arith.constant dense<[0.1, 0.9, 0.5, 0.9, 0.3, 0.5, 0.7]> : tensor<7xf32>
  %max7 = arith.constant dense<7> : tensor<i32>
  call @nms_v3_seven(%seven, %sevenScores, %max7, %half, %zero) : (tensor<7x4xf32>, tensor<7xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> ()
  // CHECK: [1,  3,  6,  2,  5,  4,  0]

  // An IoU equal to the threshold does not suppress (box 1 is the left half
  // of box 0: IoU 0.5); boxes of zero area (2 and 3, the same line) overlap
  // nothing.
  %edge = arith.constant dense<[[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 0.5], [5.0, 5.0, 5.0, 6.0], [5.0, 5.0, 5.0, 6.0], [0.0, 0.0, 1.0, 0.75], [20.0, 20.0, 21.0, 21.0]]> : tensor<6x4xf32>
  %edgeScores = arith.constant dense<[0.9, 0.8, 0.7, 0.6, 0.5, 0.4]> : tensor<6xf32>
  call @nms_v3(%edge, %edgeScores, %max6, %half, %zero) : (tensor<6x4xf32>, tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> ()
  // CHECK: [0,  1,  2,  3,  5]

  // NonMaxSuppressionV5: padded to max_output_size with zeros, and not.
  %sigma = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %max5 = arith.constant dense<5> : tensor<i32>
  %p:3 = "tf.NonMaxSuppressionV5"(%boxes, %scores, %max5, %half, %thr4, %sigma) {pad_to_max_output_size = true} : (tensor<6x4xf32>, tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<5xi32>, tensor<5xf32>, tensor<i32>)
  %pi = tensor.cast %p#0 : tensor<5xi32> to tensor<?xi32>
  call @printI32(%pi) : (tensor<?xi32>) -> ()
  %ps = tensor.cast %p#1 : tensor<5xf32> to tensor<?xf32>
  call @printF32(%ps) : (tensor<?xf32>) -> ()
  %pv = tensor.cast %p#2 : tensor<i32> to tensor<*xi32>
  call @printMemrefI32(%pv) : (tensor<*xi32>) -> ()
  // CHECK: [3,  0,  0,  0,  0]
  // CHECK: [0.95,  0.9,  0,  0,  0]
  // CHECK: [2]
  %q:3 = "tf.NonMaxSuppressionV5"(%boxes, %scores, %max5, %half, %zero, %sigma) : (tensor<6x4xf32>, tensor<6xf32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<?xi32>, tensor<?xf32>, tensor<i32>)
  call @printI32(%q#0) : (tensor<?xi32>) -> ()
  call @printF32(%q#1) : (tensor<?xf32>) -> ()
  %qv = tensor.cast %q#2 : tensor<i32> to tensor<*xi32>
  call @printMemrefI32(%qv) : (tensor<*xi32>) -> ()
  // CHECK: [3,  0,  5]
  // CHECK: [0.95,  0.9,  0.3]
  // CHECK: [3]
  return
}
