//===- kiln-translate.cpp - translations in and out of MLIR -----*- C++ -*-===//
//
// mlir-translate with Kiln's translations: every upstream translation
// (--mlir-to-llvmir, ...) plus the TensorFlow importers
// (--import-graphdef and TensorFlow's -graphdef-to-mlir alias) and the
// NPU-v1 command-stream translations (--npuhw-to-npub, --npub-to-npuhw).
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-translate/Translations.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/CommandLine.h"
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
        mlir::OpPrintingFlags flags;
        const auto &options = llvm::cl::getRegisteredOptions();
        auto debugInfo = options.find("mlir-print-debuginfo");
        if (debugInfo == options.end() ||
            debugInfo->second->getNumOccurrences() == 0)
          flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
        op->print(os, flags);
        return mlir::success();
      });
}

int main(int argc, char **argv) {
  mlir::registerAllTranslations();
  kiln::registerGraphDefTranslations();
  kiln::registerTFJSTranslations();
  kiln::registerNPUTranslations();
  return mlir::failed(mlir::mlirTranslateMain(
      argc, argv, "Kiln translation driver (mlir-translate with Kiln)\n"));
}
