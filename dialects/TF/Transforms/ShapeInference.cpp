//===- ShapeInference.cpp - tf-shape-inference ------------------*- C++ -*-===//
//
// Drives ShapeInferenceOpInterface over functions, islands and graphs.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "dialects/TFExecutor/IR/TFExecutor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/TypeUtilities.h"

namespace kiln::tf {
#define GEN_PASS_DEF_TFSHAPEINFERENCEPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;

namespace {

/// True if `refined` may replace `current`: same element type, compatible
/// shapes, and not less known.
bool isRefinement(Type current, Type refined) {
  auto from = dyn_cast<TensorType>(current);
  auto to = dyn_cast<TensorType>(refined);
  if (!from || !to || from.getElementType() != to.getElementType())
    return false;
  return succeeded(verifyCompatibleShape(from, to));
}

/// The most precise type that both `a` and `b` are instances of.
Type join(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = cast<TensorType>(a), tb = cast<TensorType>(b);
  if (!ta.hasRank() || !tb.hasRank() || ta.getRank() != tb.getRank())
    return UnrankedTensorType::get(ta.getElementType());
  SmallVector<int64_t> dims;
  for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
    dims.push_back(x == y ? x : ShapedType::kDynamic);
  return RankedTensorType::get(dims, ta.getElementType());
}

/// Forgets the shapes inferred inside `op`'s regions (results become
/// unranked), so that they are inferred again from new argument types.
void forgetInnerShapes(Operation *op) {
  op->walk([&](Operation *inner) {
    if (inner == op || !isa<tf::TFDialect>(inner->getDialect()))
      return;
    for (OpResult result : inner->getResults())
      if (auto tensor = dyn_cast<TensorType>(result.getType()))
        result.setType(UnrankedTensorType::get(tensor.getElementType()));
  });
}

class Inferrer {
public:
  /// Region control flow: branch results follow what the branches yield;
  /// a loop's values hold their initial values and what the body yields.
  /// Returns whether a type changed.
  bool inferRegionOp(Operation *op) {
    bool changed = false;
    auto refine = [&](Value value, Type type) {
      if (type != value.getType() && isRefinement(value.getType(), type)) {
        value.setType(type);
        changed = true;
      }
    };
    if (isa<tf::IfRegionOp, tf::CaseRegionOp>(op)) {
      SmallVector<Type> joined;
      for (Region &region : op->getRegions()) {
        Operation *yield = region.front().getTerminator();
        for (auto [i, type] : llvm::enumerate(yield->getOperandTypes())) {
          if (joined.size() <= i)
            joined.push_back(type);
          else
            joined[i] = join(joined[i], type);
        }
      }
      for (auto [result, type] : llvm::zip(op->getResults(), joined))
        refine(result, type);
      return changed;
    }
    auto loop = cast<tf::WhileRegionOp>(op);
    Operation *yield = loop.getBody().front().getTerminator();
    bool generalized = false;
    for (auto [i, input] : llvm::enumerate(loop.getInput())) {
      Type carried = join(input.getType(), yield->getOperand(i).getType());
      for (Region *region : {&loop.getCond(), &loop.getBody()}) {
        BlockArgument arg = region->front().getArgument(i);
        if (arg.getType() == carried)
          continue;
        generalized = true;
        arg.setType(carried);
        changed = true;
      }
      refine(loop.getResult(i), carried);
    }
    // Shapes inferred from the old loop types no longer hold.
    if (generalized)
      forgetInnerShapes(op);
    return changed;
  }


  /// One pass over `func`; returns whether a type changed, or failure.
  FailureOr<bool> run(func::FuncOp func) {
    bool changed = false;
    WalkResult walk = func.walk([&](Operation *op) {
      if (auto infer = dyn_cast<tf::ShapeInferenceOpInterface>(op)) {
        SmallVector<Type> types;
        if (failed(infer.inferResultTypes(types)))
          return WalkResult::interrupt();
        if (types.size() != op->getNumResults()) {
          op->emitOpError("shape function returned ")
              << types.size() << " types for " << op->getNumResults()
              << " results";
          return WalkResult::interrupt();
        }
        for (auto [result, type] : llvm::zip(op->getResults(), types)) {
          if (!type || type == result.getType())
            continue;
          if (!isRefinement(result.getType(), type)) {
            op->emitOpError("result #")
                << result.getResultNumber() << " is declared "
                << result.getType() << " but its operands make it " << type;
            return WalkResult::interrupt();
          }
          result.setType(type);
          changed = true;
        }
        return WalkResult::advance();
      }
      if (isa<tf::IfRegionOp, tf::CaseRegionOp, tf::WhileRegionOp>(op)) {
        changed |= inferRegionOp(op);
        return WalkResult::advance();
      }
      // Islands and graphs carry the types they yield and fetch.
      if (isa<tf_executor::YieldOp, tf_executor::FetchOp>(op)) {
        Operation *parent = op->getParentOp();
        for (auto [operand, result] :
             llvm::zip(op->getOperands(), parent->getResults())) {
          if (operand.getType() == result.getType())
            continue;
          result.setType(operand.getType());
          changed = true;
        }
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    return changed;
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TFShapeInferencePass final
    : kiln::tf::impl::TFShapeInferencePassBase<TFShapeInferencePass> {
  using Base::Base;

  void runOnOperation() override {
    Inferrer inferrer;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // Loops start optimistic: their values have the initial values' types
      // until the body shows otherwise (inferRegionOp generalizes them).
      func.walk([&](tf::WhileRegionOp loop) {
        for (auto [i, input] : llvm::enumerate(loop.getInput()))
          for (Region *region : {&loop.getCond(), &loop.getBody()})
            region->front().getArgument(i).setType(input.getType());
        forgetInnerShapes(loop);
      });
      bool converged = false;
      for (unsigned i = 0; i < maxIterations && !converged; ++i) {
        FailureOr<bool> changed = inferrer.run(func);
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
