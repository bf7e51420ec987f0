//===- Compiler.h - compile and run models in process -----------*- C++ -*-===//
//
// The C++ half of the `kiln` Python package, with no Python in it: import a
// model (GraphDef, TF.js or MLIR), lower it with kiln-tf-to-cpu-pipeline,
// JIT-compile it with MLIR's ExecutionEngine and call it on caller-owned
// buffers; and the text-to-text services behind kiln.translate and
// kiln.run_pipeline. Every failure comes back as diagnostics, never as an
// abort, so the bindings can turn it into a Python exception.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PYTHON_COMPILER_H
#define KILN_PYTHON_COMPILER_H

#include "runtime/cpu/threads/ThreadPool.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace kiln::cpu {
class JITModule;
} // namespace kiln::cpu

namespace kiln::python {

/// One diagnostic MLIR (or the driver) reported.
struct Diagnostic {
  /// "error", "warning", "note" or "remark".
  std::string severity;
  /// The location as MLIR prints it (`loc("node")`, `file:3:7`, ...); empty
  /// for the driver's own messages.
  std::string location;
  /// The graph node the diagnostic is at (the innermost NameLoc), or "".
  std::string node;
  std::string message;
  /// The attached notes, each "location: message".
  std::vector<std::string> notes;
};

/// What a model is read from.
enum class ModelKind { GraphDef, TFJS, MLIR, SavedModel };

/// Everything kiln.compile passes down.
struct CompileOptions {
  ModelKind kind = ModelKind::MLIR;
  /// A file (a SavedModel: its directory) to read; when empty, `contents` is
  /// the model (GraphDef bytes or MLIR text; TF.js models and SavedModels
  /// need their paths for the weights).
  std::string path;
  std::string contents;
  /// GraphDef feeds (`node` or `node:k`), their types (`DT_FLOAT`, empty
  /// for the node's own) and fetches, as kiln-run's --tf-* options.
  std::vector<std::string> inputs, inputTypes, outputs;
  /// Input shapes as --input-shapes writes them (`1,224,224,3:10`).
  std::string inputShapes;
  bool graphAsFunction = false;
  /// SavedModel: the MetaGraph's tag set (comma-separated) and the
  /// SignatureDef to import, as kiln-compile's --tags and --signature.
  std::string tags = "serve";
  std::string signature = "serving_default";
  /// The function of an .mlir model to run.
  std::string entry = "main";
  /// LLVM optimisation level of the JIT, 0-3.
  unsigned optLevel = 2;
  /// The CPU to generate code for ("host", or an LLVM CPU name such as
  /// "x86-64-v2") and its LLVM feature string ("+avx2,-avx512f"), as
  /// kiln-compile's --cpu and --features.
  std::string cpu = "host";
  std::string features;
  /// Where to write the IR after each phase (and a reproducer on failure).
  std::string dumpDir;
  /// Compiler threads: 0 lets MLIR choose, 1 compiles on the calling thread.
  unsigned threads = 0;
  /// Extra shared libraries the compiled code may call.
  std::vector<std::string> sharedLibs;
};

/// An argument, result or variable of a compiled model.
struct TensorSpec {
  std::string name;
  /// NumPy's name of the element type: "float32", "int64", "bool", ...
  std::string dtype;
  /// Sizes, -1 where dynamic.
  std::vector<int64_t> shape;
};

/// An input buffer: C-order data the caller owns and keeps alive.
struct InputBuffer {
  std::string dtype;
  std::vector<int64_t> shape;
  void *data = nullptr;
};

/// A C-order array the model produced; `data` is owned here.
struct OutputArray {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;
};

/// A JIT-compiled model. Calls are serialized (the compiled code keeps its
/// variables in globals), so one model may be shared between threads.
class CompiledModel {
public:
  ~CompiledModel();

  const std::vector<TensorSpec> &inputs() const { return inputSpecs; }
  const std::vector<TensorSpec> &outputs() const { return outputSpecs; }
  const std::vector<TensorSpec> &variables() const { return variableSpecs; }

  /// Runs the model. Returns an error message (and no outputs) when an
  /// input's count, dtype or shape does not fit the model.
  std::optional<std::string> run(const std::vector<InputBuffer> &inputs,
                                 std::vector<OutputArray> &outputs);

  /// A copy of variable `index`'s current value.
  OutputArray readVariable(size_t index);
  /// Overwrites variable `index`; an error message when dtype or shape
  /// differ from the variable's.
  std::optional<std::string> writeVariable(size_t index,
                                           const InputBuffer &value);
  /// Restores every variable to its value before the first call.
  void resetVariables();

  /// Runs later calls' parallel loops on a pool of `threads` threads (the
  /// calling one included; 1: that thread alone). Returns false when the
  /// pool cannot be started.
  bool setThreads(unsigned threads);
  /// The threads a call runs on.
  unsigned threads() const;

private:
  friend struct ModelBuilder;
  CompiledModel() = default;

  std::unique_ptr<cpu::JITModule> jit;
  std::vector<TensorSpec> inputSpecs, outputSpecs, variableSpecs;
  /// Each variable's storage in the JIT-compiled code, and its first value.
  std::vector<void *> variableData;
  std::vector<std::vector<uint8_t>> initialValues;
  /// The pool of Kiln's CPU thread runtime that runs use, or null.
  std::unique_ptr<kiln_cpu_pool, void (*)(kiln_cpu_pool *)> pool{
      nullptr, kiln_cpu_pool_destroy};
  std::mutex mutex;
};

/// The outcome of compile(): a model, or the diagnostics saying why not.
struct CompileResult {
  std::unique_ptr<CompiledModel> model;
  std::vector<Diagnostic> diagnostics;
  /// One line naming the step that failed ("import", "the linalg phase",
  /// ...), empty on success.
  std::string failure;
};

/// Imports, lowers and JIT-compiles a model.
CompileResult compile(const CompileOptions &options);

/// The result of a text-to-text service.
struct TextResult {
  std::optional<std::string> text;
  std::vector<Diagnostic> diagnostics;
};

/// Imports a GraphDef or TF.js model (per `options.kind`) and prints the
/// tf_executor module, as kiln-translate --import-graphdef/--import-tfjs.
TextResult importModel(const CompileOptions &options);

/// Exports a tf_executor module to a GraphDef in protobuf text form, as
/// kiln-translate --export-graphdef.
TextResult exportGraphDef(const std::string &mlir, bool graphAsFunction);

/// Translates an LLVM-dialect module to LLVM IR, as kiln-translate
/// --mlir-to-llvmir.
TextResult translateToLLVMIR(const std::string &mlir);

/// Parses `mlir`, runs the textual pass pipeline `pipeline` on it (every
/// upstream and Kiln pass and pipeline is known, as in kiln-opt) and prints
/// the result.
TextResult runPipeline(const std::string &mlir, const std::string &pipeline);

} // namespace kiln::python

#endif // KILN_PYTHON_COMPILER_H
