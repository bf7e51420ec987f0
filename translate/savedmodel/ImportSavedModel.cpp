//===- ImportSavedModel.cpp - SavedModels and MetaGraphs to MLIR -*- C++ -*-===//
//
// A signature is imported as a GraphDef: the MetaGraph's graph (with the
// attribute defaults a SavedModel strips restored from its op list), fed at
// the signature's inputs and fetched at its outputs. Variables the outputs
// depend on are read from the checkpoint: a TF2 object graph names each
// variable's checkpoint key (a signature's call node passes the variables
// its concrete function captures, `bound_inputs` gives their objects, and
// the checkpoint's own object graph, matched from the root by child names,
// gives their keys); TF1 graphs save a variable under its name. Only the
// functions the kept nodes call stay in the library.
//
//===----------------------------------------------------------------------===//

#include "translate/savedmodel/ImportSavedModel.h"
#include "translate/savedmodel/InlineCalls.h"
#include "translate/savedmodel/TensorBundle.h"

#include "translate/graphdef/ImportGraphDef.h"
#include "translate/graphdef/OpRegistry.h"
#include "translate/proto/trackable_object_graph.pb.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <deque>
#include <functional>
#include <map>

using namespace mlir;
using namespace kiln::savedmodel;
using llvm::StringRef;

namespace {

/// The checkpoint key of a variable's value in an object-based checkpoint.
constexpr StringRef kObjectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";

/// A fed or fetched tensor under the name the signature gives it.
struct NamedTensor {
  std::string key;
  std::string tensor;
  const tensorflow::TensorInfo *info = nullptr;
};

/// "^node", "node", "node:k" -> "node".
StringRef nodeOf(StringRef input) {
  input.consume_front("^");
  return input.split(':').first;
}

bool isVariableOp(StringRef op) {
  return op == "VarHandleOp" || op == "VariableV2" || op == "Variable";
}

/// Adds to every node (of the graph and of its functions) the attributes a
/// SavedModel left out because they equal the default of `ops`.
void restoreDefaultAttrs(tensorflow::GraphDef &graph,
                         const tensorflow::OpList &ops) {
  llvm::StringMap<const tensorflow::OpDef *> byName;
  for (const auto &op : ops.op())
    byName[op.name()] = &op;
  auto fill = [&](tensorflow::NodeDef &node) {
    auto it = byName.find(node.op());
    if (it == byName.end())
      return;
    for (const auto &attr : it->second->attr())
      if (attr.has_default_value() && !node.attr().contains(attr.name()))
        (*node.mutable_attr())[attr.name()] = attr.default_value();
  };
  for (auto &node : *graph.mutable_node())
    fill(node);
  for (auto &function : *graph.mutable_library()->mutable_function())
    for (auto &node : *function.mutable_node_def())
      fill(node);
}

/// The nodes the fetched nodes depend on through data and control inputs,
/// not looking past the fed ones.
llvm::StringSet<> reachableNodes(
    const llvm::StringMap<const tensorflow::NodeDef *> &nodes,
    ArrayRef<std::string> fetched, const llvm::StringSet<> &fed) {
  llvm::StringSet<> seen;
  SmallVector<StringRef> stack;
  for (const std::string &tensor : fetched)
    stack.push_back(nodeOf(tensor));
  while (!stack.empty()) {
    StringRef name = stack.pop_back_val();
    if (!seen.insert(name).second || fed.contains(name))
      continue;
    auto it = nodes.find(name);
    if (it == nodes.end())
      continue;
    for (const std::string &input : it->second->input())
      stack.push_back(nodeOf(input));
  }
  return seen;
}

/// Keeps in the function library only the functions the `reachable` nodes
/// call, directly or through other functions (a SavedModel's library also
/// holds its save and restore functions, of ops Kiln does not import).
void pruneLibrary(tensorflow::GraphDef &graph,
                  const llvm::StringSet<> &reachable) {
  llvm::StringMap<const tensorflow::FunctionDef *> functions;
  for (const auto &function : graph.library().function())
    functions[function.signature().name()] = &function;
  llvm::StringSet<> needed;
  SmallVector<StringRef> stack;
  std::function<void(const tensorflow::AttrValue &)> visitAttr =
      [&](const tensorflow::AttrValue &value) {
        if (value.has_func()) {
          stack.push_back(value.func().name());
          for (const auto &[name, nested] : value.func().attr())
            visitAttr(nested);
        }
        for (const auto &func : value.list().func())
          stack.push_back(func.name());
      };
  auto visitNode = [&](const tensorflow::NodeDef &node) {
    if (functions.count(node.op()))
      stack.push_back(node.op());
    for (const auto &[name, value] : node.attr())
      visitAttr(value);
  };
  for (const auto &node : graph.node())
    if (reachable.contains(node.name()))
      visitNode(node);
  while (!stack.empty()) {
    StringRef name = stack.pop_back_val();
    auto it = functions.find(name);
    if (it == functions.end() || !needed.insert(name).second)
      continue;
    for (const auto &node : it->second->node_def())
      visitNode(node);
  }
  tensorflow::FunctionDefLibrary kept;
  for (const auto &function : graph.library().function())
    if (needed.contains(function.signature().name()))
      *kept.add_function() = function;
  for (const auto &gradient : graph.library().gradient())
    if (needed.contains(gradient.function_name()))
      *kept.add_gradient() = gradient;
  *graph.mutable_library() = std::move(kept);
}

/// Imports `graph` fed at `inputs` and fetched at `outputs`, variables read
/// from the checkpoint at `checkpoint`. `path` prefixes every message.
class SignatureImporter {
public:
  SignatureImporter(const tensorflow::MetaGraphDef &metaGraph,
                    StringRef checkpoint, StringRef path, MLIRContext *ctx)
      : metaGraph(metaGraph), graph(metaGraph.graph_def()),
        checkpoint(checkpoint.str()), path(path.str()), ctx(ctx) {}

