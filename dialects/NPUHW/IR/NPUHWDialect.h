//===- NPUHWDialect.h - the npuhw dialect -----------------------*- C++ -*-===//
//
// The npuhw dialect, its memory-space and enum attributes and the token
// type.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_IR_NPUHWDIALECT_H
#define KILN_DIALECTS_NPUHW_IR_NPUHWDIALECT_H

#include "dialects/NPU/IR/NPUDialect.h"
#include "runtime/npu/Commands.h"
#include "runtime/npu/Config.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "dialects/NPUHW/IR/NPUHWDialect.h.inc"
#include "dialects/NPUHW/IR/NPUHWEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/NPUHW/IR/NPUHWAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/NPUHW/IR/NPUHWTypes.h.inc"

namespace kiln::npuhw {

/// The runtime's LMEM region of \p region.
inline npu::LmemRegion toRuntime(LmemRegion region) {
  return static_cast<npu::LmemRegion>(region);
}

/// The runtime dtype of an element type (i8, i32, f16, f32), or nullopt.
std::optional<npu::DType> dtypeOf(mlir::Type elementType);
/// The element type of a runtime dtype.
mlir::Type elementTypeOf(mlir::MLIRContext *context, npu::DType dtype);

} // namespace kiln::npuhw

#endif // KILN_DIALECTS_NPUHW_IR_NPUHWDIALECT_H
