//===- Ranges.cpp - calibrated ranges and their keys ------------*- C++ -*-===//
//
// The ranges an int8 partition quantises with: one [min, max] per tensor,
// keyed by the TensorFlow node that produces it, read from and written to
// the calibration file (JSON) in a fixed order so that the same ranges give
// the same bytes.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToNPU/TFToNPU.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <cmath>

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_to_npu;

void RangeTable::observe(StringRef key, ArrayRef<float> data) {
  auto it = ranges.find(key.str());
  bool seen = it != ranges.end();
  Range range = seen ? it->second : Range{};
  for (float value : data) {
    if (!std::isfinite(value))
      continue;
    if (!seen) {
      range = {value, value};
      seen = true;
      continue;
    }
    range.min = std::min<double>(range.min, value);
    range.max = std::max<double>(range.max, value);
  }
  if (seen)
    ranges[key.str()] = range;
}

const Range *RangeTable::lookup(StringRef key) const {
  auto it = ranges.find(key.str());
  return it == ranges.end() ? nullptr : &it->second;
}

void RangeTable::writeJSON(raw_ostream &os) const {
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("format", "kiln-npu-ranges");
    json.attribute("version", 1);
    json.attribute("samples", samples);
    json.attributeObject("ranges", [&] {
      for (const auto &[key, range] : ranges)
        json.attributeObject(key, [&] {
          json.attribute("min", range.min);
          json.attribute("max", range.max);
        });
    });
  });
  os << "\n";
}

llvm::Expected<RangeTable> RangeTable::readJSON(StringRef text) {
  auto error = [](const Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   message.str());
  };
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return error("not JSON: " + llvm::toString(parsed.takeError()));
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root || root->getString("format") != "kiln-npu-ranges")
    return error("not a calibration file (expected \"format\": "
                 "\"kiln-npu-ranges\")");
  if (root->getInteger("version") != 1)
    return error("unsupported version (expected 1)");
  const llvm::json::Object *entries = root->getObject("ranges");
  if (!entries)
    return error("no \"ranges\" object");
  RangeTable table;
  if (std::optional<int64_t> samples = root->getInteger("samples"))
    table.samples = *samples;
  for (const auto &[key, value] : *entries) {
    const llvm::json::Object *entry = value.getAsObject();
    std::optional<double> min = entry ? entry->getNumber("min") : std::nullopt;
    std::optional<double> max = entry ? entry->getNumber("max") : std::nullopt;
    if (!min || !max || !(*min <= *max))
      return error("range '" + key.str() +
                   "' needs numbers \"min\" <= \"max\"");
    table.ranges[key.str()] = {*min, *max};
  }
  return table;
}

std::string tf_to_npu::rangeKey(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    unsigned index = argument.getArgNumber();
    auto func =
        dyn_cast_or_null<func::FuncOp>(argument.getOwner()->getParentOp());
    if (func)
      if (auto entry = func->getAttrOfType<DictionaryAttr>(
              "tf.entry_function"))
        if (auto inputs = entry.getAs<StringAttr>("inputs")) {
          SmallVector<StringRef> names;
          inputs.getValue().split(names, ',', -1, /*KeepEmpty=*/false);
          if (index < names.size()) {
            StringRef name = names[index].trim();
            return name.contains(':') ? name.str() : (name + ":0").str();
          }
        }
    return llvm::formatv("arg{0}:0", index).str();
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  std::string node = nodeName(op->getLoc());
  if (node.empty())
    node = op->getName().getStringRef().str();
  for (Operation *later = op->getNextNode(); later;
       later = later->getNextNode())
    if (nodeName(later->getLoc()) == node) {
      node += "/" + op->getName().stripDialect().str();
      break;
    }
  return llvm::formatv("{0}:{1}", node, result.getResultNumber()).str();
}
