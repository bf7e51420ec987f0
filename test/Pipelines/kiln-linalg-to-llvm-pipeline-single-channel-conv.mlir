// REQUIRES: mlir-runner
// Convolutions with one output channel through kiln-cpu-depthwise's
// channel-vector rewrite (the default; with lanes 8 and tiles of 3 pixels),
// through kiln-cpu-tile-and-vectorize (depthwise=false) and as scalar loops
// must print the same tensors: selfie's 2x2 stride 1 on 16 channels (one
// whole block) with bias and ReLU, 3x3 stride 2 on 20 channels (a whole
// block and a masked one) with a batch of 2 and an accumulator filled with
// ones, and 2x3 stride 1 on 3 channels (only a masked block) accumulating
// into a computed tensor with a consumer that adds a tensor along W. The
// values are small integers, so every sum is exact in any order.
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="parallelize=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.default
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="parallelize=false depthwise-lanes=8 depthwise-tile-w=3 external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.lanes8
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="parallelize=false depthwise=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.tiled
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline="vectorize=false external-functions=printMemrefF32" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%mlir_runner_utils | sed -e 's/base@ = 0x[0-9a-f]*//' > %t.loops
// RUN: FileCheck %s < %t.default
// RUN: diff %t.default %t.lanes8
// RUN: diff %t.default %t.tiled
// RUN: diff %t.default %t.loops
// With the rewrite no linalg convolution is left when the pipeline
// bufferizes: the channel vectors are summed per pixel, by shuffles and
// adds for tiles of 8 (and 4), by one reduction each for the last 5 of a
// row of 5.
// RUN: kiln-opt %s --kiln-linalg-to-llvm-pipeline=external-functions=printMemrefF32 --mlir-print-ir-before=one-shot-bufferize -o /dev/null 2>&1 | FileCheck %s --check-prefix=IR
// IR-LABEL: IR Dump Before OneShotBufferizePass
// IR-NOT:     linalg.conv_2d
// IR:         vector.fma {{.+}} : vector<16xf32>
// IR:         vector.shuffle {{.+}} : vector<16xf32>, vector<16xf32>
// IR:         vector.reduction <add>, {{.+}} fastmath<reassoc> : vector<16xf32> into f32
// IR-NOT:     linalg.conv_2d
// IR:         return

func.func private @printMemrefF32(tensor<*xf32>)

#id = affine_map<(n, h, w, c) -> (n, h, w, c)>
#chan = affine_map<(n, h, w, c) -> (c)>

