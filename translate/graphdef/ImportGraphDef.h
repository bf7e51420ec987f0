//===- ImportGraphDef.h - GraphDef to tf_executor MLIR ----------*- C++ -*-===//
//
// Imports a TensorFlow GraphDef as TensorFlow's importer does: a `func @main`
// holding a tf_executor.graph (islands wrapping tf ops, node names as
// locations, control edges, TF1 control-flow nodes as tf_executor ops), the
// function library as private functions, and `tf.entry_function` and
// `tf.versions` attributes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_GRAPHDEF_IMPORTGRAPHDEF_H
#define KILN_TRANSLATE_GRAPHDEF_IMPORTGRAPHDEF_H

#include "translate/proto/graph.pb.h"
#include "translate/proto/tf2xla.pb.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::graphdef {

/// A graph input that becomes an argument of `@main`.
struct InputSpec {
  /// The fed tensor, `node` or `node:k` (usually a Placeholder). Feeding
  /// output 0 of a node with one output replaces the whole node; feeding any
  /// other output (or output 0 of a node with several) replaces the uses of
  /// that output only, and the node stays if anything else still needs it.
  std::string node;
  /// The argument's element type; DT_INVALID takes the node's `dtype`.
  tensorflow::DataType dtype = tensorflow::DT_INVALID;
  /// The argument's shape: unset takes the node's `shape` attribute; a set
  /// nullopt is an unranked tensor.
  std::optional<std::optional<std::vector<int64_t>>> shape;
  /// For DT_RESOURCE: the types of the tensors the resource holds, written
  /// `DT_RESOURCE(shape:DT_X;...)` on the command line (nullopt shape:
  /// unranked).
  std::vector<
      std::pair<tensorflow::DataType, std::optional<std::vector<int64_t>>>>
      subtypes;
};

/// What `tf-mlir-translate -graphdef-to-mlir` takes on its command line.
struct GraphImportOptions {
  std::vector<InputSpec> inputs;
  /// Fetched tensors, `node` or `node:k`, in result order.
  std::vector<std::string> outputs;
  /// Nodes whose control outputs `@main` fetches.
  std::vector<std::string> controlOutputs;
  /// Keep only nodes the outputs and control outputs depend on.
  bool pruneUnusedNodes = false;
  /// Take `@main`'s signature from the graph's _Arg and _Retval nodes.
  bool graphAsFunction = false;
  /// Replace every constant by a splat of its first value (TensorFlow's
  /// -graphdef-to-splatted-mlir), to keep large models readable.
  bool splatConstants = false;
};

/// Builds options from tf-mlir-translate's flag values:
/// `inputArrays` "a,b:1" (tensors; see InputSpec::node), `dataTypes`
/// "DT_FLOAT,DT_INT32" (an empty entry takes the node's type;
/// `DT_RESOURCE(2,3:DT_FLOAT)` gives a resource's subtype), `shapes` "1,2:3"
/// (one per input, ':'-separated; `?` or -1 for an unknown size, `*` for
/// unknown rank, empty for a scalar), `outputArrays` "c,d:1",
/// `controlOutputArrays` "e". Reports inconsistent options to `errors` and
/// fails.
std::optional<GraphImportOptions>
parseGraphImportOptions(llvm::StringRef inputArrays, llvm::StringRef dataTypes,
                        llvm::StringRef shapes, llvm::StringRef outputArrays,
                        llvm::StringRef controlOutputArrays,
                        llvm::raw_ostream &errors);

/// Reads a tfcompile config (tf2xla.Config, text or binary protobuf) from
/// `path`. An unreadable file or one that is neither form is reported to
/// `errors`, naming the file, and the result is nullopt.
std::optional<tensorflow::tf2xla::Config>
readTfcompileConfig(llvm::StringRef path, llvm::raw_ostream &errors);

/// Parses a tfcompile config from `bytes` (text or binary protobuf), as
/// readTfcompileConfig does; messages name the config `name`.
std::optional<tensorflow::tf2xla::Config>
parseTfcompileConfig(llvm::StringRef bytes, llvm::StringRef name,
                     llvm::raw_ostream &errors);

/// Builds options from a tfcompile config: its feeds become inputs (`node`
/// for output 0, else `node:k`) and its fetches outputs (variables are left
/// to the graph, as read-write state).
std::optional<GraphImportOptions>
optionsFromTfcompileConfig(const tensorflow::tf2xla::Config &config,
                           llvm::raw_ostream &errors);

/// The GraphDef consumer version Kiln implements: that of TensorFlow 2.21,
/// the release whose op set and semantics Kiln follows. A GraphDef whose
/// `versions.min_consumer` is above it, or whose `bad_consumers` lists it,
/// is refused as TensorFlow refuses it.
inline constexpr int kGraphDefConsumerVersion = 2474;

/// Imports `graph`. Errors are emitted as diagnostics located at the node at
/// fault (a NameLoc of the node name) and the result is null.
mlir::OwningOpRef<mlir::ModuleOp>
importGraphDef(const tensorflow::GraphDef &graph,
               const GraphImportOptions &options, mlir::MLIRContext *context);

/// Parses a GraphDef from binary or text protobuf (detected: binary first
/// when `format` is "auto"; "pb" or "pbtxt" force one). Errors go to
/// `errors` with the reason.
std::optional<tensorflow::GraphDef> parseGraphDef(llvm::StringRef bytes,
                                                  llvm::StringRef format,
                                                  llvm::raw_ostream &errors);

} // namespace kiln::graphdef

#endif // KILN_TRANSLATE_GRAPHDEF_IMPORTGRAPHDEF_H
