//===- Pipelines.h - Kiln's named pass pipelines ----------------*- C++ -*-===//
//
// Every named pipeline has one options struct and one build function. The
// command-line registration (kiln-opt --<name>) and the AOT driver both call
// the build function, so there is exactly one list of passes per pipeline.
// docs/pipelines.md lists each pipeline as its passes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_PIPELINES_H
#define KILN_PASSES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace kiln {

/// Options of `kiln-linalg-to-llvm-pipeline`.
struct LinalgToLLVMPipelineOptions
    : public mlir::PassPipelineOptions<LinalgToLLVMPipelineOptions> {
  Option<bool> verifyContract{
      *this, "verify-contract",
      llvm::cl::desc("End with kiln-verify-llvm-contract"),
      llvm::cl::init(true)};
  ListOption<std::string> externalFunctions{
      *this, "external-functions",
      llvm::cl::desc("Functions the lowered code may call besides the C "
                     "library and libm ones (kiln-verify-llvm-contract's "
                     "extra-external-functions), e.g. MLIR's runner utilities "
                     "for printMemrefF32")};
  Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse chains of elementwise linalg.generic ops on "
                     "tensors (linalg-fuse-elementwise-ops)"),
      llvm::cl::init(true)};
  Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Tile and vectorize with kiln-cpu-tile-and-vectorize "
                     "(false: every linalg op becomes scalar loops)"),
      llvm::cl::init(true)};
  Option<int64_t> vectorWidth{
      *this, "vector-width",
      llvm::cl::desc("kiln-cpu-tile-and-vectorize's vector-width"),
      llvm::cl::init(8)};
  Option<int64_t> tileM{*this, "tile-m",
                        llvm::cl::desc("kiln-cpu-tile-and-vectorize's tile-m"),
                        llvm::cl::init(8)};
  Option<int64_t> tileN{*this, "tile-n",
                        llvm::cl::desc("kiln-cpu-tile-and-vectorize's tile-n"),
                        llvm::cl::init(32)};
  // 4, not the pass's 16: a 16 x 32 weight tile is 32 zmm registers
  // beside the 16 of the accumulator, so LLVM spilled part of it to the
  // stack in every K step (docs/performance.md, register tiles).
  Option<int64_t> tileK{*this, "tile-k",
                        llvm::cl::desc("kiln-cpu-tile-and-vectorize's tile-k"),
                        llvm::cl::init(4)};
  Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Expand exp, log and tanh on f32 vectors into polynomial "
                     "approximations instead of a libm call per element "
                     "(kiln-cpu-approximate-math)"),
      llvm::cl::init(true)};
  Option<bool> depthwise{
      *this, "depthwise",
      llvm::cl::desc("Depthwise convolutions as register-tiled vector FMAs "
                     "over channel blocks, padding in the loop bounds "
                     "(kiln-cpu-depthwise)"),
      llvm::cl::init(true)};
  Option<int64_t> depthwiseLanes{
      *this, "depthwise-lanes",
      llvm::cl::desc("kiln-cpu-depthwise's lanes (16 for AVX-512, 8 for "
                     "AVX2)"),
      llvm::cl::init(16)};
  Option<int64_t> depthwiseTileW{
      *this, "depthwise-tile-w",
      llvm::cl::desc("kiln-cpu-depthwise's tile-w"), llvm::cl::init(8)};
  Option<bool> padInPlace{
      *this, "pad-in-place",
      llvm::cl::desc("Fill only the border of padded tensors and let the "
                     "source's producer write into the interior "
                     "(kiln-cpu-pad-in-place, eliminate-empty-tensors)"),
      llvm::cl::init(true)};
  Option<bool> packWeights{
      *this, "pack-weights",
      llvm::cl::desc("Pack constant convolution filters and matmul weights "
                     "into panels of tile-n output channels at compile time "
                     "(kiln-cpu-pack-weights)"),
      llvm::cl::init(true)};
  Option<bool> planBuffers{
      *this, "plan-buffers",
      llvm::cl::desc("Pack each function's static intermediate buffers into "
                     "one allocation by live range (kiln-cpu-plan-buffers)"),
      llvm::cl::init(true)};
  Option<int64_t> outlineMinOps{
      *this, "outline-min-ops",
      llvm::cl::desc("Functions with at least this many operations after "
                     "bufferization get one function per loop nest "
                     "(kiln-cpu-outline-layers); -1 never outlines"),
      llvm::cl::init(2000)};
  Option<int64_t> outlineChunkOps{
      *this, "outline-chunk-ops",
      llvm::cl::desc("In those functions, what is left between the loop "
                     "nests after the loops are lowered to scf is outlined in "
                     "chunks of at most this many operations "
                     "(kiln-cpu-outline-layers' chunk-ops); 0 never"),
      llvm::cl::init(1000)};
  Option<bool> parallelize{
      *this, "parallelize",
      llvm::cl::desc("Run the outer tile loops of heavy ops on the thread "
                     "pool of Kiln's CPU runtime (kiln-cpu-parallelize-loops, "
                     "kiln-cpu-parallel-temporaries, "
                     "kiln-cpu-parallel-loops-to-runtime); serial when the "
                     "program links no runtime or sets no pool"),
      llvm::cl::init(true)};
  Option<int64_t> parallelMinWork{
      *this, "parallel-min-work",
      llvm::cl::desc("Least work (elements computed) of a loop run in "
                     "parallel (kiln-cpu-parallelize-loops' min-work)"),
      llvm::cl::init(65536)};
};

