//===- NPUVerifyUtils.cpp - shared checks of the npu verifiers --*- C++ -*-===//
//
// Implementation of NPUVerifyUtils.h.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUVerifyUtils.h"
#include "dialects/NPU/IR/NPUOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>
#include <cstdio>

using namespace mlir;

namespace kiln::npu::detail {

std::string realString(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", value);
  return buffer;
}

static Type elementOf(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.getElementType();
  return type;
}

quant::UniformQuantizedType getQI8(Type type) {
  auto q = dyn_cast<quant::UniformQuantizedType>(elementOf(type));
  if (!q || !q.isSigned() || q.getStorageTypeIntegralWidth() != 8)
    return {};
  return q;
}

bool isF16(Type type) { return elementOf(type).isF16(); }

bool isInt(Type type, unsigned width) {
  return elementOf(type).isSignlessInteger(width);
}

uint64_t elementBytes(Type type) {
  Type element = elementOf(type);
  if (auto q = dyn_cast<quant::QuantizedType>(element))
    return (q.getStorageTypeIntegralWidth() + 7) / 8;
  return (element.getIntOrFloatBitWidth() + 7) / 8;
}

uint64_t tensorBytes(Type type) {
  auto shaped = cast<ShapedType>(type);
  return static_cast<uint64_t>(shaped.getNumElements()) * elementBytes(type);
}

LogicalResult checkField8(Operation *op, StringRef what, StringRef field,
                          int64_t value, int64_t minimum) {
  if (value < minimum)
    return op->emitOpError()
           << what << " " << value << " must be at least " << minimum;
  if (value > 255)
    return op->emitOpError() << what << " " << value << " exceeds the 8-bit '"
                             << field << "' field (max 255)";
  return success();
}

LogicalResult readArray(Operation *op, StringRef name, ArrayRef<int64_t> values,
                        size_t expected, int64_t *out) {
  if (values.size() != expected)
    return op->emitOpError() << "'" << name << "' must have " << expected
                             << " values, got " << values.size();
  llvm::copy(values, out);
  return success();
}

LogicalResult checkWindowFields(Operation *op, const Window &window) {
  static constexpr const char *dims[2] = {"height", "width"};
  static constexpr const char *kernelFields[2] = {"kh", "kw"};
  static constexpr const char *strideFields[2] = {"sy", "sx"};
  static constexpr const char *dilationFields[2] = {"dy", "dx"};
  static constexpr const char *padNames[4] = {"top", "bottom", "left", "right"};
  static constexpr const char *padFields[4] = {"pt", "pb", "pl", "pr"};
  for (int i = 0; i < 2; ++i) {
    if (failed(checkField8(op, std::string("kernel ") + dims[i],
                           kernelFields[i], window.kernel[i], 1)) ||
        failed(checkField8(op, std::string("stride ") + dims[i],
                           strideFields[i], window.stride[i], 1)) ||
        failed(checkField8(op, std::string("dilation ") + dims[i],
                           dilationFields[i], window.dilation[i], 1)))
      return failure();
  }
  for (int i = 0; i < 4; ++i)
    if (failed(checkField8(op, std::string("padding ") + padNames[i],
                           padFields[i], window.pad[i], 0)))
      return failure();
  return success();
}

LogicalResult checkWindowShape(Operation *op, const Window &window,
                               ArrayRef<int64_t> input,
                               ArrayRef<int64_t> output) {
  static constexpr const char *dims[2] = {"height", "width"};
  for (int i = 0; i < 2; ++i) {
    int64_t in = input[1 + i];
    int64_t padded = in + window.pad[2 * i] + window.pad[2 * i + 1];
    int64_t extent = window.dilation[i] * (window.kernel[i] - 1) + 1;
    if (padded < extent)
      return op->emitOpError()
             << "window " << dims[i] << " " << extent
             << " (kernel and dilation) does not fit the padded input "
             << dims[i] << " " << padded;
    int64_t expected = (padded - extent) / window.stride[i] + 1;
    if (output[1 + i] != expected)
      return op->emitOpError()
             << "output " << dims[i] << " " << output[1 + i] << ", expected "
             << expected << " from input " << dims[i] << " " << in
             << ", kernel " << window.kernel[i] << ", stride "
             << window.stride[i] << ", dilation " << window.dilation[i]
             << " and padding " << window.pad[2 * i] << "/"
             << window.pad[2 * i + 1];
  }
  return success();
}

LogicalResult checkZeroPoint(Operation *op, StringRef operand,
                             quant::UniformQuantizedType type,
                             StringRef field) {
  int64_t zp = type.getZeroPoint();
  if (zp < -128 || zp > 127)
    return op->emitOpError() << operand << " zero point " << zp
                             << " is outside [-128, 127] (" << field << ")";
  return success();
}

LogicalResult checkClampI8(Operation *op, Attribute min, Attribute max) {
  int64_t bounds[2] = {-128, 127};
  Attribute attrs[2] = {min, max};
  static constexpr const char *names[2] = {"clamp_min", "clamp_max"};
  for (int i = 0; i < 2; ++i) {
    if (!attrs[i])
      continue;
    auto value = dyn_cast<IntegerAttr>(attrs[i]);
    if (!value)
      return op->emitOpError()
             << "'" << names[i] << "' of an int8 operation must be an integer";
    bounds[i] = value.getInt();
    if (bounds[i] < -128 || bounds[i] > 127)
      return op->emitOpError() << "'" << names[i] << "' " << bounds[i]
                               << " does not fit int8 ([-128, 127])";
  }
  if (bounds[0] > bounds[1])
    return op->emitOpError()
           << "clamp range [" << bounds[0] << ", " << bounds[1] << "] is empty";
  return success();
}

LogicalResult checkClampF16(Operation *op, Attribute min, Attribute max) {
  double bounds[2] = {-INFINITY, INFINITY};
  Attribute attrs[2] = {min, max};
  static constexpr const char *names[2] = {"clamp_min", "clamp_max"};
  for (int i = 0; i < 2; ++i) {
    if (!attrs[i])
      continue;
    auto value = dyn_cast<FloatAttr>(attrs[i]);
    if (!value)
      return op->emitOpError()
             << "'" << names[i] << "' of an fp16 operation must be a float";
    bounds[i] = value.getValueAsDouble();
  }
  if (!(bounds[0] <= bounds[1]))
    return op->emitOpError() << "clamp range [" << realString(bounds[0]) << ", "
                             << realString(bounds[1]) << "] is empty";
  return success();
}

/// Checks that \p real's exponent lies in [lo, hi].
static LogicalResult checkMultiplier(Operation *op, double real,
                                     const Twine &what, int lo, int hi,
                                     StringRef engine, StringRef range) {
  std::optional<QuantizedMultiplier> q = quantizeMultiplier(real);
  if (!q || q->exponent < lo || q->exponent > hi)
    return op->emitOpError()
           << what << " is " << realString(real) << ", outside what " << engine
           << " can represent (" << range << ")";
  return success();
}

LogicalResult checkRequantMultiplier(Operation *op, double real,
                                     const Twine &what) {
  return checkMultiplier(op, real, what, -31, 29, "VEC_REQUANT",
                         "shift in [2, 62]: [2^-32, 2^29)");
}

LogicalResult checkEltwiseMultiplier(Operation *op, double real,
                                     const Twine &what) {
  return checkMultiplier(op, real, what, -31, 30, "VEC_ELTWISE",
                         "shift in [-31, 30]: [2^-32, 2^30)");
}

LogicalResult checkWeightQuant(Operation *op, Type weight, int32_t axis,
                               int64_t channels,
                               SmallVectorImpl<double> &scales) {
  Type element = elementOf(weight);
  if (auto q = getQI8(element)) {
    if (q.getZeroPoint() != 0)
      return op->emitOpError()
             << "weight zero point " << q.getZeroPoint() << " must be 0";
    scales.assign(channels, q.getScale());
    return success();
  }
  auto axisType = dyn_cast<quant::UniformQuantizedPerAxisType>(element);
  if (!axisType || !axisType.isSigned() ||
      axisType.getStorageTypeIntegralWidth() != 8)
    return op->emitOpError()
           << "weight element type must be int8 quantised per tensor or per "
              "axis, got "
           << element;
  if (axisType.getQuantizedDimension() != axis)
    return op->emitOpError() << "weight is quantised along axis "
                             << axisType.getQuantizedDimension()
                             << ", expected the output-channel axis " << axis;
  if (static_cast<int64_t>(axisType.getScales().size()) != channels)
    return op->emitOpError()
           << "weight has " << axisType.getScales().size()
           << " per-axis scales for " << channels << " output channels";
  for (auto [index, zp] : llvm::enumerate(axisType.getZeroPoints()))
    if (zp != 0)
      return op->emitOpError()
             << "weight zero point " << zp << " of output channel " << index
             << " must be 0";
  scales.assign(axisType.getScales().begin(), axisType.getScales().end());
  return success();
}

LogicalResult checkLmem(Operation *op, const TargetConfig &config,
                        LmemRegion region, uint64_t bytes, const Twine &what) {
  uint64_t size = config.regionSize(region);
  if (bytes > size)
    return op->emitOpError()
           << what << " needs " << bytes << " bytes of LMEM."
           << lmemRegionName(region) << ", more than the target's " << size
           << " ('lmem." << llvm::StringRef(lmemRegionName(region)).lower()
           << "_kib' = " << size / 1024 << ")";
  return success();
}

} // namespace kiln::npu::detail
