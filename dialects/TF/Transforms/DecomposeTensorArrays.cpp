//===- DecomposeTensorArrays.cpp - TF1 tensor arrays to tensors -*- C++ -*-===//
//
// tf-decompose-tensor-arrays: a TF1 tensor array (tf.TensorArrayV3 and the
// ops on its handle) becomes a tensor holding its elements stacked, the
// "buffer". TF1 graphs order every access to an array through its flow
// value: each write returns a new flow, each read takes one, and loops carry
// the flow as a loop value while the handle is a loop constant. The buffer
// therefore takes the place of the flow: writes compute a new buffer, reads
// slice the one they are given, and the flow's loop values, branch results
// and identities take the buffer's type.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "dialects/TF/Transforms/ConstantBuilders.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln::tf {
#define GEN_PASS_DEF_TFDECOMPOSETENSORARRAYSPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;
using kiln::tf::createScalar;
using kiln::tf::createVector;
using kiln::tf::getZero;

namespace {

/// True if `a` and `b` compute the same value: the same SSA value, or
/// results of side-effect-free ops of the same kind and attributes on
/// operands that compute the same values (up to `depth` ops back). Graphs
/// compute an array's size and the range that covers it from separate
/// Shape ops of the same tensor.
bool computeSameValue(Value a, Value b, unsigned depth = 6) {
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

/// True if `indices` is tf.Range(0, n, 1) with `n` the first dimension of
/// `value` (a constant, or tf.StridedSlice(tf.Shape(value))[0]): the
/// indices TensorArray.unstack(value) scatters.
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

/// Replaces `old` by `replacement`. Ops of the tf dialect take the new type
/// (shape inference refines what follows); other users (a function's
/// return) keep the old type through a tf.Identity.
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

/// What is known of one tensor array.
struct ArrayInfo {
  /// The shape of one element, possibly with dynamic dimensions; null while
  /// unknown.
  RankedTensorType element;
  /// The number of elements, the tf.TensorArrayV3 operand.
  Value size;
  /// The number of elements when `size` is a constant.
  std::optional<int64_t> staticSize;
  /// The tf.TensorArrayV3 that made the array.
  tf::TensorArrayV3Op creator;
};

/// Merges what `type` says of an element's shape into `known`; fails on a
/// rank or dimension that contradicts it.
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

/// `type` without its first dimension, if it is ranked with one.
Type dropFirst(Type type) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked || ranked.getRank() == 0)
    return {};
  return RankedTensorType::get(ranked.getShape().drop_front(),
                               ranked.getElementType());
}

/// Rewrites the tensor arrays of one function.
class ArrayDecomposition {
public:
  /// Decomposes the tensor-array ops in `block` and the regions nested in
  /// it, in order.
  LogicalResult decomposeBlock(Block &block);
  /// Erases the tf.TensorArrayV3 ops once nothing uses them.
  LogicalResult eraseCreators();

private:
  LogicalResult decomposeCreate(tf::TensorArrayV3Op op);
  LogicalResult decomposeWrite(tf::TensorArrayWriteV3Op op);
  LogicalResult decomposeRead(tf::TensorArrayReadV3Op op);
  LogicalResult decomposeGather(tf::TensorArrayGatherV3Op op);
  LogicalResult decomposeScatter(tf::TensorArrayScatterV3Op op);
  LogicalResult decomposeSize(tf::TensorArraySizeV3Op op);
  LogicalResult decomposeConcat(tf::TensorArrayConcatV3Op op);
  LogicalResult decomposeSplit(tf::TensorArraySplitV3Op op);
  LogicalResult decomposeWhile(tf::WhileRegionOp op);
  LogicalResult decomposeRegionResults(Operation *op);

  /// The array `handle` names, or an error on `user`.
  FailureOr<ArrayInfo *> getArray(Operation *user, Value handle);
  /// The type of the buffer the flow `flow` now is, or an error on `user`.
  FailureOr<TensorType> getAnyBuffer(Operation *user, Value flow);
  /// As getAnyBuffer, and an error if the buffer is not ranked.
  FailureOr<RankedTensorType> getBuffer(Operation *user, Value flow);
  /// The [N, 1, ..., 1] iota of `rank` dims counting the elements of
  /// `buffer` (type i32).
  Value createIota(OpBuilder &builder, Location loc, Value buffer,
                   int64_t rank);
  /// True if `indices` is 0, 1, ..., N-1 for array `array`.
  bool coversAll(const ArrayInfo &array, Value indices);

