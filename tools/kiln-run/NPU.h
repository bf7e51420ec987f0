//===- NPU.h - kiln-run: the NPU backend ------------------------*- C++ -*-===//
//
// --backend=npu: partition the functional tf module (convert-tf-to-npu),
// compile every NPU segment to a command stream the host code runs through
// runtime/npu/HostCall.h (kiln-npu-segments-to-host-calls), and report what
// the simulator measured per segment.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_RUN_NPU_H
#define KILN_TOOLS_KILN_RUN_NPU_H

#include "tools/kiln-run/Model.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <utility>
#include <vector>

namespace kiln::run {

/// kiln-run's NPU options.
struct NPUOptions {
  /// The target preset of convert-tf-to-npu: "default" or "realistic".
  std::string config = "default";
  /// "fp16" or "int8".
  std::string precision = "fp16";
  /// int8: the ranges file convert-tf-to-npu reads (--calibration-file, or
  /// the one kiln-run's calibration wrote).
  std::string calibrationFile;
  /// Where to write each segment's .npub as well; empty: nowhere.
  std::string npubDir;
};

/// Checks the options; reports and returns false when one is not supported
/// (a precision other than fp16 and int8, an unreadable or malformed
/// calibration file).
bool checkNPUOptions(const NPUOptions &options);

/// Partitions `module` (functional tf) and turns its NPU segments into
/// calls of the NPU runtime, recording the step's time.
mlir::LogicalResult partitionForNPU(mlir::ModuleOp module,
                                    const NPUOptions &options,
                                    StepTimes &times);

/// The runtime entries the compiled code calls, for the JIT.
std::vector<std::pair<std::string, void *>> npuRuntimeSymbols();

/// The name of the entry the CPU pipeline must let the code call.
const char *npuRuntimeFunction();

/// Reports the failure the NPU runtime recorded during the last run, if
/// any; returns false then.
bool checkNPURun();

/// Prints one line per segment: calls, cycles, MAC utilisation, time at
/// the configured clock.
void printNPUStats();

} // namespace kiln::run

#endif // KILN_TOOLS_KILN_RUN_NPU_H
