//===- Exporter.h - the GraphDef exporter's internals ----------*- C++ -*-===//
//
// Private to translate/graphdef: the Exporter class, shared by
// ExportNodes.cpp (node names, one node per operation, inputs),
// ExportAttributes.cpp (attributes) and ExportGraphDef.cpp (@main, the
// function library and the module).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_GRAPHDEF_EXPORTER_H
#define KILN_TRANSLATE_GRAPHDEF_EXPORTER_H

#include "translate/graphdef/ExportGraphDef.h"

#include "dialects/TFExecutor/IR/TFExecutor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

namespace kiln::graphdef::detail {

using namespace mlir;
namespace tfe = kiln::tf_executor;

/// Node names of one graph or function body, made unique by `_1`, `_2`, ...
class NameTable {
public:
  /// Claims `name` (legalized) or, if it is taken, the first free
  /// `name_<n>`.
  std::string claim(StringRef name);

private:
  llvm::StringSet<> used;
};
//===----------------------------------------------------------------------===//
// Exporter
//===----------------------------------------------------------------------===//

/// A node being written for an operation.
struct Node {
  tensorflow::NodeDef *def = nullptr;
  /// The producer's OpDef, to name its outputs in function bodies.
  const tensorflow::OpDef *opDef = nullptr;
  /// For calls of library functions: the callee's results are
  /// `output_<i>`.
  bool isCall = false;
};

/// What a function body's signature calls its arguments.
struct BodyArgs {
  /// The name an input refers to for each argument of the entry block.
  SmallVector<std::string> names;
};

class Exporter {
public:
  Exporter(ModuleOp module, const GraphExportOptions &options)
      : module(module), options(options) {}

  LogicalResult exportModule(tensorflow::GraphDef &out);

private:
  LogicalResult exportMain(func::FuncOp main, tensorflow::GraphDef &out);
  LogicalResult exportFunction(func::FuncOp func, tensorflow::FunctionDef &out);
  FailureOr<tfe::GraphOp> graphOf(func::FuncOp func);

  // Bodies.
  /// Names every node of `graph` (after the names already claimed) and
  /// writes them with their attributes, in the graph's order.
  LogicalResult
  createNodes(tfe::GraphOp graph,
              llvm::function_ref<tensorflow::NodeDef *()> addNode);
  LogicalResult createOpNode(Operation *op, tensorflow::NodeDef *def,
                             StringRef name);
  LogicalResult createExecutorNode(Operation *op, tensorflow::NodeDef *def,
                                   StringRef name);
  /// Fills in every node's inputs.
  LogicalResult connectNodes(tfe::GraphOp graph);
  FailureOr<std::string> dataInput(Value value, Operation *user);
  LogicalResult controlInputs(Value control, Operation *user,
                              SmallVectorImpl<std::string> &names);
  LogicalResult addInputs(tensorflow::NodeDef &def, Operation *user,
                          ValueRange data, ValueRange controls);
  std::string outputName(const Node &node, unsigned index);
  LogicalResult exportAttrs(Operation *op, tensorflow::NodeDef &def,
                            ArrayRef<StringRef> skip);
  /// Adds the attributes Kiln derives from the types (T, dtype, N, ...)
  /// that `opDef` requires and `op` does not carry.
  LogicalResult addDerivedAttrs(Operation *op, tensorflow::NodeDef &def,
                                const tensorflow::OpDef *opDef);
  void addOutputShapes(tensorflow::NodeDef &def, TypeRange types);
  /// Forgets the previous body's state before exporting the next one.
  void beginBody(bool isFunction) {
    names = NameTable();
    nodes.clear();
    islandNodes.clear();
    args = BodyArgs();
    inFunction = isFunction;
  }

  ModuleOp module;
  const GraphExportOptions &options;

  // State of the body being exported.
  NameTable names;
  DenseMap<Operation *, Node> nodes;
  DenseMap<Operation *, SmallVector<std::string>> islandNodes;
  BodyArgs args;
  bool inFunction = false;
};

/// The error of an operation: at its location, naming it.
InFlightDiagnostic opError(Operation *op);

/// Whether `type` is a tf_executor control type.
bool isControl(Type type);

/// The value type of a reference DataType (DT_FLOAT for DT_FLOAT_REF), any
/// other unchanged: type attributes name the value type, as TensorFlow's
/// exporter writes them.
tensorflow::DataType valueDataType(tensorflow::DataType dtype);

/// Whether `module` holds region control flow or functions of plain tf
/// operations (what kiln-tf-graph-pipeline gives), which the exporter takes
/// only after prepareForExport.
bool needsPreparation(ModuleOp module);

/// Rewrites `module` into the form the exporter takes: tf.IfRegion,
/// CaseRegion and WhileRegion become tf.If, Case and While calling new
/// private functions (values used from above become arguments, carried
/// through a loop), and every function of plain operations a
/// tf_executor.graph with one island per operation (ExportPrepare.cpp).
LogicalResult prepareForExport(ModuleOp module);

} // namespace kiln::graphdef::detail

#endif // KILN_TRANSLATE_GRAPHDEF_EXPORTER_H
