//===- ModelJson.cpp - Parse a TF.js model.json -----------------*- C++ -*-===//
//
// model.json is parsed by protobuf's JSON parser against tfjs_model.proto's
// ModelJson, strictly first so that unknown enum names (an unknown DT_*) are
// errors; a file with fields the schema lacks (UpscalerJS writes a NodeDef
// `inputs` next to `input`) is parsed again ignoring them. The binary form
// is then read as `Model`, whose signature keeps the file's order.
//
//===----------------------------------------------------------------------===//

#include "translate/tfjs/ImportTFJS.h"

#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/type_resolver.h"
#include "google/protobuf/util/type_resolver_util.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Regex.h"

using namespace kiln;
using llvm::StringRef;

namespace {

constexpr const char kTypeUrlPrefix[] = "type.googleapis.com";

/// Converts JSON to the binary form of a ModelJson.
google::protobuf::util::Status jsonToBinary(StringRef json, bool lenient,
                                            std::string &binary) {
  static std::unique_ptr<google::protobuf::util::TypeResolver> resolver(
      google::protobuf::util::NewTypeResolverForDescriptorPool(
          kTypeUrlPrefix, google::protobuf::DescriptorPool::generated_pool()));
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = lenient;
  binary.clear();
  return google::protobuf::util::JsonToBinaryString(
      resolver.get(),
      std::string(kTypeUrlPrefix) + "/" +
          tfjs::ModelJson::descriptor()->full_name(),
      google::protobuf::StringPiece(json.data(), json.size()), &binary,
      options);
}

/// The JSON field names of protobuf's error paths.
std::string jsonPath(StringRef path) {
  std::string result = path.str();
  for (auto [from, to] :
       {std::pair<StringRef, StringRef>{"model_topology", "modelTopology"},
        {"weights_manifest", "weightsManifest"},
        {"tensor_shape", "tensorShape"},
        {"user_defined_metadata", "userDefinedMetadata"},
        {"model_initializer", "modelInitializer"},
        {"node_def", "nodeDef"}}) {
    size_t at;
    while ((at = result.find(from.str())) != std::string::npos)
      result.replace(at, from.size(), to.str());
  }
  return result;
}

/// The `name` of `json[top]...[index]` (each step an array under a key),
/// read again with LLVM's JSON parser: this is the error path only.
std::string nameAt(StringRef json,
                   llvm::ArrayRef<std::pair<StringRef, unsigned>> steps,
                   StringRef arrayKeyPrefix = "") {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return "";
  }
  const llvm::json::Value *value = &*parsed;
  if (!arrayKeyPrefix.empty()) {
    const llvm::json::Object *object = value->getAsObject();
    value = object ? object->get(arrayKeyPrefix) : nullptr;
    if (!value)
      return "";
  }
  for (auto [key, index] : steps) {
    const llvm::json::Object *object = value->getAsObject();
    const llvm::json::Array *array = object ? object->getArray(key) : nullptr;
    if (!array || index >= array->size())
      return "";
    value = &(*array)[index];
  }
  const llvm::json::Object *object = value->getAsObject();
  std::optional<StringRef> name =
      object ? object->getString("name") : std::nullopt;
  return name ? name->str() : "";
}

/// Describes a parse error: protobuf's message, preceded by the node or
/// weight whose JSON holds the error.
std::string describeError(StringRef message, StringRef json) {
  // Protobuf writes "(path.to[3].field): reason" for value errors.
  std::string path;
  StringRef reason = message;
  if (message.starts_with("(")) {
    auto [inside, rest] = message.drop_front().split("):");
    path = jsonPath(inside);
    reason = rest.trim();
  } else {
    // A syntax error: protobuf's first line, and where LLVM's parser stops.
    reason = message.split('\n').first.trim().ltrim(": ");
    llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
    if (!parsed)
      return (reason + " (" + llvm::toString(parsed.takeError()) + ")").str();
  }
  std::string subject;
  llvm::SmallVector<StringRef, 4> match;
  unsigned first, second;
  if (llvm::Regex("^modelTopology\\.node\\[([0-9]+)\\]").match(path, &match) &&
      !match[1].getAsInteger(10, first)) {
    std::string name = nameAt(json, {{"node", first}}, "modelTopology");
    subject =
        name.empty() ? "node " + std::to_string(first) : "node '" + name + "'";
  } else if (llvm::Regex("^weightsManifest\\[([0-9]+)\\]\\.weights\\[([0-9]+)"
                         "\\]")
                 .match(path, &match) &&
             !match[1].getAsInteger(10, first) &&
             !match[2].getAsInteger(10, second)) {
    std::string name =
        nameAt(json, {{"weightsManifest", first}, {"weights", second}});
    subject = name.empty() ? "weight " + std::to_string(second) + " of group " +
                                 std::to_string(first)
                           : "weight '" + name + "'";
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!subject.empty())
    os << subject << ": ";
  os << reason;
  if (reason.contains("TYPE_BYTES"))
    os << " (bytes are base64 in protobuf's JSON mapping)";
  if (reason.contains("tensorflow.DataType"))
    os << " (an unknown data type)";
  if (!path.empty())
    os << " at " << path;
  return text;
}

/// Ignoring unknown fields also drops unknown enum names, leaving an
/// attribute without a value or a tensor without a type: reports those
/// (which TF.js's converter never writes) and fails.
bool checkDroppedValues(const tfjs::Model &model, llvm::raw_ostream &errors) {
  auto check = [&](const tensorflow::NodeDef &node) {
    for (const auto &[name, value] : node.attr()) {
      bool dropped =
          value.value_case() == tensorflow::AttrValue::VALUE_NOT_SET ||
          (value.has_tensor() &&
           value.tensor().dtype() == tensorflow::DT_INVALID);
      if (!dropped)
        continue;
      errors << "invalid model.json: node '" << node.name() << "': attribute '"
             << name
             << "' has no value or no data type (model.json has fields "
                "Kiln's schema lacks, and an unknown enum name such as a "
                "DT_* type is dropped with them)\n";
      return false;
    }
    return true;
  };
  for (const auto &node : model.model_topology().node())
    if (!check(node))
      return false;
  for (const auto &function : model.model_topology().library().function())
    for (const auto &node : function.node_def())
      if (!check(node))
        return false;
  return true;
}

} // namespace

std::unique_ptr<tfjs::Model> tfjs::parseModelJson(StringRef json,
                                                  llvm::raw_ostream &errors) {
  std::string binary;
  bool lenient = false;
  auto status = jsonToBinary(json, lenient, binary);
  if (!status.ok() &&
      StringRef(status.message().data(), status.message().size())
          .contains("Cannot find field")) {
    lenient = true;
    status = jsonToBinary(json, lenient, binary);
  }
  if (!status.ok()) {
    errors << "invalid model.json: "
           << describeError(
                  StringRef(status.message().data(), status.message().size()),
                  json)
           << "\n";
    return nullptr;
  }
  auto model = std::make_unique<Model>();
  if (!model->ParseFromString(binary)) {
    errors << "invalid model.json: its binary form does not parse as a "
              "TF.js model\n";
    return nullptr;
  }
  if (lenient && !checkDroppedValues(*model, errors))
    return nullptr;
  return model;
}
