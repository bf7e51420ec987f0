//===- CPUHoistAccumulators.cpp - accumulators in registers ----*- C++ -*-===//
//
// Moves the vector.transfer_read and vector.transfer_write of an accumulator
// tile that a reduction loop carries in a tensor out of the loop, so that the
// loop carries the vector (kept in registers) instead.
//
//===----------------------------------------------------------------------===//

#include "passes/CPUHoistAccumulators.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;

namespace {

/// The read and the write of an accumulator tile that a loop carries in its
/// tensor iteration argument: the body reads one vector of the argument and
/// yields that vector written back at the same indices, and does nothing
/// else with the argument but pass it through inner loops that no longer
/// touch it.
struct AccumulatorTile {
  vector::TransferReadOp read;
  vector::TransferWriteOp write;
};

/// True if \p use is the initial value of an inner loop's iteration argument
/// that the inner loop only passes through (a hoisted inner accumulator).
bool isPassThroughInit(OpOperand &use) {
  auto inner = dyn_cast<scf::ForOp>(use.getOwner());
  if (!inner || use.getOperandNumber() < inner.getNumControlOperands())
    return false;
  unsigned number = use.getOperandNumber() - inner.getNumControlOperands();
  BlockArgument arg = inner.getRegionIterArgs()[number];
  auto yield = cast<scf::YieldOp>(inner.getBody()->getTerminator());
  return arg.hasOneUse() && yield.getOperand(number) == arg &&
         inner.getResult(number).use_empty();
}

/// Matches an accumulator tile by its syntax: the same index values (defined
/// outside the loop), the same map, no mask. Upstream's
/// hoistLoopInvariantSubsets proves the same with ValueBoundsConstraintSet,
/// whose cost grows without bound with the dynamic sizes of a model
/// (mobilefacenet with a dynamic batch spent minutes there); the tiles made
/// here always use identical indices, so the syntactic match loses nothing.
std::optional<AccumulatorTile> matchAccumulatorTile(scf::ForOp loop,
                                                    BlockArgument arg) {
  if (!isa<RankedTensorType>(arg.getType()))
    return std::nullopt;
  vector::TransferReadOp read;
  vector::TransferWriteOp write;
  for (OpOperand &use : arg.getUses()) {
    if (isPassThroughInit(use))
      continue;
    auto r = dyn_cast<vector::TransferReadOp>(use.getOwner());
    auto w = dyn_cast<vector::TransferWriteOp>(use.getOwner());
    if (r && !read)
      read = r;
    else if (w && !write && w.getBase() == arg)
      write = w;
    else
      return std::nullopt;
  }
  if (!read || !write || read.getMask() || write.getMask() ||
      read->getBlock() != loop.getBody() ||
      write->getBlock() != loop.getBody() || !write->hasOneUse() ||
      !read->isBeforeInBlock(write))
    return std::nullopt;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  unsigned number = arg.getArgNumber() - loop.getNumInductionVars();
  if (yield.getOperand(number) != write.getResult() ||
      read.getVectorType() != write.getVectorType() ||
      read.getPermutationMap() != write.getPermutationMap() ||
      read.getIndices() != write.getIndices() ||
      read.getInBoundsValues() != write.getInBoundsValues())
    return std::nullopt;
  for (Value value : read.getOperands())
    if (value != arg && !loop.isDefinedOutsideOfLoop(value))
      return std::nullopt;
  return AccumulatorTile{read, write};
}

/// Carries the tile in a vector iteration argument instead: one read before
/// the loop, one write after it. The tensor argument is then only passed
/// through. Returns the new loop.
scf::ForOp hoistAccumulatorTile(RewriterBase &rewriter, scf::ForOp loop,
                                unsigned number, AccumulatorTile tile) {
  Value init = loop.getInitArgs()[number];
  rewriter.setInsertionPoint(loop);
  IRMapping outside;
  outside.map(tile.read.getBase(), init);
  Operation *initial = rewriter.clone(*tile.read, outside);
  Value written = tile.write.getVector();
  FailureOr<LoopLikeOpInterface> replaced =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, initial->getResult(0),
              /*replaceInitOperandUsesInLoop=*/false,
              [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                return SmallVector<Value>{written};
              });
  if (failed(replaced)) {
    rewriter.eraseOp(initial);
    return loop;
  }
  auto hoisted = cast<scf::ForOp>(replaced->getOperation());
  rewriter.replaceAllUsesWith(tile.read.getResult(),
                              hoisted.getRegionIterArgs().back());
  rewriter.replaceAllUsesWith(tile.write.getResult(),
                              hoisted.getRegionIterArgs()[number]);

  rewriter.setInsertionPointAfter(hoisted);
  IRMapping after;
  after.map(tile.write.getVector(), hoisted.getResults().back());
  after.map(tile.write.getBase(), init);
  Operation *final = rewriter.clone(*tile.write, after);
  rewriter.replaceAllUsesWith(hoisted.getResult(number), final->getResult(0));
  rewriter.eraseOp(tile.write);
  rewriter.eraseOp(tile.read);
  return hoisted;
}

} // namespace

void kiln::hoistAccumulatorTiles(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<scf::ForOp> loops;
  func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    for (bool again = true; again;) {
      again = false;
      for (BlockArgument arg : loop.getRegionIterArgs()) {
        if (std::optional<AccumulatorTile> tile =
                matchAccumulatorTile(loop, arg)) {
          unsigned number = arg.getArgNumber() - loop.getNumInductionVars();
          scf::ForOp hoisted = hoistAccumulatorTile(rewriter, loop, number,
                                                    *tile);
          again = hoisted != loop;
          loop = hoisted;
          break;
        }
      }
    }
  }
}
