//===- GraphRewriting.cpp - helpers for rewriting executor graphs *- C++
//-*-===//
//
// Island creation, island copying and node erasure for the raising passes.
//
//===----------------------------------------------------------------------===//

#include "dialects/TFExecutor/Transforms/GraphRewriting.h"

using namespace mlir;
using namespace kiln::tf_executor;

IslandOp kiln::tf_executor::createIsland(OpBuilder &builder, Location loc,
                                         TypeRange types,
                                         OpBuilder &bodyBuilder) {
  OperationState state(loc, IslandOp::getOperationName());
  state.addTypes(types);
  state.addTypes(ControlType::get(builder.getContext()));
  Region *region = state.addRegion();
  auto *block = new Block();
  region->push_back(block);
  auto island = cast<IslandOp>(builder.create(state));
  bodyBuilder.setInsertionPointToEnd(block);
  return island;
}

void kiln::tf_executor::cloneIslandBody(IslandOp island, IRMapping &mapping,
                                        OpBuilder &builder) {
  for (Operation &inner : island.getBlock().without_terminator())
    builder.clone(inner, mapping);
  for (auto [result, value] :
       llvm::zip(island.getOutputs(), island.getYield().getFetches()))
    mapping.map(result, mapping.lookupOrDefault(value));
}

void kiln::tf_executor::eraseNodes(ArrayRef<Operation *> nodes, Value control) {
  if (control)
    for (Operation *node : nodes)
      for (Value result : node->getResults())
        if (isa<ControlType>(result.getType()))
          result.replaceAllUsesWith(control);
  // Uses among the nodes themselves go first, then the nodes.
  for (Operation *node : nodes)
    node->dropAllUses();
  for (Operation *node : nodes)
    node->dropAllReferences();
  for (Operation *node : nodes)
    node->erase();
}
