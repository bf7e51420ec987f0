//===- ImportGraphDef.cpp - GraphDef to tf_executor MLIR --------*- C++ -*-===//
//
// The importer: one graph body (the GraphDef's nodes, or a FunctionDef's) at
// a time becomes a function holding a tf_executor.graph. Nodes are emitted in
// a topological order that ignores NextIteration back edges (the executor's
// loops): each NextIteration becomes a Source at the top of the graph and a
// Sink at the bottom. Every error names the node at fault.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/ImportGraphDef.h"

#include "translate/graphdef/ConvertTypes.h"
#include "translate/graphdef/OpRegistry.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFExecutor/IR/TFExecutor.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <deque>

using namespace mlir;
using namespace kiln;
using namespace kiln::graphdef;
namespace tfe = kiln::tf_executor;

namespace {

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

NodeKind classify(StringRef op) {
  return llvm::StringSwitch<NodeKind>(op)
      .Cases("Switch", "RefSwitch", NodeKind::Switch)
      .Case("_SwitchN", NodeKind::SwitchN)
      .Cases("Merge", "RefMerge", NodeKind::Merge)
      .Cases("Enter", "RefEnter", NodeKind::Enter)
      .Cases("Exit", "RefExit", NodeKind::Exit)
      .Case("LoopCond", NodeKind::LoopCond)
      .Cases("NextIteration", "RefNextIteration", NodeKind::NextIteration)
      .Case("ControlTrigger", NodeKind::ControlTrigger)
      .Default(NodeKind::Op);
}

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

/// The function-valued attributes that TensorFlow's importer writes as plain
/// symbol references: those of the functional control-flow and call ops.
/// Elsewhere (SymbolicGradient's f, ...) a function stays #tf_type.func.
bool isSymbolAttr(StringRef opType, StringRef name) {
  static constexpr llvm::StringLiteral kOps[] = {
      "If",   "StatelessIf",   "While",           "StatelessWhile",
      "Case", "StatelessCase", "PartitionedCall", "StatefulPartitionedCall"};
  return llvm::is_contained(kOps, opType) &&
         llvm::is_contained(
             {"f", "then_branch", "else_branch", "cond", "body", "branches"},
             name);
}

//===----------------------------------------------------------------------===//
// Importer
//===----------------------------------------------------------------------===//

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
      functions[function.signature().name()] = &function;
    for (const auto &gradient : library.gradient())
      gradients[gradient.function_name()] = gradient.gradient_func();
  }

  LogicalResult importMain(const tensorflow::GraphDef &graph);
  LogicalResult importFunctions();

private:
  // Body import.
  LogicalResult importBody(func::FuncOp func,
                           ArrayRef<const tensorflow::NodeDef *> nodes,
                           bool isFunction,
                           const llvm::StringMap<unsigned> &argumentNodes,
                           const llvm::StringMap<unsigned> &functionArgs,
                           const BodyOutputs &outputs);
  LogicalResult parseInputs(NodeInfo &info, bool isFunction);
  LogicalResult computeOutputs(NodeInfo &info);
  LogicalResult computeOpDefOutputs(NodeInfo &info,
                                    const tensorflow::OpDef &opDef);
  FailureOr<Type> elementTypeOfArg(NodeInfo &info,
                                   const tensorflow::OpDef::ArgDef &arg,
                                   const tensorflow::OpDef *opDef,
                                   SmallVectorImpl<Type> &listTypes,
                                   unsigned &count);
  const tensorflow::AttrValue *findAttr(const NodeInfo &info, StringRef name,
                                        const tensorflow::OpDef *opDef);
  std::optional<std::vector<std::optional<SmallVector<int64_t>>>>
  outputShapes(NodeInfo &info);

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

  // State of the body being imported.
  llvm::MapVector<StringRef, std::unique_ptr<NodeInfo>> nodes;
  llvm::StringMap<Value> functionArgValues;
  bool inFunction = false;
};

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

