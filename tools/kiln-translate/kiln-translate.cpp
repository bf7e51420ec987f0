//===- kiln-translate.cpp - translations in and out of MLIR -----*- C++ -*-===//
//
// mlir-translate with Kiln's translations: every upstream translation
// (--mlir-to-llvmir, ...) plus the TensorFlow importers
// (--import-graphdef and TensorFlow's -graphdef-to-mlir alias) and the
// NPU-v1 command-stream translations (--npuhw-to-npub, --npub-to-npuhw).
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-translate/Translations.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  kiln::registerGraphDefTranslations();
  kiln::registerTFJSTranslations();
  kiln::registerNPUTranslations();
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv, "Kiln translation driver (mlir-translate with Kiln)\n"));
}
