//===- MLIRText.cpp - fuzz the tf_type / tf_executor / tf parsers ---------===//
//
// Input: MLIR text. It is parsed (and verified, as the parser does) with the
// func, tf_type, tf_executor and tf dialects registered; a module that
// parses is printed again in both the custom and the generic form, which
// runs the dialects' printers over whatever the parsers accepted.
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzMLIR.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const mlir::DialectRegistry *registry = [] {
    auto *registry = new mlir::DialectRegistry;
    kiln::fuzz::registerImportDialects(*registry);
    return registry;
  }();
  std::unique_ptr<mlir::MLIRContext> context =
      kiln::fuzz::makeQuietContext(*registry);
  mlir::ParserConfig config(context.get());
  // MLIR's lexer reads the byte after the buffer, which must be a NUL, as
  // it is after a file read into a MemoryBuffer (the tools' case); the
  // fuzzer's input is not terminated, and a std::string is.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, config);
  if (!module)
    return 0;
  llvm::raw_null_ostream os;
  module->print(os);
  module->print(os, mlir::OpPrintingFlags().printGenericOpForm());
  return 0;
}
