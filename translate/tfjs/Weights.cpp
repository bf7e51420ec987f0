//===- Weights.cpp - TF.js weight manifests and shards ----------*- C++ -*-===//
//
// Decoding follows tfjs-core's io/io_utils.ts decodeWeights bit for bit:
// affine values are computed in double (JavaScript numbers) and rounded to
// float32 (or, for int32 weights, with Math.round and ToInt32); float16 is
// IEEE binary16.
//
//===----------------------------------------------------------------------===//

#include "translate/tfjs/Weights.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace kiln;
using llvm::StringRef;
using Kind = tfjs::WeightEncoding::Kind;
using Quant = tfjs::WeightEncoding::Quant;

namespace {

/// Reads a little-endian T at `p` (unaligned).
template <typename T> T load(const char *p) {
  using Bits = std::conditional_t<
      sizeof(T) == 2, uint16_t,
      std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>;
  static_assert(sizeof(T) == sizeof(Bits), "2, 4 or 8 bytes");
  Bits bits;
  std::memcpy(&bits, p, sizeof(bits));
  if (llvm::sys::IsBigEndianHost)
    bits = llvm::byteswap(bits);
  T value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// IEEE binary16 to binary32, exactly.
float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in binary32.
    float value = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -value : value;
  }
  if (exponent == 31)
    bits = sign | 0x7f800000u | (mantissa << 13); // inf, nan
  else
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

/// JavaScript's ToInt32 of Math.round(x).
int32_t jsRoundToInt32(double x) {
  double rounded = std::floor(x + 0.5);
  if (!std::isfinite(rounded))
    return 0;
  double wrapped = std::fmod(rounded, 4294967296.0);
  if (wrapped < 0)
    wrapped += 4294967296.0;
  return static_cast<int32_t>(static_cast<uint32_t>(wrapped));
}

/// The stored value i of a float32 weight (after dequantization).
float floatValue(const tfjs::WeightEncoding &e, const char *data, int64_t i) {
  switch (e.quant) {
  case Quant::None:
    return load<float>(data + 4 * i);
  case Quant::UInt8:
    return static_cast<float>(
        static_cast<double>(static_cast<uint8_t>(data[i])) * e.scale + e.min);
  case Quant::UInt16:
    return static_cast<float>(
        static_cast<double>(load<uint16_t>(data + 2 * i)) * e.scale + e.min);
  case Quant::Float16:
    return halfToFloat(load<uint16_t>(data + 2 * i));
  }
  llvm_unreachable("unknown quantization");
}

/// The stored value i of an int32 weight (after dequantization).
int32_t intValue(const tfjs::WeightEncoding &e, const char *data, int64_t i) {
  switch (e.quant) {
  case Quant::None:
    return load<int32_t>(data + 4 * i);
  case Quant::UInt8:
    return jsRoundToInt32(
        static_cast<double>(static_cast<uint8_t>(data[i])) * e.scale + e.min);
  case Quant::UInt16:
    return jsRoundToInt32(
        static_cast<double>(load<uint16_t>(data + 2 * i)) * e.scale + e.min);
  case Quant::Float16:
    break;
  }
  llvm_unreachable("int32 weights are not float16");
}

/// The DataTypes each stored kind may fill.
bool canFill(Kind kind, tensorflow::DataType target) {
  using namespace tensorflow;
  switch (kind) {
  case Kind::Float32:
    return target == DT_FLOAT || target == DT_DOUBLE || target == DT_HALF ||
           target == DT_BFLOAT16;
  case Kind::Int32:
    return target == DT_INT32 || target == DT_INT64 || target == DT_INT8 ||
           target == DT_INT16 || target == DT_UINT8 || target == DT_UINT16 ||
           target == DT_UINT32 || target == DT_UINT64;
  case Kind::Bool:
    return target == DT_BOOL;
  case Kind::Complex64:
    return target == DT_COMPLEX64 || target == DT_COMPLEX128;
  case Kind::String:
    return target == DT_STRING;
  }
  return false;
}

/// A raw little-endian buffer of `count` values as an attribute of `type`.
template <typename T>
ElementsAttr fromValues(ShapedType type, const std::vector<T> &values) {
  return cast<ElementsAttr>(DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(values.data()),
                           values.size() * sizeof(T))));
}

} // namespace

