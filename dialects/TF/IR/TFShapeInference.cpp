//===- TFShapeInference.cpp - shape functions of tf ops ---------*- C++ -*-===//
//
// The shared shape rules of TFShapeInference.h, and the op-specific
// inferResultTypes of the ops marked `shape: custom` in ops.txt.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFShapeInference.h"
#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFTypeUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/InterleavedRange.h"

#include <cmath>

using namespace mlir;
using namespace kiln::tf;

static constexpr int64_t kDynamic = ShapedType::kDynamic;

//===----------------------------------------------------------------------===//
// Utilities
//===----------------------------------------------------------------------===//

/// The value an island result forwards: TensorFlow's IR wraps every op
/// (constants included) in a `tf_executor.island` whose i-th result is the
/// i-th operand of its terminator. Matched by name, so that the tf dialect
/// does not depend on tf_executor.
static Value lookThroughIslands(Value value) {
  while (auto result = dyn_cast_or_null<OpResult>(value)) {
    Operation *owner = result.getOwner();
    if (owner->getName().getStringRef() != "tf_executor.island" ||
        owner->getNumRegions() != 1 || owner->getRegion(0).empty())
      break;
    Operation *terminator = owner->getRegion(0).front().getTerminator();
    if (!terminator || result.getResultNumber() >= terminator->getNumOperands())
      break;
    value = terminator->getOperand(result.getResultNumber());
  }
  return value;
}

/// How many ops deep evaluateConstant looks behind a value.
static constexpr unsigned kMaxEvaluationDepth = 12;

/// The constant `value` holds: its constant-like producer's, or what the
/// folder of its pure single-result tf producer computes from the operands'
/// constants (evaluated the same way, at most `depth` ops deep). Only small
/// static values (kMaxEvaluatedElements) are evaluated; the IR is not
/// changed. Null when unknown.
static Attribute evaluateConstant(Value value, unsigned depth) {
  value = lookThroughIslands(value);
  if (!value)
    return {};
  Attribute attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  Operation *op = value.getDefiningOp();
  if (depth == 0 || !type || !type.hasStaticShape() ||
      type.getNumElements() > kMaxEvaluatedElements || !op ||
      op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      !isa<TFDialect>(op->getDialect()) || !isPure(op))
    return {};
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands())
    operands.push_back(evaluateConstant(operand, depth - 1));
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) || results.size() != 1)
    return {};
  if (auto folded = dyn_cast<Attribute>(results.front()))
    return folded;
  // A forwarding folder (Identity, Reshape to the same type).
  return evaluateConstant(cast<Value>(results.front()), depth - 1);
}

std::optional<SmallVector<int64_t>>
kiln::tf::getConstantIntValues(Value value) {
  auto attr = dyn_cast_or_null<DenseIntElementsAttr>(
      evaluateConstant(value, kMaxEvaluationDepth));
  if (!attr)
    return std::nullopt;
  SmallVector<int64_t> values;
  bool isUnsigned = attr.getElementType().isUnsignedInteger();
  for (const APInt &v : attr.getValues<APInt>())
    values.push_back(isUnsigned ? static_cast<int64_t>(v.getZExtValue())
                                : v.getSExtValue());
  return values;
}

std::optional<SmallVector<int64_t>> kiln::tf::getRankedShape(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return std::nullopt;
  return llvm::to_vector(ranked.getShape());
}

LogicalResult kiln::tf::broadcastShapes(ArrayRef<int64_t> lhs,
                                        ArrayRef<int64_t> rhs,
                                        SmallVectorImpl<int64_t> &result) {
  size_t rank = std::max(lhs.size(), rhs.size());
  result.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < lhs.size() ? lhs[lhs.size() - 1 - i] : 1;
    int64_t b = i < rhs.size() ? rhs[rhs.size() - 1 - i] : 1;
    int64_t &out = result[rank - 1 - i];
    if (a == 1)
      out = b;
    else if (b == 1)
      out = a;
    else if (a == kDynamic)
      out = b; // b is static and not 1, or dynamic
    else if (b == kDynamic || a == b)
      out = a;
    else
      return failure();
  }
  return success();
}

