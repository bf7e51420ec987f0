// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32,printMemrefI32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// Runs the lowered elementwise ops and checks the values TensorFlow gives
// (from the semantics documented for tf.math.floordiv, tf.math.floormod,
// tf.math.maximum, tf.nn.relu6, tf.cast, tf.math.sign, tf.where (v1) and
// numpy broadcasting, computed by hand).

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

func.func @print_f32(%t: tensor<?xf32>) {
  %u = tensor.cast %t : tensor<?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print_i32(%t: tensor<?xi32>) {
  %u = tensor.cast %t : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @broadcast_runtime(%x: tensor<1x3xf32>, %s: tensor<2xi32>) -> tensor<*xf32> {
  %0 = "tf.BroadcastTo"(%x, %s) : (tensor<1x3xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<*xf32>
  return %1 : tensor<*xf32>
}

func.func @main() {
  %x = "tf.Const"() {value = dense<[7, -7, 7, -7, 6, -6]> : tensor<6xi32>} : () -> tensor<6xi32>
  %y = "tf.Const"() {value = dense<[2, 2, -2, -2, -3, 3]> : tensor<6xi32>} : () -> tensor<6xi32>

  // FloorDiv on integers rounds toward -inf: 7 // 2 = 3, -7 // 2 = -4,
  // 7 // -2 = -4, -7 // -2 = 3, 6 // -3 = -2, -6 // 3 = -2.
  // CHECK: [3,  -4,  -4,  3,  -2,  -2]
  %fd = "tf.FloorDiv"(%x, %y) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %fd_d = tensor.cast %fd : tensor<6xi32> to tensor<?xi32>
  call @print_i32(%fd_d) : (tensor<?xi32>) -> ()

  // FloorMod has the sign of the divisor: 7 % 2 = 1, -7 % 2 = 1,
  // 7 % -2 = -1, -7 % -2 = -1, exact divisions give 0.
  // CHECK: [1,  1,  -1,  -1,  0,  0]
  %fm = "tf.FloorMod"(%x, %y) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  %fm_d = tensor.cast %fm : tensor<6xi32> to tensor<?xi32>
  call @print_i32(%fm_d) : (tensor<?xi32>) -> ()

  // Floats: floor(x / y) and x - floor(x / y) * y.
  %fx = "tf.Const"() {value = dense<[7.5, -7.5, 7.5, -7.5]> : tensor<4xf32>} : () -> tensor<4xf32>
  %fy = "tf.Const"() {value = dense<[2.0, 2.0, -2.0, -2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // CHECK: [3,  -4,  -4,  3]
  %ffd = "tf.FloorDiv"(%fx, %fy) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %ffd_d = tensor.cast %ffd : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%ffd_d) : (tensor<?xf32>) -> ()
  // CHECK: [1.5,  0.5,  -0.5,  -1.5]
  %ffm = "tf.FloorMod"(%fx, %fy) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %ffm_d = tensor.cast %ffm : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%ffm_d) : (tensor<?xf32>) -> ()

  // Maximum and Minimum propagate NaN; Relu and Relu6 keep it.
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %m7 = arith.constant -7.0 : f32
  %p3 = arith.constant 3.0 : f32
  %p9 = arith.constant 9.0 : f32
  %a = tensor.from_elements %nan, %one, %one, %m7 : tensor<4xf32>
  %b = tensor.from_elements %one, %nan, %p3, %p3 : tensor<4xf32>
  // CHECK: [nan,  nan,  3,  3]
  %max = "tf.Maximum"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %max_d = tensor.cast %max : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%max_d) : (tensor<?xf32>) -> ()
  // CHECK: [nan,  nan,  1,  -7]
  %min = "tf.Minimum"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %min_d = tensor.cast %min : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%min_d) : (tensor<?xf32>) -> ()
  %r = tensor.from_elements %nan, %m7, %p3, %p9 : tensor<4xf32>
  // CHECK: [nan,  0,  3,  9]
  %relu = "tf.Relu"(%r) : (tensor<4xf32>) -> tensor<4xf32>
  %relu_d = tensor.cast %relu : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%relu_d) : (tensor<?xf32>) -> ()
  // CHECK: [nan,  0,  3,  6]
  %relu6 = "tf.Relu6"(%r) : (tensor<4xf32>) -> tensor<4xf32>
  %relu6_d = tensor.cast %relu6 : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%relu6_d) : (tensor<?xf32>) -> ()

  // Sign: -1, 0, 1, and NaN stays NaN (TensorFlow 2, like numpy).
  %zero = arith.constant 0.0 : f32
  %s = tensor.from_elements %m7, %zero, %p3, %nan : tensor<4xf32>
  // CHECK: [-1,  0,  1,  nan]
  %sign = "tf.Sign"(%s) : (tensor<4xf32>) -> tensor<4xf32>
  %sign_d = tensor.cast %sign : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%sign_d) : (tensor<?xf32>) -> ()

  // Comparisons with NaN: only NotEqual is true.
  %nans = tensor.from_elements %nan, %one, %nan, %one : tensor<4xf32>
  %ones = tensor.from_elements %nan, %one, %one, %p3 : tensor<4xf32>
  %ne = "tf.NotEqual"(%nans, %ones) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %eq = "tf.Equal"(%nans, %ones) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %gt = "tf.GreaterEqual"(%nans, %ones) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: [1,  0,  1,  1]
  %ne_i = "tf.Cast"(%ne) : (tensor<4xi1>) -> tensor<4xi32>
  %ne_d = tensor.cast %ne_i : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%ne_d) : (tensor<?xi32>) -> ()
  // CHECK: [0,  1,  0,  0]
  %eq_i = "tf.Cast"(%eq) : (tensor<4xi1>) -> tensor<4xi32>
  %eq_d = tensor.cast %eq_i : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%eq_d) : (tensor<?xi32>) -> ()
  // CHECK: [0,  1,  0,  0]
  %gt_i = "tf.Cast"(%gt) : (tensor<4xi1>) -> tensor<4xi32>
  %gt_d = tensor.cast %gt_i : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%gt_d) : (tensor<?xi32>) -> ()

  // Cast float -> int truncates toward zero; float -> bool is x != 0 (NaN
  // is true), bool -> float is 0 or 1.
  // (The operands are built with tensor.from_elements so that tf.Cast's
  // folder does not compute the result before the lowering.)
  %c0 = arith.constant 2.7 : f32
  %c1 = arith.constant -2.7 : f32
  %c2 = arith.constant -0.5 : f32
  %c3 = arith.constant 1000.9 : f32
  %c = tensor.from_elements %c0, %c1, %c2, %c3 : tensor<4xf32>
  // CHECK: [2,  -2,  0,  1000]
  %ci = "tf.Cast"(%c) : (tensor<4xf32>) -> tensor<4xi32>
  %ci_d = tensor.cast %ci : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%ci_d) : (tensor<?xi32>) -> ()
  // A denormal (1e-40) is false, as on TensorFlow's flush-to-zero threads.
  %denormal = arith.constant 1.0e-40 : f32
  %bsrc = tensor.from_elements %zero, %nan, %m7, %denormal : tensor<4xf32>
  %bool = "tf.Cast"(%bsrc) : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK: [0,  1,  1,  0]
  %bf = "tf.Cast"(%bool) : (tensor<4xi1>) -> tensor<4xf32>
  %bf_d = tensor.cast %bf : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%bf_d) : (tensor<?xf32>) -> ()

  // Unsigned integers use unsigned ops: uint8 200 is not -56.
  %u8 = "tf.Const"() {value = dense<[200, 100, 7, 255]> : tensor<4xui8>} : () -> tensor<4xui8>
  %v8 = "tf.Const"() {value = dense<[100, 200, 2, 16]> : tensor<4xui8>} : () -> tensor<4xui8>
  // CHECK: [200,  200,  7,  255]
  %umax = "tf.Maximum"(%u8, %v8) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %umax_i = "tf.Cast"(%umax) : (tensor<4xui8>) -> tensor<4xi32>
  %umax_d = tensor.cast %umax_i : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%umax_d) : (tensor<?xi32>) -> ()
  // CHECK: [2,  0,  3,  15]
  %udiv = "tf.FloorDiv"(%u8, %v8) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %udiv_i = "tf.Cast"(%udiv) : (tensor<4xui8>) -> tensor<4xi32>
  %udiv_d = tensor.cast %udiv_i : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%udiv_d) : (tensor<?xi32>) -> ()
  // CHECK: [200,  100,  7,  255]
  %uf = "tf.Cast"(%u8) : (tensor<4xui8>) -> tensor<4xf32>
  %uf_d = tensor.cast %uf : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%uf_d) : (tensor<?xf32>) -> ()
  // int32 -1 -> uint8 wraps to 255, then zero-extends to int32 255.
  %i0 = arith.constant -1 : i32
  %i1 = arith.constant 256 : i32
  %i2 = arith.constant 300 : i32
  %i3 = arith.constant 0 : i32
  %neg = tensor.from_elements %i0, %i1, %i2, %i3 : tensor<4xi32>
  // CHECK: [255,  0,  44,  0]
  %wrap = "tf.Cast"(%neg) : (tensor<4xi32>) -> tensor<4xui8>
  %wrap_i = "tf.Cast"(%wrap) : (tensor<4xui8>) -> tensor<4xi32>
  %wrap_d = tensor.cast %wrap_i : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%wrap_d) : (tensor<?xi32>) -> ()

  // Broadcasting [2,1,3] + [4,1] -> [2,4,3]: out[i][j][k] = x[i][0][k] + y[j][0].
  %bx = "tf.Const"() {value = dense<[[[0.0, 1.0, 2.0]], [[10.0, 11.0, 12.0]]]> : tensor<2x1x3xf32>} : () -> tensor<2x1x3xf32>
  %by = "tf.Const"() {value = dense<[[100.0], [200.0], [300.0], [400.0]]> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %bsum = "tf.AddV2"(%bx, %by) : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>
  %bsum_u = tensor.cast %bsum : tensor<2x4x3xf32> to tensor<*xf32>
  call @printMemrefF32(%bsum_u) : (tensor<*xf32>) -> ()
  // CHECK: rank = 3 offset = 0 sizes = [2, 4, 3] strides = [12, 3, 1] data =
  // CHECK-NEXT: {{\[\[\[}}100,    101,    102],
  // CHECK-NEXT: [200,    201,    202],
  // CHECK-NEXT: [300,    301,    302],
  // CHECK-NEXT: [400,    401,    402]],
  // CHECK-NEXT: {{\[\[}}110,    111,    112],
  // CHECK-NEXT: [210,    211,    212],
  // CHECK-NEXT: [310,    311,    312],
  // CHECK-NEXT: [410,    411,    412]]]

  // Select (v1) with a vector condition picks whole rows.
  %cond = "tf.Const"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %then = "tf.Const"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %else = "tf.Const"() {value = dense<[[5, 6], [7, 8]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %sel = "tf.Select"(%cond, %then, %else) : (tensor<2xi1>, tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %sel_u = tensor.cast %sel : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%sel_u) : (tensor<*xi32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 2] strides = [2, 1] data =
  // CHECK-NEXT: {{\[}}[1,   2],
  // CHECK-NEXT: [7,   8]]

  // BroadcastTo [3] -> [2, 3]; Sigmoid(0) = 0.5; LeakyRelu(-2) = -0.4.
  %row = "tf.Const"() {value = dense<[0.0, -2.0, 2.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %shape = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %bt = "tf.BroadcastTo"(%row, %shape) : (tensor<3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %bt_u = tensor.cast %bt : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%bt_u) : (tensor<*xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
  // CHECK-NEXT: {{\[}}[0,   -2,   2],
  // CHECK-NEXT: [0,   -2,   2]]
  // The same with the shape known only at run time ([3, 3] this time).
  %row2 = "tf.Const"() {value = dense<[[0.0, -2.0, 2.0]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
  %shape33 = arith.constant dense<[3, 3]> : tensor<2xi32>
  %btr = call @broadcast_runtime(%row2, %shape33) : (tensor<1x3xf32>, tensor<2xi32>) -> tensor<*xf32>
  call @printMemrefF32(%btr) : (tensor<*xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [3, 3] strides = [3, 1] data =
  // CHECK-NEXT: {{\[}}[0,   -2,   2],
  // CHECK-NEXT: [0,   -2,   2],
  // CHECK-NEXT: [0,   -2,   2]]
  // CHECK: [0.5,  0.119203,  0.880797]
  %sig = "tf.Sigmoid"(%row) : (tensor<3xf32>) -> tensor<3xf32>
  %sig_d = tensor.cast %sig : tensor<3xf32> to tensor<?xf32>
  call @print_f32(%sig_d) : (tensor<?xf32>) -> ()
  // CHECK: [0,  -0.4,  2]
  %lr = "tf.LeakyRelu"(%row) {alpha = 2.000000e-01 : f32} : (tensor<3xf32>) -> tensor<3xf32>
  %lr_d = tensor.cast %lr : tensor<3xf32> to tensor<?xf32>
  call @print_f32(%lr_d) : (tensor<?xf32>) -> ()
  // Unary math and the remaining binary ops on [-2, -0.5, 0.25, 4].
  %v = "tf.Const"() {value = dense<[-2.0, -0.5, 0.25, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %w = "tf.Const"() {value = dense<[1.0, -1.0, -1.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // atan2(y, x) with y = v, x = w: atan2(-2, 1), atan2(-0.5, -1),
  // atan2(0.25, -1), atan2(4, 2).
  // CHECK: [-1.10715,  -2.67795,  2.89661,  1.10715]
  %at = "tf.Atan2"(%v, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %at_d = tensor.cast %at : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%at_d) : (tensor<?xf32>) -> ()
  // (v - w)^2 = [9, 0.25, 1.5625, 4].
  // CHECK: [9,  0.25,  1.5625,  4]
  %sd = "tf.SquaredDifference"(%v, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %sd_d = tensor.cast %sd : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%sd_d) : (tensor<?xf32>) -> ()
  // AddN(v, w, v) = 2v + w.
  // CHECK: [-3,  -2,  -0.5,  10]
  %an = "tf.AddN"(%v, %w, %v) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %an_d = tensor.cast %an : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%an_d) : (tensor<?xf32>) -> ()
  // Prelu with alpha = w: x > 0 ? x : alpha * x.
  // CHECK: [-2,  0.5,  0.25,  4]
  %pr = "tf.Prelu"(%v, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %pr_d = tensor.cast %pr : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%pr_d) : (tensor<?xf32>) -> ()
  // Floor, Ceil, Abs, Neg, Reciprocal, Tanh.
  // CHECK: [-2,  -1,  0,  4]
  %fl = "tf.Floor"(%v) : (tensor<4xf32>) -> tensor<4xf32>
  %fl_d = tensor.cast %fl : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%fl_d) : (tensor<?xf32>) -> ()
  // CHECK: [-2,  -0,  1,  4]
  %ce = "tf.Ceil"(%v) : (tensor<4xf32>) -> tensor<4xf32>
  %ce_d = tensor.cast %ce : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%ce_d) : (tensor<?xf32>) -> ()
  // CHECK: [-0.5,  -2,  4,  0.25]
  %rc = "tf.Reciprocal"(%v) : (tensor<4xf32>) -> tensor<4xf32>
  %rc_d = tensor.cast %rc : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%rc_d) : (tensor<?xf32>) -> ()
  // CHECK: [-0.964028,  -0.462117,  0.244919,  0.999329]
  %th = "tf.Tanh"(%v) : (tensor<4xf32>) -> tensor<4xf32>
  %th_d = tensor.cast %th : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%th_d) : (tensor<?xf32>) -> ()
  // Rsqrt and Sqrt of |v| = [2, 0.5, 0.25, 4]; Log of 4.
  %ab = "tf.Abs"(%v) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: [0.707107,  1.41421,  2,  0.5]
  %rs = "tf.Rsqrt"(%ab) : (tensor<4xf32>) -> tensor<4xf32>
  %rs_d = tensor.cast %rs : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%rs_d) : (tensor<?xf32>) -> ()
  // CHECK: [0.693147,  -0.693147,  -1.38629,  1.38629]
  %lg = "tf.Log"(%ab) : (tensor<4xf32>) -> tensor<4xf32>
  %lg_d = tensor.cast %lg : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%lg_d) : (tensor<?xf32>) -> ()

  // Integer Sign, Abs, Neg, Square and unsigned comparison.
  %iv = "tf.Const"() {value = dense<[-5, 0, 3, -1]> : tensor<4xi32>} : () -> tensor<4xi32>
  // CHECK: [-1,  0,  1,  -1]
  %is = "tf.Sign"(%iv) : (tensor<4xi32>) -> tensor<4xi32>
  %is_d = tensor.cast %is : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%is_d) : (tensor<?xi32>) -> ()
  // CHECK: [5,  0,  3,  1]
  %ia = "tf.Abs"(%iv) : (tensor<4xi32>) -> tensor<4xi32>
  %ia_d = tensor.cast %ia : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%ia_d) : (tensor<?xi32>) -> ()
  // CHECK: [25,  0,  9,  1]
  %isq = "tf.Square"(%iv) : (tensor<4xi32>) -> tensor<4xi32>
  %isq_d = tensor.cast %isq : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%isq_d) : (tensor<?xi32>) -> ()
  // uint8 200 > 100 (signed int8 would say -56 < 100).
  // CHECK: [1,  0,  1,  1]
  %ugt = "tf.Greater"(%u8, %v8) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %ugt_i = "tf.Cast"(%ugt) : (tensor<4xi1>) -> tensor<4xi32>
  %ugt_d = tensor.cast %ugt_i : tensor<4xi32> to tensor<?xi32>
  call @print_i32(%ugt_d) : (tensor<?xi32>) -> ()

  // SelectV2 broadcasting a [2,1] condition against [2,3] and a scalar, and
  // LogicalAnd; ZerosLike.
  // (The conditions come from comparisons rather than i1 constants.)
  %f21 = "tf.Const"() {value = dense<[[1.0], [-1.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %f3 = "tf.Const"() {value = dense<[1.0, 2.0, -3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %zero_t = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %c21 = "tf.Greater"(%f21, %zero_t) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xi1>
  %b3 = "tf.Greater"(%f3, %zero_t) : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
  %m23 = "tf.Const"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %sc = "tf.Const"() {value = dense<-1.0> : tensor<f32>} : () -> tensor<f32>
  %s2 = "tf.SelectV2"(%c21, %m23, %sc) : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %s2_u = tensor.cast %s2 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%s2_u) : (tensor<*xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
  // CHECK-NEXT: {{\[}}[1,   2,   3],
  // CHECK-NEXT: [-1,   -1,   -1]]
  %land = "tf.LogicalAnd"(%c21, %b3) : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %land_i = "tf.Cast"(%land) : (tensor<2x3xi1>) -> tensor<2x3xi32>
  %land_u = tensor.cast %land_i : tensor<2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%land_u) : (tensor<*xi32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
  // CHECK-NEXT: {{\[}}[1,   1,   0],
  // CHECK-NEXT: [0,   0,   0]]
  // CHECK: [0,  0,  0,  0]
  %zl = "tf.ZerosLike"(%v) : (tensor<4xf32>) -> tensor<4xf32>
  %zl_d = tensor.cast %zl : tensor<4xf32> to tensor<?xf32>
  call @print_f32(%zl_d) : (tensor<?xf32>) -> ()

  // A dynamic leading size, taken from the operand that has it.
  %dyn = tensor.cast %m23 : tensor<2x3xf32> to tensor<?x3xf32>
  %drow = "tf.Const"() {value = dense<[10.0, 20.0, 30.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %dsum = "tf.Mul"(%dyn, %drow) : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %dsum_u = tensor.cast %dsum : tensor<?x3xf32> to tensor<*xf32>
  call @printMemrefF32(%dsum_u) : (tensor<*xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
  // CHECK-NEXT: {{\[}}[10,   40,   90],
  // CHECK-NEXT: [40,   100,   180]]
  return
}
