//===- ExportGraphDef.h - tf_executor MLIR to GraphDef ----------*- C++ -*-===//
//
// The inverse of ImportGraphDef.h: `@main`'s tf_executor.graph becomes the
// GraphDef's nodes (one node per island or TF1 control-flow op, named by its
// location), the other functions the function library, and `tf.versions`
// the VersionDef, so that import → export → import gives the same MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_GRAPHDEF_EXPORTGRAPHDEF_H
#define KILN_TRANSLATE_GRAPHDEF_EXPORTGRAPHDEF_H

#include "translate/proto/graph.pb.h"

#include "mlir/IR/BuiltinOps.h"

namespace kiln::graphdef {

/// How `@main` is written.
struct GraphExportOptions {
  /// Write `@main`'s arguments as `_Arg` nodes and its results as `_Retval`
  /// nodes (the inverse of importing with -tf-graph-as-function) instead of
  /// Placeholder nodes and no results.
  bool graphAsFunction = false;
  /// Write `@main` into the function library instead of as the graph's
  /// nodes (TensorFlow's -tf-export-entry-func-to-flib).
  bool entryFunctionToLibrary = false;
};

/// Exports `module`, which must hold a `func.func @main` (and any number of
/// other functions) whose bodies are a tf_executor.graph of islands wrapping
/// one operation each and TF1 control-flow ops. Errors are emitted as
/// diagnostics at the operation at fault.
mlir::LogicalResult exportGraphDef(mlir::ModuleOp module,
                                   tensorflow::GraphDef &out,
                                   const GraphExportOptions &options = {});

} // namespace kiln::graphdef

#endif // KILN_TRANSLATE_GRAPHDEF_EXPORTGRAPHDEF_H
