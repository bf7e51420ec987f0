//===- kiln-compile.cpp - the ahead-of-time compiler driver -----*- C++ -*-===//
//
// A model (GraphDef, TF.js graph model, SavedModel, MetaGraph or MLIR) and an
// optional tfcompile config in; an object file and a C/C++ header out. The phases are
// kiln-tf-to-cpu-pipeline's, built by the same functions kiln-opt runs; with
// --target=npu the graph is first partitioned and its NPU segments become
// command streams in the object, run through Kiln's NPU runtime (NPU.h).
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "passes/InitKiln.h"
#include "passes/Pipelines.h"
#include "target/cpu/Header.h"
#include "target/cpu/ObjectEmitter.h"
#include "tools/kiln-compile/Entries.h"
#include "tools/kiln-compile/NPU.h"
#include "tools/kiln-compile/Options.h"
#include "translate/graphdef/ImportGraphDef.h"
#include "translate/savedmodel/ImportSavedModel.h"
#include "translate/tfjs/ImportTFJS.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <chrono>

using namespace mlir;
using namespace kiln::compile;
namespace cl = llvm::cl;

namespace {

//===----------------------------------------------------------------------===//
// Input
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp>
importModel(MLIRContext &context,
            const std::optional<tensorflow::tf2xla::Config> &config) {
  StringRef path = inputPath;
  auto fail = [&](const Twine &message) -> OwningOpRef<ModuleOp> {
    llvm::errs() << "kiln-compile: " << message << "\n";
    return nullptr;
  };
  if (path.ends_with(".mlir")) {
    if (config)
      return fail("--config applies to GraphDefs; an .mlir input is "
                  "compiled as it is");
    llvm::SourceMgr sourceMgr;
    std::string error;
    auto file = openInputFile(path, &error);
    if (!file)
      return fail(error);
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    return parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  if (llvm::sys::fs::is_directory(path) || path.ends_with(".meta")) {
    if (config)
      return fail("--config applies to GraphDefs; a SavedModel or MetaGraph "
                  "has its own signature");
    kiln::savedmodel::SavedModelImportOptions options;
    options.tags = tags;
    options.signature = signatureKey;
    options.checkpoint = checkpoint;
    options.outputs = metaGraphOutputs;
    std::string errors;
    llvm::raw_string_ostream os(errors);
    std::optional<tensorflow::MetaGraphDef> metaGraph;
    std::optional<tensorflow::SavedModel> model;
    if (path.ends_with(".meta")) {
      auto file = llvm::MemoryBuffer::getFile(path);
      if (!file)
        return fail("cannot read '" + path +
                    "': " + file.getError().message());
      metaGraph =
          kiln::savedmodel::parseMetaGraph((*file)->getBuffer(), path, os);
      if (!metaGraph)
        return fail(StringRef(errors).rtrim());
    } else if (!(model = kiln::savedmodel::readSavedModel(path, os))) {
      return fail(StringRef(errors).rtrim());
    }
    auto importOne = [&]() {
      return metaGraph ? kiln::savedmodel::importMetaGraph(*metaGraph, path,
                                                           options, &context)
                       : kiln::savedmodel::importSavedModel(*model, path,
                                                            options, &context);
    };
    if (entryList.empty())
      return importOne();
    if (!metaGraphOutputs.empty())
      return fail("--entries compiles signatures; --outputs gives one");
    // One module per signature, merged: the variables are found by name.
    SmallVector<std::pair<std::string, OwningOpRef<ModuleOp>>> modules;
    for (const std::string &key : entryList) {
      options.signature = key;
      modules.emplace_back(key, importOne());
      if (!modules.back().second)
        return nullptr;
    }
    return mergeEntryModules(&context, modules);
  }
  if (!entryList.empty())
    return fail("--entries takes the signatures of a SavedModel or MetaGraph, "
                "or the functions of an .mlir input");
  if (path.ends_with(".json")) {
    if (config)
      return fail("--config applies to GraphDefs; a TF.js model has its "
                  "own signature");
    kiln::tfjs::TFJSImportOptions options;
    options.inputShapes = inputShapes;
    return kiln::tfjs::importTFJSModelFile(path, options, &context);
  }
  if (!path.ends_with(".pb") && !path.ends_with(".pbtxt"))
    return fail("'" + path + "': expected a .pb, .pbtxt, .json, .mlir or "
                ".meta file or a SavedModel directory");
  if (!config)
    return fail("a GraphDef needs --config to name its feeds and fetches");
  std::string errors;
  llvm::raw_string_ostream os(errors);
  auto options = kiln::graphdef::optionsFromTfcompileConfig(*config, os);
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file)
    return fail("cannot read '" + path + "': " + file.getError().message());
  std::optional<tensorflow::GraphDef> graph;
  if (options)
    graph = kiln::graphdef::parseGraphDef((*file)->getBuffer(), "auto", os);
  if (!graph)
    return fail(path + ": " + StringRef(errors).rtrim());
  options->pruneUnusedNodes = true;
  return kiln::graphdef::importGraphDef(*graph, *options, &context);
}

/// Renames feeds and fetches after the config's `name` fields, which
/// tfcompile uses for the generated accessors.
void applyConfigNames(const tensorflow::tf2xla::Config &config,
                      kiln::cpu::ModelSignature &signature) {
  auto rename = [](auto &entries, std::vector<kiln::cpu::TensorInfo> &infos) {
    for (int i = 0; i < entries.size() && i < (int)infos.size(); ++i)
      if (!entries[i].name().empty())
        infos[i].name = kiln::cpu::makeCIdentifier(entries[i].name());
  };
  rename(config.feed(), signature.feeds);
  rename(config.fetch(), signature.fetches);
}

/// The node name of `loc` (the importers' NameLoc), or "".
StringRef nodeName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().getValue();
  return "";
}

