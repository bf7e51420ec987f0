//===- RaiseConditionals.cpp - TF1 Switch/Merge to tf.IfRegion --*- C++ -*-===//
//
// tf-executor-raise-conditionals: the Switches of one predicate split the
// graph into a true side and a false side, which Merges join again. Each
// such conditional becomes one island holding a tf.IfRegion: the branches
// compute the Merges' inputs from each side, with the switched values read
// directly. Conditionals are raised innermost first, and before loops (a
// conditional inside a loop body becomes an island the loop can hold).
//
//===----------------------------------------------------------------------===//

#include "dialects/TFExecutor/Transforms/Passes.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace kiln::tf_executor {
#define GEN_PASS_DEF_TFEXECUTORRAISECONDITIONALSPASS
#include "dialects/TFExecutor/Transforms/Passes.h.inc"
} // namespace kiln::tf_executor

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_executor;

namespace {

/// One conditional: the Switches of a predicate, the nodes of each side, and
/// the Merges that join them.
struct Conditional {
  Value predicate;
  SmallVector<SwitchOp> switches;
  llvm::SetVector<Operation *> sides[2]; // [false, true]
  SmallVector<MergeOp> merges;
  /// Per merge, its input from the false and from the true side.
  SmallVector<std::pair<Value, Value>> mergeInputs;
};

class ConditionalRaiser {
public:
  explicit ConditionalRaiser(GraphOp graph) : graph(graph) {}

  LogicalResult run() {
    while (true) {
      // Conditional predicates in graph order (loop Switches test a
      // LoopCond and belong to tf-executor-raise-loops).
      llvm::MapVector<Value, SmallVector<SwitchOp>> byPredicate;
      for (auto sw : graph.getBlock().getOps<SwitchOp>())
        if (!sw.getPredicate().getDefiningOp<LoopCondOp>())
          byPredicate[sw.getPredicate()].push_back(sw);
      if (byPredicate.empty())
        return success();
      bool raised = false;
      for (auto &[predicate, switches] : byPredicate) {
        Conditional cond;
        cond.predicate = predicate;
        cond.switches = switches;
        if (failed(analyse(cond)))
          return failure();
        // Innermost first: skip a conditional whose sides hold Switches.
        if (llvm::any_of(cond.sides, [](auto &side) {
              return llvm::any_of(side, [](Operation *op) {
                return isa<SwitchOp, SwitchNOp>(op);
              });
            }))
          continue;
        if (failed(raise(cond)))
          return failure();
        raised = true;
        break;
      }
      if (!raised)
        return graph.emitError(
            "conditionals nest in a way that cannot be raised");
    }
  }

private:
  /// The node of the graph that holds `op` (itself, or its island).
  Operation *nodeOf(Operation *op) {
    return graph.getBlock().findAncestorOpInBlock(*op);
  }

  LogicalResult analyse(Conditional &cond) {
    // Each side: everything reachable from the Switches' outputs of that
    // side (and from their control), stopping at Merges (which join the
    // sides).
    for (int side = 0; side < 2; ++side) {
      SmallVector<Operation *> work;
      for (SwitchOp sw : cond.switches) {
        Value out = side ? sw.getTrueOutput() : sw.getFalseOutput();
        for (Operation *user : out.getUsers())
          work.push_back(nodeOf(user));
      }
      while (!work.empty()) {
        Operation *node = work.pop_back_val();
        if (!node || isa<MergeOp, FetchOp>(node) ||
            !cond.sides[side].insert(node))
          continue;
        // Control edges count too: a node that waits on a node of this side
        // runs only when the side runs (TensorFlow's branch constants).
        for (Value result : node->getResults())
          for (Operation *user : result.getUsers())
            work.push_back(nodeOf(user));
      }
    }
    // The joining Merges: two data inputs, one from each side.
    auto sideOf = [&](Value v) -> int {
      for (SwitchOp sw : cond.switches) {
        if (v == sw.getFalseOutput())
          return 0;
        if (v == sw.getTrueOutput())
          return 1;
      }
      Operation *def = v.getDefiningOp();
      for (int side = 0; side < 2; ++side)
        if (def && cond.sides[side].contains(nodeOf(def)))
          return side;
      return -1;
    };
    for (auto merge : graph.getBlock().getOps<MergeOp>()) {
      OperandRange inputs = merge.getDataInputs();
      if (inputs.size() != 2)
        continue;
      int a = sideOf(inputs[0]), b = sideOf(inputs[1]);
      // A Merge of two values of one side joins a conditional nested in
      // that side, not this one.
      if (a < 0 || b < 0 || a == b)
        continue;
      cond.merges.push_back(merge);
      cond.mergeInputs.push_back(a == 0 ? std::pair(inputs[0], inputs[1])
                                        : std::pair(inputs[1], inputs[0]));
    }
    return success();
  }

