//===- ImportGraphDef.cpp - GraphDef to tf_executor MLIR --------*- C++ -*-===//
//
// The importer: one graph body (the GraphDef's nodes, or a FunctionDef's) at
// a time becomes a function holding a tf_executor.graph. Nodes are emitted in
// a topological order that ignores NextIteration back edges (the executor's
// loops): each NextIteration becomes a Source at the top of the graph and a
// Sink at the bottom. How one node is typed and emitted is ImportNodes.cpp.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/Importer.h"

#include "translate/graphdef/OpRegistry.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <deque>

using namespace mlir;
using namespace kiln;
using namespace kiln::graphdef;
using namespace kiln::graphdef::detail;
namespace tfe = kiln::tf_executor;

//===----------------------------------------------------------------------===//
// Bodies
//===----------------------------------------------------------------------===//

LogicalResult Importer::importBody(
    func::FuncOp func, ArrayRef<const tensorflow::NodeDef *> defs,
    bool isFunction, const llvm::StringMap<unsigned> &argumentNodes,
    ArrayRef<FedTensor> fedTensors,
    const llvm::StringMap<unsigned> &functionArgs,
    const BodyOutputs &bodyOutputs) {
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

  // Fed tensors: a stand-in argument node per fed output, and every use of
  // the output (data inputs, fetches) redirected to it. The producer is left
  // with the uses of its other outputs and its control edges.
  BodyOutputs outputs = bodyOutputs;
  if (!fedTensors.empty()) {
    llvm::StringMap<SmallVector<const FedTensor *, 1>> fedByNode;
    for (const FedTensor &feed : fedTensors) {
      const NodeInfo &producer = *nodes.find(feed.node)->second;
      auto info = std::make_unique<NodeInfo>(producer.loc);
      info->def = producer.def;
      info->kind = NodeKind::Argument;
      nodes.insert({feed.name, std::move(info)});
      fedByNode[feed.node].push_back(&feed);
    }
    auto redirect = [&](TensorRef &ref) {
      auto it = fedByNode.find(ref.node);
      if (it == fedByNode.end())
        return;
      for (const FedTensor *feed : it->second)
        if (feed->index == ref.index) {
          ref.node = feed->name;
          ref.index = 0;
          return;
        }
    };
    for (auto &entry : nodes)
      for (TensorRef &ref : entry.second->dataInputs)
        redirect(ref);
    for (TensorRef &ref : outputs.data)
      redirect(ref);
  }

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
static FailureOr<TensorRef> parseOutputName(StringRef text, Location loc) {
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
  SmallVector<FedTensor> fedTensors;
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
      // "node" or "node:k".
      auto [nodeName, indexText] = StringRef(input.node).split(':');
      unsigned index = 0;
      if (StringRef(input.node).contains(':') &&
          (indexText.empty() || indexText.getAsInteger(10, index)))
        return emitError(loc) << "input array '" << input.node
                              << "' has an invalid output index";
      const tensorflow::NodeDef *def = byName.lookup(nodeName);
      if (!def)
        return emitError(loc)
               << "input array '" << input.node << "' names a missing node";
      // Output 0 of a node with one output (or of one whose outputs Kiln
      // cannot count) replaces the whole node; any other output only its
      // uses, as TensorFlow's importer does.
      std::optional<SmallVector<tensorflow::DataType>> outputDtypes =
          outputDataTypes(*def);
      if (outputDtypes && index >= outputDtypes->size())
        return errorAt(nodeName)
               << "input array '" << input.node << "': node '" << nodeName
               << "' (" << def->op() << ") has " << outputDtypes->size()
               << " outputs, so it has no output " << index << " to feed";
      bool wholeNode =
          index == 0 && (!outputDtypes || outputDtypes->size() == 1);
      StringRef argName = wholeNode ? StringRef(def->name())
                                    : saver.save(nodeName + ":" + Twine(index));
      if (argumentNodes.count(argName))
        return emitError(loc)
               << "input array '" << input.node << "' is listed twice";
      tensorflow::DataType dtype = input.dtype;
      if (dtype == tensorflow::DT_INVALID && !wholeNode && outputDtypes)
        dtype = (*outputDtypes)[index];
      if (dtype == tensorflow::DT_INVALID && wholeNode) {
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
      }
      if (dtype == tensorflow::DT_INVALID)
        return errorAt(nodeName)
               << "input array '" << input.node
               << "' has no data type: give -tf-input-data-types or "
               << (wholeNode ? "a 'dtype' attribute"
                             : "the tfcompile feed's type");
      auto inputError = [&]() {
        return errorAt(nodeName) << "input array '" << input.node << "': ";
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
                 wholeNode && attr != def->attr().end()) {
        auto dims = convertShape(attr->second.shape(),
                                 [&]() { return errorAt(nodeName); });
        if (failed(dims))
          return failure();
        shape = *dims;
      } else if (auto attr = def->attr().find("_output_shapes");
                 !wholeNode && attr != def->attr().end() &&
                 attr->second.list().shape_size() > static_cast<int>(index)) {
        // The fed output's shape as the graph records it.
        auto dims = convertShape(attr->second.list().shape(index),
                                 [&]() { return errorAt(nodeName); });
        if (failed(dims))
          return failure();
        shape = *dims;
      }
      if (shape) {
        int64_t count = 1;
        for (int64_t d : *shape)
          if (!ShapedType::isDynamic(d) && llvm::MulOverflow(count, d, count))
            return errorAt(nodeName)
                   << "input array '" << input.node
                   << "': its shape has more elements than int64 can count";
      }
      if (input.shape && *input.shape && wholeNode &&
          failed(checkFeedShape(*def, input.node, *shape)))
        return failure();
      argumentNodes[argName] = argTypes.size();
      if (!wholeNode)
        fedTensors.push_back({argName, def->name(), index});
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
  if (failed(importBody(func, defs, /*isFunction=*/false, argumentNodes,
                        fedTensors, {}, outputs)))
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

LogicalResult Importer::checkFeedShape(const tensorflow::NodeDef &def,
                                       StringRef feed,
                                       ArrayRef<int64_t> shape) {
  // The shape the graph gives the node: a Placeholder's shape, a Const's.
  const tensorflow::TensorShapeProto *given = nullptr;
  if (auto attr = def.attr().find("shape");
      attr != def.attr().end() && attr->second.has_shape())
    given = &attr->second.shape();
  else if (auto value = def.attr().find("value");
           def.op() == "Const" && value != def.attr().end() &&
           value->second.has_tensor())
    given = &value->second.tensor().tensor_shape();
  if (!given)
    return success();
  Location loc = NameLoc::get(StringAttr::get(ctx, def.name()));
  auto dims = convertShape(*given, [&]() { return emitError(loc); });
  if (failed(dims))
    return failure();
  if (!*dims)
    return success();
  bool compatible = (*dims)->size() == shape.size();
  for (size_t i = 0; compatible && i < shape.size(); ++i)
    compatible = ShapedType::isDynamic(shape[i]) ||
                 ShapedType::isDynamic((**dims)[i]) || shape[i] == (**dims)[i];
  if (compatible)
    return success();
  auto print = [](InFlightDiagnostic &diag, ArrayRef<int64_t> d) {
    diag << "[";
    llvm::interleaveComma(d, diag, [&](int64_t v) {
      if (ShapedType::isDynamic(v))
        diag << "?";
      else
        diag << v;
    });
    diag << "]";
  };
  auto diag = emitError(loc) << "input array '" << feed << "': shape ";
  print(diag, shape);
  diag << " conflicts with the shape of node '" << def.name() << "' ("
       << def.op() << "), ";
  print(diag, **dims);
  return diag;
}

void Importer::keepSignature(func::FuncOp func,
                             const tensorflow::FunctionDef &function) {
  // What the exporter cannot derive from the body: the arguments' and
  // results' names, the control outputs' names, statefulness. Without them
  // an export named them arg0, output_0 and after their nodes, and lost
  // is_stateful.
  const tensorflow::OpDef &signature = function.signature();
  auto strings = [&](const auto &range) {
    SmallVector<Attribute> names;
    for (const auto &entry : range)
      names.push_back(builder.getStringAttr(entry.name()));
    return builder.getArrayAttr(names);
  };
  func->setAttr("kiln.input_names", strings(signature.input_arg()));
  func->setAttr("kiln.output_names", strings(signature.output_arg()));
  if (!function.control_ret().empty()) {
    SmallVector<NamedAttribute> controls;
    for (const auto &[name, node] : function.control_ret())
      controls.push_back(
          builder.getNamedAttr(name, builder.getStringAttr(node)));
    func->setAttr("kiln.control_ret", builder.getDictionaryAttr(controls));
  }
  if (signature.is_stateful())
    func->setAttr("kiln.is_stateful", builder.getUnitAttr());
}

LogicalResult Importer::importFunctions() {
  if (!duplicateFunction.empty())
    return emitError(NameLoc::get(StringAttr::get(ctx, duplicateFunction)))
           << "function '" << duplicateFunction
           << "' is defined twice in the library";
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
    if (failed(
            importBody(func, defs, /*isFunction=*/true, {}, {}, args, outputs)))
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
    keepSignature(func, *function);
  }
  return success();
}

/// Refuses a GraphDef whose VersionDef excludes this consumer, as
/// TensorFlow's loader does: Kiln implements the ops of the TensorFlow
/// release whose GraphDef version is kGraphDefConsumerVersion.
static LogicalResult checkGraphDefVersions(const tensorflow::VersionDef &v,
                                           MLIRContext *context) {
  Location loc = UnknownLoc::get(context);
  if (v.min_consumer() > graphdef::kGraphDefConsumerVersion)
    return emitError(loc) << "GraphDef requires consumer version "
                          << v.min_consumer() << " or newer; Kiln implements "
                          << graphdef::kGraphDefConsumerVersion
                          << " (TensorFlow 2.21's graph version)";
  if (llvm::is_contained(v.bad_consumers(),
                         graphdef::kGraphDefConsumerVersion))
    return emitError(loc) << "GraphDef lists consumer version "
                          << graphdef::kGraphDefConsumerVersion
                          << " (Kiln's) among its bad consumers";
  if (v.producer() < 0)
    return emitError(loc) << "GraphDef producer version " << v.producer()
                          << " is negative";
  return success();
}

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
  if (failed(checkGraphDefVersions(versions, context)))
    return nullptr;
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
