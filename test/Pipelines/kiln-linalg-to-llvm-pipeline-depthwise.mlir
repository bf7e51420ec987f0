// REQUIRES: mlir-runner
// Depthwise convolutions through kiln-cpu-depthwise (the default), through
// kiln-cpu-tile-and-vectorize (depthwise=false) and as scalar loops must
// print the same tensors: 3x3 SAME stride 1 with bias and ReLU6 on 20
// channels (a full block of 16 and a masked one of 4, lanes 16), 5x5 SAME
// stride 2, 3x3 VALID stride 2 with a filter that is not a constant and an
// accumulator filled with ones, and 5x5 SAME on a 3x4 image (no interior
// column: every column a border one) with a scalar broadcast in its
// consumer. The values are small integers, so every sum is exact.
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="parallelize=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.depthwise
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="parallelize=false depthwise-tile-w=3 external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.tile3
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="parallelize=false depthwise-lanes=8 external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.lanes8
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="parallelize=false depthwise=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.tiled
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="vectorize=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.loops
// RUN: FileCheck %s < %t.depthwise
// RUN: diff %t.depthwise %t.tiled
// RUN: diff %t.depthwise %t.tile3
// RUN: diff %t.depthwise %t.lanes8
// RUN: diff %t.depthwise %t.loops
// With the pass, no padded copy and no linalg convolution is left when the
// pipeline bufferizes: the four convolutions are vector FMAs.
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 --mlir-print-ir-before=one-shot-bufferize -o /dev/null 2>&1 | FileCheck %s --check-prefix=IR
// IR-LABEL: IR Dump Before OneShotBufferizePass
// IR-NOT:     tensor.pad
// IR-NOT:     linalg.depthwise_conv
// IR:         vector.fma {{.+}} : vector<16xf32>
// IR-NOT:     linalg.depthwise_conv
// IR:         return

func.func private @printMemrefF32(tensor<*xf32>)

