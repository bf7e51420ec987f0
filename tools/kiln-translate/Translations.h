//===- Translations.h - kiln-translate's registrations ----------*- C++ -*-===//
//
// Each group of translations registers itself through one function, called
// from kiln-translate's main before the command line is parsed.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_TRANSLATE_TRANSLATIONS_H
#define KILN_TOOLS_KILN_TRANSLATE_TRANSLATIONS_H

namespace kiln {

/// --import-graphdef, -graphdef-to-mlir, -graphdef-to-splatted-mlir.
void registerGraphDefTranslations();
/// --import-tfjs (TF.js graph models).
void registerTFJSTranslations();
/// --npuhw-to-npub and --npub-to-npuhw (NPU-v1 command streams).
void registerNPUTranslations();

} // namespace kiln

#endif // KILN_TOOLS_KILN_TRANSLATE_TRANSLATIONS_H
