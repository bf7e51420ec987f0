//===- NPUDialect.h - the npu dialect ---------------------------*- C++ -*-===//
//
// Tensor-level operations of NPU-v1 and the #npu.target attribute.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUDIALECT_H
#define KILN_DIALECTS_NPU_IR_NPUDIALECT_H

#include "runtime/npu/Config.h"

#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "absl/status/statusor.h"

#include "dialects/NPU/IR/NPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/NPU/IR/NPUAttrs.h.inc"

namespace kiln::npu {

/// Name of the discardable attribute that carries a #npu.target.
inline constexpr llvm::StringLiteral kTargetAttrName = "npu.target";

/// The target of \p op: the `npu.target` attribute of \p op or of its closest
/// ancestor that has one; null if none has.
TargetAttr lookupTarget(mlir::Operation *op);

} // namespace kiln::npu

#endif // KILN_DIALECTS_NPU_IR_NPUDIALECT_H