// CHECK: rank = 4 offset = 0 sizes = [1, 6, 11, 20]
// CHECK: rank = 4 offset = 0 sizes = [1, 5, 5, 16]
// CHECK: rank = 4 offset = 0 sizes = [1, 4, 4, 16]
// CHECK: rank = 4 offset = 0 sizes = [1, 3, 4, 20]
func.func @main() {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %six = arith.constant 6.0 : f32
  %x1e = tensor.empty() : tensor<1x6x11x20xf32>
  %x1 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%x1e : tensor<1x6x11x20xf32>) {
  ^bb0(%out: f32):
    %h = linalg.index 1 : index
    %w = linalg.index 2 : index
    %c = linalg.index 3 : index
    %ch = arith.constant 3 : index
    %cw = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %a = arith.muli %h, %ch : index
    %b = arith.muli %w, %cw : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %m = arith.remui %s1, %c7 : index
    %i = arith.index_cast %m : index to i32
    %f = arith.sitofp %i : i32 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x6x11x20xf32>
  %p1 = tensor.pad %x1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x6x11x20xf32> to tensor<1x8x13x20xf32>
  %w1 = arith.constant dense<[[[0.0, 0.0, 1.0, 2.0, -2.0, -2.0, 2.0, 2.0, -1.0, -1.0, 2.0, 0.0, -1.0, 2.0, -1.0, 0.0, 1.0, 0.0, -2.0, -2.0],
  [2.0, 1.0, 2.0, 0.0, 2.0, -1.0, 0.0, 1.0, -2.0, -1.0, -2.0, 0.0, 2.0, -2.0, -1.0, 0.0, 2.0, -1.0, 0.0, -1.0],
  [-2.0, 1.0, -2.0, -1.0, 0.0, 0.0, -2.0, 2.0, 1.0, 2.0, -2.0, 1.0, -1.0, 0.0, 2.0, -1.0, 1.0, -2.0, -1.0, 2.0]],

 [[0.0, 0.0, -1.0, -2.0, 0.0, 1.0, 0.0, 1.0, -1.0, 1.0, 1.0, 2.0, 0.0, -2.0, 1.0, 0.0, 2.0, 0.0, -1.0, -2.0],
  [0.0, 1.0, 1.0, 2.0, -1.0, 0.0, 2.0, -1.0, -1.0, 2.0, 0.0, 0.0, 1.0, 0.0, 2.0, 1.0, -2.0, -2.0, 0.0, 2.0],
  [-2.0, 1.0, 1.0, 1.0, 2.0, -2.0, 0.0, 2.0, -1.0, -2.0, 0.0, -2.0, -1.0, 2.0, 1.0, 2.0, 2.0, 2.0, -1.0, 0.0]],

 [[1.0, -1.0, 2.0, -2.0, 2.0, 1.0, -1.0, 1.0, 0.0, 2.0, 2.0, -1.0, 0.0, -1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0],
  [2.0, -2.0, -2.0, 0.0, -1.0, 2.0, 1.0, 0.0, 0.0, 0.0, 2.0, -2.0, 0.0, 1.0, 0.0, 2.0, 2.0, 2.0, 0.0, 2.0],
  [-2.0, 1.0, -1.0, -1.0, 1.0, 1.0, 2.0, -1.0, 2.0, 2.0, -1.0, -2.0, 1.0, 2.0, 0.0, -2.0, -2.0, -1.0, 1.0, -1.0]]]> : tensor<3x3x20xf32>
  %b1 = arith.constant dense<[-3.0, 1.0, 2.0, -2.0, 0.0, -1.0, 0.0, -3.0, 1.0, -2.0, 0.0, -1.0, 1.0, -3.0, -1.0, 1.0, 2.0, -1.0, -3.0, 2.0]> : tensor<20xf32>
  %o1e = tensor.empty() : tensor<1x6x11x20xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%o1e : tensor<1x6x11x20xf32>) -> tensor<1x6x11x20xf32>
  %c1 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w1 : tensor<1x8x13x20xf32>, tensor<3x3x20xf32>) outs(%o1 : tensor<1x6x11x20xf32>) -> tensor<1x6x11x20xf32>
  %r1 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                                        affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %b1 : tensor<1x6x11x20xf32>, tensor<20xf32>) outs(%o1e : tensor<1x6x11x20xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %lo = arith.maximumf %s, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x6x11x20xf32>
  %u1 = tensor.cast %r1 : tensor<1x6x11x20xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %x2e = tensor.empty() : tensor<1x9x9x16xf32>
  %x2 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%x2e : tensor<1x9x9x16xf32>) {
  ^bb0(%out: f32):
    %h = linalg.index 1 : index
    %w = linalg.index 2 : index
    %c = linalg.index 3 : index
    %ch = arith.constant 5 : index
    %cw = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %a = arith.muli %h, %ch : index
    %b = arith.muli %w, %cw : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %m = arith.remui %s1, %c7 : index
    %i = arith.index_cast %m : index to i32
    %f = arith.sitofp %i : i32 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x9x9x16xf32>
  %p2 = tensor.pad %x2 low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x9x9x16xf32> to tensor<1x13x13x16xf32>
  %w2 = arith.constant dense<[[[0.0, 1.0, -2.0, 0.0, 2.0, 2.0, -1.0, 1.0, -2.0, 2.0, -1.0, -1.0, 2.0, 0.0, 2.0, -2.0],
  [1.0, 2.0, -2.0, -1.0, -2.0, -1.0, -1.0, -2.0, 2.0, -1.0, 2.0, 1.0, -2.0, 1.0, 1.0, -2.0],
  [-2.0, -1.0, -2.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 2.0, 1.0, 1.0, 0.0, -1.0],
  [-1.0, 0.0, 0.0, -1.0, -2.0, -2.0, -2.0, -1.0, 0.0, -1.0, -2.0, -1.0, 1.0, -1.0, 2.0, 0.0],
  [-2.0, 2.0, 2.0, 1.0, -2.0, 1.0, 1.0, 1.0, 1.0, 0.0, -1.0, 2.0, 2.0, 1.0, -1.0, 0.0]],

 [[0.0, -2.0, -2.0, 0.0, 0.0, -1.0, -1.0, -2.0, 2.0, 0.0, -1.0, 1.0, 2.0, -1.0, 2.0, 1.0],
  [1.0, 0.0, 2.0, -2.0, -2.0, 2.0, 0.0, 0.0, 1.0, -1.0, 1.0, 2.0, 2.0, -2.0, 2.0, 1.0],
  [1.0, -2.0, 2.0, -1.0, 2.0, -1.0, -2.0, 2.0, 0.0, -1.0, 2.0, 2.0, -2.0, 1.0, 2.0, 1.0],
  [1.0, 0.0, 0.0, -1.0, -2.0, -1.0, 1.0, 2.0, 2.0, -1.0, -2.0, 2.0, 1.0, 1.0, 2.0, -1.0],
  [2.0, 1.0, 1.0, -1.0, -1.0, -1.0, 1.0, 0.0, -2.0, -2.0, -2.0, 0.0, 0.0, 2.0, 1.0, -1.0]],

 [[0.0, 1.0, 2.0, 0.0, 1.0, -1.0, 0.0, 2.0, -1.0, -2.0, 1.0, -1.0, 0.0, 2.0, -1.0, -1.0],
  [-1.0, 2.0, -1.0, 1.0, -1.0, 2.0, 1.0, 1.0, 0.0, -1.0, 2.0, 1.0, -1.0, -2.0, -2.0, 0.0],
  [0.0, -1.0, 2.0, 0.0, 1.0, -2.0, -1.0, -1.0, -2.0, 0.0, -2.0, -1.0, 1.0, 1.0, 0.0, 1.0],
  [-1.0, 2.0, -2.0, 1.0, -2.0, 1.0, -1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 0.0, -2.0, 2.0, 2.0],
  [-1.0, 0.0, 0.0, 1.0, -2.0, 0.0, 2.0, 1.0, 0.0, -2.0, 2.0, -2.0, -1.0, 1.0, 0.0, 0.0]],

 [[0.0, -2.0, -2.0, 2.0, 2.0, -2.0, 1.0, 0.0, 1.0, -2.0, 1.0, 1.0, 2.0, -1.0, 0.0, -2.0],
  [-2.0, -2.0, 0.0, -2.0, 1.0, -2.0, 1.0, 0.0, -1.0, 0.0, 2.0, 2.0, -1.0, 2.0, -1.0, 1.0],
  [-1.0, 1.0, 1.0, 2.0, -1.0, 2.0, 2.0, -2.0, -2.0, -2.0, 1.0, -1.0, -2.0, -2.0, 2.0, 0.0],
  [-2.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -2.0, 2.0, 1.0, 0.0, 1.0, -2.0, 1.0, 0.0, -2.0],
  [-2.0, 0.0, 1.0, 1.0, -2.0, -2.0, -1.0, -1.0, -2.0, -2.0, -1.0, -2.0, -2.0, -1.0, -1.0, 0.0]],

 [[-2.0, 0.0, 2.0, 2.0, -2.0, -1.0, 1.0, -2.0, 0.0, 2.0, 1.0, -2.0, -1.0, -2.0, 0.0, 2.0],
  [1.0, 1.0, 1.0, -1.0, 2.0, -2.0, -2.0, -1.0, 0.0, -1.0, 0.0, 2.0, 0.0, 0.0, 1.0, -2.0],
  [2.0, 2.0, -2.0, 1.0, 2.0, -2.0, -2.0, -2.0, 2.0, 0.0, 2.0, -2.0, 1.0, 1.0, 0.0, 1.0],
  [-2.0, -2.0, 1.0, 2.0, 2.0, 1.0, 0.0, 2.0, -2.0, 1.0, 0.0, 1.0, 2.0, -2.0, 1.0, -2.0],
  [0.0, -2.0, -1.0, 2.0, 0.0, 1.0, 2.0, 2.0, -2.0, -1.0, 2.0, 1.0, 0.0, -2.0, 1.0, -2.0]]]> : tensor<5x5x16xf32>
  %o2e = tensor.empty() : tensor<1x5x5x16xf32>
  %o2 = linalg.fill ins(%zero : f32) outs(%o2e : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  %c2 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p2, %w2 : tensor<1x13x13x16xf32>, tensor<5x5x16xf32>) outs(%o2 : tensor<1x5x5x16xf32>) -> tensor<1x5x5x16xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2 : tensor<1x5x5x16xf32>) outs(%o2e : tensor<1x5x5x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    linalg.yield %lo : f32
  } -> tensor<1x5x5x16xf32>
  %u2 = tensor.cast %r2 : tensor<1x5x5x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %w3s = arith.constant dense<[[[2.0],
  [-1.0],
  [0.0]],

 [[0.0],
  [0.0],
  [0.0]],

 [[2.0],
  [0.0],
  [-1.0]]]> : tensor<3x3x1xf32>
  %w3e = tensor.empty() : tensor<3x3x16xf32>
  %w3 = linalg.generic {indexing_maps = [affine_map<(i, j, c) -> (i, j, 0)>, affine_map<(i, j, c) -> (i, j, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w3s : tensor<3x3x1xf32>) outs(%w3e : tensor<3x3x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ci = linalg.index 2 : index
    %cc = arith.index_cast %ci : index to i32
    %cf = arith.sitofp %cc : i32 to f32
    %v = arith.addf %in, %cf : f32
    linalg.yield %v : f32
  } -> tensor<3x3x16xf32>
  %o3e = tensor.empty() : tensor<1x4x4x16xf32>
  %o3 = linalg.fill ins(%one : f32) outs(%o3e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %c3 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x2, %w3 : tensor<1x9x9x16xf32>, tensor<3x3x16xf32>) outs(%o3 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %u3 = tensor.cast %c3 : tensor<1x4x4x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %x4e = tensor.empty() : tensor<1x3x4x20xf32>
  %x4 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%x4e : tensor<1x3x4x20xf32>) {
  ^bb0(%out: f32):
    %h = linalg.index 1 : index
    %w = linalg.index 2 : index
    %c = linalg.index 3 : index
    %ch = arith.constant 2 : index
    %cw = arith.constant 3 : index
    %c7 = arith.constant 7 : index
    %a = arith.muli %h, %ch : index
    %b = arith.muli %w, %cw : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %m = arith.remui %s1, %c7 : index
    %i = arith.index_cast %m : index to i32
    %f = arith.sitofp %i : i32 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<1x3x4x20xf32>
  %p4 = tensor.pad %x4 low[0, 2, 2, 0] high[0, 2, 2, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x4x20xf32> to tensor<1x7x8x20xf32>
  %w4 = arith.constant dense<[[[0.0, 1.0, 0.0, 0.0, 2.0, -1.0, 0.0, 2.0, 2.0, 0.0, -2.0, 0.0, -1.0, 2.0, 0.0, 0.0, 1.0, 0.0, -1.0, 0.0],
  [-1.0, 2.0, 2.0, 0.0, 1.0, -2.0, 0.0, -2.0, -2.0, -1.0, -2.0, 2.0, -1.0, 2.0, -2.0, 1.0, 2.0, -2.0, -2.0, -1.0],
  [-1.0, 0.0, -2.0, -2.0, 1.0, -2.0, -2.0, -1.0, -2.0, -2.0, -2.0, 0.0, -1.0, 2.0, 0.0, -1.0, 2.0, -2.0, -1.0, -2.0],
  [-1.0, 0.0, 2.0, -1.0, 1.0, 2.0, -2.0, 1.0, 2.0, -1.0, 2.0, 2.0, -2.0, -2.0, 1.0, 0.0, -2.0, 2.0, -1.0, -2.0],
  [0.0, -1.0, 0.0, -1.0, 0.0, 0.0, 0.0, 2.0, -1.0, 0.0, 1.0, 2.0, -1.0, 2.0, 2.0, -1.0, 0.0, 1.0, -1.0, -1.0]],

 [[-2.0, 0.0, 0.0, 1.0, -1.0, 0.0, 1.0, 1.0, 0.0, -2.0, -2.0, 0.0, 2.0, 0.0, -2.0, -2.0, 2.0, -1.0, 2.0, -2.0],
  [2.0, -2.0, 1.0, 0.0, -2.0, -1.0, 0.0, -1.0, 0.0, -2.0, 1.0, 2.0, -1.0, 0.0, 1.0, 2.0, -1.0, -2.0, -1.0, 2.0],
  [0.0, -2.0, 0.0, 2.0, -2.0, -1.0, 2.0, -2.0, 1.0, 0.0, 2.0, 2.0, -1.0, -1.0, 2.0, 1.0, 2.0, -2.0, 2.0, 0.0],
  [-2.0, 1.0, 0.0, 1.0, -1.0, -1.0, 1.0, 2.0, -1.0, 1.0, -2.0, -2.0, 0.0, -2.0, 1.0, 0.0, -1.0, 1.0, 2.0, 2.0],
  [0.0, 1.0, -1.0, -2.0, 2.0, 0.0, 0.0, 0.0, -1.0, 1.0, -1.0, -2.0, 2.0, 1.0, 2.0, 2.0, 1.0, 2.0, -1.0, -2.0]],

 [[1.0, 1.0, -1.0, 2.0, -1.0, 2.0, 0.0, -2.0, 0.0, -2.0, -1.0, 0.0, 2.0, 2.0, -2.0, 1.0, 1.0, -1.0, -2.0, 0.0],
  [-2.0, 2.0, -1.0, 1.0, 2.0, 0.0, 1.0, 0.0, 2.0, 1.0, -2.0, -1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0],
  [-1.0, 0.0, 0.0, 0.0, -1.0, 1.0, -1.0, 1.0, 0.0, 1.0, -2.0, -2.0, -1.0, 2.0, 0.0, -2.0, 0.0, -1.0, 2.0, -2.0],
  [1.0, -2.0, 0.0, 1.0, 2.0, -2.0, -2.0, -2.0, -2.0, -2.0, -1.0, 0.0, -2.0, 2.0, 0.0, 1.0, 0.0, 0.0, -2.0, -1.0],
  [1.0, -1.0, 0.0, 1.0, 0.0, 2.0, 2.0, 1.0, 2.0, 1.0, -1.0, -1.0, -2.0, -2.0, 2.0, 0.0, -2.0, -1.0, 1.0, -1.0]],

 [[-1.0, 0.0, -1.0, 0.0, 0.0, -1.0, 2.0, 1.0, -2.0, 2.0, -2.0, 0.0, 1.0, -1.0, -1.0, 2.0, -1.0, -2.0, 2.0, -1.0],
  [-1.0, 2.0, 1.0, 1.0, 2.0, -2.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 2.0, -1.0, -1.0, 0.0, 1.0, -1.0, 2.0, 1.0],
  [2.0, 1.0, 2.0, 0.0, 2.0, 1.0, -2.0, -1.0, -1.0, 1.0, 0.0, -1.0, 2.0, 2.0, 0.0, -1.0, -1.0, -1.0, -2.0, 0.0],
  [-1.0, 1.0, 1.0, -1.0, -2.0, 0.0, -2.0, 1.0, -1.0, 2.0, 0.0, 1.0, -1.0, 0.0, 2.0, 0.0, -1.0, -2.0, 0.0, 2.0],
  [1.0, -2.0, 2.0, 1.0, 2.0, 2.0, -2.0, -2.0, 1.0, 2.0, 1.0, 2.0, 0.0, 2.0, -2.0, -2.0, -2.0, -1.0, 1.0, -1.0]],

 [[-2.0, 2.0, -1.0, 2.0, -1.0, 1.0, 1.0, 1.0, -1.0, 1.0, -2.0, -1.0, -1.0, 2.0, -1.0, -2.0, 1.0, 0.0, -1.0, 2.0],
  [1.0, -1.0, 0.0, 2.0, 2.0, 2.0, 1.0, 1.0, 0.0, -2.0, 0.0, 0.0, 0.0, -2.0, 2.0, -2.0, -2.0, -1.0, 0.0, -2.0],
  [0.0, -1.0, 0.0, -2.0, 0.0, 1.0, 0.0, -1.0, 0.0, 2.0, 1.0, -2.0, -1.0, 1.0, 1.0, -2.0, 1.0, -2.0, -2.0, 1.0],
  [-1.0, 1.0, 2.0, -1.0, 2.0, 0.0, 2.0, 1.0, -2.0, -1.0, 2.0, 1.0, 2.0, 2.0, 2.0, -2.0, 1.0, -1.0, 1.0, 2.0],
  [1.0, 2.0, 0.0, 0.0, 1.0, -1.0, 0.0, 2.0, -1.0, 1.0, -2.0, 2.0, 2.0, 0.0, 1.0, 0.0, -2.0, 0.0, 2.0, -1.0]]]> : tensor<5x5x20xf32>
  %o4e = tensor.empty() : tensor<1x3x4x20xf32>
  %o4 = linalg.fill ins(%zero : f32) outs(%o4e : tensor<1x3x4x20xf32>) -> tensor<1x3x4x20xf32>
  %c4 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p4, %w4 : tensor<1x7x8x20xf32>, tensor<5x5x20xf32>) outs(%o4 : tensor<1x3x4x20xf32>) -> tensor<1x3x4x20xf32>
  %s4 = arith.constant dense<[-2.0]> : tensor<1xf32>
  %r4 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n)>,
                                        affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c4, %s4 : tensor<1x3x4x20xf32>, tensor<1xf32>) outs(%o4e : tensor<1x3x4x20xf32>) {
  ^bb0(%in: f32, %k: f32, %out: f32):
    %s = arith.addf %in, %k : f32
    %lo = arith.maximumf %s, %zero : f32
    linalg.yield %lo : f32
  } -> tensor<1x3x4x20xf32>
  %u4 = tensor.cast %r4 : tensor<1x3x4x20xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}
