//===- TFShapeInferenceSlicing.cpp - shape rules of slicing -----*- C++ -*-===//
//
// inferResultTypes of slicing, gathering and splitting: StridedSlice,
// Slice, Tile, GatherV2, Split, SplitV, TopKV2, Range.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFShapeInference.h"
#include "dialects/TF/IR/TFShapeInferenceUtils.h"
#include "dialects/TF/IR/TFTypeUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace kiln::tf;
using namespace kiln::tf::detail;

//===----------------------------------------------------------------------===//
// Slicing, gathering, splitting
//===----------------------------------------------------------------------===//

/// The number of elements of a static dimension `dim` that a slice from
/// `begin` to `end` by `stride` selects, with TensorFlow's masks, negative
/// indices and clamping.
static int64_t stridedSliceSize(int64_t dim, int64_t begin, int64_t end,
                                int64_t stride, bool beginMasked,
                                bool endMasked) {
  if (ShapedType::isDynamic(dim) || stride == 0)
    return kDynamic;
  if (stride > 0) {
    int64_t b = beginMasked ? 0 : (begin < 0 ? begin + dim : begin);
    int64_t e = endMasked ? dim : (end < 0 ? end + dim : end);
    b = std::clamp<int64_t>(b, 0, dim);
    e = std::clamp<int64_t>(e, 0, dim);
    return e <= b ? 0 : (e - b + stride - 1) / stride;
  }
  int64_t b = beginMasked ? dim - 1 : (begin < 0 ? begin + dim : begin);
  int64_t e = endMasked ? -1 : (end < 0 ? end + dim : end);
  b = std::clamp<int64_t>(b, -1, dim - 1);
  e = std::clamp<int64_t>(e, -1, dim - 1);
  return b <= e ? 0 : (b - e - stride - 1) / -stride;
}

LogicalResult
StridedSliceOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getInput().getType());
  auto begin = getConstantIntValues(getBegin());
  auto end = getConstantIntValues(getEnd());
  auto strides = getConstantIntValues(getStrides());
  if (!shape)
    return success();
  // The number of slicing entries: from a constant, or the static length of
  // begin/end/strides. Without the values, the masks still give the rank.
  std::optional<int64_t> length;
  for (Value v : {getBegin(), getEnd(), getStrides()}) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (type && type.getRank() == 1 && !type.isDynamicDim(0))
      length = type.getDimSize(0);
  }
  if (!length)
    return success();
  int64_t n = *length;
  auto valueAt = [&](const std::optional<SmallVector<int64_t>> &values,
                     int64_t i) -> std::optional<int64_t> {
    if (!values || static_cast<int64_t>(values->size()) != n)
      return std::nullopt;
    return (*values)[i];
  };
  int64_t rank = shape->size();
  auto bit = [](int64_t mask, int64_t i) { return (mask >> i) & 1; };
  uint64_t ellipsis = getEllipsisMask(), newAxis = getNewAxisMask();
  uint64_t shrink = getShrinkAxisMask();
  // Sparse entries after the ellipsis that consume an input dimension.
  int64_t ellipsisAt = -1;
  for (int64_t i = 0; i < n; ++i)
    if (bit(ellipsis, i)) {
      ellipsisAt = i;
      break;
    }
  SmallVector<int64_t> result;
  int64_t inputDim = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i == ellipsisAt) {
      int64_t consumedAfter = 0;
      for (int64_t j = i + 1; j < n; ++j)
        if (!bit(newAxis, j))
          ++consumedAfter;
      int64_t until = rank - consumedAfter;
      for (; inputDim < until; ++inputDim)
        result.push_back((*shape)[inputDim]);
      continue;
    }
    if (bit(newAxis, i)) {
      result.push_back(1);
      continue;
    }
    if (inputDim >= rank)
      return emitOpError("requires at most ")
             << rank << " slicing dimensions like the rank of input, got " << n;
    int64_t dim = (*shape)[inputDim++];
    std::optional<int64_t> stride = valueAt(strides, i);
    std::optional<int64_t> b = valueAt(begin, i), e = valueAt(end, i);
    if (stride && *stride == 0)
      return emitOpError("requires non-zero strides");
    if (bit(shrink, i)) {
      if (b && !ShapedType::isDynamic(dim) && (*b < -dim || *b >= dim))
        return emitOpError("requires the shrunk index ")
               << *b << " to be in [" << -dim << ", " << dim << ")";
      continue;
    }
    bool beginMasked = bit(getBeginMask(), i), endMasked = bit(getEndMask(), i);
    if (!stride || (!b && !beginMasked) || (!e && !endMasked)) {
      result.push_back(kDynamic);
      continue;
    }
    result.push_back(stridedSliceSize(dim, b.value_or(0), e.value_or(0),
                                      *stride, beginMasked, endMasked));
  }
  // Without an ellipsis, the remaining dimensions are kept whole.
  for (; inputDim < rank; ++inputDim)
    result.push_back((*shape)[inputDim]);
  setShape(getOperation(), resultTypes, 0, result);
  return success();
}