// ((h * 3 + w * 5 + c + salt) mod 7) - 3 over a tensor of any 4-D shape.
func.func @pattern(%e: tensor<?x?x?x?xf32>, %salt: index) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%e : tensor<?x?x?x?xf32>) {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %h = linalg.index 1 : index
    %w = linalg.index 2 : index
    %c = linalg.index 3 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %a = arith.muli %h, %c3 : index
    %b = arith.muli %w, %c5 : index
    %d = arith.muli %n, %c11 : index
    %s0 = arith.addi %a, %b : index
    %s1 = arith.addi %s0, %c : index
    %s2 = arith.addi %s1, %salt : index
    %s3 = arith.addi %s2, %d : index
    %m = arith.remui %s3, %c7 : index
    %i = arith.index_cast %m : index to i32
    %f = arith.sitofp %i : i32 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @print(%t: tensor<?x?x?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?x?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

// CHECK: rank = 4 offset = 0 sizes = [1, 8, 12, 1]
// CHECK: rank = 4 offset = 0 sizes = [2, 4, 5, 1]
// CHECK: rank = 4 offset = 0 sizes = [1, 4, 5, 1]
func.func @main() {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index

  // 2x2 stride 1, 16 channels, bias + ReLU.
  %x1d = tensor.empty() : tensor<1x9x13x16xf32>
  %x1c = tensor.cast %x1d : tensor<1x9x13x16xf32> to tensor<?x?x?x?xf32>
  %x1p = call @pattern(%x1c, %c0) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %x1 = tensor.cast %x1p : tensor<?x?x?x?xf32> to tensor<1x9x13x16xf32>
  %w1d = tensor.empty() : tensor<2x2x16x1xf32>
  %w1c = tensor.cast %w1d : tensor<2x2x16x1xf32> to tensor<?x?x?x?xf32>
  %w1p = call @pattern(%w1c, %c1) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %w1 = tensor.cast %w1p : tensor<?x?x?x?xf32> to tensor<2x2x16x1xf32>
  %o1e = tensor.empty() : tensor<1x8x12x1xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%o1e : tensor<1x8x12x1xf32>) -> tensor<1x8x12x1xf32>
  %r1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x1, %w1 : tensor<1x9x13x16xf32>, tensor<2x2x16x1xf32>) outs(%o1 : tensor<1x8x12x1xf32>) -> tensor<1x8x12x1xf32>
  %b1 = arith.constant dense<[-4.0]> : tensor<1xf32>
  %y1 = linalg.generic {indexing_maps = [#id, #chan, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r1, %b1 : tensor<1x8x12x1xf32>, tensor<1xf32>) outs(%o1e : tensor<1x8x12x1xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8x12x1xf32>
  %p1 = tensor.cast %y1 : tensor<1x8x12x1xf32> to tensor<?x?x?x?xf32>
  call @print(%p1) : (tensor<?x?x?x?xf32>) -> ()

  // 3x3 stride 2, 20 channels, batch 2, accumulator filled with ones.
  %x2d = tensor.empty() : tensor<2x9x11x20xf32>
  %x2c = tensor.cast %x2d : tensor<2x9x11x20xf32> to tensor<?x?x?x?xf32>
  %x2p = call @pattern(%x2c, %c2) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %x2 = tensor.cast %x2p : tensor<?x?x?x?xf32> to tensor<2x9x11x20xf32>
  %w2d = tensor.empty() : tensor<3x3x20x1xf32>
  %w2c = tensor.cast %w2d : tensor<3x3x20x1xf32> to tensor<?x?x?x?xf32>
  %w2p = call @pattern(%w2c, %c1) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %w2 = tensor.cast %w2p : tensor<?x?x?x?xf32> to tensor<3x3x20x1xf32>
  %o2e = tensor.empty() : tensor<2x4x5x1xf32>
  %o2 = linalg.fill ins(%one : f32) outs(%o2e : tensor<2x4x5x1xf32>) -> tensor<2x4x5x1xf32>
  %r2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x2, %w2 : tensor<2x9x11x20xf32>, tensor<3x3x20x1xf32>) outs(%o2 : tensor<2x4x5x1xf32>) -> tensor<2x4x5x1xf32>
  %p2 = tensor.cast %r2 : tensor<2x4x5x1xf32> to tensor<?x?x?x?xf32>
  call @print(%p2) : (tensor<?x?x?x?xf32>) -> ()

  // 2x3 stride 1, 3 channels, into a computed accumulator, plus a tensor
  // read along W.
  %x3d = tensor.empty() : tensor<1x5x7x3xf32>
  %x3c = tensor.cast %x3d : tensor<1x5x7x3xf32> to tensor<?x?x?x?xf32>
  %x3p = call @pattern(%x3c, %c1) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %x3 = tensor.cast %x3p : tensor<?x?x?x?xf32> to tensor<1x5x7x3xf32>
  %w3d = tensor.empty() : tensor<2x3x3x1xf32>
  %w3c = tensor.cast %w3d : tensor<2x3x3x1xf32> to tensor<?x?x?x?xf32>
  %w3p = call @pattern(%w3c, %c2) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %w3 = tensor.cast %w3p : tensor<?x?x?x?xf32> to tensor<2x3x3x1xf32>
  %o3d = tensor.empty() : tensor<1x4x5x1xf32>
  %o3c = tensor.cast %o3d : tensor<1x4x5x1xf32> to tensor<?x?x?x?xf32>
  %o3p = call @pattern(%o3c, %c0) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %o3 = tensor.cast %o3p : tensor<?x?x?x?xf32> to tensor<1x4x5x1xf32>
  %a3p = call @pattern(%o3c, %c2) : (tensor<?x?x?x?xf32>, index) -> tensor<?x?x?x?xf32>
  %a3 = tensor.cast %a3p : tensor<?x?x?x?xf32> to tensor<1x4x5x1xf32>
  %r3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x3, %w3 : tensor<1x5x7x3xf32>, tensor<2x3x3x1xf32>) outs(%o3 : tensor<1x4x5x1xf32>) -> tensor<1x4x5x1xf32>
  %y3e = tensor.empty() : tensor<1x4x5x1xf32>
  %y3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r3, %a3 : tensor<1x4x5x1xf32>, tensor<1x4x5x1xf32>) outs(%y3e : tensor<1x4x5x1xf32>) {
  ^bb0(%in: f32, %add: f32, %out: f32):
    %s = arith.addf %in, %add : f32
    linalg.yield %s : f32
  } -> tensor<1x4x5x1xf32>
  %p3 = tensor.cast %y3 : tensor<1x4x5x1xf32> to tensor<?x?x?x?xf32>
  call @print(%p3) : (tensor<?x?x?x?xf32>) -> ()
  return
}
