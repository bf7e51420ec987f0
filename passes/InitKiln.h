//===- InitKiln.h - register Kiln with MLIR ---------------------*- C++ -*-===//
//
// The registration points every Kiln tool calls. Each new dialect, pass
// group and pipeline is added here once, and kiln-opt, kiln-translate,
// kiln-compile and the unit tests all see it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_INITKILN_H
#define KILN_PASSES_INITKILN_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace kiln {

/// Adds Kiln's own dialects (and their interface extensions) to `registry`.
void registerKilnDialects(mlir::DialectRegistry &registry);

/// Registers Kiln's passes (every pass group) with the global registry.
void registerKilnPasses();

/// Registers Kiln's named pipelines with the global registry.
void registerKilnPipelines();

/// Adds every upstream dialect and extension and all of Kiln's dialects:
/// what kiln-opt can parse.
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers every upstream pass plus Kiln's passes and pipelines.
void registerAllPasses();

} // namespace kiln

#endif // KILN_PASSES_INITKILN_H
