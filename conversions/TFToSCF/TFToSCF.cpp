//===- TFToSCF.cpp - tf region control flow to scf --------------*- C++ -*-===//
//
// tf.IfRegion → scf.if, tf.WhileRegion → scf.while, tf.CaseRegion →
// scf.index_switch. Regions move over whole; only terminators and the
// values crossing the op boundary change.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToSCF/TFToSCF.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFTypeUtils.h"

#include "llvm/ADT/TypeSwitch.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTTFCONTROLFLOWTOSCFPASS
#include "conversions/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// `value` as `type`, through tensor.cast when the (compatible) types differ.
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

SmallVector<Value> castAll(OpBuilder &b, Location loc, ValueRange values,
                           TypeRange types) {
  SmallVector<Value> result;
  for (auto [value, type] : llvm::zip(values, types))
    result.push_back(castTo(b, loc, value, type));
  return result;
}

/// A condition tensor as an i1, by TensorFlow's rule for scalars: a boolean
/// as is, any other number true when non-zero.
FailureOr<Value> readCondition(OpBuilder &b, Operation *op, Value cond) {
  Location loc = op->getLoc();
  auto type = cast<TensorType>(cond.getType());
  if (type.hasRank() && type.getRank() != 0)
    return op->emitOpError("condition of type ")
           << type
           << " is not a scalar; only scalar conditions are lowered to scf";
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return op->emitOpError("condition of type ")
           << type << " is not a number or a boolean";
  Value scalar = tensor::ExtractOp::create(
      b, loc, castTo(b, loc, cond, RankedTensorType::get({}, element)),
      ValueRange());
  if (element.isInteger(1))
    return scalar;
  if (isa<FloatType>(element)) {
    Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 0));
    return Value(
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, scalar, zero));
  }
  Value zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(element, 0));
  if (!element.isSignlessInteger()) {
    // ui8 etc.: compare the bits.
    Type signless = b.getIntegerType(element.getIntOrFloatBitWidth());
    scalar = arith::BitcastOp::create(b, loc, signless, scalar);
    zero = arith::ConstantOp::create(b, loc, b.getIntegerAttr(signless, 0));
  }
  return Value(
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, scalar, zero));
}

/// Replaces the tf.Yield ending `block` by scf.yield of its operands cast to
/// `types`.
void yieldTo(Block &block, TypeRange types) {
  auto yield = cast<tf::YieldOp>(block.getTerminator());
  OpBuilder b(yield);
  scf::YieldOp::create(b, yield.getLoc(),
                       castAll(b, yield.getLoc(), yield.getOperands(), types));
  yield.erase();
}

/// Gives `block`'s arguments the loop-carried types. These are at least as
/// general as the old ones (see `join`), and tf ops accept any compatible
/// tensor type, so uses need no cast; casting back to a narrower type would
/// assert a shape the loop does not keep.
void retypeArguments(Block &block, TypeRange types) {
  for (auto [arg, type] : llvm::zip(block.getArguments(), types))
    arg.setType(type);
}

LogicalResult lowerIf(tf::IfRegionOp op) {
  OpBuilder b(op);
  FailureOr<Value> cond = readCondition(b, op, op.getCond());
  if (failed(cond))
    return failure();
  auto ifOp = scf::IfOp::create(b, op.getLoc(), op.getResultTypes(), *cond,
                                /*addThenBlock=*/false,
                                /*addElseBlock=*/false);
  ifOp.getThenRegion().takeBody(op.getThenBranch());
  ifOp.getElseRegion().takeBody(op.getElseBranch());
  yieldTo(ifOp.getThenRegion().front(), op.getResultTypes());
  yieldTo(ifOp.getElseRegion().front(), op.getResultTypes());
  op.replaceAllUsesWith(ifOp.getResults());
  op.erase();
  return success();
}

