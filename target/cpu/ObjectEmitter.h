//===- ObjectEmitter.h - LLVM dialect to a CPU object file ------*- C++ -*-===//
//
// In-process code generation for the CPU target: a TargetMachine for the
// host or a chosen CPU, LLVM IR translation with optimization, and object
// or assembly emission.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_OBJECTEMITTER_H
#define KILN_TARGET_CPU_OBJECTEMITTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace kiln::cpu {

/// What to generate code for.
struct TargetOptions {
  /// Target triple; empty means the host's.
  std::string triple;
  /// CPU name (`-mcpu`): "host" (the default) is the build machine's CPU;
  /// e.g. "x86-64-v3" for a portable AVX2 build.
  std::string cpu = "host";
  /// Feature string (`-mattr`), e.g. "+avx2,+fma". With cpu "host" and no
  /// features, the host's features are used.
  std::string features;
  /// Optimization level, 0 to 3.
  unsigned optLevel = 3;
};

/// Registers every LLVM target Kiln can emit for (idempotent).
void initializeLLVMTargets();

/// A TargetMachine for `options` (position-independent code, so objects
/// link into executables and shared libraries alike), or an error message.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const TargetOptions &options);

/// How many f32 values one vector register of `machine`'s CPU holds: 16
/// with AVX-512, 8 with AVX, 4 otherwise (SSE, NEON). kiln-compile and
/// kiln-run give it to kiln-cpu-depthwise as its `lanes`, so an AVX2 target
/// gets register-sized channel blocks rather than pairs of registers.
int64_t f32VectorLanes(const llvm::TargetMachine &machine);

/// Default of `unrollLimit` below: the instruction count (before
/// optimization) of the largest function LLVM still unrolls loops in. A whole
/// model is one function; above this size, unrolling its copy and fill loops
/// (their bodies are already vectors) gave straight-line blocks of thousands
/// of loads and stores whose scheduling cost grows with the square of the
/// block, for no run-time gain (docs/performance-compile.md).
constexpr uint64_t kDefaultUnrollLimit = 20000;

/// Instruction count of all functions defined in `module` (a model split into
/// one function per layer by kiln-cpu-outline-layers counts as a whole).
uint64_t moduleInstructionCount(const llvm::Module &module);

/// Runs LLVM's default pipeline at `optLevel` (0 to 3) on `module`, with the
/// tuning of MLIR's makeOptimizingTransformer (vectorizers on); loop
/// unrolling is off when a function has more than `unrollLimit`
/// instructions.
llvm::Error optimizeLLVMModule(llvm::Module &module,
                               llvm::TargetMachine *targetMachine,
                               unsigned optLevel,
                               uint64_t unrollLimit = kDefaultUnrollLimit);

/// Translates `module` (only llvm dialect ops) to LLVM IR for
/// `targetMachine`, and optimizes it with optimizeLLVMModule. Errors are
/// reported on the module.
std::unique_ptr<llvm::Module>
translateToLLVMIR(mlir::ModuleOp module, llvm::LLVMContext &context,
                  llvm::TargetMachine &targetMachine, unsigned optLevel,
                  uint64_t unrollLimit = kDefaultUnrollLimit);

/// What emitCode writes.
enum class CodeKind { Object, Assembly };

/// Emits `module` as an object file or assembly text into `os`. On failure
/// returns an error message.
llvm::Error emitCode(llvm::Module &module, llvm::TargetMachine &targetMachine,
                     CodeKind kind, llvm::raw_pwrite_stream &os);

} // namespace kiln::cpu

#endif // KILN_TARGET_CPU_OBJECTEMITTER_H
