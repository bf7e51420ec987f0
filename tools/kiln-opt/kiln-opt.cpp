//===- kiln-opt.cpp - mlir-opt with Kiln registered -------------*- C++ -*-===//
//
// Every upstream dialect, extension and pass, plus Kiln's dialects, passes and
// pipelines, behind MlirOptMain (so --pass-pipeline, -split-input-file,
// -verify-diagnostics, reproducers and --mlir-timing all work as in mlir-opt).
// When a file fails to parse because it uses TensorFlow's pre-2022 MLIR
// syntax, a note says so.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFLegacySyntax.h"
#include "passes/InitKiln.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

/// Explains a failure caused by pre-2022 TensorFlow MLIR syntax, if that is
/// what `inputFilename` contains.
static void explainLegacySyntax(llvm::StringRef inputFilename) {
  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (!buffer)
    return;
  std::optional<kiln::tf::LegacySyntaxFinding> finding =
      kiln::tf::findLegacyTFSyntax((*buffer)->getBuffer());
  if (!finding)
    return;
  llvm::WithColor::note(llvm::errs(), "kiln-opt")
      << inputFilename << ":" << finding->line
      << ": this file uses TensorFlow's MLIR syntax from before 2022: '"
      << finding->found << "' is now written " << finding->replacement
      << ". kiln-opt reads current MLIR only; see docs/tf-dialects.md "
         "(\"Pre-2022 syntax\").\n";
}

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  kiln::registerAllPasses();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "Kiln optimizer driver (mlir-opt with Kiln registered)\n",
      registry);
  if (mlir::failed(mlir::MlirOptMain(argc, argv, inputFilename, outputFilename,
                                     registry))) {
    if (inputFilename != "-")
      explainLegacySyntax(inputFilename);
    return EXIT_FAILURE;
  }
  return EXIT_SUCCESS;
}
