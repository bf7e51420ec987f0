//===- TFFoldersElementwise.cpp - folders of integer shape arithmetic -----===//
//
// The fold() hooks of the element-wise integer and boolean ops that models
// compute shapes with: Sign, FloorDiv, FloorMod, Maximum, Minimum, the six
// comparisons, LogicalAnd and SelectV2. TF.js exports of Keras models spell
// "pad to a multiple of the block size" as
//   SelectV2(LogicalAnd(NotEqual(Sign(h), 1), NotEqual(FloorMod(h, b), 0)),
//            FloorDiv(h, b) + 1, FloorDiv(h, b))
// on constants; without these folds every Reshape downstream of such a size
// stays dynamic (MAXIM: 27,000 dynamic values at a static 64x64 input).
//
// Operands are constants with the result's shape, or of one element (a scalar
// broadcast). Only integer elements fold (SelectV2 picks any elements), so
// no folder has to agree with TensorFlow on float rounding. Results hold at
// most kMaxFoldedElements elements, like the folders of TFFolders.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFShapeInference.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace kiln::tf;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The elements of constant `attr` for each element of `result`: all of them
/// when `attr` has the result's shape, its one element repeated when it has
/// a single element and no more dimensions than the result; std::nullopt
/// otherwise (not a constant, or a broadcast this folder does not do).
static std::optional<SmallVector<Attribute>>
broadcastElements(Attribute attr, RankedTensorType result) {
  auto value = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!value)
    return std::nullopt;
  int64_t n = result.getNumElements();
  auto values = value.getValues<Attribute>();
  if (value.getType().getShape() == result.getShape())
    return SmallVector<Attribute>(values.begin(), values.end());
  if (value.getNumElements() != 1 ||
      value.getType().getRank() > result.getRank())
    return std::nullopt;
  return SmallVector<Attribute>(n, *values.begin());
}

/// The static result type of `op` when it holds at most kMaxFoldedElements
/// elements of an integer type; null otherwise.
static RankedTensorType getIntegerResultType(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() ||
      type.getNumElements() > kMaxFoldedElements ||
      !isa<IntegerType>(type.getElementType()))
    return nullptr;
  return type;
}

/// Folds an element-wise op whose operands are integer constants. `fn`
/// computes one result element from the operands' elements (as APInts of
/// the operands' width) and whether they are unsigned, or returns
/// std::nullopt when the result is an error at run time (division by zero).
template <typename Fn>
static OpFoldResult foldIntegers(Operation *op, ArrayRef<Attribute> operands,
                                 Fn &&fn) {
  RankedTensorType resultType = getIntegerResultType(op);
  if (!resultType || operands.empty())
    return {};
  auto operandType = dyn_cast<IntegerType>(
      getElementTypeOrSelf(op->getOperand(0).getType()));
  if (!operandType)
    return {};
  SmallVector<SmallVector<Attribute>> elements;
  for (Attribute operand : operands) {
    std::optional<SmallVector<Attribute>> values =
        broadcastElements(operand, resultType);
    if (!values)
      return {};
    elements.push_back(std::move(*values));
  }
  unsigned width = cast<IntegerType>(resultType.getElementType()).getWidth();
  SmallVector<APInt> results;
  SmallVector<APInt> args(operands.size());
  for (int64_t i = 0, e = resultType.getNumElements(); i < e; ++i) {
    for (auto [k, values] : llvm::enumerate(elements)) {
      auto element = dyn_cast<IntegerAttr>(values[i]);
      if (!element)
        return {};
      args[k] = element.getValue();
    }
    std::optional<APInt> result = fn(ArrayRef<APInt>(args),
                                     operandType.isUnsigned());
    if (!result || result->getBitWidth() != width)
      return {};
    results.push_back(*result);
  }
  return DenseElementsAttr::get(resultType, results);
}

/// Folds a comparison of integer constants to a boolean constant.
template <typename Pred>
static OpFoldResult foldComparison(Operation *op, ArrayRef<Attribute> operands,
                                   Pred &&pred) {
  return foldIntegers(op, operands,
                      [&](ArrayRef<APInt> v, bool isUnsigned) {
                        return std::optional<APInt>(
                            APInt(1, pred(v[0], v[1], isUnsigned)));
                      });
}

/// a <=> b as -1, 0 or 1, signed unless `isUnsigned`.
static int compare(const APInt &a, const APInt &b, bool isUnsigned) {
  if (a == b)
    return 0;
  return (isUnsigned ? a.ult(b) : a.slt(b)) ? -1 : 1;
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  return foldIntegers(getOperation(), adaptor.getOperands(),
                      [](ArrayRef<APInt> v, bool isUnsigned) {
                        const APInt &x = v[0];
                        unsigned width = x.getBitWidth();
                        if (x.isZero())
                          return std::optional<APInt>(APInt(width, 0));
                        if (!isUnsigned && x.isNegative())
                          return std::optional<APInt>(APInt::getAllOnes(width));
                        return std::optional<APInt>(APInt(width, 1));
                      });
}

