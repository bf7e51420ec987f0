//===- Pipelines.cpp - Kiln's named pass pipelines --------------*- C++ -*-===//
//
// Build functions and registration of the pipelines declared in Pipelines.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Pipelines.h"

#include "passes/Passes.h"

#include "dialects/TF/Transforms/Passes.h"
#include "dialects/TFExecutor/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
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
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());

  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());

  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  if (options.verifyContract)
    pm.addPass(createKilnVerifyLLVMContractPass());
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
  pm.addPass(tf::createTFDecomposeFusedOpsPass());
  pm.addPass(createCanonicalizerPass());
  tf::TFShapeInferencePassOptions shapes;
  shapes.maxIterations = options.shapeInferenceIterations;
  pm.addPass(tf::createTFShapeInferencePass(shapes));
  pm.addPass(createCanonicalizerPass());
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
}

} // namespace kiln
