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

class Inferrer {
public:
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
