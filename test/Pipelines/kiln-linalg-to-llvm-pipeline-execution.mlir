// REQUIRES: mlir-runner
// The heavy ops run on the tiled and vectorized path and on the scalar loops
// of vectorize=false, on sizes that are not multiples of the register tiles
// (M = 13, K = 21, N = 37, OW = 11, C = 19, F = 37 against 8 x 32 x 16), and
// must print the same tensors. The inputs are small integers, so every sum
// is exact in f32 whatever the order of the additions, and the checksums
// (sum of x * (i mod 3 - 1) over the flattened result, i its linear index)
// come from a plain Python evaluation of the same formulas (nested loops over
// the definitions of matmul, NHWC/HWCF convolution, depthwise convolution,
// pooling and row gathers; no vectorization involved). The buffers' addresses are
// dropped before the comparison.
// mlir-runner's JIT does not resolve the weak reference to Kiln's thread
// runtime (kiln_cpu_parallel_for) to null as a linker does, so the vector
// path runs without parallel loops here (kiln-run's JIT provides the runtime).
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="parallelize=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.vector
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="vectorize=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.loops
// RUN: FileCheck %s < %t.vector
// RUN: FileCheck %s < %t.loops
// RUN: diff %t.vector %t.loops

func.func private @printMemrefF32(tensor<*xf32>)

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

/// x[i, j] = (i * a + j * b) mod 7 - 3, on a tensor of any shape.
func.func @iota2(%e: tensor<?x?xf32>, %a: index, %b: index) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %0 = arith.muli %i, %a : index
    %1 = arith.muli %j, %b : index
    %2 = arith.addi %0, %1 : index
    %v = func.call @small(%2) : (index) -> f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

/// x[i, j, k] = (i * a + j * b + k * c) mod 7 - 3.
func.func @iota3(%e: tensor<?x?x?xf32>, %a: index, %b: index, %c: index) -> tensor<?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %0 = arith.muli %i, %a : index
    %1 = arith.muli %j, %b : index
    %2 = arith.muli %k, %c : index
    %3 = arith.addi %0, %1 : index
    %4 = arith.addi %3, %2 : index
    %v = func.call @small(%4) : (index) -> f32
    linalg.yield %v : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

/// x[i, j, k, l] = (i + j * a + k * b + l * c) mod 7 - 3.
func.func @iota4(%e: tensor<?x?x?x?xf32>, %a: index, %b: index, %c: index) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %l = linalg.index 3 : index
    %0 = arith.muli %j, %a : index
    %1 = arith.muli %k, %b : index
    %2 = arith.muli %l, %c : index
    %3 = arith.addi %i, %0 : index
    %4 = arith.addi %3, %1 : index
    %5 = arith.addi %4, %2 : index
    %v = func.call @small(%5) : (index) -> f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @small(%n: index) -> f32 {
  %c7 = arith.constant 7 : index
  %c3 = arith.constant 3 : index
  %m = arith.remui %n, %c7 : index
  %s = arith.subi %m, %c3 : index
  %i = arith.index_cast %s : index to i64
  %f = arith.sitofp %i : i64 to f32
  return %f : f32
}