Type kiln::tf::refineType(Type current,
                          std::optional<ArrayRef<int64_t>> inferredShape) {
  auto tensor = dyn_cast<TensorType>(current);
  if (!tensor || !inferredShape)
    return current;
  Type element = tensor.getElementType();
  auto ranked = dyn_cast<RankedTensorType>(tensor);
  if (!ranked)
    return RankedTensorType::get(*inferredShape, element);
  if (ranked.getRank() != static_cast<int64_t>(inferredShape->size()))
    return current;
  SmallVector<int64_t> shape;
  for (auto [have, inferred] : llvm::zip(ranked.getShape(), *inferredShape))
    shape.push_back(ShapedType::isDynamic(inferred) ? have : inferred);
  return RankedTensorType::get(shape, element, ranked.getEncoding());
}

/// Starts every rule: the current result types.
static void initResultTypes(Operation *op, SmallVectorImpl<Type> &types) {
  types.assign(op->result_type_begin(), op->result_type_end());
}

/// Sets result `idx` to its current type refined by `shape`.
static void setShape(Operation *op, SmallVectorImpl<Type> &types, unsigned idx,
                     std::optional<ArrayRef<int64_t>> shape) {
  types[idx] = refineType(op->getResult(idx).getType(), shape);
}

/// Normalizes `axis` against `rank` (negative counts from the end), or fails
/// with an error naming `what`.
static FailureOr<int64_t> normalizeAxis(Operation *op, StringRef what,
                                        int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return op->emitOpError("requires ") << what << " to be in [" << -rank
                                        << ", " << rank << "), got " << axis;
  return axis < 0 ? axis + rank : axis;
}

//===----------------------------------------------------------------------===//
// Shared shape rules
//===----------------------------------------------------------------------===//

LogicalResult
kiln::tf::inferUnaryElementwise(Operation *op,
                                SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(op, resultTypes);
  if (op->getNumOperands() == 0 || op->getNumResults() == 0)
    return success();
  auto shape = getRankedShape(op->getOperand(0).getType());
  if (shape)
    setShape(op, resultTypes, 0, *shape);
  return success();
}

LogicalResult kiln::tf::inferPassThrough(Operation *op,
                                         SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(op, resultTypes);
  unsigned n = std::min(op->getNumOperands(), op->getNumResults());
  for (unsigned i = 0; i < n; ++i)
    if (auto shape = getRankedShape(op->getOperand(i).getType()))
      setShape(op, resultTypes, i, *shape);
  return success();
}

LogicalResult kiln::tf::inferBroadcast(Operation *op,
                                       SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(op, resultTypes);
  if (op->getNumResults() == 0)
    return success();
  SmallVector<int64_t> shape;
  for (Value operand : op->getOperands()) {
    auto operandShape = getRankedShape(operand.getType());
    if (!operandShape)
      return success(); // an unranked operand: the rank is unknown
    SmallVector<int64_t> next;
    if (failed(broadcastShapes(shape, *operandShape, next))) {
      // The shape the earlier operands broadcast to, printed as a type.
      Type earlier =
          RankedTensorType::get(shape, getElementTypeOrSelf(operand.getType()));
      return op->emitOpError("requires broadcast-compatible operand shapes, "
                             "got ")
             << earlier << " and " << operand.getType();
    }
    shape = std::move(next);
  }
  setShape(op, resultTypes, 0, shape);
  return success();
}

LogicalResult kiln::tf::inferReduction(Operation *op,
                                       SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(op, resultTypes);
  if (op->getNumOperands() < 2 || op->getNumResults() == 0)
    return success();
  auto shape = getRankedShape(op->getOperand(0).getType());
  if (!shape)
    return success();
  bool keepDims = false;
  if (auto attr = op->getAttrOfType<BoolAttr>("keep_dims"))
    keepDims = attr.getValue();
  int64_t rank = shape->size();
  auto axes = getConstantIntValues(op->getOperand(1));
  if (!axes) {
    if (keepDims)
      setShape(op, resultTypes, 0, SmallVector<int64_t>(rank, kDynamic));
    return success();
  }
  SmallVector<bool> reduced(rank, false);
  for (int64_t axis : *axes) {
    // A scalar input reduces over nothing; TensorFlow accepts axis 0 or -1.
    if (rank == 0)
      continue;
    FailureOr<int64_t> normalized =
        normalizeAxis(op, "reduction axis", axis, rank);
    if (failed(normalized))
      return failure();
    reduced[*normalized] = true;
  }
  SmallVector<int64_t> result;
  for (int64_t i = 0; i < rank; ++i) {
    if (!reduced[i])
      result.push_back((*shape)[i]);
    else if (keepDims)
      result.push_back(1);
  }
  setShape(op, resultTypes, 0, result);
  return success();
}

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

