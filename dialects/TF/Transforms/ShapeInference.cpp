//===- ShapeInference.cpp - tf-shape-inference ------------------*- C++ -*-===//
//
// Drives ShapeInferenceOpInterface over functions, islands and graphs.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "dialects/TF/IR/TFTypeUtils.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "dialects/TFExecutor/IR/TFExecutor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

namespace kiln::tf {
#define GEN_PASS_DEF_TFSHAPEINFERENCEPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;

namespace {

/// True if `refined` may replace `current`: tensors of one element type (or
/// of tensor lists with compatible element types) with compatible shapes.
bool isRefinement(Type current, Type refined) {
  return isa<TensorType>(current) && isa<TensorType>(refined) &&
         tf::areCompatibleTensorTypes(current, refined);
}

using kiln::tf::joinTensorTypes;

/// Forgets the shapes inferred inside `op`'s regions (results become
/// unranked, tensor lists forget their element types), so that they are
/// inferred again from new argument types. Constants keep their types: a
/// constant's type is its value's, whatever the arguments are.
void forgetInnerShapes(Operation *op) {
  op->walk([&](Operation *inner) {
    if (inner == op || !isa<tf::TFDialect>(inner->getDialect()) ||
        inner->hasTrait<OpTrait::ConstantLike>())
      return;
    for (OpResult result : inner->getResults()) {
      auto tensor = dyn_cast<TensorType>(result.getType());
      if (!tensor)
        continue;
      Type element = tensor.getElementType();
      if (isa<tf_type::VariantType>(element))
        element = tf_type::VariantType::get(op->getContext());
      result.setType(UnrankedTensorType::get(element));
    }
  });
}

/// Infers shapes over a function in program order. Loops are solved locally:
/// their values start as the initial values' types and widen (with the body
/// re-inferred) until what the body yields fits them.
class Inferrer {
public:
  explicit Inferrer(unsigned maxLoopIterations)
      : maxLoopIterations(maxLoopIterations) {}

  /// One pass over `region`; returns whether a type changed, or failure.
  FailureOr<bool> run(Region &region) {
    changed = false;
    if (failed(inferRegion(region)))
      return failure();
    return changed;
  }

private:
  void setType(Value value, Type type) {
    if (value.getType() == type)
      return;
    value.setType(type);
    changed = true;
  }

  /// Refuses an inferred static shape whose element count overflows int64:
  /// sizes and byte counts computed from it would wrap (a Fill of
  /// [2^32, 2^32] folded to a constant that LLVM cannot allocate).
  static LogicalResult checkElementCount(Operation *op, unsigned index,
                                         Type type) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked)
      return success();
    int64_t count = 1;
    for (int64_t dim : ranked.getShape())
      if (!ShapedType::isDynamic(dim) && llvm::MulOverflow(count, dim, count))
        return op->emitOpError("result #")
               << index << " would be " << type
               << ", which has more elements than int64 can count";
    return success();
  }

  LogicalResult inferRegion(Region &region) {
    for (Block &block : region)
      for (Operation &op : block)
        if (failed(inferOp(&op)))
          return failure();
    return success();
  }

  LogicalResult inferOp(Operation *op) {
    if (auto loop = dyn_cast<tf::WhileRegionOp>(op))
      return inferLoop(loop);
    for (Region &region : op->getRegions())
      if (failed(inferRegion(region)))
        return failure();

    if (auto infer = dyn_cast<tf::ShapeInferenceOpInterface>(op)) {
      SmallVector<Type> types;
      if (failed(infer.inferResultTypes(types)))
        return failure();
      if (types.size() != op->getNumResults())
        return op->emitOpError("shape function returned ")
               << types.size() << " types for " << op->getNumResults()
               << " results";
      for (auto [result, type] : llvm::zip(op->getResults(), types)) {
        if (!type || type == result.getType())
          continue;
        if (!isRefinement(result.getType(), type))
          return op->emitOpError("result #")
                 << result.getResultNumber() << " is declared "
                 << result.getType() << " but its operands make it " << type;
        if (failed(checkElementCount(op, result.getResultNumber(), type)))
          return failure();
        setType(result, type);
      }
      return success();
    }
    // Branches: results join what every branch yields.
    if (isa<tf::IfRegionOp, tf::CaseRegionOp>(op)) {
      SmallVector<Type> joined;
      for (Region &region : op->getRegions()) {
        Operation *yield = region.front().getTerminator();
        for (auto [i, type] : llvm::enumerate(yield->getOperandTypes()))
          joined.size() <= i
              ? (void)joined.push_back(type)
              : (void)(joined[i] = joinTensorTypes(joined[i], type));
      }
      for (auto [result, type] : llvm::zip(op->getResults(), joined))
        if (isRefinement(result.getType(), type))
          setType(result, type);
      return success();
    }
    // Islands and graphs carry the types they yield and fetch.
    if (isa<tf_executor::YieldOp, tf_executor::FetchOp>(op))
      for (auto [operand, result] :
           llvm::zip(op->getOperands(), op->getParentOp()->getResults()))
        setType(result, operand.getType());
    return success();
  }

  LogicalResult inferLoop(tf::WhileRegionOp loop) {
    Operation *yield = loop.getBody().front().getTerminator();
    // Optimistic start: the loop values have the initial values' types.
    SmallVector<Type> carried(loop.getInput().getTypes());
    for (unsigned i = 0;; ++i) {
      bool retyped = false;
      for (Region *region : {&loop.getCond(), &loop.getBody()})
        for (auto [arg, type] :
             llvm::zip(region->front().getArguments(), carried))
          if (arg.getType() != type) {
            setType(arg, type);
            retyped = true;
          }
      // What was inferred from other loop types no longer holds.
      if (retyped)
        forgetInnerShapes(loop);
      if (failed(inferRegion(loop.getCond())) ||
          failed(inferRegion(loop.getBody())))
        return failure();
      SmallVector<Type> next;
      for (auto [type, yielded] : llvm::zip(carried, yield->getOperandTypes()))
        next.push_back(joinTensorTypes(type, yielded));
      if (next == carried)
        break;
      if (i + 1 == maxLoopIterations)
        return loop.emitOpError("loop types did not settle after ")
               << maxLoopIterations << " passes";
      carried = std::move(next);
    }
    for (auto [result, type] : llvm::zip(loop.getResults(), carried))
      if (isRefinement(result.getType(), type))
        setType(result, type);
    return success();
  }

  unsigned maxLoopIterations;
  bool changed = false;
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TFShapeInferencePass final
    : kiln::tf::impl::TFShapeInferencePassBase<TFShapeInferencePass> {
  using Base::Base;

  void runOnOperation() override {
    Inferrer inferrer(maxIterations);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      bool converged = false;
      for (unsigned i = 0; i < maxIterations && !converged; ++i) {
        FailureOr<bool> changed = inferrer.run(func.getBody());
        if (failed(changed))
          return signalPassFailure();
        converged = !*changed;
      }
      // The function returns what its body now produces.
      Block &last = func.getBody().back();
      if (auto ret = dyn_cast<func::ReturnOp>(last.getTerminator()))
        func.setType(FunctionType::get(&getContext(), func.getArgumentTypes(),
                                       ret.getOperandTypes()));
    }
  }
};

} // namespace