  OwningOpRef<ModuleOp> run(ArrayRef<NamedTensor> inputs,
                            ArrayRef<NamedTensor> outputs);

private:
  InFlightDiagnostic error() {
    return emitError(UnknownLoc::get(ctx)) << path << ": ";
  }
  LogicalResult restoreVariables(const llvm::StringSet<> &reachable);
  /// TF2: records the object each variable node passed to a concrete
  /// function's call is (before the calls are inlined).
  void collectBoundVariables();
  /// TF2: the checkpoint keys of those objects, from the checkpoint's object
  /// graph.
  LogicalResult mapObjectGraphKeys();
  TensorBundle *bundle();

  const tensorflow::MetaGraphDef &metaGraph;
  tensorflow::GraphDef graph;
  std::string checkpoint;
  std::string path;
  MLIRContext *ctx;
  std::unique_ptr<TensorBundle> openedBundle;
  /// TF2: variable node -> object id, and -> checkpoint key.
  std::map<std::string, int> objectOfNode;
  llvm::StringMap<std::string> objectGraphKeys;
};

TensorBundle *SignatureImporter::bundle() {
  if (openedBundle)
    return openedBundle.get();
  std::string errors;
  llvm::raw_string_ostream os(errors);
  openedBundle = TensorBundle::open(checkpoint, os);
  if (!openedBundle)
    error() << StringRef(errors).rtrim();
  return openedBundle.get();
}

void SignatureImporter::collectBoundVariables() {
  const tensorflow::SavedObjectGraph &objects = metaGraph.object_graph_def();
  for (const auto &node : graph.node()) {
    auto f = node.attr().find("f");
    if (f == node.attr().end() || !f->second.has_func())
      continue;
    auto fn = objects.concrete_functions().find(f->second.func().name());
    if (fn == objects.concrete_functions().end())
      continue;
    SmallVector<StringRef> data;
    for (const std::string &input : node.input())
      if (!StringRef(input).starts_with("^"))
        data.push_back(input);
    const auto &bound = fn->second.bound_inputs();
    if (data.size() < size_t(bound.size()))
      continue;
    for (int i = 0; i < bound.size(); ++i)
      objectOfNode[nodeOf(data[data.size() - bound.size() + i]).str()] =
          bound[i];
  }
}

LogicalResult SignatureImporter::mapObjectGraphKeys() {
  const tensorflow::SavedObjectGraph &objects = metaGraph.object_graph_def();
  if (objectOfNode.empty())
    return success();
  TensorBundle *checkpointBundle = bundle();
  if (!checkpointBundle)
    return failure();
  if (!checkpointBundle->lookup(kObjectGraphKey))
    return success(); // A name-based checkpoint: keys are node names.
  std::string errors;
  llvm::raw_string_ostream os(errors);
  std::optional<std::string> bytes =
      checkpointBundle->readStringScalar(kObjectGraphKey, os);
  tensorflow::TrackableObjectGraph saved;
  if (!bytes || !saved.ParseFromString(*bytes))
    return error() << "the object graph of checkpoint '" << checkpoint
                   << "' does not parse " << StringRef(errors).rtrim();
  // Match the two object graphs from their roots by child names.
  std::vector<int> trackableOf(objects.nodes_size(), -1);
  std::deque<std::pair<int, int>> queue;
  if (saved.nodes_size() > 0) {
    trackableOf[0] = 0;
    queue.emplace_back(0, 0);
  }
  while (!queue.empty()) {
    auto [object, trackable] = queue.front();
    queue.pop_front();
    for (const auto &child : objects.nodes(object).children()) {
      if (child.node_id() < 0 || child.node_id() >= objects.nodes_size() ||
          trackableOf[child.node_id()] >= 0)
        continue;
      for (const auto &other : saved.nodes(trackable).children())
        if (other.local_name() == child.local_name() &&
            other.node_id() < saved.nodes_size()) {
          trackableOf[child.node_id()] = other.node_id();
          queue.emplace_back(child.node_id(), other.node_id());
          break;
        }
    }
  }
  for (const auto &[node, object] : objectOfNode) {
    if (object < 0 || object >= objects.nodes_size() ||
        trackableOf[object] < 0)
      continue;
    for (const auto &attribute : saved.nodes(trackableOf[object]).attributes())
      if (attribute.name() == "VARIABLE_VALUE")
        objectGraphKeys[node] = attribute.checkpoint_key();
  }
  return success();
}

LogicalResult
SignatureImporter::restoreVariables(const llvm::StringSet<> &reachable) {
  SmallVector<int> variables;
  llvm::StringSet<> names;
  for (auto [i, node] : llvm::enumerate(graph.node())) {
    names.insert(node.name());
    if (reachable.contains(node.name()) && isVariableOp(node.op()))
      variables.push_back(i);
  }
  if (variables.empty())
    return success();
  if (!bundle() || failed(mapObjectGraphKeys()))
    return failure();
  auto unique = [&](const std::string &base) {
    std::string name = base;
    for (int i = 1; names.contains(name); ++i)
      name = base + "_" + std::to_string(i);
    names.insert(name);
    return name;
  };
  // Node -> the restoring assignment its readers wait for.
  llvm::StringMap<std::string> restoredBy;
  for (int index : variables) {
    tensorflow::NodeDef &node = *graph.mutable_node(index);
    std::vector<std::string> keys;
    if (auto it = objectGraphKeys.find(node.name());
        it != objectGraphKeys.end())
      keys.push_back(it->second);
    keys.push_back(node.name());
    if (auto shared = node.attr().find("shared_name");
        shared != node.attr().end() && !shared->second.s().empty() &&
        shared->second.s() != node.name())
      keys.push_back(shared->second.s());
    auto key = llvm::find_if(
        keys, [&](const std::string &k) { return openedBundle->lookup(k); });
    if (key == keys.end())
      return error() << "variable '" << node.name()
                     << "' is not in the checkpoint '" << checkpoint
                     << "' (looked for '" << llvm::join(keys, "', '")
                     << "')";
    std::string errors;
    llvm::raw_string_ostream os(errors);
    std::optional<tensorflow::TensorProto> value =
        openedBundle->readTensor(*key, os);
    if (!value)
      return error() << "variable '" << node.name()
                     << "': " << StringRef(errors).rtrim();
    tensorflow::DataType dtype = node.attr().contains("dtype")
                                     ? node.attr().at("dtype").type()
                                     : value->dtype();
    if (dtype != value->dtype())
      return error() << "variable '" << node.name() << "' is "
                     << tensorflow::DataType_Name(dtype)
                     << ", but the checkpoint holds "
                     << tensorflow::DataType_Name(value->dtype()) << " under '"
                     << *key << "'";
    if (auto shape = node.attr().find("shape");
        shape != node.attr().end() && !shape->second.shape().unknown_rank()) {
      const auto &declared = shape->second.shape();
      const auto &stored = value->tensor_shape();
      bool same = declared.dim_size() == stored.dim_size();
      for (int d = 0; same && d < declared.dim_size(); ++d)
        same = declared.dim(d).size() < 0 ||
               declared.dim(d).size() == stored.dim(d).size();
      if (!same)
        return error() << "variable '" << node.name()
                       << "' does not have the shape of its checkpoint "
                          "value '"
                       << *key << "'";
    }
    if (node.op() != "VarHandleOp") {
      // A reference variable is read through its ref output: a constant of
      // the same name gives its readers the value.
      node.set_op("Const");
      node.clear_attr();
      (*node.mutable_attr())["dtype"].set_type(dtype);
      *(*node.mutable_attr())["value"].mutable_tensor() = std::move(*value);
      continue;
    }
    std::string base = node.name();
    tensorflow::NodeDef constant;
    constant.set_name(unique(base + "/kiln_checkpoint_value"));
    constant.set_op("Const");
    (*constant.mutable_attr())["dtype"].set_type(dtype);
    *(*constant.mutable_attr())["value"].mutable_tensor() = std::move(*value);
    tensorflow::NodeDef assign;
    assign.set_name(unique(base + "/kiln_restore"));
    assign.set_op("AssignVariableOp");
    assign.add_input(base);
    assign.add_input(constant.name());
    (*assign.mutable_attr())["dtype"].set_type(dtype);
    // Marks the restore as the variable's initial value only: it must not
    // run again on every call (tf-resource-variables-to-globals drops it).
    (*assign.mutable_attr())["_kiln_restore"].set_b(true);
    restoredBy[base] = assign.name();
    *graph.add_node() = std::move(constant);
    *graph.add_node() = std::move(assign);
  }
  // Every reader of a restored variable runs after its restore.
  for (auto &node : *graph.mutable_node()) {
    if (!reachable.contains(node.name()))
      continue;
    llvm::SmallSetVector<StringRef, 4> waits;
    for (const std::string &input : node.input())
      if (!StringRef(input).starts_with("^"))
        if (auto it = restoredBy.find(nodeOf(input)); it != restoredBy.end())
          waits.insert(it->second);
    for (StringRef wait : waits)
      node.add_input(("^" + wait).str());
  }
  return success();
}

OwningOpRef<ModuleOp> SignatureImporter::run(ArrayRef<NamedTensor> inputs,
                                             ArrayRef<NamedTensor> outputs) {
  restoreDefaultAttrs(graph, metaGraph.meta_info_def().stripped_op_list());
  // TF2 variables are read inside the functions the signature calls: the
  // object graph's keys are found through the calls, then the calls are
  // inlined so that every read sees its VarHandleOp.
  collectBoundVariables();
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (!inlineFunctionCalls(graph, metaGraph.meta_info_def().stripped_op_list(),
                           os)) {
    error() << StringRef(errors).rtrim();
    return nullptr;
  }
  llvm::StringMap<const tensorflow::NodeDef *> nodes;
  for (const auto &node : graph.node())
    nodes[node.name()] = &node;

  kiln::graphdef::GraphImportOptions options;
  llvm::StringSet<> fed;
  for (const NamedTensor &input : inputs) {
    StringRef tensor = input.tensor;
    if (!nodes.count(nodeOf(tensor))) {
      error() << "input '" << input.key << "' is tensor '" << tensor
              << "', but the graph has no node '" << nodeOf(tensor) << "'";
      return nullptr;
    }
    kiln::graphdef::InputSpec spec;
    spec.node = tensor.ends_with(":0") ? tensor.drop_back(2).str() : tensor.str();
    fed.insert(nodeOf(tensor));
    if (input.info)
      spec.dtype = input.info->dtype();
    // A signature without a shape leaves the node's.
    if (input.info && input.info->has_tensor_shape()) {
      const auto &shape = input.info->tensor_shape();
      if (shape.unknown_rank()) {
        spec.shape.emplace(std::nullopt);
      } else {
        std::vector<int64_t> dims;
        for (const auto &dim : shape.dim())
          dims.push_back(dim.size() < 0 ? -1 : dim.size());
        spec.shape.emplace(std::move(dims));
      }
    }
    options.inputs.push_back(std::move(spec));
  }
  std::vector<std::string> fetched;
  for (const NamedTensor &output : outputs) {
    if (!nodes.count(nodeOf(output.tensor))) {
      error() << "output '" << output.key << "' is tensor '" << output.tensor
              << "', but the graph has no node '" << nodeOf(output.tensor)
              << "'";
      return nullptr;
    }
    fetched.push_back(output.tensor);
    options.outputs.push_back(output.tensor);
  }
  options.pruneUnusedNodes = true;
  llvm::StringSet<> reachable = reachableNodes(nodes, fetched, fed);
  if (failed(restoreVariables(reachable)))
    return nullptr;
  pruneLibrary(graph, reachable);

  OwningOpRef<ModuleOp> module =
      kiln::graphdef::importGraphDef(graph, options, ctx);
  if (!module)
    return nullptr;
  // The entry's inputs and outputs take the signature's names.
  auto main = module->lookupSymbol<func::FuncOp>("main");
  auto entry = main ? main->getAttrOfType<DictionaryAttr>("tf.entry_function")
                    : DictionaryAttr();
  if (entry) {
    auto join = [](ArrayRef<NamedTensor> tensors) {
      return llvm::join(llvm::map_range(tensors,
                                        [](const NamedTensor &t) -> StringRef {
                                          return t.key;
                                        }),
                        ",");
    };
    NamedAttrList attrs(entry);
    Builder b(ctx);
    attrs.set("inputs", b.getStringAttr(join(inputs)));
    attrs.set("outputs", b.getStringAttr(join(outputs)));
    main->setAttr("tf.entry_function", attrs.getDictionary(ctx));
  }
  return module;
}

/// The signature's inputs and outputs, sorted by key.
FailureOr<std::pair<std::vector<NamedTensor>, std::vector<NamedTensor>>>
signatureTensors(const tensorflow::SignatureDef &signature,
                 llvm::function_ref<InFlightDiagnostic()> error) {
  std::pair<std::vector<NamedTensor>, std::vector<NamedTensor>> result;
  auto collect = [&](const auto &map, StringRef kind,
                     std::vector<NamedTensor> &into) -> LogicalResult {
    for (const auto &[key, info] : map) {
      if (info.name().empty())
        return error() << "signature " << kind << " '" << key
                       << "' is a sparse or composite tensor, which Kiln "
                          "does not import";
      into.push_back({key, info.name(), &info});
    }
    llvm::sort(into, [](const NamedTensor &a, const NamedTensor &b) {
      return a.key < b.key;
    });
    return success();
  };
  if (failed(collect(signature.inputs(), "input", result.first)) ||
      failed(collect(signature.outputs(), "output", result.second)))
    return failure();
  return result;
}

/// The signature `key` of `metaGraph`, or null after listing the others.
const tensorflow::SignatureDef *
findSignature(const tensorflow::MetaGraphDef &metaGraph, StringRef key,
              llvm::function_ref<InFlightDiagnostic()> error) {
  auto it = metaGraph.signature_def().find(key.str());
  if (it != metaGraph.signature_def().end())
    return &it->second;
  std::vector<std::string> keys;
  for (const auto &[name, signature] : metaGraph.signature_def())
    if (!StringRef(name).starts_with("__"))
      keys.push_back("'" + name + "'");
  llvm::sort(keys);
  error() << "no signature '" << key << "'; "
          << (keys.empty() ? std::string("the MetaGraph has none")
                           : "available: " + llvm::join(keys, ", "));
  return nullptr;
}

/// A MetaGraph's likely outputs when it has no signature: output 0 of every
/// node no node reads, except the savers' nodes (those that depend on the
/// file name or on a save or restore op), assignments, ops without outputs,
/// constants, placeholders and variable plumbing (handles, initialization
/// checks, plain reads of a variable).
std::vector<NamedTensor>
terminalOutputs(const tensorflow::MetaGraphDef &metaGraph) {
  const tensorflow::GraphDef &graph = metaGraph.graph_def();
  llvm::StringSet<> read;
  llvm::StringMap<const tensorflow::NodeDef *> nodes;
  for (const auto &node : graph.node()) {
    nodes[node.name()] = &node;
    for (const std::string &input : node.input())
      if (!StringRef(input).starts_with("^"))
        read.insert(nodeOf(input));
  }
  llvm::StringSet<> saver;
  if (!metaGraph.saver_def().filename_tensor_name().empty())
    saver.insert(nodeOf(metaGraph.saver_def().filename_tensor_name()));
  for (const auto &node : graph.node())
    if (llvm::is_contained({"SaveV2", "RestoreV2", "MergeV2Checkpoints",
                            "ShardedFilename", "Save", "SaveSlices",
                            "Restore", "RestoreSlice"},
                           StringRef(node.op())))
      saver.insert(node.name());
  for (bool changed = !saver.empty(); changed;) {
    changed = false;
    for (const auto &node : graph.node())
      if (!saver.contains(node.name()) &&
          llvm::any_of(node.input(), [&](const std::string &input) {
            return saver.contains(nodeOf(input));
          }))
        changed = saver.insert(node.name()).second;
  }
  llvm::StringMap<const tensorflow::OpDef *> opDefs;
  for (const auto &op : metaGraph.meta_info_def().stripped_op_list().op())
    opDefs[op.name()] = &op;
  auto isVariable = [&](StringRef input) {
    auto it = nodes.find(nodeOf(input));
    return it != nodes.end() && isVariableOp(it->second->op());
  };
  std::vector<NamedTensor> outputs;
  for (const auto &node : graph.node()) {
    StringRef op = node.op();
    if (read.contains(node.name()) || saver.contains(node.name()) ||
        isVariableOp(op) || op.starts_with("Assign") ||
        llvm::is_contained({"NoOp", "Placeholder", "Const",
                            "VarIsInitializedOp", "IsVariableInitialized",
                            "Assert"},
                           op))
      continue;
    if ((op == "ReadVariableOp" || op == "Identity") && node.input_size() > 0 &&
        isVariable(node.input(0)))
      continue;
    const tensorflow::OpDef *opDef = opDefs.lookup(op);
    if (!opDef)
      opDef = kiln::graphdef::lookupOpDef(op);
    if (opDef && opDef->output_arg_size() == 0)
      continue;
    outputs.push_back({node.name(), node.name(), nullptr});
  }
  return outputs;
}

} // namespace

