//===- Importer.h - the GraphDef importer's internals ----------*- C++ -*-===//
//
// Private to translate/graphdef: the node model and the Importer class,
// shared by ImportNodes.cpp (typing and emitting one node) and
// ImportGraphDef.cpp (bodies, @main and the function library).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_GRAPHDEF_IMPORTER_H
#define KILN_TRANSLATE_GRAPHDEF_IMPORTER_H

#include "translate/graphdef/ConvertTypes.h"
#include "translate/graphdef/ImportGraphDef.h"

#include "dialects/TFExecutor/IR/TFExecutor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/StringSaver.h"

namespace kiln::graphdef::detail {

using namespace mlir;

//===----------------------------------------------------------------------===//
// Node model
//===----------------------------------------------------------------------===//

/// How a node is imported.
enum class NodeKind {
  Op,             // an island wrapping a tf op
  FunctionCall,   // an island wrapping tf.LegacyCall of a library function
  Switch,         // Switch, RefSwitch
  SwitchN,        // _SwitchN
  Merge,          // Merge, RefMerge
  Enter,          // Enter, RefEnter
  Exit,           // Exit, RefExit
  LoopCond,       // LoopCond
  NextIteration,  // NextIteration, RefNextIteration
  ControlTrigger, // ControlTrigger
  Argument,       // a node replaced by a function argument
  Return,         // _Retval in a graph imported as a function
};

/// How a node of op type `op` is imported (before argument/call checks).
NodeKind classify(StringRef op);

/// A data input of a node: output `index` of `node` (or, in a function body,
/// output `index` of the output argument `outputArg`, or argument `node`).
/// The strings point into the GraphDef or the import options, which outlive
/// the import (copies cost 21 MB on a 43k-node graph).
struct TensorRef {
  StringRef node;
  StringRef outputArg;
  unsigned index = 0;
  StringRef text; // as written, for messages
};

struct NodeInfo {
  const tensorflow::NodeDef *def = nullptr;
  NodeKind kind = NodeKind::Op;
  Location loc;
  SmallVector<TensorRef> dataInputs;
  SmallVector<std::string> controlInputs;
  /// Flat data output types.
  SmallVector<Type> outputTypes;
  /// Output argument name → [first flat index, count), for function bodies.
  llvm::StringMap<std::pair<unsigned, unsigned>> outputArgs;
  /// The highest output index consumers use (for ops Kiln does not know).
  int maxUsedOutput = -1;

  // Filled while emitting.
  SmallVector<Value> outputs;
  Value control;
  Value token; // NextIteration: the Source's token

  explicit NodeInfo(Location loc) : loc(loc) {}
};

/// True for the function-valued attributes that TensorFlow's importer writes
/// as plain symbol references (see ImportNodes.cpp).
bool isSymbolAttr(StringRef opType, StringRef name);

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

/// A feed of one output of a node that stays in the graph (TensorFlow's
/// `node:k` feed of a node with several outputs, or of k != 0): a stand-in
/// node named `name` ("node:k", which no GraphDef node can be called) holds
/// the argument, and every use of output `index` of `node` reads it instead.
struct FedTensor {
  StringRef name;
  StringRef node;
  unsigned index = 0;
};

/// The most outputs a length attribute (Split's num_split, _SwitchN's
/// num_outs) may give one node: a malformed count of 10^11 would exhaust
/// memory before anything else could reject it.
inline constexpr int64_t kMaxNodeOutputs = int64_t(1) << 20;

/// What a body's fetch holds.
struct BodyOutputs {
  SmallVector<TensorRef> data;
  SmallVector<std::string> control;
};

class Importer {
public:
  Importer(ModuleOp module, const tensorflow::FunctionDefLibrary &library,
           const GraphImportOptions &options)
      : module(module), builder(module.getContext()), ctx(module.getContext()),
        options(options) {
    for (const auto &function : library.function())
      if (!functions.try_emplace(function.signature().name(), &function)
               .second)
        duplicateFunction = function.signature().name();
    for (const auto &gradient : library.gradient())
      gradients[gradient.function_name()] = gradient.gradient_func();
  }

