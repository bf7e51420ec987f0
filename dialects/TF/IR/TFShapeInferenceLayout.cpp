//===- TFShapeInferenceLayout.cpp - shape rules of layout ops ---*- C++ -*-===//
//
// inferResultTypes of the shape and layout ops: Reshape, Shape, Size,
// ExpandDims, Squeeze, Transpose, ConcatV2, Pack, Unpack, Fill, BroadcastTo,
// Pad, PadV2, MirrorPad, Select, Where.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFShapeInference.h"
#include "dialects/TF/IR/TFShapeInferenceUtils.h"
#include "dialects/TF/IR/TFTypeUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace kiln::tf;
using namespace kiln::tf::detail;

//===----------------------------------------------------------------------===//
// Shapes and layout
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  Operation *op = getOperation();
  initResultTypes(op, resultTypes);
  auto dims = getConstantIntValues(getShape());
  if (!dims) {
    // Without the values, the length of the shape operand gives the rank.
    auto shapeShape = getRankedShape(getShape().getType());
    if (shapeShape && shapeShape->size() == 1 &&
        !ShapedType::isDynamic((*shapeShape)[0]))
      setShape(op, resultTypes, 0,
               SmallVector<int64_t>((*shapeShape)[0], kDynamic));
    return success();
  }
  SmallVector<int64_t> result;
  int64_t known = 1;
  int64_t unknownIndex = -1;
  for (auto [i, dim] : llvm::enumerate(*dims)) {
    if (dim == -1) {
      if (unknownIndex != -1)
        return emitOpError("requires at most one -1 in shape, got ")
               << llvm::interleaved_array(*dims);
      unknownIndex = i;
      result.push_back(kDynamic);
      continue;
    }
    if (dim < 0)
      return emitOpError("requires shape dimensions to be -1 or "
                         "non-negative, got ")
             << dim;
    known *= dim;
    result.push_back(dim);
  }
  auto inputType = dyn_cast<RankedTensorType>(getTensor().getType());
  if (inputType && inputType.hasStaticShape()) {
    int64_t count = inputType.getNumElements();
    if (unknownIndex != -1) {
      if (known != 0 && count % known == 0)
        result[unknownIndex] = count / known;
    } else if (known != count) {
      return emitOpError("requires the shape to have ")
             << count << " elements like " << inputType << ", got "
             << llvm::interleaved_array(*dims);
    }
  }
  setShape(op, resultTypes, 0, result);
  return success();
}

LogicalResult ShapeOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  if (auto shape = getRankedShape(getInput().getType()))
    setShape(getOperation(), resultTypes, 0,
             SmallVector<int64_t>{static_cast<int64_t>(shape->size())});
  else
    setShape(getOperation(), resultTypes, 0, SmallVector<int64_t>{kDynamic});
  return success();
}

LogicalResult SizeOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  setShape(getOperation(), resultTypes, 0, SmallVector<int64_t>{});
  return success();
}

LogicalResult
ExpandDimsOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getInput().getType());
  if (!shape)
    return success();
  int64_t rank = shape->size();
  auto dim = getConstantIntValues(getDim());
  if (!dim || dim->size() != 1) {
    setShape(getOperation(), resultTypes, 0,
             SmallVector<int64_t>(rank + 1, kDynamic));
    return success();
  }
  FailureOr<int64_t> axis =
      normalizeAxis(getOperation(), "dim", (*dim)[0], rank + 1);
  if (failed(axis))
    return failure();
  shape->insert(shape->begin() + *axis, 1);
  setShape(getOperation(), resultTypes, 0, *shape);
  return success();
}

LogicalResult SqueezeOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getInput().getType());
  if (!shape)
    return success();
  int64_t rank = shape->size();
  SmallVector<bool> squeezed(rank, false);
  ArrayAttr dims = getSqueezeDims();
  if (dims.empty()) {
    for (int64_t i = 0; i < rank; ++i) {
      // A dynamic dimension may or may not be 1: the rank is unknown.
      if (ShapedType::isDynamic((*shape)[i]))
        return success();
      squeezed[i] = (*shape)[i] == 1;
    }
  } else {
    for (Attribute attr : dims) {
      FailureOr<int64_t> axis =
          normalizeAxis(getOperation(), "squeeze_dims entries",
                        cast<IntegerAttr>(attr).getInt(), rank);
      if (failed(axis))
        return failure();
      squeezed[*axis] = true;
    }
  }
  SmallVector<int64_t> result;
  for (int64_t i = 0; i < rank; ++i)
    if (!squeezed[i])
      result.push_back((*shape)[i]);
  setShape(getOperation(), resultTypes, 0, result);
  return success();
}

LogicalResult
TransposeOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getX().getType());
  if (!shape)
    return success();
  int64_t rank = shape->size();
  auto perm = getConstantIntValues(getPerm());
  if (!perm) {
    setShape(getOperation(), resultTypes, 0,
             SmallVector<int64_t>(rank, kDynamic));
    return success();
  }
  if (static_cast<int64_t>(perm->size()) != rank)
    return emitOpError("requires perm to have ")
           << rank << " elements like the rank of x, got " << perm->size();
  SmallVector<int64_t> result;
  for (int64_t p : *perm) {
    FailureOr<int64_t> axis = normalizeAxis(getOperation(), "perm", p, rank);
    if (failed(axis))
      return failure();
    result.push_back((*shape)[*axis]);
  }
  setShape(getOperation(), resultTypes, 0, result);
  return success();
}

