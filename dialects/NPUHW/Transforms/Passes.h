//===- Passes.h - npuhw passes ----------------------------------*- C++ -*-===//
//
// Declarations of the passes in dialects/NPUHW/Transforms/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_TRANSFORMS_PASSES_H
#define KILN_DIALECTS_NPUHW_TRANSFORMS_PASSES_H

#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"

namespace kiln::npuhw {

#define GEN_PASS_DECL
#include "dialects/NPUHW/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "dialects/NPUHW/Transforms/Passes.h.inc"

} // namespace kiln::npuhw

#endif // KILN_DIALECTS_NPUHW_TRANSFORMS_PASSES_H