LogicalResult Importer::parseInputs(NodeInfo &info, bool isFunction) {
  for (const std::string &input : info.def->input()) {
    StringRef text(input);
    if (text.consume_front("^")) {
      info.controlInputs.push_back(text.str());
      continue;
    }
    if (!info.controlInputs.empty())
      return nodeError(info)
             << "data input '" << input << "' follows a control input";
    TensorRef ref;
    ref.text = input;
    SmallVector<StringRef, 3> parts;
    text.split(parts, ':');
    ref.node = parts[0];
    auto parseIndex = [&](StringRef s) -> LogicalResult {
      if (s.getAsInteger(10, ref.index))
        return nodeError(info)
               << "input '" << input << "' has an invalid output index";
      return success();
    };
    if (isFunction) {
      // "arg", "node:output_arg" or "node:output_arg:k".
      if (parts.size() >= 2)
        ref.outputArg = parts[1];
      if (parts.size() == 3 && failed(parseIndex(parts[2])))
        return failure();
      if (parts.size() > 3)
        return nodeError(info) << "input '" << input << "' is malformed";
    } else {
      // "node" or "node:k".
      if (parts.size() == 2 && failed(parseIndex(parts[1])))
        return failure();
      if (parts.size() > 2)
        return nodeError(info) << "input '" << input << "' is malformed";
    }
    if (ref.node.empty())
      return nodeError(info) << "input '" << input << "' names no node";
    info.dataInputs.push_back(std::move(ref));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Output types
//===----------------------------------------------------------------------===//

const tensorflow::AttrValue *
Importer::findAttr(const NodeInfo &info, StringRef name,
                   const tensorflow::OpDef *opDef) {
  auto it = info.def->attr().find(name.str());
  if (it != info.def->attr().end())
    return &it->second;
  if (opDef)
    for (const auto &attr : opDef->attr())
      if (attr.name() == name && attr.has_default_value())
        return &attr.default_value();
  return nullptr;
}

FailureOr<Type> Importer::elementTypeOfArg(NodeInfo &info,
                                           const tensorflow::OpDef::ArgDef &arg,
                                           const tensorflow::OpDef *opDef,
                                           SmallVectorImpl<Type> &listTypes,
                                           unsigned &count) {
  auto errorFn = [&]() { return nodeError(info); };
  count = 1;
  if (!arg.type_list_attr().empty()) {
    const auto *attr = findAttr(info, arg.type_list_attr(), opDef);
    if (!attr)
      return nodeError(info) << "attribute '" << arg.type_list_attr()
                             << "' is missing; it gives the types of output '"
                             << arg.name() << "'";
    for (int t : attr->list().type()) {
      auto type = convertDataType(static_cast<tensorflow::DataType>(t), builder,
                                  errorFn);
      if (failed(type))
        return failure();
      listTypes.push_back(*type);
    }
    count = listTypes.size();
    return Type();
  }
  if (!arg.number_attr().empty()) {
    const auto *attr = findAttr(info, arg.number_attr(), opDef);
    if (!attr || attr->i() < 0)
      return nodeError(info) << "attribute '" << arg.number_attr()
                             << "' is missing or negative; it gives the "
                                "length of output '"
                             << arg.name() << "'";
    count = attr->i();
  }
  tensorflow::DataType dtype = arg.type();
  if (!arg.type_attr().empty()) {
    const auto *attr = findAttr(info, arg.type_attr(), opDef);
    if (!attr || attr->value_case() != tensorflow::AttrValue::kType)
      return nodeError(info) << "attribute '" << arg.type_attr()
                             << "' is missing; it gives the type of output '"
                             << arg.name() << "'";
    dtype = attr->type();
  }
  if (arg.is_ref() && dtype < 100)
    dtype = static_cast<tensorflow::DataType>(dtype + 100);
  return convertDataType(dtype, builder, errorFn);
}

LogicalResult Importer::computeOpDefOutputs(NodeInfo &info,
                                            const tensorflow::OpDef &opDef) {
  for (const auto &arg : opDef.output_arg()) {
    SmallVector<Type> listTypes;
    unsigned count;
    FailureOr<Type> element =
        elementTypeOfArg(info, arg, &opDef, listTypes, count);
    if (failed(element))
      return failure();
    unsigned first = info.outputTypes.size();
    if (!listTypes.empty() || !arg.type_list_attr().empty())
      info.outputTypes.append(listTypes.begin(), listTypes.end());
    else
      info.outputTypes.append(count, *element);
    // Only function bodies name outputs by argument ("node:arg:k"); a
    // StringMap per node is ~10 MB on a 43k-node graph.
    if (inFunction)
      info.outputArgs[arg.name()] = {first, count};
  }
  return success();
}

std::optional<std::vector<std::optional<SmallVector<int64_t>>>>
Importer::outputShapes(NodeInfo &info) {
  auto it = info.def->attr().find("_output_shapes");
  if (it == info.def->attr().end())
    return std::nullopt;
  std::vector<std::optional<SmallVector<int64_t>>> shapes;
  for (const auto &shape : it->second.list().shape()) {
    auto dims = convertShape(shape, [&]() { return nodeError(info); });
    if (failed(dims))
      return std::nullopt;
    shapes.push_back(*dims);
  }
  return shapes;
}

LogicalResult Importer::computeOutputs(NodeInfo &info) {
  const tensorflow::NodeDef &def = *info.def;
  auto errorFn = [&]() { return nodeError(info); };
  // The type of data input 0, when the node forwards it (control flow).
  auto forwardedType = [&]() -> FailureOr<Type> {
    const auto *attr = findAttr(info, "T", nullptr);
    if (!attr)
      return nodeError(info) << "attribute 'T' is missing";
    tensorflow::DataType dtype = attr->type();
    if (def.op().rfind("Ref", 0) == 0 && dtype < 100)
      dtype = static_cast<tensorflow::DataType>(dtype + 100);
    return convertDataType(dtype, builder, errorFn);
  };
  SmallVector<Type> elements;
  std::optional<unsigned> scalarIndexOutput; // Merge's value_index
  switch (info.kind) {
  case NodeKind::Argument:
  case NodeKind::Return:
  case NodeKind::ControlTrigger:
    break;
  case NodeKind::Switch: {
    auto t = forwardedType();
    if (failed(t))
      return failure();
    elements.assign({*t, *t});
    info.outputArgs["output_false"] = {0, 1};
    info.outputArgs["output_true"] = {1, 1};
    break;
  }
  case NodeKind::SwitchN: {
    auto t = forwardedType();
    if (failed(t))
      return failure();
    const auto *n = findAttr(info, "num_outs", nullptr);
    if (!n || n->i() < 1)
      return nodeError(info) << "attribute 'num_outs' is missing or not "
                                "positive";
    elements.assign(n->i(), *t);
    info.outputArgs["output"] = {0, static_cast<unsigned>(n->i())};
    break;
  }
  case NodeKind::Merge: {
    auto t = forwardedType();
    if (failed(t))
      return failure();
    elements.assign({*t, builder.getI32Type()});
    info.outputArgs["output"] = {0, 1};
    info.outputArgs["value_index"] = {1, 1};
    scalarIndexOutput = 1;
    break;
  }
  case NodeKind::Enter:
  case NodeKind::Exit:
  case NodeKind::NextIteration: {
    auto t = forwardedType();
    if (failed(t))
      return failure();
    elements.push_back(*t);
    info.outputArgs["output"] = {0, 1};
    break;
  }
  case NodeKind::LoopCond:
    elements.push_back(builder.getI1Type());
    info.outputArgs["output"] = {0, 1};
    break;
  case NodeKind::FunctionCall: {
    const tensorflow::FunctionDef *callee = functions.lookup(def.op());
    for (const auto &arg : callee->signature().output_arg()) {
      SmallVector<Type> listTypes;
      unsigned count;
      FailureOr<Type> element =
          elementTypeOfArg(info, arg, nullptr, listTypes, count);
      if (failed(element))
        return failure();
      info.outputArgs[arg.name()] = {static_cast<unsigned>(elements.size()),
                                     count};
      if (!arg.type_list_attr().empty())
        elements.append(listTypes.begin(), listTypes.end());
      else
        elements.append(count, *element);
    }
    break;
  }
  case NodeKind::Op: {
    if (const tensorflow::OpDef *opDef = lookupOpDef(def.op())) {
      if (failed(computeOpDefOutputs(info, *opDef)))
        return failure();
      elements = info.outputTypes;
      info.outputTypes.clear();
      break;
    }
    // An op Kiln does not know: as many outputs as consumers use, typed by
    // the usual type attributes.
    if (info.maxUsedOutput < 0)
      break;
    Type element;
    for (StringRef name : {"T", "dtype", "out_type", "Tout", "output_types"}) {
      const auto *attr = findAttr(info, name, nullptr);
      if (!attr)
        continue;
      if (attr->value_case() == tensorflow::AttrValue::kType) {
        auto t = convertDataType(attr->type(), builder, errorFn);
        if (failed(t))
          return failure();
        element = *t;
        break;
      }
      if (attr->list().type_size() > info.maxUsedOutput) {
        for (int i = 0; i <= info.maxUsedOutput; ++i) {
          auto t = convertDataType(
              static_cast<tensorflow::DataType>(attr->list().type(i)), builder,
              errorFn);
          if (failed(t))
            return failure();
          elements.push_back(*t);
        }
        break;
      }
    }
    if (elements.empty()) {
      if (!element)
        return nodeError(info)
               << "op type '" << def.op()
               << "' is unknown to Kiln and its output types cannot be "
                  "determined (it has no T, dtype or out_type attribute)";
      elements.assign(info.maxUsedOutput + 1, element);
    }
    break;
  }
  }

  // Shapes: _output_shapes, the shape attributes of ops that declare their
  // outputs' shapes, a Const's value, a Placeholder's shape.
  std::vector<std::optional<SmallVector<int64_t>>> shapes(elements.size());
  if (auto given = outputShapes(info);
      given && given->size() == elements.size())
    shapes = *given;
  for (StringRef name : {"output_shapes", "shapes"}) {
    auto it = def.attr().find(name.str());
    if (it == def.attr().end() ||
        it->second.list().shape_size() != static_cast<int>(elements.size()) ||
        info.kind != NodeKind::Op)
      continue;
    for (int i = 0; i < it->second.list().shape_size(); ++i) {
      auto dims = convertShape(it->second.list().shape(i), errorFn);
      if (failed(dims))
        return failure();
      shapes[i] = *dims;
    }
  }
  if (def.op() == "InfeedDequeue" && elements.size() == 1) {
    auto it = def.attr().find("shape");
    if (it != def.attr().end()) {
      auto dims = convertShape(it->second.shape(), errorFn);
      if (failed(dims))
        return failure();
      shapes[0] = *dims;
    }
  }
  if (def.op() == "Const" && !elements.empty()) {
    auto it = def.attr().find("value");
    if (it != def.attr().end() && it->second.has_tensor()) {
      auto dims = convertShape(it->second.tensor().tensor_shape(), errorFn);
      if (failed(dims))
        return failure();
      shapes[0] = *dims;
    }
  }
  if (def.op() == "Placeholder" && !elements.empty()) {
    auto it = def.attr().find("shape");
    if (it != def.attr().end()) {
      auto dims = convertShape(it->second.shape(), errorFn);
      if (failed(dims))
        return failure();
      shapes[0] = *dims;
    }
  }
  if (scalarIndexOutput)
    shapes[*scalarIndexOutput] = SmallVector<int64_t>();
  info.outputTypes.clear();
  for (auto [element, shape] : llvm::zip(elements, shapes))
    info.outputTypes.push_back(makeTensorType(element, shape));
  return success();
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

FailureOr<Value> Importer::valueOf(const TensorRef &ref, ErrorFn error) {
  if (inFunction && ref.outputArg.empty()) {
    Value arg = functionArgValues.lookup(ref.node);
    if (!arg)
      return error() << "input '" << ref.text << "' names no function argument";
    return arg;
  }
  auto it = nodes.find(ref.node);
  if (it == nodes.end())
    return error() << "input '" << ref.text << "' names a missing node";
  NodeInfo &producer = *it->second;
  unsigned index = ref.index;
  if (inFunction) {
    auto arg = producer.outputArgs.find(ref.outputArg);
    if (arg == producer.outputArgs.end())
      return error() << "input '" << ref.text << "': node '" << ref.node
                     << "' has no output '" << ref.outputArg << "'";
    if (ref.index >= arg->second.second)
      return error() << "input '" << ref.text << "': output '" << ref.outputArg
                     << "' of '" << ref.node << "' has " << arg->second.second
                     << " values";
    index = arg->second.first + ref.index;
  }
  if (index >= producer.outputs.size())
    return error() << "input '" << ref.text << "' refers to output " << index
                   << " of '" << ref.node << "', which has "
                   << producer.outputs.size() << " outputs";
  return producer.outputs[index];
}

FailureOr<SmallVector<Value>> Importer::dataOperands(NodeInfo &info) {
  SmallVector<Value> values;
  for (const TensorRef &ref : info.dataInputs) {
    FailureOr<Value> v = valueOf(ref, [&]() { return nodeError(info); });
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  return values;
}

SmallVector<Value> Importer::controlOperands(NodeInfo &info) {
  SmallVector<Value> values;
  for (const std::string &name : info.controlInputs) {
    auto it = nodes.find(name);
    if (it != nodes.end() && it->second->control)
      values.push_back(it->second->control);
  }
  return values;
}

FailureOr<SmallVector<NamedAttribute>> Importer::convertAttrs(NodeInfo &info,
                                                              bool symbolRefs) {
  auto errorFn = [&]() { return nodeError(info); };
  std::vector<std::string> names;
  for (const auto &entry : info.def->attr())
    if (entry.first != "_output_shapes")
      names.push_back(entry.first);
  std::sort(names.begin(), names.end());
  SmallVector<NamedAttribute> attrs;
  for (const std::string &name : names) {
    const tensorflow::AttrValue &value = info.def->attr().at(name);
    Attribute attr;
    if (symbolRefs && isSymbolAttr(info.def->op(), name) && value.has_func()) {
      // As TensorFlow's importer: a symbol, and the function's own
      // attributes flattened as `<name>.<attr>`.
      attr = FlatSymbolRefAttr::get(ctx, value.func().name());
      std::vector<std::string> inner;
      for (const auto &entry : value.func().attr())
        inner.push_back(entry.first);
      std::sort(inner.begin(), inner.end());
      for (const std::string &key : inner) {
        auto converted =
            convertAttrValue(value.func().attr().at(key), builder, errorFn);
        if (failed(converted))
          return failure();
        attrs.push_back(builder.getNamedAttr(name + "." + key, *converted));
      }
    } else if (symbolRefs && isSymbolAttr(info.def->op(), name) &&
               value.has_list() && value.list().func_size() > 0) {
      SmallVector<Attribute> refs;
      for (const auto &f : value.list().func())
        refs.push_back(FlatSymbolRefAttr::get(ctx, f.name()));
      attr = builder.getArrayAttr(refs);
    } else {
      auto converted = convertAttrValue(value, builder, errorFn);
      if (failed(converted))
        return failure();
      attr = *converted;
      if (options.splatConstants && name == "value")
        if (auto dense = dyn_cast<DenseElementsAttr>(attr);
            dense && !dense.isSplat() && dense.getNumElements() > 0)
          attr = DenseElementsAttr::get(dense.getType(),
                                        dense.getValues<Attribute>()[0]);
    }
    attrs.push_back(builder.getNamedAttr(name, attr));
  }
  attrs.push_back(builder.getNamedAttr(
      "device", builder.getStringAttr(info.def->device())));
  // Flattened function attributes were added out of order.
  llvm::sort(attrs, [](NamedAttribute a, NamedAttribute b) {
    return a.getName().strref() < b.getName().strref();
  });
  return attrs;
}

Operation *Importer::createIsland(NodeInfo &info, OpBuilder &b,
                                  OperationState &inner) {
  OperationState island(info.loc, tfe::IslandOp::getOperationName());
  island.addOperands(controlOperands(info));
  island.addTypes(inner.types);
  island.addTypes(tfe::ControlType::get(ctx));
  Region *region = island.addRegion();
  Block *block = new Block();
  region->push_back(block);
  OpBuilder innerBuilder(ctx);
  innerBuilder.setInsertionPointToEnd(block);
  Operation *op = innerBuilder.create(inner);
  OperationState yield(info.loc, tfe::YieldOp::getOperationName());
  yield.addOperands(op->getResults());
  innerBuilder.create(yield);
  return b.create(island);
}

LogicalResult Importer::emitNode(NodeInfo &info, OpBuilder &b) {
  if (info.kind == NodeKind::Argument || info.kind == NodeKind::Return ||
      info.kind == NodeKind::NextIteration)
    return success(); // replaced by an argument, a result, a Source/Sink
  auto data = dataOperands(info);
  if (failed(data))
    return failure();
  auto record = [&](Operation *op, unsigned numData) {
    info.outputs.assign(op->result_begin(), op->result_begin() + numData);
    info.control = op->getResults().back();
  };
  auto simple = [&](StringRef name, ArrayRef<NamedAttribute> inherent,
                    unsigned numData) {
    OperationState state(info.loc, name);
    state.addOperands(*data);
    state.addOperands(controlOperands(info));
    state.addTypes(info.outputTypes);
    state.addTypes(tfe::ControlType::get(ctx));
    state.addAttributes(inherent);
    Operation *op = b.create(state);
    record(op, numData);
    return op;
  };
  auto discardable = convertAttrs(info, /*symbolRefs=*/false);
  if (failed(discardable))
    return failure();

  switch (info.kind) {
  case NodeKind::Argument:
  case NodeKind::Return:
  case NodeKind::NextIteration:
    llvm_unreachable("handled above");
  case NodeKind::Switch:
    if (data->size() != 2)
      return nodeError(info) << "expects 2 data inputs, has " << data->size();
    simple(tfe::SwitchOp::getOperationName(), *discardable, 2);
    return success();
  case NodeKind::SwitchN: {
    if (data->size() != 2)
      return nodeError(info) << "expects 2 data inputs, has " << data->size();
    SmallVector<NamedAttribute> attrs(*discardable);
    simple(tfe::SwitchNOp::getOperationName(), attrs, info.outputTypes.size());
    return success();
  }
  case NodeKind::Merge:
    if (data->empty())
      return nodeError(info) << "expects at least one data input";
    simple(tfe::MergeOp::getOperationName(), *discardable, 2);
    return success();
  case NodeKind::Enter: {
    if (data->size() != 1)
      return nodeError(info) << "expects 1 data input, has " << data->size();
    const auto *frame = findAttr(info, "frame_name", nullptr);
    if (!frame || frame->s().empty())
      return nodeError(info) << "attribute 'frame_name' is missing";
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute attr : *discardable)
      if (attr.getName() != "frame_name" &&
          attr.getName() != "parallel_iterations" &&
          attr.getName() != "is_constant")
        attrs.push_back(attr);
    attrs.push_back(
        builder.getNamedAttr("frame_name", builder.getStringAttr(frame->s())));
    if (const auto *n = findAttr(info, "parallel_iterations", nullptr))
      attrs.push_back(builder.getNamedAttr("parallel_iterations",
                                           builder.getI64IntegerAttr(n->i())));
    if (const auto *c = findAttr(info, "is_constant", nullptr))
      attrs.push_back(
          builder.getNamedAttr("is_constant", builder.getBoolAttr(c->b())));
    simple(tfe::EnterOp::getOperationName(), attrs, 1);
    return success();
  }
  case NodeKind::Exit:
  case NodeKind::LoopCond:
    if (data->size() != 1)
      return nodeError(info) << "expects 1 data input, has " << data->size();
    simple(info.kind == NodeKind::Exit ? tfe::ExitOp::getOperationName()
                                       : tfe::LoopCondOp::getOperationName(),
           *discardable, 1);
    return success();
  case NodeKind::ControlTrigger: {
    OperationState state(info.loc, tfe::ControlTriggerOp::getOperationName());
    state.addOperands(controlOperands(info));
    state.addTypes(tfe::ControlType::get(ctx));
    state.addAttributes(*discardable);
    info.control = b.create(state)->getResult(0);
    return success();
  }
  case NodeKind::FunctionCall: {
    OperationState call(info.loc, "tf.LegacyCall");
    call.addOperands(*data);
    call.addTypes(info.outputTypes);
    for (NamedAttribute attr : *discardable)
      if (attr.getName() != "_disable_call_shape_inference")
        call.addAttribute(attr.getName(), attr.getValue());
    call.addAttribute("f", FlatSymbolRefAttr::get(ctx, info.def->op()));
    const auto *disable =
        findAttr(info, "_disable_call_shape_inference", nullptr);
    call.addAttribute("_disable_call_shape_inference",
                      builder.getBoolAttr(disable && disable->b()));
    record(createIsland(info, b, call), info.outputTypes.size());
    return success();
  }
  case NodeKind::Op: {
    auto attrs = convertAttrs(info, /*symbolRefs=*/true);
    if (failed(attrs))
      return failure();
    // TensorFlow's importer folds the Stateless variants of the functional
    // control-flow ops into one op with an is_stateless attribute.
    StringRef opType = info.def->op();
    std::optional<bool> stateless;
    if (llvm::is_contained({"If", "While", "Case"}, opType))
      stateless = false;
    if (opType.consume_front("Stateless") &&
        llvm::is_contained({"If", "While", "Case"}, opType))
      stateless = true;
    else if (stateless != false)
      opType = info.def->op();
    OperationState state(info.loc, ("tf." + opType).str());
    state.addOperands(*data);
    state.addTypes(info.outputTypes);
    state.addAttributes(*attrs);
    if (stateless)
      state.addAttribute("is_stateless", builder.getBoolAttr(*stateless));
    record(createIsland(info, b, state), info.outputTypes.size());
    return success();
  }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Bodies
//===----------------------------------------------------------------------===//

LogicalResult Importer::importBody(
    func::FuncOp func, ArrayRef<const tensorflow::NodeDef *> defs,
    bool isFunction, const llvm::StringMap<unsigned> &argumentNodes,
    const llvm::StringMap<unsigned> &functionArgs, const BodyOutputs &outputs) {
  nodes.clear();
  functionArgValues.clear();
  inFunction = isFunction;
  Block *entry = func.addEntryBlock();

  // Index and classify the nodes.
  for (const tensorflow::NodeDef *def : defs) {
    auto info = std::make_unique<NodeInfo>(
        NameLoc::get(StringAttr::get(ctx, def->name())));
    info->def = def;
    if (def->name().empty())
      return emitError(info->loc)
             << "a node of op '" << def->op() << "' has no name";
    if (def->op().empty())
      return emitError(info->loc)
             << "node '" << def->name() << "' has no op type";
    info->kind = classify(def->op());
    if (argumentNodes.count(def->name()))
      info->kind = NodeKind::Argument;
    else if (functions.count(def->op()) && info->kind == NodeKind::Op)
      info->kind = NodeKind::FunctionCall;
    if (options.graphAsFunction && !isFunction && def->op() == "_Retval")
      info->kind = NodeKind::Return;
    if (failed(parseInputs(*info, isFunction)))
      return failure();
    StringRef name = def->name();
    if (!nodes.insert({name, std::move(info)}).second)
      return emitError(NameLoc::get(StringAttr::get(ctx, name)))
             << "node '" << name << "' is defined twice";
  }
  for (const auto &arg : functionArgs)
    functionArgValues[arg.getKey()] = entry->getArgument(arg.getValue());

  // Check references and record used output indices.
  auto checkRef = [&](NodeInfo &consumer, StringRef producer,
                      StringRef text) -> LogicalResult {
    if (nodes.count(producer) || (isFunction && functionArgs.count(producer)))
      return success();
    return nodeError(consumer) << "input '" << text << "' names a missing node";
  };
  for (auto &[name, info] : nodes) {
    for (const TensorRef &ref : info->dataInputs) {
      if (failed(checkRef(*info, ref.node, ref.text)))
        return failure();
      if (!isFunction)
        if (auto it = nodes.find(ref.node); it != nodes.end())
          it->second->maxUsedOutput =
              std::max<int>(it->second->maxUsedOutput, ref.index);
    }
    for (const std::string &control : info->controlInputs)
      if (failed(checkRef(*info, control, "^" + control)))
        return failure();
  }
  for (const TensorRef &ref : outputs.data) {
    auto it = nodes.find(ref.node);
    if (isFunction && ref.outputArg.empty() && functionArgs.count(ref.node))
      continue; // a function returning one of its arguments
    if (it == nodes.end())
      return emitError(func.getLoc())
             << "output '" << ref.text << "' names a missing node";
    it->second->maxUsedOutput =
        std::max<int>(it->second->maxUsedOutput, ref.index);
  }
  for (const std::string &name : outputs.control)
    if (!nodes.count(name))
      return emitError(func.getLoc())
             << "control output '" << name << "' names a missing node";

  // Pruning: keep what the outputs need (plus _Arg/_Retval in functions).
  llvm::StringSet<> keep;
  if (options.pruneUnusedNodes && !isFunction) {
    std::vector<StringRef> work;
    for (const TensorRef &ref : outputs.data)
      if (nodes.count(ref.node))
        work.push_back(nodes.find(ref.node)->first);
    for (const std::string &name : outputs.control)
      work.push_back(nodes.find(name)->first);
    for (const auto &arg : argumentNodes)
      work.push_back(nodes.find(arg.getKey())->first);
    while (!work.empty()) {
      StringRef name = work.back();
      work.pop_back();
      if (!keep.insert(name).second)
        continue;
      NodeInfo &info = *nodes.find(name)->second;
      if (info.kind == NodeKind::Argument)
        continue; // a fed node's inputs are not needed
      for (const TensorRef &ref : info.dataInputs)
        if (nodes.count(ref.node))
          work.push_back(nodes.find(ref.node)->first);
      for (const std::string &c : info.controlInputs)
        work.push_back(nodes.find(c)->first);
    }
  } else {
    for (auto &entry : nodes)
      keep.insert(entry.first);
  }

  // Output types.
  for (auto &[name, info] : nodes)
    if (keep.contains(name) && failed(computeOutputs(*info)))
      return failure();

  // Arguments take the place of their nodes' output 0.
  for (const auto &arg : argumentNodes) {
    NodeInfo &info = *nodes.find(arg.getKey())->second;
    info.outputs.push_back(entry->getArgument(arg.getValue()));
  }

  // The graph.
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(entry);
  OperationState graphState(func.getLoc(), tfe::GraphOp::getOperationName());
  Region *graphRegion = graphState.addRegion();
  Block *graphBlock = new Block();
  graphRegion->push_back(graphBlock);
  OpBuilder g(ctx);
  g.setInsertionPointToEnd(graphBlock);

  // NextIteration sources first: their values reach back into the loop.
  for (auto &[name, info] : nodes) {
    if (!keep.contains(name) || info->kind != NodeKind::NextIteration)
      continue;
    OperationState source(info->loc,
                          tfe::NextIterationSourceOp::getOperationName());
    source.addTypes({info->outputTypes[0], tfe::TokenType::get(ctx),
                     tfe::ControlType::get(ctx)});
    auto attrs = convertAttrs(*info, false);
    if (failed(attrs))
      return failure();
    source.addAttributes(*attrs);
    Operation *op = g.create(source);
    info->outputs.push_back(op->getResult(0));
    info->token = op->getResult(1);
    info->control = op->getResult(2);
  }

  // Topological order over everything else (Kahn), stable in node order.
  auto isBackEdgeSource = [&](StringRef producer) {
    auto it = nodes.find(producer);
    return it == nodes.end() || !keep.contains(producer) ||
           it->second->kind == NodeKind::NextIteration ||
           it->second->kind == NodeKind::Argument;
  };
  llvm::StringMap<unsigned> pending;
  llvm::StringMap<SmallVector<StringRef>> users;
  std::deque<StringRef> ready;
  for (auto &[name, info] : nodes) {
    if (!keep.contains(name))
      continue;
    llvm::StringSet<> deps;
    for (const TensorRef &ref : info->dataInputs)
      if (!isBackEdgeSource(ref.node))
        deps.insert(ref.node);
    for (const std::string &c : info->controlInputs)
      if (!isBackEdgeSource(c))
        deps.insert(c);
    pending[name] = deps.size();
    for (const auto &dep : deps)
      users[dep.getKey()].push_back(name);
    if (deps.empty())
      ready.push_back(name);
  }
  unsigned emitted = 0;
  SmallVector<NodeInfo *> sinks;
  while (!ready.empty()) {
    StringRef name = ready.front();
    ready.pop_front();
    ++emitted;
    NodeInfo &info = *nodes.find(name)->second;
    if (info.kind == NodeKind::NextIteration)
      sinks.push_back(&info);
    else if (failed(emitNode(info, g)))
      return failure();
    if (info.kind == NodeKind::NextIteration)
      continue; // nothing depends on the sink
    for (StringRef user : users[name])
      if (--pending[user] == 0)
        ready.push_back(user);
  }
  unsigned total = 0;
  for (auto &entry : nodes)
    total += keep.contains(entry.first);
  if (emitted != total) {
    auto diag = emitError(func.getLoc())
                << "the graph has a cycle that does not pass through a "
                   "NextIteration node; nodes on or after it:";
    unsigned listed = 0;
    for (auto &entry : nodes) // in the GraphDef's order
      if (pending.lookup(entry.first) > 0 && listed++ < 8)
        diag << " '" << entry.first << "'";
    return failure();
  }
  for (NodeInfo *info : sinks) {
    auto data = dataOperands(*info);
    if (failed(data))
      return failure();
    if (data->size() != 1)
      return nodeError(*info) << "expects 1 data input, has " << data->size();
    OperationState sink(info->loc,
                        tfe::NextIterationSinkOp::getOperationName());
    sink.addOperands(info->token);
    sink.addOperands(*data);
    sink.addOperands(controlOperands(*info));
    auto attrs = convertAttrs(*info, false);
    if (failed(attrs))
      return failure();
    sink.addAttributes(*attrs);
    g.create(sink);
  }

  // Fetch.
  SmallVector<Value> fetched;
  for (const TensorRef &ref : outputs.data) {
    FailureOr<Value> v = valueOf(ref, [&]() {
      return emitError(func.getLoc()) << "output '" << ref.text << "': ";
    });
    if (failed(v))
      return failure();
    fetched.push_back(*v);
  }
  SmallVector<Type> resultTypes;
  for (Value v : fetched)
    resultTypes.push_back(v.getType());
  for (const std::string &name : outputs.control) {
    NodeInfo &info = *nodes.find(name)->second;
    if (!info.control)
      return emitError(func.getLoc())
             << "control output '" << name << "' has no control result";
    fetched.push_back(info.control);
  }
  OperationState fetch(func.getLoc(), tfe::FetchOp::getOperationName());
  fetch.addOperands(fetched);
  g.create(fetch);
  graphState.addTypes(resultTypes);
  Operation *graphOp = b.create(graphState);
  func::ReturnOp::create(b, func.getLoc(), graphOp->getResults());
  func.setType(FunctionType::get(ctx, func.getArgumentTypes(), resultTypes));
  return success();
}

//===----------------------------------------------------------------------===//
// main and the library
//===----------------------------------------------------------------------===//

/// Parses "node" or "node:k" of -tf-output-arrays.
FailureOr<TensorRef> parseOutputName(StringRef text, Location loc) {
  TensorRef ref;
  ref.text = text;
  auto [node, index] = text.split(':');
  ref.node = node;
  if (!index.empty() && index.getAsInteger(10, ref.index))
    return emitError(loc) << "output '" << text
                          << "' has an invalid output index";
  return ref;
}

LogicalResult Importer::importMain(const tensorflow::GraphDef &graph) {
  Location loc = NameLoc::get(StringAttr::get(ctx, "main"));
  SmallVector<const tensorflow::NodeDef *> defs;
  for (const auto &node : graph.node())
    defs.push_back(&node);
  llvm::StringMap<const tensorflow::NodeDef *> byName;
  for (const auto *def : defs)
    byName[def->name()] = def;

  SmallVector<Type> argTypes;
  llvm::StringMap<unsigned> argumentNodes;
  SmallVector<std::string> inputNames;
  BodyOutputs outputs;
  auto errorAt = [&](StringRef node) {
    return emitError(NameLoc::get(StringAttr::get(ctx, node)));
  };

  if (options.graphAsFunction) {
    // _Arg and _Retval nodes, ordered by their `index`.
    std::map<int64_t, const tensorflow::NodeDef *> args, rets;
    for (const auto *def : defs) {
      auto index = def->attr().find("index");
      if (def->op() != "_Arg" && def->op() != "_Retval")
        continue;
      if (index == def->attr().end())
        return errorAt(def->name())
               << "node '" << def->name() << "' (" << def->op()
               << "): attribute 'index' is "
                  "missing";
      (def->op() == "_Arg" ? args : rets)[index->second.i()] = def;
    }
    for (auto [i, def] : args) {
      auto t = def->attr().find("T");
      if (t == def->attr().end())
        return errorAt(def->name()) << "node '" << def->name()
                                    << "' (_Arg): attribute 'T' is missing";
      auto element = convertDataType(t->second.type(), builder, [&]() {
        return errorAt(def->name()) << "node '" << def->name() << "': ";
      });
      if (failed(element))
        return failure();
      Type type = *element;
      // Resource handles carry the dtypes and shapes of their contents.
      auto dtypes = def->attr().find("_handle_dtypes");
      auto shapes = def->attr().find("_handle_shapes");
      if (isa<tf_type::ResourceType>(type) && dtypes != def->attr().end() &&
          shapes != def->attr().end() &&
          dtypes->second.list().type_size() ==
              shapes->second.list().shape_size()) {
        SmallVector<TensorType> subtypes;
        for (int k = 0; k < dtypes->second.list().type_size(); ++k) {
          auto sub = convertDataType(
              static_cast<tensorflow::DataType>(dtypes->second.list().type(k)),
              builder, [&]() { return errorAt(def->name()); });
          auto dims = convertShape(shapes->second.list().shape(k),
                                   [&]() { return errorAt(def->name()); });
          if (failed(sub) || failed(dims))
            return failure();
          subtypes.push_back(makeTensorType(*sub, *dims));
        }
        type = tf_type::ResourceType::get(ctx, subtypes);
      }
      std::optional<SmallVector<int64_t>> shape;
      auto outShapes = def->attr().find("_output_shapes");
      if (outShapes != def->attr().end() &&
          outShapes->second.list().shape_size() == 1) {
        auto dims = convertShape(outShapes->second.list().shape(0),
                                 [&]() { return errorAt(def->name()); });
        if (failed(dims))
          return failure();
        shape = *dims;
      }
      argumentNodes[def->name()] = argTypes.size();
      argTypes.push_back(makeTensorType(type, shape));
      inputNames.push_back(def->name());
    }
    for (auto [i, def] : rets) {
      if (def->input_size() < 1)
        return errorAt(def->name())
               << "node '" << def->name() << "' (_Retval): has no input";
      auto ref = parseOutputName(def->input(0), loc);
      if (failed(ref))
        return failure();
      outputs.data.push_back(*ref);
    }
  } else {
    for (const InputSpec &input : options.inputs) {
      const tensorflow::NodeDef *def = byName.lookup(input.node);
      if (!def)
        return emitError(loc)
               << "input array '" << input.node << "' names a missing node";
      if (argumentNodes.count(input.node))
        return emitError(loc)
               << "input array '" << input.node << "' is listed twice";
      tensorflow::DataType dtype = input.dtype;
      if (dtype == tensorflow::DT_INVALID) {
        // The node's `dtype`, or the type of its output 0 per its OpDef.
        std::string typeAttr = "dtype";
        if (!def->attr().count(typeAttr))
          if (const tensorflow::OpDef *opDef = lookupOpDef(def->op());
              opDef && opDef->output_arg_size() > 0) {
            const auto &out = opDef->output_arg(0);
            if (out.type() != tensorflow::DT_INVALID)
              dtype = out.type();
            typeAttr = out.type_attr();
          }
        if (auto attr = def->attr().find(typeAttr);
            dtype == tensorflow::DT_INVALID && attr != def->attr().end())
          dtype = attr->second.type();
        if (dtype == tensorflow::DT_INVALID)
          return errorAt(input.node)
                 << "input array '" << input.node
                 << "' has no data type: give -tf-input-data-types or a "
                    "'dtype' attribute";
      }
      auto inputError = [&]() {
        return errorAt(input.node) << "input array '" << input.node << "': ";
      };
      auto element = convertDataType(dtype, builder, inputError);
      if (failed(element))
        return failure();
      if (!input.subtypes.empty()) {
        SmallVector<TensorType> subtypes;
        for (const auto &[subDtype, subShape] : input.subtypes) {
          auto sub = convertDataType(subDtype, builder, inputError);
          if (failed(sub))
            return failure();
          std::optional<SmallVector<int64_t>> dims;
          if (subShape) {
            dims.emplace();
            for (int64_t d : *subShape)
              dims->push_back(d < 0 ? ShapedType::kDynamic : d);
          }
          subtypes.push_back(makeTensorType(*sub, dims));
        }
        element = Type(tf_type::ResourceType::get(ctx, subtypes));
      }
      std::optional<SmallVector<int64_t>> shape;
      if (input.shape) {
        if (*input.shape) {
          shape.emplace();
          for (int64_t d : **input.shape)
            shape->push_back(d < 0 ? ShapedType::kDynamic : d);
        }
      } else if (auto attr = def->attr().find("shape");
                 attr != def->attr().end()) {
        auto dims = convertShape(attr->second.shape(),
                                 [&]() { return errorAt(input.node); });
        if (failed(dims))
          return failure();
        shape = *dims;
      }
      argumentNodes[input.node] = argTypes.size();
      argTypes.push_back(makeTensorType(*element, shape));
      inputNames.push_back(input.node);
    }
    for (const std::string &name : options.outputs) {
      auto ref = parseOutputName(name, loc);
      if (failed(ref))
        return failure();
      outputs.data.push_back(*ref);
    }
    for (const std::string &name : options.controlOutputs)
      outputs.control.push_back(name);
  }

  auto func =
      func::FuncOp::create(loc, "main", FunctionType::get(ctx, argTypes, {}));
  module.push_back(func);
  if (failed(importBody(func, defs, /*isFunction=*/false, argumentNodes, {},
                        outputs)))
    return failure();

  // tf.entry_function = {control_outputs, inputs, outputs}.
  SmallVector<std::string> outputNames;
  for (const TensorRef &ref : outputs.data)
    outputNames.push_back(ref.text.str());
  if (options.graphAsFunction) {
    outputNames.clear();
    for (const auto *def : defs)
      if (def->op() == "_Retval")
        outputNames.push_back(def->name());
  }
  auto join = [](ArrayRef<std::string> names) {
    std::string joined;
    for (const std::string &name : names)
      joined += (joined.empty() ? "" : ",") + name;
    return joined;
  };
  // TensorFlow's importer records the entry signature only when one was
  // asked for.
  if (inputNames.empty() && outputNames.empty() && outputs.control.empty())
    return success();
  SmallVector<std::string> controlNames(outputs.control.begin(),
                                        outputs.control.end());
  NamedAttribute entryAttrs[] = {
      builder.getNamedAttr("control_outputs",
                           builder.getStringAttr(join(controlNames))),
      builder.getNamedAttr("inputs", builder.getStringAttr(join(inputNames))),
      builder.getNamedAttr("outputs", builder.getStringAttr(join(outputNames))),
  };
  func->setAttr("tf.entry_function", builder.getDictionaryAttr(entryAttrs));
  return success();
}

LogicalResult Importer::importFunctions() {
  for (auto &[name, function] : functions) {
    const tensorflow::OpDef &signature = function->signature();
    Location loc = NameLoc::get(StringAttr::get(ctx, name));
    auto errorFn = [&]() {
      return emitError(loc) << "function '" << name << "': ";
    };
    SmallVector<Type> argTypes;
    llvm::StringMap<unsigned> args;
    for (const auto &arg : signature.input_arg()) {
      tensorflow::DataType dtype = arg.type();
      if (dtype == tensorflow::DT_INVALID)
        return errorFn() << "input '" << arg.name()
                         << "' has no concrete type (type attribute '"
                         << arg.type_attr()
                         << "'); only instantiated functions can be imported";
      if (arg.is_ref() && dtype < 100)
        dtype = static_cast<tensorflow::DataType>(dtype + 100);
      auto element = convertDataType(dtype, builder, errorFn);
      if (failed(element))
        return failure();
      args[arg.name()] = argTypes.size();
      argTypes.push_back(UnrankedTensorType::get(*element));
    }
    auto func =
        func::FuncOp::create(loc, name, FunctionType::get(ctx, argTypes, {}));
    func.setPrivate();
    module.push_back(func);

    // Returns: the signature's outputs, in order, from `ret`.
    BodyOutputs outputs;
    for (const auto &arg : signature.output_arg()) {
      auto it = function->ret().find(arg.name());
      if (it == function->ret().end())
        return errorFn() << "output '" << arg.name() << "' has no ret entry";
      TensorRef ref;
      ref.text = it->second;
      SmallVector<StringRef, 3> parts;
      StringRef(it->second).split(parts, ':');
      ref.node = parts[0];
      if (parts.size() >= 2)
        ref.outputArg = parts[1];
      if (parts.size() == 3 && parts[2].getAsInteger(10, ref.index))
        return errorFn() << "ret '" << it->second << "' is malformed";
      outputs.data.push_back(ref);
    }
    for (const auto &entry : function->control_ret())
      outputs.control.push_back(entry.second);

    SmallVector<const tensorflow::NodeDef *> defs;
    for (const auto &node : function->node_def())
      defs.push_back(&node);
    if (failed(importBody(func, defs, /*isFunction=*/true, {}, args, outputs)))
      return failure();

    // Attributes: the function's attrs under tf., argument attributes, and
    // the gradient.
    std::vector<std::string> attrNames;
    for (const auto &entry : function->attr())
      attrNames.push_back(entry.first);
    std::sort(attrNames.begin(), attrNames.end());
    for (const std::string &attrName : attrNames) {
      auto value =
          convertAttrValue(function->attr().at(attrName), builder, errorFn);
      if (failed(value))
        return failure();
      func->setAttr("tf." + attrName, *value);
    }
    for (const auto &[index, argAttrs] : function->arg_attr()) {
      if (index >= func.getNumArguments())
        return errorFn() << "arg_attr names argument " << index << " of "
                         << func.getNumArguments();
      for (const auto &[attrName, value] : argAttrs.attr()) {
        auto converted = convertAttrValue(value, builder, errorFn);
        if (failed(converted))
          return failure();
        func.setArgAttr(index, "tf." + attrName, *converted);
      }
    }
    if (auto grad = gradients.find(name); grad != gradients.end())
      func->setAttr("tf.gradient", FlatSymbolRefAttr::get(ctx, grad->second));
  }
  return success();
}

} // namespace

OwningOpRef<ModuleOp>
graphdef::importGraphDef(const tensorflow::GraphDef &graph,
                         const GraphImportOptions &options,
                         MLIRContext *context) {
  context
      ->loadDialect<func::FuncDialect, tf::TFDialect,
                    tf_executor::TFExecutorDialect, tf_type::TFTypeDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(context));
  Builder b(context);
  const auto &versions = graph.versions();
  SmallVector<Attribute> bad;
  for (int v : versions.bad_consumers())
    bad.push_back(b.getI32IntegerAttr(v));
  (*module)->setAttr(
      "tf.versions",
      b.getDictionaryAttr(
          {b.getNamedAttr("bad_consumers", b.getArrayAttr(bad)),
           b.getNamedAttr("min_consumer",
                          b.getI32IntegerAttr(versions.min_consumer())),
           b.getNamedAttr("producer",
                          b.getI32IntegerAttr(versions.producer()))}));
  Importer importer(*module, graph.library(), options);
  if (failed(importer.importMain(graph)) || failed(importer.importFunctions()))
    return nullptr;
  if (failed(verify(*module)))
    return nullptr;
  return module;
}
