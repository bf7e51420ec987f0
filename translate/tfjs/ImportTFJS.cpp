//===- ImportTFJS.cpp - TF.js graph models to tf_executor MLIR --*- C++ -*-===//
//
// The import runs in four steps, each releasing what the next does not need:
//  1. parse model.json (ModelJson.cpp); the JSON text can go;
//  2. match weightsManifest against the Const nodes and check every shard
//     exists and is long enough, before anything is imported; each weighted
//     Const's value becomes an empty tensor of the weight's shape and the
//     Const's dtype;
//  3. import the GraphDef with the signature's inputs and outputs; the
//     GraphDef can go (the importer turns the empty values into splats,
//     which cost nothing);
//  4. stream each group's shards, one shard in memory at a time, decoding
//     each weight straight into the tf.Const it fills.
// Weights thus exist once, in the MLIRContext, and never as TensorProto
// bytes, which would double the peak memory of large models.
//
//===----------------------------------------------------------------------===//

#include "translate/tfjs/ImportTFJS.h"

#include "translate/graphdef/OpRegistry.h"
#include "translate/tfjs/Weights.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace kiln;
using llvm::StringRef;

namespace {

/// A shape as the options hold it: nullopt is an unknown rank, -1 an
/// unknown size.
using Shape = std::optional<std::vector<int64_t>>;

std::string formatShape(const Shape &shape) {
  if (!shape)
    return "*";
  std::string text = "[";
  for (auto [i, dim] : llvm::enumerate(*shape))
    text += (i ? "," : "") + (dim < 0 ? std::string("?") : std::to_string(dim));
  return text + "]";
}

Shape shapeOf(const tensorflow::TensorShapeProto &proto) {
  if (proto.unknown_rank())
    return std::nullopt;
  std::vector<int64_t> dims;
  for (const auto &dim : proto.dim())
    dims.push_back(dim.size() < 0 ? -1 : dim.size());
  return dims;
}

/// The first dimension size below -1 of `proto` (-1 is an unknown size),
/// or nullopt if there is none.
std::optional<int64_t> invalidDimension(const tensorflow::TensorShapeProto &proto) {
  for (const auto &dim : proto.dim())
    if (dim.size() < -1)
      return dim.size();
  return std::nullopt;
}

/// The most precise shape both allow; nullopt if they conflict.
std::optional<Shape> mergeShapes(const Shape &a, const Shape &b) {
  if (!a)
    return b;
  if (!b)
    return a;
  if (a->size() != b->size())
    return std::nullopt;
  std::vector<int64_t> dims(*a);
  for (auto [i, dim] : llvm::enumerate(*b)) {
    if (dims[i] < 0)
      dims[i] = dim;
    else if (dim >= 0 && dim != dims[i])
      return std::nullopt;
  }
  return Shape(std::move(dims));
}

/// Splits "node:k"; k is 0 when absent. Fails on a malformed index.
std::optional<std::pair<std::string, unsigned>>
splitTensorName(StringRef name) {
  auto [node, index] = name.rsplit(':');
  unsigned k = 0;
  if (index.empty() && !name.ends_with(":"))
    return std::make_pair(name.str(), 0u);
  if (node.empty() || index.getAsInteger(10, k))
    return std::nullopt;
  return std::make_pair(node.str(), k);
}

/// The Const's type: its `dtype`, else its value's.
tensorflow::DataType declaredType(const tensorflow::NodeDef &node) {
  auto dtype = node.attr().find("dtype");
  if (dtype != node.attr().end() &&
      dtype->second.value_case() == tensorflow::AttrValue::kType)
    return dtype->second.type();
  auto value = node.attr().find("value");
  if (value != node.attr().end() && value->second.has_tensor())
    return value->second.tensor().dtype();
  return tensorflow::DT_INVALID;
}

/// True if the TensorProto holds values (content or a typed field).
bool hasValues(const tensorflow::TensorProto &t) {
  return !t.tensor_content().empty() || t.half_val_size() ||
         t.float_val_size() || t.double_val_size() || t.int_val_size() ||
         t.string_val_size() || t.scomplex_val_size() || t.int64_val_size() ||
         t.bool_val_size() || t.dcomplex_val_size() ||
         t.resource_handle_val_size() || t.variant_val_size() ||
         t.uint32_val_size() || t.uint64_val_size() || !t.float8_val().empty();
}

/// A weight to decode (its name is the name of the Consts it fills) and
/// where its bytes are.
struct PlannedWeight {
  StringAttr name;
  tfjs::WeightEncoding encoding;
  /// Offset in the group's stream; nullopt after a string weight.
  std::optional<uint64_t> offset;
};

/// A group of weightsManifest, without the protobuf, which goes before the
/// import.
struct PlannedGroup {
  std::vector<std::string> paths;
  std::vector<PlannedWeight> weights;
};

class Importer {
public:
  Importer(MLIRContext *ctx, StringRef dir) : ctx(ctx), dir(dir.str()) {}

