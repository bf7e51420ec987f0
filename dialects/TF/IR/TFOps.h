//===- TFOps.h - the tf dialect and its operations --------------*- C++ -*-===//
//
// Include this to use tf operations (kiln::tf::AddV2Op, ...).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFOPS_H
#define KILN_DIALECTS_TF_IR_TFOPS_H

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DerivedAttributeOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/TF/IR/TFDialect.h.inc"
#include "dialects/TF/IR/TFInterfaces.h.inc"

namespace kiln::tf {

/// The element type of the first value in `values` (TensorFlow's `T` or
/// `dtype` attribute), or null when `values` is empty.
mlir::Type getDerivedElementType(mlir::ValueRange values);

/// The element types of `values` as an array of TypeAttr (a `list(type)`
/// attribute such as `Tin`).
mlir::ArrayAttr getDerivedTypeList(mlir::ValueRange values);

} // namespace kiln::tf

#define GET_OP_CLASSES
#include "dialects/TF/IR/TFOps.h.inc"

#endif // KILN_DIALECTS_TF_IR_TFOPS_H
