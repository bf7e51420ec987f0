//===- LowerTensorLists.cpp - tf tensor lists to tensors -------*- C++ -*-===//
//
// tf-lower-tensor-lists: a TensorFlow tensor list of N elements of type E
// (`tensor<!tf_type.variant<E>>`) becomes the stacked tensor<N x E>, and the
// list ops become the plain tf ops that read and write such a tensor. Lists
// carried through tf.WhileRegion loops and out of branch regions change
// type with them.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "dialects/TF/Transforms/ConstantBuilders.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln::tf {
#define GEN_PASS_DEF_TFLOWERTENSORLISTSPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;
using kiln::tf::createScalar;
using kiln::tf::createVector;
using kiln::tf::getZero;

namespace {

/// True if `type` is a tensor of variants (a tensor list before lowering).
bool isVariantTensor(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && isa<tf_type::VariantType>(tensor.getElementType());
}

/// True if any operand or result of `op` is a tensor of variants.
bool touchesVariants(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isVariantTensor) ||
         llvm::any_of(op->getResultTypes(), isVariantTensor);
}

/// The element type the list type `type` declares, or null.
RankedTensorType getElementType(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  if (!tensor)
    return {};
  auto variant = dyn_cast<tf_type::VariantType>(tensor.getElementType());
  if (!variant || variant.getSubtypes().size() != 1)
    return {};
  return dyn_cast<RankedTensorType>(variant.getSubtypes().front());
}

/// Rewrites the tensor lists of one function.
class ListLowering {
public:
  /// Lowers the list ops in `block` and the regions nested in it.
  LogicalResult lowerBlock(Block &block);

private:
  LogicalResult lowerReserve(tf::TensorListReserveOp op);
  LogicalResult lowerFromTensor(tf::TensorListFromTensorOp op);
  LogicalResult lowerSetItem(tf::TensorListSetItemOp op);
  LogicalResult lowerGetItem(tf::TensorListGetItemOp op);
  LogicalResult lowerStack(tf::TensorListStackOp op);
  LogicalResult lowerWhile(tf::WhileRegionOp op);
  LogicalResult lowerRegionResults(Operation *op);

  /// The stacked tensor `list` now is, or an error on `user` if it is still
  /// a list (made by an op this pass does not lower).
  FailureOr<RankedTensorType> getStackedType(Operation *user, Value list);
};

FailureOr<RankedTensorType> ListLowering::getStackedType(Operation *user,
                                                         Value list) {
  auto type = dyn_cast<RankedTensorType>(list.getType());
  if (!type || isVariantTensor(type) || type.getRank() == 0) {
    if (Operation *def = list.getDefiningOp())
      return user->emitOpError() << "reads a tensor list made by '"
                                 << def->getName() << "', which is not lowered";
    return user->emitOpError()
           << "reads a tensor list that is a function or block argument, "
              "which is not lowered";
  }
  return type;
}

LogicalResult ListLowering::lowerReserve(tf::TensorListReserveOp op) {
  RankedTensorType element = getElementType(op.getHandle().getType());
  if (!element)
    return op.emitOpError()
           << "cannot be lowered: the element shape of the list is unknown";
  if (!element.hasStaticShape())
    return op.emitOpError() << "cannot be lowered: the element shape "
                            << element << " of the list is not static";
  TypedAttr zero = getZero(element.getElementType());
  if (!zero)
    return op.emitOpError() << "cannot be lowered: no zero of element type "
                            << element.getElementType();

  OpBuilder builder(op);
  Location loc = op.getLoc();
  SmallVector<int64_t> shape{ShapedType::kDynamic};
  llvm::append_range(shape, element.getShape());

  DenseIntElementsAttr count;
  Value list;
  if (matchPattern(op.getNumElements(), m_Constant(&count)) &&
      count.getNumElements() == 1) {
    int64_t n = (*count.begin()).getSExtValue();
    if (n < 0)
      return op.emitOpError()
             << "cannot be lowered: negative number of elements " << n;
    shape.front() = n;
    auto type = RankedTensorType::get(shape, element.getElementType());
    list = tf::ConstOp::create(builder, loc, type,
                               DenseElementsAttr::get(type, zero));
  } else {
    // The dims are [n, E...]; TensorFlow requires a scalar int32 count.
    auto numType = dyn_cast<RankedTensorType>(op.getNumElements().getType());
    auto i32 = builder.getI32Type();
    if (!numType || numType.getRank() != 0 || numType.getElementType() != i32)
      return op.emitOpError() << "cannot be lowered: the number of elements "
                                 "is not a scalar int32";
    SmallVector<int32_t> elementDims(element.getShape());
    Value n = tf::ReshapeOp::create(
        builder, loc, RankedTensorType::get({1}, i32), op.getNumElements(),
        createVector(builder, loc, {1}));
    auto dimsType = RankedTensorType::get({element.getRank() + 1}, i32);
    Value known = createVector(builder, loc, elementDims);
    Value axis = createScalar(builder, loc, i32, 0);
    Value dims = tf::ConcatV2Op::create(builder, loc, dimsType,
                                        ValueRange{n, known}, axis);
    auto type = RankedTensorType::get(shape, element.getElementType());
    Value value = tf::ConstOp::create(
        builder, loc, RankedTensorType::get({}, zero.getType()),
        DenseElementsAttr::get(RankedTensorType::get({}, zero.getType()),
                               zero));
    list = tf::FillOp::create(builder, loc, type, dims, value);
  }
  op.getHandle().replaceAllUsesWith(list);
  op.erase();
  return success();
}

