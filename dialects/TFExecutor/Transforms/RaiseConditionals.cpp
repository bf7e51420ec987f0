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

#include "dialects/TFExecutor/Transforms/GraphRewriting.h"

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

/// One conditional: the switches of a predicate (Switch: two sides, false
/// then true; _SwitchN: one side per output), the nodes of each side, and
/// the Merges that join them.
struct Conditional {
  Value predicate;
  SmallVector<Operation *> switches;
  unsigned numSides = 2;
  SmallVector<llvm::SetVector<Operation *>> sides;
  SmallVector<MergeOp> merges;
  /// Per merge, its input from each side.
  SmallVector<SmallVector<Value>> mergeInputs;

  /// Output `side` of switch `sw`.
  static Value output(Operation *sw, unsigned side) {
    if (auto two = dyn_cast<SwitchOp>(sw))
      return side ? two.getTrueOutput() : two.getFalseOutput();
    return cast<SwitchNOp>(sw).getOutputs()[side];
  }
  static Value data(Operation *sw) { return sw->getOperand(0); }
  static unsigned numSidesOf(Operation *sw) {
    if (auto n = dyn_cast<SwitchNOp>(sw))
      return n.getOutputs().size();
    return 2;
  }
};

class ConditionalRaiser {
public:
  explicit ConditionalRaiser(GraphOp graph) : graph(graph) {}

  LogicalResult run() {
    while (true) {
      // Conditional predicates in graph order (loop Switches test a
      // LoopCond and belong to tf-executor-raise-loops). A predicate's
      // switches are all Switches or all _SwitchN of one arity.
      llvm::MapVector<Value, SmallVector<Operation *>> byPredicate;
      for (Operation &op : graph.getBlock()) {
        if (auto sw = dyn_cast<SwitchOp>(op)) {
          if (!sw.getPredicate().getDefiningOp<LoopCondOp>())
            byPredicate[sw.getPredicate()].push_back(sw);
        } else if (auto sw = dyn_cast<SwitchNOp>(op)) {
          byPredicate[sw.getIndex()].push_back(sw);
        }
      }
      if (byPredicate.empty())
        return success();
      bool raised = false;
      for (auto &[predicate, switches] : byPredicate) {
        Conditional cond;
        cond.predicate = predicate;
        cond.switches = switches;
        cond.numSides = Conditional::numSidesOf(switches.front());
        for (Operation *sw : switches)
          if (Conditional::numSidesOf(sw) != cond.numSides ||
              isa<SwitchOp>(sw) != isa<SwitchOp>(switches.front()))
            return sw->emitError("switches of one predicate disagree on "
                                 "their number of outputs");
        cond.sides.resize(cond.numSides);
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
    // Each side: everything reachable from the switches' outputs of that
    // side (and from their control), stopping at Merges (which join the
    // sides).
    for (unsigned side = 0; side < cond.numSides; ++side) {
      SmallVector<Operation *> work;
      for (Operation *sw : cond.switches)
        for (Operation *user : Conditional::output(sw, side).getUsers())
          work.push_back(nodeOf(user));
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
    // The joining Merges: one data input from each side.
    auto sideOf = [&](Value v) -> int {
      for (Operation *sw : cond.switches)
        for (unsigned side = 0; side < cond.numSides; ++side)
          if (v == Conditional::output(sw, side))
            return side;
      Operation *def = v.getDefiningOp();
      for (unsigned side = 0; side < cond.numSides; ++side)
        if (def && cond.sides[side].contains(nodeOf(def)))
          return side;
      return -1;
    };
    for (auto merge : graph.getBlock().getOps<MergeOp>()) {
      OperandRange inputs = merge.getDataInputs();
      SmallVector<Value> bySide(cond.numSides);
      unsigned found = 0, foreign = 0;
      for (Value input : inputs) {
        int side = sideOf(input);
        if (side < 0) {
          ++foreign;
          continue;
        }
        if (!bySide[side]) {
          bySide[side] = input;
          ++found;
        }
      }
      // A Merge of values of one side joins a conditional nested in that
      // side, not this one.
      if (found < 2 || foreign)
        continue;
      if (found != cond.numSides || inputs.size() != cond.numSides)
        return merge.emitError("Merge joins ")
               << found << " of the " << cond.numSides
               << " sides of a conditional; every side must give a value";
      cond.merges.push_back(merge);
      cond.mergeInputs.push_back(bySide);
    }
    return success();
  }

  /// Copies every island of `side` into `builder`'s block, in graph order,
  /// with the switched values read directly. (All of them: a node of a side
  /// may have effects even when no Merge reads it; dead pure ops fold away
  /// later.)
  LogicalResult copySide(Conditional &cond, unsigned side, IRMapping &mapping,
                         OpBuilder &builder) {
    for (Operation &op : graph.getBlock()) {
      if (!cond.sides[side].contains(&op))
        continue;
      auto island = dyn_cast<IslandOp>(op);
      if (!island)
        return op.emitError("'")
               << op.getName()
               << "' inside a TF1 conditional cannot be held by a region";
      cloneIslandBody(island, mapping, builder);
    }
    return success();
  }

  LogicalResult raise(Conditional &cond) {
    if (cond.merges.empty())
      return cond.switches.front()->emitError(
          "conditional has no Merge joining its two sides");
    // Nothing of a side may escape but through a joining Merge.
    for (unsigned side = 0; side < cond.numSides; ++side)
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
    OpBuilder ib(ctx);
    IslandOp island = createIsland(b, loc, types, ib);
    Operation *regionOp;
    MutableArrayRef<Region> regions;
    if (isa<SwitchOp>(cond.switches.front())) {
      auto ifOp = tf::IfRegionOp::create(ib, loc, types, cond.predicate,
                                         /*is_stateless=*/false);
      regionOp = ifOp;
      regions = ifOp->getRegions(); // then (true), else (false)
    } else {
      auto caseOp =
          tf::CaseRegionOp::create(ib, loc, types, cond.predicate,
                                   /*is_stateless=*/false, cond.numSides);
      regionOp = caseOp;
      regions = caseOp.getBranches();
    }
    YieldOp::create(ib, loc, regionOp->getResults());

    for (unsigned side = 0; side < cond.numSides; ++side) {
      // tf.IfRegion lists the true branch first.
      Region &region =
          isa<tf::IfRegionOp>(regionOp) ? regions[1 - side] : regions[side];
      Block *block = new Block();
      region.push_back(block);
      OpBuilder rb = OpBuilder::atBlockEnd(block);
      IRMapping mapping;
      for (Operation *sw : cond.switches)
        mapping.map(Conditional::output(sw, side), Conditional::data(sw));
      if (failed(copySide(cond, side, mapping, rb)))
        return failure();
      SmallVector<Value> yielded;
      for (auto &inputs : cond.mergeInputs)
        yielded.push_back(mapping.lookupOrDefault(inputs[side]));
      tf::YieldOp::create(rb, loc, yielded);
    }

    // Merges read the island; the conditional's nodes go.
    for (auto [index, merge] : llvm::enumerate(cond.merges))
      merge.getOutput().replaceAllUsesWith(island.getOutputs()[index]);
    llvm::SetVector<Operation *> dead;
    for (auto &side : cond.sides)
      dead.insert(side.begin(), side.end());
    dead.insert(cond.merges.begin(), cond.merges.end());
    dead.insert(cond.switches.begin(), cond.switches.end());
    eraseNodes(dead.getArrayRef(), island.getControl());
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
