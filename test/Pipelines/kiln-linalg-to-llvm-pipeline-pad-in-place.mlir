// REQUIRES: mlir-runner
// A producer (ReLU of an iota) padded with a border of -1 (low 1, high 2 in
// H and W) and read by a 3x3 depthwise convolution, as a SAME-padded layer
// of a model: with pad-in-place (the default), without it, and as scalar
// loops, the printed padded tensor and convolution must be the same. The
// values are small integers, so every sum is exact.
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.inplace
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="pad-in-place=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.copy
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="vectorize=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.loops
// RUN: FileCheck %s < %t.inplace
// RUN: diff %t.inplace %t.copy
// RUN: diff %t.inplace %t.loops
// After bufferization and its cleanups, nothing is copied: the producer's
// tiles are stored into the interior of the padded buffer, whose border
// alone is filled. Without pad-in-place, the whole buffer is filled
// (linalg.map) and the producer's buffer copied into it.
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 --mlir-print-ir-before=kiln-cpu-lower-strided-copies -o /dev/null 2>&1 | FileCheck %s --check-prefix=INPLACE
// INPLACE-LABEL: IR Dump Before KilnCPULowerStridedCopiesPass
// INPLACE-NOT:   memref.copy
// INPLACE-NOT:   linalg.map
// INPLACE:       return
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="pad-in-place=false external-functions=printMemrefF32" --mlir-print-ir-before=kiln-cpu-lower-strided-copies -o /dev/null 2>&1 | FileCheck %s --check-prefix=COPY
// COPY-LABEL: IR Dump Before KilnCPULowerStridedCopiesPass
// COPY:       linalg.map
// COPY:       memref.copy

func.func private @printMemrefF32(tensor<*xf32>)

// CHECK: rank = 4 offset = 0 sizes = [1, 9, 11, 16]
// The first row is the border.
// CHECK-NEXT: {{\[}}{{\[}}{{\[}}[-1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1,   -1],
// CHECK: rank = 4 offset = 0 sizes = [1, 7, 9, 16]
func.func @main() {
  %zero = arith.constant 0.0 : f32
  %minus1 = arith.constant -1.0 : f32
  %e = tensor.empty() : tensor<1x6x8x16xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<1x6x8x16xf32>) {
  ^bb0(%out: f32):
    %h = linalg.index 1 : index
    %w = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %a = arith.muli %h, %c3 : index
    %b = arith.muli %w, %c5 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %m = arith.remui %s1, %c7 : index
    %i = arith.index_cast %m : index to i32
    %f = arith.sitofp %i : i32 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x6x8x16xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 2, 2, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %minus1 : f32
  } : tensor<1x6x8x16xf32> to tensor<1x9x11x16xf32>
  %wts = arith.constant dense<[[[1.0], [2.0], [-1.0]], [[0.0], [1.0], [3.0]], [[-2.0], [1.0], [1.0]]]> : tensor<3x3x1xf32>
  %wb = tensor.empty() : tensor<3x3x16xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(i, j, c) -> (i, j, 0)>,
                                        affine_map<(i, j, c) -> (i, j, c)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%wts : tensor<3x3x1xf32>) outs(%wb : tensor<3x3x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<3x3x16xf32>
  %oe = tensor.empty() : tensor<1x7x9x16xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x7x9x16xf32>) -> tensor<1x7x9x16xf32>
  %conv = linalg.depthwise_conv_2d_nhwc_hwc
      {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x9x11x16xf32>, tensor<3x3x16xf32>)
      outs(%o0 : tensor<1x7x9x16xf32>) -> tensor<1x7x9x16xf32>
  %pu = tensor.cast %p : tensor<1x9x11x16xf32> to tensor<*xf32>
  call @printMemrefF32(%pu) : (tensor<*xf32>) -> ()
  %cu = tensor.cast %conv : tensor<1x7x9x16xf32> to tensor<*xf32>
  call @printMemrefF32(%cu) : (tensor<*xf32>) -> ()
  return
}
