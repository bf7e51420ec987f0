//===- Entries.h - kiln-compile: several entries in one object --*- C++ -*-===//
//
// --entries=init,step: several signatures of one model (a stateful model's
// init and step) compiled into one object that holds the model's variables
// once. Each signature is imported as its own module; the modules are merged
// with each signature's function named after it; kiln-cpu-entry-abi gives
// entry `e` the symbol `<symbol>_<e>`, and the header has one C API and one
// class per entry after a comment that says how they share the state.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_COMPILE_ENTRIES_H
#define KILN_TOOLS_KILN_COMPILE_ENTRIES_H

#include "target/cpu/Header.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>
#include <vector>

namespace kiln::compile {

/// Why `name` cannot be an entry (it must be a C identifier, since it
/// becomes part of the entry's symbols), or an empty string.
std::string checkEntryName(llvm::StringRef name);

/// Merges `modules`, one per entry, each holding the entry's function
/// `@main` and its library, into one module: entry `e`'s `@main` becomes
/// `@e` and its other symbols `@e__<name>`, so libraries imported for
/// different entries do not clash. The first module's attributes are kept.
mlir::OwningOpRef<mlir::ModuleOp> mergeEntryModules(
    mlir::MLIRContext *context,
    llvm::MutableArrayRef<
        std::pair<std::string, mlir::OwningOpRef<mlir::ModuleOp>>>
        modules);

/// One entry as the header describes it.
struct EntrySignature {
  /// The entry's name (the signature key or function name).
  std::string name;
  /// Its feeds, fetches, run-time checks and arena; the variables are the
  /// model's, the same for every entry.
  cpu::ModelSignature signature;
};

/// Writes the header of an object with several entries: a comment listing
/// the entries and the shared variables, then for entry `e` the header
/// writeHeader writes with symbol `<options.symbol>_e` and class
/// `<options.cppClass>_e`.
llvm::Error writeEntriesHeader(llvm::ArrayRef<EntrySignature> entries,
                               const cpu::HeaderOptions &options,
                               llvm::raw_ostream &os);

} // namespace kiln::compile

#endif // KILN_TOOLS_KILN_COMPILE_ENTRIES_H
