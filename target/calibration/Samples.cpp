//===- Samples.cpp - calibration samples from .npy files --------*- C++ -*-===//
//
// See Calibration.h: the entry's inputs, the NAME=FILE[,FILE...] options
// that give samples per input, and the checks of each array against its
// input.
//
//===----------------------------------------------------------------------===//

#include "target/calibration/Calibration.h"

#include "target/cpu/JIT.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <optional>

using namespace mlir;

namespace kiln::calibration {

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 message.str());
}

/// A shape as NumPy prints it, `?` for a size that is not fixed.
std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string text = "[";
  for (auto [i, size] : llvm::enumerate(shape)) {
    if (i)
      text += ", ";
    text += ShapedType::isDynamic(size) ? "?" : std::to_string(size);
  }
  return text + "]";
}

/// "input 'x'".
std::string describe(const InputSpec &input) {
  return "input '" + input.name + "'";
}

/// A name of the form `<C identifier>` that a header would give `name`.
std::string identifierOf(llvm::StringRef name) {
  std::string id;
  for (char c : name)
    id += llvm::isAlnum(c) ? c : '_';
  if (id.empty() || llvm::isDigit(id.front()))
    id.insert(id.begin(), '_');
  return id;
}

} // namespace

llvm::Expected<std::vector<InputSpec>> entryInputs(func::FuncOp entry) {
  std::vector<std::string> names;
  if (auto attr = entry->getAttrOfType<DictionaryAttr>("tf.entry_function"))
    if (auto list = attr.getAs<StringAttr>("inputs")) {
      llvm::SmallVector<llvm::StringRef> parts;
      list.getValue().split(parts, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef part : parts)
        names.push_back(part.trim().str());
    }
  std::vector<InputSpec> inputs;
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    InputSpec input;
    input.name = i < names.size() ? names[i] : "arg" + std::to_string(i);
    if (std::string id = identifierOf(input.name); id != input.name)
      input.alias = id;
    auto ranked = dyn_cast<RankedTensorType>(type);
    std::optional<cpu::DType> dtype =
        ranked ? cpu::npyDType(ranked.getElementType()) : std::nullopt;
    if (!dtype) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << type;
      return makeError(describe(input) + " has type " + text +
                     ", which calibration cannot feed");
    }
    input.dtype = *dtype;
    input.shape.assign(ranked.getShape().begin(), ranked.getShape().end());
    inputs.push_back(std::move(input));
  }
  return inputs;
}

std::string checkSample(const Sample &sample,
                        llvm::ArrayRef<InputSpec> inputs) {
  if (sample.size() != inputs.size())
    return llvm::formatv("{0} arrays for {1} inputs", sample.size(),
                         inputs.size())
        .str();
  for (auto [array, input] : llvm::zip(sample, inputs)) {
    bool fits = array.dtype == input.dtype &&
                array.shape.size() == input.shape.size();
    for (size_t d = 0; fits && d < array.shape.size(); ++d)
      fits = ShapedType::isDynamic(input.shape[d]) ||
             array.shape[d] == input.shape[d];
    if (!fits)
      return describe(input) + " is " + cpu::dtypeName(input.dtype) + " " +
             shapeText(input.shape) + ", the array is " +
             cpu::dtypeName(array.dtype) + " " + shapeText(array.shape);
  }
  return "";
}

llvm::Expected<std::vector<Sample>>
readSampleFiles(llvm::ArrayRef<std::string> options,
                llvm::ArrayRef<InputSpec> inputs, llvm::StringRef flag) {
  llvm::StringMap<size_t> byName;
  for (auto [i, input] : llvm::enumerate(inputs)) {
    byName[input.name] = i;
    if (!input.alias.empty())
      byName.try_emplace(input.alias, i);
  }
  auto known = [&] {
    std::string list;
    for (const InputSpec &input : inputs)
      list += (list.empty() ? "'" : ", '") + input.name + "'";
    return list.empty() ? std::string("none") : list;
  };

  // The files of each input, in the order given.
  std::vector<std::vector<std::string>> files(inputs.size());
  std::vector<bool> given(inputs.size(), false);
  for (const std::string &option : options) {
    llvm::StringRef text = option;
    size_t index = 0;
    auto [name, list] = text.split('=');
    if (list.empty() && !text.contains('=')) {
      if (inputs.size() != 1)
        return makeError("--" + flag + "=" + text +
                       ": name the input (NAME=FILE[,FILE...]); the model "
                       "has " + llvm::Twine(inputs.size()) + " inputs: " +
                       known());
      list = text;
    } else {
      auto it = byName.find(name);
      if (it == byName.end())
        return makeError("--" + flag + "=" + text + ": the model has no input '" +
                       name + "'; its inputs are " + known());
      index = it->second;
    }
    if (given[index])
      return makeError("--" + flag + ": " + describe(inputs[index]) +
                     " is given twice");
    given[index] = true;
    llvm::SmallVector<llvm::StringRef> parts;
    list.split(parts, ',', -1, /*KeepEmpty=*/false);
    if (parts.empty())
      return makeError("--" + flag + "=" + text + ": no file");
    for (llvm::StringRef part : parts)
      files[index].push_back(part.str());
  }
  for (auto [i, input] : llvm::enumerate(inputs)) {
    if (!given[i])
      return makeError("--" + flag + ": " + describe(input) +
                     " has no files (--" + flag + "=" + input.name +
                     "=FILE[,FILE...])");
    if (files[i].size() != files[0].size())
      return makeError("--" + flag + ": " + describe(inputs[0]) + " has " +
                     llvm::Twine(files[0].size()) + " files and " +
                     describe(input) + " " + llvm::Twine(files[i].size()) +
                     "; sample k is the k-th file of every input");
  }

  std::vector<Sample> samples(inputs.empty() ? 0 : files[0].size());
  for (auto [k, sample] : llvm::enumerate(samples))
    for (auto [i, input] : llvm::enumerate(inputs)) {
      const std::string &path = files[i][k];
      absl::StatusOr<cpu::NpyArray> array = cpu::readNpyFile(path);
      if (!array.ok())
        return makeError(std::string(array.status().message()));
      if (std::string why = checkSample({*array}, {input}); !why.empty())
        return makeError(path + ": " + why);
      sample.push_back(std::move(*array));
    }
  return samples;
}

} // namespace kiln::calibration
