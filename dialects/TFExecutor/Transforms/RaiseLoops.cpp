//===- RaiseLoops.cpp - TF1 while loops to tf.WhileRegion -------*- C++ -*-===//
//
// tf-executor-raise-loops: each TF1 loop frame (Enter → Merge ← NextIteration,
// Merge → Switch(LoopCond) → Exit | body → NextIteration) becomes one island
// holding a tf.WhileRegion whose `cond` computes the LoopCond's input and
// whose `body` computes the NextIteration inputs. Frames are raised
// innermost first, so nested loops become nested regions. No maximum trip
// count is needed: the region loop runs until its condition is false.
//
//===----------------------------------------------------------------------===//

#include "dialects/TFExecutor/Transforms/Passes.h"

#include "dialects/TFExecutor/Transforms/GraphRewriting.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace kiln::tf_executor {
#define GEN_PASS_DEF_TFEXECUTORRAISELOOPSPASS
#include "dialects/TFExecutor/Transforms/Passes.h.inc"
} // namespace kiln::tf_executor

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_executor;

namespace {

/// One loop value: initialised by an Enter, carried by a Merge, tested by a
/// Switch, updated through a NextIteration, and possibly leaving by an Exit.
struct LoopValue {
  EnterOp enter;
  MergeOp merge;
  NextIterationSourceOp source;
  NextIterationSinkOp sink;
  SwitchOp switchOp;
  ExitOp exit; // may be null
};

/// A loop frame as found in the graph.
struct Frame {
  StringRef name;
  SmallVector<EnterOp> enters;
  SmallVector<LoopValue> values;
  SmallVector<EnterOp> invariants; // `constant` Enters
  LoopCondOp loopCond;
  /// Every node of the frame (what the raised loop replaces).
  llvm::SetVector<Operation *> nodes;
};

class LoopRaiser {
public:
  explicit LoopRaiser(GraphOp graph) : graph(graph) {}

  /// Raises every frame of the graph, innermost first.
  LogicalResult run() {
    while (true) {
      llvm::MapVector<StringRef, SmallVector<EnterOp>> frames;
      for (auto enter : graph.getBlock().getOps<EnterOp>())
        frames[enter.getFrameName()].push_back(enter);
      if (frames.empty())
        return success();
      bool raised = false;
      for (auto &[name, enters] : frames) {
        Frame frame;
        frame.name = name;
        frame.enters = enters;
        if (failed(analyse(frame)))
          return failure();
        // Innermost first: skip frames holding another frame's Enter.
        if (llvm::any_of(frame.nodes, [&](Operation *op) {
              auto enter = dyn_cast<EnterOp>(op);
              return enter && enter.getFrameName() != name;
            }))
          continue;
        if (failed(raise(frame)))
          return failure();
        // The island stands where the LoopCond stood; a value the loop
        // takes in may be defined further down the graph (TF1 gradients
        // make the backward loop's counter before the gradients it enters),
        // so the graph is put back in dependency order.
        sortTopologically(&graph.getBlock(),
                          graph.getBlock().without_terminator());
        raised = true;
        break;
      }
      if (!raised)
        return graph.emitError("loop frames nest in a cycle; cannot raise");
    }
  }

private:
  /// Finds the loop structure of `frame` and its nodes.
  LogicalResult analyse(Frame &frame) {
    for (EnterOp enter : frame.enters) {
      if (enter.getIsConstant()) {
        frame.invariants.push_back(enter);
        continue;
      }
      LoopValue value;
      value.enter = enter;
      for (Operation *user : enter.getOutput().getUsers()) {
        if (auto merge = dyn_cast<MergeOp>(user)) {
          if (value.merge)
            return enter.emitError("loop value of frame '")
                   << frame.name << "' enters more than one Merge";
          value.merge = merge;
        }
      }
      if (!value.merge)
        return enter.emitError("Enter of frame '")
               << frame.name
               << "' feeds no Merge: only `constant` Enters may bypass the "
                  "loop's Merge";
      OperandRange inputs = value.merge.getDataInputs();
      if (inputs.size() != 2)
        return value.merge.emitError("loop Merge of frame '")
               << frame.name << "' has " << inputs.size()
               << " data inputs, expected the Enter and a NextIteration";
      for (Value input : inputs)
        if (auto source = input.getDefiningOp<NextIterationSourceOp>())
          value.source = source;
      if (!value.source)
        return value.merge.emitError("loop Merge of frame '")
               << frame.name << "' has no NextIteration input";
      value.sink = value.source.getSink();
      for (Operation *user : value.merge.getOutput().getUsers())
        if (auto sw = dyn_cast<SwitchOp>(user);
            sw && sw.getData() == value.merge.getOutput())
          value.switchOp = sw;
      if (!value.switchOp)
        return value.merge.emitError("loop Merge of frame '")
               << frame.name
               << "' feeds no Switch: the loop has no LoopCond to end it";
      auto loopCond = value.switchOp.getPredicate().getDefiningOp<LoopCondOp>();
      if (!loopCond)
        return value.switchOp.emitError("loop Switch of frame '")
               << frame.name << "' is not controlled by a LoopCond";
      if (frame.loopCond && frame.loopCond != loopCond)
        return loopCond.emitError("frame '")
               << frame.name << "' has more than one LoopCond";
      frame.loopCond = loopCond;
      for (Operation *user : value.switchOp.getFalseOutput().getUsers())
        if (auto exit = dyn_cast<ExitOp>(user))
          value.exit = exit;
      frame.values.push_back(value);
    }
    if (frame.values.empty())
      return frame.enters.front().emitError("frame '")
             << frame.name << "' has no loop values";

    // The frame's nodes: everything reachable from its Enters, Merges and
    // NextIteration sources, stopping at its Exits.
    SmallVector<Operation *> work;
    for (EnterOp enter : frame.enters)
      work.push_back(enter);
    for (LoopValue &value : frame.values)
      work.push_back(value.source);
    while (!work.empty()) {
      Operation *op = work.pop_back_val();
      if (!frame.nodes.insert(op))
        continue;
      if (auto exit = dyn_cast<ExitOp>(op))
        if (llvm::any_of(frame.values,
                         [&](LoopValue &v) { return v.exit == exit; }))
          continue; // leaves the frame
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers())
          if (user->getParentOp() == graph)
            work.push_back(user);
          else if (Operation *ancestor =
                       graph.getBlock().findAncestorOpInBlock(*user))
            work.push_back(ancestor);
      if (auto source = dyn_cast<NextIterationSourceOp>(op))
        if (NextIterationSinkOp sink = source.getSink())
          work.push_back(sink);
    }
    return success();
  }