LogicalResult SliceOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getInput().getType());
  auto sizes = getConstantIntValues(getSize());
  if (!shape)
    return success();
  if (!sizes || sizes->size() != shape->size()) {
    setShape(getOperation(), resultTypes, 0,
             SmallVector<int64_t>(shape->size(), kDynamic));
    return success();
  }
  auto begin = getConstantIntValues(getBegin());
  SmallVector<int64_t> result;
  for (auto [i, size] : llvm::enumerate(*sizes)) {
    if (size >= 0) {
      result.push_back(size);
      continue;
    }
    int64_t dim = (*shape)[i];
    // -1 takes the rest of the dimension.
    if (size == -1 && begin && begin->size() == shape->size() &&
        !ShapedType::isDynamic(dim))
      result.push_back(std::max<int64_t>(dim - (*begin)[i], 0));
    else
      result.push_back(kDynamic);
  }
  setShape(getOperation(), resultTypes, 0, result);
  return success();
}

LogicalResult TileOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getInput().getType());
  if (!shape)
    return success();
  auto multiples = getConstantIntValues(getMultiples());
  if (!multiples || multiples->size() != shape->size()) {
    setShape(getOperation(), resultTypes, 0,
             SmallVector<int64_t>(shape->size(), kDynamic));
    return success();
  }
  for (auto [dim, m] : llvm::zip(*shape, *multiples))
    if (!ShapedType::isDynamic(dim))
      dim *= m;
  setShape(getOperation(), resultTypes, 0, *shape);
  return success();
}

LogicalResult GatherV2Op::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto params = getRankedShape(getParams().getType());
  auto indices = getRankedShape(getIndices().getType());
  auto axisValues = getConstantIntValues(getAxis());
  if (!params || !indices)
    return success();
  int64_t batchDims = getBatchDims();
  if (batchDims < 0)
    batchDims += indices->size();
  if (!axisValues) {
    // An axis known only at run time: the rank is still known, and the
    // batch dimensions lead both params and the result.
    int64_t rank = params->size() - 1 + indices->size() - batchDims;
    if (params->empty() || batchDims < 0 ||
        batchDims > static_cast<int64_t>(indices->size()) || rank < 0)
      return success();
    SmallVector<int64_t> result(rank, kDynamic);
    for (int64_t dim = 0; dim < batchDims; ++dim)
      result[dim] = (*indices)[dim];
    setShape(getOperation(), resultTypes, 0, result);
    return success();
  }
  if (axisValues->size() != 1)
    return success();
  FailureOr<int64_t> axis =
      normalizeAxis(getOperation(), "axis", (*axisValues)[0], params->size());
  if (failed(axis))
    return failure();
  if (batchDims < 0 || batchDims > static_cast<int64_t>(indices->size()) ||
      batchDims > *axis)
    return emitOpError("requires batch_dims to be in [0, ")
           << std::min<int64_t>(indices->size(), *axis) << "], got "
           << getBatchDims();
  SmallVector<int64_t> result(params->begin(), params->begin() + *axis);
  result.append(indices->begin() + batchDims, indices->end());
  result.append(params->begin() + *axis + 1, params->end());
  setShape(getOperation(), resultTypes, 0, result);
  return success();
}

