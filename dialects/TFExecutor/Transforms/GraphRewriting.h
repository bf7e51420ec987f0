//===- GraphRewriting.h - helpers for rewriting executor graphs -*- C++ -*-===//
//
// What the passes that replace groups of graph nodes by one island share.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFEXECUTOR_TRANSFORMS_GRAPHREWRITING_H
#define KILN_DIALECTS_TFEXECUTOR_TRANSFORMS_GRAPHREWRITING_H

#include "dialects/TFExecutor/IR/TFExecutor.h"

#include "mlir/IR/IRMapping.h"

namespace kiln::tf_executor {

/// Creates at `builder`'s insertion point an island with data results
/// `types` and an empty body; returns it, with `bodyBuilder` set to the end
/// of its body (the caller adds the ops and the yield).
IslandOp createIsland(mlir::OpBuilder &builder, mlir::Location loc,
                      mlir::TypeRange types, mlir::OpBuilder &bodyBuilder);

/// Clones the operations of `island` (not its yield) at `builder`, and maps
/// the island's data results to the clones of what it yields.
void cloneIslandBody(IslandOp island, mlir::IRMapping &mapping,
                     mlir::OpBuilder &builder);

/// Erases the graph nodes `nodes`. Their control results, where anything
/// outside `nodes` still uses them, are replaced by `control` (which must
/// then be set); their data results must have no users outside `nodes`.
void eraseNodes(llvm::ArrayRef<mlir::Operation *> nodes, mlir::Value control);

} // namespace kiln::tf_executor

#endif // KILN_DIALECTS_TFEXECUTOR_TRANSFORMS_GRAPHREWRITING_H
