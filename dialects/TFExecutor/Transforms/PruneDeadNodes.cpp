//===- PruneDeadNodes.cpp - drop executor nodes nobody needs ----*- C++ -*-===//
//
// tf-executor-prune-dead-nodes: keeps the nodes the fetch depends on and the
// nodes with side effects (with what they depend on); drops the rest.
//
//===----------------------------------------------------------------------===//

#include "dialects/TFExecutor/Transforms/Passes.h"

#include "dialects/TFExecutor/Transforms/GraphRewriting.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace kiln::tf_executor {
#define GEN_PASS_DEF_TFEXECUTORPRUNEDEADNODESPASS
#include "dialects/TFExecutor/Transforms/Passes.h.inc"
} // namespace kiln::tf_executor

using namespace mlir;
using namespace kiln::tf_executor;

namespace {

/// True if running `node` may be observable beyond its results: an island
/// holding an op with (or with unknown) side effects.
bool hasSideEffects(Operation *node) {
  auto island = dyn_cast<IslandOp>(node);
  if (!island)
    return false;
  for (Operation &op : island.getBlock().without_terminator())
    if (!isMemoryEffectFree(&op))
      return true;
  return false;
}

void prune(GraphOp graph) {
  Block &block = graph.getBlock();
  llvm::SmallPtrSet<Operation *, 32> live;
  SmallVector<Operation *> work;
  auto markDefiner = [&](Value v) {
    if (Operation *def = v.getDefiningOp())
      if (Operation *node = block.findAncestorOpInBlock(*def))
        work.push_back(node);
  };
  work.push_back(graph.getFetch());
  for (Operation &node : block)
    if (hasSideEffects(&node))
      work.push_back(&node);
  while (!work.empty()) {
    Operation *node = work.pop_back_val();
    if (!live.insert(node).second)
      continue;
    node->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        markDefiner(operand);
    });
    // A loop's back edge: the source's value comes from its sink.
    if (auto source = dyn_cast<NextIterationSourceOp>(node))
      if (NextIterationSinkOp sink = source.getSink())
        work.push_back(sink);
  }
  SmallVector<Operation *> dead;
  for (Operation &node : block)
    if (!live.contains(&node))
      dead.push_back(&node);
  eraseNodes(dead, /*control=*/Value());
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TFExecutorPruneDeadNodesPass final
    : kiln::tf_executor::impl::TFExecutorPruneDeadNodesPassBase<
          TFExecutorPruneDeadNodesPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation().walk([&](GraphOp graph) { prune(graph); });
  }
};

} // namespace
