//===- Services.cpp - contexts, loading, translate and run_pipeline -------===//
//
// The pieces of the bindings that are not about running a model: the
// context, diagnostic collection, model loading (shared with compile()),
// and the text-to-text services kiln.translate and kiln.run_pipeline.
//
//===----------------------------------------------------------------------===//

#include "python/src/Support.h"

#include "passes/InitKiln.h"
#include "translate/graphdef/ExportGraphDef.h"
#include "translate/graphdef/ImportGraphDef.h"
#include "translate/savedmodel/ImportSavedModel.h"
#include "translate/tfjs/ImportTFJS.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <google/protobuf/text_format.h>

#include <mutex>

using namespace mlir;

namespace kiln::python {

//===----------------------------------------------------------------------===//
// Context and diagnostics
//===----------------------------------------------------------------------===//

Context::Context(unsigned threads) {
  DialectRegistry registry;
  kiln::registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  context = std::make_unique<MLIRContext>(registry,
                                          MLIRContext::Threading::DISABLED);
  if (threads != 1) {
    pool = std::make_unique<llvm::DefaultThreadPool>(
        llvm::hardware_concurrency(threads));
    context->setThreadPool(*pool);
  }
  // A diagnostic inside a model would otherwise carry the whole module.
  context->printOpOnDiagnostic(false);
  context->loadAllAvailableDialects();
}

Context::~Context() {
  context.reset();
  pool.reset();
}

namespace {

/// `loc` as MLIR prints it.
std::string locationString(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

/// The innermost NameLoc's name within `loc` (a node of the graph), or "".
std::string nodeName(Location loc) {
  std::string name;
  loc->walk([&](Location inner) {
    if (auto named = dyn_cast<NameLoc>(inner))
      name = named.getName().str();
    return WalkResult::advance();
  });
  return name;
}

const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

} // namespace

DiagnosticCollector::DiagnosticCollector(MLIRContext &context,
                                         std::vector<Diagnostic> &diagnostics)
    : diagnostics(diagnostics),
      handler(&context, [this](mlir::Diagnostic &diag) {
        Diagnostic out;
        out.severity = severityName(diag.getSeverity());
        out.location = locationString(diag.getLocation());
        out.node = nodeName(diag.getLocation());
        out.message = diag.str();
        for (mlir::Diagnostic &note : diag.getNotes())
          out.notes.push_back(locationString(note.getLocation()) + ": " +
                              note.str());
        this->diagnostics.push_back(std::move(out));
        return success();
      }) {}

void DiagnosticCollector::error(const std::string &message) {
  Diagnostic out;
  out.severity = "error";
  out.message = message;
  diagnostics.push_back(std::move(out));
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

namespace {

/// The model's bytes: `contents`, or the file at `path`.
std::optional<std::string> readContents(const CompileOptions &options,
                                        DiagnosticCollector &collector) {
  if (options.path.empty())
    return options.contents;
  auto buffer = llvm::MemoryBuffer::getFile(options.path, /*IsText=*/false);
  if (!buffer) {
    collector.error(options.path + ": cannot read: " +
                    buffer.getError().message());
    return std::nullopt;
  }
  return (*buffer)->getBuffer().str();
}

OwningOpRef<ModuleOp> loadGraphDef(const CompileOptions &options,
                                   MLIRContext &context,
                                   DiagnosticCollector &collector) {
  std::string what = options.path.empty() ? "the GraphDef" : options.path;
  if (!options.graphAsFunction && options.outputs.empty()) {
    collector.error(what + ": a GraphDef needs outputs (the fetched tensors, "
                           "`node` or `node:k`) and inputs, or "
                           "graph_as_function=True");
    return nullptr;
  }
  std::string errors;
  llvm::raw_string_ostream os(errors);
  std::optional<graphdef::GraphImportOptions> importOptions =
      graphdef::parseGraphImportOptions(
          llvm::join(options.inputs, ","), llvm::join(options.inputTypes, ","),
          options.inputShapes, llvm::join(options.outputs, ","),
          /*controlOutputArrays=*/"", os);
  if (!importOptions) {
    collector.error(what + ": " + llvm::StringRef(errors).rtrim().str());
    return nullptr;
  }
  importOptions->graphAsFunction = options.graphAsFunction;
  std::optional<std::string> bytes = readContents(options, collector);
  if (!bytes)
    return nullptr;
  llvm::StringRef format = "auto";
  if (llvm::sys::path::extension(options.path) == ".pbtxt")
    format = "pbtxt";
  std::optional<tensorflow::GraphDef> graph =
      graphdef::parseGraphDef(*bytes, format, os);
  if (!graph) {
    collector.error(what + ": " + llvm::StringRef(errors).rtrim().str());
    return nullptr;
  }
  return graphdef::importGraphDef(*graph, *importOptions, &context);
}

} // namespace

OwningOpRef<ModuleOp> parseModule(const std::string &text,
                                  MLIRContext &context) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "<mlir>"), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

OwningOpRef<ModuleOp> loadModel(const CompileOptions &options,
                                MLIRContext &context,
                                DiagnosticCollector &collector) {
  switch (options.kind) {
  case ModelKind::GraphDef:
    return loadGraphDef(options, context, collector);
  case ModelKind::TFJS: {
    if (options.path.empty()) {
      collector.error("a TF.js model is read from its model.json path (the "
                      "weight shards lie next to it)");
      return nullptr;
    }
    tfjs::TFJSImportOptions tfjsOptions;
    tfjsOptions.inputShapes = options.inputShapes;
    return tfjs::importTFJSModelFile(options.path, tfjsOptions, &context);
  }
  case ModelKind::SavedModel: {
    std::string errors;
    llvm::raw_string_ostream os(errors);
    std::optional<tensorflow::SavedModel> model =
        savedmodel::readSavedModel(options.path, os);
    if (!model) {
      collector.error(llvm::StringRef(errors).rtrim().str());
      return nullptr;
    }
    savedmodel::SavedModelImportOptions importOptions;
    importOptions.tags = options.tags;
    importOptions.signature = options.signature;
    return savedmodel::importSavedModel(*model, options.path, importOptions,
                                        &context);
  }
  case ModelKind::MLIR: {
    std::optional<std::string> text = readContents(options, collector);
    if (!text)
      return nullptr;
    if (options.path.empty())
      return parseModule(*text, context);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(*text, options.path),
        llvm::SMLoc());
    return parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  }
  return nullptr;
}

std::string printModule(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Services
//===----------------------------------------------------------------------===//

TextResult importModel(const CompileOptions &options) {
  TextResult result;
  Context context(/*threads=*/1);
  DiagnosticCollector collector(context.get(), result.diagnostics);
  OwningOpRef<ModuleOp> module = loadModel(options, context.get(), collector);
  if (module)
    result.text = printModule(*module);
  return result;
}

TextResult exportGraphDef(const std::string &mlir, bool graphAsFunction) {
  TextResult result;
  Context context(/*threads=*/1);
  DiagnosticCollector collector(context.get(), result.diagnostics);
  OwningOpRef<ModuleOp> module = parseModule(mlir, context.get());
  if (!module)
    return result;
  tensorflow::GraphDef graph;
  graphdef::GraphExportOptions exportOptions;
  exportOptions.graphAsFunction = graphAsFunction;
  if (failed(graphdef::exportGraphDef(*module, graph, exportOptions)))
    return result;
  std::string text;
  if (!google::protobuf::TextFormat::PrintToString(graph, &text)) {
    collector.error("cannot print the exported GraphDef");
    return result;
  }
  result.text = std::move(text);
  return result;
}

TextResult translateToLLVMIR(const std::string &mlir) {
  TextResult result;
  Context context(/*threads=*/1);
  DiagnosticCollector collector(context.get(), result.diagnostics);
  OwningOpRef<ModuleOp> module = parseModule(mlir, context.get());
  if (!module)
    return result;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  if (!llvmModule) {
    if (result.diagnostics.empty())
      collector.error("cannot translate the module to LLVM IR");
    return result;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  llvmModule->print(os, nullptr);
  result.text = std::move(text);
  return result;
}

TextResult runPipeline(const std::string &mlir, const std::string &pipeline) {
  // The pass registry is global; fill it once per process.
  static std::once_flag registered;
  std::call_once(registered, [] { kiln::registerAllPasses(); });

  TextResult result;
  Context context(/*threads=*/1);
  DiagnosticCollector collector(context.get(), result.diagnostics);
  OwningOpRef<ModuleOp> module = parseModule(mlir, context.get());
  if (!module)
    return result;
  PassManager pm(&context.get(), ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  // Both kiln-opt spellings: "builtin.module(a,b)" and "a,b".
  llvm::StringRef passes = llvm::StringRef(pipeline).trim();
  if (passes.consume_front("builtin.module(") && !passes.consume_back(")"))
    passes = pipeline;
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline(passes, pm, os))) {
    collector.error("pipeline '" + pipeline +
                    "': " + llvm::StringRef(errors).trim().str());
    return result;
  }
  if (failed(pm.run(*module))) {
    if (result.diagnostics.empty())
      collector.error("the pipeline '" + pipeline + "' failed");
    return result;
  }
  result.text = printModule(*module);
  return result;
}

} // namespace kiln::python
