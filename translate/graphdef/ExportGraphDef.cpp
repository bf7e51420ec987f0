//===- ExportGraphDef.cpp - tf_executor MLIR to GraphDef --------*- C++ -*-===//
//
// The exporter: one function body (a tf_executor.graph) at a time becomes a
// list of NodeDefs. Every operation inside an island becomes a node named by
// its location; a TF1 control-flow op becomes the node of the same type
// (Switch's outputs stay false, true); a NextIteration.Source/Sink pair
// becomes one NextIteration node. Data inputs are `node:k` in the graph and
// `node:output_arg:k` in function bodies (from the producer's OpDef), control
// inputs `^node`.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/ExportGraphDef.h"

#include "translate/graphdef/ExportTypes.h"
#include "translate/graphdef/OpRegistry.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DerivedAttributeOpInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>

using namespace mlir;
using namespace kiln;
using namespace kiln::graphdef;
namespace tfe = kiln::tf_executor;

namespace {

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

/// TensorFlow's rule for node names: letters, digits, `.` and `_`, plus `/`
/// and `-` after the first character.
bool isLegalNameChar(char c, bool first) {
  if (llvm::isAlnum(c) || c == '.' || c == '_')
    return true;
  return !first && (c == '/' || c == '-');
}

/// Replaces every character TensorFlow does not accept in a node name by
/// `.`, as TensorFlow's exporter does.
std::string legalizeNodeName(StringRef name) {
  std::string legal = name.str();
  for (size_t i = 0; i < legal.size(); ++i)
    if (!isLegalNameChar(legal[i], i == 0))
      legal[i] = '.';
  return legal;
}

/// The node name a location gives: a NameLoc's name up to any `@` (the
/// importer's `node@function` form), searched through fused and call-site
/// locations.
std::optional<std::string> nameFromLoc(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    StringRef text = name.getName().strref();
    text = text.take_until([](char c) { return c == '@'; });
    if (!text.empty())
      return text.str();
    return nameFromLoc(name.getChildLoc());
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      if (auto name = nameFromLoc(inner))
        return name;
    return std::nullopt;
  }
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return nameFromLoc(call.getCallee());
  return std::nullopt;
}