/// Result 0 gets the shape held by the constant 1-D `shapeOperand` (Fill,
/// BroadcastTo), or its rank when only the operand's length is known.
static LogicalResult inferFromShapeOperand(Operation *op, Value shapeOperand,
                                           SmallVectorImpl<Type> &types) {
  initResultTypes(op, types);
  if (auto dims = getConstantIntValues(shapeOperand)) {
    SmallVector<int64_t> shape;
    for (int64_t d : *dims)
      shape.push_back(d < 0 ? kDynamic : d);
    setShape(op, types, 0, shape);
    return success();
  }
  auto shapeShape = getRankedShape(shapeOperand.getType());
  if (shapeShape && shapeShape->size() == 1 &&
      !ShapedType::isDynamic((*shapeShape)[0]))
    setShape(op, types, 0, SmallVector<int64_t>((*shapeShape)[0], kDynamic));
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

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

/// MatMul and _FusedMatMul: [m, k] x [k, n] -> [m, n].
static LogicalResult inferMatMul(Operation *op, Value a, Value b,
                                 bool transposeA, bool transposeB,
                                 SmallVectorImpl<Type> &types) {
  initResultTypes(op, types);
  auto aShape = getRankedShape(a.getType());
  auto bShape = getRankedShape(b.getType());
  if ((aShape && aShape->size() != 2) || (bShape && bShape->size() != 2))
    return success(); // the verifier reports it
  int64_t m = aShape ? (*aShape)[transposeA ? 1 : 0] : kDynamic;
  int64_t n = bShape ? (*bShape)[transposeB ? 0 : 1] : kDynamic;
  if (aShape && bShape) {
    int64_t ka = (*aShape)[transposeA ? 0 : 1];
    int64_t kb = (*bShape)[transposeB ? 1 : 0];
    if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
      return op->emitOpError("requires matching contraction dimensions, got ")
             << ka << " and " << kb;
  }
  setShape(op, types, 0, SmallVector<int64_t>{m, n});
  return success();
}

LogicalResult MatMulOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferMatMul(getOperation(), getA(), getB(), getTransposeA(),
                     getTransposeB(), resultTypes);
}

LogicalResult
_FusedMatMulOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferMatMul(getOperation(), getA(), getB(), getTransposeA(),
                     getTransposeB(), resultTypes);
}

LogicalResult
BatchMatMulV2Op::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto xShape = getRankedShape(getX().getType());
  auto yShape = getRankedShape(getY().getType());
  if (!xShape || !yShape || xShape->size() < 2 || yShape->size() < 2)
    return success();
  size_t xr = xShape->size(), yr = yShape->size();
  int64_t m = (*xShape)[getAdjX() ? xr - 1 : xr - 2];
  int64_t kx = (*xShape)[getAdjX() ? xr - 2 : xr - 1];
  int64_t ky = (*yShape)[getAdjY() ? yr - 1 : yr - 2];
  int64_t n = (*yShape)[getAdjY() ? yr - 2 : yr - 1];
  if (!ShapedType::isDynamic(kx) && !ShapedType::isDynamic(ky) && kx != ky)
    return emitOpError("requires matching contraction dimensions, got ")
           << kx << " and " << ky;
  SmallVector<int64_t> batch;
  if (failed(broadcastShapes(ArrayRef(*xShape).drop_back(2),
                             ArrayRef(*yShape).drop_back(2), batch)))
    return emitOpError("requires broadcast-compatible batch dimensions, got ")
           << getX().getType() << " and " << getY().getType();
  batch.push_back(m);
  batch.push_back(n);
  setShape(getOperation(), resultTypes, 0, batch);
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

/// The output size of one spatial dimension of a windowed op.
static int64_t windowOutputSize(int64_t in, int64_t window, int64_t stride,
                                int64_t dilation, StringRef padding,
                                int64_t padBefore, int64_t padAfter) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(window) ||
      stride <= 0 || dilation <= 0)
    return kDynamic;
  int64_t effective = (window - 1) * dilation + 1;
  if (padding == "SAME")
    return (in + stride - 1) / stride;
  if (padding == "EXPLICIT")
    in += padBefore + padAfter;
  else if (padding != "VALID")
    return kDynamic;
  if (in < effective)
    return kDynamic;
  return (in - effective) / stride + 1;
}

