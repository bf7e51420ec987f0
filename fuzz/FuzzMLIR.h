//===- FuzzMLIR.h - what the MLIR harnesses share ---------------*- C++ -*-===//
//
// A context per input, with diagnostics swallowed: a harness must not print
// on every input, and nothing of one input may outlive it (LeakSanitizer
// and libFuzzer's RSS limit would see interned attributes grow otherwise).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FUZZ_FUZZMLIR_H
#define KILN_FUZZ_FUZZMLIR_H

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <memory>

namespace kiln::fuzz {

/// A single-threaded context over `registry` whose diagnostics go nowhere.
inline std::unique_ptr<mlir::MLIRContext>
makeQuietContext(const mlir::DialectRegistry &registry) {
  auto context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  context->getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });
  // Errors are reported as diagnostics; do not also print them at the op.
  context->printOpOnDiagnostic(false);
  context->printStackTraceOnDiagnostic(false);
  return context;
}

/// The dialects the importers produce: func, tf_type, tf_executor and tf.
inline void registerImportDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::func::FuncDialect, tf_type::TFTypeDialect,
                  tf::TFDialect, tf_executor::TFExecutorDialect>();
}

/// The input as a StringRef.
inline llvm::StringRef asString(const uint8_t *data, size_t size) {
  return llvm::StringRef(reinterpret_cast<const char *>(data), size);
}

} // namespace kiln::fuzz

#endif // KILN_FUZZ_FUZZMLIR_H
