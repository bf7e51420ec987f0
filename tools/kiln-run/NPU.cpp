//===- NPU.cpp - kiln-run: the NPU backend ---------------------*- C++ -*-===//
//
// See NPU.h.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-run/NPU.h"
#include "tools/kiln-run/Calibrate.h"

#include "conversions/Passes.h"
#include "passes/Passes.h"
#include "runtime/npu/HostCall.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace kiln::run {

bool checkNPUOptions(const NPUOptions &options) {
  if (options.config != "default" && options.config != "realistic") {
    error("--npu-config must be 'default' or 'realistic', got '" +
          options.config + "'");
    return false;
  }
  if (options.precision != "fp16" && options.precision != "int8") {
    error("--precision must be 'fp16' or 'int8', got '" + options.precision +
          "'");
    return false;
  }
  if (options.calibrationFile.empty())
    return true;
  if (std::optional<std::string> message =
          checkCalibrationFile(options.calibrationFile)) {
    error("--calibration-file: " + *message);
    return false;
  }
  return true;
}

LogicalResult partitionForNPU(ModuleOp module, const NPUOptions &options,
                              StepTimes &times) {
  auto start = std::chrono::steady_clock::now();
  PassManager pm(module->getContext());
  ConvertTFToNPUPassOptions partition;
  partition.targetPreset = options.config;
  partition.precision = options.precision;
  partition.calibrationFile = options.calibrationFile;
  pm.addPass(createConvertTFToNPUPass(partition));
  KilnNPUSegmentsToHostCallsPassOptions calls;
  calls.npubDir = options.npubDir;
  pm.addPass(createKilnNPUSegmentsToHostCallsPass(calls));
  if (failed(pm.run(module)))
    return failure();
  times.emplace_back("npu", millisecondsSince(start));
  return success();
}

std::vector<std::pair<std::string, void *>> npuRuntimeSymbols() {
  return {{npuRuntimeFunction(), reinterpret_cast<void *>(&kiln_npu_run)}};
}

const char *npuRuntimeFunction() { return "kiln_npu_run"; }

bool checkNPURun() {
  const char *message = kiln_npu_error();
  if (!message)
    return true;
  error(message);
  kiln_npu_clear_error();
  return false;
}

void printNPUStats() {
  for (const npu::SegmentStats &stats : npu::segmentStats())
    llvm::outs() << "npu segment " << stats.name << ": " << stats.calls
                 << (stats.calls == 1 ? " call" : " calls") << ", "
                 << stats.cycles << " cycles ("
                 << llvm::format("%.1f", stats.microseconds)
                 << " us), MAC utilisation "
                 << llvm::format("%.1f%%", 100 * stats.macUtilisation)
                 << "\n";
}

} // namespace kiln::run