static SmallVector<int64_t> toInts(ArrayAttr attr) {
  SmallVector<int64_t> values;
  for (Attribute a : attr)
    if (auto i = dyn_cast<IntegerAttr>(a))
      values.push_back(i.getInt());
  return values;
}

/// Windowed 4-D ops. `windowHW` is the window height and width (dynamic when
/// unknown) and `channels` the output channel count.
static LogicalResult
inferWindowed(Operation *op, Value input, ArrayRef<int64_t> windowHW,
              int64_t channels, ArrayAttr stridesAttr, ArrayAttr dilationsAttr,
              StringRef padding, ArrayAttr explicitPaddingsAttr,
              StringRef dataFormat, SmallVectorImpl<Type> &types) {
  initResultTypes(op, types);
  auto shape = getRankedShape(input.getType());
  SmallVector<int64_t> strides = toInts(stridesAttr);
  SmallVector<int64_t> dilations =
      dilationsAttr ? toInts(dilationsAttr) : SmallVector<int64_t>(4, 1);
  SmallVector<int64_t> pads = explicitPaddingsAttr
                                  ? toInts(explicitPaddingsAttr)
                                  : SmallVector<int64_t>();
  if (!shape || shape->size() != 4 || strides.size() != 4 ||
      dilations.size() != 4)
    return success(); // the verifier reports bad attributes
  bool nchw = dataFormat == "NCHW";
  int64_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2, cDim = nchw ? 1 : 3;
  if (pads.size() != 8)
    pads.assign(8, 0);
  SmallVector<int64_t> result(4, kDynamic);
  result[0] = (*shape)[0];
  result[cDim] = channels;
  const int64_t spatial[] = {hDim, wDim};
  for (auto [i, dim] : llvm::enumerate(spatial))
    result[dim] = windowOutputSize((*shape)[dim], windowHW[i], strides[dim],
                                   dilations[dim], padding, pads[2 * dim],
                                   pads[2 * dim + 1]);
  setShape(op, types, 0, result);
  return success();
}

/// Conv2D-like ops with an HWIO filter: output channels are the filter's
/// last dimension, or in_channels * multiplier for depthwise ones.
static LogicalResult inferConv(Operation *op, Value input, Value filter,
                               bool depthwise, ArrayAttr strides,
                               ArrayAttr dilations, StringRef padding,
                               ArrayAttr explicitPaddings, StringRef dataFormat,
                               SmallVectorImpl<Type> &types) {
  SmallVector<int64_t> window{kDynamic, kDynamic};
  int64_t channels = kDynamic;
  if (auto f = getRankedShape(filter.getType()); f && f->size() == 4) {
    window = {(*f)[0], (*f)[1]};
    channels = (*f)[3];
    if (depthwise)
      channels =
          ShapedType::isDynamic((*f)[2]) || ShapedType::isDynamic((*f)[3])
              ? kDynamic
              : (*f)[2] * (*f)[3];
  }
  return inferWindowed(op, input, window, channels, strides, dilations, padding,
                       explicitPaddings, dataFormat, types);
}

LogicalResult Conv2DOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferConv(getOperation(), getInput(), getFilter(), false, getStrides(),
                   getDilations(), getPadding(), getExplicitPaddings(),
                   getDataFormat(), resultTypes);
}

LogicalResult
_FusedConv2DOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferConv(getOperation(), getInput(), getFilter(), false, getStrides(),
                   getDilations(), getPadding(), getExplicitPaddings(),
                   getDataFormat(), resultTypes);
}

LogicalResult
DepthwiseConv2dNativeOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferConv(getOperation(), getInput(), getFilter(), true, getStrides(),
                   getDilations(), getPadding(), getExplicitPaddings(),
                   getDataFormat(), resultTypes);
}

LogicalResult FusedDepthwiseConv2dNativeOp::inferResultTypes(
    SmallVectorImpl<Type> &resultTypes) {
  return inferConv(getOperation(), getInput(), getFilter(), true, getStrides(),
                   getDilations(), getPadding(), getExplicitPaddings(),
                   getDataFormat(), resultTypes);
}

LogicalResult
Conv2DBackpropInputOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferFromShapeOperand(getOperation(), getInputSizes(), resultTypes);
}

