//===- NPU.cpp - kiln-compile: the NPU target -------------------*- C++ -*-===//
//
// See NPU.h.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-compile/NPU.h"

#include "conversions/TFToNPU/TFToNPU.h"
#include "passes/Passes.h"
#include "target/npu/NPUTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

namespace cl = llvm::cl;

namespace kiln::compile {

cl::OptionCategory &npuCategory() {
  static cl::OptionCategory category("NPU target options (--target=npu)");
  return category;
}

namespace {

cl::opt<std::string> npuConfig(
    "npu-config",
    cl::desc("The NPU-v1 configuration: 'default' or 'realistic' (a "
             "convert-tf-to-npu target preset; each stream carries it)"),
    cl::init("default"), cl::cat(npuCategory()));
cl::opt<std::string> precision(
    "precision",
    cl::desc("Arithmetic of the NPU segments: 'fp16' or 'int8' (with "
             "--calibration-file)"),
    cl::init("fp16"), cl::cat(npuCategory()));
cl::opt<std::string> calibrationFile(
    "calibration-file",
    cl::desc("int8: the tensors' ranges (kiln-npu-calibrate's, or kiln-run "
             "--precision=int8 --save-calibration's)"),
    cl::value_desc("FILE"), cl::cat(npuCategory()));
cl::opt<std::string> npubDir(
    "npub-dir",
    cl::desc("Also write each NPU segment's command stream to "
             "DIR/<segment>.npub (for kiln-npu-sim; default with --dump-dir: "
             "the dump directory)"),
    cl::value_desc("DIR"), cl::cat(npuCategory()));

} // namespace

std::optional<std::string> readNPUOptions(bool onNPU, llvm::StringRef dumpDir,
                                          NPUOptions &options) {
  options.config = npuConfig;
  options.precision = precision;
  options.calibrationFile = calibrationFile;
  options.npubDir = npubDir.empty() ? dumpDir.str() : std::string(npubDir);
  if (!onNPU)
    return npuConfig.getNumOccurrences() || precision.getNumOccurrences() ||
                   !calibrationFile.empty() || !npubDir.empty()
               ? std::optional<std::string>(
                     "--npu-config, --precision, --calibration-file and "
                     "--npub-dir need --target=npu")
               : std::nullopt;
  return checkNPUOptions(options);
}

std::optional<std::string> checkNPUOptions(const NPUOptions &options) {
  if (options.config != "default" && options.config != "realistic")
    return "--npu-config must be 'default' or 'realistic', got '" +
           options.config + "'";
  if (options.precision != "fp16" && options.precision != "int8")
    return "--precision must be 'fp16' or 'int8', got '" + options.precision +
           "'";
  if (options.precision == "int8" && options.calibrationFile.empty())
    return std::string(
        "--precision=int8 needs --calibration-file: kiln-compile does not run "
        "the model, so the ranges come from kiln-npu-calibrate or kiln-run "
        "--backend=npu --precision=int8 --save-calibration");
  if (options.precision != "int8" && !options.calibrationFile.empty())
    return std::string("--calibration-file needs --precision=int8");
  if (options.calibrationFile.empty())
    return std::nullopt;
  StringRef path = options.calibrationFile;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return ("--calibration-file: " + path + ": " +
            buffer.getError().message())
        .str();
  llvm::Expected<tf_to_npu::RangeTable> table =
      tf_to_npu::RangeTable::readJSON((*buffer)->getBuffer());
  if (!table)
    return ("--calibration-file: " + path + ": " +
            llvm::toString(table.takeError()))
        .str();
  return std::nullopt;
}

const char *npuRuntimeFunction() { return "kiln_npu_run"; }

namespace {

/// Imports the stream of each segment of `module` (the constant global its
/// `kiln.npu_stream` names) back to npuhw and dumps it.
void dumpStreams(
    ModuleOp module,
    llvm::function_ref<void(llvm::StringRef, mlir::ModuleOp)> dump) {
  for (auto segment : module.getOps<func::FuncOp>()) {
    auto stream = segment->getAttrOfType<FlatSymbolRefAttr>("kiln.npu_stream");
    if (!stream)
      continue;
    auto global = module.lookupSymbol<memref::GlobalOp>(stream.getAttr());
    auto bytes =
        global ? dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr())
               : DenseElementsAttr();
    if (!bytes || bytes.isSplat())
      continue;
    ArrayRef<char> raw = bytes.getRawData();
    OwningOpRef<ModuleOp> npuhw = npuhw::readNpub(
        StringRef(raw.data(), raw.size()), module->getContext());
    if (npuhw)
      dump(("01-npuhw-" + segment.getSymName() + ".mlir").str(), *npuhw);
  }
}

} // namespace

LogicalResult
partitionForNPU(ModuleOp module, const NPUOptions &options,
                llvm::function_ref<void(llvm::StringRef, mlir::ModuleOp)> dump) {
  PassManager partition(module->getContext());
  ConvertTFToNPUPassOptions partitionOptions;
  partitionOptions.targetPreset = options.config;
  partitionOptions.precision = options.precision;
  partitionOptions.calibrationFile = options.calibrationFile;
  partition.addPass(createConvertTFToNPUPass(partitionOptions));
  if (failed(partition.run(module)))
    return failure();
  dump("01-npu.mlir", module);

  PassManager hostCalls(module->getContext());
  KilnNPUSegmentsToHostCallsPassOptions callOptions;
  callOptions.npubDir = options.npubDir;
  hostCalls.addPass(createKilnNPUSegmentsToHostCallsPass(callOptions));
  if (failed(hostCalls.run(module)))
    return failure();
  dumpStreams(module, dump);
  return success();
}

} // namespace kiln::compile