FailureOr<tfjs::WeightEncoding>
tfjs::getWeightEncoding(const WeightEntry &weight, tensorflow::DataType target,
                        graphdef::ErrorFn emitError) {
  WeightEncoding e;
  StringRef dtype = weight.dtype();
  if (dtype == "float32") {
    e.kind = Kind::Float32;
    e.bytesPerValue = 4;
  } else if (dtype == "int32") {
    e.kind = Kind::Int32;
    e.bytesPerValue = 4;
  } else if (dtype == "bool") {
    e.kind = Kind::Bool;
    e.bytesPerValue = 1;
  } else if (dtype == "complex64") {
    e.kind = Kind::Complex64;
    e.bytesPerValue = 8;
  } else if (dtype == "string") {
    e.kind = Kind::String;
    e.bytesPerValue = 0;
  } else {
    return emitError() << "unknown dtype '" << dtype
                       << "' (TF.js weights are float32, int32, bool, "
                          "complex64 or string)";
  }
  if (weight.has_quantization()) {
    const Quantization &q = weight.quantization();
    StringRef qtype = q.dtype();
    if (qtype == "uint8" || qtype == "uint16") {
      if (e.kind != Kind::Float32 && e.kind != Kind::Int32)
        return emitError() << dtype << " weights cannot be quantized as "
                           << qtype;
      if (!q.has_scale() || !q.has_min())
        return emitError() << qtype
                           << " quantization needs both 'scale' and 'min'";
      e.quant = qtype == "uint8" ? Quant::UInt8 : Quant::UInt16;
      e.bytesPerValue = qtype == "uint8" ? 1 : 2;
      e.scale = q.scale();
      e.min = q.min();
    } else if (qtype == "float16") {
      if (e.kind != Kind::Float32)
        return emitError() << "float16 quantization only applies to float32 "
                              "weights, not "
                           << dtype;
      e.quant = Quant::Float16;
      e.bytesPerValue = 2;
    } else {
      return emitError() << "unknown quantization dtype '" << qtype
                         << "' (expected uint8, uint16 or float16)";
    }
  }
  if (!canFill(e.kind, target))
    return emitError() << "a " << dtype
                       << " weight cannot fill a Const of type "
                       << tensorflow::DataType_Name(target);
  // The number of values, with overflow checks (2^48 values is far beyond
  // any shard set).
  e.count = 1;
  for (int64_t dim : weight.shape()) {
    if (dim < 0)
      return emitError() << "shape has negative dimension " << dim;
    if (dim != 0 && e.count > (int64_t(1) << 48) / dim)
      return emitError() << "shape has too many elements";
    e.count *= dim;
  }
  return e;
}

