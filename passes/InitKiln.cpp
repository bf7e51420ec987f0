//===- InitKiln.cpp - register Kiln with MLIR -------------------*- C++ -*-===//
//
// Implementation of the registration points declared in InitKiln.h.
//
//===----------------------------------------------------------------------===//

#include "passes/InitKiln.h"

#include "conversions/Passes.h"
#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPU/Transforms/Passes.h"
#include "dialects/NPUHW/IR/NPUHWDialect.h"
#include "dialects/NPUHW/Transforms/Passes.h"
#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/Transforms/Passes.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"
#include "dialects/TFExecutor/Transforms/Passes.h"
#include "dialects/TFType/IR/TFTypeDialect.h"
#include "passes/Passes.h"
#include "passes/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

namespace kiln {

void registerKilnDialects(mlir::DialectRegistry &registry) {
  registry.insert<tf_type::TFTypeDialect, tf::TFDialect,
                  tf_executor::TFExecutorDialect, npu::NPUDialect,
                  npuhw::NPUHWDialect>();
}

void registerKilnPasses() {
  registerKilnCommonPasses();
  registerKilnConversionPasses();
  tf::registerTFPasses();
  tf_executor::registerTFExecutorPasses();
  npu::registerNPUPasses();
  npuhw::registerNPUHWPasses();
}

void registerAllDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registerKilnDialects(registry);
}

void registerAllPasses() {
  mlir::registerAllPasses();
  registerKilnPasses();
  registerKilnPipelines();
}

} // namespace kiln