  LogicalResult importMain(const tensorflow::GraphDef &graph);
  LogicalResult importFunctions();
  /// Records on `func` what its FunctionDef's signature says beyond types
  /// (kiln.input_names, kiln.output_names, kiln.control_ret,
  /// kiln.is_stateful), for the exporter.
  void keepSignature(func::FuncOp func,
                     const tensorflow::FunctionDef &function);

private:
  // Body import.
  LogicalResult importBody(func::FuncOp func,
                           ArrayRef<const tensorflow::NodeDef *> nodes,
                           bool isFunction,
                           const llvm::StringMap<unsigned> &argumentNodes,
                           ArrayRef<FedTensor> fedTensors,
                           const llvm::StringMap<unsigned> &functionArgs,
                           const BodyOutputs &outputs);
  LogicalResult parseInputs(NodeInfo &info, bool isFunction);
  /// Refuses a feed whose shape contradicts the one the graph gives the fed
  /// node (a Placeholder's `shape`, a Const's value).
  LogicalResult checkFeedShape(const tensorflow::NodeDef &def, StringRef feed,
                               ArrayRef<int64_t> shape);
  LogicalResult computeOutputs(NodeInfo &info);
  LogicalResult computeOpDefOutputs(NodeInfo &info,
                                    const tensorflow::OpDef &opDef);
  FailureOr<Type> elementTypeOfArg(NodeInfo &info,
                                   const tensorflow::OpDef::ArgDef &arg,
                                   const tensorflow::OpDef *opDef,
                                   SmallVectorImpl<Type> &listTypes,
                                   unsigned &count);
  /// Refuses data inputs that the node's OpDef does not take: another
  /// number of them, or an element type its attributes contradict.
  LogicalResult checkOpDefInputs(NodeInfo &info,
                                 const tensorflow::OpDef &opDef,
                                 ArrayRef<Value> data);
  /// Refuses a Const without a tensor value, or whose value's dtype is not
  /// its `dtype` attribute.
  LogicalResult checkConst(NodeInfo &info);
  const tensorflow::AttrValue *findAttr(const NodeInfo &info, StringRef name,
                                        const tensorflow::OpDef *opDef);
  /// The node's `_output_shapes`, or nullopt without them; failure (with
  /// an error) when one of them is malformed.
  FailureOr<std::optional<std::vector<std::optional<SmallVector<int64_t>>>>>
  outputShapes(NodeInfo &info);
  std::optional<SmallVector<tensorflow::DataType>>
  outputDataTypes(const tensorflow::NodeDef &def);

  // Emission.
  LogicalResult emitNode(NodeInfo &info, OpBuilder &b);
  FailureOr<Value> valueOf(const TensorRef &ref, ErrorFn error);
  FailureOr<SmallVector<Value>> dataOperands(NodeInfo &info);
  SmallVector<Value> controlOperands(NodeInfo &info);
  FailureOr<SmallVector<NamedAttribute>> convertAttrs(NodeInfo &info,
                                                      bool symbolRefs);
  Operation *createIsland(NodeInfo &info, OpBuilder &b, OperationState &inner);

  InFlightDiagnostic nodeError(const NodeInfo &info) {
    return emitError(info.loc)
           << "node '" << info.def->name() << "' (" << info.def->op() << "): ";
  }

  ModuleOp module;
  OpBuilder builder;
  MLIRContext *ctx;
  const GraphImportOptions &options;
  llvm::StringMap<const tensorflow::FunctionDef *> functions;
  llvm::StringMap<std::string> gradients;
  /// A name the library defines more than once (empty if none).
  std::string duplicateFunction;
  /// Owns the names of fed tensors' stand-in nodes.
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver{allocator};

  // State of the body being imported.
  llvm::MapVector<StringRef, std::unique_ptr<NodeInfo>> nodes;
  llvm::StringMap<Value> functionArgValues;
  bool inFunction = false;
};

} // namespace kiln::graphdef::detail

#endif // KILN_TRANSLATE_GRAPHDEF_IMPORTER_H