/// Channels of a pooled input stay; the window comes from ksize.
static LogicalResult inferPool(Operation *op, Value input, ArrayAttr ksize,
                               ArrayAttr strides, StringRef padding,
                               ArrayAttr explicitPaddings, StringRef dataFormat,
                               SmallVectorImpl<Type> &types) {
  SmallVector<int64_t> k = toInts(ksize);
  auto shape = getRankedShape(input.getType());
  if (k.size() != 4 || !shape || shape->size() != 4) {
    initResultTypes(op, types);
    return success();
  }
  bool nchw = dataFormat == "NCHW";
  SmallVector<int64_t> window = nchw ? SmallVector<int64_t>{k[2], k[3]}
                                     : SmallVector<int64_t>{k[1], k[2]};
  int64_t channels = (*shape)[nchw ? 1 : 3];
  return inferWindowed(op, input, window, channels, strides, nullptr, padding,
                       explicitPaddings, dataFormat, types);
}

LogicalResult MaxPoolOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferPool(getOperation(), getInput(), getKsize(), getStrides(),
                   getPadding(), getExplicitPaddings(), getDataFormat(),
                   resultTypes);
}

LogicalResult AvgPoolOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferPool(getOperation(), getValue(), getKsize(), getStrides(),
                   getPadding(), nullptr, getDataFormat(), resultTypes);
}

LogicalResult
ResizeBilinearOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getImages().getType());
  if (!shape || shape->size() != 4)
    return success();
  auto size = getConstantIntValues(getSize());
  (*shape)[1] = size && size->size() == 2 ? (*size)[0] : kDynamic;
  (*shape)[2] = size && size->size() == 2 ? (*size)[1] : kDynamic;
  setShape(getOperation(), resultTypes, 0, *shape);
  return success();
}

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
  if (!params || !indices || !axisValues || axisValues->size() != 1)
    return success();
  FailureOr<int64_t> axis =
      normalizeAxis(getOperation(), "axis", (*axisValues)[0], params->size());
  if (failed(axis))
    return failure();
  int64_t batchDims = getBatchDims();
  if (batchDims < 0)
    batchDims += indices->size();
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

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// Merges `dim` into `have` for one einsum label: static sizes win, and a 1
/// broadcasts against anything.
static void mergeLabelDim(int64_t &have, int64_t dim) {
  if (ShapedType::isDynamic(have) || have == 1)
    have = dim;
  else if (!ShapedType::isDynamic(dim) && dim != 1 && dim != have)
    have = kDynamic; // inconsistent: leave it to the kernel to reject
}

LogicalResult EinsumOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  std::string equation;
  for (char c : getEquation())
    if (c != ' ')
      equation.push_back(c);
  StringRef eq(equation);
  auto [lhs, rhs] = eq.split("->");
  bool explicitOutput = eq.contains("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != getInputs().size())
    return success(); // the verifier reports it
  llvm::StringMap<int64_t> labelDims;
  llvm::StringMap<int> labelCount;
  SmallVector<int64_t> ellipsis;
  for (auto [term, input] : llvm::zip(terms, getInputs())) {
    auto shape = getRankedShape(input.getType());
    if (!shape)
      return success();
    size_t dots = term.find("...");
    std::string letters = term.str();
    if (dots != StringRef::npos)
      letters.erase(dots, 3);
    int64_t rank = shape->size();
    int64_t ellipsisRank = rank - static_cast<int64_t>(letters.size());
    if (ellipsisRank < 0 || (dots == StringRef::npos && ellipsisRank != 0))
      return success();
    int64_t pos = 0;
    for (size_t i = 0; i < term.size(); ++i) {
      if (i == dots) {
        SmallVector<int64_t> next;
        if (failed(broadcastShapes(
                ellipsis, ArrayRef(*shape).slice(pos, ellipsisRank), next)))
          return emitOpError("requires broadcast-compatible ellipsis "
                             "dimensions, got ")
                 << input.getType();
        ellipsis = std::move(next);
        pos += ellipsisRank;
        i += 2;
        continue;
      }
      std::string label(1, term[i]);
      auto [it, inserted] = labelDims.try_emplace(label, (*shape)[pos]);
      if (!inserted)
        mergeLabelDim(it->second, (*shape)[pos]);
      ++labelCount[label];
      ++pos;
    }
  }
  SmallVector<int64_t> result;
  if (explicitOutput) {
    for (size_t i = 0; i < rhs.size(); ++i) {
      if (rhs.substr(i).starts_with("...")) {
        result.append(ellipsis.begin(), ellipsis.end());
        i += 2;
        continue;
      }
      auto it = labelDims.find(std::string(1, rhs[i]));
      if (it == labelDims.end())
        return emitOpError("requires output label '")
               << rhs[i] << "' to appear in an input, got \"" << getEquation()
               << "\"";
      result.push_back(it->second);
    }
  } else {
    // Implicit output: the ellipsis, then the labels used once, sorted.
    result.append(ellipsis.begin(), ellipsis.end());
    SmallVector<std::string> once;
    for (auto &entry : labelCount)
      if (entry.second == 1)
        once.push_back(entry.getKey().str());
    llvm::sort(once);
    for (const std::string &label : once)
      result.push_back(labelDims[label]);
  }
  setShape(getOperation(), resultTypes, 0, result);
  return success();
}

