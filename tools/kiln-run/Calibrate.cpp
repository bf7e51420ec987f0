//===- Calibrate.cpp - kiln-run: int8 calibration in process ---*- C++ -*-===//
//
// See Calibrate.h.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-run/Calibrate.h"

#include "target/calibration/Calibration.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
namespace calibration = kiln::calibration;

namespace kiln::run {

std::optional<std::string> checkCalibrationFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return (path + ": " + buffer.getError().message()).str();
  llvm::Expected<tf_to_npu::RangeTable> table =
      tf_to_npu::RangeTable::readJSON((*buffer)->getBuffer());
  if (!table)
    return (path + ": " + llvm::toString(table.takeError())).str();
  return std::nullopt;
}

LogicalResult calibrateForNPU(ModuleOp module,
                              const CalibrationOptions &options,
                              llvm::StringRef path, StepTimes &times) {
  auto start = std::chrono::steady_clock::now();
  auto entry = module.lookupSymbol<func::FuncOp>(options.entry);
  if (!entry) {
    error("calibration: no entry '" + options.entry + "'");
    return failure();
  }
  llvm::Expected<std::vector<calibration::InputSpec>> inputs =
      calibration::entryInputs(entry);
  if (!inputs) {
    error("calibration: " + llvm::toString(inputs.takeError()));
    return failure();
  }

  // The samples: the files, read and checked before anything is compiled,
  // or seeded inputs made as kiln-run makes its own.
  std::vector<calibration::Sample> files;
  unsigned count = options.runs;
  if (!options.sampleFiles.empty()) {
    llvm::Expected<std::vector<calibration::Sample>> read =
        calibration::readSampleFiles(options.sampleFiles, *inputs,
                                     "calibration-input");
    if (!read) {
      error(llvm::toString(read.takeError()));
      return failure();
    }
    files = std::move(*read);
    count = files.size();
  }
  std::vector<TensorSpec> specs;
  for (const calibration::InputSpec &input : *inputs) {
    TensorSpec spec;
    spec.name = input.name;
    spec.dtype = input.dtype;
    spec.shape.assign(input.shape.begin(), input.shape.end());
    specs.push_back(std::move(spec));
  }
  auto sample = [&](unsigned run) -> llvm::Expected<calibration::Sample> {
    if (!files.empty())
      return std::move(files[run]);
    InputOptions inputOptions;
    inputOptions.shapes = options.shapes;
    inputOptions.seed = options.firstSeed + run;
    inputOptions.floatRange = options.floatRange;
    inputOptions.intRange = options.intRange;
    std::optional<std::vector<cpu::NpyArray>> arrays =
        makeInputs(specs, inputOptions);
    if (!arrays)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "cannot make the seeded inputs");
    return std::move(*arrays);
  };

  calibration::CalibrationOptions calibrationOptions;
  calibrationOptions.entry = options.entry;
  calibrationOptions.optLevel = options.optLevel;
  llvm::Expected<tf_to_npu::RangeTable> table =
      calibration::calibrate(module, calibrationOptions, count, sample);
  if (!table) {
    error(llvm::toString(table.takeError()));
    return failure();
  }
  if (llvm::Error e = calibration::writeRanges(*table, path)) {
    error(llvm::toString(std::move(e)));
    return failure();
  }
  times.emplace_back("calibrate", millisecondsSince(start));
  return success();
}

} // namespace kiln::run
