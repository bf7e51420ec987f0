//===- Arrays.h - kiln-run: feeds, outputs and comparisons ------*- C++ -*-===//
//
// The run-side helpers of kiln-run: the feeds (from .npy files or the seeded
// stream the TF.js oracle shares), writing arrays, and comparing a result
// with an expected array.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_RUN_ARRAYS_H
#define KILN_TOOLS_KILN_RUN_ARRAYS_H

#include "tools/kiln-run/Model.h"

#include "runtime/cpu/Npy.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::run {

/// Where the feeds come from (kiln-run's options).
struct InputOptions {
  /// One .npy file per input; empty: generated inputs.
  std::vector<std::string> files;
  /// --input-shapes; empty: the entry's argument types.
  std::string shapes;
  uint32_t seed = 0;
  std::string floatRange = "0,1", intRange = "0,10";
};

/// The feeds: `options.files`, else generated arrays. Reports and returns
/// nothing when a file or option does not fit the entry.
std::optional<std::vector<cpu::NpyArray>>
makeInputs(const std::vector<TensorSpec> &specs, const InputOptions &options);

/// Writes `array` to DIR/<prefix>_<i>.npy; false (reported) on failure.
bool writeArray(const cpu::NpyArray &array, llvm::StringRef dir,
                llvm::StringRef prefix, size_t index);

/// Compares output `index` with `expected` (read from `file`), prints the
/// errors and the verdict; false (reported) on a mismatch.
bool compareOutput(const cpu::NpyArray &output, const cpu::NpyArray &expected,
                   const TensorSpec &spec, size_t index, llvm::StringRef file,
                   double rtol, double atol);

} // namespace kiln::run

#endif // KILN_TOOLS_KILN_RUN_ARRAYS_H
