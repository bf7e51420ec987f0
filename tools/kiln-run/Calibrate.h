//===- Calibrate.h - kiln-run: int8 calibration in process ------*- C++ -*-===//
//
// --backend=npu --precision=int8 without --calibration-file: the functional
// tf module is instrumented (observe-npu-ranges), compiled for the CPU and
// JIT-compiled, run on seeded inputs, and the tensors it observes are
// reduced to the ranges file convert-tf-to-npu precision=int8 reads, as
// kiln-npu-calibrate does from separate runs.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_RUN_CALIBRATE_H
#define KILN_TOOLS_KILN_RUN_CALIBRATE_H

#include "tools/kiln-run/Arrays.h"
#include "tools/kiln-run/Model.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kiln::run {

/// How kiln-run calibrates.
struct CalibrationOptions {
  /// The entry function.
  std::string entry = "main";
  /// Number of seeded runs; run i is fed the inputs of seed `firstSeed + i`.
  unsigned runs = 8;
  uint32_t firstSeed = 1;
  /// --input-shapes, --float-range and --int-range of the generated inputs.
  std::string shapes, floatRange = "0,1", intRange = "0,10";
  /// LLVM optimisation level of the JIT.
  unsigned optLevel = 2;
};

/// Reads the ranges file at `path`; why it cannot be used, if it cannot.
std::optional<std::string> checkCalibrationFile(llvm::StringRef path);

/// Calibrates a clone of `module` (functional tf; `module` is unchanged)
/// and writes the ranges (RangeTable::writeJSON) to `path`, recording the
/// step's time. Reports and fails when a step does not work.
mlir::LogicalResult calibrateForNPU(mlir::ModuleOp module,
                                    const EntrySignature &signature,
                                    const CalibrationOptions &options,
                                    llvm::StringRef path, StepTimes &times);

} // namespace kiln::run

#endif // KILN_TOOLS_KILN_RUN_CALIBRATE_H
