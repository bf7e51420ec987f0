//===- TFShapeInferenceTraining.cpp - training op shapes --------*- C++ -*-===//
//
// inferResultTypes of the ops of TF1 training steps: gradients whose result
// shapes are not those of an operand (SoftmaxCrossEntropyWithLogits, ShapeN,
// Conv2DBackpropFilter, FusedBatchNormGradV3, BiasAddGrad).
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFShapeInference.h"
#include "dialects/TF/IR/TFShapeInferenceUtils.h"

using namespace mlir;
using namespace kiln::tf;
using namespace kiln::tf::detail;

/// loss: [batch]; backprop: the broadcast [batch, classes] of the operands.
LogicalResult SoftmaxCrossEntropyWithLogitsOp::inferResultTypes(
    SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto features = getRankedShape(getFeatures().getType());
  auto labels = getRankedShape(getLabels().getType());
  if (!features || !labels)
    return success();
  if (features->size() != 2 || labels->size() != 2)
    return emitOpError("requires 2-D features and labels, got ranks ")
           << features->size() << " and " << labels->size();
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(*features, *labels, shape)))
    return emitOpError("features of shape [")
           << (*features)[0] << ", " << (*features)[1]
           << "] and labels of shape [" << (*labels)[0] << ", " << (*labels)[1]
           << "] do not broadcast";
  setShape(getOperation(), resultTypes, 0, ArrayRef<int64_t>{shape[0]});
  setShape(getOperation(), resultTypes, 1, ArrayRef<int64_t>(shape));
  return success();
}

/// Result i: [rank of operand i].
LogicalResult ShapeNOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  if (getInput().size() != resultTypes.size())
    return emitOpError("has ")
           << getInput().size() << " operands but " << resultTypes.size()
           << " results";
  for (auto [i, input] : llvm::enumerate(getInput()))
    if (auto shape = getRankedShape(input.getType()))
      setShape(getOperation(), resultTypes, i,
               ArrayRef<int64_t>{static_cast<int64_t>(shape->size())});
  return success();
}

LogicalResult Conv2DBackpropFilterOp::inferResultTypes(
    SmallVectorImpl<Type> &resultTypes) {
  return inferFromShapeOperand(getOperation(), getFilterSizes(), resultTypes);
}

/// x_backprop: the shape of x; scale and offset backprops: the shape of
/// scale; the two reserve spaces: [0] (TensorFlow's shape function).
LogicalResult
FusedBatchNormGradV3Op::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  if (auto x = getRankedShape(getX().getType()))
    setShape(getOperation(), resultTypes, 0, ArrayRef<int64_t>(*x));
  if (auto scale = getRankedShape(getScale().getType())) {
    setShape(getOperation(), resultTypes, 1, ArrayRef<int64_t>(*scale));
    setShape(getOperation(), resultTypes, 2, ArrayRef<int64_t>(*scale));
  }
  setShape(getOperation(), resultTypes, 3, ArrayRef<int64_t>{0});
  setShape(getOperation(), resultTypes, 4, ArrayRef<int64_t>{0});
  return success();
}

/// [channels]: the last dimension (NHWC) or dimension 1 (NCHW).
LogicalResult BiasAddGradOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getOutBackprop().getType());
  if (!shape)
    return success();
  if (shape->size() < 2)
    return emitOpError("requires out_backprop of rank 2 or more, got rank ")
           << shape->size();
  int64_t channel = getDataFormat() == "NCHW" ? 1 : shape->size() - 1;
  setShape(getOperation(), resultTypes, 0,
           ArrayRef<int64_t>{(*shape)[channel]});
  return success();
}
