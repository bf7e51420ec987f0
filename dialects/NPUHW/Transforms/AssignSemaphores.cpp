//===- AssignSemaphores.cpp - Tokens to semaphore waits and signals -------===//
//
// npuhw-assign-semaphores: maps the stream's commands to the dialect-free
// graph of dialects/NPUHW/Analysis/StreamSync.h, runs the assignment there
// and writes the result back as `wait0`/`wait1`/`signal0`/`signal1` fields,
// inserted `npuhw.nop` fences, and dependencies reduced to the producers the
// waits pair with.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Analysis/StreamSync.h"
#include "dialects/NPUHW/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace kiln::npuhw {
#define GEN_PASS_DEF_NPUHWASSIGNSEMAPHORESPASS
#include "dialects/NPUHW/Transforms/Passes.h.inc"
} // namespace kiln::npuhw

using namespace mlir;
using namespace kiln::npuhw;

namespace {

/// The semaphore fields, by the runtime field table's names.
constexpr llvm::StringLiteral kWaitNames[] = {"wait0", "wait1"};
constexpr llvm::StringLiteral kSignalNames[] = {"signal0", "signal1"};

struct NPUHWAssignSemaphoresPass final
    : kiln::npuhw::impl::NPUHWAssignSemaphoresPassBase<
          NPUHWAssignSemaphoresPass> {
  using Base::Base;
  void runOnOperation() override;
};

} // namespace

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

void NPUHWAssignSemaphoresPass::runOnOperation() {
  StreamOp stream = getOperation();
  std::vector<CommandOpInterface> ops;
  llvm::DenseMap<Operation *, unsigned> index;
  for (Operation &op : stream.getBody().front())
    if (auto command = dyn_cast<CommandOpInterface>(&op)) {
      index[&op] = ops.size();
      ops.push_back(command);
    }

  std::vector<SyncCommand> graph(ops.size());
  for (unsigned i = 0; i < ops.size(); ++i) {
    Operation *op = ops[i];
    graph[i].engine = ops[i].getEngine();
    for (llvm::StringLiteral name :
         {kWaitNames[0], kWaitNames[1], kSignalNames[0], kSignalNames[1]})
      if (op->getAttr(name)) {
        op->emitOpError("already has '")
            << name << "': npuhw-assign-semaphores expects a stream whose "
            << "dependencies are tokens only";
        return signalPassFailure();
      }
    for (Value dep : ops[i].getDeps()) {
      Operation *def = dep.getDefiningOp();
      auto it = def ? index.find(def) : index.end();
      if (it == index.end()) {
        op->emitOpError("depends on ")
            << dep << ", which is not the token of a command of this stream";
        return signalPassFailure();
      }
      graph[i].deps.push_back(it->second);
    }
  }

  unsigned semaphores = stream.getTargetConfig().semaphores;
  SyncAssignment result = assignSemaphores(graph, semaphores);
  switch (result.error) {
  case SyncAssignment::Error::None:
    break;
  case SyncAssignment::Error::ForwardDependency: {
    Operation *later = ops[result.errorDep];
    ops[result.errorCommand]->emitOpError("depends on command ")
        << result.errorDep << " ('" << later->getName()
        << "'), which comes later in the stream: the stream is not in "
           "dependency order";
    return signalPassFailure();
  }
  case SyncAssignment::Error::TooManySemaphores:
    stream.emitOpError("needs ")
        << result.semaphoresNeeded
        << " semaphores (one per engine that signals) but the target has "
        << semaphores;
    return signalPassFailure();
  }

  MLIRContext *ctx = &getContext();
  auto i64 = [&](unsigned v) {
    return IntegerAttr::get(IntegerType::get(ctx, 64), v);
  };
  OpBuilder builder(ctx);
  for (unsigned c : result.fencesBefore) {
    builder.setInsertionPoint(ops[c]);
    NopOp::create(builder, ops[c]->getLoc(),
                  TypeRange{TokenType::get(ctx)}, ValueRange());
  }
  for (unsigned i = 0; i < ops.size(); ++i) {
    Operation *op = ops[i];
    const SyncIds &ids = result.commands[i];
    for (size_t k = 0; k < ids.waits.size(); ++k)
      op->setAttr(kWaitNames[k], i64(ids.waits[k]));
    for (size_t k = 0; k < ids.signals.size(); ++k)
      op->setAttr(kSignalNames[k], i64(ids.signals[k]));
    llvm::SmallVector<Value, 2> deps;
    for (unsigned producer : ids.producers)
      deps.push_back(ops[producer].getCommandToken());
    ops[i].getDepsMutable().assign(deps);
  }
  numWaits += result.waitsRealised;
  numPromoted += result.waitsPromoted;
  numFences += result.fencesBefore.size();
}
