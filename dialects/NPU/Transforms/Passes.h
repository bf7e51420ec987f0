//===- Passes.h - npu passes ------------------------------------*- C++ -*-===//
//
// Declarations of the passes in dialects/NPU/Transforms/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_TRANSFORMS_PASSES_H
#define KILN_DIALECTS_NPU_TRANSFORMS_PASSES_H

#include "dialects/NPU/IR/NPUOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln::npu {

#define GEN_PASS_DECL
#include "dialects/NPU/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/NPU/Transforms/Passes.h.inc"

} // namespace kiln::npu

#endif // KILN_DIALECTS_NPU_TRANSFORMS_PASSES_H
