//===- kiln-opt.cpp - mlir-opt with Kiln registered -------------*- C++ -*-===//
//
// Every upstream dialect, extension and pass, plus Kiln's dialects, passes and
// pipelines, behind MlirOptMain (so --pass-pipeline, -split-input-file,
// -verify-diagnostics, reproducers and --mlir-timing all work as in mlir-opt).
//
//===----------------------------------------------------------------------===//

#include "passes/InitKiln.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  kiln::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Kiln optimizer driver (mlir-opt with Kiln registered)\n",
      registry));
}
