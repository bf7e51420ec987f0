//===- kiln-translate.cpp - translations in and out of MLIR -----*- C++ -*-===//
//
// mlir-translate with Kiln's dialects and translations registered: every
// upstream translation (--mlir-to-llvmir, ...) plus Kiln's importers and
// exporters as they are added.
//
//===----------------------------------------------------------------------===//

#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv, "Kiln translation driver (mlir-translate with Kiln)\n"));
}
