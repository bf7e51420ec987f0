//===- NPU.cpp - kiln-compile: the NPU target -------------------*- C++ -*-===//
//
// See NPU.h.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-compile/NPU.h"

#include "conversions/TFToNPU/TFToNPU.h"
#include "passes/Passes.h"
#include "target/calibration/Calibration.h"
#include "target/npu/NPUTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
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
             "--calibration-file or --calibration-input)"),
    cl::init("fp16"), cl::cat(npuCategory()));
cl::opt<std::string> calibrationFile(
    "calibration-file",
    cl::desc("int8: the tensors' ranges (kiln-npu-calibrate's, or kiln-run "
             "--precision=int8 --save-calibration's)"),
    cl::value_desc("FILE"), cl::cat(npuCategory()));
cl::list<std::string> calibrationInputs(
    "calibration-input",
    cl::desc("int8: calibrate on these .npy samples: NAME=FILE[,FILE...] "
             "per input (NAME is the input's name; FILE[,FILE...] alone for "
             "a model of one input); sample k is the k-th file of every "
             "input"),
    cl::value_desc("NAME=FILE,..."), cl::cat(npuCategory()));
cl::opt<std::string> saveCalibration(
    "save-calibration",
    cl::desc("With --calibration-input: also write the ranges to FILE"),
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
  options.calibrationInputs.assign(calibrationInputs.begin(),
                                   calibrationInputs.end());
  options.saveCalibration = saveCalibration;
  options.npubDir = npubDir.empty() ? dumpDir.str() : std::string(npubDir);
  if (!onNPU)
    return npuConfig.getNumOccurrences() || precision.getNumOccurrences() ||
                   !calibrationFile.empty() || !calibrationInputs.empty() ||
                   !saveCalibration.empty() || !npubDir.empty()
               ? std::optional<std::string>(
                     "--npu-config, --precision, --calibration-file, "
                     "--calibration-input, --save-calibration and --npub-dir "
                     "need --target=npu")
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
  bool samples = !options.calibrationInputs.empty();
  if (options.precision == "int8" && options.calibrationFile.empty() &&
      !samples)
    return std::string(
        "--precision=int8 needs --calibration-input (.npy samples to "
        "calibrate on) or --calibration-file (ranges from kiln-npu-calibrate "
        "or kiln-run --backend=npu --precision=int8 --save-calibration)");
  if (options.precision != "int8" &&
      (!options.calibrationFile.empty() || samples))
    return std::string(
        "--calibration-file and --calibration-input need --precision=int8");
  if (!options.calibrationFile.empty() && samples)
    return std::string("--calibration-file reads the ranges; it excludes "
                       "--calibration-input");
  if (!options.saveCalibration.empty() && !samples)
    return std::string("--save-calibration needs --calibration-input");
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

/// Calibrates `module` on the samples of `options` and writes the ranges
/// to `path`; reports and fails when that does not work.
LogicalResult calibrateOnSamples(ModuleOp module, const NPUOptions &options,
                                 StringRef path) {
  auto fail = [](const llvm::Twine &message) {
    llvm::errs() << "kiln-compile: error: " << message << "\n";
    return failure();
  };
  auto entry = module.lookupSymbol<func::FuncOp>(options.entry);
  if (!entry)
    return fail("calibration: no entry '" + options.entry + "'");
  llvm::Expected<std::vector<calibration::InputSpec>> inputs =
      calibration::entryInputs(entry);
  if (!inputs)
    return fail("calibration: " + llvm::toString(inputs.takeError()));
  llvm::Expected<std::vector<calibration::Sample>> samples =
      calibration::readSampleFiles(options.calibrationInputs, *inputs,
                                   "calibration-input");
  if (!samples)
    return fail(llvm::toString(samples.takeError()));
  calibration::CalibrationOptions calibrationOptions;
  calibrationOptions.entry = options.entry;
  llvm::Expected<tf_to_npu::RangeTable> table = calibration::calibrate(
      module, calibrationOptions, samples->size(),
      [&](unsigned k) -> llvm::Expected<calibration::Sample> {
        return std::move((*samples)[k]);
      });
  if (!table)
    return fail(llvm::toString(table.takeError()));
  if (llvm::Error e = calibration::writeRanges(*table, path))
    return fail(llvm::toString(std::move(e)));
  return success();
}

} // namespace

LogicalResult
partitionForNPU(ModuleOp module, const NPUOptions &options,
                llvm::function_ref<void(llvm::StringRef, mlir::ModuleOp)> dump) {
  // Calibrated ranges go to --save-calibration's file, else to a temporary
  // one that the partitioning reads.
  std::string rangesPath = options.calibrationFile;
  llvm::SmallString<128> temporary;
  if (!options.calibrationInputs.empty()) {
    rangesPath = options.saveCalibration;
    if (rangesPath.empty()) {
      if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
              "kiln-compile-ranges", "json", temporary)) {
        llvm::errs() << "kiln-compile: error: cannot create a temporary "
                        "ranges file: "
                     << ec.message() << "\n";
        return failure();
      }
      rangesPath = std::string(temporary);
    }
    if (failed(calibrateOnSamples(module, options, rangesPath))) {
      if (!temporary.empty())
        llvm::sys::fs::remove(temporary);
      return failure();
    }
  }
  PassManager partition(module->getContext());
  ConvertTFToNPUPassOptions partitionOptions;
  partitionOptions.targetPreset = options.config;
  partitionOptions.precision = options.precision;
  partitionOptions.calibrationFile = rangesPath;
  partition.addPass(createConvertTFToNPUPass(partitionOptions));
  LogicalResult partitioned = partition.run(module);
  if (!temporary.empty())
    llvm::sys::fs::remove(temporary);
  if (failed(partitioned))
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