/// Checks the config's `variable` entries against the graph (functional tf,
/// before variables become state): each must name a tf.VarHandleOp node,
/// and a `readonly` one must not be assigned. Returns each variable's
/// accessor name by node name.
FailureOr<llvm::StringMap<std::string>>
checkConfigVariables(const tensorflow::tf2xla::Config &config,
                     ModuleOp module) {
  llvm::StringMap<SmallVector<Value>> handles;
  module.walk([&](kiln::tf::VarHandleOp op) {
    handles[nodeName(op.getLoc())].push_back(op.getResource());
  });
  llvm::StringMap<std::string> names;
  bool ok = true;
  for (const auto &variable : config.variable()) {
    const std::string &node = variable.node_name();
    auto it = handles.find(node);
    if (node.empty() || it == handles.end()) {
      llvm::errs() << "kiln-compile: config variable '" << node
                   << "' names no VarHandleOp node of the graph\n";
      ok = false;
      continue;
    }
    names[node] = kiln::cpu::makeCIdentifier(
        variable.name().empty() ? node : variable.name());
    if (!variable.readonly())
      continue;
    for (Value handle : it->second)
      for (Operation *user : handle.getUsers())
        if (isa<kiln::tf::AssignVariableOp>(user)) {
          user->emitError("config variable '")
              << node << "' is readonly, but node '" << nodeName(user->getLoc())
              << "' assigns it";
          ok = false;
        }
  }
  if (!ok)
    return failure();
  return names;
}

//===----------------------------------------------------------------------===//
// Dumps
//===----------------------------------------------------------------------===//

/// Writes `text` to `name` in --dump-dir (nothing without --dump-dir).
void dump(StringRef name, llvm::function_ref<void(llvm::raw_ostream &)> text) {
  if (dumpDir.empty())
    return;
  SmallString<256> path(dumpDir);
  llvm::sys::path::append(path, name);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec) {
    llvm::errs() << "kiln-compile: cannot write '" << path
                 << "': " << ec.message() << "\n";
    return;
  }
  text(os);
}

void dumpModule(StringRef name, ModuleOp module) {
  dump(name, [&](llvm::raw_ostream &os) {
    module->print(os, OpPrintingFlags().enableDebugInfo(true, false));
  });
}

