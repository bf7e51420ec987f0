//===- NPU.h - kiln-compile: the NPU target ---------------------*- C++ -*-===//
//
// --target=npu: after kiln-tf-graph-pipeline the functional tf module is
// partitioned (convert-tf-to-npu) and every NPU segment becomes a command
// stream embedded in the object and a call of the NPU runtime
// (kiln-npu-segments-to-host-calls, runtime/npu/HostCall.h); the CPU
// phases then lower the rest as for --target=cpu.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_COMPILE_NPU_H
#define KILN_TOOLS_KILN_COMPILE_NPU_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::compile {

/// kiln-compile's NPU options (the same as kiln-run --backend=npu's; int8
/// ranges come from a file, or from calibrating on the .npy samples of
/// --calibration-input: kiln-compile generates no inputs).
struct NPUOptions {
  /// The entry function (calibration runs it).
  std::string entry = "main";
  /// The target preset of convert-tf-to-npu: "default" or "realistic".
  std::string config = "default";
  /// "fp16" or "int8".
  std::string precision = "fp16";
  /// int8: the ranges file (kiln-npu-calibrate's or kiln-run
  /// --save-calibration's).
  std::string calibrationFile;
  /// int8: NAME=FILE[,FILE...] per input (--calibration-input); the model
  /// is calibrated on these samples (target/calibration) before it is
  /// partitioned.
  std::vector<std::string> calibrationInputs;
  /// With calibrationInputs: where to write the ranges as well; empty:
  /// nowhere.
  std::string saveCalibration;
  /// Where to write each segment's .npub as well; empty: nowhere.
  std::string npubDir;
};

/// The category of the NPU options in --help.
llvm::cl::OptionCategory &npuCategory();

/// Reads the NPU options from the command line into `options` (the streams
/// go to --npub-dir, else to `dumpDir`); why they cannot be used, if they
/// cannot: given without --target=npu (`onNPU` false), or checkNPUOptions'
/// reasons.
std::optional<std::string> readNPUOptions(bool onNPU, llvm::StringRef dumpDir,
                                          NPUOptions &options);

/// Why `options` cannot be used (an unknown preset or precision, int8
/// without a ranges file or samples, a ranges file or samples without int8,
/// both, an unreadable or malformed ranges file), or nothing.
std::optional<std::string> checkNPUOptions(const NPUOptions &options);

/// The runtime entry the compiled code calls (the CPU pipeline's
/// external-functions must name it).
const char *npuRuntimeFunction();

/// Partitions `module` (functional tf), calibrated first when
/// `options.calibrationInputs` are given, and turns its NPU segments into
/// calls of the NPU runtime. `dump(name, module)` is called on the
/// partitioned module (01-npu.mlir) and on each segment's stream imported
/// back to npuhw (01-npuhw-<segment>.mlir). Emits diagnostics and fails
/// when a step fails.
mlir::LogicalResult
partitionForNPU(mlir::ModuleOp module, const NPUOptions &options,
                llvm::function_ref<void(llvm::StringRef, mlir::ModuleOp)> dump);

} // namespace kiln::compile

#endif // KILN_TOOLS_KILN_COMPILE_NPU_H
