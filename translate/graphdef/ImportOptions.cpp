//===- ImportOptions.cpp - GraphDef parsing and import options --*- C++ -*-===//
//
// tf-mlir-translate's input/output flags, tfcompile configs, and reading a
// GraphDef from text or binary protobuf.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/ImportGraphDef.h"

#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/text_format.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace kiln;
using llvm::StringRef;

namespace {

/// Splits `list` on `sep`; an empty string is an empty list.
llvm::SmallVector<StringRef> splitList(StringRef list, char sep) {
  llvm::SmallVector<StringRef> items;
  if (list.empty())
    return items;
  list.split(items, sep, /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  for (StringRef &item : items)
    item = item.trim();
  return items;
}

/// Splits `list` on `sep` outside parentheses.
llvm::SmallVector<StringRef> splitTopLevel(StringRef list, char sep) {
  llvm::SmallVector<StringRef> items;
  if (list.empty())
    return items;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '(')
      ++depth;
    else if (list[i] == ')')
      --depth;
    else if (list[i] == sep && depth == 0) {
      items.push_back(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  items.push_back(list.drop_front(start).trim());
  return items;
}

/// Parses one shape of -tf-input-shapes: "1,2", "?,3", "*" or "" (scalar).
std::optional<std::optional<std::vector<int64_t>>>
parseShape(StringRef text, llvm::raw_ostream &errors) {
  if (text == "*")
    return std::optional<std::vector<int64_t>>();
  std::vector<int64_t> dims;
  for (StringRef dim : splitList(text, ',')) {
    int64_t size;
    if (dim == "?") {
      dims.push_back(-1);
      continue;
    }
    if (dim.getAsInteger(10, size) || size < -1) {
      errors << "invalid dimension '" << dim << "' in input shape '" << text
             << "' (expected a size, -1 or ?)\n";
      return std::nullopt;
    }
    dims.push_back(size);
  }
  return std::optional<std::vector<int64_t>>(std::move(dims));
}

/// Collects text-format parse errors with their positions.
class CollectErrors : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string &message) override {
    if (!first.empty())
      return;
    first = "line " + std::to_string(line + 1) + ", column " +
            std::to_string(column + 1) + ": " + message;
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber,
                  const std::string &) override {}
  std::string first;
};

/// True if `bytes` look like protobuf text rather than wire format: valid
/// UTF-8 without control characters other than white space.
bool looksLikeText(StringRef bytes) {
  for (unsigned char c : bytes)
    if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t'))
      return false;
  const auto *begin = reinterpret_cast<const llvm::UTF8 *>(bytes.begin());
  return llvm::isLegalUTF8String(
      &begin, reinterpret_cast<const llvm::UTF8 *>(bytes.end()));
}

} // namespace

