//===- TFShapeInference.h - shape functions of tf ops ----------*- C++ -*-===//
//
// The shared shape rules that generated tf ops call from their
// ShapeInferenceOpInterface::inferResultTypes (see `shape:` in
// dialects/TF/utils/ops.txt), and utilities for op-specific rules.
//
// Every rule computes one type per result. Element types are never changed:
// a rule only refines the shape of a result's current type, and keeps the
// current type when it knows nothing better. A rule fails, after emitting an
// error on the op, only when the operand types are inconsistent.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFSHAPEINFERENCE_H
#define KILN_DIALECTS_TF_IR_TFSHAPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace kiln::tf {

//===----------------------------------------------------------------------===//
// Shared shape rules
//===----------------------------------------------------------------------===//

/// Result 0 has the shape of operand 0 (element-wise unary ops, Cast,
/// BiasAdd, ...). Other results keep their types.
::mlir::LogicalResult
inferUnaryElementwise(::mlir::Operation *op,
                      ::llvm::SmallVectorImpl<::mlir::Type> &resultTypes);

/// Result i has the shape of operand i (Identity, IdentityN).
::mlir::LogicalResult
inferPassThrough(::mlir::Operation *op,
                 ::llvm::SmallVectorImpl<::mlir::Type> &resultTypes);

/// Result 0 has the numpy broadcast of the shapes of all operands (binary
/// arithmetic and comparisons, SelectV2, AddN). Unknown dimensions stay
/// dynamic; static dimensions that do not broadcast are an error.
::mlir::LogicalResult
inferBroadcast(::mlir::Operation *op,
               ::llvm::SmallVectorImpl<::mlir::Type> &resultTypes);

/// Result 0 is operand 0 reduced along the axes held by the constant operand
/// 1 (negative axes count from the end), keeping reduced dimensions as 1 when
/// the op has a true `keep_dims` attribute (Sum, Mean, Max, ArgMax, ...).
::mlir::LogicalResult
inferReduction(::mlir::Operation *op,
               ::llvm::SmallVectorImpl<::mlir::Type> &resultTypes);

//===----------------------------------------------------------------------===//
// Utilities
//===----------------------------------------------------------------------===//

/// The largest constant, in elements, that a tf folder materializes (Pack,
/// ConcatV2, StridedSlice, GatherV2, Fill, Range, ... of constants),
/// and the longest float Range given a static length: folding bigger tensors
/// would copy weights into new attributes for no shape gain.
constexpr int64_t kMaxFoldedElements = 1 << 20;

/// The largest value, in elements, that getConstantIntValues evaluates
/// through folders: shape arithmetic works on a handful of elements.
constexpr int64_t kMaxEvaluatedElements = 64;

/// The values of `value` as int64_t when it is an integer constant: produced
/// by a constant-like op (directly or through a `tf_executor.island` that
/// wraps it), or computed from constants and static shapes by pure tf ops
/// with folders (Shape -> StridedSlice -> Mul -> Pack, ...), each result of
/// at most kMaxEvaluatedElements elements, the IR left unchanged;
/// std::nullopt otherwise.
std::optional<::llvm::SmallVector<int64_t>>
getConstantIntValues(::mlir::Value value);

/// The shape of `type` when it is a ranked tensor type.
std::optional<::llvm::SmallVector<int64_t>> getRankedShape(::mlir::Type type);

/// The numpy broadcast of `lhs` and `rhs` (ShapedType::kDynamic for unknown
/// dimensions), or failure when two static dimensions differ and neither is
/// 1.
::mlir::LogicalResult broadcastShapes(::llvm::ArrayRef<int64_t> lhs,
                                      ::llvm::ArrayRef<int64_t> rhs,
                                      ::llvm::SmallVectorImpl<int64_t> &result);

/// `current` refined by an inferred shape (std::nullopt: unranked): a tensor
/// with the element type of `current` whose dimensions are the static ones
/// of either shape. Returns `current` unchanged when the ranks disagree.
::mlir::Type refineType(::mlir::Type current,
                        std::optional<::llvm::ArrayRef<int64_t>> inferredShape);

} // namespace kiln::tf

#endif // KILN_DIALECTS_TF_IR_TFSHAPEINFERENCE_H
