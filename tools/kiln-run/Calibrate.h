//===- Calibrate.h - kiln-run: int8 calibration in process ------*- C++ -*-===//
//
// --backend=npu --precision=int8 without --calibration-file: kiln-run
// calibrates the functional tf module (target/calibration) on seeded
// inputs, or on the .npy files of --calibration-input, and writes the
// ranges file convert-tf-to-npu precision=int8 reads.
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
#include <vector>

namespace kiln::run {

/// How kiln-run calibrates.
struct CalibrationOptions {
  /// The entry function.
  std::string entry = "main";
  /// --calibration-input: NAME=FILE[,FILE...] per input; when given, the
  /// samples are these files and nothing is generated.
  std::vector<std::string> sampleFiles;
  /// Otherwise: number of seeded runs; run i is fed the inputs of seed
  /// `firstSeed + i`.
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
/// step's time. Reports and fails when a step or a sample file does not
/// work.
mlir::LogicalResult calibrateForNPU(mlir::ModuleOp module,
                                    const CalibrationOptions &options,
                                    llvm::StringRef path, StepTimes &times);

} // namespace kiln::run

#endif // KILN_TOOLS_KILN_RUN_CALIBRATE_H
