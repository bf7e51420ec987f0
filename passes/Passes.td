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
include "CPUKernelPasses.td"    // the CPU kernel-generation passes

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
