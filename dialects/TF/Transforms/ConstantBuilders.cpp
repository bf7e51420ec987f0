//===- ConstantBuilders.cpp - tf.Const builders of the tf passes -*- C++ -*-===//

#include "dialects/TF/Transforms/ConstantBuilders.h"

#include "dialects/TF/IR/TFOps.h"

using namespace mlir;

Value kiln::tf::createScalar(OpBuilder &builder, Location loc,
                             IntegerType type, int64_t value) {
  auto scalar = RankedTensorType::get({}, type);
  return tf::ConstOp::create(
      builder, loc, scalar,
      DenseElementsAttr::get(scalar, builder.getIntegerAttr(type, value)));
}

Value kiln::tf::createVector(OpBuilder &builder, Location loc,
                             ArrayRef<int32_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    builder.getI32Type());
  return tf::ConstOp::create(builder, loc, type,
                             DenseElementsAttr::get(type, values));
}

TypedAttr kiln::tf::getZero(Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return FloatAttr::get(floatType, 0.0);
  if (auto intType = dyn_cast<IntegerType>(type))
    return IntegerAttr::get(intType, 0);
  return {};
}
