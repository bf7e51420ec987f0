//===- ExportNodes.cpp - operations to NodeDefs -----------------*- C++ -*-===//
//
// One body's nodes: every operation inside an island becomes a node named by
// its location; a TF1 control-flow op becomes the node of the same type
// (Switch's outputs stay false, true); a NextIteration.Source/Sink pair
// becomes one NextIteration node. Data inputs are `node:k` in the graph and
// `node:output_arg:k` in function bodies (from the producer's OpDef), control
// inputs `^node`.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/Exporter.h"
#include "translate/graphdef/ExportTypes.h"
#include "translate/graphdef/OpRegistry.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::graphdef::detail;

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
/// locations. TensorFlow's importer fuses `<op type>:` before the node's
/// name (`fused["Conv2D:", "model/conv"]`); such a name is skipped.
std::optional<std::string> nameFromLoc(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    StringRef text = name.getName().strref();
    text = text.take_until([](char c) { return c == '@'; });
    if (!text.empty() && !text.ends_with(":"))
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

} // namespace

std::string NameTable::claim(StringRef name) {
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

InFlightDiagnostic kiln::graphdef::detail::opError(Operation *op) {
  return op->emitError() << "cannot export '" << op->getName() << "': ";
}

bool kiln::graphdef::detail::isControl(Type type) {
  return isa<tfe::ControlType>(type);
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

  if (failed(addDerivedAttrs(op, *def, node.opDef)))
    return failure();
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