  DenseMap<Value, ArrayInfo> arrays;
  /// The values that now carry a buffer in place of a flow.
  DenseSet<Value> flows;
};

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

Value ArrayDecomposition::createIota(OpBuilder &builder, Location loc,
                                     Value buffer, int64_t rank) {
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

LogicalResult ArrayDecomposition::decomposeCreate(tf::TensorArrayV3Op op) {
  ArrayInfo info;
  info.creator = op;
  info.size = op.getSize();
  if (op.getDynamicSize())
    return op.emitOpError()
           << "cannot be decomposed: dynamic_size = true lets the array grow "
              "with its writes, and no bound on its size is known";
  DenseIntElementsAttr count;
  if (matchPattern(op.getSize(), m_Constant(&count)) &&
      count.getNumElements() == 1) {
    int64_t n = (*count.begin()).getSExtValue();
    if (n < 0)
      return op.emitOpError()
             << "cannot be decomposed: negative size " << n;
    info.staticSize = n;
  }

  // The element shape: the attribute, refined by every op that reads or
  // writes whole elements.
  Type dtype = op.getDtype();
  if (auto shape = op.getElementShapeAttr()) {
    if (std::optional<SmallVector<int64_t>> dims =
            shape.getShapedTypeShape())
      info.element = RankedTensorType::get(*dims, dtype);
  }
  for (Operation *user : op.getHandle().getUsers()) {
    Type seen = llvm::TypeSwitch<Operation *, Type>(user)
                    .Case([](tf::TensorArrayWriteV3Op write) {
                      return write.getValue().getType();
                    })
                    .Case([](tf::TensorArrayReadV3Op read) {
                      return read.getValue().getType();
                    })
                    .Case([](tf::TensorArrayScatterV3Op scatter) {
                      return dropFirst(scatter.getValue().getType());
                    })
                    .Case([](tf::TensorArrayGatherV3Op gather) {
                      return dropFirst(gather.getValue().getType());
                    })
                    .Default([](Operation *) { return Type(); });
    if (auto gather = dyn_cast<tf::TensorArrayGatherV3Op>(user))
      if (auto shape = gather.getElementShapeAttr())
        if (std::optional<SmallVector<int64_t>> dims =
                shape.getShapedTypeShape())
          if (failed(mergeElement(info.element,
                                  RankedTensorType::get(*dims, dtype))))
            return op.emitOpError()
                   << "cannot be decomposed: its elements are given the "
                      "shapes "
                   << info.element << " and " << shape;
    if (seen && failed(mergeElement(info.element, seen)))
      return op.emitOpError()
             << "cannot be decomposed: its elements are given the types "
             << info.element << " and " << seen;
  }
  if (info.element)
    info.element = RankedTensorType::get(info.element.getShape(), dtype);

  // A zero buffer, unless every use of the fresh flow overwrites every
  // element (TensorArray.unstack and split) and the element shape need not
  // be known.
  bool onlyOverwrites =
      llvm::all_of(op.getFlow().getUsers(), [&](Operation *user) {
        if (auto split = dyn_cast<tf::TensorArraySplitV3Op>(user))
          return split.getHandle() == op.getHandle();
        auto scatter = dyn_cast<tf::TensorArrayScatterV3Op>(user);
        return scatter && scatter.getHandle() == op.getHandle() &&
               (coversAll(info, scatter.getIndices()) ||
                isUnstackOf(scatter.getIndices(), scatter.getValue()));
      });
  if (!op.getFlow().use_empty() && !onlyOverwrites) {
    if (!info.element)
      return op.emitOpError() << "cannot be decomposed: the shape of its "
                                 "elements is unknown (no element_shape, and "
                                 "no write or read gives one)";
    if (!info.element.hasStaticShape())
      return op.emitOpError() << "cannot be decomposed: the shape of its "
                                 "elements "
                              << info.element << " is not static";
    TypedAttr zero = getZero(dtype);
    if (!zero)
      return op.emitOpError()
             << "cannot be decomposed: no zero of element type " << dtype;
    OpBuilder builder(op);
    Location loc = op.getLoc();
    SmallVector<int64_t> shape{info.staticSize.value_or(ShapedType::kDynamic)};
    llvm::append_range(shape, info.element.getShape());
    auto type = RankedTensorType::get(shape, dtype);
    Value buffer;
    if (info.staticSize) {
      buffer = tf::ConstOp::create(builder, loc, type,
                                   DenseElementsAttr::get(type, zero));
    } else {
      // TensorFlow requires a scalar size; its type may not say so yet.
      auto i32 = builder.getI32Type();
      SmallVector<int32_t> elementDims(info.element.getShape());
      Value n = tf::ReshapeOp::create(builder, loc,
                                      RankedTensorType::get({1}, i32),
                                      op.getSize(), createVector(builder, loc, {1}));
      Value dims = tf::ConcatV2Op::create(
          builder, loc, RankedTensorType::get({info.element.getRank() + 1}, i32),
          ValueRange{n, createVector(builder, loc, elementDims)},
          createScalar(builder, loc, i32, 0));
      auto scalar = RankedTensorType::get({}, dtype);
      Value value = tf::ConstOp::create(builder, loc, scalar,
                                        DenseElementsAttr::get(scalar, zero));
      buffer = tf::FillOp::create(builder, loc, type, dims, value);
    }
    op.getFlow().replaceAllUsesWith(buffer);
    flows.insert(buffer);
  }
  arrays[op.getHandle()] = info;
  return success();
}

LogicalResult ArrayDecomposition::decomposeWrite(tf::TensorArrayWriteV3Op op) {
  if (failed(getArray(op, op.getHandle())))
    return failure();
  FailureOr<RankedTensorType> bufferType = getBuffer(op, op.getFlowIn());
  if (failed(bufferType))
    return failure();
  auto indexType = dyn_cast<RankedTensorType>(op.getIndex().getType());
  if (indexType && indexType.getRank() != 0)
    return op.emitOpError()
           << "cannot be decomposed: the index is not a scalar";
  // buffer[i] = value as select(iota == i, value, buffer), the iota shaped
  // [N, 1, ..., 1] so that it broadcasts against the elements.
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Value iota = createIota(builder, loc, op.getFlowIn(), bufferType->getRank());
  auto iotaType = cast<RankedTensorType>(iota.getType());
  Value mask = tf::EqualOp::create(
      builder, loc, iotaType.clone(builder.getI1Type()), iota, op.getIndex());
  Value buffer = tf::SelectV2Op::create(builder, loc, *bufferType, mask,
                                        op.getValue(), op.getFlowIn());
  op.getFlowOut().replaceAllUsesWith(buffer);
  flows.insert(buffer);
  op.erase();
  return success();
}

LogicalResult ArrayDecomposition::decomposeRead(tf::TensorArrayReadV3Op op) {
  if (failed(getArray(op, op.getHandle())))
    return failure();
  FailureOr<TensorType> bufferType = getAnyBuffer(op, op.getFlowIn());
  if (failed(bufferType))
    return failure();
  auto indexType = dyn_cast<RankedTensorType>(op.getIndex().getType());
  if (indexType && indexType.getRank() != 0)
    return op.emitOpError()
           << "cannot be decomposed: the index is not a scalar";
  Type itemType = UnrankedTensorType::get(bufferType->getElementType());
  if (Type element = dropFirst(*bufferType))
    itemType = element;
  OpBuilder builder(op);
  Value axis = createScalar(builder, op.getLoc(), builder.getI32Type(), 0);
  Value item = tf::GatherV2Op::create(builder, op.getLoc(), itemType,
                                      op.getFlowIn(),
                                      op.getIndex(), axis);
  replaceValue(op.getValue(), item);
  op.erase();
  return success();
}

LogicalResult
ArrayDecomposition::decomposeGather(tf::TensorArrayGatherV3Op op) {
  FailureOr<ArrayInfo *> array = getArray(op, op.getHandle());
  if (failed(array))
    return failure();
  FailureOr<TensorType> anyType = getAnyBuffer(op, op.getFlowIn());
  if (failed(anyType))
    return failure();
  OpBuilder builder(op);
  Value result;
  auto bufferType = dyn_cast<RankedTensorType>(*anyType);
  if (coversAll(**array, op.getIndices())) {
    result = op.getFlowIn();
  } else if (!bufferType) {
    Value axis = createScalar(builder, op.getLoc(), builder.getI32Type(), 0);
    result = tf::GatherV2Op::create(builder, op.getLoc(), *anyType,
                                    op.getFlowIn(), op.getIndices(), axis);
  } else {
    auto indicesType = dyn_cast<RankedTensorType>(op.getIndices().getType());
    SmallVector<int64_t> shape;
    if (indicesType && indicesType.getRank() == 1)
      shape.push_back(indicesType.getDimSize(0));
    else
      shape.push_back(ShapedType::kDynamic);
    llvm::append_range(shape, bufferType.getShape().drop_front());
    Value axis = createScalar(builder, op.getLoc(), builder.getI32Type(), 0);
    result = tf::GatherV2Op::create(
        builder, op.getLoc(),
        RankedTensorType::get(shape, bufferType.getElementType()),
        op.getFlowIn(), op.getIndices(), axis);
  }
  replaceValue(op.getValue(), result);
  op.erase();
  return success();
}

LogicalResult
ArrayDecomposition::decomposeScatter(tf::TensorArrayScatterV3Op op) {
  FailureOr<ArrayInfo *> array = getArray(op, op.getHandle());
  if (failed(array))
    return failure();
  // Every element overwritten: the buffer is the value itself. So is the
  // first write of TensorArray.unstack(x), whose indices run to x's first
  // dimension: TensorFlow requires the array to have at least that many
  // elements, and graphs that unstack read only those (TF.js graphs size
  // the array from another tensor than x, so the two cannot be compared).
  bool fresh = op.getFlowIn().getDefiningOp() == (*array)->creator;
  if ((coversAll(**array, op.getIndices()) &&
       (fresh || flows.contains(op.getFlowIn()))) ||
      (fresh && isUnstackOf(op.getIndices(), op.getValue()))) {
    auto valueType = dyn_cast<RankedTensorType>(op.getValue().getType());
    if (valueType && valueType.getRank() == 0)
      return op.emitOpError() << "cannot be decomposed: the value is a "
                                 "scalar, not a stack of elements";
    op.getFlowOut().replaceAllUsesWith(op.getValue());
    flows.insert(op.getValue());
    op.erase();
    return success();
  }
  FailureOr<RankedTensorType> bufferType = getBuffer(op, op.getFlowIn());
  if (failed(bufferType))
    return failure();
  // Element i takes row k of `value` where indices[k] == i: one-hot
  // [N, K] = (iota == indices), k = argmax over K, and rows no index
  // names keep their value.
  OpBuilder builder(op);
  Location loc = op.getLoc();
  auto i32 = builder.getI32Type();
  int64_t rank = bufferType->getRank();
  int64_t n = bufferType->getDimSize(0);
  Value iota = createIota(builder, loc, op.getFlowIn(), 2);
  Value row = tf::ReshapeOp::create(
      builder, loc, RankedTensorType::get({1, ShapedType::kDynamic}, i32),
      op.getIndices(), createVector(builder, loc, {1, -1}));
  auto pairs = RankedTensorType::get({n, ShapedType::kDynamic}, i32);
  Value hot = tf::CastOp::create(
      builder, loc, pairs,
      tf::EqualOp::create(builder, loc, pairs.clone(builder.getI1Type()), iota,
                          row));
  Value one = createScalar(builder, loc, i32, 1);
  Value which = tf::ArgMaxOp::create(
      builder, loc, RankedTensorType::get({n}, i32), hot, one);
  Value rows = tf::GatherV2Op::create(builder, loc, *bufferType, op.getValue(),
                                      which, createScalar(builder, loc, i32, 0));
  Value hit = tf::MaxOp::create(builder, loc, RankedTensorType::get({n}, i32),
                                hot, one);
  SmallVector<int64_t> maskShape(rank, 1);
  maskShape.front() = n;
  SmallVector<int32_t> maskDims(rank, 1);
  maskDims.front() = -1;
  Value mask = tf::ReshapeOp::create(
      builder, loc, RankedTensorType::get(maskShape, i32), hit,
      createVector(builder, loc, maskDims));
  Value written = tf::EqualOp::create(
      builder, loc, RankedTensorType::get(maskShape, builder.getI1Type()),
      mask, one);
  Value buffer = tf::SelectV2Op::create(builder, loc, *bufferType, written,
                                        rows, op.getFlowIn());
  op.getFlowOut().replaceAllUsesWith(buffer);
  flows.insert(buffer);
  op.erase();
  return success();
}

LogicalResult ArrayDecomposition::decomposeSize(tf::TensorArraySizeV3Op op) {
  FailureOr<ArrayInfo *> array = getArray(op, op.getHandle());
  if (failed(array))
    return failure();
  Value size = (*array)->size;
  if ((*array)->staticSize) {
    OpBuilder builder(op);
    size = createScalar(builder, op.getLoc(), builder.getI32Type(),
                        *(*array)->staticSize);
  }
  replaceValue(op.getSize(), size);
  op.erase();
  return success();
}

LogicalResult
ArrayDecomposition::decomposeConcat(tf::TensorArrayConcatV3Op op) {
  if (failed(getArray(op, op.getHandle())))
    return failure();
  FailureOr<RankedTensorType> bufferType = getBuffer(op, op.getFlowIn());
  if (failed(bufferType))
    return failure();
  if (bufferType->getRank() < 2 || !bufferType->hasStaticShape())
    return op.emitOpError()
           << "cannot be decomposed: concatenation needs elements of rank 1 "
              "or more and a static size, not the buffer "
           << *bufferType;
  // [N, d0, rest...] -> [N * d0, rest...]; every element has d0 rows.
  OpBuilder builder(op);
  Location loc = op.getLoc();
  ArrayRef<int64_t> shape = bufferType->getShape();
  SmallVector<int64_t> joined{shape[0] * shape[1]};
  llvm::append_range(joined, shape.drop_front(2));
  SmallVector<int32_t> dims(joined.begin(), joined.end());
  Value value = tf::ReshapeOp::create(
      builder, loc, RankedTensorType::get(joined, bufferType->getElementType()),
      op.getFlowIn(), createVector(builder, loc, dims));
  auto lengthsType = RankedTensorType::get({shape[0]}, builder.getI64Type());
  Value lengths = tf::ConstOp::create(
      builder, loc, lengthsType,
      DenseElementsAttr::get(lengthsType,
                             builder.getI64IntegerAttr(shape[1])));
  replaceValue(op.getValue(), value);
  replaceValue(op.getLengths(), lengths);
  op.erase();
  return success();
}

LogicalResult ArrayDecomposition::decomposeSplit(tf::TensorArraySplitV3Op op) {
  FailureOr<ArrayInfo *> array = getArray(op, op.getHandle());
  if (failed(array))
    return failure();
  auto valueType = dyn_cast<RankedTensorType>(op.getValue().getType());
  DenseIntElementsAttr lengths;
  if (!valueType || valueType.getRank() == 0 ||
      !valueType.hasStaticShape() ||
      !matchPattern(op.getLengths(), m_Constant(&lengths)))
    return op.emitOpError()
           << "cannot be decomposed: the value must have a static shape and "
              "the lengths must be constant";
  int64_t count = lengths.getNumElements();
  if (count == 0 || ((*array)->staticSize && *(*array)->staticSize != count))
    return op.emitOpError() << "cannot be decomposed: " << count
                            << " lengths for an array of "
                            << (*array)->staticSize.value_or(-1)
                            << " elements";
  int64_t length = (*lengths.begin()).getSExtValue();
  for (const APInt &value : lengths)
    if (value.getSExtValue() != length)
      return op.emitOpError()
             << "cannot be decomposed: elements of different lengths; only "
                "equal lengths make elements of one shape";
  if (length * count != valueType.getDimSize(0))
    return op.emitOpError()
           << "cannot be decomposed: the lengths add up to " << length * count
           << ", not the " << valueType.getDimSize(0) << " rows of the value";
  // [N * d0, rest...] -> [N, d0, rest...], overwriting every element.
  OpBuilder builder(op);
  SmallVector<int64_t> shape{count, length};
  llvm::append_range(shape, valueType.getShape().drop_front());
  SmallVector<int32_t> dims(shape.begin(), shape.end());
  Value buffer = tf::ReshapeOp::create(
      builder, op.getLoc(),
      RankedTensorType::get(shape, valueType.getElementType()),
      op.getValue(), createVector(builder, op.getLoc(), dims));
  op.getFlowOut().replaceAllUsesWith(buffer);
  flows.insert(buffer);
  op.erase();
  return success();
}

LogicalResult ArrayDecomposition::decomposeWhile(tf::WhileRegionOp op) {
  // A flow carried by the loop takes its buffer's type in both regions and
  // in the results; the body must yield the same type back.
  SmallVector<unsigned> carried;
  for (auto [i, input] : llvm::enumerate(op.getInput())) {
    if (!flows.contains(input))
      continue;
    op.getCond().getArgument(i).setType(input.getType());
    op.getBody().getArgument(i).setType(input.getType());
    op.getResult(i).setType(input.getType());
    flows.insert(op.getCond().getArgument(i));
    flows.insert(op.getBody().getArgument(i));
    flows.insert(op.getResult(i));
    carried.push_back(i);
  }
  if (failed(decomposeBlock(op.getCond().front())) ||
      failed(decomposeBlock(op.getBody().front())))
    return failure();
  Operation *yield = op.getBody().front().getTerminator();
  for (unsigned i : carried)
    if (yield->getOperand(i).getType() != op.getInput()[i].getType())
      return op.emitOpError()
             << "cannot be decomposed: tensor array flow #" << i
             << " starts as " << op.getInput()[i].getType()
             << " but the body yields " << yield->getOperand(i).getType();
  return success();
}

LogicalResult ArrayDecomposition::decomposeRegionResults(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (failed(decomposeBlock(block)))
        return failure();
  for (OpResult result : op->getResults()) {
    // A result carries a flow when some region yields one there.
    Type type;
    bool carriesFlow = false, agree = true;
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      Operation *terminator = region.front().getTerminator();
      if (!terminator || terminator->getNumOperands() != op->getNumResults())
        return success();
      Value yielded = terminator->getOperand(result.getResultNumber());
      carriesFlow |= flows.contains(yielded);
      agree &= !type || yielded.getType() == type;
      type = yielded.getType();
    }
    if (!carriesFlow)
      continue;
    if (!agree)
      return op->emitOpError()
             << "cannot be decomposed: its regions yield tensor array flows "
                "of different types as result #"
             << result.getResultNumber();
    result.setType(type);
    flows.insert(result);
  }
  return success();
}

