//===- Compile.cpp - fuzz the whole CPU compile of a GraphDef -------------===//
//
// Input: a GraphDef in text format. It is imported with every Placeholder
// as an input and output 0 of every node no other node reads (NoOps aside)
// as an output, then taken through kiln-compile's phases (graph, linalg,
// abi, llvm: kiln-tf-to-cpu-pipeline) and translated to LLVM IR. The work
// per input is bounded: graphs of more than kMaxNodes nodes are skipped, and
// so is any module that has a tensor of more than kMaxElements elements
// after import or after a phase (a splat of 10^12 elements imports in no
// time and is a valid graph, but compiling it is not a fuzzer's job).
// libFuzzer's -timeout catches the rest.
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzMLIR.h"
#include "passes/InitKiln.h"
#include "passes/Pipelines.h"
#include "translate/graphdef/ImportGraphDef.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {

constexpr int kMaxNodes = 64;
constexpr int64_t kMaxElements = int64_t(1) << 16;

/// The node a GraphDef input string names: "^a" and "a:1" name "a".
llvm::StringRef inputNode(llvm::StringRef input) {
  input.consume_front("^");
  return input.split(':').first;
}

/// Every Placeholder as an input; output 0 of every node no other node
/// reads as an output (NoOps have none).
kiln::graphdef::GraphImportOptions
feedsAndFetches(const tensorflow::GraphDef &graph) {
  llvm::StringSet<> read;
  for (const auto &node : graph.node())
    for (const std::string &input : node.input())
      read.insert(inputNode(input));
  kiln::graphdef::GraphImportOptions options;
  for (const auto &node : graph.node()) {
    if (node.op() == "Placeholder") {
      kiln::graphdef::InputSpec input;
      input.node = node.name();
      options.inputs.push_back(input);
    } else if (node.op() != "NoOp" && !read.contains(node.name())) {
      options.outputs.push_back(node.name());
    }
  }
  options.pruneUnusedNodes = true;
  return options;
}

/// Whether every tensor type in `module` has at most kMaxElements elements.
bool isSmall(ModuleOp module) {
  auto small = [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return !shaped || !shaped.hasStaticShape() ||
           shaped.getNumElements() <= kMaxElements;
  };
  WalkResult result = module.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (!small(type))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          if (!small(argument.getType()))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::raw_null_ostream errors;
  std::optional<tensorflow::GraphDef> graph = kiln::graphdef::parseGraphDef(
      kiln::fuzz::asString(data, size), "pbtxt", errors);
  if (!graph || graph->node_size() > kMaxNodes)
    return 0;
  for (const auto &function : graph->library().function())
    if (function.node_def_size() > kMaxNodes)
      return 0;

  static const DialectRegistry *registry = [] {
    auto *registry = new DialectRegistry;
    kiln::registerAllDialects(*registry);
    registerAllToLLVMIRTranslations(*registry);
    return registry;
  }();
  std::unique_ptr<MLIRContext> context =
      kiln::fuzz::makeQuietContext(*registry);
  context->loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module = kiln::graphdef::importGraphDef(
      *graph, feedsAndFetches(*graph), context.get());
  if (!module || !isSmall(*module))
    return 0;

  kiln::TFToCPUPipelineOptions options;
  options.entry = "main";
  options.symbol = "model";
  for (kiln::CPUPhase phase :
       {kiln::CPUPhase::Graph, kiln::CPUPhase::Linalg, kiln::CPUPhase::ABI,
        kiln::CPUPhase::LLVM}) {
    PassManager pm(context.get());
    kiln::buildTFToCPUPhase(pm, phase, options);
    if (failed(pm.run(*module)) || !isSmall(*module))
      return 0;
  }
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext);
  return 0;
}
