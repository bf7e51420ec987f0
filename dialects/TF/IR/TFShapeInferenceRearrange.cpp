//===- TFShapeInferenceRearrange.cpp - shape rules of rearranges *- C++ -*-===//
//
// inferResultTypes of the space/depth/batch rearrangements, gathers and
// selections: DepthToSpace, SpaceToBatchND, BatchToSpaceND, GatherNd,
// SparseToDense, NonMaxSuppressionV3/V5, ReadVariableOp.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFShapeInference.h"
#include "dialects/TF/IR/TFShapeInferenceUtils.h"
#include "dialects/TF/IR/TFTypeUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kiln::tf;
using namespace kiln::tf::detail;

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