/// Whether a / b is an error at run time: division by zero, or the one
/// signed quotient that overflows (INT_MIN / -1).
static bool divisionFails(const APInt &a, const APInt &b, bool isUnsigned) {
  return b.isZero() || (!isUnsigned && a.isMinSignedValue() && b.isAllOnes());
}

OpFoldResult FloorDivOp::fold(FoldAdaptor adaptor) {
  return foldIntegers(
      getOperation(), adaptor.getOperands(),
      [](ArrayRef<APInt> v, bool isUnsigned) -> std::optional<APInt> {
        const APInt &a = v[0], &b = v[1];
        if (divisionFails(a, b, isUnsigned))
          return std::nullopt;
        if (isUnsigned)
          return a.udiv(b);
        // Truncating division, one less when the exact quotient is negative
        // and not whole.
        APInt q = a.sdiv(b);
        if (!a.srem(b).isZero() && (a.isNegative() != b.isNegative()))
          q -= 1;
        return q;
      });
}

OpFoldResult FloorModOp::fold(FoldAdaptor adaptor) {
  return foldIntegers(
      getOperation(), adaptor.getOperands(),
      [](ArrayRef<APInt> v, bool isUnsigned) -> std::optional<APInt> {
        const APInt &a = v[0], &b = v[1];
        if (divisionFails(a, b, isUnsigned))
          return std::nullopt;
        if (isUnsigned)
          return a.urem(b);
        // The remainder takes the sign of the divisor.
        APInt r = a.srem(b);
        if (!r.isZero() && (r.isNegative() != b.isNegative()))
          r += b;
        return r;
      });
}

OpFoldResult MaximumOp::fold(FoldAdaptor adaptor) {
  return foldIntegers(getOperation(), adaptor.getOperands(),
                      [](ArrayRef<APInt> v, bool isUnsigned) {
                        return std::optional<APInt>(
                            compare(v[0], v[1], isUnsigned) >= 0 ? v[0]
                                                                 : v[1]);
                      });
}

OpFoldResult MinimumOp::fold(FoldAdaptor adaptor) {
  return foldIntegers(getOperation(), adaptor.getOperands(),
                      [](ArrayRef<APInt> v, bool isUnsigned) {
                        return std::optional<APInt>(
                            compare(v[0], v[1], isUnsigned) <= 0 ? v[0]
                                                                 : v[1]);
                      });
}

//===----------------------------------------------------------------------===//
// Comparisons and logic
//===----------------------------------------------------------------------===//

OpFoldResult LessOp::fold(FoldAdaptor adaptor) {
  return foldComparison(getOperation(), adaptor.getOperands(),
                        [](const APInt &a, const APInt &b, bool u) {
                          return compare(a, b, u) < 0;
                        });
}

OpFoldResult LessEqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(getOperation(), adaptor.getOperands(),
                        [](const APInt &a, const APInt &b, bool u) {
                          return compare(a, b, u) <= 0;
                        });
}

OpFoldResult GreaterOp::fold(FoldAdaptor adaptor) {
  return foldComparison(getOperation(), adaptor.getOperands(),
                        [](const APInt &a, const APInt &b, bool u) {
                          return compare(a, b, u) > 0;
                        });
}

OpFoldResult GreaterEqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(getOperation(), adaptor.getOperands(),
                        [](const APInt &a, const APInt &b, bool u) {
                          return compare(a, b, u) >= 0;
                        });
}

OpFoldResult EqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(
      getOperation(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a == b; });
}

OpFoldResult NotEqualOp::fold(FoldAdaptor adaptor) {
  return foldComparison(
      getOperation(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a != b; });
}

OpFoldResult LogicalAndOp::fold(FoldAdaptor adaptor) {
  return foldIntegers(getOperation(), adaptor.getOperands(),
                      [](ArrayRef<APInt> v, bool) {
                        return std::optional<APInt>(v[0] & v[1]);
                      });
}

OpFoldResult SelectV2Op::fold(FoldAdaptor adaptor) {
  auto resultType = dyn_cast<RankedTensorType>(getType());
  if (!resultType || !resultType.hasStaticShape() ||
      resultType.getNumElements() > kMaxFoldedElements)
    return {};
  std::optional<SmallVector<Attribute>> condition =
      broadcastElements(adaptor.getCondition(), resultType);
  std::optional<SmallVector<Attribute>> thenValues =
      broadcastElements(adaptor.getThenValue(), resultType);
  std::optional<SmallVector<Attribute>> elseValues =
      broadcastElements(adaptor.getElseValue(), resultType);
  if (!condition || !thenValues || !elseValues)
    return {};
  SmallVector<Attribute> results;
  results.reserve(resultType.getNumElements());
  for (int64_t i = 0, e = resultType.getNumElements(); i < e; ++i) {
    auto pick = dyn_cast<IntegerAttr>((*condition)[i]);
    Attribute chosen = pick && !pick.getValue().isZero() ? (*thenValues)[i]
                                                         : (*elseValues)[i];
    if (!pick || cast<TypedAttr>(chosen).getType() !=
                     resultType.getElementType())
      return {};
    results.push_back(chosen);
  }
  return DenseElementsAttr::get(resultType, results);
}
