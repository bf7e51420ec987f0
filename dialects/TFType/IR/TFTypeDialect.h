//===- TFTypeDialect.h - the tf_type dialect --------------------*- C++ -*-===//
//
// TensorFlow's types (!tf_type.*) and attributes (#tf_type.*).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFTYPE_IR_TFTYPEDIALECT_H
#define KILN_DIALECTS_TFTYPE_IR_TFTYPEDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "dialects/TFType/IR/TFTypeDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/TFType/IR/TFTypeTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/TFType/IR/TFTypeAttrs.h.inc"

namespace kiln::tf_type {

/// True for the TF1 reference types (!tf_type.f32ref, ...).
bool isRefType(mlir::Type type);

/// The type a reference type refers to (f32 for !tf_type.f32ref), or null if
/// `type` is not a reference type.
mlir::Type getRefElementType(mlir::Type type);

/// The reference type of `type` (!tf_type.f32ref for f32), or null if
/// TensorFlow has no reference type for it.
mlir::Type getRefTypeOf(mlir::Type type);

} // namespace kiln::tf_type

#endif // KILN_DIALECTS_TFTYPE_IR_TFTYPEDIALECT_H