FailureOr<ElementsAttr> tfjs::decodeWeight(const WeightEncoding &e,
                                           ArrayRef<char> bytes,
                                           ShapedType type,
                                           graphdef::ErrorFn emitError) {
  assert(e.size() && bytes.size() == *e.size() && "wrong number of bytes");
  Type element = type.getElementType();
  const char *data = bytes.data();
  int64_t n = e.count;
  switch (e.kind) {
  case Kind::Float32: {
    if (element.isF32() && e.quant == Quant::None &&
        !llvm::sys::IsBigEndianHost)
      return cast<ElementsAttr>(
          DenseElementsAttr::getFromRawBuffer(type, bytes));
    if (element.isF32()) {
      std::vector<float> values(n);
      for (int64_t i = 0; i < n; ++i)
        values[i] = floatValue(e, data, i);
      return fromValues(type, values);
    }
    if (element.isF64()) {
      std::vector<double> values(n);
      for (int64_t i = 0; i < n; ++i)
        values[i] = floatValue(e, data, i);
      return fromValues(type, values);
    }
    if (auto floatType = dyn_cast<FloatType>(element)) {
      // half, bfloat16: round each value to nearest even.
      SmallVector<APFloat> values;
      values.reserve(n);
      for (int64_t i = 0; i < n; ++i) {
        APFloat value(floatValue(e, data, i));
        bool lost;
        value.convert(floatType.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &lost);
        values.push_back(value);
      }
      return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
    }
    break;
  }
  case Kind::Int32: {
    auto intType = dyn_cast<IntegerType>(element);
    if (!intType)
      break;
    unsigned width = intType.getWidth();
    if (width == 32) {
      std::vector<int32_t> values(n);
      for (int64_t i = 0; i < n; ++i)
        values[i] = intValue(e, data, i);
      return fromValues(type, values);
    }
    if (width == 64) {
      // Signed: sign-extend (int64 stored as int32); unsigned: the uint32
      // bits the converter's cast kept.
      std::vector<int64_t> values(n);
      for (int64_t i = 0; i < n; ++i) {
        int32_t v = intValue(e, data, i);
        values[i] = intType.isUnsigned()
                        ? static_cast<int64_t>(static_cast<uint32_t>(v))
                        : static_cast<int64_t>(v);
      }
      return fromValues(type, values);
    }
    if (width == 16) {
      std::vector<int16_t> values(n);
      for (int64_t i = 0; i < n; ++i)
        values[i] = static_cast<int16_t>(intValue(e, data, i));
      return fromValues(type, values);
    }
    if (width == 8) {
      std::vector<int8_t> values(n);
      for (int64_t i = 0; i < n; ++i)
        values[i] = static_cast<int8_t>(intValue(e, data, i));
      return fromValues(type, values);
    }
    break;
  }
  case Kind::Bool: {
    if (!element.isInteger(1))
      break;
    SmallVector<bool> values(n);
    for (int64_t i = 0; i < n; ++i)
      values[i] = data[i] != 0;
    return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
  }
  case Kind::Complex64: {
    auto complex = dyn_cast<ComplexType>(element);
    if (!complex)
      break;
    if (complex.getElementType().isF32()) {
      std::vector<float> values(2 * n);
      for (int64_t i = 0; i < 2 * n; ++i)
        values[i] = load<float>(data + 4 * i);
      return fromValues(type, values);
    }
    if (complex.getElementType().isF64()) {
      std::vector<double> values(2 * n);
      for (int64_t i = 0; i < 2 * n; ++i)
        values[i] = load<float>(data + 4 * i);
      return fromValues(type, values);
    }
    break;
  }
  case Kind::String:
    break;
  }
  return emitError() << "cannot decode the weight as " << type;
}

//===----------------------------------------------------------------------===//
// Shards
//===----------------------------------------------------------------------===//

std::string tfjs::shardPath(StringRef dir, StringRef path) {
  llvm::SmallString<256> full(dir);
  llvm::sys::path::append(full, path);
  return std::string(full);
}

tfjs::ShardStream::ShardStream(StringRef dir, ArrayRef<std::string> paths)
    : dir(dir.str()), paths(paths) {}

bool tfjs::ShardStream::openNext(std::string &error) {
  shard.reset();
  inShard = 0;
  if (next >= static_cast<int>(paths.size())) {
    error =
        "the group's shards end after " + std::to_string(position) + " bytes";
    return false;
  }
  std::string path = shardPath(dir, paths[next]);
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    error =
        "cannot read shard '" + paths[next] + "': " + file.getError().message();
    return false;
  }
  shard = std::move(*file);
  ++next;
  return true;
}

std::optional<ArrayRef<char>> tfjs::ShardStream::read(uint64_t size,
                                                      std::string &error) {
  // Skip exhausted shards (and empty ones) until there is data.
  while (!shard || inShard == shard->getBufferSize()) {
    if (size == 0)
      return ArrayRef<char>();
    if (!openNext(error))
      return std::nullopt;
  }
  uint64_t available = shard->getBufferSize() - inShard;
  if (size <= available) {
    ArrayRef<char> view(shard->getBufferStart() + inShard, size);
    inShard += size;
    position += size;
    return view;
  }
  // Spanning shards: gather into the scratch buffer.
  // (A corrupt string length can ask for gigabytes: grow with the data
  // actually read rather than reserving `size` up front.)
  scratch.clear();
  scratch.reserve(std::min<uint64_t>(size, uint64_t(1) << 26));
  while (scratch.size() < size) {
    while (!shard || inShard == shard->getBufferSize())
      if (!openNext(error))
        return std::nullopt;
    uint64_t take = std::min<uint64_t>(size - scratch.size(),
                                       shard->getBufferSize() - inShard);
    scratch.insert(scratch.end(), shard->getBufferStart() + inShard,
                   shard->getBufferStart() + inShard + take);
    inShard += take;
    position += take;
  }
  return ArrayRef<char>(scratch.data(), scratch.size());
}
