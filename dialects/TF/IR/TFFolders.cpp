//===- TFFolders.cpp - folders of tf ops ------------------------*- C++ -*-===//
//
// The fold() hooks of the ops marked `folder` in ops.txt: forwarding
// (Identity, IdentityN, Cast to the same type) and constant folding of
// arithmetic, Reshape, Cast, Shape, Size, Pack, ConcatV2, StridedSlice,
// ExpandDims, Squeeze, SparseToDense, Fill, Range (integers) and GatherV2.
// A folder only returns an attribute whose type is exactly the result type,
// so the dialect's constant materializer can build a tf.Const of it, and
// never one of more than kMaxFoldedElements elements (TFShapeInference.h).
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFShapeInference.h"

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
  if (!isStaticTensor(resultType) || operands.size() != 2 ||
      cast<ShapedType>(resultType).getNumElements() > kMaxFoldedElements)
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
      value.getType().getShape() != resultType.getShape() ||
      (!value.isSplat() && resultType.getNumElements() > kMaxFoldedElements))
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

//===----------------------------------------------------------------------===//
// Pack, ConcatV2, StridedSlice
//===----------------------------------------------------------------------===//

/// The static result type of `op` when it holds at most kMaxFoldedElements
/// elements; null otherwise.
static RankedTensorType getFoldableResultType(Operation *op) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !type.hasStaticShape() ||
      type.getNumElements() > kMaxFoldedElements)
    return nullptr;
  return type;
}

/// Joins constant `parts` along dimension `axis` of the result: each part
/// contributes `widths[k] * inner` elements per index of the dimensions
/// before `axis` (`outer` of them). Null unless every part is a constant of
/// the result's element type with the expected element count.
static DenseElementsAttr joinConstants(RankedTensorType resultType,
                                       ArrayRef<Attribute> parts,
                                       ArrayRef<int64_t> widths, int64_t outer,
                                       int64_t inner) {
  SmallVector<DenseElementsAttr> values;
  for (auto [part, width] : llvm::zip(parts, widths)) {
    auto value = dyn_cast_or_null<DenseElementsAttr>(part);
    if (!value || value.getElementType() != resultType.getElementType() ||
        value.getNumElements() != outer * width * inner)
      return nullptr;
    values.push_back(value);
  }
  SmallVector<Attribute> elements;
  elements.reserve(resultType.getNumElements());
  for (int64_t o = 0; o < outer; ++o)
    for (auto [value, width] : llvm::zip(values, widths)) {
      auto all = value.getValues<Attribute>();
      for (int64_t i = 0; i < width * inner; ++i)
        elements.push_back(all[o * width * inner + i]);
    }
  if (static_cast<int64_t>(elements.size()) != resultType.getNumElements())
    return nullptr;
  return DenseElementsAttr::get(resultType, elements);
}

OpFoldResult PackOp::fold(FoldAdaptor adaptor) {
  RankedTensorType resultType = getFoldableResultType(getOperation());
  if (!resultType || getValues().empty())
    return {};
  int64_t rank = resultType.getRank();
  // I64Attr getters are unsigned: read the axis as signed.
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank ||
      resultType.getDimSize(axis) != static_cast<int64_t>(getValues().size()))
    return {};
  ArrayRef<int64_t> shape = resultType.getShape();
  int64_t outer = ShapedType::getNumElements(shape.take_front(axis));
  int64_t inner = ShapedType::getNumElements(shape.drop_front(axis + 1));
  SmallVector<int64_t> widths(getValues().size(), 1);
  return joinConstants(resultType, adaptor.getValues(), widths, outer, inner);
}

OpFoldResult ConcatV2Op::fold(FoldAdaptor adaptor) {
  RankedTensorType resultType = getFoldableResultType(getOperation());
  auto axisAttr = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getAxis());
  if (!resultType || !axisAttr || axisAttr.getNumElements() != 1)
    return {};
  int64_t rank = resultType.getRank();
  int64_t axis = (*axisAttr.getValues<APInt>().begin()).getSExtValue();
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return {};
  SmallVector<int64_t> widths;
  for (Value value : getValues()) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.getRank() != rank || type.isDynamicDim(axis))
      return {};
    widths.push_back(type.getDimSize(axis));
  }
  ArrayRef<int64_t> shape = resultType.getShape();
  int64_t outer = ShapedType::getNumElements(shape.take_front(axis));
  int64_t inner = ShapedType::getNumElements(shape.drop_front(axis + 1));
  return joinConstants(resultType, adaptor.getValues(), widths, outer, inner);
}

