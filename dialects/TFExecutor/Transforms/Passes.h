//===- Passes.h - tf_executor passes ----------------------------*- C++ -*-===//
//
// Declarations of the passes in dialects/TFExecutor/Transforms/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFEXECUTOR_TRANSFORMS_PASSES_H
#define KILN_DIALECTS_TFEXECUTOR_TRANSFORMS_PASSES_H

#include "dialects/TFExecutor/IR/TFExecutor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln::tf_executor {

#define GEN_PASS_DECL
#include "dialects/TFExecutor/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/TFExecutor/Transforms/Passes.h.inc"

} // namespace kiln::tf_executor

#endif // KILN_DIALECTS_TFEXECUTOR_TRANSFORMS_PASSES_H
