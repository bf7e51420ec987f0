//===- JIT.h - JIT-compile a lowered module and call its entry --*- C++ -*-===//
//
// The in-process half of the CPU target, shared by kiln-run, the Python
// package and the NPU backend: JIT-compile a module in the LLVM dialect
// (what kiln-tf-to-cpu-pipeline leaves) with MLIR's ExecutionEngine, and
// call the entry's C interface (_mlir_ciface_<entry>, which
// kiln-cpu-entry-abi creates) on caller-owned C-order buffers, after its
// run-time checks (_mlir_ciface_<entry>_check, which kiln-cpu-runtime-checks
// creates) pass; a failing check is an error with the check's message, not
// an abort. Results come back as memref descriptors the compiled code
// allocated; ResultDescriptors copies them out and frees them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_JIT_H
#define KILN_TARGET_CPU_JIT_H

#include "target/cpu/ObjectEmitter.h"
#include "runtime/cpu/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

namespace kiln::cpu {

/// How to JIT-compile a module.
struct JITOptions {
  /// LLVM optimisation level, 0 to 3.
  unsigned optLevel = 2;
  /// LLVM unrolls loops only when the module has at most this many
  /// instructions (see optimizeLLVMModule).
  uint64_t unrollLimit = kDefaultUnrollLimit;
  /// The CPU and LLVM feature string to generate code for, as
  /// TargetOptions::cpu and ::features ("host": this machine's).
  std::string cpu = "host";
  std::string features;
  /// Shared libraries the compiled code may call. MLIR's C runner utilities
  /// (libmlir_c_runner_utils, for memrefCopy) are loaded as well when
  /// `loadRunnerUtils` is set and they are installed.
  std::vector<std::string> sharedLibs;
  bool loadRunnerUtils = true;
  /// Symbols the compiled code may call, resolved to these addresses (a
  /// runtime linked into the calling program, such as kiln_npu_run).
  std::vector<std::pair<std::string, void *>> symbols;
};

/// A C-order array the entry reads: contiguous data and its sizes.
struct InputView {
  const void *data = nullptr;
  llvm::ArrayRef<int64_t> shape;
};

/// A C-order array copied out of a result.
struct ResultArray {
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
};

/// Words of a rank-`rank` memref descriptor as MLIR's C interface lays it
/// out: {T *allocated; T *aligned; int64_t offset; int64_t sizes[rank];
/// int64_t strides[rank];}, every field 8 bytes.
inline size_t descriptorWords(size_t rank) { return 3 + 2 * rank; }

/// The results of one call: a struct of memref descriptors side by side.
class ResultDescriptors {
public:
  /// Room for results of these ranks.
  explicit ResultDescriptors(llvm::ArrayRef<size_t> ranks);

  /// Copies result `index` (possibly strided) into a C-order array of
  /// `elementBytes`-byte elements.
  ResultArray read(size_t index, size_t elementBytes) const;

  /// Frees each distinct buffer the results own once, except those in
  /// `keep` (inputs or variables a result may alias) and the marker MLIR's
  /// LLVM lowering puts in descriptors of constant globals; then zeroes the
  /// descriptors.
  void free(llvm::ArrayRef<const void *> keep);

  /// The struct the entry writes its results into.
  void *data() { return words.data(); }
  size_t size() const { return ranks.size(); }

private:
  std::vector<size_t> ranks, offsets;
  std::vector<int64_t> words;
};

/// A JIT-compiled module with a C-interface entry.
class JITModule {
public:
  ~JITModule();

  /// JIT-compiles `module` (LLVM dialect, with `_mlir_ciface_<entry>`).
  /// Errors name what failed: a missing library, code generation, the
  /// entry's absence.
  static llvm::Expected<std::unique_ptr<JITModule>>
  create(mlir::ModuleOp module, llvm::StringRef entry,
         const JITOptions &options);

  /// The address of `symbol` in the compiled code (a variable's global).
  llvm::Expected<void *> lookup(llvm::StringRef symbol) const;

  /// Runs the entry's run-time checks on `inputs`, then, if they hold, the
  /// entry; `results` receives the descriptors. A failing check is an error
  /// ("run-time check failed: <message>") and leaves `results` untouched.
  llvm::Error call(llvm::ArrayRef<InputView> inputs,
                   ResultDescriptors &results);

private:
  JITModule() = default;

  std::unique_ptr<mlir::ExecutionEngine> engine;
  void (*entry)(void **) = nullptr;
  /// The packed check function, null when the entry has no checks, and the
  /// message of each check by its status - 1.
  void (*check)(void **) = nullptr;
  std::vector<std::string> checkMessages;
};

/// The .npy dtype of the arrays a model's element type `type` reads or
/// writes, if it has one (bool, int8-64, uint8-64, float32, float64).
/// `isUnsigned` marks an integer type that was unsigned before lowering
/// (the TF-to-linalg type converter makes unsigned integers signless).
std::optional<DType> npyDType(mlir::Type type, bool isUnsigned = false);

} // namespace kiln::cpu

#endif // KILN_TARGET_CPU_JIT_H
