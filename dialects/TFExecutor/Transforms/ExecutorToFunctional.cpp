//===- ExecutorToFunctional.cpp - inline islands ----------------*- C++ -*-===//
//
// tf-executor-to-functional: graphs of islands become straight-line code.
//
//===----------------------------------------------------------------------===//

#include "dialects/TFExecutor/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace kiln::tf_executor {
#define GEN_PASS_DEF_TFEXECUTORTOFUNCTIONALPASS
#include "dialects/TFExecutor/Transforms/Passes.h.inc"
} // namespace kiln::tf_executor

using namespace mlir;
using namespace kiln::tf_executor;

namespace {

/// Inlines the islands of `graph` before it and replaces its results by the
/// fetched values. Fails, without changing anything, on executor nodes that
/// are not islands.
LogicalResult inlineGraph(GraphOp graph) {
  bool ok = true;
  for (Operation &op : graph.getBlock().without_terminator()) {
    if (isa<IslandOp, ControlTriggerOp>(op))
      continue;
    op.emitError() << "'" << op.getName()
                   << "' is TF1 control flow, which tf-executor-to-functional "
                      "cannot inline; raise it to functional control flow "
                      "first";
    ok = false;
  }
  if (!ok)
    return failure();

  // Islands in graph order: a topological order of all edges.
  for (Operation &op : llvm::make_early_inc_range(graph.getBlock())) {
    auto island = dyn_cast<IslandOp>(op);
    if (!island)
      continue;
    YieldOp yield = island.getYield();
    for (Operation &inner :
         llvm::make_early_inc_range(island.getBlock().without_terminator()))
      inner.moveBefore(graph);
    for (auto [result, value] :
         llvm::zip(island.getOutputs(), yield.getFetches()))
      result.replaceAllUsesWith(value);
  }
  FetchOp fetch = graph.getFetch();
  for (auto [result, value] : llvm::zip(graph.getResults(), fetch.getFetches()))
    result.replaceAllUsesWith(value);
  // Control values are only used inside the graph: drop the graph whole.
  graph.getBlock().dropAllDefinedValueUses();
  graph.erase();
  return success();
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TFExecutorToFunctionalPass final
    : kiln::tf_executor::impl::TFExecutorToFunctionalPassBase<
          TFExecutorToFunctionalPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<GraphOp> graphs;
    getOperation().walk([&](GraphOp graph) { graphs.push_back(graph); });
    bool ok = true;
    for (GraphOp graph : graphs)
      ok &= succeeded(inlineGraph(graph));
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
