//===- TFShapeInferenceUtils.h - helpers of the tf shape rules --*- C++ -*-===//
//
// Helpers shared by the files that implement the op-specific shape rules
// (TFShapeInference*.cpp); defined in TFShapeInference.cpp. Not part of the
// dialect's interface: use TFShapeInference.h outside dialects/TF/IR.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFSHAPEINFERENCEUTILS_H
#define KILN_DIALECTS_TF_IR_TFSHAPEINFERENCEUTILS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace kiln::tf::detail {

/// A dynamic dimension in a shape.
inline constexpr int64_t kDynamic = ::mlir::ShapedType::kDynamic;

/// How many ops deep evaluateConstant looks behind a value.
inline constexpr unsigned kMaxEvaluationDepth = 12;

/// The constant `value` holds: its constant-like producer's, or what the
/// folder of its pure single-result tf producer computes from the operands'
/// constants (evaluated the same way, at most `depth` ops deep). Only small
/// static values (kMaxEvaluatedElements) are evaluated; the IR is not
/// changed. Null when unknown.
::mlir::Attribute evaluateConstant(::mlir::Value value, unsigned depth);

/// Starts every rule: the current result types.
void initResultTypes(::mlir::Operation *op,
                     ::llvm::SmallVectorImpl<::mlir::Type> &types);

/// Sets result `idx` to its current type refined by `shape`.
void setShape(::mlir::Operation *op,
              ::llvm::SmallVectorImpl<::mlir::Type> &types, unsigned idx,
              std::optional<::llvm::ArrayRef<int64_t>> shape);

/// Normalizes `axis` against `rank` (negative counts from the end), or fails
/// with an error naming `what`.
::mlir::FailureOr<int64_t> normalizeAxis(::mlir::Operation *op,
                                         ::llvm::StringRef what, int64_t axis,
                                         int64_t rank);

/// Result 0 gets the shape held by the constant 1-D `shapeOperand` (Fill,
/// BroadcastTo), or its rank when only the operand's length is known.
::mlir::LogicalResult
inferFromShapeOperand(::mlir::Operation *op, ::mlir::Value shapeOperand,
                      ::llvm::SmallVectorImpl<::mlir::Type> &types);

} // namespace kiln::tf::detail

#endif // KILN_DIALECTS_TF_IR_TFSHAPEINFERENCEUTILS_H