/// Lowers functions of linalg/tensor/arith/math ops on tensors to the LLVM
/// dialect: elementwise fusion and register tiling + vectorization on
/// tensors, one-shot bufferization across function boundaries, buffer
/// deallocation, the remaining linalg to loops, vector transfers to 1-D
/// loads and stores, then the standard conversions to LLVM, and the LLVM
/// contract check.
void buildLinalgToLLVMPipeline(mlir::OpPassManager &pm,
                               const LinalgToLLVMPipelineOptions &options);

/// Options of `kiln-tf-graph-pipeline`.
struct TFGraphPipelineOptions
    : public mlir::PassPipelineOptions<TFGraphPipelineOptions> {
  Option<unsigned> shapeInferenceIterations{
      *this, "shape-inference-iterations",
      llvm::cl::desc("Passes of tf-shape-inference over each function"),
      llvm::cl::init(10)};
};

/// Turns an imported tf_executor graph into functional tf with inferred
/// shapes: dead nodes pruned, TF1 loops raised to tf.WhileRegion, islands
/// inlined, functional control flow turned into regions (and the functions
/// it called dropped), fused ops decomposed, folding, shape inference.
void buildTFGraphPipeline(mlir::OpPassManager &pm,
                          const TFGraphPipelineOptions &options);

/// kiln-tf-to-linalg-pipeline: functional tf with static shapes to
/// linalg/tensor/arith/math on tensors. Variables become memref globals,
/// region control flow becomes scf.
struct TFToLinalgPipelineOptions
    : public mlir::PassPipelineOptions<TFToLinalgPipelineOptions> {
  Option<bool> freezeReadOnlyVariables{
      *this, "freeze-read-only-variables",
      llvm::cl::desc("Fold variables that are never assigned into constants"),
      llvm::cl::init(true)};
};

void buildTFToLinalgPipeline(mlir::OpPassManager &pm,
                             const TFToLinalgPipelineOptions &options);

