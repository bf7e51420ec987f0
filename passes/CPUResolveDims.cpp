//===- CPUResolveDims.cpp - sizes of tiled tensors -------------*- C++ -*-===//
//
// kiln-cpu-resolve-dims: rewrites every tensor.dim of a tiled loop's result,
// of its iteration argument, or of a value written in place, to the tensor.dim
// of the tensor it was written into, down to the function's arguments.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPURESOLVEDIMSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

bool isShapePreserving(scf::ForOp loop, unsigned index);

/// The tensor whose shape `value` has by construction, because `value` is
/// that tensor written in place (a destination-style op's result, a
/// vector.transfer_write into it, a loop that only writes into its iteration
/// argument); null if there is none.
Value getShapeSource(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() == 0)
      return {};
    unsigned index = arg.getArgNumber() - 1;
    return isShapePreserving(loop, index) ? loop.getInitArgs()[index] : Value();
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  if (auto write = dyn_cast<vector::TransferWriteOp>(op))
    return isa<RankedTensorType>(write.getBase().getType()) ? write.getBase()
                                                            : Value();
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    unsigned index = result.getResultNumber();
    return isShapePreserving(loop, index) ? loop.getInitArgs()[index] : Value();
  }
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    if (dps.hasPureTensorSemantics())
      return dps.getTiedOpOperand(result)->get();
  return {};
}

/// True when iteration `index` of `loop` yields its iteration argument
/// written in place, so every iteration keeps the init's shape.
bool isShapePreserving(scf::ForOp loop, unsigned index) {
  BlockArgument arg = loop.getRegionIterArgs()[index];
  Value value = loop.getYieldedValues()[index];
  // A chain of in-place writes; the bound only guards against a malformed
  // cycle, a tile nest is a few ops deep.
  for (int step = 0; value && step < 1024; ++step) {
    if (value == arg)
      return true;
    if (isa<BlockArgument>(value))
      return false; // Another block's argument: not this iteration's.
    value = getShapeSource(value);
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// tensor.dim %written, i -> tensor.dim %source, i
struct DimOfInPlaceWrite final : OpRewritePattern<tensor::DimOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::DimOp dim,
                                PatternRewriter &rewriter) const override {
    Value source = getShapeSource(dim.getSource());
    if (!source)
      return rewriter.notifyMatchFailure(dim, "not a tensor written in place");
    rewriter.modifyOpInPlace(dim,
                             [&] { dim.getSourceMutable().assign(source); });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnCPUResolveDimsPass final
    : kiln::impl::KilnCPUResolveDimsPassBase<KilnCPUResolveDimsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    set.add<DimOfInPlaceWrite>(context);
    // The sizes of tensor.empty, tensor.pad, ... results from their operands.
    memref::populateResolveRankedShapedTypeResultDimsPatterns(set);
    tensor::DimOp::getCanonicalizationPatterns(set, context);
    patterns = std::move(set);
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), patterns)))
      return signalPassFailure();
  }

private:
  FrozenRewritePatternSet patterns;
};

} // namespace