//===----------------------------------------------------------------------===//
// Space/depth/batch rearrangements, gathers, selections
//===----------------------------------------------------------------------===//

/// `a * b` with dynamic propagation.
static int64_t mulDim(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) ? kDynamic
                                                              : a * b;
}

LogicalResult
DepthToSpaceOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getInput().getType());
  if (!shape || shape->size() != 4)
    return success();
  int64_t b = getBlockSize();
  bool nchw = getDataFormat() == "NCHW";
  int64_t h = nchw ? 2 : 1, w = nchw ? 3 : 2, c = nchw ? 1 : 3;
  int64_t &channels = (*shape)[c];
  if (!ShapedType::isDynamic(channels)) {
    if (channels % (b * b) != 0)
      return emitOpError("requires the channel count ")
             << channels << " to be divisible by block_size squared (" << b * b
             << ")";
    channels /= b * b;
  }
  (*shape)[h] = mulDim((*shape)[h], b);
  (*shape)[w] = mulDim((*shape)[w], b);
  setShape(getOperation(), resultTypes, 0, *shape);
  return success();
}

/// SpaceToBatchND (`toBatch`) and BatchToSpaceND: M spatial dimensions
/// after the batch are padded (cropped) and divided (multiplied) by the
/// constant block shape.
static LogicalResult inferSpaceBatch(Operation *op, Value input,
                                     Value blockShape, Value amounts,
                                     bool toBatch,
                                     SmallVectorImpl<Type> &types) {
  initResultTypes(op, types);
  auto shape = getRankedShape(input.getType());
  if (!shape)
    return success();
  auto block = getConstantIntValues(blockShape);
  auto pads = getConstantIntValues(amounts);
  if (!block || !pads || pads->size() != 2 * block->size() ||
      block->size() + 1 > shape->size()) {
    setShape(op, types, 0, SmallVector<int64_t>(shape->size(), kDynamic));
    return success();
  }
  int64_t blockProduct = 1;
  for (int64_t b : *block)
    blockProduct *= b;
  int64_t &batch = (*shape)[0];
  if (toBatch) {
    batch = mulDim(batch, blockProduct);
  } else if (!ShapedType::isDynamic(batch) && blockProduct > 0) {
    batch /= blockProduct;
  }
  for (auto [i, b] : llvm::enumerate(*block)) {
    int64_t &dim = (*shape)[i + 1];
    if (ShapedType::isDynamic(dim) || b <= 0)
      continue;
    int64_t before = (*pads)[2 * i], after = (*pads)[2 * i + 1];
    dim = toBatch ? (dim + before + after) / b : dim * b - before - after;
  }
  setShape(op, types, 0, *shape);
  return success();
}

LogicalResult
SpaceToBatchNDOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferSpaceBatch(getOperation(), getInput(), getBlockShape(),
                         getPaddings(), /*toBatch=*/true, resultTypes);
}

LogicalResult
BatchToSpaceNDOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferSpaceBatch(getOperation(), getInput(), getBlockShape(),
                         getCrops(), /*toBatch=*/false, resultTypes);
}

