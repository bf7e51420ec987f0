//===- TFShapeInference.cpp - shape functions of tf ops ---------*- C++ -*-===//
//
// The shared shape rules and utilities of TFShapeInference.h, and the
// helpers of TFShapeInferenceUtils.h. The op-specific inferResultTypes of the
// ops marked `shape: custom` in ops.txt are split by op family:
// TFShapeInferenceLayout.cpp, TFShapeInferenceNN.cpp,
// TFShapeInferenceSlicing.cpp, TFShapeInferenceRearrange.cpp and
// TFShapeInferenceTensorList.cpp.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFShapeInference.h"
#include "dialects/TF/IR/TFShapeInferenceUtils.h"
#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFTypeUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kiln::tf;
using namespace kiln::tf::detail;

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

/// The constant `value` holds: its constant-like producer's, or what the
/// folder of its pure single-result tf producer computes from the operands'
/// constants (evaluated the same way, at most `depth` ops deep). Only small
/// static values (kMaxEvaluatedElements) are evaluated; the IR is not
/// changed. Null when unknown.
Attribute kiln::tf::detail::evaluateConstant(Value value, unsigned depth) {
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
void kiln::tf::detail::initResultTypes(Operation *op,
                                      SmallVectorImpl<Type> &types) {
  types.assign(op->result_type_begin(), op->result_type_end());
}

/// Sets result `idx` to its current type refined by `shape`.
void kiln::tf::detail::setShape(Operation *op, SmallVectorImpl<Type> &types,
                               unsigned idx,
                               std::optional<ArrayRef<int64_t>> shape) {
  types[idx] = refineType(op->getResult(idx).getType(), shape);
}

/// Normalizes `axis` against `rank` (negative counts from the end), or fails
/// with an error naming `what`.
FailureOr<int64_t> kiln::tf::detail::normalizeAxis(Operation *op,
                                                   StringRef what, int64_t axis,
                                                   int64_t rank) {
  if (axis < -rank || axis >= rank)
    return op->emitOpError("requires ") << what << " to be in [" << -rank
                                        << ", " << rank << "), got " << axis;
  return axis < 0 ? axis + rank : axis;
}

/// Result 0 gets the shape held by the constant 1-D `shapeOperand` (Fill,
/// BroadcastTo), or its rank when only the operand's length is known.
LogicalResult
kiln::tf::detail::inferFromShapeOperand(Operation *op, Value shapeOperand,
                                        SmallVectorImpl<Type> &types) {
  initResultTypes(op, types);
  if (auto dims = getConstantIntValues(shapeOperand)) {
    SmallVector<int64_t> shape;
    // TensorFlow refuses a negative size at run time; a constant one is an
    // error now (it would otherwise become a dynamic size).
    for (int64_t d : *dims)
      if (d < 0)
        return op->emitOpError("requires the shape operand to hold "
                               "non-negative sizes, got ")
               << d;
    for (int64_t d : *dims)
      shape.push_back(d);
    setShape(op, types, 0, shape);
    return success();
  }
  auto shapeShape = getRankedShape(shapeOperand.getType());
  if (shapeShape && shapeShape->size() == 1 &&
      !ShapedType::isDynamic((*shapeShape)[0]))
    setShape(op, types, 0, SmallVector<int64_t>((*shapeShape)[0], kDynamic));
  return success();
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
    // Axes known only at run time: their count gives the rank (TensorFlow
    // rejects repeated axes).
    auto axesShape = getRankedShape(op->getOperand(1).getType());
    int64_t count = -1;
    if (axesShape && axesShape->empty())
      count = 1;
    else if (axesShape && axesShape->size() == 1 &&
             !ShapedType::isDynamic(axesShape->front()))
      count = axesShape->front();
    if (keepDims)
      setShape(op, resultTypes, 0, SmallVector<int64_t>(rank, kDynamic));
    else if (count >= 0 && count <= rank)
      setShape(op, resultTypes, 0,
               SmallVector<int64_t>(rank - count, kDynamic));
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
