//===- Passes.h - tf passes -------------------------------------*- C++ -*-===//
//
// Declarations of the passes in dialects/TF/Transforms/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_TRANSFORMS_PASSES_H
#define KILN_DIALECTS_TF_TRANSFORMS_PASSES_H

#include "dialects/TF/IR/TFOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace kiln::tf {

#define GEN_PASS_DECL
#include "dialects/TF/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/TF/Transforms/Passes.h.inc"

} // namespace kiln::tf

#endif // KILN_DIALECTS_TF_TRANSFORMS_PASSES_H
