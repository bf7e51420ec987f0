//===- Passes.td - Kiln cross-dialect passes ---------------*- tablegen -*-===//
//
// Passes that span dialects or mark a stage boundary (contract verifiers,
// partitioning, cleanup). Passes that touch one dialect live beside it in
// dialects/<D>/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_PASSES_TD
#define KILN_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass, Option, ListOption, Statistic

def KilnVerifyLLVMContractPass
    : Pass<"kiln-verify-llvm-contract", "::mlir::ModuleOp"> {
  let summary = "Check that a module is ready for LLVM IR translation";
  let description = [{
    The boundary check at the end of every pipeline that lowers to the LLVM
    dialect. It fails if any operation other than `builtin.module` is left
    outside the `llvm` dialect (plus the dialects named in
    `extra-legal-dialects`), and reports every such operation with its name
    and location, so a user sees the whole list at once rather than the first
    failure of `mlir-translate --mlir-to-llvmir`.

    ```mlir
    // kiln-opt --kiln-verify-llvm-contract
    module {
      llvm.func @f() {
        // error: 'arith.constant' is not in the llvm dialect ...
        %0 = arith.constant 0 : i32
        llvm.return
      }
    }
    ```

    `builtin.unrealized_conversion_cast` is reported like any other operation:
    one left over means two lowerings disagree on a type.

    A compiled model is an object file that links against the C library and
    libm only. So a `llvm.call` to a function the module only declares is an
    error unless the function is one of those libraries' (`malloc`, `free`,
    `memcpy`, `expf`, ...) or is named in `extra-external-functions`; the
    error names the function. This catches, for example, `memrefCopy` from
    MLIR's C runner utilities, which a strided `memref.copy` lowers to.
  }];
  let options = [
    ListOption<"extraLegalDialects", "extra-legal-dialects", "std::string",
               "Dialects accepted besides llvm (e.g. omp for OpenMP)">,
    ListOption<"extraExternalFunctions", "extra-external-functions",
               "std::string",
               "Functions a call may reach outside the module besides the C "
               "library and libm ones (e.g. a runtime the program links)">,
  ];
}