/// kiln-tf-to-cpu-pipeline: an imported graph (tf_executor or functional
/// tf) to the LLVM dialect, ready for object emission: the graph pipeline,
/// the tf-to-linalg pipeline, the entry ABI, then the linalg-to-llvm
/// pipeline.
struct TFToCPUPipelineOptions
    : public mlir::PassPipelineOptions<TFToCPUPipelineOptions> {
  Option<std::string> entry{
      *this, "entry",
      llvm::cl::desc("Function compiled as the model's entry"),
      llvm::cl::init("main")};
  Option<std::string> symbol{
      *this, "symbol",
      llvm::cl::desc("Symbol of the compiled entry (its C interface is "
                     "_mlir_ciface_<symbol>); default: the entry's name"),
      llvm::cl::init("")};
  ListOption<std::string> entries{
      *this, "entries",
      llvm::cl::desc("Several entries sharing the model's variables (an init "
                     "and a step), each compiled as <symbol>_<entry>; "
                     "replaces `entry`, needs `symbol`")};
  Option<bool> freezeReadOnlyVariables{
      *this, "freeze-read-only-variables",
      llvm::cl::desc("Fold variables that are never assigned into constants"),
      llvm::cl::init(true)};
  Option<unsigned> shapeInferenceIterations{
      *this, "shape-inference-iterations",
      llvm::cl::desc("Passes of tf-shape-inference over each function"),
      llvm::cl::init(10)};
  ListOption<std::string> externalFunctions{
      *this, "external-functions",
      llvm::cl::desc("Functions the lowered code may call besides the C "
                     "library and libm ones (kiln-linalg-to-llvm-pipeline's "
                     "external-functions), e.g. kiln_npu_run after "
                     "kiln-npu-segments-to-host-calls")};
  Option<bool> parallelize{
      *this, "parallelize",
      llvm::cl::desc("Parallel loops through Kiln's CPU thread runtime "
                     "(kiln-linalg-to-llvm-pipeline's parallelize)"),
      llvm::cl::init(true)};
  Option<int64_t> depthwiseLanes{
      *this, "depthwise-lanes",
      llvm::cl::desc("kiln-linalg-to-llvm-pipeline's depthwise-lanes: f32 "
                     "lanes of the target's vector registers (kiln-compile "
                     "and kiln-run set it from the CPU)"),
      llvm::cl::init(16)};
};

/// The phases of kiln-tf-to-cpu-pipeline, in order, so a driver can run
/// them one at a time (and dump the IR between them).
enum class CPUPhase { Graph, Linalg, ABI, LLVM };

/// The phase's name in drivers' messages, timings and dump files: "graph",
/// "linalg", "abi" or "llvm".
const char *cpuPhaseName(CPUPhase phase);

/// Adds one phase of kiln-tf-to-cpu-pipeline to `pm`.
void buildTFToCPUPhase(mlir::OpPassManager &pm, CPUPhase phase,
                       const TFToCPUPipelineOptions &options);

/// Adds every phase of kiln-tf-to-cpu-pipeline to `pm`.
void buildTFToCPUPipeline(mlir::OpPassManager &pm,
                          const TFToCPUPipelineOptions &options);

/// Options of `kiln-npu-to-npuhw-pipeline`.
struct NPUToNPUHWPipelineOptions
    : public mlir::PassPipelineOptions<NPUToNPUHWPipelineOptions> {
  Option<unsigned> maxRowsPerBand{
      *this, "max-rows-per-band",
      llvm::cl::desc("convert-npu-to-npuhw's max-rows-per-band"),
      llvm::cl::init(0)};
  Option<unsigned> maxBlocksPerGroup{
      *this, "max-blocks-per-group",
      llvm::cl::desc("convert-npu-to-npuhw's max-blocks-per-group"),
      llvm::cl::init(0)};
  Option<bool> overlapOps{
      *this, "overlap-ops",
      llvm::cl::desc("convert-npu-to-npuhw's overlap-ops"),
      llvm::cl::init(true)};
  Option<bool> lmemResident{
      *this, "lmem-resident",
      llvm::cl::desc("convert-npu-to-npuhw's lmem-resident"),
      llvm::cl::init(true)};
  Option<bool> cascade{*this, "cascade",
                       llvm::cl::desc("convert-npu-to-npuhw's cascade"),
                       llvm::cl::init(true)};
  Option<bool> verifyStream{
      *this, "verify-stream",
      llvm::cl::desc("End with npuhw-verify-stream (the runtime's verifier)"),
      llvm::cl::init(true)};
};

/// Lowers functions of int8 npu layers to runnable npuhw streams:
/// convert-npu-to-npuhw, then on each stream npuhw-allocate-lmem,
/// npuhw-assign-semaphores and npuhw-verify-stream. The result serializes
/// with `kiln-translate --npuhw-to-npub`.
void buildNPUToNPUHWPipeline(mlir::OpPassManager &pm,
                             const NPUToNPUHWPipelineOptions &options);

/// Registers every named Kiln pipeline with the global pass registry.
void registerKilnPipelines();

} // namespace kiln

#endif // KILN_PASSES_PIPELINES_H