LogicalResult GatherNdOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto params = getRankedShape(getParams().getType());
  auto indices = getRankedShape(getIndices().getType());
  if (!params || !indices || indices->empty() ||
      ShapedType::isDynamic(indices->back()))
    return success();
  int64_t depth = indices->back();
  if (depth > static_cast<int64_t>(params->size()))
    return emitOpError("requires the last dimension of indices (")
           << depth << ") to be at most the rank of params (" << params->size()
           << ")";
  SmallVector<int64_t> result(indices->begin(), indices->end() - 1);
  result.append(params->begin() + depth, params->end());
  setShape(getOperation(), resultTypes, 0, result);
  return success();
}

LogicalResult
SparseToDenseOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferFromShapeOperand(getOperation(), getOutputShape(), resultTypes);
}

LogicalResult
NonMaxSuppressionV3Op::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  setShape(getOperation(), resultTypes, 0, SmallVector<int64_t>{kDynamic});
  return success();
}

LogicalResult
NonMaxSuppressionV5Op::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  int64_t count = kDynamic;
  auto max = getConstantIntValues(getMaxOutputSize());
  if (getPadToMaxOutputSize() && max && max->size() == 1)
    count = (*max)[0];
  setShape(getOperation(), resultTypes, 0, SmallVector<int64_t>{count});
  setShape(getOperation(), resultTypes, 1, SmallVector<int64_t>{count});
  setShape(getOperation(), resultTypes, 2, SmallVector<int64_t>{});
  return success();
}

LogicalResult
ReadVariableOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto handle = dyn_cast<TensorType>(getResource().getType());
  auto resource =
      handle ? dyn_cast<kiln::tf_type::ResourceType>(handle.getElementType())
             : nullptr;
  // The subtype of the resource is the variable's type.
  if (resource && resource.getSubtypes().size() == 1)
    if (auto shape = getRankedShape(resource.getSubtypes().front()))
      setShape(getOperation(), resultTypes, 0, *shape);
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor lists
//===----------------------------------------------------------------------===//
//
// A tensor list is a scalar `tensor<!tf_type.variant<tensor<E>>>`: its
// subtype E is what every element of the list fits. Lists are values (SetItem
// makes a new one), so E covers the items set into this value: a list made
// of items of one type keeps it through a loop that sets them, and
// TensorListGetItem and TensorListStack read it back.

/// The type of the elements of a list typed `type`, when it names one.
static TensorType listElementType(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  auto variant =
      tensor ? dyn_cast<kiln::tf_type::VariantType>(tensor.getElementType())
             : nullptr;
  if (!variant || variant.getSubtypes().size() != 1)
    return {};
  return variant.getSubtypes().front();
}

/// The type of a list of `element`s.
static Type listTypeOf(TensorType element) {
  return RankedTensorType::get(
      {}, kiln::tf_type::VariantType::get(element.getContext(), {element}));
}

/// The element type an `element_shape` operand declares: a constant shape
/// with -1 for unknown dimensions, or -1 (a scalar) for an unknown rank.
static TensorType declaredElementType(Value shape, Type dtype) {
  auto values = getConstantIntValues(shape);
  auto shapeType = dyn_cast<RankedTensorType>(shape.getType());
  if (!values || !shapeType || shapeType.getRank() != 1)
    return UnrankedTensorType::get(dtype);
  SmallVector<int64_t> dims;
  for (int64_t value : *values)
    dims.push_back(value < 0 ? kDynamic : value);
  return RankedTensorType::get(dims, dtype);
}

/// The most precise type that is both `a` and `b` (one element type): the
/// static dimensions of either; null when they disagree.
static TensorType meetTensorTypes(TensorType a, TensorType b) {
  if (!a.hasRank())
    return b;
  if (!b.hasRank())
    return a;
  if (a.getRank() != b.getRank())
    return {};
  SmallVector<int64_t> dims;
  for (auto [x, y] : llvm::zip(a.getShape(), b.getShape())) {
    if (ShapedType::isDynamic(x) || x == y)
      dims.push_back(y);
    else if (ShapedType::isDynamic(y))
      dims.push_back(x);
    else
      return {};
  }
  return RankedTensorType::get(dims, a.getElementType());
}

