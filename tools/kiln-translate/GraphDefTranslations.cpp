//===- GraphDefTranslations.cpp - GraphDef translations ---------*- C++ -*-===//
//
// Registers --import-graphdef and TensorFlow's own names for it
// (-graphdef-to-mlir, -graphdef-to-splatted-mlir), with tf-mlir-translate's
// option names, so TensorFlow's RUN lines work with kiln-translate.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-translate/Translations.h"

#include "translate/graphdef/ExportGraphDef.h"
#include "translate/graphdef/ImportGraphDef.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include "google/protobuf/text_format.h"

using namespace mlir;

namespace {

llvm::cl::OptionCategory category("GraphDef import options (tf-mlir-translate "
                                  "names)");

llvm::cl::opt<std::string>
    inputArrays("tf-input-arrays",
                llvm::cl::desc("Nodes fed as @main's arguments: a,b"),
                llvm::cl::cat(category));
llvm::cl::opt<std::string> inputDataTypes(
    "tf-input-data-types",
    llvm::cl::desc("Their types, DT_FLOAT,DT_INT32 (empty: the node's dtype)"),
    llvm::cl::cat(category));
llvm::cl::opt<std::string> inputShapes(
    "tf-input-shapes",
    llvm::cl::desc("Their shapes, ':'-separated: 1,224,224,3:10 (? unknown "
                   "size, * unknown rank, empty scalar)"),
    llvm::cl::cat(category));
llvm::cl::opt<std::string> outputArrays(
    "tf-output-arrays",
    llvm::cl::desc("Tensors @main returns: node or node:k, comma-separated"),
    llvm::cl::cat(category));
llvm::cl::opt<std::string> controlOutputArrays(
    "tf-control-output-arrays",
    llvm::cl::desc("Nodes whose control outputs @main fetches"),
    llvm::cl::cat(category));
llvm::cl::opt<bool> pruneUnusedNodes(
    "tf-prune-unused-nodes",
    llvm::cl::desc("Keep only the nodes the outputs depend on"),
    llvm::cl::cat(category));
llvm::cl::opt<bool> graphAsFunction(
    "tf-graph-as-function",
    llvm::cl::desc("Take @main's signature from _Arg and _Retval nodes"),
    llvm::cl::cat(category));
llvm::cl::opt<bool> shapeInferenceOnImport(
    "tf-enable-shape-inference-on-import",
    llvm::cl::desc("Accepted for compatibility; Kiln never infers shapes "
                   "while importing (run tf-shape-inference afterwards)"),
    llvm::cl::init(false), llvm::cl::cat(category));
llvm::cl::opt<std::string> tfcompileConfig(
    "tf-config",
    llvm::cl::desc("Take inputs and outputs from a tfcompile config "
                   "(tf2xla.Config, text or binary) instead of the flags"),
    llvm::cl::cat(category));
llvm::cl::opt<std::string> graphdefFormat(
    "graphdef-format",
    llvm::cl::desc("auto (default: text if it looks like text), pb or pbtxt"),
    llvm::cl::init("auto"), llvm::cl::cat(category));
llvm::cl::opt<std::string> graphdefOutputFormat(
    "graphdef-output-format",
    llvm::cl::desc("--export-graphdef writes pbtxt (default, text format) "
                   "or pb (binary)"),
    llvm::cl::init("pbtxt"), llvm::cl::cat(category));
llvm::cl::opt<bool> exportEntryFuncToFlib(
    "tf-export-entry-func-to-flib",
    llvm::cl::desc("--export-graphdef writes @main into the function library "
                   "instead of as the graph's nodes"),
    llvm::cl::init(false), llvm::cl::cat(category));

/// Reads and parses the tfcompile config named by -tf-config.
std::optional<kiln::graphdef::GraphImportOptions>
readConfig(llvm::raw_ostream &errors) {
  auto config = kiln::graphdef::readTfcompileConfig(tfcompileConfig, errors);
  if (!config)
    return std::nullopt;
  return kiln::graphdef::optionsFromTfcompileConfig(*config, errors);
}

OwningOpRef<Operation *> importGraphDef(llvm::SourceMgr &sourceMgr,
                                        MLIRContext *context, bool splat) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::string errors;
  llvm::raw_string_ostream os(errors);
  auto fail = [&]() -> OwningOpRef<Operation *> {
    emitError(UnknownLoc::get(context)) << buffer->getBufferIdentifier() << ": "
                                        << llvm::StringRef(errors).rtrim();
    return nullptr;
  };
  std::optional<kiln::graphdef::GraphImportOptions> options;
  if (!tfcompileConfig.empty()) {
    if (!inputArrays.empty() || !outputArrays.empty())
      os << "-tf-config replaces -tf-input-arrays and -tf-output-arrays; "
            "give one or the other\n";
    else
      options = readConfig(os);
  } else {
    options = kiln::graphdef::parseGraphImportOptions(
        inputArrays, inputDataTypes, inputShapes, outputArrays,
        controlOutputArrays, os);
  }
  if (!options)
    return fail();
  options->pruneUnusedNodes = pruneUnusedNodes;
  options->graphAsFunction = graphAsFunction;
  options->splatConstants = splat;
  if (graphdefFormat != "auto" && graphdefFormat != "pb" &&
      graphdefFormat != "pbtxt") {
    os << "-graphdef-format must be auto, pb or pbtxt\n";
    return fail();
  }
  std::optional<tensorflow::GraphDef> graph =
      kiln::graphdef::parseGraphDef(buffer->getBuffer(), graphdefFormat, os);
  if (!graph)
    return fail();
  return kiln::graphdef::importGraphDef(*graph, *options, context);
}