/// The integer values of a constant operand, or std::nullopt.
static std::optional<SmallVector<int64_t>> getInts(Attribute attr) {
  auto ints = dyn_cast_or_null<DenseIntElementsAttr>(attr);
  if (!ints)
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : ints.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

OpFoldResult StridedSliceOp::fold(FoldAdaptor adaptor) {
  RankedTensorType resultType = getFoldableResultType(getOperation());
  auto input = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  auto begin = getInts(adaptor.getBegin());
  auto end = getInts(adaptor.getEnd());
  auto strides = getInts(adaptor.getStrides());
  // Ellipses and new axes are left to the shape function.
  if (!resultType || !input || !begin || !end || !strides ||
      getEllipsisMask() != 0 || getNewAxisMask() != 0 ||
      input.getElementType() != resultType.getElementType())
    return {};
  ArrayRef<int64_t> shape = input.getType().getShape();
  int64_t rank = shape.size();
  int64_t n = begin->size();
  if (n > rank || end->size() != begin->size() ||
      strides->size() != begin->size())
    return {};
  // Per input dimension: the first index, the step and the count.
  SmallVector<int64_t> first(rank, 0), step(rank, 1), count(shape);
  SmallVector<int64_t> resultShape;
  auto bit = [](uint64_t mask, int64_t i) { return (mask >> i) & 1; };
  for (int64_t i = 0; i < rank; ++i) {
    int64_t dim = shape[i];
    if (i >= n) {
      resultShape.push_back(dim);
      continue;
    }
    int64_t b = (*begin)[i], e = (*end)[i], s = (*strides)[i];
    if (s == 0)
      return {};
    if (bit(getShrinkAxisMask(), i)) {
      if (b < -dim || b >= dim)
        return {};
      first[i] = b < 0 ? b + dim : b;
      count[i] = 1;
      continue;
    }
    bool beginMasked = bit(getBeginMask(), i), endMasked = bit(getEndMask(), i);
    if (s > 0) {
      b = std::clamp<int64_t>(beginMasked ? 0 : (b < 0 ? b + dim : b), 0, dim);
      e = std::clamp<int64_t>(endMasked ? dim : (e < 0 ? e + dim : e), 0, dim);
      count[i] = e <= b ? 0 : (e - b + s - 1) / s;
    } else {
      b = std::clamp<int64_t>(beginMasked ? dim - 1 : (b < 0 ? b + dim : b), -1,
                              dim - 1);
      e = std::clamp<int64_t>(endMasked ? -1 : (e < 0 ? e + dim : e), -1,
                              dim - 1);
      count[i] = b <= e ? 0 : (b - e - s - 1) / -s;
    }
    first[i] = b;
    step[i] = s;
    resultShape.push_back(count[i]);
  }
  if (ArrayRef<int64_t>(resultShape) != resultType.getShape())
    return {};
  if (input.isSplat())
    return DenseElementsAttr::get(resultType, input.getSplatValue<Attribute>());
  // Walk the selected indices in row-major order.
  SmallVector<int64_t> strideOf(rank, 1);
  for (int64_t i = rank - 2; i >= 0; --i)
    strideOf[i] = strideOf[i + 1] * shape[i + 1];
  auto all = input.getValues<Attribute>();
  SmallVector<Attribute> elements;
  elements.reserve(resultType.getNumElements());
  SmallVector<int64_t> index(rank, 0);
  int64_t total = resultType.getNumElements();
  for (int64_t k = 0; k < total; ++k) {
    int64_t offset = 0;
    for (int64_t i = 0; i < rank; ++i)
      offset += (first[i] + index[i] * step[i]) * strideOf[i];
    elements.push_back(all[offset]);
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++index[i] < count[i])
        break;
      index[i] = 0;
    }
  }
  return DenseElementsAttr::get(resultType, elements);
}

//===----------------------------------------------------------------------===//
// ExpandDims, Squeeze, SparseToDense
//===----------------------------------------------------------------------===//

/// A constant `value` given the static result type of `op` with the same
/// elements (ExpandDims and Squeeze only insert or drop 1s); null otherwise.
static OpFoldResult reshapeConstant(Operation *op, Attribute value) {
  auto elements = dyn_cast_or_null<DenseElementsAttr>(value);
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!elements || !resultType || !resultType.hasStaticShape() ||
      resultType.getNumElements() != elements.getNumElements() ||
      resultType.getElementType() != elements.getElementType())
    return {};
  return elements.reshape(resultType);
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return reshapeConstant(getOperation(), adaptor.getInput());
}

OpFoldResult SqueezeOp::fold(FoldAdaptor adaptor) {
  return reshapeConstant(getOperation(), adaptor.getInput());
}