def KilnCPUResolveDimsPass
    : Pass<"kiln-cpu-resolve-dims", "::mlir::func::FuncOp"> {
  let summary = "Express the sizes of tiled tensors by the function's "
                "arguments";
  let description = [{
    Runs after `kiln-cpu-tile-and-vectorize`, before bufferization. With a
    dynamic size (a model's batch), every tile loop nest takes its bounds
    from `tensor.dim` of the previous nest's result. One-shot bufferization
    asks `ValueBoundsConstraintSet` whether an `extract_slice` and an
    `insert_slice` cover the same tile; to answer, it follows each such
    `tensor.dim` back through every earlier loop nest, proving at each
    `scf.for` that its result keeps its init's size with a nested query,
    and the cost grows with the depth of the model: mobilefacenet's dynamic
    batch did not compile in ten minutes.

    This pass rewrites `tensor.dim` of a value written in place (an
    `scf.for` result or iteration argument whose loop yields that argument
    written by `vector.transfer_write`, `tensor.insert_slice`,
    destination-style ops or nested such loops; a destination-style op's
    result; `vector.transfer_write`'s result) to `tensor.dim` of the tensor
    written into, and resolves `tensor.empty`, `tensor.pad` and other
    reifiable results to their operands' sizes. After CSE every batch size is
    one `tensor.dim` of a function argument, so the analysis stops there.

    ```mlir
    // kiln-opt --pass-pipeline='builtin.module(func.func(kiln-cpu-resolve-dims))'
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %init) -> (tensor<?x8xf32>) {
      %w = vector.transfer_write %v, %t[%i, %c0] : vector<1x8xf32>, tensor<?x8xf32>
      scf.yield %w : tensor<?x8xf32>
    }
    %d = tensor.dim %r, %c0 : tensor<?x8xf32>
    // becomes
    %d = tensor.dim %init, %c0 : tensor<?x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::tensor::TensorDialect"];
}

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

def KilnCPUOutlineLayersPass
    : Pass<"kiln-cpu-outline-layers", "::mlir::ModuleOp"> {
  let summary = "Outline each top-level loop nest of a large function into its own function";
  let description = [{
    After tiling and bufferization a model is one function whose body is a
    sequence of loop nests, one (or one fused group) per layer. Left as one
    function, everything after this point works on all of it at once: LLVM's
    loop passes update analyses of the whole function for every loop they
    touch (LoopRotate's MemorySSA updates compute dominance frontiers of
    the whole function), which made MAXIM's 1.2 M-instruction function run
    for over 20 minutes in O3. This pass moves every top-level operation
    with regions (an `scf.for` nest, an `scf.while`, a remaining linalg op)
    of a function that has at least `min-ops` operations into a private
    function of its own, `<function>_layer<N>`, whose arguments are the
    values it uses from outside (buffers, sizes; index constants are
    cloned in). The new functions have internal linkage and `noinline`, so
    LLVM optimizes and generates code per layer, and MLIR's function passes
    after this one run on them in parallel. Functions with fewer than
    `min-ops` operations, and region operations with fewer than
    `min-layer-ops` operations, stay as they are, and so does a function
    that is one loop nest (a layer outlined by an earlier run).

    ```mlir
    // kiln-opt --kiln-cpu-outline-layers="min-ops=0 min-layer-ops=0"
    func.func @model(%a: memref<64xf32>, %b: memref<64xf32>) {
      scf.for %i = %c0 to %c64 step %c8 { ... %a ... %b ... }
      scf.for %i = %c0 to %c64 step %c8 { ... %b ... }
      return
    }
    // becomes
    func.func @model(%a: memref<64xf32>, %b: memref<64xf32>) {
      call @model_layer0(%a, %b) : (memref<64xf32>, memref<64xf32>) -> ()
      call @model_layer1(%b) : (memref<64xf32>) -> ()
      return
    }
    func.func private @model_layer0(%a: memref<64xf32>, %b: memref<64xf32>)
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["noinline"]} { scf.for ... }
    ```

    With `chunk-ops` above 0, what is left of the function after that
    (small loops, whole small tensors computed by unrolled vector ops with
    no loop around them, the calls of the layers) is cut into runs of at
    most `chunk-ops` operations (nested ones included), each outlined the
    same way into `<function>_chunk<N>`, whose results are the values used
    after it. Constants are cloned into the chunks that use them; allocas
    stay in the function (their buffers must outlive the chunk that uses
    them) and end a chunk that computes their sizes. Runs of fewer than
    `min-layer-ops` operations stay. `kiln-linalg-to-llvm-pipeline` runs
    the pass twice: for the layers after bufferization, and with chunks
    once the loops and unrolled vector code are explicit (`scf`), where the
    number of operations tells the size of the code; MAXIM's entry had kept
    about 4,000 small loops and 91,000 LLVM operations, on which LLVM's
    ScalarEvolution answered each loop's guard queries by walking back over
    all the code before it.
  }];
  let options = [
    Option<"minOps", "min-ops", "int64_t", "2000",
           "Outline only in functions with at least this many operations">,
    Option<"minLayerOps", "min-layer-ops", "int64_t", "16",
           "Outline only region operations, and chunks, with at least this "
           "many operations">,
    Option<"chunkOps", "chunk-ops", "int64_t", "0",
           "Outline what is left between the layers in chunks of at most "
           "this many operations; 0 leaves it in the function">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def KilnNPUSegmentsToHostCallsPass
    : Pass<"kiln-npu-segments-to-host-calls", "::mlir::ModuleOp"> {
  let summary = "Compile each NPU segment to a command stream the host code runs";
  let description = [{
    Connects the two halves `convert-tf-to-npu` leaves. Each function with a
    `kiln.npu_nodes` attribute and npu ops in its body (an outlined NPU
    segment) is cloned into a scratch module, lowered there with
    `kiln-npu-to-npuhw-pipeline` and serialized to `.npub` bytes
    (`target/npu`). In the host module the bytes become a private constant
    `memref.global @<segment>_npub` (64-byte aligned) and the segment's name
    a NUL-terminated `@<segment>_name`, and the segment's body is replaced by
    a call to the runtime entry of `runtime/npu/HostCall.h`:

    ```c
    int32_t kiln_npu_run(const char *segment, const uint8_t *npub,
                         int64_t npubBytes, const KilnNpuBuffer *inputs,
                         int64_t numInputs, const KilnNpuBuffer *outputs,
                         int64_t numOutputs); // KilnNpuBuffer: {data, bytes}
    ```

    Arguments are read through `bufferization.to_buffer`, results are fresh
    `memref.alloc`s returned through `bufferization.to_tensor`, and the
    buffers' addresses (`memref.extract_aligned_pointer_as_index`) and byte
    sizes are stored into stack arrays, so the function goes through
    `kiln-tf-to-cpu-pipeline` like any other; the lowered code calls
    `kiln_npu_run` (pass it to `external-functions`). The stream's input
    IOs bind to the arguments and its output IOs to the results, in order;
    the pass checks that their counts and byte sizes agree.

    ```mlir
    func.func private @npu_conv(%a: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
        attributes {kiln.npu_nodes = ["conv"], npu.target = #npu.target<"default">} {
      %h = npu.convert %a : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf16>
      ...
    }
    // becomes
    memref.global "private" constant @npu_conv_npub : memref<NNNxi8> = dense<...>
    func.func private @npu_conv(%a: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
        attributes {kiln.npu_nodes = ["conv"], kiln.npu_stream = @npu_conv_npub} {
      ... %rc = call @kiln_npu_run(...) ...
    }
    ```

    A segment that does not lower is an error on the segment (after the
    lowering's own diagnostics); `npub-dir` also writes each stream to
    `DIR/<segment>.npub` (for `kiln-npu-sim`).
  }];
  let options = [
    Option<"npubDir", "npub-dir", "std::string", /*default=*/"\"\"",
           "Also write each segment's stream to DIR/<segment>.npub">,
  ];
  let statistics = [
    Statistic<"numSegments", "num-segments", "NPU segments compiled">,
    Statistic<"numStreamBytes", "num-stream-bytes",
              "Bytes of .npub embedded in the module">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::kiln::npuhw::NPUHWDialect"];
}

def KilnCPUEntryABIPass : Pass<"kiln-cpu-entry-abi", "::mlir::ModuleOp"> {
  let summary = "Give a model's entry function its C ABI and make the rest private";
  let description = [{
    Prepares a module that holds one compiled model for linking into a
    program next to other models. The function named `entry` is renamed to
    `symbol` (when given) and marked `llvm.emit_c_interface`, so the object
    file has `_mlir_ciface_<symbol>`: feeds are passed as pointers to
    memref descriptors in argument order, and fetches come back through a
    pointer to one descriptor (or a struct of descriptors, in result order)
    whose buffers the caller owns and frees. Mutable `memref.global`s (the
    model's variables) are renamed `<symbol>_var_<name>` and stay public, so
    the program can read and initialize the state. Every other function and
    global becomes private (internal linkage), so two models with different
    symbols link into one program.

    With `entries`, the model has several entries that share its variables
    (an init and a step of a stateful model): each listed function `e` is
    renamed `<symbol>_<e>` and given its C interface, `entry` is not used,
    and the variables are `<symbol>_var_<name>` as above.

    A missing entry function is an error that lists the functions there are.

    ```mlir
    // kiln-opt --kiln-cpu-entry-abi="entry=main symbol=mymodel_run"
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> { ... }
    // becomes
    func.func @mymodel_run(%x: tensor<2xf32>) -> tensor<2xf32>
        attributes {llvm.emit_c_interface} { ... }
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Function compiled as the model's entry">,
    Option<"symbol", "symbol", "std::string", /*default=*/"\"\"",
           "Symbol name of the compiled entry (default: the entry's name)">,
    ListOption<"entries", "entries", "std::string",
               "Several entries sharing the variables, each compiled as "
               "<symbol>_<entry> (replaces `entry`; needs `symbol`)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
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

def KilnCPUPlanBuffersPass
    : Pass<"kiln-cpu-plan-buffers", "::mlir::func::FuncOp"> {
  let summary = "Pack a function's buffers into one allocation by their "
                "live ranges";
  let description = [{
    Runs after bufferization and before buffer deallocation in
    `kiln-linalg-to-llvm-pipeline`. Every `memref.alloc` at the top level of
    a function whose type is static (identity layout, default memory space,
    elements of whole bytes) and that does not escape (no alias of it is
    returned, passed to a call, deallocated or turned back into a tensor;
    aliases from `BufferViewFlowAnalysis`) gets a live range: from its
    position in the function's body to the last top-level op that uses it or
    an alias (a loop using it counts as a whole). The buffers are placed,
    largest first, at the lowest `alignment`-aligned offset that no buffer
    live at the same time uses, in one `memref.alloc` of i8 at the start of
    the function; each becomes a `memref.view` of it. Buffer deallocation
    then frees that one allocation at the end.

    A model run thus makes one large allocation instead of one per
    intermediate tensor, and touches only as many fresh pages as the largest
    set of tensors live at once: on a model such as MobileNetV2 most of the
    run time had been the kernel's page faults and zeroing for buffers
    `malloc` took from the system (docs/performance.md). The function stays
    reentrant: the arena belongs to the call.

    ```mlir
    %a = memref.alloc() : memref<1024xf32>   // used by ops 1-2
    %b = memref.alloc() : memref<1024xf32>   // used by ops 2-3
    %c = memref.alloc() : memref<1024xf32>   // used by ops 3-4
    // becomes
    %arena = memref.alloc() {alignment = 64 : i64} : memref<8192xi8>
    %a = memref.view %arena[%c0][] : memref<8192xi8> to memref<1024xf32>
    %b = memref.view %arena[%c4096][] : memref<8192xi8> to memref<1024xf32>
    %c = memref.view %arena[%c0][] : memref<8192xi8> to memref<1024xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
  ];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "Alignment in bytes of the arena and of every buffer in it">,
  ];
  let statistics = [
    Statistic<"numPlanned", "num-planned", "Buffers placed in an arena">,
    Statistic<"arenaSize", "arena-bytes", "Bytes of the arenas made">,
  ];
}

def KilnReportUnsupportedOpsPass
    : Pass<"kiln-report-unsupported-ops", "::mlir::ModuleOp"> {
  let summary = "List every op that no Kiln backend lowers, with node names";
  let description = [{
    The input-legality check at the head of code generation: every
    operation left that no backend lowers is reported at once, one error
    each, naming the op and the TensorFlow node it came from (the node name
    of its location), followed by a count. Unsupported are `tf` ops for
    which `convert-tf-to-linalg` has no pattern and any `tf_executor` op
    (run `kiln-tf-graph-pipeline` first). The pass fails when there is one,
    so a pipeline stops before lowering anything.

    ```mlir
    // kiln-opt --kiln-report-unsupported-ops
    %0 = "tf.SomeUnknownOp"(%x) : (tensor<2xi32>) -> tensor<2xi32> loc("z")
    // error: node 'z': 'tf.SomeUnknownOp' has no lowering on any backend (cpu)
    ```
  }];
}

def KilnCPUCallerBuffersPass
    : Pass<"kiln-cpu-caller-buffers", "::mlir::ModuleOp"> {
  let summary = "Give each statically shaped entry a variant that writes "
                "into caller-provided buffers and allocates nothing";
  let description = [{
    Runs after bufferization and `kiln-cpu-plan-buffers`, before buffer
    deallocation, in `kiln-linalg-to-llvm-pipeline`. For every entry (a
    public `func.func` with `llvm.emit_c_interface` whose arguments and
    results are memrefs of static shape), the body moves into
    `@<entry>_with_buffers(feeds..., fetches..., arena)`, which returns
    nothing:

    - each result that a top-level `memref.alloc` of the result's type made
      becomes the fetch argument (the model writes into the caller's
      buffer); any other result (an input, a constant, a second use of one
      buffer) is copied into its fetch argument;
    - every other top-level `memref.alloc` (the arena of
      `kiln-cpu-plan-buffers`, buffers it leaves out such as i1 ones), and
      every one inside a sequential loop or branch whose buffer does not
      leave its block (a tile's temporary, made again by each iteration),
      moves into the `arena` argument, a `memref<Nxi8>`, at its own 64-byte
      aligned offset: views of an i8 buffer are rebased, other buffers become
      `memref.view`s of the arena.

    The entry itself becomes the allocating layer: it allocates the results
    and the arena, calls `@<entry>_with_buffers` and returns the results, so
    its C interface is unchanged (buffer deallocation frees the arena after
    the call). The arena size N (bytes) and the sum of
    the sizes of the buffers placed in it are recorded in the module
    attribute `kiln.arena = {<entry> = [N, sum]}` for the header.

    An entry with a dynamic shape, a dynamically sized allocation, one that
    leaves the loop or branch it is made in (or sits in a parallel loop), or
    a call to a function of the module that allocates keeps its allocating
    body and gets no variant.

    ```mlir
    func.func @m(%x: memref<4xf32>) -> memref<4xf32> {
      %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
      ...
      %r = memref.alloc() : memref<4xf32>
      ...
      return %r : memref<4xf32>
    }
    // becomes
    func.func @m_with_buffers(%x: memref<4xf32>, %out0: memref<4xf32>,
                              %arena: memref<128xi8>) {
      ... (writes %out0, views of %arena)
      return
    }
    func.func @m(%x: memref<4xf32>) -> memref<4xf32> {
      %r = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
      %a = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
      call @m_with_buffers(%x, %r, %a)
      return %r : memref<4xf32>  // buffer deallocation frees %a before

    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
  ];
  let statistics = [
    Statistic<"numEntries", "num-entries",
              "Entries given a caller-buffers variant">,
  ];
}

def KilnCPURuntimeChecksPass
    : Pass<"kiln-cpu-runtime-checks", "::mlir::ModuleOp"> {
  let summary = "Turn an entry's run-time checks into a status-returning "
                "check function";
  let description = [{
    Runs on tensors, before bufferization, in
    `kiln-linalg-to-llvm-pipeline`. A `cf.assert` aborts the process (without
    printing its message once lowered to LLVM), so a model whose dynamic
    input breaks a run-time check (a squeezed dimension that is not 1, a
    spatial dimension that a block size does not divide) would kill the
    program that called it. For every entry (a public `func.func` with
    `llvm.emit_c_interface`), this pass moves each `cf.assert` at the top
    level of its body into a new function `@<entry>_check` with the entry's
    argument types, the same C interface and an `i32` result: 0 when every
    check holds, otherwise 1 + the index of the first that fails. The checks
    are evaluated in their original order, each inside an `scf.if` of the
    ones before it, from copies of the scalar ops that compute their
    conditions (sizes of the arguments, index arithmetic); sizes of computed
    tensors are first resolved to the arguments' (as
    `kiln-cpu-resolve-dims` does). The check function reads only sizes: it
    allocates nothing and touches no data, so a caller runs it first and
    calls the entry only when it returns 0; the entry keeps no assertion.

    The messages, each followed by the TensorFlow node the check came from
    (`kiln::tf::nodeName` of its location), are recorded in the module
    attribute `kiln.runtime_checks`, a dictionary from entry name to an
    array of strings indexed by status - 1; the header generator and the
    JIT report them.

    A check whose condition needs a computed value (a tensor's contents, a
    loop's iteration), or that sits in a loop or a callee, cannot be moved:
    it stays a `cf.assert` and the pass warns, naming it; with `strict` the
    pass fails instead.

    ```mlir
    func.func @f(%x: tensor<?x?xf32>) -> tensor<?xf32>
        attributes {llvm.emit_c_interface} {
      %c1 = arith.constant 1 : index
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %ok = arith.cmpi eq, %d, %c1 : index
      cf.assert %ok, "tf.Squeeze: squeezed dimension 1 must have size 1"
      ...
    }
    // gains
    func.func @f_check(%x: tensor<?x?xf32>) -> i32
        attributes {llvm.emit_c_interface} {
      %c1 = arith.constant 1 : index
      %d = tensor.dim %x, %c1 : tensor<?x?xf32>
      %ok = arith.cmpi eq, %d, %c1 : index
      %status = scf.if %ok -> (i32) { scf.yield %c0_i32 : i32 }
                else { scf.yield %c1_i32 : i32 }
      return %status : i32
    }
    ```
  }];
  let options = [
    Option<"strict", "strict", "bool", /*default=*/"false",
           "Fail on a check that cannot be moved instead of keeping it as "
           "cf.assert with a warning">,
  ];
  let statistics = [
    Statistic<"numChecks", "num-checks", "Run-time checks moved">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // KILN_PASSES_PASSES_TD