void registerDialects(DialectRegistry &registry) {
  registry.insert<func::FuncDialect, kiln::tf::TFDialect,
                  kiln::tf_executor::TFExecutorDialect,
                  kiln::tf_type::TFTypeDialect>();
}

} // namespace

void kiln::registerGraphDefTranslations() {
  auto exportGraphDef = [](ModuleOp module, llvm::raw_ostream &os) {
    if (graphdefOutputFormat != "pbtxt" && graphdefOutputFormat != "pb")
      return LogicalResult(emitError(module.getLoc())
                           << "-graphdef-output-format must be pbtxt or pb, "
                              "not '"
                           << graphdefOutputFormat << "'");
    kiln::graphdef::GraphExportOptions options;
    options.graphAsFunction = graphAsFunction;
    options.entryFunctionToLibrary = exportEntryFuncToFlib;
    tensorflow::GraphDef graph;
    if (failed(kiln::graphdef::exportGraphDef(module, graph, options)))
      return failure();
    std::string bytes;
    if (graphdefOutputFormat == "pb")
      graph.SerializeToString(&bytes);
    else
      google::protobuf::TextFormat::PrintToString(graph, &bytes);
    os << bytes;
    return success();
  };
  TranslateFromMLIRRegistration exportRegistration(
      "export-graphdef",
      "Export tf_executor MLIR as a TensorFlow GraphDef (pbtxt, or pb with "
      "-graphdef-output-format=pb)",
      exportGraphDef, registerDialects);
  TranslateFromMLIRRegistration exportAlias(
      "mlir-to-graphdef", "Alias of --export-graphdef (tf-mlir-translate)",
      exportGraphDef, registerDialects);
  kiln::registerImportTranslation(
      "import-graphdef",
      "Import a TensorFlow GraphDef (.pb or .pbtxt) as tf_executor MLIR",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        return importGraphDef(sourceMgr, context, /*splat=*/false);
      },
      registerDialects);
  // TensorFlow's names print as tf-mlir-translate does (no locations), so
  // that TensorFlow's own CHECK lines hold.
  TranslateToMLIRRegistration alias(
      "graphdef-to-mlir", "Alias of --import-graphdef (tf-mlir-translate)",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        return importGraphDef(sourceMgr, context, /*splat=*/false);
      },
      registerDialects);
  TranslateToMLIRRegistration splatted(
      "graphdef-to-splatted-mlir",
      "--import-graphdef with every constant replaced by a splat of its "
      "first value (tf-mlir-translate)",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        return importGraphDef(sourceMgr, context, /*splat=*/true);
      },
      registerDialects);
}
