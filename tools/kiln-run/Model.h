//===- Model.h - kiln-run: load a model and read its entry ------*- C++ -*-===//
//
// The compile-side helpers of kiln-run: error reporting, importing MODEL
// (MLIR, GraphDef or TF.js), the entry's names and element types before and
// after lowering, and running the phases of kiln-tf-to-cpu-pipeline with
// their times.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_RUN_MODEL_H
#define KILN_TOOLS_KILN_RUN_MODEL_H

#include "passes/Pipelines.h"
#include "runtime/cpu/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::run {

/// Prints "kiln-run: error: <message>" and returns the failure exit status.
int error(const llvm::Twine &message);

/// Milliseconds since `start`.
double millisecondsSince(std::chrono::steady_clock::time_point start);

/// `value` printed with printf's `format` ("%.3g", ...).
std::string formatNumber(const char *format, double value);

/// `type` as MLIR prints it.
std::string typeString(mlir::Type type);

/// A shape as NumPy prints it, `?` for a dynamic size.
std::string typeShapeString(llvm::ArrayRef<int64_t> shape);

/// One argument or result of the entry: its name and its array type.
struct TensorSpec {
  std::string name;
  cpu::DType dtype = cpu::DType::Float32;
  /// Sizes, ShapedType::kDynamic where unknown.
  llvm::SmallVector<int64_t> shape;

  /// "input 0 'x'" for messages.
  std::string describe(llvm::StringRef kind, size_t index) const;
};

/// What kiln-run knows of the entry before it is lowered.
struct EntrySignature {
  std::vector<std::string> inputNames, outputNames;
  std::vector<bool> unsignedInputs, unsignedOutputs;
};

/// Where the model comes from and how to import it (kiln-run's options).
struct ModelSource {
  std::string path;
  std::string entry = "main";
  std::string inputShapes;
  std::string tfInputArrays, tfInputDataTypes, tfOutputArrays;
  bool tfGraphAsFunction = false;
};

/// Imports or parses the model; diagnostics go to the context's handler.
mlir::OwningOpRef<mlir::ModuleOp> loadModel(mlir::MLIRContext &context,
                                            llvm::SourceMgr &sourceMgr,
                                            const ModelSource &source);

/// Reads the entry's names and signedness before lowering erases them.
std::optional<EntrySignature> readEntrySignature(mlir::ModuleOp module,
                                                 const ModelSource &source);

/// True when `module` still holds tf or tf_executor ops.
bool hasTFOps(mlir::ModuleOp module);

/// Builds the TensorSpecs of the entry's (tensor or memref) arguments or
/// results, or reports why one cannot be run.
std::optional<std::vector<TensorSpec>>
specsOf(mlir::TypeRange types, const std::vector<std::string> &names,
        const std::vector<bool> &isUnsigned, llvm::StringRef kind);

/// How long each compile step took, in order, for the summary line.
using StepTimes = std::vector<std::pair<std::string, double>>;

/// Runs `phases` of kiln-tf-to-cpu-pipeline on `module`, one at a time,
/// recording their times. The IR is verified once at the end of each phase
/// (as kiln-compile does: on a whole model a verification after every pass
/// costs a third of the llvm phase), or after every pass with `verifyEach`.
mlir::LogicalResult runPhases(mlir::ModuleOp module,
                              llvm::ArrayRef<CPUPhase> phases,
                              const TFToCPUPipelineOptions &options,
                              bool verifyEach, StepTimes &times);

} // namespace kiln::run

#endif // KILN_TOOLS_KILN_RUN_MODEL_H