/// Gives every function the object defines but does not export (private
/// after kiln-cpu-entry-abi: the NPU segments of --target=npu, the
/// deallocation helper) internal linkage, which the LLVM lowering does not,
/// so that the objects of two models link side by side.
void internalizePrivateFunctions(ModuleOp module) {
  module.walk([](LLVM::LLVMFuncOp func) {
    if (!func.isExternal() && func.isPrivate() &&
        func.getLinkage() == LLVM::Linkage::External)
      func.setLinkage(LLVM::Linkage::Internal);
  });
}

/// `symbol`'s default: "ns::MyModel" -> "my_model".
std::string defaultSymbol(StringRef cppClass) {
  StringRef name = cppClass.rsplit("::").second;
  if (name.empty())
    name = cppClass;
  std::string out;
  for (auto [i, c] : llvm::enumerate(name)) {
    if (llvm::isUpper(c) && i > 0 && !llvm::isUpper(name[i - 1]))
      out += '_';
    out += llvm::toLower(c);
  }
  return kiln::cpu::makeCIdentifier(out);
}

//===----------------------------------------------------------------------===//
// Timing and progress
//===----------------------------------------------------------------------===//

/// Times the compile's phases (--timing) and reports each as it starts
/// (--progress, or stderr on a terminal): "[3/8] abi: 1234 ops, 2.1 s".
class PhaseClock {
public:
  /// `numPhases`: 8, and one more (npu) for --target=npu.
  explicit PhaseClock(int numPhases)
      : numPhases(numPhases), reportProgress(progress == cl::BOU_UNSET
                           ? llvm::errs().is_displayed()
                           : progress == cl::BOU_TRUE) {
    manager.setEnabled(timing);
    root = manager.getRootScope();
  }

  /// Starts phase `name` (ending the previous one); `module` gives the op
  /// count. The returned scope nests the phase's passes.
  TimingScope &start(StringRef name, Operation *module = nullptr) {
    current.stop();
    current = root.nest(name);
    if (reportProgress) {
      llvm::errs() << "kiln-compile: [" << ++index << "/" << numPhases
                   << "] " << name;
      if (module) {
        int64_t ops = 0;
        module->walk([&](Operation *) { ++ops; });
        llvm::errs() << ": " << ops << " ops";
      }
      llvm::errs() << ", "
                   << llvm::format("%.1f", std::chrono::duration<double>(
                                               Clock::now() - begin)
                                               .count())
                   << " s\n";
    }
    return current;
  }

private:
  using Clock = std::chrono::steady_clock;
  /// import, graph, (npu,) linalg, abi, llvm, LLVM IR, object code, header.
  int numPhases;
  bool reportProgress;
  int index = 0;
  Clock::time_point begin = Clock::now();
  // Declared first so that it prints after every scope has stopped.
  DefaultTimingManager manager;
  TimingScope root;
  TimingScope current;
};

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// --list-signatures: prints what the SavedModel or MetaGraph offers.
int printSignatures() {
  StringRef path = inputPath;
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (path.ends_with(".meta")) {
    auto file = llvm::MemoryBuffer::getFile(path);
    if (!file) {
      llvm::errs() << "kiln-compile: cannot read '" << path
                   << "': " << file.getError().message() << "\n";
      return 1;
    }
    auto metaGraph =
        kiln::savedmodel::parseMetaGraph((*file)->getBuffer(), path, os);
    if (!metaGraph) {
      llvm::errs() << "kiln-compile: " << errors;
      return 1;
    }
    llvm::outs() << "MetaGraph '" << path << "':\n";
    kiln::savedmodel::printSignatures(*metaGraph, llvm::outs());
    return 0;
  }
  auto model = kiln::savedmodel::readSavedModel(path, os);
  if (!model) {
    llvm::errs() << "kiln-compile: " << errors;
    return 1;
  }
  kiln::savedmodel::printSignatures(*model, llvm::outs());
  return 0;
}

