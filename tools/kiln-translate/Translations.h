//===- Translations.h - kiln-translate's registrations ----------*- C++ -*-===//
//
// Each group of translations registers itself through one function, called
// from kiln-translate's main before the command line is parsed.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_TRANSLATE_TRANSLATIONS_H
#define KILN_TOOLS_KILN_TRANSLATE_TRANSLATIONS_H

#include "mlir/Tools/mlir-translate/Translation.h"

namespace kiln {

/// Registers a translation to MLIR whose output keeps the imported nodes'
/// names: they are the operations' locations, so the module is printed with
/// them (as --mlir-print-debuginfo would) unless that option is given
/// explicitly. Without them, exporting the printed module would rename every
/// node after its op (`tf.Placeholder`, `tf.Const_3`).
void registerImportTranslation(
    llvm::StringRef name, llvm::StringRef description,
    const mlir::TranslateRawSourceMgrToMLIRFunction &import,
    const mlir::DialectRegistrationFunction &dialects);

/// Prints an imported module as the import translations do: with the
/// nodes' names (locations) unless --mlir-print-debuginfo is given.
void printImportedModule(mlir::Operation *op, llvm::raw_ostream &os);

/// --import-graphdef, -graphdef-to-mlir, -graphdef-to-splatted-mlir.
void registerGraphDefTranslations();
/// --import-tfjs (TF.js graph models).
void registerTFJSTranslations();
/// --import-saved-model and --import-meta-graph.
void registerSavedModelTranslations();
/// --npuhw-to-npub and --npub-to-npuhw (NPU-v1 command streams).
void registerNPUTranslations();

} // namespace kiln

#endif // KILN_TOOLS_KILN_TRANSLATE_TRANSLATIONS_H
