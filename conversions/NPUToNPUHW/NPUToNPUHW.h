//===- NPUToNPUHW.h - convert-npu-to-npuhw ----------------------*- C++ -*-===//
//
// Lowers a function of tensor-level npu ops to an npuhw.stream of commands.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_NPUTONPUHW_H
#define KILN_CONVERSIONS_NPUTONPUHW_NPUTONPUHW_H

#include "mlir/Pass/Pass.h"

namespace kiln {

#define GEN_PASS_DECL_CONVERTNPUTONPUHWPASS
#include "conversions/Passes.h.inc"

} // namespace kiln

#endif // KILN_CONVERSIONS_NPUTONPUHW_NPUTONPUHW_H