OwningOpRef<ModuleOp>
kiln::savedmodel::importMetaGraph(const tensorflow::MetaGraphDef &metaGraph,
                                  StringRef path,
                                  const SavedModelImportOptions &options,
                                  MLIRContext *context) {
  auto error = [&]() {
    return emitError(UnknownLoc::get(context)) << path << ": ";
  };
  std::string checkpoint = options.checkpoint;
  if (checkpoint.empty())
    checkpoint = path.ends_with(".meta") ? path.drop_back(5).str() : path.str();
  bool hasSignatures =
      llvm::any_of(metaGraph.signature_def(), [](const auto &entry) {
        return !StringRef(entry.first).starts_with("__");
      });
  std::vector<NamedTensor> inputs, outputs;
  if (hasSignatures && options.outputs.empty()) {
    const tensorflow::SignatureDef *signature =
        findSignature(metaGraph, options.signature, error);
    if (!signature)
      return nullptr;
    auto tensors = signatureTensors(*signature, error);
    if (failed(tensors))
      return nullptr;
    inputs = std::move(tensors->first);
    outputs = std::move(tensors->second);
  } else {
    if (options.outputs.empty()) {
      outputs = terminalOutputs(metaGraph);
    } else {
      SmallVector<StringRef> names;
      StringRef(options.outputs).split(names, ',', -1, /*KeepEmpty=*/false);
      for (StringRef name : names) {
        name = name.trim();
        StringRef key = name.ends_with(":0") ? name.drop_back(2) : name;
        outputs.push_back({key.str(), name.str(), nullptr});
      }
    }
    if (outputs.empty()) {
      error() << "the MetaGraph has no signature and no node that could be "
                 "an output; name the outputs with --outputs";
      return nullptr;
    }
    // Its Placeholders that the outputs need are the inputs, in graph order.
    llvm::StringMap<const tensorflow::NodeDef *> nodes;
    for (const auto &node : metaGraph.graph_def().node())
      nodes[node.name()] = &node;
    std::vector<std::string> fetched;
    for (const NamedTensor &output : outputs)
      fetched.push_back(output.tensor);
    llvm::StringSet<> needed = reachableNodes(nodes, fetched, {});
    for (const auto &node : metaGraph.graph_def().node())
      if ((node.op() == "Placeholder" || node.op() == "PlaceholderV2") &&
          needed.contains(node.name()))
        inputs.push_back({node.name(), node.name(), nullptr});
  }
  return SignatureImporter(metaGraph, checkpoint, path, context)
      .run(inputs, outputs);
}

OwningOpRef<ModuleOp>
kiln::savedmodel::importSavedModel(const tensorflow::SavedModel &model,
                                   StringRef dir,
                                   const SavedModelImportOptions &options,
                                   MLIRContext *context) {
  auto error = [&]() {
    return emitError(UnknownLoc::get(context)) << dir << ": ";
  };
  std::string errors;
  llvm::raw_string_ostream os(errors);
  const tensorflow::MetaGraphDef *metaGraph =
      selectMetaGraph(model, options.tags, dir, os);
  if (!metaGraph) {
    emitError(UnknownLoc::get(context)) << StringRef(errors).rtrim();
    return nullptr;
  }
  const tensorflow::SignatureDef *signature =
      findSignature(*metaGraph, options.signature, error);
  if (!signature)
    return nullptr;
  auto tensors = signatureTensors(*signature, error);
  if (failed(tensors))
    return nullptr;
  std::string checkpoint = options.checkpoint;
  if (checkpoint.empty()) {
    llvm::SmallString<256> prefix(dir);
    llvm::sys::path::append(prefix, "variables", "variables");
    checkpoint = prefix.str().str();
  }
  return SignatureImporter(*metaGraph, checkpoint, dir, context)
      .run(tensors->first, tensors->second);
}
