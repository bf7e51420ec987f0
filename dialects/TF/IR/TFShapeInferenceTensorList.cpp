//===- TFShapeInferenceTensorList.cpp - tensor list shape rules -*- C++ -*-===//
//
// inferResultTypes of the tensor list ops: TensorListReserve,
// TensorListFromTensor, TensorListSetItem, TensorListGetItem,
// TensorListStack.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFShapeInference.h"
#include "dialects/TF/IR/TFShapeInferenceUtils.h"
#include "dialects/TF/IR/TFTypeUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace kiln::tf;
using namespace kiln::tf::detail;

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
