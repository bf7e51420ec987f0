//===- TFFolders.cpp - folders of tf ops -------------------------*- C++
//-*-===//
//
// The fold() hooks of the ops marked `folder` in ops.txt: forwarding
// (Identity, IdentityN, Cast to the same type) and constant folding of
// arithmetic, Reshape, Cast, Shape and Size. A folder only returns an attribute
// whose type is exactly the result type, so the dialect's constant
// materializer can build a tf.Const of it.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/APSInt.h"

using namespace mlir;
using namespace kiln::tf;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// True if `type` is a tensor type with a static shape.
static bool isStaticTensor(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  return ranked && ranked.hasStaticShape();
}

/// `value` as a constant of `resultType`: itself when it has that type, or
/// a splat broadcast to it (a scalar constant added to a tensor); null
/// otherwise.
static DenseElementsAttr broadcastSplat(Attribute value, Type resultType) {
  auto elements = dyn_cast_or_null<DenseElementsAttr>(value);
  auto result = dyn_cast<RankedTensorType>(resultType);
  if (!elements || !result)
    return nullptr;
  if (elements.getType() == resultType)
    return elements;
  if (!elements.isSplat() ||
      elements.getElementType() != result.getElementType())
    return nullptr;
  // The splat's shape must broadcast to the result's without growing it.
  ArrayRef<int64_t> from = elements.getType().getShape();
  ArrayRef<int64_t> to = result.getShape();
  if (from.size() > to.size())
    return nullptr;
  for (auto [f, t] : llvm::zip(llvm::reverse(from), llvm::reverse(to)))
    if (f != 1 && f != t)
      return nullptr;
  return DenseElementsAttr::get(result, elements.getSplatValue<Attribute>());
}

/// Folds a binary arithmetic op whose operands are both constants of the
/// result type (or splats that broadcast to it). `intFn` and `floatFn` compute
/// one element, or std::nullopt when the result is not representable (division
/// by zero).
template <typename IntFn, typename FloatFn>
static OpFoldResult foldBinary(Operation *op, ArrayRef<Attribute> operands,
                               IntFn &&intFn, FloatFn &&floatFn) {
  Type resultType = op->getResult(0).getType();
  if (!isStaticTensor(resultType) || operands.size() != 2)
    return {};
  auto lhs = broadcastSplat(operands[0], resultType);
  auto rhs = broadcastSplat(operands[1], resultType);
  if (!lhs || !rhs)
    return {};
  Attribute broadcast[] = {lhs, rhs};
  operands = broadcast;
  Type element = getElementTypeOrSelf(resultType);
  if (auto intType = dyn_cast<IntegerType>(element)) {
    if (intType.getWidth() == 1)
      return {};
    bool isUnsigned = intType.isUnsigned();
    return constFoldBinaryOpConditional<IntegerAttr, APInt, void>(
        operands, resultType,
        [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
          return intFn(a, b, isUnsigned);
        });
  }
  if (isa<FloatType>(element))
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void>(
        operands, resultType,
        [&](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
          return floatFn(a, b);
        });
  return {};
}

//===----------------------------------------------------------------------===//
// Constants and forwarding
//===----------------------------------------------------------------------===//

OpFoldResult ConstOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult IdentityOp::fold(FoldAdaptor) {
  // Identity of a reference-typed variable reads it: keep those.
  if (getInput().getType() != getType())
    return {};
  return getInput();
}

LogicalResult IdentityNOp::fold(FoldAdaptor,
                                SmallVectorImpl<OpFoldResult> &results) {
  if (getInput().size() != getNumResults())
    return failure();
  for (auto [operand, result] : llvm::zip(getInput(), getResults()))
    if (operand.getType() != result.getType())
      return failure();
  for (Value operand : getInput())
    results.push_back(operand);
  return success();
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getOperation(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a + b; },
      [](const APFloat &a, const APFloat &b) { return a + b; });
}

OpFoldResult AddV2Op::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getOperation(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a + b; },
      [](const APFloat &a, const APFloat &b) { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getOperation(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a - b; },
      [](const APFloat &a, const APFloat &b) { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getOperation(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b, bool) { return a * b; },
      [](const APFloat &a, const APFloat &b) { return a * b; });
}

OpFoldResult RealDivOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      getOperation(), adaptor.getOperands(),
      [](const APInt &a, const APInt &b,
         bool isUnsigned) -> std::optional<APInt> {
        // Integer division by zero is an error at run time: leave it.
        if (b.isZero())
          return std::nullopt;
        if (isUnsigned)
          return a.udiv(b);
        // INT_MIN / -1 overflows.
        if (a.isMinSignedValue() && b.isAllOnes())
          return std::nullopt;
        return a.sdiv(b);
      },
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return a / b;
      });
}