LogicalResult ListLowering::lowerFromTensor(tf::TensorListFromTensorOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getTensor().getType());
  if (!type || type.getRank() == 0)
    return op.emitOpError() << "cannot be lowered: the tensor is not ranked "
                               "with at least one dimension";
  op.getOutputHandle().replaceAllUsesWith(op.getTensor());
  op.erase();
  return success();
}

LogicalResult ListLowering::lowerSetItem(tf::TensorListSetItemOp op) {
  FailureOr<RankedTensorType> listType =
      getStackedType(op, op.getInputHandle());
  if (failed(listType))
    return failure();
  auto indexType = dyn_cast<RankedTensorType>(op.getIndex().getType());
  auto indexElement = indexType
                          ? dyn_cast<IntegerType>(indexType.getElementType())
                          : IntegerType();
  if (!indexElement || indexType.getRank() != 0)
    return op.emitOpError()
           << "cannot be lowered: the index is not a scalar integer";

  // list[i] = item as select(iota == index, item, list), iota of shape
  // [n, 1, ..., 1] so that it broadcasts against the elements.
  OpBuilder builder(op);
  Location loc = op.getLoc();
  int64_t rank = listType->getRank();
  int64_t n = listType->getDimSize(0);
  SmallVector<int64_t> iotaShape(rank, 1);
  iotaShape.front() = n;
  auto iotaType = RankedTensorType::get(iotaShape, indexElement);
  Value iota;
  if (!ShapedType::isDynamic(n)) {
    SmallVector<APInt> values;
    for (int64_t i = 0; i < n; ++i)
      values.push_back(APInt(indexElement.getWidth(), i));
    iota = tf::ConstOp::create(builder, loc, iotaType,
                               DenseElementsAttr::get(iotaType, values));
  } else {
    auto i32 = builder.getI32Type();
    Value shape = tf::ShapeOp::create(
        builder, loc, RankedTensorType::get({rank}, i32), op.getInputHandle());
    Value zero = createScalar(builder, loc, i32, 0);
    Value count = tf::GatherV2Op::create(
        builder, loc, RankedTensorType::get({}, i32), shape, zero, zero);
    Value start = createScalar(builder, loc, i32, 0);
    Value step = createScalar(builder, loc, i32, 1);
    Value range = tf::RangeOp::create(
        builder, loc, RankedTensorType::get({ShapedType::kDynamic}, i32), start,
        count, step);
    SmallVector<int32_t> newShape(rank, 1);
    newShape.front() = -1;
    iota = tf::ReshapeOp::create(builder, loc, iotaType.clone(i32), range,
                                 createVector(builder, loc, newShape));
    if (indexElement != i32)
      iota = tf::CastOp::create(builder, loc, iotaType, iota);
  }
  Value mask = tf::EqualOp::create(
      builder, loc, iotaType.clone(builder.getI1Type()), iota, op.getIndex());
  Value list = tf::SelectV2Op::create(builder, loc, *listType, mask,
                                      op.getItem(), op.getInputHandle());
  op.getOutputHandle().replaceAllUsesWith(list);
  op.erase();
  return success();
}

LogicalResult ListLowering::lowerGetItem(tf::TensorListGetItemOp op) {
  FailureOr<RankedTensorType> listType =
      getStackedType(op, op.getInputHandle());
  if (failed(listType))
    return failure();
  auto indexType = dyn_cast<RankedTensorType>(op.getIndex().getType());
  if (!indexType || indexType.getRank() != 0)
    return op.emitOpError()
           << "cannot be lowered: the index is not a scalar integer";

  OpBuilder builder(op);
  Type resultType = op.getItem().getType();
  if (!isa<RankedTensorType>(resultType))
    resultType = RankedTensorType::get(listType->getShape().drop_front(),
                                       listType->getElementType());
  Value axis = createScalar(builder, op.getLoc(), builder.getI32Type(), 0);
  Value item = tf::GatherV2Op::create(builder, op.getLoc(), resultType,
                                      op.getInputHandle(), op.getIndex(), axis);
  op.getItem().replaceAllUsesWith(item);
  op.erase();
  return success();
}

