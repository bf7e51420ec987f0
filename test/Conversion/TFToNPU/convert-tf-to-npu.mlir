// RUN: kiln-opt %s --convert-tf-to-npu -split-input-file | FileCheck %s

// Segments: outlining, boundary converts, f16 weights, fusion, splitting
// around CPU ops and convexity.

// A convolution with bias and Relu: one segment, bias and clamp folded.
// CHECK-LABEL: func.func @conv_bias_relu
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x16xf32>)
// CHECK-NEXT: %[[Y:.+]] = call @npu_conv(%[[X]]) : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32>
// CHECK-NEXT: return %[[Y]]
// CHECK-LABEL: func.func private @npu_conv
// CHECK-SAME: (%[[A:.+]]: tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32>
// CHECK-SAME: attributes {kiln.npu_nodes = ["conv", "bias", "relu"], npu.target = #npu.target<"default">}
// CHECK-DAG: %[[H:.+]] = npu.convert %[[A]] : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf16>
// CHECK-DAG: %[[W:.+]] = arith.constant dense<5.000000e-01> : tensor<3x3x16x32xf16>
// CHECK-DAG: %[[B:.+]] = arith.constant dense<2.500000e-01> : tensor<32xf16>
// CHECK: %[[C:.+]] = npu.conv2d %[[H]], %[[W]], %[[B]] {clamp_min = 0.000000e+00 : f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
// CHECK-SAME: -> tensor<1x8x8x32xf16>
// CHECK-NOT: npu.add
// CHECK-NOT: npu.clamp
// CHECK: %[[R:.+]] = npu.convert %[[C]] : (tensor<1x8x8x32xf16>) -> tensor<1x8x8x32xf32>
// CHECK-NEXT: return %[[R]]
func.func @conv_bias_relu(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x32xf32> {
  %w = "tf.Const"() {value = dense<0.5> : tensor<3x3x16x32xf32>} : () -> tensor<3x3x16x32xf32> loc("w")
  %b = "tf.Const"() {value = dense<0.25> : tensor<32xf32>} : () -> tensor<32xf32> loc("b")
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<1x8x8x32xf32> loc("conv")
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<1x8x8x32xf32>, tensor<32xf32>) -> tensor<1x8x8x32xf32> loc("bias")
  %2 = "tf.Relu"(%1) : (tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32> loc("relu")
  return %2 : tensor<1x8x8x32xf32>
}

// -----

// An unsupported op (Sigmoid) between two supported ones: two segments, the
// CPU op between their calls. The prefix all nodes share is left out of the
// segment names.
// CHECK-LABEL: func.func @cpu_op_between
// CHECK-SAME: (%[[X:.+]]: tensor<1x4x4x16xf32>)
// CHECK-NEXT: %[[A:.+]] = call @npu_first(%[[X]])
// CHECK-NEXT: %[[S:.+]] = "tf.Sigmoid"(%[[A]])
// CHECK-NEXT: %[[B:.+]] = call @npu_second(%[[S]])
// CHECK-NEXT: return %[[B]]
// CHECK-LABEL: func.func private @npu_first
// CHECK-SAME: kiln.npu_nodes = ["model/first"]
// CHECK: npu.max_pool2d
// CHECK-LABEL: func.func private @npu_second
// CHECK-SAME: kiln.npu_nodes = ["model/second"]
// CHECK: npu.clamp %{{.+}} {max = 6.000000e+00 : f32, min = 0.000000e+00 : f32}
func.func @cpu_op_between(%x: tensor<1x4x4x16xf32>) -> tensor<1x2x2x16xf32> {
  %0 = "tf.MaxPool"(%x) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x4x4x16xf32>) -> tensor<1x2x2x16xf32> loc("model/first")
  %1 = "tf.Sigmoid"(%0) : (tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32> loc("model/sigmoid")
  %2 = "tf.Relu6"(%1) : (tensor<1x2x2x16xf32>) -> tensor<1x2x2x16xf32> loc("model/second")
  return %2 : tensor<1x2x2x16xf32>
}

// -----

// Convexity: `a` feeds both the CPU op and `c`, and `c` reads the CPU op.
// {a, c} would both feed and read tf.Sigmoid, so `c` starts its own
// segment; `b` (independent of the CPU op) joins `a`.
// CHECK-LABEL: func.func @convexity
// CHECK-SAME: (%[[X:.+]]: tensor<1x4x4x16xf32>)
// CHECK-NEXT: %[[A:.+]]:2 = call @npu_a(%[[X]]) : (tensor<1x4x4x16xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>)
// CHECK-NEXT: %[[S:.+]] = "tf.Sigmoid"(%[[A]]#0)
// CHECK-NEXT: %[[C:.+]] = call @npu_c(%[[A]]#1, %[[S]])
// CHECK-NEXT: return %[[C]]
// CHECK-LABEL: func.func private @npu_a
// CHECK-SAME: kiln.npu_nodes = ["a", "b"]
// CHECK-LABEL: func.func private @npu_c
// CHECK-SAME: kiln.npu_nodes = ["c"]
// CHECK: npu.add
func.func @convexity(%x: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %a = "tf.Relu"(%x) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("a")
  %s = "tf.Sigmoid"(%a) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("s")
  %b = "tf.Mul"(%a, %a) : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("b")
  %c = "tf.AddV2"(%b, %s) : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("c")
  return %c : tensor<1x4x4x16xf32>
}

// -----

// A CPU op that reads a segment's output but comes before the segment's
// last op in program order moves after the call.
// CHECK-LABEL: func.func @reorder
// CHECK-NEXT: %[[S:.+]]:2 = call @npu_a(
// CHECK-NEXT: "tf.Sigmoid"(%[[S]]#0)
// CHECK-NEXT: return
func.func @reorder(%x: tensor<1x4x4x16xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) {
  %a = "tf.Relu"(%x) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("a")
  %s = "tf.Sigmoid"(%a) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("s")
  %b = "tf.Relu6"(%a) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("b")
  return %s, %b : tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>
}

// -----

// No supported op: the function is unchanged and no segment is made.
// CHECK-LABEL: func.func @all_cpu
// CHECK-NEXT: "tf.Sigmoid"
// CHECK-NEXT: "tf.Tanh"
// CHECK-NEXT: return
// CHECK-NOT: func.func
func.func @all_cpu(%x: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %0 = "tf.Sigmoid"(%x) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("s")
  %1 = "tf.Tanh"(%0) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("t")
  return %1 : tensor<1x4x4x16xf32>
}

// -----

// The module's target goes to the segment; a constant read by both sides
// stays on the CPU and is copied into the segment.
// CHECK-LABEL: module attributes {npu.target = #npu.target<"realistic">}
// CHECK: func.func @shared_constant
// CHECK: %[[K:.+]] = "tf.Const"
// CHECK: call @npu_mul
// CHECK: "tf.Sub"(%[[K]], %{{.+}})
// CHECK-LABEL: func.func private @npu_mul
// CHECK-SAME: npu.target = #npu.target<"realistic">
// CHECK: %[[C:.+]] = arith.constant dense<2.000000e+00> : tensor<16xf16>
// CHECK: npu.mul %{{.+}}, %[[C]] : (tensor<1x4x4x16xf16>, tensor<16xf16>) -> tensor<1x4x4x16xf16>
module attributes {npu.target = #npu.target<"realistic">} {
  func.func @shared_constant(%x: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
    %k = "tf.Const"() {value = dense<2.0> : tensor<16xf32>} : () -> tensor<16xf32> loc("k")
    %0 = "tf.Mul"(%k, %x) : (tensor<16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("mul")
    %1 = "tf.Sigmoid"(%0) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("s")
    %2 = "tf.Sub"(%k, %1) : (tensor<16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("sub")
    return %2 : tensor<1x4x4x16xf32>
  }
}

// -----

// MatMul with transpose_b: the weights are stored [K][N] for
// npu.fully_connected; a bias after it folds in.
// CHECK-LABEL: func.func private @npu_fc
// CHECK-DAG: %[[W:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf16>
// CHECK-DAG: %[[B:.+]] = arith.constant dense<[5.000000e-01, -5.000000e-01]> : tensor<2xf16>
// CHECK: npu.fully_connected %{{.+}}, %[[W]], %[[B]] : (tensor<1x3xf16>, tensor<3x2xf16>, tensor<2xf16>) -> tensor<1x2xf16>
func.func @matmul_transposed(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = "tf.Const"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %b = "tf.Const"() {value = dense<[0.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.MatMul"(%x, %w) {transpose_b = true} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<1x2xf32> loc("fc")
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32> loc("fc_bias")
  return %1 : tensor<1x2xf32>
}

// -----

// SAME pooling pads as TensorFlow does (the extra row and column at the
// end); a mean over height and width is an average pool of the whole image.
// CHECK-LABEL: func.func private @npu_pool
// CHECK: %[[M:.+]] = npu.max_pool2d %{{.+}} {kernel = array<i64: 3, 3>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x8x16xf16>) -> tensor<1x4x4x16xf16>
// CHECK: npu.avg_pool2d %[[M]] {kernel = array<i64: 4, 4>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xf16>) -> tensor<1x1x1x16xf16>
func.func @pool_mean(%x: tensor<1x8x8x16xf32>) -> tensor<1x1x1x16xf32> {
  %axes = "tf.Const"() {value = dense<[2, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.MaxPool"(%x) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x8x8x16xf32>) -> tensor<1x4x4x16xf32> loc("pool")
  %1 = "tf.Mean"(%0, %axes) {keep_dims = true} : (tensor<1x4x4x16xf32>, tensor<2xi32>) -> tensor<1x1x1x16xf32> loc("mean")
  return %1 : tensor<1x1x1x16xf32>
}

// -----

// Ops with side effects keep their order: @sink (reading `a`) runs before
// @source (feeding `b`), so {a, b} as one call would have to run both
// before and after them, and `b` gets its own segment.
// CHECK-LABEL: func.func @side_effects
// CHECK-NEXT: %[[A:.+]] = call @npu_a(
// CHECK-NEXT: call @sink(%[[A]])
// CHECK-NEXT: %[[V:.+]] = call @source()
// CHECK-NEXT: %[[B:.+]] = call @npu_b(%[[A]], %[[V]])
// CHECK-NEXT: return %[[B]]
func.func private @sink(tensor<1x4x4x16xf32>)
func.func private @source() -> tensor<1x4x4x16xf32>
func.func @side_effects(%x: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %a = "tf.Relu"(%x) : (tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("a")
  call @sink(%a) : (tensor<1x4x4x16xf32>) -> ()
  %v = call @source() : () -> tensor<1x4x4x16xf32>
  %b = "tf.AddV2"(%a, %v) : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> loc("b")
  return %b : tensor<1x4x4x16xf32>
}