LogicalResult SplitOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getValue().getType());
  auto dimValues = getConstantIntValues(getSplitDim());
  if (!shape)
    return success();
  if (!dimValues || dimValues->size() != 1) {
    for (unsigned i = 0, e = getNumResults(); i < e; ++i)
      setShape(getOperation(), resultTypes, i,
               SmallVector<int64_t>(shape->size(), kDynamic));
    return success();
  }
  FailureOr<int64_t> axis = normalizeAxis(getOperation(), "split_dim",
                                          (*dimValues)[0], shape->size());
  if (failed(axis))
    return failure();
  int64_t &dim = (*shape)[*axis];
  int64_t n = getNumResults();
  if (!ShapedType::isDynamic(dim)) {
    if (dim % n != 0)
      return emitOpError("requires dimension ")
             << *axis << " (" << dim << ") to be divisible by the " << n
             << " results";
    dim /= n;
  }
  for (int64_t i = 0; i < n; ++i)
    setShape(getOperation(), resultTypes, i, *shape);
  return success();
}

LogicalResult SplitVOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getValue().getType());
  auto dimValues = getConstantIntValues(getSplitDim());
  if (!shape || !dimValues || dimValues->size() != 1)
    return success();
  FailureOr<int64_t> axis = normalizeAxis(getOperation(), "split_dim",
                                          (*dimValues)[0], shape->size());
  if (failed(axis))
    return failure();
  auto sizes = getConstantIntValues(getSizeSplits());
  int64_t n = getNumResults();
  if (!sizes || static_cast<int64_t>(sizes->size()) != n) {
    (*shape)[*axis] = kDynamic;
    for (int64_t i = 0; i < n; ++i)
      setShape(getOperation(), resultTypes, i, *shape);
    return success();
  }
  // One size may be -1: the rest of the dimension.
  int64_t dim = (*shape)[*axis], known = 0, unknownAt = -1;
  for (auto [i, size] : llvm::enumerate(*sizes)) {
    if (size == -1)
      unknownAt = i;
    else
      known += size;
  }
  for (int64_t i = 0; i < n; ++i) {
    int64_t size = (*sizes)[i];
    if (i == unknownAt)
      size = ShapedType::isDynamic(dim) ? kDynamic : dim - known;
    (*shape)[*axis] = size;
    setShape(getOperation(), resultTypes, i, *shape);
  }
  return success();
}

LogicalResult TopKV2Op::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getInput().getType());
  if (!shape || shape->empty())
    return success();
  auto k = getConstantIntValues(getK());
  shape->back() = k && k->size() == 1 ? (*k)[0] : kDynamic;
  setShape(getOperation(), resultTypes, 0, *shape);
  setShape(getOperation(), resultTypes, 1, *shape);
  return success();
}

/// The value of a scalar float constant (evaluated like
/// getConstantIntValues), or std::nullopt.
static std::optional<double> getConstantFloatScalar(Value value) {
  auto attr = dyn_cast_or_null<DenseFPElementsAttr>(
      evaluateConstant(value, kMaxEvaluationDepth));
  if (!attr || attr.getNumElements() != 1)
    return std::nullopt;
  return (*attr.getValues<APFloat>().begin()).convertToDouble();
}

LogicalResult RangeOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  int64_t size = kDynamic;
  auto start = getConstantIntValues(getStart());
  auto limit = getConstantIntValues(getLimit());
  auto delta = getConstantIntValues(getDelta());
  if (start && limit && delta && start->size() == 1 && limit->size() == 1 &&
      delta->size() == 1 && (*delta)[0] != 0) {
    int64_t s = (*start)[0], l = (*limit)[0], d = (*delta)[0];
    int64_t span = d > 0 ? l - s : s - l;
    int64_t step = d > 0 ? d : -d;
    size = span <= 0 ? 0 : (span + step - 1) / step;
  } else if (auto fStart = getConstantFloatScalar(getStart()),
             fLimit = getConstantFloatScalar(getLimit()),
             fDelta = getConstantFloatScalar(getDelta());
             fStart && fLimit && fDelta && *fDelta != 0) {
    // Float ranges (TF.js writes coordinate grids this way): TensorFlow's
    // size is ceil(|(limit - start) / delta|), 0 when delta points away.
    double span = (*fLimit - *fStart) / *fDelta;
    if (span <= 0)
      size = 0;
    else if (span < static_cast<double>(kMaxFoldedElements))
      size = static_cast<int64_t>(std::ceil(span));
  }
  setShape(getOperation(), resultTypes, 0, SmallVector<int64_t>{size});
  return success();
}

