//===- NPUTranslations.cpp - npuhw <-> .npub translations -------*- C++ -*-===//
//
// Registers --npuhw-to-npub (the module's npuhw.stream as a .npub file)
// and --npub-to-npuhw (a .npub file as an npuhw.stream), both through
// target/npu and the runtime's container writer and reader.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-translate/Translations.h"

#include "target/npu/NPUTarget.h"

#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPUHW/IR/NPUHWDialect.h"

#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

void kiln::registerNPUTranslations() {
  TranslateFromMLIRRegistration exportRegistration(
      "npuhw-to-npub",
      "Write the module's npuhw.stream as an NPU-v1 .npub file",
      [](ModuleOp module, llvm::raw_ostream &os) {
        return kiln::npuhw::writeNpub(module, os);
      },
      [](DialectRegistry &registry) {
        registry.insert<kiln::npu::NPUDialect, kiln::npuhw::NPUHWDialect>();
      });
  TranslateToMLIRRegistration importRegistration(
      "npub-to-npuhw", "Read an NPU-v1 .npub file as an npuhw.stream",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        return OwningOpRef<Operation *>(
            kiln::npuhw::readNpub(buffer->getBuffer(), context).release());
      },
      [](DialectRegistry &registry) {
        registry.insert<kiln::npu::NPUDialect, kiln::npuhw::NPUHWDialect>();
      });
}
