//===- SavedModelTranslations.cpp - SavedModel and MetaGraph import -*- C++ -*-===//
//
// Registers --import-saved-model (a SavedModel directory, or its
// saved_model.pb) and --import-meta-graph (a .meta file with its
// checkpoint). --tags and --signature choose what is imported;
// --list-signatures prints what the model offers instead.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-translate/Translations.h"

#include "translate/savedmodel/ImportSavedModel.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

namespace {

llvm::cl::OptionCategory category("SavedModel and MetaGraph import options");

llvm::cl::opt<std::string>
    tags("tags",
         llvm::cl::desc("The MetaGraph's tag set, comma-separated (default: "
                        "serve)"),
         llvm::cl::init("serve"), llvm::cl::cat(category));
llvm::cl::opt<std::string>
    signature("signature",
              llvm::cl::desc("The SignatureDef to import (default: "
                             "serving_default)"),
              llvm::cl::init("serving_default"), llvm::cl::cat(category));
llvm::cl::opt<std::string> checkpoint(
    "checkpoint",
    llvm::cl::desc("Checkpoint prefix of the variables (default: "
                   "<dir>/variables/variables for a SavedModel, the .meta "
                   "file's path without .meta for a MetaGraph)"),
    llvm::cl::cat(category));
llvm::cl::opt<std::string> outputs(
    "outputs",
    llvm::cl::desc("A MetaGraph's fetched tensors, node or node:k, "
                   "comma-separated (default: its signature, else the nodes "
                   "no node reads)"),
    llvm::cl::cat(category));
llvm::cl::opt<bool> listSignatures(
    "list-signatures",
    llvm::cl::desc("Print the model's tag sets and signatures (inputs and "
                   "outputs with types and shapes) instead of importing"),
    llvm::cl::cat(category));

kiln::savedmodel::SavedModelImportOptions options() {
  kiln::savedmodel::SavedModelImportOptions result;
  result.tags = tags;
  result.signature = signature;
  result.checkpoint = checkpoint;
  result.outputs = outputs;
  return result;
}

void registerDialects(MLIRContext *context) {
  DialectRegistry registry;
  registry.insert<func::FuncDialect, kiln::tf::TFDialect,
                  kiln::tf_executor::TFExecutorDialect,
                  kiln::tf_type::TFTypeDialect>();
  context->appendDialectRegistry(registry);
}

/// Imports (or lists) the model of `sourceMgr`'s buffer, printing to `os`.
LogicalResult translate(llvm::SourceMgr &sourceMgr, llvm::raw_ostream &os,
                        MLIRContext *context, bool metaGraph) {
  registerDialects(context);
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::string path = buffer->getBufferIdentifier().str();
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  auto fail = [&]() {
    return LogicalResult(emitError(UnknownLoc::get(context))
                         << llvm::StringRef(errors).rtrim());
  };
  OwningOpRef<ModuleOp> module;
  if (metaGraph) {
    auto graph = kiln::savedmodel::parseMetaGraph(buffer->getBuffer(), path,
                                                  errorStream);
    if (!graph)
      return fail();
    if (listSignatures) {
      os << "MetaGraph '" << path << "':\n";
      kiln::savedmodel::printSignatures(*graph, os);
      return success();
    }
    module = kiln::savedmodel::importMetaGraph(*graph, path, options(),
                                               context);
  } else {
    // The directory is the file's (kiln-translate's main turns a directory
    // argument into its saved_model.pb).
    std::string dir = llvm::sys::path::parent_path(path).str();
    if (dir.empty())
      dir = ".";
    auto model = kiln::savedmodel::parseSavedModel(
        buffer->getBuffer(), llvm::StringRef(path).ends_with(".pbtxt"), path,
        errorStream);
    if (!model)
      return fail();
    if (listSignatures) {
      kiln::savedmodel::printSignatures(*model, os);
      return success();
    }
    module = kiln::savedmodel::importSavedModel(*model, dir, options(),
                                                context);
  }
  if (!module || failed(verify(*module)))
    return failure();
  kiln::printImportedModule(*module, os);
  return success();
}

} // namespace

void kiln::registerSavedModelTranslations() {
  TranslateRegistration savedModel(
      "import-saved-model",
      "Import a SavedModel directory's signature (--tags, --signature) as "
      "tf_executor MLIR, variables from its checkpoint",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         llvm::raw_ostream &os, MLIRContext *context) {
        return translate(*sourceMgr, os, context, /*metaGraph=*/false);
      });
  TranslateRegistration metaGraph(
      "import-meta-graph",
      "Import a MetaGraph (.meta) with its checkpoint (--checkpoint) as "
      "tf_executor MLIR",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         llvm::raw_ostream &os, MLIRContext *context) {
        return translate(*sourceMgr, os, context, /*metaGraph=*/true);
      });
}
