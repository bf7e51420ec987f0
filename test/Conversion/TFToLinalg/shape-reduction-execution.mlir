// REQUIRES: mlir-runner
// RUN: kiln-opt %s --convert-tf-to-linalg --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32,printMemrefI32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | FileCheck %s

// Expected values are TensorFlow's: the examples in the TensorFlow API
// documentation where one exists (tf.strided_slice, tf.pad, tf.math.argmax,
// tf.math.reduce_mean, tf.nn.softmax, tf.tile, tf.nn.depth_to_space,
// tf.space_to_batch_nd, tf.gather, tf.gather_nd, tf.stack), otherwise worked
// out by hand from the semantics TensorFlow documents for the op.

func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefI32(tensor<*xi32>)

// Operands known only at run time: slice sizes and paddings passed in.
func.func @slice_runtime(%x: tensor<?x8xi32>, %size: tensor<2xi32>) -> tensor<?x?xi32> {
  %begin = "tf.Const"() {value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Slice"(%x, %begin, %size) : (tensor<?x8xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

func.func @pad_runtime(%x: tensor<2x3xi32>, %paddings: tensor<2x2xi32>) -> tensor<?x?xi32> {
  %0 = "tf.Pad"(%x, %paddings) : (tensor<2x3xi32>, tensor<2x2xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

func.func @reshape_runtime(%x: tensor<?x4xi32>, %shape: tensor<2xi32>) -> tensor<?x?xi32> {
  %0 = "tf.Reshape"(%x, %shape) : (tensor<?x4xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

func.func @range_runtime(%start: tensor<i32>, %limit: tensor<i32>, %delta: tensor<i32>) -> tensor<?xi32> {
  %0 = "tf.Range"(%start, %limit, %delta) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

func.func @strided_slice_runtime(%x: tensor<?x8xi32>, %end: tensor<2xi32>) -> tensor<?x?xi32> {
  %begin = "tf.Const"() {value = dense<[1, -6]> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.StridedSlice"(%x, %begin, %end, %strides) : (tensor<?x8xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

func.func @strided_slice_runtime_shrink(%x: tensor<4xi32>, %begin: tensor<1xi32>) -> tensor<i32> {
  %end = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %strides = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = "tf.StridedSlice"(%x, %begin, %end, %strides) {shrink_axis_mask = 1 : i64} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  return %0 : tensor<i32>
}

func.func @strided_slice_runtime_reverse(%x: tensor<?x4xi32>, %begin: tensor<2xi32>) -> tensor<?x?xi32> {
  %end = "tf.Const"() {value = dense<[0, -10]> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<[-1, -2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.StridedSlice"(%x, %begin, %end, %strides) {begin_mask = 1 : i64, end_mask = 1 : i64} : (tensor<?x4xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

func.func @main() {
  %t = arith.constant dense<[[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]], [[5, 5, 5], [6, 6, 6]]]> : tensor<3x2x3xi32>
  %iota = arith.constant dense<[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]], [[12.0, 13.0, 14.0], [15.0, 16.0, 17.0]]]> : tensor<3x2x3xf32>

  // tf.strided_slice(t, [1, -1, 0], [2, -3, 3], [1, -1, 1]) (documentation)
  %b0 = "tf.Const"() {value = dense<[1, -1, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %e0 = "tf.Const"() {value = dense<[2, -3, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %s0 = "tf.Const"() {value = dense<[1, -1, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %ss0 = "tf.StridedSlice"(%t, %b0, %e0, %s0) : (tensor<3x2x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x2x3xi32>
  %u0 = tensor.cast %ss0 : tensor<1x2x3xi32> to tensor<*xi32>
  call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [1, 2, 3]
  // CHECK-NEXT: {{\[\[\[}}4,    4,    4],
  // CHECK-NEXT: [3,    3,    3]]]

  // iota[::-1, tf.newaxis, 0]: reversed by begin/end masks, a new axis, a
  // shrunk index, and an implicit ellipsis for the last dimension.
  %b1 = "tf.Const"() {value = dense<[0, 0, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %e1 = "tf.Const"() {value = dense<[0, 0, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %s1 = "tf.Const"() {value = dense<[-1, 1, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %ss1 = "tf.StridedSlice"(%iota, %b1, %e1, %s1) {begin_mask = 1 : i64, end_mask = 1 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 4 : i64} : (tensor<3x2x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3x1x3xf32>
  %u1 = tensor.cast %ss1 : tensor<3x1x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [3, 1, 3]
  // CHECK-NEXT: {{\[\[\[}}12,    13,    14]],
  // CHECK-NEXT: {{\[\[}}6,    7,    8]],
  // CHECK-NEXT: {{\[\[}}0,    1,    2]]]

  // iota[-1:-10:-2, :, 1:]: negative begin, an end clamped to before the
  // first element, stride -2.
  %b2 = "tf.Const"() {value = dense<[-1, 0, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %e2 = "tf.Const"() {value = dense<[-10, 0, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %s2 = "tf.Const"() {value = dense<[-2, 1, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %ss2 = "tf.StridedSlice"(%iota, %b2, %e2, %s2) {begin_mask = 2 : i64, end_mask = 6 : i64} : (tensor<3x2x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x2x2xf32>
  %u2 = tensor.cast %ss2 : tensor<2x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 2, 2]
  // CHECK-NEXT: {{\[\[\[}}13,    14],
  // CHECK-NEXT: [16,    17]],
  // CHECK-NEXT: {{\[\[}}1,    2],
  // CHECK-NEXT: [4,    5]]]

  // iota[..., 1]: an explicit ellipsis and a shrunk last dimension.
  %b3 = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %e3 = "tf.Const"() {value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s3 = "tf.Const"() {value = dense<[1, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %ss3 = "tf.StridedSlice"(%iota, %b3, %e3, %s3) {ellipsis_mask = 1 : i64, shrink_axis_mask = 2 : i64} : (tensor<3x2x3xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x2xf32>
  %u3 = tensor.cast %ss3 : tensor<3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [3, 2]
  // CHECK-NEXT: {{\[\[}}1,   4],
  // CHECK-NEXT: [7,   10],
  // CHECK-NEXT: [13,   16]]

  // tf.math.argmax: first index on ties, and the documentation's B along
  // axis 0 (int32 input, int32 output) and axis -1.
  %ties = arith.constant dense<[[1.0, 7.0, 7.0, 2.0], [0.0, 0.0, 0.0, 0.0], [3.0, -1.0, 3.0, 3.0]]> : tensor<3x4xf32>
  %dim1 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %am0 = "tf.ArgMax"(%ties, %dim1) : (tensor<3x4xf32>, tensor<i32>) -> tensor<3xi32>
  %ua0 = tensor.cast %am0 : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%ua0) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [1,  0,  0]
  %bmat = arith.constant dense<[[2, 20, 30, 3, 6], [3, 11, 16, 1, 8], [14, 45, 23, 5, 27]]> : tensor<3x5xi32>
  %dim0 = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %am1 = "tf.ArgMax"(%bmat, %dim0) : (tensor<3x5xi32>, tensor<i32>) -> tensor<5xi32>
  %ua1 = tensor.cast %am1 : tensor<5xi32> to tensor<*xi32>
  call @printMemrefI32(%ua1) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [5]
  // CHECK-NEXT: [2,  2,  0,  2,  2]
  %dimm1 = "tf.Const"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %am2 = "tf.ArgMax"(%bmat, %dimm1) : (tensor<3x5xi32>, tensor<i64>) -> tensor<3xi32>
  %ua2 = tensor.cast %am2 : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%ua2) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [2,  2,  1]

  // tf.math.reduce_mean of int32 truncates towards zero: [1, 0, 1, 0] -> 0
  // (documentation), [-1, -2, -4, 0] -> -7 / 4 = -1, [3, 4, 6, 0] -> 3;
  // over the first three columns of the last two rows: -7 / 3 = -2 and
  // 13 / 3 = 4.
  %ints = arith.constant dense<[[1, 0, 1, 0], [-1, -2, -4, 0], [3, 4, 6, 0]]> : tensor<3x4xi32>
  %mcols = "tf.Const"() {value = dense<[-1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %slice_b = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %slice_s = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %mean_all = "tf.Mean"(%ints, %mcols) : (tensor<3x4xi32>, tensor<1xi32>) -> tensor<3xi32>
  %um0 = tensor.cast %mean_all : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%um0) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [0,  -1,  3]
  %ints3 = "tf.Slice"(%ints, %slice_b, %slice_s) : (tensor<3x4xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  %mean3 = "tf.Mean"(%ints3, %mcols) {keep_dims = true} : (tensor<2x3xi32>, tensor<1xi32>) -> tensor<2x1xi32>
  %um1 = tensor.cast %mean3 : tensor<2x1xi32> to tensor<*xi32>
  call @printMemrefI32(%um1) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2, 1]
  // CHECK-NEXT: [-2],
  // CHECK-NEXT: [4]]

  // tf.math.reduce_mean of floats: [[1, 1], [2, 2]] along axis -2 and both.
  %fl = arith.constant dense<[[1.0, 1.0], [2.0, 2.0]]> : tensor<2x2xf32>
  %axm2 = "tf.Const"() {value = dense<-2> : tensor<i32>} : () -> tensor<i32>
  %mf0 = "tf.Mean"(%fl, %axm2) : (tensor<2x2xf32>, tensor<i32>) -> tensor<2xf32>
  %umf0 = tensor.cast %mf0 : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%umf0) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [1.5,  1.5]

  // tf.reduce_sum with a negative axis and keep_dims, tf.reduce_max
  // propagating NaN, tf.reduce_min and tf.reduce_prod.
  %nan = arith.constant dense<[[1.0, 0x7FC00000, 2.0], [4.0, -3.0, 0.5]]> : tensor<2x3xf32>
  %ax1 = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %mx = "tf.Max"(%nan, %ax1) : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xf32>
  %umx = tensor.cast %mx : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%umx) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [{{-?nan}},  4]
  %sum_in = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, -3.0, 0.5]]> : tensor<2x3xf32>
  %sm = "tf.Sum"(%sum_in, %ax1) {keep_dims = true} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x1xf32>
  %usm = tensor.cast %sm : tensor<2x1xf32> to tensor<*xf32>
  call @printMemrefF32(%usm) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 1]
  // CHECK-NEXT: [6],
  // CHECK-NEXT: [1.5]]
  %mn_in = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, -3.0, 0.5]]> : tensor<2x3xf32>
  %mn = "tf.Min"(%mn_in, %axm2) : (tensor<2x3xf32>, tensor<i32>) -> tensor<3xf32>
  %umn = tensor.cast %mn : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%umn) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [1,  -3,  0.5]
  %pr_in = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, -3.0, 0.5]]> : tensor<2x3xf32>
  %both = "tf.Const"() {value = dense<[0, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %pr = "tf.Prod"(%pr_in, %both) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  %upr = tensor.cast %pr : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%upr) : (tensor<*xf32>) -> ()
  // CHECK: rank = 0
  // CHECK-NEXT: [-36]

  // tf.nn.softmax([-1, 0, 1]) (documentation) and a row of large logits,
  // which only the shift by the maximum keeps finite.
  %logits = arith.constant dense<[[-1.0, 0.0, 1.0], [1000.0, 1000.0, 998.0]]> : tensor<2x3xf32>
  %sfm = "tf.Softmax"(%logits) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %usfm = tensor.cast %sfm : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%usfm) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: [0.0900306,   0.244728,   0.665241],
  // CHECK-NEXT: [0.468311,   0.468311,   0.0633789]]

  // tf.pad(t, [[1, 1], [2, 2]]) (documentation).
  %pt = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %paddings = "tf.Const"() {value = dense<[[1, 1], [2, 2]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %pad = "tf.Pad"(%pt, %paddings) : (tensor<2x3xi32>, tensor<2x2xi32>) -> tensor<4x7xi32>
  %upad = tensor.cast %pad : tensor<4x7xi32> to tensor<*xi32>
  call @printMemrefI32(%upad) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [4, 7]
  // CHECK-NEXT: [0,   0,   0,   0,   0,   0,   0],
  // CHECK-NEXT: [0,   0,   1,   2,   3,   0,   0],
  // CHECK-NEXT: [0,   0,   4,   5,   6,   0,   0],
  // CHECK-NEXT: [0,   0,   0,   0,   0,   0,   0]]

  // tf.pad with constant_values=9 and uneven paddings [[0, 1], [1, 0]].
  %pt2 = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %paddings2 = "tf.Const"() {value = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %nine = "tf.Const"() {value = dense<9> : tensor<i32>} : () -> tensor<i32>
  %pad2 = "tf.PadV2"(%pt2, %paddings2, %nine) : (tensor<2x3xi32>, tensor<2x2xi64>, tensor<i32>) -> tensor<3x4xi32>
  %upad2 = tensor.cast %pad2 : tensor<3x4xi32> to tensor<*xi32>
  call @printMemrefI32(%upad2) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3, 4]
  // CHECK-NEXT: [9,   1,   2,   3],
  // CHECK-NEXT: [9,   4,   5,   6],
  // CHECK-NEXT: [9,   9,   9,   9]]

  // tf.gather([0, 1, 2, 3, 4, 5], [2, 0, 2, 5]) (documentation), then
  // along axis -1 of a matrix.
  %params = arith.constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi32>
  %gidx = arith.constant dense<[2, 0, 2, 5]> : tensor<4xi32>
  %gax = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %g0 = "tf.GatherV2"(%params, %gidx, %gax) : (tensor<6xi32>, tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %ug0 = tensor.cast %g0 : tensor<4xi32> to tensor<*xi32>
  call @printMemrefI32(%ug0) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [4]
  // CHECK-NEXT: [2,  0,  2,  5]
  %gm = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %gidx2 = arith.constant dense<[[2, 0], [1, 1]]> : tensor<2x2xi64>
  %gaxm1 = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %g1 = "tf.GatherV2"(%gm, %gidx2, %gaxm1) : (tensor<2x3xi32>, tensor<2x2xi64>, tensor<i32>) -> tensor<2x2x2xi32>
  %ug1 = tensor.cast %g1 : tensor<2x2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%ug1) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2, 2, 2]
  // CHECK-NEXT: {{\[\[\[}}3,    1],
  // CHECK-NEXT: [2,    2]],
  // CHECK-NEXT: {{\[\[}}6,    4],
  // CHECK-NEXT: [5,    5]]]

  // tf.gather_nd(params=[[a, b], [c, d]], indices=[[0, 0], [1, 1]]) -> [a, d]
  // (documentation), and rows by indices=[[1], [0]].
  %ndp = arith.constant dense<[[10, 11], [12, 13]]> : tensor<2x2xi32>
  %ndi = arith.constant dense<[[0, 0], [1, 1]]> : tensor<2x2xi32>
  %nd0 = "tf.GatherNd"(%ndp, %ndi) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2xi32>
  %und0 = tensor.cast %nd0 : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%und0) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [10,  13]
  %ndp1 = arith.constant dense<[[10, 11], [12, 13]]> : tensor<2x2xi32>
  %ndi1 = arith.constant dense<[[1], [0]]> : tensor<2x1xi32>
  %nd1 = "tf.GatherNd"(%ndp1, %ndi1) : (tensor<2x2xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
  %und1 = tensor.cast %nd1 : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%und1) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2, 2]
  // CHECK-NEXT: {{\[\[}}12,   13],
  // CHECK-NEXT: [10,   11]]

  // tf.tile([[1, 2, 3], [4, 5, 6]], [2, 2]).
  %tl = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %mult = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %tile = "tf.Tile"(%tl, %mult) : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<4x6xi32>
  %utile = tensor.cast %tile : tensor<4x6xi32> to tensor<*xi32>
  call @printMemrefI32(%utile) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [4, 6]
  // CHECK-NEXT: [1,   2,   3,   1,   2,   3],
  // CHECK-NEXT: [4,   5,   6,   4,   5,   6],
  // CHECK-NEXT: [1,   2,   3,   1,   2,   3],
  // CHECK-NEXT: [4,   5,   6,   4,   5,   6]]

  // tf.nn.depth_to_space of the [1, 2, 2, 4] documentation example.
  %d2s_in = arith.constant dense<[[[[1, 2, 3, 4], [5, 6, 7, 8]], [[9, 10, 11, 12], [13, 14, 15, 16]]]]> : tensor<1x2x2x4xi32>
  %d2s = "tf.DepthToSpace"(%d2s_in) {block_size = 2 : i64} : (tensor<1x2x2x4xi32>) -> tensor<1x4x4x1xi32>
  %d2s_flat_shape = "tf.Const"() {value = dense<[4, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %d2s_flat = "tf.Reshape"(%d2s, %d2s_flat_shape) : (tensor<1x4x4x1xi32>, tensor<2xi32>) -> tensor<4x4xi32>
  %ud2s = tensor.cast %d2s_flat : tensor<4x4xi32> to tensor<*xi32>
  call @printMemrefI32(%ud2s) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [4, 4]
  // CHECK-NEXT: [1,   2,   5,   6],
  // CHECK-NEXT: [3,   4,   7,   8],
  // CHECK-NEXT: [9,   10,   13,   14],
  // CHECK-NEXT: [11,   12,   15,   16]]

  // tf.space_to_batch_nd of the [2, 2, 4, 1] documentation example with
  // block_shape [2, 2] and paddings [[0, 0], [2, 0]], shown as [8, 3]; then
  // tf.batch_to_space_nd with the same crops gives the input back.
  %s2b_in = arith.constant dense<[[[[1], [2], [3], [4]], [[5], [6], [7], [8]]], [[[9], [10], [11], [12]], [[13], [14], [15], [16]]]]> : tensor<2x2x4x1xi32>
  %block = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2b_pad = "tf.Const"() {value = dense<[[0, 0], [2, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %s2b = "tf.SpaceToBatchND"(%s2b_in, %block, %s2b_pad) : (tensor<2x2x4x1xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<8x1x3x1xi32>
  %s2b_shape = "tf.Const"() {value = dense<[8, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2b_flat = "tf.Reshape"(%s2b, %s2b_shape) : (tensor<8x1x3x1xi32>, tensor<2xi32>) -> tensor<8x3xi32>
  %us2b = tensor.cast %s2b_flat : tensor<8x3xi32> to tensor<*xi32>
  call @printMemrefI32(%us2b) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [8, 3]
  // CHECK-NEXT: [0,   1,   3],
  // CHECK-NEXT: [0,   9,   11],
  // CHECK-NEXT: [0,   2,   4],
  // CHECK-NEXT: [0,   10,   12],
  // CHECK-NEXT: [0,   5,   7],
  // CHECK-NEXT: [0,   13,   15],
  // CHECK-NEXT: [0,   6,   8],
  // CHECK-NEXT: [0,   14,   16]]
  %b2s_in = arith.constant dense<[[[[0], [1], [3]]], [[[0], [9], [11]]], [[[0], [2], [4]]], [[[0], [10], [12]]], [[[0], [5], [7]]], [[[0], [13], [15]]], [[[0], [6], [8]]], [[[0], [14], [16]]]]> : tensor<8x1x3x1xi32>
  %b2s = "tf.BatchToSpaceND"(%b2s_in, %block, %s2b_pad) : (tensor<8x1x3x1xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<2x2x4x1xi32>
  %b2s_shape = "tf.Const"() {value = dense<[4, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b2s_flat = "tf.Reshape"(%b2s, %b2s_shape) : (tensor<2x2x4x1xi32>, tensor<2xi32>) -> tensor<4x4xi32>
  %ub2s = tensor.cast %b2s_flat : tensor<4x4xi32> to tensor<*xi32>
  call @printMemrefI32(%ub2s) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [4, 4]
  // CHECK-NEXT: [1,   2,   3,   4],
  // CHECK-NEXT: [5,   6,   7,   8],
  // CHECK-NEXT: [9,   10,   11,   12],
  // CHECK-NEXT: [13,   14,   15,   16]]

  // tf.stack([x, y, z], axis=1) with x=[1, 4], y=[2, 5], z=[3, 6]
  // (documentation), then tf.unstack along axis -2 and a concat of the
  // pieces along axis -1, and a transpose.
  %x = arith.constant dense<[1, 4]> : tensor<2xi32>
  %y = arith.constant dense<[2, 5]> : tensor<2xi32>
  %z = arith.constant dense<[3, 6]> : tensor<2xi32>
  %stack = "tf.Pack"(%x, %y, %z) {axis = 1 : i64} : (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  %rows:2 = "tf.Unpack"(%stack) {axis = -2 : i64} : (tensor<2x3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  %cax = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %cat = "tf.ConcatV2"(%rows#1, %rows#0, %cax) : (tensor<3xi32>, tensor<3xi32>, tensor<i32>) -> tensor<6xi32>
  %ucat = tensor.cast %cat : tensor<6xi32> to tensor<*xi32>
  call @printMemrefI32(%ucat) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [6]
  // CHECK-NEXT: [4,  5,  6,  1,  2,  3]
  %perm = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %tr = "tf.Transpose"(%stack, %perm) : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<3x2xi32>
  %utr = tensor.cast %tr : tensor<3x2xi32> to tensor<*xi32>
  call @printMemrefI32(%utr) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3, 2]
  // CHECK-NEXT: [1,   4],
  // CHECK-NEXT: [2,   5],
  // CHECK-NEXT: [3,   6]]

  // tf.range(10, 2, -3) -> [10, 7, 4] and tf.split into 3 of [0..5].
  %start = "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %limit = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %delta = "tf.Const"() {value = dense<-3> : tensor<i32>} : () -> tensor<i32>
  %range = "tf.Range"(%start, %limit, %delta) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3xi32>
  %urange = tensor.cast %range : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%urange) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [10,  7,  4]
  %six = arith.constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi32>
  %sdim = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %parts:3 = "tf.Split"(%sdim, %six) : (tensor<i32>, tensor<6xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  %upart = tensor.cast %parts#2 : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%upart) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [4,  5]
  // A dynamic batch through Reshape (-1), Transpose, ConcatV2, Mean over the
  // batch, StridedSlice of whole dimensions and Softmax: the values are the
  // static ones.
  %dyn_static = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %dyn = tensor.cast %dyn_static : tensor<2x4xf32> to tensor<?x4xf32>
  %dshape = "tf.Const"() {value = dense<[-1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %dr = "tf.Reshape"(%dyn, %dshape) : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<?x2xf32>
  %dperm = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %dt = "tf.Transpose"(%dr, %dperm) : (tensor<?x2xf32>, tensor<2xi32>) -> tensor<2x?xf32>
  %dcax = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %dc = "tf.ConcatV2"(%dt, %dt, %dcax) : (tensor<2x?xf32>, tensor<2x?xf32>, tensor<i32>) -> tensor<2x?xf32>
  %udc = tensor.cast %dc : tensor<2x?xf32> to tensor<*xf32>
  call @printMemrefF32(%udc) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [2, 8]
  // CHECK-NEXT: [1,{{ +}}3,{{ +}}5,{{ +}}7,{{ +}}1,{{ +}}3,{{ +}}5,{{ +}}7],
  // CHECK-NEXT: [2,{{ +}}4,{{ +}}6,{{ +}}8,{{ +}}2,{{ +}}4,{{ +}}6,{{ +}}8]]
  %dyn2 = tensor.cast %dyn_static : tensor<2x4xf32> to tensor<?x4xf32>
  %dax0 = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %dmean = "tf.Mean"(%dyn2, %dax0) {keep_dims = true} : (tensor<?x4xf32>, tensor<i32>) -> tensor<1x4xf32>
  %udmean = tensor.cast %dmean : tensor<1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%udmean) : (tensor<*xf32>) -> ()
  // CHECK: sizes = [1, 4]
  // CHECK-NEXT: [3,{{ +}}4,{{ +}}5,{{ +}}6]]
  %dyn3 = tensor.cast %dyn_static : tensor<2x4xf32> to tensor<?x4xf32>
  %db = "tf.Const"() {value = dense<[0, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %de = "tf.Const"() {value = dense<[0, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %ds = "tf.Const"() {value = dense<[1, -2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %dss = "tf.StridedSlice"(%dyn3, %db, %de, %ds) {begin_mask = 1 : i64, end_mask = 3 : i64} : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
  %dsm = "tf.Softmax"(%dss) : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %udsm = tensor.cast %dsm : tensor<?x2xf32> to tensor<*xf32>
  call @printMemrefF32(%udsm) : (tensor<*xf32>) -> ()
  // softmax([4, 2]) = [e^2, 1] / (e^2 + 1)
  // CHECK: sizes = [2, 2]
  // CHECK-NEXT: [0.880797,{{ +}}0.119203],
  // CHECK-NEXT: [0.880797,{{ +}}0.119203]]
  // tf.gather with batch_dims=1: out[b][i] = params[b][indices[b][i]].
  %bparams = arith.constant dense<[[10, 11, 12], [20, 21, 22]]> : tensor<2x3xi32>
  %bidx = arith.constant dense<[[2, 0], [1, 1]]> : tensor<2x2xi32>
  %bax = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %bg = "tf.GatherV2"(%bparams, %bidx, %bax) {batch_dims = 1 : i64} : (tensor<2x3xi32>, tensor<2x2xi32>, tensor<i32>) -> tensor<2x2xi32>
  %ubg = tensor.cast %bg : tensor<2x2xi32> to tensor<*xi32>
  call @printMemrefI32(%ubg) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2, 2]
  // CHECK-NEXT: {{\[\[}}12,{{ +}}10],
  // CHECK-NEXT: [21,{{ +}}21]]

  // tf.gather_nd with bad_indices_policy="IGNORE": out-of-range indices read
  // zero.
  %iparams = arith.constant dense<[10, 11, 12]> : tensor<3xi32>
  %iidx = arith.constant dense<[[1], [5], [-1], [2]]> : tensor<4x1xi32>
  %ign = "tf.GatherNd"(%iparams, %iidx) {bad_indices_policy = "IGNORE"} : (tensor<3xi32>, tensor<4x1xi32>) -> tensor<4xi32>
  %uign = tensor.cast %ign : tensor<4xi32> to tensor<*xi32>
  call @printMemrefI32(%uign) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [4]
  // CHECK-NEXT: [11,{{ +}}0,{{ +}}0,{{ +}}12]

  // tf.split(v, [1, -1, 2]) of [0, 1, 2, 3, 4, 5]: the -1 piece is [1, 2, 3].
  %sv_in = arith.constant dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi32>
  %sv_sizes = "tf.Const"() {value = dense<[1, -1, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %sv_dim = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %sv:3 = "tf.SplitV"(%sv_in, %sv_sizes, %sv_dim) : (tensor<6xi32>, tensor<3xi32>, tensor<i32>) -> (tensor<1xi32>, tensor<3xi32>, tensor<2xi32>)
  %usv = tensor.cast %sv#1 : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%usv) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [1,{{ +}}2,{{ +}}3]

  // tf.reduce_prod of int32 along axis 0, and tf.tile of a dynamic batch.
  %pint = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %pax = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %pi = "tf.Prod"(%pint, %pax) : (tensor<2x3xi32>, tensor<i32>) -> tensor<3xi32>
  %upi = tensor.cast %pi : tensor<3xi32> to tensor<*xi32>
  call @printMemrefI32(%upi) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [4,{{ +}}10,{{ +}}18]
  %tdyn_static = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %tdyn = tensor.cast %tdyn_static : tensor<2x2xi32> to tensor<?x2xi32>
  %tmult = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %tt = "tf.Tile"(%tdyn, %tmult) : (tensor<?x2xi32>, tensor<2xi32>) -> tensor<?x4xi32>
  %utt = tensor.cast %tt : tensor<?x4xi32> to tensor<*xi32>
  call @printMemrefI32(%utt) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2, 4]
  // CHECK-NEXT: {{\[\[}}1,{{ +}}2,{{ +}}1,{{ +}}2],
  // CHECK-NEXT: [3,{{ +}}4,{{ +}}3,{{ +}}4]]
  // tf.slice(x, [0, 2], [-1, 3]) and tf.pad(t, [[1, 0], [0, 2]]) with the
  // sizes and paddings known only at run time.
  %rx_static = arith.constant dense<[[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 15, 16]]> : tensor<2x8xi32>
  %rx = tensor.cast %rx_static : tensor<2x8xi32> to tensor<?x8xi32>
  %rsize = arith.constant dense<[-1, 3]> : tensor<2xi32>
  %rs = call @slice_runtime(%rx, %rsize) : (tensor<?x8xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  %urs = tensor.cast %rs : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%urs) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}3,{{ +}}4,{{ +}}5],
  // CHECK-NEXT: [11,{{ +}}12,{{ +}}13]]
  %rp_in = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %rpaddings = arith.constant dense<[[1, 0], [0, 2]]> : tensor<2x2xi32>
  %rp = call @pad_runtime(%rp_in, %rpaddings) : (tensor<2x3xi32>, tensor<2x2xi32>) -> tensor<?x?xi32>
  %urp = tensor.cast %rp : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%urp) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3, 5]
  // CHECK-NEXT: {{\[\[}}0,{{ +}}0,{{ +}}0,{{ +}}0,{{ +}}0],
  // CHECK-NEXT: [1,{{ +}}2,{{ +}}3,{{ +}}0,{{ +}}0],
  // CHECK-NEXT: [4,{{ +}}5,{{ +}}6,{{ +}}0,{{ +}}0]]
  // tf.reshape(x, [-1, 2]) and tf.range(10, 1, -3) with the shape and the
  // bounds known only at run time.
  %qx_static = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi32>
  %qx = tensor.cast %qx_static : tensor<2x4xi32> to tensor<?x4xi32>
  %qshape = arith.constant dense<[-1, 2]> : tensor<2xi32>
  %qr = call @reshape_runtime(%qx, %qshape) : (tensor<?x4xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  %uqr = tensor.cast %qr : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%uqr) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [4, 2]
  // CHECK-NEXT: {{\[\[}}1,{{ +}}2],
  // CHECK-NEXT: [3,{{ +}}4],
  // CHECK-NEXT: [5,{{ +}}6],
  // CHECK-NEXT: [7,{{ +}}8]]
  %qstart = arith.constant dense<10> : tensor<i32>
  %qlimit = arith.constant dense<1> : tensor<i32>
  %qdelta = arith.constant dense<-3> : tensor<i32>
  %qrange = call @range_runtime(%qstart, %qlimit, %qdelta) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  %uqrange = tensor.cast %qrange : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%uqrange) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [10,{{ +}}7,{{ +}}4]
  // x[1:-1, -6::2] and x[-1] with the bounds known only at run time.
  %wx_static = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7], [8, 9, 10, 11, 12, 13, 14, 15], [16, 17, 18, 19, 20, 21, 22, 23]]> : tensor<3x8xi32>
  %wx = tensor.cast %wx_static : tensor<3x8xi32> to tensor<?x8xi32>
  %wend = arith.constant dense<[-1, 8]> : tensor<2xi32>
  %ws = call @strided_slice_runtime(%wx, %wend) : (tensor<?x8xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  %uws = tensor.cast %ws : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%uws) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [1, 3]
  // CHECK-NEXT: {{\[\[}}10,{{ +}}12,{{ +}}14]]
  %wv = arith.constant dense<[5, 6, 7, 8]> : tensor<4xi32>
  %wbegin = arith.constant dense<-1> : tensor<1xi32>
  %wlast = call @strided_slice_runtime_shrink(%wv, %wbegin) : (tensor<4xi32>, tensor<1xi32>) -> tensor<i32>
  %uwlast = tensor.cast %wlast : tensor<i32> to tensor<*xi32>
  call @printMemrefI32(%uwlast) : (tensor<*xi32>) -> ()
  // CHECK: rank = 0
  // CHECK-NEXT: [8]
  // uint8 compares unsigned: tf.reduce_min, tf.reduce_max and tf.math.argmax
  // of [[200, 3, 255, 9], [128, 127, 1, 0]] along axis 1 (cast to int32 for
  // printing).
  %u8 = "tf.Const"() {value = dense<[[200, 3, 255, 9], [128, 127, 1, 0]]> : tensor<2x4xui8>} : () -> tensor<2x4xui8>
  %u8ax = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %u8min = "tf.Min"(%u8, %u8ax) : (tensor<2x4xui8>, tensor<i32>) -> tensor<2xui8>
  %u8max = "tf.Max"(%u8, %u8ax) : (tensor<2x4xui8>, tensor<i32>) -> tensor<2xui8>
  %u8arg = "tf.ArgMax"(%u8, %u8ax) : (tensor<2x4xui8>, tensor<i32>) -> tensor<2xi32>
  %u8min32 = "tf.Cast"(%u8min) : (tensor<2xui8>) -> tensor<2xi32>
  %u8max32 = "tf.Cast"(%u8max) : (tensor<2xui8>) -> tensor<2xi32>
  %uu8min = tensor.cast %u8min32 : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%uu8min) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [3,{{ +}}0]
  %uu8max = tensor.cast %u8max32 : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%uu8max) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [255,{{ +}}128]
  %uu8arg = tensor.cast %u8arg : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%uu8arg) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2]
  // CHECK-NEXT: [2,{{ +}}0]
  // x[::-1, -1:-10:-2] of a dynamic batch with the begin known only at run
  // time: rows reversed, columns 3 and 1.
  %vx_static = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]> : tensor<3x4xi32>
  %vx = tensor.cast %vx_static : tensor<3x4xi32> to tensor<?x4xi32>
  %vbegin = arith.constant dense<[0, -1]> : tensor<2xi32>
  %vr = call @strided_slice_runtime_reverse(%vx, %vbegin) : (tensor<?x4xi32>, tensor<2xi32>) -> tensor<?x?xi32>
  %uvr = tensor.cast %vr : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%uvr) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3, 2]
  // CHECK-NEXT: {{\[\[}}11,{{ +}}9],
  // CHECK-NEXT: [7,{{ +}}5],
  // CHECK-NEXT: [3,{{ +}}1]]
  // The same two ops and a squeeze on dynamic sizes (@dynamic_shapes).
  %s2b_dyn_in = tensor.cast %s2b_in : tensor<2x2x4x1xi32> to tensor<?x?x?x1xi32>
  %b2s_dyn_in = tensor.cast %b2s_in : tensor<8x1x3x1xi32> to tensor<?x?x?x1xi32>
  %sq_in = arith.constant dense<[[7], [8], [9]]> : tensor<3x1xi32>
  %sq_dyn_in = tensor.cast %sq_in : tensor<3x1xi32> to tensor<?x?xi32>
  call @dynamic_shapes(%s2b_dyn_in, %b2s_dyn_in, %sq_dyn_in) : (tensor<?x?x?x1xi32>, tensor<?x?x?x1xi32>, tensor<?x?xi32>) -> ()
  %s2b_runtime_pad = arith.constant dense<[[0, 0], [2, 0]]> : tensor<2x2xi32>
  call @runtime_paddings(%s2b_dyn_in, %s2b_runtime_pad) : (tensor<?x?x?x1xi32>, tensor<2x2xi32>) -> ()
  return
}

// tf.space_to_batch_nd and tf.batch_to_space_nd of the documentation example
// above, and tf.squeeze along axis -1, on inputs whose sizes are dynamic.
func.func @dynamic_shapes(%s2b_dyn_in: tensor<?x?x?x1xi32>, %b2s_dyn_in: tensor<?x?x?x1xi32>, %sq_dyn_in: tensor<?x?xi32>) {
  %block = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2b_pad = "tf.Const"() {value = dense<[[0, 0], [2, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %s2b_shape = "tf.Const"() {value = dense<[8, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2b_dyn = "tf.SpaceToBatchND"(%s2b_dyn_in, %block, %s2b_pad) : (tensor<?x?x?x1xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x1xi32>
  %s2b_dyn_static = tensor.cast %s2b_dyn : tensor<?x?x?x1xi32> to tensor<8x1x3x1xi32>
  %s2b_dyn_flat = "tf.Reshape"(%s2b_dyn_static, %s2b_shape) : (tensor<8x1x3x1xi32>, tensor<2xi32>) -> tensor<8x3xi32>
  %us2b_dyn = tensor.cast %s2b_dyn_flat : tensor<8x3xi32> to tensor<*xi32>
  call @printMemrefI32(%us2b_dyn) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [8, 3]
  // CHECK-NEXT: [0,   1,   3],
  // CHECK-NEXT: [0,   9,   11],
  // CHECK-NEXT: [0,   2,   4],
  // CHECK-NEXT: [0,   10,   12],
  // CHECK-NEXT: [0,   5,   7],
  // CHECK-NEXT: [0,   13,   15],
  // CHECK-NEXT: [0,   6,   8],
  // CHECK-NEXT: [0,   14,   16]]
  %b2s_dyn = "tf.BatchToSpaceND"(%b2s_dyn_in, %block, %s2b_pad) : (tensor<?x?x?x1xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x1xi32>
  %ub2s_dyn = tensor.cast %b2s_dyn : tensor<?x?x?x1xi32> to tensor<*xi32>
  call @printMemrefI32(%ub2s_dyn) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [2, 2, 4, 1]
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}{{\[}}1],
  // CHECK-NEXT: [2],
  // CHECK-NEXT: [3],
  // CHECK-NEXT: [4]],
  // CHECK-NEXT: {{\[}}[5],
  // CHECK-NEXT: [6],
  // CHECK-NEXT: [7],
  // CHECK-NEXT: [8]]],
  // CHECK-NEXT: {{\[}}{{\[}}[9],
  // CHECK-NEXT: [10],
  // CHECK-NEXT: [11],
  // CHECK-NEXT: [12]],
  // CHECK-NEXT: {{\[}}[13],
  // CHECK-NEXT: [14],
  // CHECK-NEXT: [15],
  // CHECK-NEXT: [16]]]]

  // tf.squeeze of a [3, 1] tensor along axis -1 whose sizes are dynamic.
  %sq = "tf.Squeeze"(%sq_dyn_in) {squeeze_dims = [-1]} : (tensor<?x?xi32>) -> tensor<?xi32>
  %usq = tensor.cast %sq : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%usq) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [3]
  // CHECK-NEXT: [7,  8,  9]
  return
}

// The documentation example of tf.space_to_batch_nd once more, with the
// paddings [[0, 0], [2, 0]] known only at run time, then
// tf.batch_to_space_nd with them as crops, which gives the input back.
func.func @runtime_paddings(%in: tensor<?x?x?x1xi32>, %paddings: tensor<2x2xi32>) {
  %block = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2b = "tf.SpaceToBatchND"(%in, %block, %paddings) : (tensor<?x?x?x1xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x1xi32>
  %us2b = tensor.cast %s2b : tensor<?x?x?x1xi32> to tensor<*xi32>
  call @printMemrefI32(%us2b) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [8, 1, 3, 1]
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}{{\[}}0],
  // CHECK-NEXT: [1],
  // CHECK-NEXT: [3]]],
  // CHECK-NEXT: {{\[}}{{\[}}[0],
  // CHECK-NEXT: [9],
  // CHECK-NEXT: [11]]],
  // CHECK-NEXT: {{\[}}{{\[}}[0],
  // CHECK-NEXT: [2],
  // CHECK-NEXT: [4]]],
  // CHECK-NEXT: {{\[}}{{\[}}[0],
  // CHECK-NEXT: [10],
  // CHECK-NEXT: [12]]],
  // CHECK-NEXT: {{\[}}{{\[}}[0],
  // CHECK-NEXT: [5],
  // CHECK-NEXT: [7]]],
  // CHECK-NEXT: {{\[}}{{\[}}[0],
  // CHECK-NEXT: [13],
  // CHECK-NEXT: [15]]],
  // CHECK-NEXT: {{\[}}{{\[}}[0],
  // CHECK-NEXT: [6],
  // CHECK-NEXT: [8]]],
  // CHECK-NEXT: {{\[}}{{\[}}[0],
  // CHECK-NEXT: [14],
  // CHECK-NEXT: [16]]]]
  %b2s = "tf.BatchToSpaceND"(%s2b, %block, %paddings) : (tensor<?x?x?x1xi32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<?x?x?x1xi32>
  %b2s_static = tensor.cast %b2s : tensor<?x?x?x1xi32> to tensor<2x2x4x1xi32>
  %b2s_shape = "tf.Const"() {value = dense<[4, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b2s_flat = "tf.Reshape"(%b2s_static, %b2s_shape) : (tensor<2x2x4x1xi32>, tensor<2xi32>) -> tensor<4x4xi32>
  %ub2s = tensor.cast %b2s_flat : tensor<4x4xi32> to tensor<*xi32>
  call @printMemrefI32(%ub2s) : (tensor<*xi32>) -> ()
  // CHECK: sizes = [4, 4]
  // CHECK-NEXT: [1,   2,   3,   4],
  // CHECK-NEXT: [5,   6,   7,   8],
  // CHECK-NEXT: [9,   10,   11,   12],
  // CHECK-NEXT: [13,   14,   15,   16]]
  return
}
