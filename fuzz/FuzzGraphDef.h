//===- FuzzGraphDef.h - the GraphDef import harnesses' body -----*- C++ -*-===//
//
// Parse one input as a GraphDef in `format` ("pb" or "pbtxt") and import it
// with no feeds or fetches (the whole graph, as --import-graphdef does
// without options) into the tf_executor dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FUZZ_FUZZGRAPHDEF_H
#define KILN_FUZZ_FUZZGRAPHDEF_H

#include "fuzz/FuzzMLIR.h"
#include "translate/graphdef/ImportGraphDef.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/raw_ostream.h"

namespace kiln::fuzz {

/// Parses and imports one GraphDef; always returns 0 (libFuzzer's "keep
/// going"): a refused input is not a failure, a crash is.
inline int importGraphDefInput(const uint8_t *data, size_t size,
                               llvm::StringRef format) {
  llvm::raw_null_ostream errors;
  std::optional<tensorflow::GraphDef> graph =
      graphdef::parseGraphDef(asString(data, size), format, errors);
  if (!graph)
    return 0;
  static const mlir::DialectRegistry *registry = [] {
    auto *registry = new mlir::DialectRegistry;
    registerImportDialects(*registry);
    return registry;
  }();
  std::unique_ptr<mlir::MLIRContext> context = makeQuietContext(*registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      graphdef::importGraphDef(*graph, graphdef::GraphImportOptions(),
                               context.get());
  return 0;
}

} // namespace kiln::fuzz

#endif // KILN_FUZZ_FUZZGRAPHDEF_H