OpFoldResult SparseToDenseOp::fold(FoldAdaptor adaptor) {
  RankedTensorType resultType = getFoldableResultType(getOperation());
  auto indices = getInts(adaptor.getSparseIndices());
  auto values = dyn_cast_or_null<DenseElementsAttr>(adaptor.getSparseValues());
  auto fill = dyn_cast_or_null<DenseElementsAttr>(adaptor.getDefaultValue());
  if (!resultType || resultType.getRank() == 0 || !indices || !values ||
      !fill || fill.getNumElements() != 1 ||
      values.getElementType() != resultType.getElementType() ||
      fill.getElementType() != resultType.getElementType())
    return {};
  // sparse_indices is a scalar, [N] or [N, rank]; sparse_values a scalar
  // (for every index) or [N].
  int64_t rank = resultType.getRank();
  auto indicesType = cast<ShapedType>(getSparseIndices().getType());
  int64_t perIndex = indicesType.getRank() == 2 ? indicesType.getDimSize(1) : 1;
  if (perIndex != rank || static_cast<int64_t>(indices->size()) % perIndex != 0)
    return {};
  int64_t n = indices->size() / perIndex;
  if (!values.isSplat() && values.getNumElements() != n)
    return {};
  if (n == 0)
    return DenseElementsAttr::get(resultType, fill.getSplatValue<Attribute>());
  SmallVector<Attribute> elements(resultType.getNumElements(),
                                  fill.getSplatValue<Attribute>());
  auto all = values.getValues<Attribute>();
  ArrayRef<int64_t> shape = resultType.getShape();
  for (int64_t k = 0; k < n; ++k) {
    int64_t offset = 0;
    for (int64_t i = 0; i < rank; ++i) {
      int64_t index = (*indices)[k * perIndex + i];
      if (index < 0 || index >= shape[i])
        return {};
      offset = offset * shape[i] + index;
    }
    elements[offset] = values.isSplat() ? all[0] : all[k];
  }
  return DenseElementsAttr::get(resultType, elements);
}

//===----------------------------------------------------------------------===//
// Fill, Range, GatherV2
//===----------------------------------------------------------------------===//

OpFoldResult FillOp::fold(FoldAdaptor adaptor) {
  RankedTensorType resultType = getFoldableResultType(getOperation());
  auto value = dyn_cast_or_null<DenseElementsAttr>(adaptor.getValue());
  if (!resultType || !value || value.getNumElements() != 1 ||
      value.getElementType() != resultType.getElementType())
    return {};
  return DenseElementsAttr::get(resultType, value.getSplatValue<Attribute>());
}

OpFoldResult RangeOp::fold(FoldAdaptor adaptor) {
  // Integer ranges only: a float range accumulates rounding that TensorFlow
  // and a folder could disagree on.
  RankedTensorType resultType = getFoldableResultType(getOperation());
  auto start = getInts(adaptor.getStart());
  auto limit = getInts(adaptor.getLimit());
  auto delta = getInts(adaptor.getDelta());
  if (!resultType || resultType.getRank() != 1 || !start || !limit || !delta ||
      start->size() != 1 || limit->size() != 1 || delta->size() != 1 ||
      (*delta)[0] == 0)
    return {};
  auto element = dyn_cast<IntegerType>(resultType.getElementType());
  if (!element)
    return {};
  int64_t s = (*start)[0], d = (*delta)[0];
  SmallVector<APInt> values;
  for (int64_t i = 0; i < resultType.getDimSize(0); ++i)
    values.push_back(APInt(element.getWidth(), s + i * d, /*isSigned=*/true));
  // The length must be the one the shape function gives.
  int64_t span = d > 0 ? (*limit)[0] - s : s - (*limit)[0];
  int64_t step = d > 0 ? d : -d;
  if ((span <= 0 ? 0 : (span + step - 1) / step) != resultType.getDimSize(0))
    return {};
  return DenseElementsAttr::get(resultType, values);
}

OpFoldResult GatherV2Op::fold(FoldAdaptor adaptor) {
  RankedTensorType resultType = getFoldableResultType(getOperation());
  auto params = dyn_cast_or_null<DenseElementsAttr>(adaptor.getParams());
  auto indices = getInts(adaptor.getIndices());
  auto axisValues = getInts(adaptor.getAxis());
  if (!resultType || !params || !indices || !axisValues ||
      axisValues->size() != 1 || getBatchDims() != 0 ||
      params.getElementType() != resultType.getElementType())
    return {};
  ArrayRef<int64_t> shape = params.getType().getShape();
  int64_t rank = shape.size();
  int64_t axis =
      (*axisValues)[0] < 0 ? (*axisValues)[0] + rank : (*axisValues)[0];
  if (axis < 0 || axis >= rank)
    return {};
  int64_t outer = ShapedType::getNumElements(shape.take_front(axis));
  int64_t inner = ShapedType::getNumElements(shape.drop_front(axis + 1));
  int64_t n = indices->size();
  if (outer * n * inner != resultType.getNumElements())
    return {};
  auto all = params.getValues<Attribute>();
  SmallVector<Attribute> elements;
  elements.reserve(resultType.getNumElements());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t index : *indices) {
      // Out-of-range indices are an error on CPU: leave them.
      if (index < 0 || index >= shape[axis])
        return {};
      for (int64_t i = 0; i < inner; ++i)
        elements.push_back(all[(o * shape[axis] + index) * inner + i]);
    }
  return DenseElementsAttr::get(resultType, elements);
}