  OwningOpRef<ModuleOp> run(std::unique_ptr<tfjs::Model> model,
                            const tfjs::TFJSImportOptions &options);

private:
  LogicalResult planWeights(tfjs::Model &model);
  LogicalResult checkShards();
  LogicalResult fillWeights(ModuleOp module);

  InFlightDiagnostic weightError(StringRef name) {
    return emitError(NameLoc::get(StringAttr::get(ctx, name)))
           << "weight '" << name << "': ";
  }
  InFlightDiagnostic nodeError(const tensorflow::NodeDef &node) {
    return emitError(NameLoc::get(StringAttr::get(ctx, node.name())))
           << "node '" << node.name() << "' (" << node.op() << "): ";
  }

  MLIRContext *ctx;
  std::string dir;
  std::vector<PlannedGroup> plan;
};

//===----------------------------------------------------------------------===//
// Step 2: the manifest against the graph, and the shards
//===----------------------------------------------------------------------===//

LogicalResult Importer::planWeights(tfjs::Model &model) {
  tensorflow::GraphDef &graph = *model.mutable_model_topology();
  // Every node by name (the graph's and its functions' bodies: TF.js keys
  // weights by node name alone).
  llvm::StringMap<SmallVector<tensorflow::NodeDef *, 1>> nodes;
  for (auto &node : *graph.mutable_node())
    nodes[node.name()].push_back(&node);
  for (auto &function : *graph.mutable_library()->mutable_function())
    for (auto &node : *function.mutable_node_def())
      nodes[node.name()].push_back(&node);

  llvm::StringSet<> weighted;
  const auto &manifest = model.weights_manifest();
  plan.resize(manifest.size());
  for (auto [g, group] : llvm::enumerate(manifest)) {
    plan[g].paths.assign(group.paths().begin(), group.paths().end());
    std::optional<uint64_t> offset = 0;
    for (const tfjs::WeightEntry &weight : group.weights()) {
      StringRef name = weight.name();
      if (name.empty())
        return emitError(UnknownLoc::get(ctx))
               << "a weight of weightsManifest group " << g << " has no name";
      if (!weighted.insert(name).second)
        return weightError(name) << "listed twice in weightsManifest";
      auto it = nodes.find(name);
      if (it == nodes.end())
        return weightError(name) << "no Const node of modelTopology has this "
                                    "name";
      tensorflow::DataType target = tensorflow::DT_INVALID;
      for (tensorflow::NodeDef *node : it->second) {
        if (node->op() != "Const")
          return weightError(name)
                 << "names a node of op '" << node->op() << "', not a Const";
        tensorflow::DataType dtype = declaredType(*node);
        if (dtype == tensorflow::DT_INVALID)
          return nodeError(*node) << "has no dtype";
        if (target != tensorflow::DT_INVALID && dtype != target)
          return weightError(name) << "fills Consts of different types";
        target = dtype;
      }
      auto encoding = tfjs::getWeightEncoding(
          weight, target, [&]() { return weightError(name); });
      if (failed(encoding))
        return failure();
      for (tensorflow::NodeDef *node : it->second) {
        auto &attrs = *node->mutable_attr();
        tensorflow::TensorProto &value = *attrs["value"].mutable_tensor();
        if (value.has_tensor_shape()) {
          Shape declared = shapeOf(value.tensor_shape());
          Shape given(std::vector<int64_t>(weight.shape().begin(),
                                           weight.shape().end()));
          if (declared && declared != given)
            return weightError(name)
                   << "has shape " << formatShape(given)
                   << " in weightsManifest but its Const declares "
                   << formatShape(declared);
        }
        // An empty value of the weight's shape: the importer makes it a
        // zero splat, which fillWeights replaces.
        value.Clear();
        value.set_dtype(target);
        for (int64_t dim : weight.shape())
          value.mutable_tensor_shape()->add_dim()->set_size(dim);
        attrs["dtype"].set_type(target);
      }
      // The NameLoc of the Consts holds the same uniqued string.
      plan[g].weights.push_back(
          {StringAttr::get(ctx, name), *encoding, offset});
      if (auto size = encoding->size(); size && offset)
        *offset += *size;
      else
        offset.reset();
    }
  }

  // Const nodes without a weight need a value of their own.
  for (auto &entry : nodes)
    for (tensorflow::NodeDef *node : entry.second) {
      if (node->op() != "Const" || weighted.contains(node->name()))
        continue;
      auto value = node->attr().find("value");
      if (value == node->attr().end() || !value->second.has_tensor())
        return nodeError(*node) << "has no value and no weight in "
                                   "weightsManifest";
      const tensorflow::TensorProto &tensor = value->second.tensor();
      bool empty =
          llvm::any_of(tensor.tensor_shape().dim(),
                       [](const auto &dim) { return dim.size() == 0; });
      if (!hasValues(tensor) && !empty)
        return nodeError(*node) << "has no value and no weight in "
                                   "weightsManifest";
    }
  return success();
}

LogicalResult Importer::checkShards() {
  for (auto [g, group] : llvm::enumerate(plan)) {
    const std::vector<PlannedWeight> &weights = group.weights;
    // The weight whose bytes reach `offset`, if known.
    auto weightAt = [&](uint64_t offset) -> const PlannedWeight * {
      for (const PlannedWeight &w : weights)
        if (w.offset && w.encoding.size() &&
            *w.offset + *w.encoding.size() > offset)
          return &w;
      return nullptr;
    };
    uint64_t total = 0;
    for (const std::string &path : group.paths) {
      std::string full = tfjs::shardPath(dir, path);
      uint64_t size = 0;
      std::error_code ec = llvm::sys::fs::file_size(full, size);
      if (!ec && llvm::sys::fs::is_directory(full))
        ec = std::make_error_code(std::errc::is_a_directory);
      if (ec) {
        const PlannedWeight *w = weightAt(total);
        auto diag = w ? weightError(w->name) : emitError(UnknownLoc::get(ctx));
        return diag << "cannot read shard '" << path
                    << "' of weightsManifest group " << g << " (" << full
                    << "): " << ec.message();
      }
      total += size;
    }
    // Fixed-size weights must fit; string weights are checked as read.
    uint64_t used = 0;
    bool allFixed = true;
    for (const PlannedWeight &w : weights) {
      if (!w.offset || !w.encoding.size()) {
        allFixed = false;
        break;
      }
      uint64_t end = *w.offset + *w.encoding.size();
      if (end > total)
        return weightError(w.name)
               << "needs bytes [" << *w.offset << ", " << end
               << ") of weightsManifest group " << g << ", but its "
               << group.paths.size() << " shard(s) hold " << total << " bytes";
      used = end;
    }
    // Bytes no weight reads mean that the manifest does not describe the
    // shards (a weight left out, a shard of another model).
    if (allFixed && used < total) {
      auto diag = weights.empty() ? emitError(UnknownLoc::get(ctx))
                                  : weightError(weights.back().name);
      return diag << "weightsManifest group " << g << " ends at byte " << used
                  << ", but its " << group.paths.size() << " shard(s) hold "
                  << total << " bytes";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Step 4: the weights into the module
//===----------------------------------------------------------------------===//

LogicalResult Importer::fillWeights(ModuleOp module) {
  llvm::DenseMap<StringAttr, SmallVector<Operation *, 1>> consts;
  module.walk([&](Operation *op) {
    if (op->getName().getStringRef() == "tf.Const")
      if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
        consts[loc.getName()].push_back(op);
  });
  for (auto [g, group] : llvm::enumerate(plan)) {
    tfjs::ShardStream stream(dir, group.paths);
    for (const PlannedWeight &w : group.weights) {
      StringRef name = w.name;
      auto ops = consts.find(w.name);
      if (ops == consts.end())
        return weightError(name) << "the import has no tf.Const to fill";
      auto type = cast<ElementsAttr>(ops->second.front()->getAttr("value"))
                      .getShapedType();
      uint64_t start = stream.offset();
      std::string why;
      auto readError = [&]() {
        return weightError(name)
               << "cannot read its bytes at offset " << start
               << " of weightsManifest group " << g << ": " << why;
      };
      ElementsAttr attr;
      if (auto size = w.encoding.size()) {
        std::optional<ArrayRef<char>> bytes = stream.read(*size, why);
        if (!bytes)
          return readError();
        auto decoded = tfjs::decodeWeight(w.encoding, *bytes, type,
                                          [&]() { return weightError(name); });
        if (failed(decoded))
          return failure();
        attr = *decoded;
      } else {
        // Strings: a little-endian uint32 length, then the bytes, per value.
        std::vector<std::string> values;
        values.reserve(w.encoding.count);
        for (int64_t i = 0; i < w.encoding.count; ++i) {
          std::optional<ArrayRef<char>> length = stream.read(4, why);
          if (!length)
            return readError();
          uint32_t n = static_cast<uint8_t>((*length)[0]) |
                       static_cast<uint8_t>((*length)[1]) << 8 |
                       static_cast<uint8_t>((*length)[2]) << 16 |
                       static_cast<uint32_t>(static_cast<uint8_t>((*length)[3]))
                           << 24;
          std::optional<ArrayRef<char>> bytes = stream.read(n, why);
          if (!bytes)
            return readError();
          values.emplace_back(bytes->begin(), bytes->end());
        }
        SmallVector<StringRef> refs(values.begin(), values.end());
        attr = cast<ElementsAttr>(DenseStringElementsAttr::get(type, refs));
      }
      for (Operation *op : ops->second)
        op->setAttr("value", attr);
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The steps in order
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Importer::run(std::unique_ptr<tfjs::Model> model,
                                    const tfjs::TFJSImportOptions &options) {
  auto fileError = [&]() { return emitError(UnknownLoc::get(ctx)); };
  if (!model->format().empty() && model->format() != "graph-model") {
    fileError() << "model.json has format '" << model->format()
                << "'; only TF.js graph models (graph-model) can be imported";
    return nullptr;
  }
  if (model->model_topology().node_size() == 0) {
    fileError() << "model.json has no modelTopology nodes";
    return nullptr;
  }
  if (model->model_initializer().node_size() > 0) {
    fileError() << "model.json has a modelInitializer graph (hash table "
                   "initialization), which Kiln does not import";
    return nullptr;
  }
  if (failed(planWeights(*model)) || failed(checkShards()))
    return nullptr;
  // The plan holds what the weights need; the manifest can go.
  google::protobuf::RepeatedPtrField<tfjs::WeightGroup>().Swap(
      model->mutable_weights_manifest());

  std::string errors;
  llvm::raw_string_ostream os(errors);
  std::optional<graphdef::GraphImportOptions> importOptions =
      tfjs::importOptionsFor(*model, options, os);
  if (!importOptions) {
    fileError() << StringRef(errors).rtrim();
    return nullptr;
  }
  OwningOpRef<ModuleOp> module =
      graphdef::importGraphDef(model->model_topology(), *importOptions, ctx);
  model.reset();
  if (!module || failed(fillWeights(*module)))
    return nullptr;
  return module;
}

} // namespace

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

const tfjs::OrderedSignatureDef *tfjs::findSignature(const Model &model) {
  auto nonEmpty = [](const OrderedSignatureDef &s) {
    return s.inputs_size() > 0 || s.outputs_size() > 0;
  };
  if (model.has_signature() && nonEmpty(model.signature()))
    return &model.signature();
  if (model.user_defined_metadata().has_signature() &&
      nonEmpty(model.user_defined_metadata().signature()))
    return &model.user_defined_metadata().signature();
  return nullptr;
}

std::optional<graphdef::GraphImportOptions>
tfjs::importOptionsFor(const Model &model, const TFJSImportOptions &options,
                       llvm::raw_ostream &errors) {
  const tensorflow::GraphDef &graph = model.model_topology();
  llvm::StringMap<const tensorflow::NodeDef *> byName;
  for (const auto &node : graph.node())
    byName[node.name()] = &node;

  // Inputs: (node, signature dtype, signature shape).
  struct Input {
    std::string node;
    tensorflow::DataType dtype = tensorflow::DT_INVALID;
    std::optional<Shape> shape; // unset: not given by the signature
  };
  std::vector<Input> inputs;
  auto addPlaceholders = [&] {
    for (const auto &node : graph.node()) {
      if (node.op() != "Placeholder")
        continue;
      Input input;
      input.node = node.name();
      inputs.push_back(std::move(input));
    }
  };
  graphdef::GraphImportOptions result;
  if (const OrderedSignatureDef *signature = findSignature(model)) {
    for (const SignatureEntry &entry : signature->inputs()) {
      StringRef name =
          entry.value().name().empty() ? entry.key() : entry.value().name();
      auto tensor = splitTensorName(name);
      if (!tensor) {
        errors << "signature input '" << entry.key() << "' names '" << name
               << "', which is not a tensor name (node or node:k)\n";
        return std::nullopt;
      }
      if (tensor->second != 0) {
        errors << "signature input '" << entry.key() << "' is output "
               << tensor->second << " of '" << tensor->first
               << "'; only output 0 of a node can be fed\n";
        return std::nullopt;
      }
      if (!byName.count(tensor->first)) {
        errors << "signature input '" << entry.key() << "' names '" << name
               << "', but the graph has no node '" << tensor->first << "'\n";
        return std::nullopt;
      }
      Input input;
      input.node = tensor->first;
      input.dtype = entry.value().dtype();
      if (entry.value().has_tensor_shape()) {
        if (auto bad = invalidDimension(entry.value().tensor_shape())) {
          errors << "signature input '" << entry.key()
                 << "': shape has invalid dimension size " << *bad << "\n";
          return std::nullopt;
        }
        input.shape = shapeOf(entry.value().tensor_shape());
      }
      inputs.push_back(std::move(input));
    }
    for (const SignatureEntry &entry : signature->outputs()) {
      StringRef name =
          entry.value().name().empty() ? entry.key() : entry.value().name();
      auto tensor = splitTensorName(name);
      if (!tensor) {
        errors << "signature output '" << entry.key() << "' names '" << name
               << "', which is not a tensor name (node or node:k)\n";
        return std::nullopt;
      }
      result.outputs.push_back(tensor->second == 0
                                   ? tensor->first
                                   : tensor->first + ":" +
                                         std::to_string(tensor->second));
    }
    // A signature that names outputs only: the inputs are the Placeholders,
    // as TF.js feeds them.
    if (signature->inputs_size() == 0)
      addPlaceholders();
  } else {
    // No signature: Placeholders in; out, the nodes whose outputs no node
    // reads (control inputs do not count).
    llvm::StringSet<> consumed;
    for (const auto &node : graph.node())
      for (StringRef in : node.input())
        if (!in.starts_with("^"))
          consumed.insert(in.split(':').first);
    addPlaceholders();
    for (const auto &node : graph.node()) {
      if (node.op() == "Placeholder" || consumed.contains(node.name()) ||
          node.op() == "NoOp")
        continue;
      if (const tensorflow::OpDef *opDef = graphdef::lookupOpDef(node.op());
          opDef && opDef->output_arg_size() == 0)
        continue;
      result.outputs.push_back(node.name());
    }
  }

  // -tfjs-input-shapes, one per input.
  std::vector<Shape> given;
  if (!options.inputShapes.empty()) {
    llvm::SmallVector<StringRef> shapes;
    StringRef(options.inputShapes).split(shapes, ':', -1, /*KeepEmpty=*/true);
    if (shapes.size() != inputs.size()) {
      errors << "-tfjs-input-shapes has " << shapes.size()
             << " shapes but the model has " << inputs.size() << " inputs (";
      for (auto [i, input] : llvm::enumerate(inputs))
        errors << (i ? ", " : "") << input.node;
      errors << ")\n";
      return std::nullopt;
    }
    std::string names;
    for (size_t i = 0; i < inputs.size(); ++i)
      names += (i ? "," : "") + inputs[i].node;
    auto parsed = graphdef::parseGraphImportOptions(
        names, "", options.inputShapes, "", "", errors);
    if (!parsed)
      return std::nullopt;
    for (const graphdef::InputSpec &spec : parsed->inputs)
      given.push_back(spec.shape ? *spec.shape : Shape());
  }

  for (auto [i, input] : llvm::enumerate(inputs)) {
    const tensorflow::NodeDef &node = *byName.lookup(input.node);
    graphdef::InputSpec spec;
    spec.node = input.node;
    // The type: the signature's, which must agree with the node's.
    auto dtypeAttr = node.attr().find("dtype");
    tensorflow::DataType nodeType = dtypeAttr != node.attr().end()
                                        ? dtypeAttr->second.type()
                                        : tensorflow::DT_INVALID;
    if (input.dtype != tensorflow::DT_INVALID &&
        nodeType != tensorflow::DT_INVALID && input.dtype != nodeType) {
      errors << "input '" << input.node << "': the signature's type "
             << tensorflow::DataType_Name(input.dtype)
             << " conflicts with the node's dtype "
             << tensorflow::DataType_Name(nodeType) << "\n";
      return std::nullopt;
    }
    spec.dtype = input.dtype;
    // The shape: the node's, refined by the signature's, then by the
    // command line's.
    Shape shape;
    auto shapeAttr = node.attr().find("shape");
    bool known = false;
    if (shapeAttr != node.attr().end() && shapeAttr->second.has_shape()) {
      if (auto bad = invalidDimension(shapeAttr->second.shape())) {
        errors << "input '" << input.node
               << "': the node's shape has invalid dimension size " << *bad
               << "\n";
        return std::nullopt;
      }
      shape = shapeOf(shapeAttr->second.shape());
      known = true;
    }
    if (input.shape) {
      auto merged = mergeShapes(shape, *input.shape);
      if (!merged) {
        errors << "input '" << input.node << "': the signature's shape "
               << formatShape(*input.shape) << " conflicts with the node's "
               << formatShape(shape) << "\n";
        return std::nullopt;
      }
      shape = *merged;
      known = true;
    }
    if (!given.empty()) {
      auto merged = mergeShapes(shape, given[i]);
      if (!merged) {
        errors << "-tfjs-input-shapes gives input '" << input.node
               << "' the shape " << formatShape(given[i])
               << ", which conflicts with its shape " << formatShape(shape)
               << " in the model\n";
        return std::nullopt;
      }
      shape = *merged;
      known = true;
    }
    if (known)
      spec.shape = shape;
    result.inputs.push_back(std::move(spec));
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> tfjs::importTFJSModel(std::unique_ptr<Model> model,
                                            StringRef dir,
                                            const TFJSImportOptions &options,
                                            MLIRContext *context) {
  context->loadDialect<tf_type::TFTypeDialect>();
  return Importer(context, dir).run(std::move(model), options);
}

OwningOpRef<ModuleOp>
tfjs::importTFJSModelFile(StringRef path, const TFJSImportOptions &options,
                          MLIRContext *context) {
  std::unique_ptr<Model> model;
  {
    auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
    if (!file) {
      emitError(UnknownLoc::get(context))
          << "cannot read '" << path << "': " << file.getError().message();
      return nullptr;
    }
    std::string errors;
    llvm::raw_string_ostream os(errors);
    model = parseModelJson((*file)->getBuffer(), os);
    if (!model) {
      emitError(UnknownLoc::get(context))
          << path << ": " << StringRef(errors).rtrim();
      return nullptr;
    }
  } // the JSON text goes here
  return importTFJSModel(std::move(model), llvm::sys::path::parent_path(path),
                         options, context);
}