LogicalResult ListLowering::lowerStack(tf::TensorListStackOp op) {
  FailureOr<RankedTensorType> listType =
      getStackedType(op, op.getInputHandle());
  if (failed(listType))
    return failure();
  int64_t expected = static_cast<int64_t>(op.getNumElements());
  int64_t n = listType->getDimSize(0);
  if (expected >= 0 && !ShapedType::isDynamic(n) && n != expected)
    return op.emitOpError() << "cannot be lowered: the list has " << n
                            << " elements, not num_elements = " << expected;

  Value list = op.getInputHandle();
  auto resultType = dyn_cast<RankedTensorType>(op.getTensor().getType());
  if (resultType && resultType != *listType) {
    if (resultType.getElementType() != listType->getElementType() ||
        failed(verifyCompatibleShape(resultType, *listType)))
      return op.emitOpError()
             << "cannot be lowered: the result type " << resultType
             << " does not match the list " << *listType;
    OpBuilder builder(op);
    list = tf::IdentityOp::create(builder, op.getLoc(), resultType, list);
  }
  op.getTensor().replaceAllUsesWith(list);
  op.erase();
  return success();
}

LogicalResult ListLowering::lowerWhile(tf::WhileRegionOp op) {
  // The loop-carried lists take the type of their initial value; the body
  // keeps it, since no lowered op changes the length of a list.
  for (auto [i, input] : llvm::enumerate(op.getInput())) {
    Type carried = op.getBody().getArgument(i).getType();
    if (!isVariantTensor(carried))
      continue;
    FailureOr<RankedTensorType> type = getStackedType(op, input);
    if (failed(type))
      return failure();
    op.getCond().getArgument(i).setType(*type);
    op.getBody().getArgument(i).setType(*type);
    op.getResult(i).setType(*type);
  }
  if (failed(lowerBlock(op.getCond().front())) ||
      failed(lowerBlock(op.getBody().front())))
    return failure();
  Operation *yield = op.getBody().front().getTerminator();
  for (auto [i, input] : llvm::enumerate(op.getInput()))
    if (yield->getOperand(i).getType() != input.getType())
      return op.emitOpError()
             << "cannot be lowered: loop value #" << i << " starts as "
             << input.getType() << " but the body yields "
             << yield->getOperand(i).getType();
  return success();
}

LogicalResult ListLowering::lowerRegionResults(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (failed(lowerBlock(block)))
        return failure();
  for (OpResult result : op->getResults()) {
    if (!isVariantTensor(result.getType()))
      continue;
    Type type;
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      Operation *terminator = region.front().getTerminator();
      if (!terminator || terminator->getNumOperands() != op->getNumResults())
        return op->emitOpError()
               << "cannot be lowered: result #" << result.getResultNumber()
               << " is a tensor list not yielded by every region";
      Type yielded = terminator->getOperand(result.getResultNumber()).getType();
      if (type && yielded != type)
        return op->emitOpError()
               << "cannot be lowered: its regions yield the tensor list of "
                  "result #"
               << result.getResultNumber() << " as " << type << " and as "
               << yielded;
      type = yielded;
    }
    if (!type || isVariantTensor(type))
      return op->emitOpError()
             << "cannot be lowered: result #" << result.getResultNumber()
             << " is a tensor list that is not lowered";
    result.setType(type);
  }
  return success();
}

LogicalResult ListLowering::lowerBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](tf::TensorListReserveOp op) { return lowerReserve(op); })
            .Case([&](tf::TensorListFromTensorOp op) {
              return lowerFromTensor(op);
            })
            .Case([&](tf::TensorListSetItemOp op) { return lowerSetItem(op); })
            .Case([&](tf::TensorListGetItemOp op) { return lowerGetItem(op); })
            .Case([&](tf::TensorListStackOp op) { return lowerStack(op); })
            .Case([&](tf::WhileRegionOp op) { return lowerWhile(op); })
            .Case([&](tf::IdentityOp op) -> LogicalResult {
              if (!isVariantTensor(op.getOutput().getType()))
                return success();
              op.getOutput().replaceAllUsesWith(op.getInput());
              op.erase();
              return success();
            })
            .Default([&](Operation *op) -> LogicalResult {
              if (op->getNumRegions() != 0)
                return lowerRegionResults(op);
              return success();
            });
    if (failed(result))
      return failure();
  }
  return success();
}

/// Reports each op that carries a tensor list but is none of those this pass
/// rewrites; true if there is none.
bool checkListUsers(func::FuncOp func) {
  bool ok = true;
  func.walk([&](Operation *op) {
    if (!touchesVariants(op) ||
        isa<tf::TensorListReserveOp, tf::TensorListFromTensorOp,
            tf::TensorListSetItemOp, tf::TensorListGetItemOp,
            tf::TensorListStackOp, tf::WhileRegionOp, tf::IfRegionOp,
            tf::CaseRegionOp, tf::YieldOp, tf::IdentityOp>(op))
      return;
    if (isa<func::ReturnOp>(op))
      op->emitOpError() << "returns a tensor list, which is not lowered";
    else
      op->emitOpError() << "uses a tensor list, which is not lowered";
    ok = false;
  });
  return ok;
}

struct TFLowerTensorListsPass final
    : tf::impl::TFLowerTensorListsPassBase<TFLowerTensorListsPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      if (!checkListUsers(func)) {
        ok = false;
        return;
      }
      ListLowering lowering;
      if (failed(lowering.lowerBlock(func.front())))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