int compile() {
  if (!applyTfcompileFlags())
    return 1;
  if (listSignatures)
    return printSignatures();
  if (outputPath.empty()) {
    llvm::errs() << "kiln-compile: no object file to write: give -o (or "
                    "--out_function_object)\n";
    return 1;
  }
  if (target != "cpu" && target != "npu") {
    llvm::errs() << "kiln-compile: --target must be 'cpu' or 'npu', got '"
                 << target << "'\n";
    return 1;
  }
  bool onNPU = target == "npu";
  kiln::compile::NPUOptions npu;
  if (std::optional<std::string> message =
          kiln::compile::readNPUOptions(onNPU, dumpDir, npu)) {
    llvm::errs() << "kiln-compile: " << *message << "\n";
    return 1;
  }
  if (!entryList.empty()) {
    std::string why;
    if (headerApi == kiln::cpu::HeaderAPI::Tfcompile)
      why = "--entries writes Kiln's class for each entry; tfcompile's class "
            "copies its own variable buffers, so entries would not share them";
    else if (onNPU)
      why = "--entries is for --target=cpu";
    else if (!configPath.empty())
      why = "--entries takes signatures or functions; a config has one entry";
    for (const std::string &name : entryList)
      if (why.empty())
        why = checkEntryName(name);
    if (!why.empty()) {
      llvm::errs() << "kiln-compile: " << why << "\n";
      return 1;
    }
  }
  if (!dumpDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dumpDir)) {
      llvm::errs() << "kiln-compile: cannot create '" << dumpDir
                   << "': " << ec.message() << "\n";
      return 1;
    }
  }
  std::optional<tensorflow::tf2xla::Config> config;
  if (!configPath.empty()) {
    std::string errors;
    llvm::raw_string_ostream os(errors);
    config = kiln::graphdef::readTfcompileConfig(configPath, os);
    if (!config) {
      llvm::errs() << "kiln-compile: " << errors;
      return 1;
    }
  }

  DialectRegistry registry;
  kiln::registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  PhaseClock clock(onNPU ? 9 : 8);
  clock.start("import");
  OwningOpRef<ModuleOp> module = importModel(context, config);
  if (!module)
    return 1;
  dumpModule("00-input.mlir", *module);

  // The target first: a wrong --cpu or --triple fails before the compile,
  // and the vector length of the CPU sizes the depthwise kernels.
  kiln::cpu::TargetOptions targetOptions;
  targetOptions.triple = triple;
  targetOptions.cpu = cpu;
  targetOptions.features = features;
  targetOptions.optLevel = optLevel;
  auto machine = kiln::cpu::createTargetMachine(targetOptions);
  if (!machine) {
    llvm::errs() << "kiln-compile: " << llvm::toString(machine.takeError())
                 << "\n";
    return 1;
  }

  kiln::TFToCPUPipelineOptions options;
  options.depthwiseLanes = kiln::cpu::f32VectorLanes(**machine);
  options.entry = entry;
  options.symbol = symbol.empty() ? defaultSymbol(cppClass) : symbol;
  // An imported graph's function is "main"; an .mlir input names its own.
  if (!StringRef(inputPath).ends_with(".mlir"))
    options.entry = "main";
  std::vector<std::string> entryNames(entryList.begin(), entryList.end());
  options.entries = entryNames;
  if (onNPU)
    options.externalFunctions = {kiln::compile::npuRuntimeFunction()};

  auto runPhase = [&](kiln::CPUPhase phase, StringRef name) {
    PassManager pm(&context);
    kiln::buildTFToCPUPhase(pm, phase, options);
    // The IR is verified once per phase, not after each of its passes
    // (--verify-each): on a whole model each verification walks every op.
    pm.enableVerifier(verifyEach);
    TimingScope &phaseScope = clock.start(name, *module);
    if (timing)
      pm.enableTiming(phaseScope);
    if (!dumpDir.empty()) {
      SmallString<256> path(dumpDir);
      llvm::sys::path::append(path, ("reproducer-" + name + ".mlir").str());
      pm.enableCrashReproducerGeneration(path);
    }
    auto fail = [&] {
      llvm::errs() << "kiln-compile: the " << name << " phase failed";
      if (!dumpDir.empty())
        llvm::errs() << "; reproducer: " << dumpDir << "/reproducer-" << name
                     << ".mlir (kiln-opt --run-reproducer)";
      llvm::errs() << "\n";
      return false;
    };
    if (failed(pm.run(*module)))
      return fail();
    if (!verifyEach) {
      TimingScope verifying = phaseScope.nest("verify");
      if (failed(verify(*module)))
        return fail();
    }
    return true;
  };

  // Graph to functional tf with shapes; the signature is read there, where
  // feed and fetch names and TensorFlow's element types still are.
  if (!runPhase(kiln::CPUPhase::Graph, "graph"))
    return 1;
  dumpModule("01-graph.mlir", *module);
  // One entry, or --entries' (each with its own signature).
  std::vector<EntrySignature> entries;
  for (StringRef name : entryNames.empty()
                            ? std::vector<std::string>{options.entry}
                            : entryNames) {
    auto func = module->lookupSymbol<func::FuncOp>(name);
    if (!func) {
      llvm::errs() << "kiln-compile: no function '" << name
                   << "' in the model\n";
      return 1;
    }
    FailureOr<kiln::cpu::ModelSignature> read = kiln::cpu::readSignature(func);
    if (failed(read))
      return 1;
    entries.push_back({name.str(), std::move(*read)});
  }
  kiln::cpu::ModelSignature *signature = &entries.front().signature;
  llvm::StringMap<std::string> variableNames;
  if (config) {
    applyConfigNames(*config, *signature);
    auto names = checkConfigVariables(*config, *module);
    if (failed(names))
      return 1;
    variableNames = std::move(*names);
  }

  // The NPU segments become command streams and runtime calls before the
  // rest is lowered for the CPU.
  npu.entry = options.entry;
  if (onNPU)
    clock.start("npu", *module);
  if (onNPU && failed(kiln::compile::partitionForNPU(*module, npu,
                                                     dumpModule))) {
    llvm::errs() << "kiln-compile: the npu phase failed\n";
    return 1;
  }

  if (!runPhase(kiln::CPUPhase::Linalg, "linalg"))
    return 1;
  dumpModule("02-linalg.mlir", *module);
  if (!runPhase(kiln::CPUPhase::ABI, "abi"))
    return 1;
  for (EntrySignature &entry : entries)
    if (failed(kiln::cpu::readVariables(*module, entry.signature)))
      return 1;
  for (kiln::cpu::TensorInfo &variable : signature->variables) {
    if (auto it = variableNames.find(variable.graphName);
        it != variableNames.end())
      variable.name = it->second;
    if (config)
      for (const auto &entry : config->variable())
        if (entry.node_name() == variable.graphName)
          variable.readonly = entry.readonly();
  }
  dumpModule("03-abi.mlir", *module);
  if (!runPhase(kiln::CPUPhase::LLVM, "llvm"))
    return 1;
  for (EntrySignature &entry : entries)
    kiln::cpu::readCompiledEntry(
        *module,
        entryList.empty() ? options.symbol : options.symbol + "_" + entry.name,
        entry.signature);
  internalizePrivateFunctions(*module);
  dumpModule("04-llvm.mlir", *module);

  clock.start("LLVM IR", *module);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      kiln::cpu::translateToLLVMIR(*module, llvmContext, **machine, optLevel,
                                     unrollLimit);
  if (!llvmModule)
    return 1;
  dump("05-model.ll",
       [&](llvm::raw_ostream &os) { llvmModule->print(os, nullptr); });

  clock.start("object code");
  std::string error;
  auto object = openOutputFile(outputPath, &error);
  if (!object) {
    llvm::errs() << "kiln-compile: " << error << "\n";
    return 1;
  }
  if (llvm::Error e = kiln::cpu::emitCode(
          *llvmModule, **machine, kiln::cpu::CodeKind::Object, object->os())) {
    llvm::errs() << "kiln-compile: " << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  if (!dumpDir.empty()) {
    SmallString<256> path(dumpDir);
    llvm::sys::path::append(path, "06-model.s");
    auto assembly = openOutputFile(path, &error);
    if (assembly) {
      if (llvm::Error e = kiln::cpu::emitCode(*llvmModule, **machine,
                                              kiln::cpu::CodeKind::Assembly,
                                              assembly->os()))
        llvm::consumeError(std::move(e));
      else
        assembly->keep();
    }
  }

  clock.start("header");
  std::string header = headerPath;
  if (header.empty()) {
    SmallString<256> path(outputPath);
    llvm::sys::path::replace_extension(path, "h");
    header = path.str().str();
  }
  auto headerFile = openOutputFile(header, &error);
  if (!headerFile) {
    llvm::errs() << "kiln-compile: " << error << "\n";
    return 1;
  }
  kiln::cpu::HeaderOptions headerOptions;
  headerOptions.symbol = options.symbol;
  headerOptions.cppClass = cppClass;
  headerOptions.source = llvm::sys::path::filename(inputPath).str();
  headerOptions.npu = onNPU;
  headerOptions.api = headerApi;
  headerOptions.genNameToIndex = genNameToIndex;
  if (llvm::Error e =
          entryList.empty()
              ? kiln::cpu::writeHeader(*signature, headerOptions,
                                       headerFile->os())
              : writeEntriesHeader(entries, headerOptions, headerFile->os())) {
    llvm::errs() << "kiln-compile: " << llvm::toString(std::move(e)) << "\n";
    return 1;
  }
  object->keep();
  headerFile->keep();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(
      {&category, &kiln::compile::npuCategory(), &tfcompileCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "kiln-compile: a TensorFlow model to a CPU object file and a C/C++ "
      "header;\nwith --target=npu, its NPU-v1 segments as command streams in "
      "the object\n\n"
      "  kiln-compile model.pbtxt --config=model.config.pbtxt -o model.o \\\n"
      "      --cpp-class=ns::Model\n"
      "  kiln-compile model.json --input-shapes=1,224,224,3 -o model.o\n"
      "  kiln-compile saved_model_dir --signature=serving_default -o model.o\n"
      "  kiln-compile model.ckpt.meta -o model.o   (checkpoint model.ckpt)\n"
      "  kiln-compile model.json --input-shapes=1,64,64,1 --target=npu "
      "-o model.o\n"
      "  kiln-compile --graph=g.pb --config=g.config.pbtxt --cpp_class=ns::C "
      "\\\n      --out_function_object=g.o --out_header=g.h   (tfcompile's "
      "flags and class)\n\n"
      "The header declares a C++ class (feeds, Run(), fetches) and a C API.\n"
      "With --target=cpu (the default) the object needs only the C library\n"
      "(malloc, free, libm).\n\n"
      "--target=npu partitions the graph as kiln-run --backend=npu does\n"
      "(convert-tf-to-npu with --npu-config and --precision, then\n"
      "kiln-npu-segments-to-host-calls): each NPU segment becomes a command\n"
      "stream inside the object and a call of Kiln's NPU runtime\n"
      "(runtime/npu/HostCall.h; in this build the NPU-v1 simulator), the "
      "rest\nCPU code. Link the object with libKilnNPURuntime.a, abseil, "
      "zlib and the\nC++ standard library: `pkg-config --libs "
      "kiln-npu-runtime`, or\nkiln_add_compiled_model(... TARGET npu) in "
      "CMake. <model>_run returns\n<MODEL>_NPU_FAILED when a segment failed "
      "and <model>_npu_error() says why.\n--precision=int8 calibrates on "
      "the .npy samples of --calibration-input\n(NAME=FILE,... per input; "
      "the model runs on the CPU once per sample;\nthe same files give the "
      "same object), or reads the ranges of --calibration-file\n(kiln-run "
      "--save-calibration or kiln-npu-calibrate write it).\n");
  return compile();
}