LogicalResult ConcatV2Op::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  std::optional<SmallVector<int64_t>> result;
  for (Value value : getValues()) {
    if (auto shape = getRankedShape(value.getType())) {
      result = shape;
      break;
    }
  }
  if (!result)
    return success();
  int64_t rank = result->size();
  auto axisValues = getConstantIntValues(getAxis());
  if (!axisValues || axisValues->size() != 1) {
    setShape(getOperation(), resultTypes, 0,
             SmallVector<int64_t>(rank, kDynamic));
    return success();
  }
  FailureOr<int64_t> axis =
      normalizeAxis(getOperation(), "axis", (*axisValues)[0], rank);
  if (failed(axis))
    return failure();
  int64_t concatenated = 0;
  for (Value value : getValues()) {
    auto shape = getRankedShape(value.getType());
    if (!shape) {
      concatenated = kDynamic;
      continue;
    }
    if (static_cast<int64_t>(shape->size()) != rank)
      return emitOpError("requires values of the same rank, got ")
             << value.getType() << " with rank " << rank;
    for (int64_t i = 0; i < rank; ++i) {
      int64_t dim = (*shape)[i];
      if (i == *axis) {
        if (ShapedType::isDynamic(dim) || ShapedType::isDynamic(concatenated))
          concatenated = kDynamic;
        else
          concatenated += dim;
        continue;
      }
      int64_t &have = (*result)[i];
      if (ShapedType::isDynamic(have))
        have = dim;
      else if (!ShapedType::isDynamic(dim) && dim != have)
        return emitOpError("requires values to agree on dimension ")
               << i << ", got " << have << " and " << dim;
    }
  }
  (*result)[*axis] = concatenated;
  setShape(getOperation(), resultTypes, 0, *result);
  return success();
}

/// The merged shape of `values` (the static dimensions of any), or nullopt
/// when none is ranked; fails on a static mismatch.
static FailureOr<std::optional<SmallVector<int64_t>>>
mergeShapes(Operation *op, ValueRange values) {
  std::optional<SmallVector<int64_t>> result;
  for (Value value : values) {
    auto shape = getRankedShape(value.getType());
    if (!shape)
      continue;
    if (!result) {
      result = shape;
      continue;
    }
    if (shape->size() != result->size())
      return op->emitOpError("requires values of the same shape, got ")
             << value.getType() << " and rank " << result->size();
    for (auto [have, dim] : llvm::zip(*result, *shape)) {
      if (ShapedType::isDynamic(have))
        have = dim;
      else if (!ShapedType::isDynamic(dim) && dim != have)
        return op->emitOpError("requires values of the same shape, got ")
               << value.getType() << " and dimension " << have;
    }
  }
  return result;
}

LogicalResult PackOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto merged = mergeShapes(getOperation(), getValues());
  if (failed(merged))
    return failure();
  if (!*merged)
    return success();
  SmallVector<int64_t> shape = **merged;
  FailureOr<int64_t> axis =
      normalizeAxis(getOperation(), "axis", getAxis(), shape.size() + 1);
  if (failed(axis))
    return failure();
  shape.insert(shape.begin() + *axis, static_cast<int64_t>(getValues().size()));
  setShape(getOperation(), resultTypes, 0, shape);
  return success();
}

LogicalResult UnpackOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getValue().getType());
  if (!shape || shape->empty())
    return success();
  FailureOr<int64_t> axis =
      normalizeAxis(getOperation(), "axis", getAxis(), shape->size());
  if (failed(axis))
    return failure();
  shape->erase(shape->begin() + *axis);
  for (unsigned i = 0, e = getNumResults(); i < e; ++i)
    setShape(getOperation(), resultTypes, i, *shape);
  return success();
}

LogicalResult FillOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferFromShapeOperand(getOperation(), getDims(), resultTypes);
}

LogicalResult
BroadcastToOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferFromShapeOperand(getOperation(), getShape(), resultTypes);
}

/// Pad and PadV2: each dimension grows by its before/after paddings.
static LogicalResult inferPad(Operation *op, Value input, Value paddings,
                              SmallVectorImpl<Type> &types) {
  initResultTypes(op, types);
  auto shape = getRankedShape(input.getType());
  if (!shape)
    return success();
  auto pads = getConstantIntValues(paddings);
  if (!pads || pads->size() != 2 * shape->size()) {
    setShape(op, types, 0, SmallVector<int64_t>(shape->size(), kDynamic));
    return success();
  }
  for (auto [i, dim] : llvm::enumerate(*shape))
    if (!ShapedType::isDynamic(dim))
      dim += (*pads)[2 * i] + (*pads)[2 * i + 1];
  setShape(op, types, 0, *shape);
  return success();
}

LogicalResult PadOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferPad(getOperation(), getInput(), getPaddings(), resultTypes);
}

LogicalResult PadV2Op::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferPad(getOperation(), getInput(), getPaddings(), resultTypes);
}

LogicalResult
MirrorPadOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferPad(getOperation(), getInput(), getPaddings(), resultTypes);
}

LogicalResult SelectOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto merged =
      mergeShapes(getOperation(), ValueRange{getThenValue(), getElseValue()});
  if (failed(merged))
    return failure();
  if (*merged)
    setShape(getOperation(), resultTypes, 0, **merged);
  return success();
}

LogicalResult WhereOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  if (auto shape = getRankedShape(getInput().getType()))
    setShape(
        getOperation(), resultTypes, 0,
        SmallVector<int64_t>{kDynamic, static_cast<int64_t>(shape->size())});
  return success();
}

