//===- ImportNodes.cpp - typing and emitting one GraphDef node --*- C++ -*-===//
//
// For one node: its inputs, the number and types of its outputs (from its
// OpDef, its attributes and shape hints), and the tf_executor operation or
// island that stands for it.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/Importer.h"

#include "translate/graphdef/OpRegistry.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::graphdef;
using namespace kiln::graphdef::detail;
namespace tfe = kiln::tf_executor;

NodeKind kiln::graphdef::detail::classify(StringRef op) {
  return llvm::StringSwitch<NodeKind>(op)
      .Cases({"Switch", "RefSwitch"}, NodeKind::Switch)
      .Case("_SwitchN", NodeKind::SwitchN)
      .Cases({"Merge", "RefMerge"}, NodeKind::Merge)
      .Cases({"Enter", "RefEnter"}, NodeKind::Enter)
      .Cases({"Exit", "RefExit"}, NodeKind::Exit)
      .Case("LoopCond", NodeKind::LoopCond)
      .Cases({"NextIteration", "RefNextIteration"}, NodeKind::NextIteration)
      .Case("ControlTrigger", NodeKind::ControlTrigger)
      .Default(NodeKind::Op);
}

/// The function-valued attributes that TensorFlow's importer writes as plain
/// symbol references: those of the functional control-flow and call ops.
/// Elsewhere (SymbolicGradient's f, ...) a function stays #tf_type.func.
bool kiln::graphdef::detail::isSymbolAttr(StringRef opType, StringRef name) {
  static constexpr llvm::StringLiteral kOps[] = {
      "If",   "StatelessIf",   "While",           "StatelessWhile",
      "Case", "StatelessCase", "PartitionedCall", "StatefulPartitionedCall"};
  return llvm::is_contained(kOps, opType) &&
         llvm::is_contained(
             {"f", "then_branch", "else_branch", "cond", "body", "branches"},
             name);
}

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

/// Attribute `name` of `def`, else its default in `opDef`, else null.
static const tensorflow::AttrValue *
findNodeAttr(const tensorflow::NodeDef &def, StringRef name,
             const tensorflow::OpDef *opDef) {
  auto it = def.attr().find(name.str());
  if (it != def.attr().end())
    return &it->second;
  if (opDef)
    for (const auto &attr : opDef->attr())
      if (attr.name() == name && attr.has_default_value())
        return &attr.default_value();
  return nullptr;
}

const tensorflow::AttrValue *
Importer::findAttr(const NodeInfo &info, StringRef name,
                   const tensorflow::OpDef *opDef) {
  return findNodeAttr(*info.def, name, opDef);
}