/// Prints sum(x[i] * (i mod 3 - 1)) over the row-major flattening of `x`.
func.func @checksum(%x: tensor<?xf32>) {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%x : tensor<?xf32>) outs(%zero : tensor<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %i = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %c1 = arith.constant 1 : index
    %m = arith.remui %i, %c3 : index
    %w = arith.subi %m, %c1 : index
    %wi = arith.index_cast %w : index to i64
    %wf = arith.sitofp %wi : i64 to f32
    %p = arith.mulf %in, %wf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %u = tensor.cast %r : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @report4(%x: tensor<?x?x?x?xf32>) {
  %flat = tensor.collapse_shape %x [[0, 1, 2, 3]] : tensor<?x?x?x?xf32> into tensor<?xf32>
  call @checksum(%flat) : (tensor<?xf32>) -> ()
  %u = tensor.cast %x : tensor<?x?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @report2(%x: tensor<?x?xf32>) {
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  call @checksum(%flat) : (tensor<?xf32>) -> ()
  %u = tensor.cast %x : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32

  // matmul 13x21 * 21x37, then the same with bias + ReLU (fused consumer).
  %ea = tensor.empty() : tensor<13x21xf32>
  %eb = tensor.empty() : tensor<21x37xf32>
  %ea_d = tensor.cast %ea : tensor<13x21xf32> to tensor<?x?xf32>
  %eb_d = tensor.cast %eb : tensor<21x37xf32> to tensor<?x?xf32>
  %a_d = call @iota2(%ea_d, %c3, %c5) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %b_d = call @iota2(%eb_d, %c2, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %a = tensor.cast %a_d : tensor<?x?xf32> to tensor<13x21xf32>
  %b = tensor.cast %b_d : tensor<?x?xf32> to tensor<21x37xf32>
  %ec = tensor.empty() : tensor<13x37xf32>
  %c = linalg.fill ins(%zero : f32) outs(%ec : tensor<13x37xf32>) -> tensor<13x37xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<13x21xf32>, tensor<21x37xf32>)
                      outs(%c : tensor<13x37xf32>) -> tensor<13x37xf32>
  %mm_d = tensor.cast %mm : tensor<13x37xf32> to tensor<?x?xf32>
  call @report2(%mm_d) : (tensor<?x?xf32>) -> ()
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [-126]
  // CHECK-NEXT: rank = 2 offset = 0 sizes = [13, 37]

  %ebias = tensor.empty() : tensor<1x37xf32>
  %ebias_d = tensor.cast %ebias : tensor<1x37xf32> to tensor<?x?xf32>
  %bias_d = call @iota2(%ebias_d, %c1, %c3) : (tensor<?x?xf32>, index, index) -> tensor<?x?xf32>
  %bias2 = tensor.cast %bias_d : tensor<?x?xf32> to tensor<1x37xf32>
  %bias = tensor.collapse_shape %bias2 [[0, 1]] : tensor<1x37xf32> into tensor<37xf32>
  %mm2 = linalg.matmul ins(%a, %b : tensor<13x21xf32>, tensor<21x37xf32>)
                       outs(%c : tensor<13x37xf32>) -> tensor<13x37xf32>
  %relu = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d1)>, #id2],
                          iterator_types = ["parallel", "parallel"]}
      ins(%mm2, %bias : tensor<13x37xf32>, tensor<37xf32>) outs(%ec : tensor<13x37xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<13x37xf32>
  %relu_d = tensor.cast %relu : tensor<13x37xf32> to tensor<?x?xf32>
  call @report2(%relu_d) : (tensor<?x?xf32>) -> ()
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [-149]
  // CHECK-NEXT: rank = 2 offset = 0 sizes = [13, 37]

  // conv_2d_nhwc_hwcf: 1x9x13x19 input, 3x3x19x37 filter, strides 1 and 2.
  %ei = tensor.empty() : tensor<1x9x13x19xf32>
  %ei_d = tensor.cast %ei : tensor<1x9x13x19xf32> to tensor<?x?x?x?xf32>
  %in_d = call @iota4(%ei_d, %c2, %c3, %c5) : (tensor<?x?x?x?xf32>, index, index, index) -> tensor<?x?x?x?xf32>
  %in = tensor.cast %in_d : tensor<?x?x?x?xf32> to tensor<1x9x13x19xf32>
  %ef = tensor.empty() : tensor<3x3x19x37xf32>
  %ef_d = tensor.cast %ef : tensor<3x3x19x37xf32> to tensor<?x?x?x?xf32>
  %f_d = call @iota4(%ef_d, %c3, %c5, %c2) : (tensor<?x?x?x?xf32>, index, index, index) -> tensor<?x?x?x?xf32>
  %f = tensor.cast %f_d : tensor<?x?x?x?xf32> to tensor<3x3x19x37xf32>
  %eo = tensor.empty() : tensor<1x7x11x37xf32>
  %o = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x7x11x37xf32>) -> tensor<1x7x11x37xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x9x13x19xf32>, tensor<3x3x19x37xf32>)
      outs(%o : tensor<1x7x11x37xf32>) -> tensor<1x7x11x37xf32>
  %conv_d = tensor.cast %conv : tensor<1x7x11x37xf32> to tensor<?x?x?x?xf32>
  call @report4(%conv_d) : (tensor<?x?x?x?xf32>) -> ()
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [-6155]
  // CHECK-NEXT: rank = 4 offset = 0 sizes = [1, 7, 11, 37]

  %eo2 = tensor.empty() : tensor<1x4x6x37xf32>
  %o2 = linalg.fill ins(%zero : f32) outs(%eo2 : tensor<1x4x6x37xf32>) -> tensor<1x4x6x37xf32>
  %conv2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x9x13x19xf32>, tensor<3x3x19x37xf32>)
      outs(%o2 : tensor<1x4x6x37xf32>) -> tensor<1x4x6x37xf32>
  %conv2_d = tensor.cast %conv2 : tensor<1x4x6x37xf32> to tensor<?x?x?x?xf32>
  call @report4(%conv2_d) : (tensor<?x?x?x?xf32>) -> ()
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [5]
  // CHECK-NEXT: rank = 4 offset = 0 sizes = [1, 4, 6, 37]

  // depthwise_conv_2d_nhwc_hwc: 1x9x13x37 input, 3x3x37 filter.
  %ed = tensor.empty() : tensor<1x9x13x37xf32>
  %ed_d = tensor.cast %ed : tensor<1x9x13x37xf32> to tensor<?x?x?x?xf32>
  %din_d = call @iota4(%ed_d, %c5, %c2, %c3) : (tensor<?x?x?x?xf32>, index, index, index) -> tensor<?x?x?x?xf32>
  %din = tensor.cast %din_d : tensor<?x?x?x?xf32> to tensor<1x9x13x37xf32>
  %edf = tensor.empty() : tensor<3x3x37xf32>
  %edf_d = tensor.cast %edf : tensor<3x3x37xf32> to tensor<?x?x?xf32>
  %df_d = call @iota3(%edf_d, %c2, %c5, %c3) : (tensor<?x?x?xf32>, index, index, index) -> tensor<?x?x?xf32>
  %df = tensor.cast %df_d : tensor<?x?x?xf32> to tensor<3x3x37xf32>
  %dw = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%din, %df : tensor<1x9x13x37xf32>, tensor<3x3x37xf32>)
      outs(%o : tensor<1x7x11x37xf32>) -> tensor<1x7x11x37xf32>
  %dw_d = tensor.cast %dw : tensor<1x7x11x37xf32> to tensor<?x?x?x?xf32>
  call @report4(%dw_d) : (tensor<?x?x?x?xf32>) -> ()
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [411]
  // CHECK-NEXT: rank = 4 offset = 0 sizes = [1, 7, 11, 37]

  // pooling_nhwc_max 3x3 stride 2 and pooling_nhwc_sum 3x3 stride 1.
  %win = tensor.empty() : tensor<3x3xf32>
  %lowest = arith.constant -3.40282347E+38 : f32
  %pm_init = linalg.fill ins(%lowest : f32) outs(%eo2 : tensor<1x4x6x37xf32>) -> tensor<1x4x6x37xf32>
  %pmax = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%din, %win : tensor<1x9x13x37xf32>, tensor<3x3xf32>)
      outs(%pm_init : tensor<1x4x6x37xf32>) -> tensor<1x4x6x37xf32>
  %pmax_d = tensor.cast %pmax : tensor<1x4x6x37xf32> to tensor<?x?x?x?xf32>
  call @report4(%pmax_d) : (tensor<?x?x?x?xf32>) -> ()
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [-1]
  // CHECK-NEXT: rank = 4 offset = 0 sizes = [1, 4, 6, 37]

  %psum = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%din, %win : tensor<1x9x13x37xf32>, tensor<3x3xf32>)
      outs(%o : tensor<1x7x11x37xf32>) -> tensor<1x7x11x37xf32>
  %psum_d = tensor.cast %psum : tensor<1x7x11x37xf32> to tensor<?x?x?x?xf32>
  call @report4(%psum_d) : (tensor<?x?x?x?xf32>) -> ()
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [54]
  // CHECK-NEXT: rank = 4 offset = 0 sizes = [1, 7, 11, 37]

  // A gather of rows (tensor.extract at loaded indices): rows of the 21x37
  // matrix b, 13 of them, 37 = 4 x 8 + 5 columns.
  %rows = arith.constant dense<[20, 0, 7, 3, 3, 19, 11, 5, 8, 14, 1, 16, 2]> : tensor<13xi32>
  %gathered = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, #id2],
                              iterator_types = ["parallel", "parallel"]}
      ins(%rows : tensor<13xi32>) outs(%ec : tensor<13x37xf32>) {
  ^bb0(%row: i32, %out: f32):
    %ri = arith.index_cast %row : i32 to index
    %cj = linalg.index 1 : index
    %v = tensor.extract %b[%ri, %cj] : tensor<21x37xf32>
    linalg.yield %v : f32
  } -> tensor<13x37xf32>
  %gathered_d = tensor.cast %gathered : tensor<13x37xf32> to tensor<?x?xf32>
  call @report2(%gathered_d) : (tensor<?x?xf32>) -> ()
  // CHECK: rank = 0 offset = 0 sizes = [] strides = [] data =
  // CHECK-NEXT: [16]
  // CHECK-NEXT: rank = 2 offset = 0 sizes = [13, 37]
  return
}
