//===- CPUApproximateMath.cpp - vector exp/log/tanh inline ------*- C++ -*-===//
//
// kiln-cpu-approximate-math: expands math.exp, math.log and math.tanh on f32
// vectors into upstream's polynomial approximations, whose multiply-adds
// become contractible mulf/addf pairs, so that the vector stays a vector
// instead of one libm call per element.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/DenseSet.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUAPPROXIMATEMATHPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// Whether `op` is one of the math functions this pass expands.
bool isApproximated(StringRef name) {
  return name == math::ExpOp::getOperationName() ||
         name == math::LogOp::getOperationName() ||
         name == math::TanhOp::getOperationName();
}

/// Whether `type` is a vector of f32.
bool isF32Vector(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getElementType().isF32();
}

/// Rewrites a math.fma on vectors into arith.mulf and arith.addf marked
/// `contract`: LLVM fuses them into one FMA instruction where the target has
/// one, and keeps the vector multiply and add where it has not (a vector
/// llvm.intr.fma would become a libm `fmaf` call per element there).
void splitFma(RewriterBase &rewriter, math::FmaOp fma) {
  auto contract = arith::FastMathFlagsAttr::get(rewriter.getContext(),
                                                arith::FastMathFlags::contract);
  rewriter.setInsertionPoint(fma);
  Value product = arith::MulFOp::create(rewriter, fma.getLoc(), fma.getA(),
                                        fma.getB(), contract);
  rewriter.replaceOpWithNewOp<arith::AddFOp>(fma, product, fma.getC(),
                                             contract);
}

struct KilnCPUApproximateMathPass final
    : kiln::impl::KilnCPUApproximateMathPassBase<KilnCPUApproximateMathPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> targets;
    llvm::DenseSet<Operation *> earlierFmas;
    getOperation()->walk([&](Operation *op) {
      if (isa<math::FmaOp>(op))
        earlierFmas.insert(op);
      else if (isApproximated(op->getName().getStringRef()) &&
               op->getNumResults() == 1 &&
               isF32Vector(op->getResult(0).getType()))
        targets.push_back(op);
    });
    if (targets.empty())
      return;

    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, isApproximated);
    GreedyRewriteConfig config;
    // Only the vector ops collected above (and what their expansions make):
    // scalar calls keep libm's correctly rounded results.
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    bool changed = false;
    if (failed(applyOpPatternsGreedily(targets, std::move(patterns), config,
                                       &changed))) {
      getOperation()->emitError()
          << "kiln-cpu-approximate-math: the expansion did not converge";
      return signalPassFailure();
    }

    SmallVector<math::FmaOp> fmas;
    getOperation()->walk([&](math::FmaOp fma) {
      if (!earlierFmas.contains(fma) && isa<VectorType>(fma.getType()))
        fmas.push_back(fma);
    });
    IRRewriter rewriter(&getContext());
    for (math::FmaOp fma : fmas)
      splitFma(rewriter, fma);
  }
};

} // namespace