  /// Copies into `block` the computation of `roots` from the frame's nodes:
  /// islands are copied op by op (in graph order), loop values come from
  /// `mapping`, invariants from outside the loop.
  LogicalResult copyComputation(Frame &frame, ArrayRef<Value> roots,
                                IRMapping &mapping, OpBuilder &b) {
    // The islands needed, backwards from the roots.
    llvm::SetVector<Operation *> needed;
    SmallVector<Value> work(roots.begin(), roots.end());
    while (!work.empty()) {
      Value v = work.pop_back_val();
      if (mapping.contains(v))
        continue;
      Operation *def = v.getDefiningOp();
      if (!def || !frame.nodes.contains(def))
        continue; // defined outside the frame: used as is
      if (isa<ControlType>(v.getType()) && !isa<IslandOp>(def))
        continue; // a control edge from the loop's own structure
      if (auto island = dyn_cast<IslandOp>(def)) {
        if (!needed.insert(island))
          continue;
        // The island's own operands are control edges: within a region,
        // order alone keeps them, but an island of the frame that runs only
        // for its effects and is reached only by such an edge (TF1 gradients
        // push the forward loop's values on stacks so) must be copied too.
        for (Value control : island->getOperands())
          if (isa_and_nonnull<IslandOp>(control.getDefiningOp()))
            work.push_back(control);
        island.getBody().walk([&](Operation *inner) {
          for (Value operand : inner->getOperands())
            if (!island.getBody().isAncestor(operand.getParentRegion()))
              work.push_back(operand);
        });
        continue;
      }
      return def->emitError("node of loop frame '")
             << frame.name << "' is needed inside the loop but is a '"
             << def->getName() << "', which a region loop cannot hold";
    }
    // In graph order, which is a topological order.
    for (Operation &op : graph.getBlock()) {
      auto island = dyn_cast<IslandOp>(op);
      if (island && needed.contains(island))
        cloneIslandBody(island, mapping, b);
    }
    return success();
  }