std::optional<graphdef::GraphImportOptions>
graphdef::parseGraphImportOptions(StringRef inputArrays, StringRef dataTypes,
                                  StringRef shapes, StringRef outputArrays,
                                  StringRef controlOutputArrays,
                                  llvm::raw_ostream &errors) {
  GraphImportOptions options;
  llvm::SmallVector<StringRef> names = splitList(inputArrays, ',');
  llvm::SmallVector<StringRef> types = splitTopLevel(dataTypes, ',');
  // Shapes are ':'-separated, one per input ("" is a scalar); no string at
  // all means "take the nodes' shapes".
  llvm::SmallVector<StringRef> shapeList;
  if (!shapes.empty())
    shapes.split(shapeList, ':', -1, /*KeepEmpty=*/true);

  if (!types.empty() && types.size() != names.size()) {
    errors << "-tf-input-data-types has " << types.size()
           << " entries but -tf-input-arrays names " << names.size()
           << " inputs\n";
    return std::nullopt;
  }
  if (!shapeList.empty() && shapeList.size() != names.size()) {
    errors << "-tf-input-shapes has " << shapeList.size()
           << " shapes but -tf-input-arrays names " << names.size()
           << " inputs\n";
    return std::nullopt;
  }
  for (auto [i, name] : llvm::enumerate(names)) {
    if (name.empty()) {
      errors << "-tf-input-arrays has an empty name at position " << i << "\n";
      return std::nullopt;
    }
    InputSpec input;
    input.node = name.str();
    if (!types.empty() && !types[i].empty()) {
      tensorflow::DataType dtype;
      StringRef typeText = types[i];
      // DT_RESOURCE(shape:DT_X;...): the subtypes of a resource.
      auto [base, rest] = typeText.split('(');
      if (!rest.empty()) {
        if (!rest.consume_back(")") || base.trim() != "DT_RESOURCE") {
          errors << "invalid data type '" << typeText << "' for input '" << name
                 << "' (only DT_RESOURCE takes subtypes)\n";
          return std::nullopt;
        }
        for (StringRef sub : splitTopLevel(rest, ';')) {
          auto [shapeText, subType] = sub.rsplit(':');
          if (subType.empty())
            std::swap(shapeText, subType); // "DT_X" alone: unranked
          tensorflow::DataType subDtype;
          if (!tensorflow::DataType_Parse(subType.trim().str(), &subDtype)) {
            errors << "unknown data type '" << subType << "' in '" << typeText
                   << "' for input '" << name << "'\n";
            return std::nullopt;
          }
          std::optional<std::vector<int64_t>> subShape;
          if (!shapeText.empty()) {
            auto parsed = parseShape(shapeText.trim(), errors);
            if (!parsed)
              return std::nullopt;
            subShape = *parsed;
          }
          input.subtypes.emplace_back(subDtype, subShape);
        }
        typeText = base.trim();
      }
      if (!tensorflow::DataType_Parse(typeText.str(), &dtype)) {
        errors << "unknown data type '" << typeText << "' for input '" << name
               << "' (expected a DataType name such as DT_FLOAT)\n";
        return std::nullopt;
      }
      input.dtype = dtype;
    }
    if (!shapeList.empty()) {
      auto shape = parseShape(shapeList[i].trim(), errors);
      if (!shape)
        return std::nullopt;
      input.shape = *shape;
    }
    options.inputs.push_back(std::move(input));
  }
  for (StringRef output : splitList(outputArrays, ','))
    options.outputs.push_back(output.str());
  for (StringRef output : splitList(controlOutputArrays, ','))
    options.controlOutputs.push_back(output.str());
  return options;
}

std::optional<tensorflow::tf2xla::Config>
graphdef::readTfcompileConfig(StringRef path, llvm::raw_ostream &errors) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    errors << "cannot read tfcompile config '" << path
           << "': " << file.getError().message() << "\n";
    return std::nullopt;
  }
  return parseTfcompileConfig((*file)->getBuffer(), path, errors);
}

std::optional<tensorflow::tf2xla::Config>
graphdef::parseTfcompileConfig(StringRef bytes, StringRef name,
                               llvm::raw_ostream &errors) {
  tensorflow::tf2xla::Config config;
  std::string text = bytes.str();
  google::protobuf::TextFormat::Parser parser;
  CollectErrors collect;
  parser.RecordErrorsTo(&collect);
  if (parser.ParseFromString(text, &config))
    return config;
  // Text that does not parse is reported with the text parser's first
  // error; anything else may be the binary form.
  if (looksLikeText(bytes)) {
    errors << "'" << name << "' is not a tfcompile config (tf2xla.Config): "
           << collect.first << "\n";
    return std::nullopt;
  }
  config.Clear();
  // A string field that is not UTF-8 fails the parse, which is reported
  // below; protobuf's own log line would only add noise before it.
  google::protobuf::LogSilencer silence;
  if (!config.ParseFromString(text)) {
    errors << "'" << name << "' is not a tfcompile config (tf2xla.Config)\n";
    return std::nullopt;
  }
  return config;
}

