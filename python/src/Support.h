//===- Support.h - contexts and diagnostics for the bindings ----*- C++ -*-===//
//
// Shared by Compiler.cpp and Services.cpp: an MLIRContext that knows every
// dialect Kiln reads, and a handler that collects diagnostics instead of
// printing them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PYTHON_SUPPORT_H
#define KILN_PYTHON_SUPPORT_H

#include "python/src/Compiler.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/ThreadPool.h"

#include <memory>

namespace kiln::python {

/// A context with Kiln's and upstream's dialects and the LLVM IR
/// translations registered; `threads` as in CompileOptions.
class Context {
public:
  explicit Context(unsigned threads = 0);
  ~Context();

  mlir::MLIRContext &get() { return *context; }

private:
  // Declared first so it outlives the context that uses it.
  std::unique_ptr<llvm::DefaultThreadPool> pool;
  std::unique_ptr<mlir::MLIRContext> context;
};

/// Collects every diagnostic of `context` while it lives.
class DiagnosticCollector {
public:
  DiagnosticCollector(mlir::MLIRContext &context,
                      std::vector<Diagnostic> &diagnostics);

  /// Adds an error of the driver itself (no location).
  void error(const std::string &message);

private:
  std::vector<Diagnostic> &diagnostics;
  mlir::ScopedDiagnosticHandler handler;
};

/// Imports a GraphDef or TF.js model, or parses MLIR (text in
/// `options.contents` or the file at `options.path`). Errors are reported
/// through `context`'s diagnostics or `collector`; null on failure.
mlir::OwningOpRef<mlir::ModuleOp> loadModel(const CompileOptions &options,
                                            mlir::MLIRContext &context,
                                            DiagnosticCollector &collector);

/// Parses MLIR text; null (diagnosed) on failure.
mlir::OwningOpRef<mlir::ModuleOp> parseModule(const std::string &text,
                                              mlir::MLIRContext &context);

/// `module` printed as MLIR text.
std::string printModule(mlir::ModuleOp module);

} // namespace kiln::python

#endif // KILN_PYTHON_SUPPORT_H