/// The data types of `def`'s flat outputs, as far as its op type and
/// attributes tell them (DT_INVALID where a type attribute is missing), or
/// nullopt when the number of outputs is unknown (an op Kiln does not know,
/// a length attribute missing). Emits nothing: feeds use it to check the
/// output they name and to type it.
std::optional<SmallVector<tensorflow::DataType>>
Importer::outputDataTypes(const tensorflow::NodeDef &def) {
  auto typeAttr = [&](StringRef name, const tensorflow::OpDef *opDef) {
    const auto *attr = findNodeAttr(def, name, opDef);
    return attr && attr->value_case() == tensorflow::AttrValue::kType
               ? attr->type()
               : tensorflow::DT_INVALID;
  };
  SmallVector<tensorflow::DataType> types;
  auto appendArgs = [&](const auto &args,
                        const tensorflow::OpDef *opDef) -> bool {
    for (const tensorflow::OpDef::ArgDef &arg : args) {
      if (!arg.type_list_attr().empty()) {
        const auto *attr = findNodeAttr(def, arg.type_list_attr(), opDef);
        if (!attr)
          return false;
        for (int t : attr->list().type())
          types.push_back(static_cast<tensorflow::DataType>(t));
        continue;
      }
      int64_t count = 1;
      if (!arg.number_attr().empty()) {
        const auto *attr = findNodeAttr(def, arg.number_attr(), opDef);
        if (!attr || attr->i() < 0 || attr->i() > kMaxNodeOutputs)
          return false;
        count = attr->i();
      }
      tensorflow::DataType dtype = arg.type_attr().empty()
                                       ? arg.type()
                                       : typeAttr(arg.type_attr(), opDef);
      if (arg.is_ref() && dtype != tensorflow::DT_INVALID && dtype < 100)
        dtype = static_cast<tensorflow::DataType>(dtype + 100);
      types.append(count, dtype);
    }
    return true;
  };
  // Control-flow nodes forward the type of their data input 0.
  tensorflow::DataType forwarded = typeAttr("T", nullptr);
  if (StringRef(def.op()).starts_with("Ref") &&
      forwarded != tensorflow::DT_INVALID && forwarded < 100)
    forwarded = static_cast<tensorflow::DataType>(forwarded + 100);
  switch (classify(def.op())) {
  case NodeKind::Switch:
    return SmallVector<tensorflow::DataType>{forwarded, forwarded};
  case NodeKind::SwitchN: {
    const auto *n = findNodeAttr(def, "num_outs", nullptr);
    if (!n || n->i() < 1 || n->i() > kMaxNodeOutputs)
      return std::nullopt;
    return SmallVector<tensorflow::DataType>(n->i(), forwarded);
  }
  case NodeKind::Merge:
    return SmallVector<tensorflow::DataType>{forwarded, tensorflow::DT_INT32};
  case NodeKind::Enter:
  case NodeKind::Exit:
  case NodeKind::NextIteration:
    return SmallVector<tensorflow::DataType>{forwarded};
  case NodeKind::LoopCond:
    return SmallVector<tensorflow::DataType>{tensorflow::DT_BOOL};
  case NodeKind::ControlTrigger:
    return SmallVector<tensorflow::DataType>();
  default:
    break;
  }
  if (const tensorflow::FunctionDef *callee = functions.lookup(def.op())) {
    if (!appendArgs(callee->signature().output_arg(), nullptr))
      return std::nullopt;
    return types;
  }
  if (const tensorflow::OpDef *opDef = lookupOpDef(def.op())) {
    if (!appendArgs(opDef->output_arg(), opDef))
      return std::nullopt;
    return types;
  }
  return std::nullopt;
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
    if (attr->i() > kMaxNodeOutputs)
      return nodeError(info)
             << "attribute '" << arg.number_attr() << "' is " << attr->i()
             << "; Kiln imports at most " << kMaxNodeOutputs
             << " outputs per node";
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

FailureOr<std::optional<std::vector<std::optional<SmallVector<int64_t>>>>>
Importer::outputShapes(NodeInfo &info) {
  auto it = info.def->attr().find("_output_shapes");
  if (it == info.def->attr().end())
    return std::optional<std::vector<std::optional<SmallVector<int64_t>>>>();
  std::vector<std::optional<SmallVector<int64_t>>> shapes;
  for (const auto &shape : it->second.list().shape()) {
    auto dims = convertShape(shape, [&]() { return nodeError(info); });
    if (failed(dims))
      return failure();
    shapes.push_back(*dims);
  }
  return std::optional<std::vector<std::optional<SmallVector<int64_t>>>>(
      std::move(shapes));
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
    // @main's argument types the node (or the fed output).
    info.outputTypes.clear();
    return success();
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
    if (n->i() > kMaxNodeOutputs)
      return nodeError(info) << "attribute 'num_outs' is " << n->i()
                             << "; Kiln imports at most " << kMaxNodeOutputs
                             << " outputs per node";
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
    if (info.maxUsedOutput >= kMaxNodeOutputs)
      return nodeError(info) << "a consumer reads its output "
                             << info.maxUsedOutput << "; Kiln imports at most "
                             << kMaxNodeOutputs << " outputs per node";
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
  auto given = outputShapes(info);
  if (failed(given))
    return failure();
  if (*given && (*given)->size() == elements.size())
    shapes = **given;
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
  // A VarHandleOp is a scalar handle whose resource subtype is the
  // variable's type (its dtype and shape attributes), as TensorFlow's
  // importer writes it: tensor<!tf_type.resource<tensor<2xf32>>>.
  if (def.op() == "VarHandleOp" && elements.size() == 1) {
    auto dtype = def.attr().find("dtype");
    auto shape = def.attr().find("shape");
    if (dtype != def.attr().end() && shape != def.attr().end()) {
      auto element = convertDataType(dtype->second.type(), builder, errorFn);
      auto dims = convertShape(shape->second.shape(), errorFn);
      if (failed(element) || failed(dims))
        return failure();
      elements[0] = tf_type::ResourceType::get(
          builder.getContext(), {makeTensorType(*element, *dims)});
      shapes[0] = SmallVector<int64_t>();
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
    if (const tensorflow::OpDef *opDef = lookupOpDef(info.def->op()))
      if (failed(checkOpDefInputs(info, *opDef, *data)))
        return failure();
    if (info.def->op() == "Const" && failed(checkConst(info)))
      return failure();
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
