//===- kiln-translate.cpp - translations in and out of MLIR -----*- C++ -*-===//
//
// mlir-translate with Kiln's translations: every upstream translation
// (--mlir-to-llvmir, ...) plus the TensorFlow importers
// (--import-graphdef and TensorFlow's -graphdef-to-mlir alias, --import-tfjs,
// --import-saved-model, --import-meta-graph) and the
// NPU-v1 command-stream translations (--npuhw-to-npub, --npub-to-npuhw).
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-translate/Translations.h"

#include "translate/savedmodel/ImportSavedModel.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"

void kiln::registerImportTranslation(
    llvm::StringRef name, llvm::StringRef description,
    const mlir::TranslateRawSourceMgrToMLIRFunction &import,
    const mlir::DialectRegistrationFunction &dialects) {
  mlir::TranslateRegistration registration(
      name, description,
      [import, dialects](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                         llvm::raw_ostream &os, mlir::MLIRContext *context) {
        mlir::DialectRegistry registry;
        dialects(registry);
        context->appendDialectRegistry(registry);
        mlir::OwningOpRef<mlir::Operation *> op = import(*sourceMgr, context);
        if (!op || mlir::failed(mlir::verify(*op)))
          return mlir::failure();
        printImportedModule(*op, os);
        return mlir::success();
      });
}

void kiln::printImportedModule(mlir::Operation *op, llvm::raw_ostream &os) {
  mlir::OpPrintingFlags flags;
  const auto &options = llvm::cl::getRegisteredOptions();
  auto debugInfo = options.find("mlir-print-debuginfo");
  if (debugInfo == options.end() ||
      debugInfo->second->getNumOccurrences() == 0)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  op->print(os, flags);
}

/// --import-saved-model reads a SavedModel directory, but mlir-translate
/// reads its input as a file: a directory argument becomes its
/// saved_model.pb (or .pbtxt). Fails, with the reason printed, when the
/// directory has neither.
static bool replaceSavedModelDirectory(int argc, char **argv,
                                       std::vector<std::string> &storage) {
  bool savedModel = false;
  for (int i = 1; i < argc; ++i)
    savedModel |= llvm::StringRef(argv[i]).ends_with("-import-saved-model");
  if (!savedModel)
    return true;
  storage.reserve(argc);
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    llvm::StringRef previous = argv[i - 1];
    // The value of a preceding option ("--tags serve") is not the model.
    bool optionValue = false;
    if (previous.starts_with("-") && !previous.contains('=')) {
      auto option =
          llvm::cl::getRegisteredOptions().find(previous.ltrim('-'));
      optionValue = option != llvm::cl::getRegisteredOptions().end() &&
                    option->second->getValueExpectedFlag() ==
                        llvm::cl::ValueRequired;
    }
    if (arg.starts_with("-") || previous == "-o" ||
        (!llvm::sys::fs::is_directory(arg) &&
         (optionValue || llvm::sys::fs::exists(arg))))
      continue;
    std::string errors;
    llvm::raw_string_ostream os(errors);
    std::optional<std::string> file =
        kiln::savedmodel::findSavedModelFile(arg, os);
    if (!file) {
      llvm::errs() << "kiln-translate: " << errors;
      return false;
    }
    storage.push_back(*file);
    argv[i] = storage.back().data();
  }
  return true;
}

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  kiln::registerGraphDefTranslations();
  kiln::registerTFJSTranslations();
  kiln::registerSavedModelTranslations();
  kiln::registerNPUTranslations();
  std::vector<std::string> savedModelFiles;
  if (!replaceSavedModelDirectory(argc, argv, savedModelFiles))
    return 1;
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv, "Kiln translation driver (mlir-translate with Kiln)\n"));
}
