//===- TFJSTranslations.cpp - TF.js graph model translations ----*- C++ -*-===//
//
// Registers --import-tfjs: a TF.js graph model's model.json, with its weight
// shards next to it, to tf_executor MLIR. Inputs and outputs come from the
// model's signature; -tfjs-input-shapes refines the inputs' shapes.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-translate/Translations.h"

#include "translate/tfjs/ImportTFJS.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace {

llvm::cl::OptionCategory category("TF.js import options");

llvm::cl::opt<std::string> inputShapes(
    "tfjs-input-shapes",
    llvm::cl::desc("The inputs' shapes in signature order, ':'-separated: "
                   "1,256,256,3 (? unknown size, * unknown rank, empty "
                   "scalar); they must agree with the model's"),
    llvm::cl::cat(category));

OwningOpRef<Operation *> importTFJS(llvm::SourceMgr &sourceMgr,
                                    MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  // Shards are found next to model.json (the working directory for stdin).
  std::string path = buffer->getBufferIdentifier().str();
  std::string dir = path == "<stdin>"
                        ? std::string()
                        : llvm::sys::path::parent_path(path).str();
  std::string errors;
  llvm::raw_string_ostream os(errors);
  std::unique_ptr<kiln::tfjs::Model> model =
      kiln::tfjs::parseModelJson(buffer->getBuffer(), os);
  if (!model) {
    emitError(UnknownLoc::get(context))
        << path << ": " << llvm::StringRef(errors).rtrim();
    return nullptr;
  }
  // The driver would keep its copy of the JSON text (28 MB for MAXIM) to the
  // end; release it now. No diagnostic of the import points into it.
  sourceMgr = llvm::SourceMgr();
  kiln::tfjs::TFJSImportOptions options;
  options.inputShapes = inputShapes;
  return kiln::tfjs::importTFJSModel(std::move(model), dir, options, context);
}

} // namespace

void kiln::registerTFJSTranslations() {
  kiln::registerImportTranslation(
      "import-tfjs",
      "Import a TF.js graph model (model.json and its weight shards) as "
      "tf_executor MLIR",
      importTFJS, [](DialectRegistry &registry) {
        registry.insert<func::FuncDialect, kiln::tf::TFDialect,
                        kiln::tf_executor::TFExecutorDialect,
                        kiln::tf_type::TFTypeDialect>();
      });
}