std::optional<graphdef::GraphImportOptions>
graphdef::optionsFromTfcompileConfig(const tensorflow::tf2xla::Config &config,
                                     llvm::raw_ostream &errors) {
  GraphImportOptions options;
  for (const auto &feed : config.feed()) {
    if (feed.id().node_name().empty()) {
      errors << "tfcompile config: a feed has no node_name\n";
      return std::nullopt;
    }
    if (feed.id().output_index() < 0) {
      errors << "tfcompile config: feed '" << feed.id().node_name()
             << "' has the negative output_index " << feed.id().output_index()
             << "\n";
      return std::nullopt;
    }
    InputSpec input;
    input.node = feed.id().node_name();
    if (feed.id().output_index() != 0)
      input.node += ":" + std::to_string(feed.id().output_index());
    input.dtype = feed.type();
    if (feed.has_shape()) {
      if (feed.shape().unknown_rank()) {
        input.shape = std::optional<std::vector<int64_t>>();
      } else {
        std::vector<int64_t> dims;
        int64_t count = 1;
        for (const auto &dim : feed.shape().dim()) {
          if (dim.size() < -1) {
            errors << "tfcompile config: feed '" << feed.id().node_name()
                   << "' has invalid dimension size " << dim.size() << "\n";
            return std::nullopt;
          }
          if (dim.size() >= 0 && llvm::MulOverflow(count, dim.size(), count)) {
            errors << "tfcompile config: feed '" << feed.id().node_name()
                   << "' has a shape with more elements than int64 can "
                      "count\n";
            return std::nullopt;
          }
          dims.push_back(dim.size());
        }
        input.shape = std::optional<std::vector<int64_t>>(dims);
      }
    }
    options.inputs.push_back(std::move(input));
  }
  for (const auto &fetch : config.fetch()) {
    if (fetch.id().node_name().empty()) {
      errors << "tfcompile config: a fetch has no node_name\n";
      return std::nullopt;
    }
    if (fetch.id().output_index() < 0) {
      errors << "tfcompile config: fetch '" << fetch.id().node_name()
             << "' has the negative output_index "
             << fetch.id().output_index() << "\n";
      return std::nullopt;
    }
    std::string name = fetch.id().node_name();
    if (fetch.id().output_index() != 0)
      name += ":" + std::to_string(fetch.id().output_index());
    if (llvm::is_contained(options.outputs, name)) {
      errors << "tfcompile config: fetch '" << name << "' is listed twice\n";
      return std::nullopt;
    }
    options.outputs.push_back(name);
  }
  // As tfcompile: a computation without results is a mistake.
  if (options.outputs.empty()) {
    errors << "tfcompile config: no fetch; tfcompile needs at least one\n";
    return std::nullopt;
  }
  return options;
}

std::optional<tensorflow::GraphDef>
graphdef::parseGraphDef(StringRef bytes, StringRef format,
                        llvm::raw_ostream &errors) {
  tensorflow::GraphDef graph;
  auto parseBinary = [&]() {
    // As for configs: the failure is reported, not protobuf's log line.
    google::protobuf::LogSilencer silence;
    return graph.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  };
  std::string textError;
  auto parseText = [&]() {
    google::protobuf::TextFormat::Parser parser;
    CollectErrors collect;
    parser.RecordErrorsTo(&collect);
    std::string text = bytes.str();
    bool ok = parser.ParseFromString(text, &graph);
    textError = collect.first;
    return ok;
  };
  if (bytes.size() > static_cast<size_t>(INT32_MAX)) {
    errors << "GraphDef of " << bytes.size()
           << " bytes exceeds protobuf's 2 GiB limit\n";
    return std::nullopt;
  }
  if (format == "pb") {
    if (parseBinary())
      return graph;
    errors << "not a valid binary GraphDef (truncated or corrupt protobuf)\n";
    return std::nullopt;
  }
  if (format == "pbtxt") {
    if (parseText())
      return graph;
    errors << "not a valid text GraphDef: " << textError << "\n";
    return std::nullopt;
  }
  if (looksLikeText(bytes)) {
    if (parseText())
      return graph;
    errors << "not a valid text GraphDef: " << textError << "\n";
    return std::nullopt;
  }
  graph.Clear();
  if (parseBinary())
    return graph;
  errors << "not a valid binary GraphDef (truncated or corrupt protobuf)\n";
  return std::nullopt;
}
