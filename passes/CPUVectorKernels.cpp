//===- CPUVectorKernels.cpp - hand-built vector kernels' helpers ---------===//

#include "passes/CPUVectorKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace kiln {

bool isStaticF32Tensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getElementType().isF32();
}

bool hasLanewiseBody(linalg::GenericOp consumer) {
  Block &body = consumer.getRegion().front();
  if (body.getTerminator()->getNumOperands() != 1 ||
      !consumer.getMatchingBlockArgument(consumer.getDpsInitOperand(0))
           .use_empty())
    return false;
  auto scalar = [](Type type) { return type.isIntOrFloat(); };
  for (Operation &op : body.without_terminator()) {
    if (!isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
            op.getDialect()) ||
        op.getNumRegions() != 0 || op.getNumResults() != 1 ||
        (op.getNumOperands() == 0 && !isa<arith::ConstantOp>(op)))
      return false;
    if (!llvm::all_of(op.getResultTypes(), scalar) ||
        !llvm::all_of(op.getOperandTypes(), scalar))
      return false;
  }
  return true;
}

Value KernelBuilder::index(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value KernelBuilder::linear(Value x, int64_t scale, int64_t offset) {
  APInt constant;
  if (matchPattern(x, m_ConstantInt(&constant)))
    return index(constant.getSExtValue() * scale + offset);
  Value result = x;
  if (scale != 1)
    result = arith::MulIOp::create(b, loc, result, index(scale));
  if (offset != 0)
    result = arith::AddIOp::create(b, loc, result, index(offset));
  return result;
}

Value KernelBuilder::loop(int64_t lo, int64_t hi, Value dest,
                          llvm::function_ref<Value(Value, Value)> body) {
  if (hi <= lo)
    return dest;
  if (hi == lo + 1)
    return body(index(lo), dest);
  auto forOp = scf::ForOp::create(
      b, loc, index(lo), index(hi), index(1), ValueRange{dest},
      [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(nested.getInsertionBlock());
        Value result = body(iv, args[0]);
        scf::YieldOp::create(b, loc, result);
      });
  return forOp.getResult(0);
}

Value KernelBuilder::broadcast(Value scalar, int64_t width) {
  return vector::BroadcastOp::create(
      b, loc, VectorType::get({width}, scalar.getType()), scalar);
}

Value KernelBuilder::cloneBodyOnVectors(linalg::GenericOp consumer,
                                        IRMapping &map, int64_t width) {
  Block &body = consumer.getRegion().front();
  for (Operation &op : body.without_terminator()) {
    if (op.getNumOperands() == 0) {
      Operation *constant = b.clone(op);
      map.map(op.getResult(0), broadcast(constant->getResult(0), width));
      continue;
    }
    for (Value operand : op.getOperands())
      if (!map.contains(operand))
        map.map(operand, broadcast(operand, width));
    Operation *clone = b.clone(op, map);
    for (OpResult result : clone->getResults())
      result.setType(VectorType::get({width}, result.getType()));
  }
  Value yielded = body.getTerminator()->getOperand(0);
  if (!map.contains(yielded))
    return broadcast(yielded, width);
  return map.lookup(yielded);
}

} // namespace kiln