  /// Copies every island of `side` into `builder`'s block, in graph order,
  /// with the switched values read directly. (All of them: a node of a side
  /// may have effects even when no Merge reads it; dead pure ops fold away
  /// later.)
  LogicalResult copySide(Conditional &cond, int side, IRMapping &mapping,
                         OpBuilder &builder) {
    for (Operation &op : graph.getBlock()) {
      if (!cond.sides[side].contains(&op))
        continue;
      auto island = dyn_cast<IslandOp>(op);
      if (!island)
        return op.emitError("'")
               << op.getName()
               << "' inside a TF1 conditional cannot be held by a region";
      for (Operation &inner : island.getBlock().without_terminator())
        builder.clone(inner, mapping);
      for (auto [result, value] :
           llvm::zip(island.getOutputs(), island.getYield().getFetches()))
        mapping.map(result, mapping.lookupOrDefault(value));
    }
    return success();
  }

  LogicalResult raise(Conditional &cond) {
    if (cond.merges.empty())
      return cond.switches.front().emitError(
          "conditional has no Merge joining its two sides");
    // Nothing of a side may escape but through a joining Merge.
    for (int side = 0; side < 2; ++side)
      for (Operation *node : cond.sides[side])
        for (Value result : node->getResults())
          for (Operation *user : result.getUsers()) {
            Operation *userNode = nodeOf(user);
            if (isa<ControlType>(result.getType()) ||
                cond.sides[side].contains(userNode) ||
                llvm::is_contained(cond.merges, userNode))
              continue;
            return node->emitError("value computed on one side of a TF1 "
                                   "conditional is used by '")
                   << userNode->getName() << "' outside it";
          }
    for (MergeOp merge : cond.merges)
      if (!merge.getValueIndex().use_empty())
        return merge.emitError("value_index of a conditional's Merge is "
                               "used; this is not raised");

    MLIRContext *ctx = graph.getContext();
    Location loc = cond.merges.front().getLoc();
    // The island goes at the first Merge: everything the branches read is
    // defined before it.
    Operation *first = cond.merges.front();
    for (MergeOp merge : cond.merges)
      if (merge->isBeforeInBlock(first))
        first = merge;
    OpBuilder b(first);
    SmallVector<Type> types;
    for (MergeOp merge : cond.merges)
      types.push_back(merge.getOutput().getType());
    OperationState islandState(loc, IslandOp::getOperationName());
    islandState.addTypes(types);
    islandState.addTypes(ControlType::get(ctx));
    Region *islandRegion = islandState.addRegion();
    auto *islandBlock = new Block();
    islandRegion->push_back(islandBlock);
    auto island = cast<IslandOp>(b.create(islandState));
    OpBuilder ib = OpBuilder::atBlockEnd(islandBlock);
    auto ifOp = tf::IfRegionOp::create(ib, loc, types, cond.predicate,
                                       /*is_stateless=*/false);
    YieldOp::create(ib, loc, ifOp.getResults());

    for (int side = 0; side < 2; ++side) {
      Region &region = side ? ifOp.getThenBranch() : ifOp.getElseBranch();
      Block *block = new Block();
      region.push_back(block);
      OpBuilder rb = OpBuilder::atBlockEnd(block);
      IRMapping mapping;
      for (SwitchOp sw : cond.switches)
        mapping.map(side ? sw.getTrueOutput() : sw.getFalseOutput(),
                    sw.getData());
      if (failed(copySide(cond, side, mapping, rb)))
        return failure();
      SmallVector<Value> yielded;
      for (auto &inputs : cond.mergeInputs)
        yielded.push_back(
            mapping.lookupOrDefault(side ? inputs.second : inputs.first));
      tf::YieldOp::create(rb, loc, yielded);
    }

    // Merges read the island; the conditional's nodes go.
    for (auto [index, merge] : llvm::enumerate(cond.merges)) {
      merge.getOutput().replaceAllUsesWith(island.getOutputs()[index]);
      merge.getControl().replaceAllUsesWith(island.getControl());
    }
    llvm::SetVector<Operation *> dead;
    for (int side = 0; side < 2; ++side)
      dead.insert(cond.sides[side].begin(), cond.sides[side].end());
    for (MergeOp merge : cond.merges)
      dead.insert(merge);
    for (SwitchOp sw : cond.switches) {
      sw.getControl().replaceAllUsesWith(island.getControl());
      dead.insert(sw);
    }
    for (Operation *op : dead)
      for (Value result : op->getResults())
        if (isa<ControlType>(result.getType()))
          result.replaceAllUsesWith(island.getControl());
    for (Operation *op : dead)
      op->dropAllUses();
    for (Operation *op : dead)
      op->dropAllReferences();
    for (Operation *op : dead)
      op->erase();
    return success();
  }

  GraphOp graph;
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TFExecutorRaiseConditionalsPass final
    : kiln::tf_executor::impl::TFExecutorRaiseConditionalsPassBase<
          TFExecutorRaiseConditionalsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<GraphOp> graphs;
    getOperation().walk([&](GraphOp graph) { graphs.push_back(graph); });
    for (GraphOp graph : graphs)
      if (failed(ConditionalRaiser(graph).run()))
        return signalPassFailure();
  }
};

} // namespace
