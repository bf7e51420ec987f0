//===- Loader.cpp - reading SavedModels and MetaGraphs ----------*- C++ -*-===//
//
// saved_model.pb / .pbtxt and .meta files, the choice of a MetaGraph by
// tag set, and --list-signatures' listing.
//
//===----------------------------------------------------------------------===//

#include "translate/savedmodel/ImportSavedModel.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

#include <set>

using namespace kiln::savedmodel;
using llvm::StringRef;

namespace {

/// Drops the text parser's errors.
class SilentErrors : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int, google::protobuf::io::ColumnNumber,
                const std::string &) override {}
};

/// Parses `message` from binary protobuf, else (when `text` or the bytes do
/// not parse as binary) from text, keeping fields Kiln does not model.
bool parseMessage(google::protobuf::Message &message, StringRef bytes,
                  bool text) {
  if (!text && message.ParseFromArray(bytes.data(), bytes.size()))
    return true;
  message.Clear();
  google::protobuf::TextFormat::Parser parser;
  // The caller reports a failure; protobuf's own log lines would only add
  // noise before it (and name the text parser for binary input).
  SilentErrors silent;
  parser.RecordErrorsTo(&silent);
  parser.AllowUnknownField(true);
  parser.AllowUnknownExtension(true);
  return parser.ParseFromString(std::string(bytes), &message);
}

/// A tag set as a sorted set, from "a,b" or a MetaGraph's tags.
template <typename Range> std::set<std::string> tagSet(const Range &tags) {
  std::set<std::string> set;
  for (const auto &tag : tags)
    if (!StringRef(tag).trim().empty())
      set.insert(StringRef(tag).trim().str());
  return set;
}

std::string joinTags(const std::set<std::string> &tags) {
  return llvm::join(tags, ",");
}

void printTensorInfo(StringRef kind, StringRef key,
                     const tensorflow::TensorInfo &info,
                     llvm::raw_ostream &os) {
  os << "    " << kind << " '" << key
     << "': " << tensorflow::DataType_Name(info.dtype()) << " ";
  const auto &shape = info.tensor_shape();
  if (shape.unknown_rank()) {
    os << "[*]";
  } else {
    os << "[";
    llvm::interleave(
        shape.dim(), os,
        [&](const auto &dim) {
          if (dim.size() < 0)
            os << "?";
          else
            os << dim.size();
        },
        ",");
    os << "]";
  }
  if (info.has_coo_sparse())
    os << " (sparse)";
  else
    os << " (" << info.name() << ")";
  os << "\n";
}

} // namespace

std::optional<tensorflow::SavedModel>
kiln::savedmodel::parseSavedModel(StringRef bytes, bool text, StringRef path,
                                  llvm::raw_ostream &errors) {
  tensorflow::SavedModel model;
  if (!parseMessage(model, bytes, text)) {
    errors << "'" << path << "' is not a SavedModel (saved_model.pb"
           << (text ? "txt" : "") << " does not parse)\n";
    return std::nullopt;
  }
  if (model.meta_graphs_size() == 0) {
    errors << "'" << path << "' holds no MetaGraph\n";
    return std::nullopt;
  }
  return model;
}

std::optional<std::string>
kiln::savedmodel::findSavedModelFile(StringRef dir, llvm::raw_ostream &errors) {
  if (!llvm::sys::fs::is_directory(dir)) {
    errors << "'" << dir << "' is not a SavedModel directory: "
           << (llvm::sys::fs::exists(dir) ? "not a directory"
                                          : "no such directory")
           << "\n";
    return std::nullopt;
  }
  for (StringRef name : {"saved_model.pb", "saved_model.pbtxt"}) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    if (llvm::sys::fs::exists(path))
      return path.str().str();
  }
  errors << "'" << dir
         << "' is not a SavedModel directory: it has no saved_model.pb or "
            "saved_model.pbtxt\n";
  return std::nullopt;
}

std::optional<tensorflow::SavedModel>
kiln::savedmodel::readSavedModel(StringRef dir, llvm::raw_ostream &errors) {
  std::optional<std::string> path = findSavedModelFile(dir, errors);
  if (!path)
    return std::nullopt;
  auto buffer = llvm::MemoryBuffer::getFile(*path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    errors << "cannot read '" << *path
           << "': " << buffer.getError().message() << "\n";
    return std::nullopt;
  }
  return parseSavedModel((*buffer)->getBuffer(),
                         StringRef(*path).ends_with(".pbtxt"), *path, errors);
}

std::optional<tensorflow::MetaGraphDef>
kiln::savedmodel::parseMetaGraph(StringRef bytes, StringRef path,
                                 llvm::raw_ostream &errors) {
  tensorflow::MetaGraphDef metaGraph;
  if (!parseMessage(metaGraph, bytes, /*text=*/false)) {
    errors << "'" << path << "' is not a MetaGraphDef (it does not parse)\n";
    return std::nullopt;
  }
  return metaGraph;
}

const tensorflow::MetaGraphDef *
kiln::savedmodel::selectMetaGraph(const tensorflow::SavedModel &model,
                                  StringRef tags, StringRef path,
                                  llvm::raw_ostream &errors) {
  llvm::SmallVector<StringRef> wanted;
  tags.split(wanted, ',');
  std::set<std::string> want = tagSet(wanted);
  for (const auto &metaGraph : model.meta_graphs())
    if (tagSet(metaGraph.meta_info_def().tags()) == want)
      return &metaGraph;
  errors << "'" << path << "' has no MetaGraph tagged '" << joinTags(want)
         << "'; its tag sets: ";
  llvm::interleave(
      model.meta_graphs(), errors,
      [&](const auto &metaGraph) {
        errors << "'" << joinTags(tagSet(metaGraph.meta_info_def().tags()))
               << "'";
      },
      ", ");
  errors << "\n";
  return nullptr;
}

void kiln::savedmodel::printSignatures(
    const tensorflow::MetaGraphDef &metaGraph, llvm::raw_ostream &os) {
  std::set<std::string> keys;
  for (const auto &[key, signature] : metaGraph.signature_def())
    if (!StringRef(key).starts_with("__"))
      keys.insert(key);
  if (keys.empty())
    os << "  no signatures\n";
  for (const std::string &key : keys) {
    const tensorflow::SignatureDef &signature =
        metaGraph.signature_def().at(key);
    os << "  signature '" << key << "'";
    if (!signature.method_name().empty())
      os << " (" << signature.method_name() << ")";
    os << ":\n";
    std::set<std::string> inputs, outputs;
    for (const auto &[name, info] : signature.inputs())
      inputs.insert(name);
    for (const auto &[name, info] : signature.outputs())
      outputs.insert(name);
    for (const std::string &name : inputs)
      printTensorInfo("input ", name, signature.inputs().at(name), os);
    for (const std::string &name : outputs)
      printTensorInfo("output", name, signature.outputs().at(name), os);
  }
}

void kiln::savedmodel::printSignatures(const tensorflow::SavedModel &model,
                                       llvm::raw_ostream &os) {
  for (const auto &metaGraph : model.meta_graphs()) {
    os << "MetaGraph tagged '"
       << joinTags(tagSet(metaGraph.meta_info_def().tags())) << "':\n";
    printSignatures(metaGraph, os);
  }
}