//===----------------------------------------------------------------------===//
// Reshape, Cast, Shape
//===----------------------------------------------------------------------===//

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  Type resultType = getType();
  if (getTensor().getType() == resultType && isStaticTensor(resultType))
    return getTensor();
  auto value = dyn_cast_or_null<DenseElementsAttr>(adaptor.getTensor());
  if (!value || !isStaticTensor(resultType))
    return {};
  auto shaped = cast<ShapedType>(resultType);
  if (shaped.getNumElements() != value.getNumElements() ||
      shaped.getElementType() != value.getElementType())
    return {};
  return value.reshape(shaped);
}

/// Converts one integer or float element to `to`; null if unsupported.
/// Integers of `from` are signed unless `from` is unsigned; bool converts as
/// 0/1.
static Attribute castElement(Attribute value, Type from, Type to,
                             bool truncate) {
  if (auto intAttr = dyn_cast<IntegerAttr>(value)) {
    APInt v = intAttr.getValue();
    bool isSigned =
        !from.isUnsignedInteger() && from.getIntOrFloatBitWidth() > 1;
    if (auto toInt = dyn_cast<IntegerType>(to)) {
      if (toInt.getWidth() == 1)
        return IntegerAttr::get(to, APInt(1, !v.isZero()));
      return IntegerAttr::get(to, isSigned ? v.sextOrTrunc(toInt.getWidth())
                                           : v.zextOrTrunc(toInt.getWidth()));
    }
    if (auto toFloat = dyn_cast<FloatType>(to)) {
      APFloat f(toFloat.getFloatSemantics());
      f.convertFromAPInt(v, isSigned, APFloat::rmNearestTiesToEven);
      return FloatAttr::get(to, f);
    }
    return {};
  }
  if (auto floatAttr = dyn_cast<FloatAttr>(value)) {
    APFloat f = floatAttr.getValue();
    if (auto toFloat = dyn_cast<FloatType>(to)) {
      bool lost = false;
      f.convert(toFloat.getFloatSemantics(),
                truncate ? APFloat::rmTowardZero : APFloat::rmNearestTiesToEven,
                &lost);
      return FloatAttr::get(to, f);
    }
    if (auto toInt = dyn_cast<IntegerType>(to)) {
      if (toInt.getWidth() == 1)
        return IntegerAttr::get(to, APInt(1, !f.isZero()));
      // NaN and out-of-range values are implementation-defined in
      // TensorFlow: do not fold them.
      if (f.isNaN() || f.isInfinity())
        return {};
      APSInt i(toInt.getWidth(), toInt.isUnsigned());
      bool exact = false;
      if (f.convertToInteger(i, APFloat::rmTowardZero, &exact) &
          APFloat::opInvalidOp)
        return {};
      return IntegerAttr::get(to, i);
    }
  }
  return {};
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getX().getType() == getType())
    return getX();
  auto value = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX());
  auto resultType = dyn_cast<RankedTensorType>(getType());
  if (!value || !resultType || !resultType.hasStaticShape() ||
      value.getType().getShape() != resultType.getShape())
    return {};
  Type from = value.getElementType();
  Type to = resultType.getElementType();
  if (!from.isIntOrFloat() || !to.isIntOrFloat())
    return {};
  if (value.isSplat()) {
    Attribute element =
        castElement(value.getSplatValue<Attribute>(), from, to, getTruncate());
    if (!element)
      return {};
    return DenseElementsAttr::get(resultType, element);
  }
  SmallVector<Attribute> elements;
  elements.reserve(value.getNumElements());
  for (Attribute element : value.getValues<Attribute>()) {
    Attribute converted = castElement(element, from, to, getTruncate());
    if (!converted)
      return {};
    elements.push_back(converted);
  }
  return DenseElementsAttr::get(resultType, elements);
}

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  auto inputType = dyn_cast<RankedTensorType>(getInput().getType());
  auto resultType = dyn_cast<RankedTensorType>(getType());
  if (!inputType || !inputType.hasStaticShape() || !resultType ||
      !resultType.hasStaticShape() || resultType.getRank() != 1 ||
      resultType.getDimSize(0) != inputType.getRank())
    return {};
  auto element = dyn_cast<IntegerType>(resultType.getElementType());
  if (!element)
    return {};
  SmallVector<APInt> dims;
  for (int64_t d : inputType.getShape())
    dims.push_back(APInt(element.getWidth(), d, /*isSigned=*/true));
  return DenseElementsAttr::get(resultType, dims);
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  auto inputType = dyn_cast<RankedTensorType>(getInput().getType());
  auto resultType = dyn_cast<RankedTensorType>(getType());
  if (!inputType || !inputType.hasStaticShape() || !resultType ||
      resultType.getRank() != 0)
    return {};
  auto element = dyn_cast<IntegerType>(resultType.getElementType());
  if (!element)
    return {};
  return DenseElementsAttr::get(
      resultType, APInt(element.getWidth(), inputType.getNumElements()));
}
