//===- Header.h - the C/C++ header of a compiled model ----------*- C++ -*-===//
//
// What a program needs to call a model compiled by kiln-compile: the
// model's signature (feeds, fetches, variables) read from the IR, and the
// generated header: a C++ class with typed accessors and a plain C API,
// both over the entry's MLIR C interface.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_CPU_HEADER_H
#define KILN_TARGET_CPU_HEADER_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::cpu {

/// One feed, fetch or variable as the generated code sees it.
struct TensorInfo {
  /// A C identifier, unique among the feeds (fetches, variables).
  std::string name;
  /// The name in the graph (node name, `name:index`), for messages and
  /// lookup by name.
  std::string graphName;
  /// The C element type ("float", "int32_t", ...).
  std::string cType;
  /// Size of one element in bytes.
  unsigned elementBytes = 0;
  /// Dimensions; mlir::ShapedType::kDynamic for a dynamic one.
  std::vector<int64_t> shape;
  /// For variables: the symbol of the variable's storage in the object.
  std::string symbol;
  /// For variables: the tfcompile config marks it readonly (the model never
  /// assigns it).
  bool readonly = false;
};

/// A compiled model's interface.
struct ModelSignature {
  std::vector<TensorInfo> feeds;
  std::vector<TensorInfo> fetches;
  std::vector<TensorInfo> variables;
  /// The messages of the entry's run-time checks, by the status - 1 that
  /// `_mlir_ciface_<symbol>_check` returns for each; empty when the object
  /// has no check function (kiln-cpu-runtime-checks found nothing to move).
  std::vector<std::string> runtimeChecks;
  /// The arena of `_mlir_ciface_<symbol>_with_buffers` in bytes and the sum
  /// of the bytes of the tensors placed in it; none when the object has no
  /// such entry (dynamic shapes).
  std::optional<std::pair<int64_t, int64_t>> arenaBytes;
};

/// Reads feeds and fetches from `entry` (a function of tf ops, before
/// lowering): names from its `tf.entry_function` attribute (`inputs`,
/// `outputs`) or `arg<i>` / `result<i>`, types from its signature. Element
/// types with no C equivalent, and unranked types, are errors on the
/// function.
mlir::FailureOr<ModelSignature> readSignature(mlir::func::FuncOp entry);

/// Adds the model's variables to `signature`: the public mutable
/// memref.global ops of `module` after kiln-cpu-entry-abi, named after the
/// VarHandleOp node they came from (their location) when there is one.
mlir::LogicalResult readVariables(mlir::ModuleOp module,
                                  ModelSignature &signature);

/// Reads what lowering made of `symbol` from `module` (LLVM dialect): the
/// messages of its run-time checks (`kiln.runtime_checks`, from
/// kiln-cpu-runtime-checks) and its arena (`kiln.arena`, from
/// kiln-cpu-caller-buffers).
void readCompiledEntry(mlir::ModuleOp module, llvm::StringRef symbol,
                       ModelSignature &signature);

/// The C++ class the header declares.
enum class HeaderAPI {
  /// Kiln's class: feed_*/fetch_* accessors, tables by index.
  Kiln,
  /// tfcompile's generated class (target/cpu/TfcompileHeader.h).
  Tfcompile,
};

/// How the header is written.
struct HeaderOptions {
  /// The entry symbol (its C interface is `_mlir_ciface_<symbol>`); also the
  /// prefix of every C name in the header.
  std::string symbol;
  /// The C++ class, with namespaces: "ns::Name" or "Name".
  std::string cppClass;
  /// Where the model came from, for the header's comment.
  std::string source;
  /// The object calls Kiln's NPU runtime (kiln-compile --target=npu): the
  /// header says what to link, and `<symbol>_run` returns
  /// `<SYMBOL>_NPU_FAILED` when an NPU segment of the run failed.
  bool npu = false;
  /// Which class the header declares (both over the same C API).
  HeaderAPI api = HeaderAPI::Kiln;
  /// tfcompile's --gen_name_to_index: the tfcompile class's
  /// Lookup{Arg,Result,Variable}Index find names (otherwise they return -1).
  bool genNameToIndex = false;
};

/// A valid C identifier made from `name` (graph names have '/', ':', ...).
std::string makeCIdentifier(llvm::StringRef name);

/// Writes the header. Fails (with a message) on a malformed class name.
llvm::Error writeHeader(const ModelSignature &signature,
                        const HeaderOptions &options, llvm::raw_ostream &os);

} // namespace kiln::cpu

#endif // KILN_TARGET_CPU_HEADER_H
