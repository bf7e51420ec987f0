//===- TensorArrayAnalysis.cpp - tensor-array helpers -*- C++ -*-===//
//
// What tf-decompose-tensor-arrays shares between its rewrites: value and
// index-pattern matching, element shapes, the array and buffer lookups that
// report a node that cannot be decomposed, and the iota of a buffer.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/TensorArrayDecomposition.h"

#include "dialects/TF/Transforms/ConstantBuilders.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::tf::tensor_arrays {

bool computeSameValue(Value a, Value b, unsigned depth) {
  if (a == b)
    return true;
  auto resultA = dyn_cast<OpResult>(a);
  auto resultB = dyn_cast<OpResult>(b);
  if (depth == 0 || !resultA || !resultB ||
      resultA.getResultNumber() != resultB.getResultNumber())
    return false;
  Operation *opA = resultA.getOwner();
  Operation *opB = resultB.getOwner();
  if (opA->getNumRegions() != 0 || !isMemoryEffectFree(opA) ||
      !isMemoryEffectFree(opB))
    return false;
  return OperationEquivalence::isEquivalentTo(
      opA, opB,
      [&](Value x, Value y) {
        return success(computeSameValue(x, y, depth - 1));
      },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

bool isUnstackOf(Value indices, Value value) {
  auto range = indices.getDefiningOp<tf::RangeOp>();
  DenseIntElementsAttr start, delta, limit;
  if (!range || !matchPattern(range.getStart(), m_Constant(&start)) ||
      !matchPattern(range.getDelta(), m_Constant(&delta)) ||
      start.getNumElements() != 1 || delta.getNumElements() != 1 ||
      (*start.begin()).getSExtValue() != 0 ||
      (*delta.begin()).getSExtValue() != 1)
    return false;
  auto valueType = dyn_cast<RankedTensorType>(value.getType());
  if (matchPattern(range.getLimit(), m_Constant(&limit)))
    return valueType && valueType.getRank() > 0 &&
           !valueType.isDynamicDim(0) && limit.getNumElements() == 1 &&
           (*limit.begin()).getSExtValue() == valueType.getDimSize(0);
  auto slice = range.getLimit().getDefiningOp<tf::StridedSliceOp>();
  DenseIntElementsAttr begin, end, strides;
  if (!slice || slice.getShrinkAxisMask() != 1 || slice.getBeginMask() != 0 ||
      slice.getEllipsisMask() != 0 || slice.getNewAxisMask() != 0 ||
      !matchPattern(slice.getBegin(), m_Constant(&begin)) ||
      !matchPattern(slice.getEnd(), m_Constant(&end)) ||
      !matchPattern(slice.getStrides(), m_Constant(&strides)) ||
      begin.getNumElements() != 1 || (*begin.begin()).getSExtValue() != 0 ||
      strides.getNumElements() != 1 || (*strides.begin()).getSExtValue() != 1)
    return false;
  auto shape = slice.getInput().getDefiningOp<tf::ShapeOp>();
  return shape && computeSameValue(shape.getInput(), value);
}

void replaceValue(Value old, Value replacement) {
  if (old.getType() == replacement.getType()) {
    old.replaceAllUsesWith(replacement);
    return;
  }
  Value kept;
  for (OpOperand &use : llvm::make_early_inc_range(old.getUses())) {
    Operation *user = use.getOwner();
    if (isa<tf::TFDialect>(user->getDialect())) {
      use.set(replacement);
      continue;
    }
    if (!kept) {
      OpBuilder builder(user->getContext());
      builder.setInsertionPointAfterValue(replacement);
      kept = tf::IdentityOp::create(builder, replacement.getLoc(),
                                    old.getType(), replacement);
    }
    use.set(kept);
  }
}

LogicalResult mergeElement(RankedTensorType &known, Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return success();
  if (!known) {
    known = ranked;
    return success();
  }
  if (known.getRank() != ranked.getRank())
    return failure();
  SmallVector<int64_t> shape(known.getShape());
  for (auto [dim, other] : llvm::zip(shape, ranked.getShape())) {
    if (ShapedType::isDynamic(dim))
      dim = other;
    else if (!ShapedType::isDynamic(other) && other != dim)
      return failure();
  }
  known = RankedTensorType::get(shape, known.getElementType());
  return success();
}

Type dropFirst(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || ranked.getRank() == 0)
    return {};
  return RankedTensorType::get(ranked.getShape().drop_front(),
                               ranked.getElementType());
}

FailureOr<ArrayInfo *> ArrayDecomposition::getArray(Operation *user,
                                                    Value handle) {
  auto it = arrays.find(handle);
  if (it != arrays.end())
    return &it->second;
  if (Operation *def = handle.getDefiningOp())
    return user->emitOpError()
           << "cannot be decomposed: its tensor array handle is made by '"
           << def->getName() << "', not by a tf.TensorArrayV3";
  return user->emitOpError()
         << "cannot be decomposed: its tensor array handle is a function or "
            "block argument, not made by a tf.TensorArrayV3 in this function";
}

FailureOr<TensorType> ArrayDecomposition::getAnyBuffer(Operation *user,
                                                       Value flow) {
  auto type = dyn_cast<TensorType>(flow.getType());
  if (type && flows.contains(flow))
    return type;
  if (Operation *def = flow.getDefiningOp())
    return user->emitOpError()
           << "cannot be decomposed: its flow comes from '" << def->getName()
           << "', which does not carry a decomposed tensor array";
  return user->emitOpError()
         << "cannot be decomposed: its flow is a function or block argument "
            "that does not carry a decomposed tensor array";
}

FailureOr<RankedTensorType> ArrayDecomposition::getBuffer(Operation *user,
                                                          Value flow) {
  FailureOr<TensorType> type = getAnyBuffer(user, flow);
  if (failed(type))
    return failure();
  if (auto ranked = dyn_cast<RankedTensorType>(*type))
    return ranked;
  return user->emitOpError()
         << "cannot be decomposed: the rank of the tensor array's elements is "
            "unknown here";
}

Value createIota(OpBuilder &builder, Location loc, Value buffer,
                 int64_t rank) {
  auto bufferType = cast<RankedTensorType>(buffer.getType());
  auto i32 = builder.getI32Type();
  int64_t n = bufferType.getDimSize(0);
  SmallVector<int64_t> shape(rank, 1);
  shape.front() = n;
  auto type = RankedTensorType::get(shape, i32);
  if (!ShapedType::isDynamic(n)) {
    SmallVector<int32_t> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(static_cast<int32_t>(i));
    return tf::ConstOp::create(builder, loc, type,
                               DenseElementsAttr::get(type, ArrayRef<int32_t>(values)));
  }
  Value dims = tf::ShapeOp::create(
      builder, loc, RankedTensorType::get({bufferType.getRank()}, i32), buffer);
  Value zero = createScalar(builder, loc, i32, 0);
  Value count = tf::GatherV2Op::create(
      builder, loc, RankedTensorType::get({}, i32), dims, zero, zero);
  Value range = tf::RangeOp::create(
      builder, loc, RankedTensorType::get({ShapedType::kDynamic}, i32), zero,
      count, createScalar(builder, loc, i32, 1));
  SmallVector<int32_t> newShape(rank, 1);
  newShape.front() = -1;
  return tf::ReshapeOp::create(builder, loc, type, range,
                               createVector(builder, loc, newShape));
}

bool ArrayDecomposition::coversAll(const ArrayInfo &array, Value indices) {
  DenseIntElementsAttr values;
  if (matchPattern(indices, m_Constant(&values))) {
    if (!array.staticSize ||
        values.getNumElements() != *array.staticSize)
      return false;
    int64_t i = 0;
    for (const APInt &value : values)
      if (value.getSExtValue() != i++)
        return false;
    return true;
  }
  // tf.Range(0, size, 1) of the array's own size, as TensorArray.unstack
  // builds it.
  auto range = indices.getDefiningOp<tf::RangeOp>();
  if (!range)
    return false;
  DenseIntElementsAttr start, delta, limit;
  if (!matchPattern(range.getStart(), m_Constant(&start)) ||
      !matchPattern(range.getDelta(), m_Constant(&delta)) ||
      start.getNumElements() != 1 || delta.getNumElements() != 1 ||
      (*start.begin()).getSExtValue() != 0 ||
      (*delta.begin()).getSExtValue() != 1)
    return false;
  if (computeSameValue(range.getLimit(), array.size))
    return true;
  return array.staticSize &&
         matchPattern(range.getLimit(), m_Constant(&limit)) &&
         limit.getNumElements() == 1 &&
         (*limit.begin()).getSExtValue() == *array.staticSize;
}

} // namespace kiln::tf::tensor_arrays