/// Node names of one graph or function body, made unique by `_1`, `_2`, ...
class NameTable {
public:
  /// Claims `name` (legalized) or, if it is taken, the first free
  /// `name_<n>`.
  std::string claim(StringRef name) {
    std::string base = legalizeNodeName(name);
    if (base.empty())
      base = "node";
    if (used.insert(base).second)
      return base;
    for (unsigned n = 1;; ++n) {
      std::string candidate = base + "_" + std::to_string(n);
      if (used.insert(candidate).second)
        return candidate;
    }
  }

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
InFlightDiagnostic opError(Operation *op) {
  return op->emitError() << "cannot export '" << op->getName() << "': ";
}

bool isControl(Type type) { return isa<tfe::ControlType>(type); }

/// The names in a comma-separated tf.entry_function list, `:0` dropped.
SmallVector<std::string> entryNames(func::FuncOp func, StringRef key) {
  SmallVector<std::string> result;
  auto entry = func->getAttrOfType<DictionaryAttr>("tf.entry_function");
  if (!entry)
    return result;
  auto list = entry.getAs<StringAttr>(key);
  if (!list || list.getValue().empty())
    return result;
  SmallVector<StringRef> parts;
  list.getValue().split(parts, ',');
  for (StringRef part : parts) {
    part = part.trim();
    part.consume_back(":0");
    result.push_back(part.str());
  }
  return result;
}

/// The value type of a reference DataType (DT_FLOAT for DT_FLOAT_REF), any
/// other unchanged: type attributes name the value type, as TensorFlow's
/// exporter writes them.
tensorflow::DataType valueDataType(tensorflow::DataType dtype) {
  if (dtype > 100)
    return static_cast<tensorflow::DataType>(dtype - 100);
  return dtype;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

void Exporter::addOutputShapes(tensorflow::NodeDef &def, TypeRange types) {
  if (types.empty())
    return;
  auto *list = (*def.mutable_attr())["_output_shapes"].mutable_list();
  for (Type type : types)
    exportShape(type, *list->add_shape());
}

LogicalResult Exporter::exportAttrs(Operation *op, tensorflow::NodeDef &def,
                                    ArrayRef<StringRef> skip) {
  auto errorFn = [&]() { return opError(op); };
  DictionaryAttr attrs = op->getAttrDictionary();
  auto &out = *def.mutable_attr();
  for (NamedAttribute attr : attrs) {
    StringRef name = attr.getName().strref();
    if (llvm::is_contained(skip, name) || name == "name" ||
        name == "_output_shapes")
      continue;
    if (name == "device") {
      if (auto device = dyn_cast<StringAttr>(attr.getValue()))
        def.set_device(device.getValue().str());
      continue;
    }
    // `then_branch.T` folds back into the function attribute then_branch.
    if (auto dot = name.find('.'); dot != StringRef::npos)
      if (isa_and_nonnull<SymbolRefAttr>(attrs.get(name.take_front(dot))))
        continue;
    tensorflow::AttrValue value;
    if (failed(exportAttrValue(attr.getValue(), value, errorFn)))
      return failure();
    if (isa<SymbolRefAttr>(attr.getValue())) {
      // The flattened attributes of the function it names.
      std::string prefix = (name + ".").str();
      for (NamedAttribute inner : attrs) {
        StringRef innerName = inner.getName().strref();
        if (!innerName.starts_with(prefix))
          continue;
        tensorflow::AttrValue innerValue;
        if (failed(exportAttrValue(inner.getValue(), innerValue, errorFn)))
          return failure();
        (*value.mutable_func()
              ->mutable_attr())[innerName.drop_front(prefix.size()).str()] =
            std::move(innerValue);
      }
    }
    out[name.str()] = std::move(value);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

LogicalResult Exporter::createOpNode(Operation *op, tensorflow::NodeDef *def,
                                     StringRef name) {
  def->set_name(name.str());
  StringRef opName = op->getName().getStringRef();
  if (!opName.consume_front("tf."))
    return opError(op) << "only tf operations can be graph nodes";
  if (op->getNumRegions() != 0)
    return opError(op) << "an operation with regions has no GraphDef form";
  Node &node = nodes[op];
  node.def = def;
  SmallVector<StringRef> skip;
  std::string opType = opName.str();
  if (opName == "LegacyCall") {
    auto callee = op->getAttrOfType<FlatSymbolRefAttr>("f");
    if (!callee)
      return opError(op) << "tf.LegacyCall has no callee attribute 'f'";
    opType = callee.getValue().str();
    skip = {"f", "_disable_call_shape_inference"};
    node.isCall = true;
  } else if (llvm::is_contained({"If", "While", "Case"}, opName)) {
    auto stateless = op->getAttrOfType<BoolAttr>("is_stateless");
    if (stateless && stateless.getValue())
      opType = ("Stateless" + opName).str();
    skip = {"is_stateless"};
  }
  def->set_op(opType);
  if (failed(exportAttrs(op, *def, skip)))
    return failure();
  if (node.isCall) {
    auto disable = op->getAttrOfType<BoolAttr>("_disable_call_shape_inference");
    if (disable && disable.getValue())
      (*def->mutable_attr())["_disable_call_shape_inference"].set_b(true);
  }
  node.opDef = node.isCall ? nullptr : lookupOpDef(opType);

  // Attributes Kiln derives from the types (T, dtype, N, ...) that the
  // OpDef requires and the operation does not carry.
  if (auto derived = dyn_cast<DerivedAttributeOpInterface>(op);
      derived && node.opDef) {
    DictionaryAttr values = derived.materializeDerivedAttributes();
    for (NamedAttribute attr : values) {
      std::string attrName = attr.getName().str();
      if (def->attr().count(attrName))
        continue;
      auto opAttr = llvm::find_if(node.opDef->attr(), [&](const auto &a) {
        return a.name() == attrName;
      });
      if (opAttr == node.opDef->attr().end() || opAttr->has_default_value())
        continue;
      if (!attr.getValue()) {
        // A type list of an empty operand or result group.
        if (opAttr->type() == "list(type)")
          (*def->mutable_attr())[attrName].mutable_list();
        continue;
      }
      if (auto type = dyn_cast<TypeAttr>(attr.getValue());
          type && !type.getValue())
        continue;
      tensorflow::AttrValue value;
      if (failed(exportAttrValue(attr.getValue(), value,
                                 [&]() { return opError(op); })))
        return failure();
      if (value.has_type())
        value.set_type(valueDataType(value.type()));
      for (int i = 0; value.has_list() && i < value.list().type_size(); ++i)
        value.mutable_list()->set_type(i, valueDataType(value.list().type(i)));
      (*def->mutable_attr())[attrName] = std::move(value);
    }
  }
  // Every output must have a TensorFlow type, even where no attribute
  // names it.
  for (Type type : op->getResultTypes())
    if (failed(exportDataType(type, [&]() { return opError(op); })))
      return failure();
  addOutputShapes(*def, op->getResultTypes());
  def->mutable_experimental_debug_info();
  return success();
}

LogicalResult Exporter::createExecutorNode(Operation *op,
                                           tensorflow::NodeDef *def,
                                           StringRef name) {
  def->set_name(name.str());
  Node &node = nodes[op];
  node.def = def;
  SmallVector<Type> dataTypes;
  for (Type type : op->getResultTypes())
    if (!isControl(type) && !isa<tfe::TokenType>(type))
      dataTypes.push_back(type);
  Type forwarded = dataTypes.empty() ? Type() : dataTypes.front();
  bool isRef = forwarded && tf_type::isRefType(getElementTypeOrSelf(forwarded));
  StringRef refPrefix = isRef ? "Ref" : "";
  std::string opType =
      llvm::TypeSwitch<Operation *, std::string>(op)
          .Case([&](tfe::SwitchOp) { return (refPrefix + "Switch").str(); })
          .Case([&](tfe::SwitchNOp) { return std::string("_SwitchN"); })
          .Case([&](tfe::MergeOp) { return (refPrefix + "Merge").str(); })
          .Case([&](tfe::EnterOp) { return (refPrefix + "Enter").str(); })
          .Case([&](tfe::ExitOp) { return (refPrefix + "Exit").str(); })
          .Case([&](tfe::LoopCondOp) { return std::string("LoopCond"); })
          .Case([&](tfe::NextIterationSourceOp) {
            return (refPrefix + "NextIteration").str();
          })
          .Case([&](tfe::ControlTriggerOp) {
            return std::string("ControlTrigger");
          })
          .Default([](Operation *) { return std::string(); });
  if (opType.empty())
    return opError(op) << "only islands and TF1 control-flow operations can "
                          "be graph nodes";
  def->set_op(opType);
  if (failed(exportAttrs(op, *def, {})))
    return failure();
  // The attributes TensorFlow needs that the importer reads from the types.
  auto &attrs = *def->mutable_attr();
  if (forwarded && !isa<tfe::LoopCondOp>(op) && !attrs.count("T")) {
    auto dtype = exportDataType(forwarded, [&]() { return opError(op); });
    if (failed(dtype))
      return failure();
    attrs["T"].set_type(valueDataType(*dtype));
  }
  if (auto merge = dyn_cast<tfe::MergeOp>(op); merge && !attrs.count("N"))
    attrs["N"].set_i(merge.getDataInputs().size());
  addOutputShapes(*def, dataTypes);
  def->mutable_experimental_debug_info();
  return success();
}

LogicalResult
Exporter::createNodes(tfe::GraphOp graph,
                      llvm::function_ref<tensorflow::NodeDef *()> addNode) {
  // Names first, in graph order, so that a node keeps its name whatever
  // order the nodes are written in.
  SmallVector<std::pair<Operation *, std::string>> named;
  for (Operation &op : graph.getBlock()) {
    if (isa<tfe::FetchOp, tfe::NextIterationSinkOp>(op))
      continue;
    auto nameOf = [&](Operation *o) {
      if (auto name = nameFromLoc(o->getLoc()))
        return *name;
      return o->getName().getStringRef().str();
    };
    if (auto island = dyn_cast<tfe::IslandOp>(op)) {
      for (Operation &inner : island.getBlock().without_terminator()) {
        std::optional<std::string> name = nameFromLoc(inner.getLoc());
        if (!name)
          name = nameFromLoc(island.getLoc());
        named.push_back({&inner, names.claim(name ? *name : nameOf(&inner))});
        islandNodes[island].push_back(named.back().second);
      }
      continue;
    }
    named.push_back({&op, names.claim(nameOf(&op))});
  }
  for (auto &[op, name] : named) {
    tensorflow::NodeDef *def = addNode();
    if (failed(isa<tfe::IslandOp>(op->getParentOp())
                   ? createOpNode(op, def, name)
                   : createExecutorNode(op, def, name)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

std::string Exporter::outputName(const Node &node, unsigned index) {
  const std::string &name = node.def->name();
  if (!inFunction)
    return index == 0 ? name : name + ":" + std::to_string(index);
  // In a function body: the producer's output argument and the index in it.
  if (node.isCall)
    return name + ":output_" + std::to_string(index) + ":0";
  StringRef op = node.def->op();
  auto fixed = [&](StringRef arg, unsigned k) {
    return name + ":" + arg.str() + ":" + std::to_string(k);
  };
  if (op.ends_with("Switch"))
    return index == 0 ? fixed("output_false", 0) : fixed("output_true", 0);
  if (op.ends_with("Merge"))
    return index == 0 ? fixed("output", 0) : fixed("value_index", 0);
  if (op == "_SwitchN" || op.ends_with("Enter") || op.ends_with("Exit") ||
      op.ends_with("NextIteration") || op == "LoopCond")
    return fixed("output", index);
  if (const tensorflow::OpDef *opDef = node.opDef) {
    auto attrOf =
        [&](const std::string &attr) -> const tensorflow::AttrValue * {
      auto it = node.def->attr().find(attr);
      if (it != node.def->attr().end())
        return &it->second;
      for (const auto &a : opDef->attr())
        if (a.name() == attr && a.has_default_value())
          return &a.default_value();
      return nullptr;
    };
    unsigned rest = index;
    for (const auto &arg : opDef->output_arg()) {
      unsigned count = 1;
      if (!arg.number_attr().empty()) {
        const auto *n = attrOf(arg.number_attr());
        count = n ? n->i() : 0;
      } else if (!arg.type_list_attr().empty()) {
        const auto *list = attrOf(arg.type_list_attr());
        count = list ? list->list().type_size() : 0;
      }
      if (rest < count)
        return fixed(arg.name(), rest);
      rest -= count;
    }
  }
  return fixed("output", index);
}

FailureOr<std::string> Exporter::dataInput(Value value, Operation *user) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner()->isEntryBlock() &&
        isa<func::FuncOp>(arg.getOwner()->getParentOp()) &&
        arg.getArgNumber() < args.names.size())
      return args.names[arg.getArgNumber()];
    return opError(user) << "operand " << value
                         << " is not a function argument or node output";
  }
  Operation *producer = value.getDefiningOp();
  unsigned index = cast<OpResult>(value).getResultNumber();
  if (auto island = dyn_cast<tfe::IslandOp>(producer))
    return dataInput(island.getYield().getOperand(index), user);
  auto it = nodes.find(producer);
  if (it == nodes.end())
    return opError(user) << "operand " << index << " of '"
                         << producer->getName()
                         << "' is not the output of a graph node";
  return outputName(it->second, index);
}

LogicalResult Exporter::controlInputs(Value control, Operation *user,
                                      SmallVectorImpl<std::string> &out) {
  Operation *producer = control.getDefiningOp();
  if (auto island = dyn_cast_or_null<tfe::IslandOp>(producer)) {
    auto it = islandNodes.find(island);
    if (it != islandNodes.end() && !it->second.empty()) {
      for (const std::string &name : it->second)
        out.push_back("^" + name);
      return success();
    }
    // An empty island waits for its own control inputs only.
    for (Value inner : island.getControlInputs())
      if (failed(controlInputs(inner, user, out)))
        return failure();
    return success();
  }
  auto it = producer ? nodes.find(producer) : nodes.end();
  if (it == nodes.end())
    return opError(user) << "control operand is not the control output of a "
                            "graph node";
  out.push_back("^" + it->second.def->name());
  return success();
}

LogicalResult Exporter::addInputs(tensorflow::NodeDef &def, Operation *user,
                                  ValueRange data, ValueRange controls) {
  for (Value value : data) {
    FailureOr<std::string> input = dataInput(value, user);
    if (failed(input))
      return failure();
    def.add_input(*input);
  }
  SmallVector<std::string> names;
  for (Value control : controls)
    if (failed(controlInputs(control, user, names)))
      return failure();
  for (const std::string &name : names)
    def.add_input(name);
  return success();
}

LogicalResult Exporter::connectNodes(tfe::GraphOp graph) {
  for (Operation &op : graph.getBlock()) {
    if (auto island = dyn_cast<tfe::IslandOp>(op)) {
      for (Operation &inner : island.getBlock().without_terminator()) {
        // Operands from the same island are outputs of its other nodes.
        if (failed(addInputs(*nodes[&inner].def, &inner, inner.getOperands(),
                             island.getControlInputs())))
          return failure();
      }
      continue;
    }
    if (isa<tfe::FetchOp>(op))
      continue;
    if (auto sink = dyn_cast<tfe::NextIterationSinkOp>(op)) {
      auto source = sink.getToken().getDefiningOp<tfe::NextIterationSourceOp>();
      if (!source || !nodes.count(source))
        return opError(sink) << "its token does not come from a "
                                "NextIteration.Source";
      if (failed(addInputs(*nodes[source].def, sink, sink.getInput(),
                           sink.getControlInputs())))
        return failure();
      continue;
    }
    if (auto source = dyn_cast<tfe::NextIterationSourceOp>(op)) {
      if (!source.getSink())
        return opError(source) << "it has no NextIteration.Sink";
      continue;
    }
    SmallVector<Value> data, controls;
    for (Value operand : op.getOperands())
      (isControl(operand.getType()) ? controls : data).push_back(operand);
    if (failed(addInputs(*nodes[&op].def, &op, data, controls)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

FailureOr<tfe::GraphOp> Exporter::graphOf(func::FuncOp func) {
  auto fail = [&]() {
    return func.emitError()
           << "cannot export function @" << func.getSymName()
           << ": its body must be one tf_executor.graph whose results it "
              "returns";
  };
  if (func.isExternal())
    return fail();
  Block &body = func.getBody().front();
  if (!llvm::hasNItems(body, 2))
    return fail();
  auto graph = dyn_cast<tfe::GraphOp>(body.front());
  auto ret = dyn_cast<func::ReturnOp>(body.back());
  if (!graph || !ret || !llvm::equal(ret.getOperands(), graph.getResults()))
    return fail();
  return graph;
}

LogicalResult Exporter::exportMain(func::FuncOp main,
                                   tensorflow::GraphDef &out) {
  FailureOr<tfe::GraphOp> graph = graphOf(main);
  if (failed(graph))
    return failure();
  beginBody(/*isFunction=*/false);
  auto errorAt = [&](Location loc) {
    return [loc]() { return emitError(loc) << "cannot export @main: "; };
  };

  // Arguments: Placeholder (or _Arg) nodes named as tf.entry_function says.
  SmallVector<std::string> inputNames = entryNames(main, "inputs");
  if (inputNames.size() != main.getNumArguments())
    inputNames.clear();
  for (BlockArgument arg : main.getArguments()) {
    unsigned i = arg.getArgNumber();
    std::string name = names.claim(
        inputNames.empty() ? "arg" + std::to_string(i) : inputNames[i]);
    args.names.push_back(name);
    FailureOr<tensorflow::DataType> dtype =
        exportDataType(arg.getType(), errorAt(arg.getLoc()));
    if (failed(dtype))
      return failure();
    tensorflow::NodeDef *def = out.add_node();
    def->set_name(name);
    auto &attrs = *def->mutable_attr();
    if (options.graphAsFunction) {
      def->set_op("_Arg");
      attrs["T"].set_type(*dtype);
      attrs["index"].set_i(i);
      addOutputShapes(*def, arg.getType());
      auto resource =
          dyn_cast<tf_type::ResourceType>(getElementTypeOrSelf(arg.getType()));
      if (resource && !resource.getSubtypes().empty()) {
        auto *dtypes = attrs["_handle_dtypes"].mutable_list();
        auto *shapes = attrs["_handle_shapes"].mutable_list();
        for (TensorType subtype : resource.getSubtypes()) {
          auto subDtype = exportDataType(subtype, errorAt(arg.getLoc()));
          if (failed(subDtype))
            return failure();
          dtypes->add_type(*subDtype);
          exportShape(subtype, *shapes->add_shape());
        }
      }
    } else {
      // Written as a tf.Placeholder node would be, so that exporting the
      // re-imported graph gives the same GraphDef.
      def->set_op("Placeholder");
      attrs["dtype"].set_type(*dtype);
      exportShape(arg.getType(), *attrs["shape"].mutable_shape());
      addOutputShapes(*def, arg.getType());
      def->mutable_experimental_debug_info();
    }
  }
  // _Retval names are claimed before the graph's nodes, which give way.
  SmallVector<std::string> retNames;
  tfe::FetchOp fetch = graph->getFetch();
  SmallVector<Value> fetched;
  for (Value v : fetch.getOperands())
    if (!isControl(v.getType()))
      fetched.push_back(v);
  if (options.graphAsFunction) {
    SmallVector<std::string> outputNames = entryNames(main, "outputs");
    if (outputNames.size() != fetched.size())
      outputNames.clear();
    for (unsigned i = 0; i < fetched.size(); ++i)
      retNames.push_back(names.claim(
          outputNames.empty() ? "retval" + std::to_string(i) : outputNames[i]));
  }

  if (failed(createNodes(*graph, [&]() { return out.add_node(); })) ||
      failed(connectNodes(*graph)))
    return failure();
  // The importer creates every NextIteration's source before the other
  // nodes, so a Placeholder written before them would move behind them on
  // the next import: write the arguments after the leading NextIterations,
  // where the re-imported graph has them, so export ∘ import is a fixpoint.
  if (!options.graphAsFunction) {
    auto *nodeList = out.mutable_node();
    int numArgs = main.getNumArguments();
    int end = numArgs;
    while (end < nodeList->size() && nodeList->Get(end).op() == "NextIteration")
      ++end;
    std::rotate(nodeList->begin(), nodeList->begin() + numArgs,
                nodeList->begin() + end);
  }

  for (auto [i, value] : llvm::enumerate(fetched)) {
    if (!options.graphAsFunction)
      break;
    FailureOr<std::string> input = dataInput(value, fetch);
    FailureOr<tensorflow::DataType> dtype =
        exportDataType(value.getType(), errorAt(fetch.getLoc()));
    if (failed(input) || failed(dtype))
      return failure();
    tensorflow::NodeDef *def = out.add_node();
    def->set_name(retNames[i]);
    def->set_op("_Retval");
    def->add_input(*input);
    (*def->mutable_attr())["T"].set_type(*dtype);
    (*def->mutable_attr())["index"].set_i(i);
  }
  return success();
}

LogicalResult Exporter::exportFunction(func::FuncOp func,
                                       tensorflow::FunctionDef &out) {
  FailureOr<tfe::GraphOp> graph = graphOf(func);
  if (failed(graph))
    return failure();
  beginBody(/*isFunction=*/true);
  auto errorFn = [&]() {
    return func.emitError()
           << "cannot export function @" << func.getSymName() << ": ";
  };
  tensorflow::OpDef &signature = *out.mutable_signature();
  signature.set_name(func.getSymName().str());

  if (failed(createNodes(*graph, [&]() { return out.add_node_def(); })))
    return failure();
  // Argument names after the nodes' own, which the graph's inputs use.
  for (BlockArgument arg : func.getArguments()) {
    std::string name = names.claim("arg" + std::to_string(arg.getArgNumber()));
    args.names.push_back(name);
    FailureOr<tensorflow::DataType> dtype =
        exportDataType(arg.getType(), errorFn);
    if (failed(dtype))
      return failure();
    auto *input = signature.add_input_arg();
    input->set_name(name);
    input->set_type(valueDataType(*dtype));
    input->set_is_ref(*dtype > 100);
  }
  if (failed(connectNodes(*graph)))
    return failure();

  tfe::FetchOp fetch = graph->getFetch();
  unsigned index = 0;
  SmallVector<std::string> controlNames;
  for (Value value : fetch.getOperands()) {
    if (isControl(value.getType())) {
      if (failed(controlInputs(value, fetch, controlNames)))
        return failure();
      continue;
    }
    std::string name = "output_" + std::to_string(index++);
    FailureOr<std::string> input = dataInput(value, fetch);
    FailureOr<tensorflow::DataType> dtype =
        exportDataType(value.getType(), errorFn);
    if (failed(input) || failed(dtype))
      return failure();
    auto *output = signature.add_output_arg();
    output->set_name(name);
    output->set_type(valueDataType(*dtype));
    output->set_is_ref(*dtype > 100);
    (*out.mutable_ret())[name] = *input;
  }
  for (StringRef control : controlNames) {
    std::string name = control.drop_front().str(); // "^node"
    if (out.control_ret().count(name))
      continue;
    signature.add_control_output(name);
    (*out.mutable_control_ret())[name] = name;
  }

  // tf.* attributes of the function and of its arguments, prefix dropped.
  for (NamedAttribute attr : func->getAttrs()) {
    StringRef name = attr.getName().strref();
    if (!name.consume_front("tf.") || name == "gradient" ||
        name == "entry_function" || name == "versions")
      continue;
    tensorflow::AttrValue value;
    if (failed(exportAttrValue(attr.getValue(), value, errorFn)))
      return failure();
    (*out.mutable_attr())[name.str()] = std::move(value);
  }
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    for (NamedAttribute attr : func.getArgAttrDict(i)
                                   ? func.getArgAttrDict(i).getValue()
                                   : ArrayRef<NamedAttribute>()) {
      StringRef name = attr.getName().strref();
      if (!name.consume_front("tf."))
        continue;
      tensorflow::AttrValue value;
      if (failed(exportAttrValue(attr.getValue(), value, errorFn)))
        return failure();
      (*(*out.mutable_arg_attr())[i].mutable_attr())[name.str()] =
          std::move(value);
    }
  }
  return success();
}

LogicalResult Exporter::exportModule(tensorflow::GraphDef &out) {
  out.Clear();
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main)
    return module.emitError()
           << "cannot export: the module has no func.func @main";

  // The VersionDef, unless it is all zeros (which is what its absence
  // means), so that a graph without one stays without one.
  if (auto versions = module->getAttrOfType<DictionaryAttr>("tf.versions")) {
    tensorflow::VersionDef *def = out.mutable_versions();
    if (auto producer = versions.getAs<IntegerAttr>("producer"))
      def->set_producer(producer.getInt());
    if (auto min = versions.getAs<IntegerAttr>("min_consumer"))
      def->set_min_consumer(min.getInt());
    if (auto bad = versions.getAs<ArrayAttr>("bad_consumers"))
      for (Attribute v : bad)
        if (auto i = dyn_cast<IntegerAttr>(v))
          def->add_bad_consumers(i.getInt());
    if (def->ByteSizeLong() == 0)
      out.clear_versions();
  }

  // The library, sorted by name as TensorFlow's exporter writes it.
  SmallVector<func::FuncOp> functions;
  for (auto func : module.getOps<func::FuncOp>())
    if (func != main || options.entryFunctionToLibrary)
      functions.push_back(func);
  llvm::sort(functions, [](func::FuncOp a, func::FuncOp b) {
    return a.getSymName() < b.getSymName();
  });
  if (!options.entryFunctionToLibrary && failed(exportMain(main, out)))
    return failure();
  auto *library = out.mutable_library();
  for (func::FuncOp func : functions) {
    if (failed(exportFunction(func, *library->add_function())))
      return failure();
  }
  for (func::FuncOp func : functions) {
    if (auto gradient = func->getAttrOfType<FlatSymbolRefAttr>("tf.gradient")) {
      auto *def = library->add_gradient();
      def->set_function_name(func.getSymName().str());
      def->set_gradient_func(gradient.getValue().str());
    }
  }
  return success();
}

} // namespace

LogicalResult graphdef::exportGraphDef(ModuleOp module,
                                       tensorflow::GraphDef &out,
                                       const GraphExportOptions &options) {
  Exporter exporter(module, options);
  return exporter.exportModule(out);
}
