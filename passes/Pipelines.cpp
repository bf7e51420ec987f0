//===- Pipelines.cpp - Kiln's named pass pipelines --------------*- C++ -*-===//
//
// Build functions and registration of the pipelines declared in Pipelines.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Pipelines.h"

#include "passes/Passes.h"

#include "conversions/Passes.h"
#include "dialects/NPU/Transforms/Passes.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "dialects/NPUHW/Transforms/Passes.h"
#include "dialects/TF/Transforms/Passes.h"
#include "dialects/TFExecutor/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

namespace kiln {

//===----------------------------------------------------------------------===//
// kiln-linalg-to-llvm-pipeline
//===----------------------------------------------------------------------===//

void buildLinalgToLLVMPipeline(OpPassManager &pm,
                               const LinalgToLLVMPipelineOptions &options) {
  // On tensors: elementwise chains become one generic, then every linalg op
  // becomes loops over register tiles of vector ops.
  if (options.fuseElementwise)
    pm.addNestedPass<func::FuncOp>(createLinalgElementwiseOpFusionPass());
  if (options.vectorize) {
    KilnCPUTileAndVectorizePassOptions tiling;
    tiling.vectorWidth = options.vectorWidth;
    tiling.tileM = options.tileM;
    tiling.tileN = options.tileN;
    tiling.tileK = options.tileK;
    OpPassManager &funcs = pm.nest<func::FuncOp>();
    // Depthwise convolutions as register tiles over channel blocks, reading
    // the unpadded input.
    if (options.depthwise) {
      KilnCPUDepthwisePassOptions depthwise;
      depthwise.lanes = options.depthwiseLanes;
      depthwise.tileW = options.depthwiseTileW;
      funcs.addPass(createKilnCPUDepthwisePass(depthwise));
    }
    // Padded tensors as a filled border around their producer's output.
    if (options.padInPlace)
      funcs.addPass(createKilnCPUPadInPlacePass());
    // Constant weights in contiguous panels of tile-n output channels, the
    // ops tiled over them.
    if (options.packWeights) {
      KilnCPUPackWeightsPassOptions packing;
      packing.tileM = options.tileM;
      packing.tileN = options.tileN;
      funcs.addPass(createKilnCPUPackWeightsPass(packing));
    }
    funcs.addPass(createKilnCPUTileAndVectorizePass(tiling));
    // Dynamic sizes from the function's arguments, not from earlier loop
    // nests: keeps bufferization's slice analysis from walking the model.
    funcs.addPass(createKilnCPUResolveDimsPass());
    // Vector exp/log/tanh as vector arithmetic, not libm calls per element.
    if (options.approximateMath)
      funcs.addPass(createKilnCPUApproximateMathPass());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  }
  // Multithreading, step 1 of 3: tile loops that write disjoint slabs of
  // their result become scf.forall (on tensors, after the tiling above).
  if (options.vectorize && options.parallelize) {
    KilnCPUParallelizeLoopsPassOptions parallel;
    parallel.minWork = options.parallelMinWork;
    pm.addNestedPass<func::FuncOp>(createKilnCPUParallelizeLoopsPass(parallel));
  }

  // An entry's run-time checks as <entry>_check, which its caller runs
  // first: a failing check becomes an error, not an abort.
  pm.addPass(createKilnCPURuntimeChecksPass());

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // A TensorFlow loop yields values computed in its body (a tensor list
  // written item by item), which are new buffers, not its iteration
  // arguments updated in place; the deallocation pipeline frees them.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // Producers write into the tensors their results are inserted into (the
  // interior of a padded tensor) instead of a buffer of their own.
  if (options.vectorize && options.padInPlace)
    pm.addPass(bufferization::createEmptyTensorEliminationPass());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Multithreading, step 2 of 3: a parallel iteration's tile temporaries on
  // its thread's stack, not malloc'd (nor planned into the shared arena).
  if (options.vectorize && options.parallelize)
    pm.addNestedPass<func::FuncOp>(createKilnCPUParallelTemporariesPass());
  // One allocation per call for the intermediate buffers, reused by live
  // range, instead of one fresh (page-faulting) allocation per tensor.
  if (options.planBuffers)
    pm.addNestedPass<func::FuncOp>(createKilnCPUPlanBuffersPass());
  // Statically shaped entries write into caller buffers and an arena they
  // are given (<entry>_with_buffers); the entry allocates and calls it.
  pm.addPass(createKilnCPUCallerBuffersPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  // One function per loop nest in a large model: LLVM's loop passes and code
  // generation cost per function, and some of them grow faster than linearly
  // with its size (kiln-cpu-outline-layers).
  if (options.outlineMinOps >= 0) {
    KilnCPUOutlineLayersPassOptions outline;
    outline.minOps = options.outlineMinOps;
    pm.addPass(createKilnCPUOutlineLayersPass(outline));
  }

  // From here on the passes that work on one function at a time are nested
  // on functions, so that MLIR runs them on the outlined layers in parallel
  // (the module passes between them keep their order).
  // Strided copies would call memrefCopy (MLIR's runner utilities); as loops
  // they keep the object free of anything but the C library.
  OpPassManager &loops = pm.nest<func::FuncOp>();
  // The vectorizer's gathers index tensors row-major; on a buffer that
  // bufferization made strided (a slice) they need memory offsets.
  if (options.vectorize)
    loops.addPass(createKilnCPUStridedGathersPass());
  loops.addPass(createKilnCPULowerStridedCopiesPass());
  loops.addPass(createConvertLinalgToLoopsPass());
  loops.addPass(createCanonicalizerPass());
  if (options.vectorize) {
    // N-D transfers to unrolled 1-D ones, which become (masked) loads and
    // stores in convert-vector-to-llvm.
    VectorTransferToSCFOptions transfers;
    transfers.enableFullUnroll();
    loops.addPass(createConvertVectorToSCFPass(transfers));
    loops.addPass(createCanonicalizerPass());
  }
  // What is left in a large function between its layers (small loops, the
  // copies just lowered to loops, whole small tensors as unrolled vector
  // ops) in chunks of bounded size, now that loops and unrolled code are
  // explicit: left in one function, LLVM's ScalarEvolution answered each of
  // MAXIM's thousands of loops' guard queries by walking back over all the
  // code before it.
  if (options.outlineMinOps >= 0 && options.outlineChunkOps > 0) {
    KilnCPUOutlineLayersPassOptions chunks;
    chunks.minOps = options.outlineMinOps;
    chunks.chunkOps = options.outlineChunkOps;
    pm.addPass(createKilnCPUOutlineLayersPass(chunks));
  }
  // Multithreading, step 3 of 3: each scf.forall becomes an outlined body
  // run through kiln_cpu_parallel_for (runtime/cpu/threads).
  if (options.vectorize && options.parallelize)
    pm.addPass(createKilnCPUParallelLoopsToRuntimePass());
  OpPassManager &lower = pm.nest<func::FuncOp>();
  lower.addPass(createLowerAffinePass());
  lower.addPass(createSCFToControlFlowPass());
  lower.addPass(memref::createExpandStridedMetadataPass());
  lower.addPass(createLowerAffinePass());
  if (options.vectorize) {
    ConvertVectorToLLVMPassOptions vectors;
    vectors.vectorContractLowering =
        vector::VectorContractLowering::OuterProduct;
    vectors.vectorTransposeLowering = vector::VectorTransposeLowering::Shuffle1D;
    lower.addPass(createConvertVectorToLLVMPass(vectors));
  }
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  OpPassManager &scalars = pm.nest<func::FuncOp>();
  scalars.addPass(createConvertMathToLLVMPass());
  scalars.addPass(createArithToLLVMConversionPass());
  scalars.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  if (options.vectorize)
    pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addNestedPass<LLVM::LLVMFuncOp>(createCanonicalizerPass());
  if (options.verifyContract) {
    KilnVerifyLLVMContractPassOptions contract;
    contract.extraExternalFunctions.assign(options.externalFunctions.begin(),
                                           options.externalFunctions.end());
    pm.addPass(createKilnVerifyLLVMContractPass(contract));
  }
}

//===----------------------------------------------------------------------===//
// kiln-tf-graph-pipeline
//===----------------------------------------------------------------------===//

void buildTFGraphPipeline(OpPassManager &pm,
                          const TFGraphPipelineOptions &options) {
  OpPassManager &graphs = pm.nest<func::FuncOp>();
  graphs.addPass(tf_executor::createTFExecutorPruneDeadNodesPass());
  graphs.addPass(tf_executor::createTFExecutorRaiseConditionalsPass());
  graphs.addPass(tf_executor::createTFExecutorRaiseLoopsPass());
  graphs.addPass(tf_executor::createTFExecutorToFunctionalPass());
  pm.addPass(tf::createTFFunctionalToRegionControlFlowPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(tf::createTFRefVariablesToResourcesPass());
  pm.addPass(tf::createTFDecomposeTrainingOpsPass());
  pm.addPass(tf::createTFDecomposeFusedOpsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(tf::createTFDecomposeTensorArraysPass());
  tf::TFShapeInferencePassOptions shapes;
  shapes.maxIterations = options.shapeInferenceIterations;
  pm.addPass(tf::createTFShapeInferencePass(shapes));
  pm.addPass(createCanonicalizerPass());
}

//===----------------------------------------------------------------------===//
// kiln-tf-to-linalg-pipeline
//===----------------------------------------------------------------------===//

void buildTFToLinalgPipeline(OpPassManager &pm,
                             const TFToLinalgPipelineOptions &options) {
  tf::TFResourceVariablesToGlobalsPassOptions variables;
  variables.freezeReadOnly = options.freezeReadOnlyVariables;
  pm.addPass(tf::createTFResourceVariablesToGlobalsPass(variables));
  pm.addPass(tf::createTFLowerTensorListsPass());
  pm.addPass(createKilnReportUnsupportedOpsPass());
  OpPassManager &funcs = pm.nest<func::FuncOp>();
  funcs.addPass(createConvertTFControlFlowToSCFPass());
  funcs.addPass(createConvertTFToLinalgPass());
  funcs.addPass(createCanonicalizerPass());
  funcs.addPass(createCSEPass());
  pm.addPass(createConvertMLProgramToMemRefPass());
}

//===----------------------------------------------------------------------===//
// kiln-tf-to-cpu-pipeline
//===----------------------------------------------------------------------===//

const char *cpuPhaseName(CPUPhase phase) {
  switch (phase) {
  case CPUPhase::Graph:
    return "graph";
  case CPUPhase::Linalg:
    return "linalg";
  case CPUPhase::ABI:
    return "abi";
  case CPUPhase::LLVM:
    return "llvm";
  }
  return "?";
}

void buildTFToCPUPhase(OpPassManager &pm, CPUPhase phase,
                       const TFToCPUPipelineOptions &options) {
  switch (phase) {
  case CPUPhase::Graph: {
    TFGraphPipelineOptions graph;
    graph.shapeInferenceIterations = options.shapeInferenceIterations;
    buildTFGraphPipeline(pm, graph);
    return;
  }
  case CPUPhase::Linalg: {
    TFToLinalgPipelineOptions linalg;
    linalg.freezeReadOnlyVariables = options.freezeReadOnlyVariables;
    buildTFToLinalgPipeline(pm, linalg);
    return;
  }
  case CPUPhase::ABI: {
    KilnCPUEntryABIPassOptions abi;
    abi.entry = options.entry;
    abi.symbol = options.symbol;
    abi.entries.assign(options.entries.begin(), options.entries.end());
    pm.addPass(createKilnCPUEntryABIPass(abi));
    pm.addPass(createSymbolDCEPass());
    return;
  }
  case CPUPhase::LLVM: {
    LinalgToLLVMPipelineOptions llvm;
    llvm.externalFunctions = options.externalFunctions;
    llvm.parallelize = options.parallelize;
    llvm.depthwiseLanes = options.depthwiseLanes;
    buildLinalgToLLVMPipeline(pm, llvm);
    return;
  }
  }
}

void buildTFToCPUPipeline(OpPassManager &pm,
                          const TFToCPUPipelineOptions &options) {
  for (CPUPhase phase :
       {CPUPhase::Graph, CPUPhase::Linalg, CPUPhase::ABI, CPUPhase::LLVM})
    buildTFToCPUPhase(pm, phase, options);
}

//===----------------------------------------------------------------------===//
// kiln-npu-to-npuhw-pipeline
//===----------------------------------------------------------------------===//

void buildNPUToNPUHWPipeline(OpPassManager &pm,
                             const NPUToNPUHWPipelineOptions &options) {
  ConvertNPUToNPUHWPassOptions convert;
  convert.maxRowsPerBand = options.maxRowsPerBand;
  convert.maxBlocksPerGroup = options.maxBlocksPerGroup;
  convert.overlapOps = options.overlapOps;
  convert.lmemResident = options.lmemResident;
  convert.cascade = options.cascade;
  // The ops' costs, before they are lowered, for the .npub COST section.
  pm.addPass(npu::createNPURecordCostsPass());
  pm.addPass(createConvertNPUToNPUHWPass(convert));
  OpPassManager &stream = pm.nest<npuhw::StreamOp>();
  stream.addPass(npuhw::createNPUHWAllocateLmemPass());
  stream.addPass(npuhw::createNPUHWAssignSemaphoresPass());
  if (options.verifyStream)
    stream.addPass(npuhw::createNPUHWVerifyStreamPass());
  // Each layer's estimate as its span in a replay of the whole stream, so
  // that it counts the overlap with its neighbours as the report does.
  pm.addPass(npuhw::createNPUHWEstimateLayersPass());
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void registerKilnPipelines() {
  PassPipelineRegistration<LinalgToLLVMPipelineOptions>(
      "kiln-linalg-to-llvm-pipeline",
      "Lower linalg/tensor/arith/math on tensors to the LLVM dialect",
      buildLinalgToLLVMPipeline);
  PassPipelineRegistration<TFGraphPipelineOptions>(
      "kiln-tf-graph-pipeline",
      "Imported tf_executor graphs to functional tf with inferred shapes",
      buildTFGraphPipeline);
  PassPipelineRegistration<TFToLinalgPipelineOptions>(
      "kiln-tf-to-linalg-pipeline",
      "Functional tf with static shapes to linalg/tensor/arith/math",
      buildTFToLinalgPipeline);
  PassPipelineRegistration<TFToCPUPipelineOptions>(
      "kiln-tf-to-cpu-pipeline",
      "Imported tf graphs to the LLVM dialect with a C entry point",
      buildTFToCPUPipeline);
  PassPipelineRegistration<NPUToNPUHWPipelineOptions>(
      "kiln-npu-to-npuhw-pipeline",
      "Functions of int8 npu layers to runnable npuhw command streams",
      buildNPUToNPUHWPipeline);
}

} // namespace kiln