/// The join of the types of the items set into `list` and the lists made
/// from it: through TensorListSetItem, the loop values of tf.WhileRegion it
/// starts or that a loop body yields, and the results of conditionals that
/// yield it. Null when no item of element type `dtype` is set, or one of
/// another element type is.
static TensorType joinItemsSetInto(Value list, Type dtype) {
  TensorType joined;
  SmallVector<Value> work{list};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      unsigned index = use.getOperandNumber();
      if (auto set = dyn_cast<TensorListSetItemOp>(user)) {
        if (use.get() != set.getInputHandle())
          continue;
        auto item = dyn_cast<TensorType>(set.getItem().getType());
        if (!item || item.getElementType() != dtype)
          return {};
        joined =
            joined ? cast<TensorType>(joinTensorTypes(joined, item)) : item;
        work.push_back(set.getOutputHandle());
      } else if (auto loop = dyn_cast<WhileRegionOp>(user)) {
        work.push_back(loop.getBody().getArgument(index));
        work.push_back(loop->getResult(index));
      } else if (isa<YieldOp>(user)) {
        Operation *parent = user->getParentOp();
        if (auto loop = dyn_cast<WhileRegionOp>(parent)) {
          if (user->getParentRegion() == &loop.getBody()) {
            work.push_back(loop.getBody().getArgument(index));
            work.push_back(loop->getResult(index));
          }
        } else if (isa<IfRegionOp, CaseRegionOp>(parent)) {
          work.push_back(parent->getResult(index));
        }
      }
    }
  }
  return joined;
}

/// Sets result `idx` to a list of `element`s.
static void setListType(SmallVectorImpl<Type> &types, unsigned idx,
                        TensorType element) {
  types[idx] = listTypeOf(element);
}

LogicalResult
TensorListReserveOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  Type dtype;
  if (std::optional<Type> attr = getElementDtype())
    dtype = *attr;
  else if (TensorType current = listElementType(getHandle().getType()))
    dtype = current.getElementType();
  if (!dtype)
    return success();
  // No element is set yet: an element shape the operand leaves open is the
  // join of the items set into the lists made from this one.
  TensorType element = declaredElementType(getElementShape(), dtype);
  if (!element.hasStaticShape())
    if (TensorType items = joinItemsSetInto(getHandle(), dtype))
      if (TensorType refined = meetTensorTypes(element, items))
        element = refined;
  setListType(resultTypes, 0, element);
  return success();
}

LogicalResult
TensorListFromTensorOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto tensor = cast<TensorType>(getTensor().getType());
  Type dtype = tensor.getElementType();
  // The elements are the rows of the tensor.
  TensorType rows = UnrankedTensorType::get(dtype);
  if (tensor.hasRank() && tensor.getRank() > 0)
    rows = RankedTensorType::get(tensor.getShape().drop_front(), dtype);
  TensorType declared = declaredElementType(getElementShape(), dtype);
  TensorType element = meetTensorTypes(rows, declared);
  if (!element)
    return emitOpError("has rows of type ")
           << rows << " but an element shape of " << declared;
  setListType(resultTypes, 0, element);
  return success();
}

LogicalResult
TensorListSetItemOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  TensorType element = listElementType(getInputHandle().getType());
  auto item = cast<TensorType>(getItem().getType());
  if (!element || element.getElementType() != item.getElementType())
    return success();
  setListType(resultTypes, 0, cast<TensorType>(joinTensorTypes(element, item)));
  return success();
}

/// The type of an element read from `list`: the list's element type and
/// the `element_shape` operand, whichever is known (the operand where they
/// disagree: TensorFlow reads unset elements as zeros of that shape).
static TensorType readElementType(Value list, Value elementShape, Type dtype) {
  TensorType declared = declaredElementType(elementShape, dtype);
  TensorType element = listElementType(list.getType());
  if (!element || element.getElementType() != dtype)
    return declared;
  TensorType met = meetTensorTypes(element, declared);
  return met ? met : declared;
}

LogicalResult
TensorListGetItemOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  TensorType element =
      readElementType(getInputHandle(), getElementShape(),
                      getElementTypeOrSelf(getItem().getType()));
  if (element.hasRank())
    setShape(getOperation(), resultTypes, 0, element.getShape());
  return success();
}

LogicalResult
TensorListStackOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  TensorType element =
      readElementType(getInputHandle(), getElementShape(),
                      getElementTypeOrSelf(getTensor().getType()));
  if (!element.hasRank())
    return success();
  // num_elements is the list's length when given (TensorFlow checks it).
  auto count = static_cast<int64_t>(getNumElements());
  SmallVector<int64_t> shape{count >= 0 ? count : kDynamic};
  llvm::append_range(shape, element.getShape());
  setShape(getOperation(), resultTypes, 0, shape);
  return success();
}
