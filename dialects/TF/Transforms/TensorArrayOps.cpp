//===- TensorArrayOps.cpp - tensor-array op rewrites -*- C++ -*-===//
//
// tf-decompose-tensor-arrays, one rewrite per op on a TF1 tensor array: the
// array becomes its buffer (the elements stacked), writes and scatters
// compute a new buffer, reads, gathers and concatenations slice or reshape
// the one their flow carries.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/TensorArrayDecomposition.h"

#include "dialects/TF/Transforms/ConstantBuilders.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln::tf::tensor_arrays {

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
  FailureOr<ArrayInfo *> array = getArray(op, op.getHandle());
  if (failed(array))
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
  // A gradient array adds the value to the element.
  Value value = op.getValue();
  Value base = op.getFlowIn();
  if ((*array)->accumulates) {
    base = getGradientBase(**array, base);
    value = tf::AddV2Op::create(builder, loc, *bufferType, base, value);
  }
  Value buffer = tf::SelectV2Op::create(builder, loc, *bufferType, mask,
                                        value, base);
  if ((*array)->accumulates)
    gradientFlows.insert(buffer);
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
  if ((*array)->accumulates && coversAll(**array, op.getIndices())) {
    // A gradient array adds the value to every element.
    FailureOr<RankedTensorType> bufferType = getBuffer(op, op.getFlowIn());
    if (failed(bufferType))
      return failure();
    OpBuilder builder(op);
    Value buffer = tf::AddV2Op::create(
        builder, op.getLoc(), *bufferType,
        getGradientBase(**array, op.getFlowIn()), op.getValue());
    op.getFlowOut().replaceAllUsesWith(buffer);
    flows.insert(buffer);
    gradientFlows.insert(buffer);
    op.erase();
    return success();
  }
  if (!(*array)->accumulates &&
      ((coversAll(**array, op.getIndices()) &&
        (fresh || flows.contains(op.getFlowIn()))) ||
       (fresh && isUnstackOf(op.getIndices(), op.getValue())))) {
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
  Value base = op.getFlowIn();
  if ((*array)->accumulates) {
    base = getGradientBase(**array, base);
    rows = tf::AddV2Op::create(builder, loc, *bufferType, base, rows);
  }
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
                                        rows, base);
  if ((*array)->accumulates)
    gradientFlows.insert(buffer);
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

LogicalResult ArrayDecomposition::decomposeGrad(tf::TensorArrayGradV3Op op) {
  FailureOr<ArrayInfo *> forward = getArray(op, op.getHandle());
  if (failed(forward))
    return failure();
  ArrayInfo info = **forward;
  info.accumulates = true;
  auto key = std::make_pair(info.creator.getOperation(), op.getSource());
  auto made = gradients.find(key);
  if (made == gradients.end()) {
    // The first call makes the array: zeros of the forward array's shape.
    // TensorFlow's first call for a source is outside the backward loop
    // (the gradient of the forward array's stack or gather); one made in a
    // loop that does not carry it would restart at every iteration.
    for (Operation *parent = op->getParentOp();
         parent && parent != info.creator->getParentOp();
         parent = parent->getParentOp())
      if (isa<tf::WhileRegionOp>(parent))
        return op.emitOpError()
               << "cannot be decomposed: the gradient array of source '"
               << op.getSource()
               << "' is first made inside a loop, which would not carry its "
                  "sums from one iteration to the next";
    if (!info.element || !info.element.hasStaticShape() || !info.staticSize)
      return op.emitOpError()
             << "cannot be decomposed: the gradient array needs the forward "
                "array's size and element shape to be static";
    TypedAttr zero = getZero(info.element.getElementType());
    if (!zero)
      return op.emitOpError()
             << "cannot be decomposed: no zero of element type "
             << info.element.getElementType();
    SmallVector<int64_t> shape{*info.staticSize};
    llvm::append_range(shape, info.element.getShape());
    auto type = RankedTensorType::get(shape, info.element.getElementType());
    OpBuilder builder(op);
    Value buffer = tf::ConstOp::create(builder, op.getLoc(), type,
                                       DenseElementsAttr::get(type, zero));
    gradients[key] = buffer;
    info.zeros = buffer;
    replaceValue(op.getFlowOut(), buffer);
    flows.insert(buffer);
    gradientFlows.insert(buffer);
  } else {
    info.zeros = made->second;
    // Later calls (in the backward loop) return the same array, whose
    // buffer their flow carries.
    FailureOr<TensorType> bufferType = getAnyBuffer(op, op.getFlowIn());
    if (failed(bufferType))
      return failure();
    if (*bufferType != made->second.getType())
      return op.emitOpError()
             << "cannot be decomposed: its flow carries " << *bufferType
             << ", not the gradient array " << made->second.getType();
    op.getFlowOut().replaceAllUsesWith(op.getFlowIn());
  }
  arrays[op.getGradHandle()] = info;
  return success();
}

} // namespace kiln::tf::tensor_arrays