LogicalResult ArrayDecomposition::decomposeBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](tf::TensorArrayV3Op op) { return decomposeCreate(op); })
            .Case([&](tf::TensorArrayWriteV3Op op) {
              return decomposeWrite(op);
            })
            .Case([&](tf::TensorArrayReadV3Op op) { return decomposeRead(op); })
            .Case([&](tf::TensorArrayGatherV3Op op) {
              return decomposeGather(op);
            })
            .Case([&](tf::TensorArrayScatterV3Op op) {
              return decomposeScatter(op);
            })
            .Case([&](tf::TensorArraySizeV3Op op) { return decomposeSize(op); })
            .Case([&](tf::TensorArrayConcatV3Op op) {
              return decomposeConcat(op);
            })
            .Case([&](tf::TensorArraySplitV3Op op) {
              return decomposeSplit(op);
            })
            .Case([&](tf::TensorArrayCloseV3Op op) -> LogicalResult {
              if (failed(getArray(op, op.getHandle())))
                return failure();
              op.erase();
              return success();
            })
            .Case([&](tf::WhileRegionOp op) { return decomposeWhile(op); })
            .Case([&](tf::IdentityOp op) -> LogicalResult {
              // The identity of a flow is its buffer.
              if (flows.contains(op.getInput())) {
                op.getOutput().replaceAllUsesWith(op.getInput());
                op.erase();
              }
              return success();
            })
            .Default([&](Operation *op) -> LogicalResult {
              if (op->getNumRegions() != 0)
                return decomposeRegionResults(op);
              return success();
            });
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult ArrayDecomposition::eraseCreators() {
  for (auto &[handle, info] : arrays) {
    tf::TensorArrayV3Op op = info.creator;
    if (!op->use_empty()) {
      InFlightDiagnostic diag =
          (*op->getUsers().begin())->emitOpError()
          << "uses a tensor array, which cannot be decomposed here";
      diag.attachNote(op.getLoc()) << "the tensor array is made here";
      return failure();
    }
    op.erase();
  }
  arrays.clear();
  return success();
}

struct TFDecomposeTensorArraysPass final
    : tf::impl::TFDecomposeTensorArraysPassBase<TFDecomposeTensorArraysPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      ArrayDecomposition decomposition;
      if (failed(decomposition.decomposeBlock(func.front())) ||
          failed(decomposition.eraseCreators()))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