LogicalResult lowerCase(tf::CaseRegionOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto indexType = cast<TensorType>(op.getBranchIndex().getType());
  if (indexType.hasRank() && indexType.getRank() != 0)
    return op.emitOpError("branch index of type ")
           << indexType << " is not a scalar";
  Value index = tensor::ExtractOp::create(
      b, loc,
      castTo(b, loc, op.getBranchIndex(),
             RankedTensorType::get({}, b.getI32Type())),
      ValueRange());
  index = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  unsigned n = op.getBranches().size();
  SmallVector<int64_t> cases;
  for (unsigned i = 0; i + 1 < n; ++i)
    cases.push_back(i);
  auto switchOp = scf::IndexSwitchOp::create(b, loc, op.getResultTypes(), index,
                                             cases, cases.size());
  // Branches 0..n-2 are cases; the last is the default (TensorFlow runs it
  // for any index out of range).
  for (unsigned i = 0; i + 1 < n; ++i) {
    switchOp.getCaseRegions()[i].takeBody(op.getBranches()[i]);
    yieldTo(switchOp.getCaseRegions()[i].front(), op.getResultTypes());
  }
  switchOp.getDefaultRegion().takeBody(op.getBranches()[n - 1]);
  yieldTo(switchOp.getDefaultRegion().front(), op.getResultTypes());
  op.replaceAllUsesWith(switchOp.getResults());
  op.erase();
  return success();
}

using kiln::tf::joinTensorTypes;

LogicalResult lowerWhile(tf::WhileRegionOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  // Loop-carried types hold the initial values and whatever the body
  // yields: a value whose shape changes between iterations gets `?`.
  auto bodyYield = cast<tf::YieldOp>(op.getBody().front().getTerminator());
  SmallVector<Type> loopTypes;
  for (auto [init, next, result] :
       llvm::zip(op.getInput().getTypes(), bodyYield.getOperandTypes(),
                 op.getResultTypes()))
    loopTypes.push_back(joinTensorTypes(joinTensorTypes(init, next), result));
  auto whileOp = scf::WhileOp::create(
      b, loc, loopTypes, castAll(b, loc, op.getInput(), loopTypes));
  whileOp.getBefore().takeBody(op.getCond());
  whileOp.getAfter().takeBody(op.getBody());
  Block &before = whileOp.getBefore().front();
  Block &after = whileOp.getAfter().front();
  retypeArguments(before, loopTypes);
  retypeArguments(after, loopTypes);

  auto condYield = cast<tf::YieldOp>(before.getTerminator());
  OpBuilder cb(condYield);
  FailureOr<Value> predicate = readCondition(cb, op, condYield.getOperand(0));
  if (failed(predicate))
    return failure();
  scf::ConditionOp::create(cb, condYield.getLoc(), *predicate,
                           before.getArguments());
  condYield.erase();
  yieldTo(after, loopTypes);

  b.setInsertionPointAfter(whileOp);
  op.replaceAllUsesWith(
      castAll(b, loc, whileOp.getResults(), op.getResultTypes()));
  op.erase();
  return success();
}

} // namespace

LogicalResult kiln::lowerTFControlFlowToSCF(Operation *root) {
  // Post-order: inner control flow is lowered before the op holding it.
  SmallVector<Operation *> ops;
  root->walk([&](Operation *op) {
    if (isa<tf::IfRegionOp, tf::WhileRegionOp, tf::CaseRegionOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    LogicalResult result =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case([](tf::IfRegionOp op) { return lowerIf(op); })
            .Case([](tf::WhileRegionOp op) { return lowerWhile(op); })
            .Case([](tf::CaseRegionOp op) { return lowerCase(op); });
    if (failed(result))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertTFControlFlowToSCFPass final
    : kiln::impl::ConvertTFControlFlowToSCFPassBase<
          ConvertTFControlFlowToSCFPass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(lowerTFControlFlowToSCF(getOperation())))
      signalPassFailure();
  }
};
} // namespace
