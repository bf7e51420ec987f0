//===- CPUKernelPasses.td - Kiln CPU kernel generation ----*- tablegen -*-===//
//
// The passes of kiln-linalg-to-llvm-pipeline that turn linalg ops into fast
// loops: math approximation, padding, the depthwise and tiled-and-vectorized
// kernels, weight packing, strided copies and gathers, and the parallel loops
// with their runtime calls. Included by Passes.td (one generated header and
// one pass document for all of Kiln's cross-dialect passes).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_CPUKERNELPASSES_TD
#define KILN_PASSES_CPUKERNELPASSES_TD

include "mlir/Pass/PassBase.td" // Pass, Option, ListOption, Statistic

def KilnCPUApproximateMathPass
    : Pass<"kiln-cpu-approximate-math", "::mlir::func::FuncOp"> {
  let summary = "Expand exp, log and tanh on f32 vectors into polynomial "
                "approximations";
  let description = [{
    Runs after `kiln-cpu-tile-and-vectorize` in `kiln-linalg-to-llvm-pipeline`.
    LLVM has no vector form of `expf`, `logf` or `tanhf` without a vector math
    library, so `convert-math-to-llvm` would turn a `math.exp` on a
    `vector<8xf32>` into eight calls to libm's scalar `expf` (EfficientNetB0
    spent 46% of its run there, in the sigmoid of its swish activations).
    This pass rewrites every `math.exp`, `math.log` and `math.tanh` whose
    result is a vector of f32 with upstream's polynomial approximations
    (`populateMathPolynomialApproximationPatterns`: Cephes' exp and log with a
    range reduction by powers of two, a rational tanh), which are plain
    vector arithmetic. Their fused multiply-adds become `arith.mulf` and
    `arith.addf` marked `contract`, so LLVM emits FMA instructions where the
    target has them and a multiply and an add where it has not, never a libm
    `fmaf` call.

    Scalar math ops (loops that were not vectorized) keep libm's results.
    Accuracy against libm over a sweep of f32 inputs, measured by
    `unittests/target/cpu/TranscendentalAccuracyTest.cpp` through
    `kiln-compile` on this project's AVX-512 machine: exp and log within
    1 ulp (exp within 5 ulp above x = 88.37, where its result passes
    2^127.5), tanh within 5 ulp, the sigmoid `1 / (1 + exp(-x))` within
    4 ulp; infinities, NaNs and signed zeros as libm gives them. exp's
    results below 2^-126 lose precision and are flushed to zero below
    x = -87.7 (libm returns subnormals), and log of a subnormal is that of
    the smallest normal float.

    ```mlir
    // kiln-opt --pass-pipeline='builtin.module(func.func(kiln-cpu-approximate-math))'
    %e = math.exp %v : vector<8xf32>
    // becomes arith/math ops on vector<8xf32>: a clamp, floor(x log2 e + 1/2),
    // x - n ln 2, a degree-6 polynomial, and a multiplication by 2^n built
    // from the exponent bits; no math.exp is left.
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def KilnCPUPadInPlacePass
    : Pass<"kiln-cpu-pad-in-place", "::mlir::func::FuncOp"> {
  let summary = "Build padded tensors around their source's producer, "
                "filling only the border";
  let description = [{
    Runs before `kiln-cpu-tile-and-vectorize` in
    `kiln-linalg-to-llvm-pipeline`. Bufferized as it is, a `tensor.pad` (the
    zero border a convolution with SAME padding reads) allocates the padded
    buffer, fills all of it with the padding value and copies its source
    into the interior: MobileNetV2 spent about 19% of its run in that fill
    and copy before its depthwise convolutions (docs/performance.md).

    This pass rewrites every `tensor.pad` with static shapes, non-negative
    static padding and a constant padding value into a `tensor.empty` of the
    padded shape whose border alone is filled (one `linalg.fill` per side of
    each padded dimension, on slices that do not overlap) and a
    `tensor.insert_slice` of the source into the interior. The empty tensor
    and the fills are placed before the op that produces the source (when it
    is in the same block), so that `eliminate-empty-tensors`, which the
    pipeline runs before bufferization, can replace the `tensor.empty` the
    producer writes into by the interior of the padded tensor: the producer
    (a convolution with its fused bias and activation, say) then stores its
    tiles straight into the padded buffer, and the insert_slice bufferizes
    to nothing. Where that is not possible (the source is a function
    argument), the source is copied into the interior as before, but only
    the border is filled.

    ```mlir
    // kiln-opt --pass-pipeline='builtin.module(func.func(kiln-cpu-pad-in-place))'
    %x = linalg.generic ... outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] { tensor.yield %zero : f32 }
        : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
    // becomes
    %b = tensor.empty() : tensor<1x10x10x4xf32>
    // %border: %b with rows 0 and 9, then columns 0 and 9 of rows 1-8,
    // filled by four linalg.fill on slices of it
    %x = linalg.generic ... outs(%e : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %p = tensor.insert_slice %x into %border[0, 1, 1, 0] [1, 8, 8, 4] [1, 1, 1, 1]
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def KilnCPUDepthwisePass
    : Pass<"kiln-cpu-depthwise", "::mlir::func::FuncOp"> {
  let summary = "Depthwise convolutions as register-tiled vector FMAs over "
                "channel blocks, with the padding in the loop bounds";
  let description = [{
    Runs first among the CPU tiling passes of `kiln-linalg-to-llvm-pipeline`
    (before `kiln-cpu-pad-in-place`). A `linalg.depthwise_conv_2d_nhwc_hwc`
    on f32 tensors of static shape with unit dilation is rewritten, with the
    elementwise consumer `kiln-cpu-tile-and-vectorize` would fuse into it
    (bias, ReLU, ReLU6: arith and math ops), into loops on tensors:

    - output rows, then blocks of `lanes` channels (16: one AVX-512
      register of f32; 8 for AVX2), then tiles of `tile-w` output pixels
      along W. A tile keeps `tile-w` accumulator vectors in registers across
      the filter rows; each filter row loads its KW taps once and each input
      vector once, and every tap is one `vector.fma` per pixel. The consumer
      runs on the accumulators and each output vector is stored once.
    - A zero `tensor.pad` before the convolution (SAME padding) is not
      materialised: the filter rows of an output row are limited to those
      inside the input (loop bounds), the tiles of interior columns read
      every tap, and the few border columns are emitted with the taps that
      fall outside the input left out at compile time.
    - A constant filter [KH, KW, C] is packed at compile time into
      [ceil(C / lanes), KH, KW, lanes] (zero past C), so the taps of one
      channel block are one contiguous block. A last partial channel block
      (C not a multiple of `lanes`) reads and writes with masks.

    Depthwise convolutions this pass does not take (dynamic shapes,
    dilation, other element types) are left to `kiln-cpu-tile-and-vectorize`.

    Before them, a `linalg.conv_2d_nhwc_hwcf` with a single output channel
    (f32, static shapes, unit dilation; a segmentation model's last layer),
    which has no output channels to vectorize over, is rewritten the same
    way with its elementwise consumer: loops over output rows and tiles of
    `tile-w` output pixels, each pixel's accumulator a vector of `lanes`
    input channels (one `vector.fma` per tap and channel block, the lanes
    past C of a last partial block read as zeros), summed across its lanes
    once at the end (a tree of `vector.shuffle`s and adds over the tile's
    accumulators when their count and `lanes` are powers of two, else one
    `vector.reduction` with `reassoc` each); the tile's sums, a
    vector along W, get the accumulator's initial value and the consumer
    (an input indexed by all four loops is read along W, one without W
    broadcast) and are stored once. Its input is read as it is (no padding
    in the loop bounds).

    ```mlir
    // kiln-opt --pass-pipeline='builtin.module(func.func(kiln-cpu-depthwise))'
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] { ... 0.0 }
    %c = linalg.depthwise_conv_2d_nhwc_hwc ins(%p, %w ...) outs(%zeros ...)
    %y = linalg.generic ... ins(%c, %bias ...) { addf, maximumf }
    // becomes
    %packed = arith.constant dense<...> : tensor<2x3x3x16xf32>
    scf.for %oh ... {   // kh from max(0, 1 - oh) to min(3, H + 1 - oh)
      scf.for %block ... {
        scf.for %tile ... {   // 8 accumulators, vector.fma per tap
          scf.for %kh ... { vector.transfer_read ...; vector.fma ... }
          // bias + ReLU on vectors, vector.transfer_write
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect",
  ];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"16",
           "Channels of one vector: 16 f32 for AVX-512, 8 for AVX2">,
    Option<"tileW", "tile-w", "int64_t", /*default=*/"8",
           "Output pixels along W of one register tile">,
  ];
}

def KilnCPULowerStridedCopiesPass
    : Pass<"kiln-cpu-lower-strided-copies", "::mlir::func::FuncOp"> {
  let summary = "Turn memref.copy between strided buffers into linalg.copy";
  let description = [{
    `finalize-memref-to-llvm` lowers a `memref.copy` to `llvm.intr.memcpy`
    only when both buffers are contiguous (an identity layout, or a static
    shape with row-major strides); any other copy (a subview of a padded or
    concatenated buffer, a slice of a dynamic batch) becomes a call to
    `memrefCopy` from MLIR's C runner utilities. A compiled model links
    against the C library only, so this pass rewrites every such copy into a
    `linalg.copy`, which `convert-linalg-to-loops` turns into plain loads
    and stores. Contiguous copies and unranked ones are left alone.

    ```mlir
    // kiln-opt --pass-pipeline='builtin.module(func.func(kiln-cpu-lower-strided-copies))'
    memref.copy %src, %dst : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
    // becomes
    linalg.copy ins(%src : memref<4x4xf32, strided<[8, 1]>>)
                outs(%dst : memref<4x4xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def KilnCPUStridedGathersPass
    : Pass<"kiln-cpu-strided-gathers", "::mlir::func::FuncOp"> {
  let summary = "Give vector.gather on non-contiguous buffers memory offsets";
  let description = [{
    The linalg vectorizer turns a `tensor.extract` at computed indices (a
    gather: GatherV2, GatherNd, resize) into a `vector.gather` whose indices
    are row-major positions in the tensor's shape. `convert-vector-to-llvm`
    adds them to the address of the base element as offsets in memory, which
    is the same only when the buffer is contiguous. A tensor bufferizes to a
    strided buffer when it is a slice (a StridedSlice feeding a gather) or
    is written in place into a larger one; the gather then read the wrong
    elements (facemesh-attention-pinto's landmark gathers, a slice of the
    last axis 3 wide read as if it were 2 wide). This pass rewrites each
    gather on a buffer with a non-contiguous strided layout: the position
    `linear(offsets) + indices` is split into coordinates by the buffer's
    sizes, the new indices are `sum(coordinate_d * stride_d)` and the
    offsets zero. Gathers on contiguous buffers are left alone.

    ```mlir
    // kiln-opt --pass-pipeline='builtin.module(func.func(kiln-cpu-strided-gathers))'
    %g = vector.gather %s[%c0, %c0] [%i], %m, %p
        : memref<8x2xf32, strided<[3, 1]>>, vector<4xindex>, vector<4xi1>,
          vector<4xf32> into vector<4xf32>
    // becomes, with %i = 2 * row + column:
    // %off = (%i / 2) * 3 + (%i % 2) * 1, vector.gather %s[%c0, %c0] [%off]
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def KilnCPUPackWeightsPass
    : Pass<"kiln-cpu-pack-weights", "::mlir::func::FuncOp"> {
  let summary = "Pack constant convolution filters and matmul weights into "
                "panels of output channels, at compile time";
  let description = [{
    Runs before `kiln-cpu-tile-and-vectorize` in
    `kiln-linalg-to-llvm-pipeline`. A `linalg.conv_2d_nhwc_hwcf` whose filter
    [KH, KW, C, F] is a constant, or a `linalg.matmul` (untransposed) whose
    right-hand side [K, N] is a constant, with static shapes and at least
    `tile-n` output channels, gets its weights rewritten at compile time as
    [ceil(F / tile-n), KH, KW, C, tile-n] (or [ceil(N / tile-n), K, tile-n]):
    panel p holds output channels p * tile-n to p * tile-n + tile-n - 1,
    zero-padded past F, and is one contiguous block. The op, together with
    the elementwise consumer `kiln-cpu-tile-and-vectorize` would fuse into it
    (bias, activation, residual add) and the `linalg.fill` of its
    accumulator, is tiled over panels: each iteration reads its weights as a
    rank-reduced slice of one panel, so the register tiles made inside read
    tile-k rows of tile-n channels that are adjacent in memory, instead of
    rows F channels apart (a page apart for wide filters). A last partial
    panel is peeled into an iteration of its own with static sizes.

    The panel loop's place follows the filter's size: a filter of at most
    `cache-bytes` stays cached while the output rows walk over it, so the
    rows stay outermost (loops N, OH, panel); a larger one (ResNet50's 3x3
    512->512 filter is 9.4 MB) would be streamed again for every output
    row, so the panels become the outermost loop and each panel is read
    once for all rows. A matmul's panel loop is its outermost loop, and a
    matmul of fewer than `tile-m` rows (a batch-1 classifier) gets panels as
    wide as the register tile `kiln-cpu-tile-and-vectorize` gives it
    (`tile-n` times `tile-m` / M, at most 4 `tile-n`).

    ```mlir
    // kiln-opt --pass-pipeline='builtin.module(func.func(kiln-cpu-pack-weights{tile-n=32}))'
    %w = arith.constant dense<...> : tensor<1x1x64x96xf32>
    %0 = linalg.conv_2d_nhwc_hwcf ins(%x, %w : tensor<1x8x8x64xf32>, tensor<1x1x64x96xf32>)
           outs(%acc : tensor<1x8x8x96xf32>) -> tensor<1x8x8x96xf32>
    // becomes
    %p = arith.constant dense<...> : tensor<3x1x1x64x32xf32>
    %0 = scf.for %n = %c0 to %c1 step %c1 iter_args(...) {
      scf.for %oh ... {
        scf.for %f = %c0 to %c96 step %c32 iter_args(...) {
          %panel = tensor.extract_slice %p[%f floordiv 32, 0, 0, 0, 0] [1, 1, 1, 64, 32] [1, 1, 1, 1, 1]
                     : tensor<3x1x1x64x32xf32> to tensor<1x1x64x32xf32>
          // conv of the row's input with %panel into a 1x1x8x32 tile
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"8",
           "kiln-cpu-tile-and-vectorize's tile-m: a matmul with fewer rows "
           "gets the wider panels of its wider register tile">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"32",
           "Output channels of one panel: kiln-cpu-tile-and-vectorize's "
           "tile-n">,
    Option<"cacheBytes", "cache-bytes", "int64_t", /*default=*/"524288",
           "Largest filter (in bytes) whose output rows stay the outermost "
           "loop; larger ones are walked panel by panel">,
  ];
}

def KilnCPUTileAndVectorizePass
    : Pass<"kiln-cpu-tile-and-vectorize", "::mlir::func::FuncOp"> {
  let summary = "Tile linalg ops on tensors to register tiles and vectorize "
                "them for the host CPU";
  let description = [{
    The CPU code generation step of `kiln-linalg-to-llvm-pipeline`. It runs on
    tensors, before bufferization, and turns each linalg op into loops over
    register-sized tiles whose bodies are `vector` ops:

    - **Contractions** (`linalg.matmul`, `linalg.batch_matmul`, and any
      `linalg.generic` that is a contraction): the innermost M and N dims
      are tiled to `tile-m` x `tile-n`, the innermost K dim to `tile-k`,
      other dims to 1; with fewer than `tile-m` rows (a batch-1
      matrix-vector product) the N tile is `tile-n` times `tile-m` / M, at
      most 4 `tile-n`, so that it keeps several independent accumulators.
      An output whose channels are not a multiple of `tile-n` (a partial N
      tile) gets a K tile of at least 16: a K tile of 4, the pipeline's
      default, made a 1x1 convolution to 24 channels 2.6x slower.
      The tile is vectorized to `vector.contract` and
      lowered to `vector.fma` outer products; the accumulator tile stays in
      registers across the K loop.
    - **Convolutions and pooling** (`linalg.conv_2d_nhwc_hwcf`,
      `linalg.depthwise_conv_2d_nhwc_hwc`, `linalg.pooling_nhwc_{max,sum}`):
      OH and KH are tiled to 1, OW to `tile-m`, the output channels to
      `tile-n` and the input channels of a convolution to `tile-k`. Each tile
      is decomposed into a 1-D convolution (or 1-D pooling) and vectorized.
    - **Consumers**: a heavy op whose only use is an elementwise op over its
      result (bias add, ReLU, ... after `linalg-fuse-elementwise-ops`) is
      tiled through that consumer: the tile of the heavy op, the
      `linalg.fill` of its accumulator and the consumer run in one loop nest,
      so the result is written once.
    - **Elementwise ops** (all loops parallel) and reductions: the loop that
      walks the innermost output dim is tiled to `vector-width`, others to 1.

    Tile loops whose trip does not divide evenly are peeled: the main loop has
    static tiles and vectorizes fully. With static shapes the last tile is
    static too (a 13x37 matmul gets 8x32, 8x5, 5x32 and 5x5 tiles). With
    dynamic shapes it is vectorized with masks to the tile's upper bound where
    upstream supports it (contractions, elementwise ops, reductions): masked
    reads pad with zeros, so the contraction itself runs unmasked. Other
    partial tiles (1-D convolutions of dynamic width) stay smaller linalg ops,
    which the pipeline lowers to loops. Ops the pass does not recognise get
    the elementwise tiling and are vectorized when upstream can; a
    `tensor.extract` in a body (a gather: resize, embedding lookup) becomes
    `vector.gather`, or a plain read where the indices are contiguous.

    ```mlir
    // kiln-opt --pass-pipeline='builtin.module(func.func(kiln-cpu-tile-and-vectorize))'
    %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>)
                       outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
    // becomes scf.for loops over 8x32 tiles of %c and 16-wide K steps,
    // whose body is vector.transfer_read + vector.fma + vector.transfer_write
    ```

    Defaults: `vector-width` 8 is AVX2's 8 x f32. The 8x32 accumulator tile
    fits the 16 zmm registers of AVX-512 hosts (the machine the numbers in
    docs/performance.md come from); an AVX2-only host needs 32 ymm registers
    for it, so LLVM spills part of it there and `tile-n=16` fits instead.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect", "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::vector::VectorDialect",
  ];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"8",
           "Elements of one vector register: the tile of the innermost dim "
           "of elementwise ops">,
    Option<"tileM", "tile-m", "int64_t", /*default=*/"8",
           "Register tile of a contraction's M dim and of a convolution's "
           "OW dim">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"32",
           "Register tile of a contraction's N dim and of a convolution's "
           "output channels">,
    Option<"tileK", "tile-k", "int64_t", /*default=*/"16",
           "Tile of a contraction's K dim and of a convolution's input "
           "channels">,
    Option<"fuseConsumers", "fuse-consumers", "bool", /*default=*/"true",
           "Tile an elementwise consumer together with the contraction or "
           "convolution it reads">,
  ];
}

def KilnCPUParallelizeLoopsPass
    : Pass<"kiln-cpu-parallelize-loops", "::mlir::func::FuncOp"> {
  let summary = "Turn tile loops that write disjoint slabs of their tensor "
                "into scf.forall";
  let description = [{
    Runs on tensors after `kiln-cpu-tile-and-vectorize` in
    `kiln-linalg-to-llvm-pipeline`. The outermost loop of a tiled op is an
    `scf.for` that threads the op's result through its one iteration
    argument and writes a tile of it per iteration. When every access to
    that tensor in the body (`vector.transfer_write`/`_read`,
    `tensor.insert_slice`/`extract_slice`, and nested `scf.for` loops over
    it) is at the loop's induction variable along one dim, at most `step`
    elements wide there, the iterations write disjoint slabs and read only
    their own: the loop becomes an `scf.forall` whose iterations take their
    slab with `tensor.extract_slice`, work on it with the accesses along that
    dim rebased to 0, and write it back with `tensor.parallel_insert_slice`.

    Loops with less work than `min-work` (elements computed by the body's
    ops, nested static loops counted by their trips, times the loop's trip
    count) stay sequential, as do loops over reduction dims (their accesses
    are not at the induction variable) and loops of one iteration. A loop
    that stays sequential is searched for parallel loops inside it.

    ```mlir
    %r = scf.for %i = %c0 to %c14 step %c1 iter_args(%t = %init) -> (tensor<14x32xf32>) {
      %v = ... : vector<1x32xf32>
      %w = vector.transfer_write %v, %t[%i, %c0] : vector<1x32xf32>, tensor<14x32xf32>
      scf.yield %w : tensor<14x32xf32>
    }
    // becomes
    %r = scf.forall (%i) = (0) to (14) step (1) shared_outs(%o = %init) -> (tensor<14x32xf32>) {
      %s = tensor.extract_slice %o[%i, 0] [1, 32] [1, 1] : tensor<14x32xf32> to tensor<1x32xf32>
      %w = vector.transfer_write %v, %s[%c0, %c0] : vector<1x32xf32>, tensor<1x32xf32>
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %w into %o[%i, 0] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<14x32xf32>
      }
    }
    ```
    Every iteration computes what it computed in the loop, so the results do
    not depend on how many threads run it.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"65536",
           "Least work (elements computed) for a loop to run in parallel">,
  ];
  let statistics = [
    Statistic<"numParallelized", "num-parallelized",
              "Loops turned into scf.forall">,
  ];
}

def KilnCPUParallelTemporariesPass
    : Pass<"kiln-cpu-parallel-temporaries", "::mlir::func::FuncOp"> {
  let summary = "Put small buffers made in a parallel loop's iterations on "
                "the stack";
  let description = [{
    Runs after bufferization and before `kiln-cpu-plan-buffers` in
    `kiln-linalg-to-llvm-pipeline`. A `memref.alloc` inside an `scf.forall`
    (a tile's temporary) of static shape and identity layout, at most
    `max-bytes` large, whose buffer does not leave the block it is made in
    (not yielded, returned, passed to a call, freed or turned into a
    tensor), becomes a `memref.alloca`: each iteration, on whichever thread,
    has its own without calling malloc, and `kiln-cpu-caller-buffers` can
    still give the entry its allocation-free variant.

    ```mlir
    scf.forall (%i) in (16) {
      %t = memref.alloc() {alignment = 64 : i64} : memref<1x32xf32>
      ...
    }
    // becomes
    scf.forall (%i) in (16) {
      %t = memref.alloca() {alignment = 64 : i64} : memref<1x32xf32>
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"65536",
           "Largest buffer put on the stack">,
  ];
  let statistics = [
    Statistic<"numOnStack", "num-on-stack", "Buffers put on the stack">,
  ];
}

def KilnCPUParallelLoopsToRuntimePass
    : Pass<"kiln-cpu-parallel-loops-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Outline each scf.forall on buffers and run it through "
                "kiln_cpu_parallel_for";
  let description = [{
    Runs on buffers in `kiln-linalg-to-llvm-pipeline`, after the linalg ops
    are loops and before `scf` becomes control flow. Each outermost
    `scf.forall` of a `func.func` becomes:

    - `func.func private @<func>_parallel<k>(%ctx: !llvm.ptr, %begin: i64,
      %end: i64)` (internal linkage), which runs the forall's iterations
      `[begin, end)` (all its
      dims linearized, row-major) with an `scf.for`. Constants are rebuilt
      in it; every other value it reads from around the forall is a field of
      an LLVM struct that `%ctx` points to, in its LLVM form (a memref
      descriptor, `i64` for `index`), turned back with
      `builtin.unrealized_conversion_cast` (the casts reconcile once the
      module is in the llvm dialect). Its stack buffers without operands
      move to its entry block, reserved once per call.
    - at the forall: the struct, stored to an `llvm.alloca` at the caller's
      entry, and a call `kiln_cpu_parallel_for(@<func>_parallel<k>, ctx,
      iterations)` to Kiln's CPU thread runtime
      (`runtime/cpu/threads/ThreadPool.h`), which runs chunks of the
      iterations on the calling thread's pool.

    `kiln_cpu_parallel_for` is declared `extern_weak`: a program that does
    not link the runtime resolves it to null, and the caller then calls the
    body for all iterations itself. A kiln-compile'd object thus still needs
    only the C library; linked with `libkiln-cpu-threads` and given a pool,
    it runs its parallel loops on the pool's threads.

    ```mlir
    scf.forall (%i) in (16) {
      ... %buf[%i] ...
    }
    // becomes
    %ctx = llvm.alloca %c1 x !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)> : (i64) -> !llvm.ptr
    ...
    %f = llvm.mlir.addressof @kiln_cpu_parallel_for : !llvm.ptr
    %linked = llvm.icmp "ne" %f, %null : !llvm.ptr
    scf.if %linked {
      llvm.call @kiln_cpu_parallel_for(%body, %ctx, %c16) : (!llvm.ptr, !llvm.ptr, i64) -> ()
    } else {
      func.call @f_parallel0(%ctx, %c0, %c16) : (!llvm.ptr, i64, i64) -> ()
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::memref::MemRefDialect",
  ];
  let statistics = [
    Statistic<"numOutlined", "num-outlined",
              "Parallel loops run through the thread runtime">,
  ];
}

#endif // KILN_PASSES_CPUKERNELPASSES_TD
