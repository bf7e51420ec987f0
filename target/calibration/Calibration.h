//===- Calibration.h - int8 ranges from sample inputs -----------*- C++ -*-===//
//
// Post-training calibration of the int8 NPU segments (issue 23): a clone of
// the functional tf module is instrumented by observe-npu-ranges, compiled
// for the CPU and JIT-compiled, and run once per sample; every tensor an
// int8 segment quantises widens its range (RangeTable::observe), and the
// table is what convert-tf-to-npu precision=int8 reads. Samples come from
// the caller: seeded arrays (kiln-run's default) or .npy files given per
// input name (readSampleFiles). The result depends only on the module and
// the samples, so the same files give the same ranges, byte for byte.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CALIBRATION_CALIBRATION_H
#define KILN_TARGET_CALIBRATION_CALIBRATION_H

#include "conversions/TFToNPU/TFToNPU.h"
#include "runtime/cpu/Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::calibration {

/// One input of the entry as a sample must give it.
struct InputSpec {
  /// The input's name in the graph (tf.entry_function's `inputs`), else
  /// `arg<i>`.
  std::string name;
  /// Its C identifier in a generated header, when it differs from `name`
  /// (both are accepted as the input's name).
  std::string alias;
  cpu::DType dtype = cpu::DType::Float32;
  /// Sizes; mlir::ShapedType::kDynamic where any size fits.
  std::vector<int64_t> shape;
};

/// One sample: an array per input of the entry, in input order.
using Sample = std::vector<cpu::NpyArray>;

/// The inputs of `entry`, a function of tf ops (functional, after
/// kiln-tf-graph-pipeline): names from `tf.entry_function`, else
/// `arg<i>`; element types with an .npy dtype. Fails, naming the input,
/// when one has none or an unranked type.
llvm::Expected<std::vector<InputSpec>> entryInputs(mlir::func::FuncOp entry);

/// Reads the samples that `options` name, each "NAME=FILE[,FILE...]" (or
/// "FILE[,FILE...]" when the entry has one input): sample i is the i-th
/// file of every input. Every input needs the same number of files (at
/// least one), every name must be an input's, and every file must hold
/// the input's dtype and shape; the errors say which input, file and
/// expectation, e.g. "b.npy: input 'x' is float32 [1, 64, 64, 1], the file
/// holds int32 [1, 64, 64]". `flag` names the option in messages.
llvm::Expected<std::vector<Sample>>
readSampleFiles(llvm::ArrayRef<std::string> options,
                llvm::ArrayRef<InputSpec> inputs, llvm::StringRef flag);

/// Why `sample` does not fit `inputs` (count, dtype or shape), or "".
std::string checkSample(const Sample &sample, llvm::ArrayRef<InputSpec> inputs);

/// How calibration runs the model.
struct CalibrationOptions {
  /// The entry function.
  std::string entry = "main";
  /// LLVM optimisation level of the JIT.
  unsigned optLevel = 2;
};

/// Calibrates a clone of `module` (functional tf; `module` is unchanged)
/// on `count` samples, sample i given by `sample(i)` (checked against the
/// entry's inputs), and returns the ranges. Fails, saying which step and
/// why, when the model cannot be instrumented, compiled or run, when a
/// sample does not fit, or when a tensor had no finite value in any run.
llvm::Expected<tf_to_npu::RangeTable>
calibrate(mlir::ModuleOp module, const CalibrationOptions &options,
          unsigned count,
          llvm::function_ref<llvm::Expected<Sample>(unsigned)> sample);

/// Writes `table` (RangeTable::writeJSON) to `path`.
llvm::Error writeRanges(const tf_to_npu::RangeTable &table,
                        llvm::StringRef path);

} // namespace kiln::calibration

#endif // KILN_TARGET_CALIBRATION_CALIBRATION_H
