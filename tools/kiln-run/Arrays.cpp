//===- Arrays.cpp - kiln-run: feeds, outputs and comparisons ---*- C++ -*-===//
//
// See Arrays.h.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-run/Arrays.h"

#include "runtime/cpu/Compare.h"
#include "runtime/cpu/SeededInputs.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <type_traits>

using namespace mlir;

namespace kiln::run {

namespace {

/// Parses "LO,HI" with LO < HI.
template <typename T>
std::optional<std::pair<T, T>> parseRange(llvm::StringRef text) {
  auto [low, high] = text.split(',');
  T lo, hi;
  if constexpr (std::is_floating_point_v<T>) {
    if (low.trim().getAsDouble(lo) || high.trim().getAsDouble(hi))
      return std::nullopt;
  } else {
    if (low.trim().getAsInteger(10, lo) || high.trim().getAsInteger(10, hi))
      return std::nullopt;
  }
  if (!(lo < hi))
    return std::nullopt;
  return std::make_pair(lo, hi);
}

/// Parses --input-shapes into one shape per input.
std::optional<std::vector<std::vector<int64_t>>>
parseShapes(llvm::StringRef text) {
  std::vector<std::vector<int64_t>> shapes;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, ':');
  for (llvm::StringRef part : parts) {
    std::vector<int64_t> shape;
    if (!part.trim().empty()) {
      llvm::SmallVector<llvm::StringRef> sizes;
      part.split(sizes, ',');
      for (llvm::StringRef size : sizes) {
        int64_t value;
        if (size.trim().getAsInteger(10, value) || value < 0)
          return std::nullopt;
        shape.push_back(value);
      }
    }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

/// Checks a fed array against the entry's argument.
bool checkInput(const cpu::NpyArray &array, const TensorSpec &spec,
                size_t index, llvm::StringRef source) {
  std::string what = spec.describe("input", index) + " (" + source.str() + ")";
  if (array.dtype != spec.dtype) {
    error(what + ": dtype " + cpu::dtypeName(array.dtype) +
          ", the model expects " + cpu::dtypeName(spec.dtype));
    return false;
  }
  bool shapeMatches = array.shape.size() == spec.shape.size();
  for (size_t d = 0; shapeMatches && d < spec.shape.size(); ++d)
    shapeMatches =
        ShapedType::isDynamic(spec.shape[d]) || spec.shape[d] == array.shape[d];
  if (!shapeMatches) {
    error(what + ": shape " + cpu::shapeString(array.shape) +
          ", the model expects " + typeShapeString(spec.shape));
    return false;
  }
  return true;
}

/// The feeds: --input files, else generated arrays.
} // namespace

std::optional<std::vector<cpu::NpyArray>>
makeInputs(const std::vector<TensorSpec> &specs, const InputOptions &options) {
  const std::vector<std::string> &inputFiles = options.files;
  const std::string &inputShapes = options.shapes;
  std::vector<cpu::NpyArray> inputs;
  if (!inputFiles.empty()) {
    if (inputFiles.size() != specs.size()) {
      error("the model has " + llvm::Twine(specs.size()) + " inputs; got " +
            llvm::Twine(inputFiles.size()) + " --input files");
      return std::nullopt;
    }
    for (auto [i, spec] : llvm::enumerate(specs)) {
      absl::StatusOr<cpu::NpyArray> array = cpu::readNpyFile(inputFiles[i]);
      if (!array.ok()) {
        error(spec.describe("input", i) + ": " +
              std::string(array.status().message()));
        return std::nullopt;
      }
      if (!checkInput(*array, spec, i, inputFiles[i]))
        return std::nullopt;
      inputs.push_back(std::move(*array));
    }
    return inputs;
  }

  std::optional<std::pair<double, double>> floats =
      parseRange<double>(options.floatRange);
  std::optional<std::pair<int64_t, int64_t>> ints =
      parseRange<int64_t>(options.intRange);
  if (!floats || !ints) {
    error(llvm::Twine(floats ? "--int-range" : "--float-range") +
          " expects LO,HI with LO < HI");
    return std::nullopt;
  }
  if (ints->second - ints->first > (int64_t(1) << 32)) {
    error("--int-range spans more than 2^32 values");
    return std::nullopt;
  }
  cpu::SeededRanges ranges;
  ranges.floatLow = floats->first;
  ranges.floatHigh = floats->second;
  ranges.intLow = ints->first;
  ranges.intHigh = ints->second;

  std::vector<std::vector<int64_t>> shapes;
  if (!inputShapes.empty()) {
    std::optional<std::vector<std::vector<int64_t>>> parsed =
        parseShapes(inputShapes);
    if (!parsed) {
      error("--input-shapes: '" + inputShapes +
            "' is not ':'-separated lists of sizes");
      return std::nullopt;
    }
    if (parsed->size() != specs.size()) {
      error("--input-shapes gives " + llvm::Twine(parsed->size()) +
            " shapes; the model has " + llvm::Twine(specs.size()) + " inputs");
      return std::nullopt;
    }
    shapes = std::move(*parsed);
  }
  cpu::Mulberry32 stream(options.seed);
  for (auto [i, spec] : llvm::enumerate(specs)) {
    std::vector<int64_t> shape;
    if (!shapes.empty())
      shape = shapes[i];
    else
      for (int64_t size : spec.shape)
        shape.push_back(ShapedType::isDynamic(size) ? 1 : size);
    cpu::NpyArray array = cpu::NpyArray::zeros(spec.dtype, shape);
    if (!checkInput(array, spec, i, "--input-shapes"))
      return std::nullopt;
    cpu::fillSeeded(array, stream, ranges);
    inputs.push_back(std::move(array));
  }
  return inputs;
}

/// Writes `array` to DIR/<prefix>_<i>.npy; false (reported) on failure.
bool writeArray(const cpu::NpyArray &array, llvm::StringRef dir,
                llvm::StringRef prefix, size_t index) {
  llvm::SmallString<128> path(dir);
  llvm::sys::path::append(path, prefix + "_" + llvm::Twine(index) + ".npy");
  absl::Status status = cpu::writeNpyFile(std::string(path), array);
  if (!status.ok()) {
    error(std::string(status.message()));
    return false;
  }
  return true;
}

bool compareOutput(const cpu::NpyArray &output, const cpu::NpyArray &expected,
                   const TensorSpec &spec, size_t index, llvm::StringRef file,
                   double rtol, double atol) {
  absl::StatusOr<cpu::Comparison> comparison =
      cpu::compareArrays(output, expected, rtol, atol);
  if (!comparison.ok()) {
    error(spec.describe("output", index) + " does not match " + file + ": " +
          std::string(comparison.status().message()));
    return false;
  }
  llvm::outs() << "  vs " << file << ": max abs error "
               << llvm::format("%.3g", comparison->maxAbsError)
               << ", max rel error "
               << llvm::format("%.3g", comparison->maxRelError) << " (scale "
               << llvm::format("%.3g", comparison->scale) << "): ";
  if (comparison->passed) {
    llvm::outs() << "pass\n";
    return true;
  }
  int64_t worst = comparison->worstIndex;
  llvm::outs() << "FAIL\n";
  error(spec.describe("output", index) + " does not match " + file + ": " +
        llvm::Twine(comparison->mismatches) + " of " +
        llvm::Twine(output.numElements()) +
        " elements differ by more than atol + rtol * scale = " +
        formatNumber("%.3g", atol + rtol * comparison->scale) +
        "; the worst, element " + llvm::Twine(worst) + ", is " +
        formatNumber("%.9g", output.elementAsDouble(worst)) + ", expected " +
        formatNumber("%.9g", expected.elementAsDouble(worst)));
  return false;
}

} // namespace kiln::run