  LogicalResult raise(Frame &frame) {
    // Nothing outside the frame may use its values but through an Exit.
    for (Operation *op : frame.nodes) {
      if (isa<ExitOp>(op))
        continue;
      for (Operation *user : op->getUsers()) {
        Operation *ancestor = graph.getBlock().findAncestorOpInBlock(*user);
        if (ancestor && !frame.nodes.contains(ancestor) &&
            !isa<FetchOp>(ancestor))
          return op->emitError("value of loop frame '")
                 << frame.name << "' is used outside the loop by '"
                 << ancestor->getName() << "' without an Exit";
        if (isa_and_nonnull<FetchOp>(ancestor) &&
            llvm::any_of(op->getResults(), [&](Value v) {
              return !isa<ControlType>(v.getType()) &&
                     llvm::is_contained(user->getOperands(), v);
            }))
          return op->emitError("value of loop frame '")
                 << frame.name << "' is fetched without an Exit";
      }
    }

    MLIRContext *ctx = graph.getContext();
    Location loc = frame.loopCond.getLoc();
    OpBuilder b(frame.loopCond);
    SmallVector<Value> inits;
    SmallVector<Type> loopTypes;
    for (LoopValue &value : frame.values) {
      inits.push_back(value.enter.getData());
      loopTypes.push_back(value.merge.getOutput().getType());
    }

    // The island holding the loop, with its results as the Exits' values.
    OpBuilder ib(ctx);
    IslandOp island = createIsland(b, loc, loopTypes, ib);
    int64_t parallel = frame.values.front().enter.getParallelIterations();
    auto loop = tf::WhileRegionOp::create(ib, loc, loopTypes, inits, parallel,
                                          /*is_stateless=*/false);
    YieldOp::create(ib, loc, loop.getResults());

    // Invariants are the values entering the frame.
    IRMapping invariants;
    for (EnterOp enter : frame.invariants)
      invariants.map(enter.getOutput(), enter.getData());

    // cond: the LoopCond's input, from the merged loop values.
    {
      Block *block = new Block();
      loop.getCond().push_back(block);
      IRMapping mapping = invariants;
      for (auto [value, type] : llvm::zip(frame.values, loopTypes))
        mapping.map(value.merge.getOutput(), block->addArgument(type, loc));
      OpBuilder cb = OpBuilder::atBlockEnd(block);
      Value predicate = frame.loopCond.getInput();
      if (failed(copyComputation(frame, predicate, mapping, cb)))
        return failure();
      tf::YieldOp::create(cb, loc, mapping.lookupOrDefault(predicate));
    }
    // body: the NextIteration inputs, from the Switches' true outputs.
    {
      Block *block = new Block();
      loop.getBody().push_back(block);
      IRMapping mapping = invariants;
      for (auto [value, type] : llvm::zip(frame.values, loopTypes)) {
        BlockArgument arg = block->addArgument(type, loc);
        mapping.map(value.switchOp.getTrueOutput(), arg);
        mapping.map(value.merge.getOutput(), arg);
      }
      OpBuilder bb = OpBuilder::atBlockEnd(block);
      SmallVector<Value> next;
      for (LoopValue &value : frame.values) {
        if (!value.sink)
          return value.source.emitError("NextIteration of frame '")
                 << frame.name << "' has no sink";
        next.push_back(value.sink.getInput());
      }
      // Islands that a NextIteration waits for run in the body too.
      SmallVector<Value> roots(next);
      for (LoopValue &value : frame.values)
        llvm::append_range(roots, value.sink.getControlInputs());
      if (failed(copyComputation(frame, roots, mapping, bb)))
        return failure();
      SmallVector<Value> yielded;
      for (Value v : next)
        yielded.push_back(mapping.lookupOrDefault(v));
      tf::YieldOp::create(bb, loc, yielded);
    }

    // Exits read the loop's results; then the frame goes.
    for (auto [index, value] : llvm::enumerate(frame.values))
      if (value.exit)
        value.exit.getOutput().replaceAllUsesWith(island.getOutputs()[index]);
    eraseNodes(frame.nodes.getArrayRef(), island.getControl());
    return success();
  }

  GraphOp graph;
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TFExecutorRaiseLoopsPass final
    : kiln::tf_executor::impl::TFExecutorRaiseLoopsPassBase<
          TFExecutorRaiseLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<GraphOp> graphs;
    getOperation().walk([&](GraphOp graph) { graphs.push_back(graph); });
    for (GraphOp graph : graphs)
      if (failed(LoopRaiser(graph).run()))
        return signalPassFailure();
  }
};

} // namespace
