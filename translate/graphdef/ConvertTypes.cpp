//===- ConvertTypes.cpp - TensorFlow protos <-> MLIR ------------*- C++ -*-===//
//
// DataType, shape, tensor and attribute conversions.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/ConvertTypes.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"

#include <complex>

using namespace mlir;
using namespace kiln;
using tensorflow::DataType;

namespace {

constexpr int kRefOffset = 100;

/// The element type of a non-reference DataType, or null.
Type convertValueDataType(DataType dtype, Builder &b) {
  MLIRContext *ctx = b.getContext();
  switch (dtype) {
  case tensorflow::DT_FLOAT:
    return b.getF32Type();
  case tensorflow::DT_DOUBLE:
    return b.getF64Type();
  case tensorflow::DT_HALF:
    return b.getF16Type();
  case tensorflow::DT_BFLOAT16:
    return b.getBF16Type();
  case tensorflow::DT_FLOAT8_E5M2:
    return b.getType<Float8E5M2Type>();
  case tensorflow::DT_FLOAT8_E4M3FN:
    return b.getType<Float8E4M3FNType>();
  case tensorflow::DT_BOOL:
    return b.getI1Type();
  case tensorflow::DT_INT4:
    return b.getIntegerType(4);
  case tensorflow::DT_INT8:
    return b.getIntegerType(8);
  case tensorflow::DT_INT16:
    return b.getIntegerType(16);
  case tensorflow::DT_INT32:
    return b.getIntegerType(32);
  case tensorflow::DT_INT64:
    return b.getIntegerType(64);
  case tensorflow::DT_UINT4:
    return b.getIntegerType(4, /*isSigned=*/false);
  case tensorflow::DT_UINT8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case tensorflow::DT_UINT16:
    return b.getIntegerType(16, /*isSigned=*/false);
  case tensorflow::DT_UINT32:
    return b.getIntegerType(32, /*isSigned=*/false);
  case tensorflow::DT_UINT64:
    return b.getIntegerType(64, /*isSigned=*/false);
  case tensorflow::DT_COMPLEX64:
    return ComplexType::get(b.getF32Type());
  case tensorflow::DT_COMPLEX128:
    return ComplexType::get(b.getF64Type());
  case tensorflow::DT_STRING:
    return tf_type::StringType::get(ctx);
  case tensorflow::DT_RESOURCE:
    return tf_type::ResourceType::get(ctx);
  case tensorflow::DT_VARIANT:
    return tf_type::VariantType::get(ctx);
  case tensorflow::DT_QINT8:
    return tf_type::Qint8Type::get(ctx);
  case tensorflow::DT_QINT16:
    return tf_type::Qint16Type::get(ctx);
  case tensorflow::DT_QINT32:
    return tf_type::Qint32Type::get(ctx);
  case tensorflow::DT_QUINT8:
    return tf_type::Quint8Type::get(ctx);
  case tensorflow::DT_QUINT16:
    return tf_type::Quint16Type::get(ctx);
  default:
    return nullptr;
  }
}

std::string dataTypeName(DataType dtype) {
  const std::string &name = tensorflow::DataType_Name(dtype);
  return name.empty() ? "DataType " + std::to_string(dtype) : name;
}

/// The TensorProto field that holds values of element type `el`.
StringRef valueFieldOf(Type el) {
  if (isa<tf_type::StringType>(el))
    return "string_val";
  if (el.isF32())
    return "float_val";
  if (el.isF64())
    return "double_val";
  if (el.isF16() || el.isBF16())
    return "half_val";
  if (el.isInteger(1))
    return "bool_val";
  if (el.isUnsignedInteger(64))
    return "uint64_val";
  if (el.isInteger(64))
    return "int64_val";
  if (el.isUnsignedInteger(32))
    return "uint32_val";
  if (auto complex = dyn_cast<ComplexType>(el))
    return complex.getElementType().isF64() ? "dcomplex_val" : "scomplex_val";
  return "int_val"; // narrower integers and the quantized types
}

/// Refuses values in a field that `el` does not read (int_val of a
/// DT_FLOAT tensor): TensorFlow ignores them, so the constant would be
/// zeros where the graph's author wrote numbers.
LogicalResult checkValueFields(const tensorflow::TensorProto &tensor, Type el,
                               graphdef::ErrorFn emitError) {
  std::pair<StringRef, int> fields[] = {
      {"float_val", tensor.float_val_size()},
      {"double_val", tensor.double_val_size()},
      {"half_val", tensor.half_val_size()},
      {"int_val", tensor.int_val_size()},
      {"int64_val", tensor.int64_val_size()},
      {"bool_val", tensor.bool_val_size()},
      {"string_val", tensor.string_val_size()},
      {"scomplex_val", tensor.scomplex_val_size()},
      {"dcomplex_val", tensor.dcomplex_val_size()},
      {"uint32_val", tensor.uint32_val_size()},
      {"uint64_val", tensor.uint64_val_size()}};
  StringRef own = valueFieldOf(el);
  for (auto [field, size] : fields) {
    if (size == 0 || field == own)
      continue;
    emitError() << dataTypeName(tensor.dtype()) << " tensor has " << size
                << " values in " << field << ", which it does not read (its "
                << "values belong in " << own << " or tensor_content)";
    return failure();
  }
  return success();
}

/// `count * bytes` as text: "more than 2^63" when it overflows int64.
std::string neededBytes(int64_t count, unsigned bytes) {
  int64_t total;
  if (llvm::MulOverflow(count, static_cast<int64_t>(bytes), total))
    return "more than 2^63";
  return std::to_string(total);
}

/// Whether tensor_content of `size` bytes holds exactly `count` elements of
/// `bytes` each (without overflowing when `count` is huge).
bool contentSizeMatches(size_t size, int64_t count, unsigned bytes) {
  int64_t total;
  return !llvm::MulOverflow(count, static_cast<int64_t>(bytes), total) &&
         static_cast<uint64_t>(total) == size;
}

/// Bytes per element in tensor_content, or 0 for types it cannot hold.
unsigned contentElementBytes(Type element) {
  if (isa<tf_type::Qint8Type, tf_type::Quint8Type>(element))
    return 1;
  if (isa<tf_type::Qint16Type, tf_type::Quint16Type>(element))
    return 2;
  if (isa<tf_type::Qint32Type>(element))
    return 4;
  if (auto complex = dyn_cast<ComplexType>(element))
    return 2 * complex.getElementType().getIntOrFloatBitWidth() / 8;
  if (element.isIntOrFloat()) {
    unsigned bits = element.getIntOrFloatBitWidth();
    return bits == 1 ? 1 : (bits < 8 ? 0 : bits / 8);
  }
  return 0;
}

/// Reads `count` little-endian values of `bytes` bytes each into APInts.
SmallVector<APInt> readContent(llvm::StringRef content, unsigned bytes,
                               unsigned bits, int64_t count) {
  SmallVector<APInt> values;
  values.reserve(count);
  const char *p = content.data();
  for (int64_t i = 0; i < count; ++i, p += bytes) {
    uint64_t raw = 0;
    for (unsigned k = 0; k < bytes; ++k)
      raw |= uint64_t(static_cast<unsigned char>(p[k])) << (8 * k);
    values.emplace_back(bits, raw);
  }
  return values;
}

/// Expands `n` given values to `count` following TensorFlow's rule: none →
/// zeros, fewer → the last value repeated.
template <typename T>
FailureOr<SmallVector<T>> expandValues(ArrayRef<T> given, int64_t count, T zero,
                                       graphdef::ErrorFn emitError,
                                       llvm::StringRef field) {
  if (static_cast<int64_t>(given.size()) > count) {
    emitError() << "tensor has " << given.size() << " values in " << field
                << " but its shape holds " << count;
    return failure();
  }
  // An empty shape holds nothing, whatever was given (no last value to
  // repeat: `given` may be empty too).
  if (count == 0)
    return SmallVector<T>();
  // One value (or none) is a splat: never expand it, whatever the shape's
  // size (a 10^12-element splat must not allocate 10^12 values).
  if (given.size() <= 1)
    return SmallVector<T>{given.empty() ? zero : given.front()};
  SmallVector<T> values(given.begin(), given.end());
  values.resize(count, given.back());
  return values;
}

} // namespace

//===----------------------------------------------------------------------===//
// DataType
//===----------------------------------------------------------------------===//

FailureOr<Type> graphdef::convertDataType(DataType dtype, Builder &builder,
                                          graphdef::ErrorFn emitError) {
  if (dtype > kRefOffset) {
    Type value = convertValueDataType(static_cast<DataType>(dtype - kRefOffset),
                                      builder);
    if (Type ref = value ? tf_type::getRefTypeOf(value) : Type())
      return ref;
  } else if (Type type = convertValueDataType(dtype, builder)) {
    return type;
  }
  emitError() << "unsupported data type " << dataTypeName(dtype);
  return failure();
}

DataType graphdef::convertToDataType(Type type) {
  if (Type referee = tf_type::getRefElementType(type)) {
    DataType value = convertToDataType(referee);
    return value == tensorflow::DT_INVALID
               ? value
               : static_cast<DataType>(value + kRefOffset);
  }
  Builder b(type.getContext());
  for (int i = tensorflow::DataType_MIN; i <= kRefOffset; ++i) {
    if (!tensorflow::DataType_IsValid(i))
      continue;
    auto dtype = static_cast<DataType>(i);
    Type candidate = convertValueDataType(dtype, b);
    if (!candidate)
      continue;
    if (candidate == type)
      return dtype;
    // Resource and variant types with subtypes map to the plain DataType.
    if (isa<tf_type::ResourceType>(type) &&
        isa<tf_type::ResourceType>(candidate))
      return dtype;
    if (isa<tf_type::VariantType>(type) && isa<tf_type::VariantType>(candidate))
      return dtype;
  }
  return tensorflow::DT_INVALID;
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

FailureOr<std::optional<SmallVector<int64_t>>>
graphdef::convertShape(const tensorflow::TensorShapeProto &shape,
                       ErrorFn emitError) {
  if (shape.unknown_rank()) {
    if (shape.dim_size() != 0) {
      emitError() << "shape has unknown_rank set and " << shape.dim_size()
                  << " dimensions";
      return failure();
    }
    return std::optional<SmallVector<int64_t>>();
  }
  SmallVector<int64_t> dims;
  for (const auto &dim : shape.dim()) {
    if (dim.size() < -1) {
      emitError() << "shape has invalid dimension size " << dim.size();
      return failure();
    }
    dims.push_back(dim.size() == -1 ? ShapedType::kDynamic : dim.size());
  }
  // The known dimensions' product must fit int64: sizes, strides and byte
  // counts derived from it would wrap.
  int64_t count = 1;
  for (int64_t dim : dims) {
    if (ShapedType::isDynamic(dim) || !llvm::MulOverflow(count, dim, count))
      continue;
    auto diag = emitError() << "shape [";
    llvm::interleaveComma(shape.dim(), diag,
                          [&](const auto &d) { diag << d.size(); });
    diag << "] has more elements than int64 can count";
    return failure();
  }
  return std::optional<SmallVector<int64_t>>(std::move(dims));
}

TensorType
graphdef::makeTensorType(Type element,
                         const std::optional<SmallVector<int64_t>> &shape) {
  if (!shape)
    return UnrankedTensorType::get(element);
  return RankedTensorType::get(*shape, element);
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

FailureOr<ElementsAttr>
graphdef::convertTensor(const tensorflow::TensorProto &tensor, Builder &b,
                        ErrorFn emitError) {
  FailureOr<Type> element = convertDataType(tensor.dtype(), b, emitError);
  if (failed(element))
    return failure();
  auto shape = convertShape(tensor.tensor_shape(), emitError);
  if (failed(shape))
    return failure();
  if (!*shape || llvm::any_of(**shape, ShapedType::isDynamic)) {
    emitError() << "tensor value needs a fully known shape";
    return failure();
  }
  // convertShape checked that the product fits int64.
  int64_t count = 1;
  for (int64_t dim : **shape)
    count *= dim;
  auto type = RankedTensorType::get(**shape, *element);
  const std::string &content = tensor.tensor_content();
  if (failed(checkValueFields(tensor, *element, emitError)))
    return failure();

  // Strings.
  if (isa<tf_type::StringType>(*element)) {
    if (!content.empty()) {
      emitError() << "string tensor uses tensor_content, which TensorFlow "
                     "does not write for DT_STRING";
      return failure();
    }
    SmallVector<StringRef> given(tensor.string_val().begin(),
                                 tensor.string_val().end());
    auto values = expandValues<StringRef>(given, count, StringRef(), emitError,
                                          "string_val");
    if (failed(values))
      return failure();
    return cast<ElementsAttr>(DenseStringElementsAttr::get(type, *values));
  }

  // Quantized types have no dense MLIR form: keep the TensorProto, after
  // checking that it holds as many values as its shape needs.
  if (isa<tf_type::Qint8Type, tf_type::Qint16Type, tf_type::Qint32Type,
          tf_type::Quint8Type, tf_type::Quint16Type>(*element)) {
    unsigned bytes = contentElementBytes(*element);
    if (!content.empty() &&
        !contentSizeMatches(content.size(), count, bytes)) {
      emitError() << "tensor_content has " << content.size() << " bytes but "
                  << dataTypeName(tensor.dtype()) << " " << type << " needs "
                  << neededBytes(count, bytes);
      return failure();
    }
    if (content.empty() && tensor.int_val_size() > count) {
      emitError() << "tensor has " << tensor.int_val_size()
                  << " values in int_val but its shape holds " << count;
      return failure();
    }
    std::string wire;
    tensor.SerializeToString(&wire);
    std::string hex = "0x" + llvm::toHex(wire, /*LowerCase=*/false);
    return cast<ElementsAttr>(
        tf_type::TensorProtoAttr::get(b.getContext(), type, hex));
  }

  // Raw little-endian content.
  if (!content.empty()) {
    unsigned bytes = contentElementBytes(*element);
    if (bytes == 0) {
      emitError() << "tensor_content is not supported for "
                  << dataTypeName(tensor.dtype());
      return failure();
    }
    if (!contentSizeMatches(content.size(), count, bytes)) {
      emitError() << "tensor_content has " << content.size() << " bytes but "
                  << dataTypeName(tensor.dtype()) << " " << type << " needs "
                  << neededBytes(count, bytes);
      return failure();
    }
    if (!(*element).isIntOrFloat() && !isa<ComplexType>(*element)) {
      emitError() << "constants of " << dataTypeName(tensor.dtype())
                  << " are not supported";
      return failure();
    }
    if (isa<ComplexType>(*element)) {
      // Complex numbers: pairs of floats or doubles.
      return cast<ElementsAttr>(DenseElementsAttr::getFromRawBuffer(
          type, ArrayRef<char>(content.data(), content.size())));
    }
    unsigned bits = (*element).getIntOrFloatBitWidth();
    if (bits == 1) {
      SmallVector<bool> values;
      for (char c : content)
        values.push_back(c != 0);
      return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
    }
    SmallVector<APInt> raw = readContent(content, bytes, bits, count);
    if (auto floatType = dyn_cast<FloatType>(*element)) {
      SmallVector<APFloat> values;
      for (const APInt &bitsValue : raw)
        values.emplace_back(floatType.getFloatSemantics(), bitsValue);
      return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
    }
    return cast<ElementsAttr>(DenseElementsAttr::get(type, raw));
  }

  // Typed fields.
  Type el = *element;
  if (el.isF32()) {
    SmallVector<float> given(tensor.float_val().begin(),
                             tensor.float_val().end());
    auto values =
        expandValues<float>(given, count, 0.0f, emitError, "float_val");
    if (failed(values))
      return failure();
    return cast<ElementsAttr>(
        DenseElementsAttr::get(type, ArrayRef<float>(*values)));
  }
  if (el.isF64()) {
    SmallVector<double> given(tensor.double_val().begin(),
                              tensor.double_val().end());
    auto values =
        expandValues<double>(given, count, 0.0, emitError, "double_val");
    if (failed(values))
      return failure();
    return cast<ElementsAttr>(
        DenseElementsAttr::get(type, ArrayRef<double>(*values)));
  }
  if (el.isF16() || el.isBF16()) {
    SmallVector<int32_t> given(tensor.half_val().begin(),
                               tensor.half_val().end());
    auto bits = expandValues<int32_t>(given, count, 0, emitError, "half_val");
    if (failed(bits))
      return failure();
    SmallVector<APFloat> values;
    for (int32_t v : *bits)
      values.emplace_back(cast<FloatType>(el).getFloatSemantics(),
                          APInt(16, static_cast<uint16_t>(v)));
    return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
  }
  if (el.isInteger(1)) {
    SmallVector<bool> given(tensor.bool_val().begin(), tensor.bool_val().end());
    auto values =
        expandValues<bool>(given, count, false, emitError, "bool_val");
    if (failed(values))
      return failure();
    return cast<ElementsAttr>(
        DenseElementsAttr::get(type, ArrayRef<bool>(*values)));
  }
  if (auto intType = dyn_cast<IntegerType>(el)) {
    unsigned width = intType.getWidth();
    SmallVector<APInt> values;
    auto append = [&](auto given, llvm::StringRef field) -> LogicalResult {
      using T = typename decltype(given)::value_type;
      SmallVector<T> list(given.begin(), given.end());
      auto expanded = expandValues<T>(list, count, T(0), emitError, field);
      if (failed(expanded))
        return failure();
      for (T v : *expanded)
        values.emplace_back(width, static_cast<uint64_t>(v),
                            /*isSigned=*/std::is_signed<T>::value,
                            /*implicitTrunc=*/true);
      return success();
    };
    LogicalResult ok = failure();
    if (width == 64 && intType.isUnsigned())
      ok = append(tensor.uint64_val(), "uint64_val");
    else if (width == 64)
      ok = append(tensor.int64_val(), "int64_val");
    else if (width == 32 && intType.isUnsigned())
      ok = append(tensor.uint32_val(), "uint32_val");
    else
      ok = append(tensor.int_val(), "int_val");
    if (failed(ok))
      return failure();
    return cast<ElementsAttr>(DenseElementsAttr::get(type, values));
  }
  if (auto complex = dyn_cast<ComplexType>(el)) {
    bool isDouble = complex.getElementType().isF64();
    SmallVector<double> parts;
    if (isDouble)
      parts.assign(tensor.dcomplex_val().begin(), tensor.dcomplex_val().end());
    else
      parts.assign(tensor.scomplex_val().begin(), tensor.scomplex_val().end());
    if (parts.size() % 2 != 0) {
      emitError() << "complex tensor has an odd number of parts ("
                  << parts.size() << ")";
      return failure();
    }
    SmallVector<std::complex<double>> given;
    for (size_t i = 0; i < parts.size(); i += 2)
      given.emplace_back(parts[i], parts[i + 1]);
    auto values = expandValues<std::complex<double>>(
        given, count, {0.0, 0.0}, emitError,
        isDouble ? "dcomplex_val" : "scomplex_val");
    if (failed(values))
      return failure();
    if (isDouble)
      return cast<ElementsAttr>(DenseElementsAttr::get(
          type, ArrayRef<std::complex<double>>(*values)));
    SmallVector<std::complex<float>> singles;
    for (auto v : *values)
      singles.emplace_back(static_cast<float>(v.real()),
                           static_cast<float>(v.imag()));
    return cast<ElementsAttr>(
        DenseElementsAttr::get(type, ArrayRef<std::complex<float>>(singles)));
  }
  emitError() << "constants of " << dataTypeName(tensor.dtype())
              << " are not supported";
  return failure();
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

namespace {

FailureOr<Attribute> convertShapeAttr(const tensorflow::TensorShapeProto &shape,
                                      Builder &b, graphdef::ErrorFn emitError) {
  auto dims = graphdef::convertShape(shape, emitError);
  if (failed(dims))
    return failure();
  if (!*dims)
    return Attribute(tf_type::ShapeAttr::get(b.getContext(), std::nullopt));
  SmallVector<int64_t> tfDims;
  for (int64_t d : **dims)
    tfDims.push_back(ShapedType::isDynamic(d) ? -1 : d);
  return Attribute(
      tf_type::ShapeAttr::get(b.getContext(), ArrayRef<int64_t>(tfDims)));
}

FailureOr<Attribute> convertFunc(const tensorflow::NameAttrList &func,
                                 Builder &b, graphdef::ErrorFn emitError) {
  // Attributes sorted by name, as DictionaryAttr requires.
  std::vector<std::string> names;
  for (const auto &entry : func.attr())
    names.push_back(entry.first);
  std::sort(names.begin(), names.end());
  SmallVector<NamedAttribute> attrs;
  for (const std::string &name : names) {
    auto value = graphdef::convertAttrValue(func.attr().at(name), b, emitError);
    if (failed(value))
      return failure();
    attrs.push_back(b.getNamedAttr(name, *value));
  }
  return Attribute(tf_type::FuncAttr::get(
      b.getContext(), FlatSymbolRefAttr::get(b.getContext(), func.name()),
      b.getDictionaryAttr(attrs)));
}

} // namespace

FailureOr<Attribute>
graphdef::convertAttrValue(const tensorflow::AttrValue &value, Builder &b,
                           ErrorFn emitError) {
  switch (value.value_case()) {
  case tensorflow::AttrValue::kS:
    return Attribute(b.getStringAttr(value.s()));
  case tensorflow::AttrValue::kI:
    return Attribute(b.getI64IntegerAttr(value.i()));
  case tensorflow::AttrValue::kF:
    return Attribute(b.getF32FloatAttr(value.f()));
  case tensorflow::AttrValue::kB:
    return Attribute(b.getBoolAttr(value.b()));
  case tensorflow::AttrValue::kType: {
    auto type = convertDataType(value.type(), b, emitError);
    if (failed(type))
      return failure();
    return Attribute(TypeAttr::get(*type));
  }
  case tensorflow::AttrValue::kShape:
    return convertShapeAttr(value.shape(), b, emitError);
  case tensorflow::AttrValue::kTensor: {
    auto tensor = convertTensor(value.tensor(), b, emitError);
    if (failed(tensor))
      return failure();
    return Attribute(*tensor);
  }
  case tensorflow::AttrValue::kFunc:
    return convertFunc(value.func(), b, emitError);
  case tensorflow::AttrValue::kPlaceholder:
    return Attribute(
        tf_type::PlaceholderAttr::get(b.getContext(), value.placeholder()));
  case tensorflow::AttrValue::kList: {
    const auto &list = value.list();
    SmallVector<Attribute> items;
    for (const std::string &s : list.s())
      items.push_back(b.getStringAttr(s));
    for (int64_t i : list.i())
      items.push_back(b.getI64IntegerAttr(i));
    for (float f : list.f())
      items.push_back(b.getF32FloatAttr(f));
    for (bool v : list.b())
      items.push_back(b.getBoolAttr(v));
    for (int t : list.type()) {
      auto type = convertDataType(static_cast<DataType>(t), b, emitError);
      if (failed(type))
        return failure();
      items.push_back(TypeAttr::get(*type));
    }
    for (const auto &shape : list.shape()) {
      auto attr = convertShapeAttr(shape, b, emitError);
      if (failed(attr))
        return failure();
      items.push_back(*attr);
    }
    for (const auto &tensor : list.tensor()) {
      auto attr = convertTensor(tensor, b, emitError);
      if (failed(attr))
        return failure();
      items.push_back(*attr);
    }
    for (const auto &func : list.func()) {
      auto attr = convertFunc(func, b, emitError);
      if (failed(attr))
        return failure();
      items.push_back(*attr);
    }
    return Attribute(b.getArrayAttr(items));
  }
  case tensorflow::AttrValue::VALUE_NOT_SET:
    // An attribute with no value; TensorFlow's importer makes it a unit
    // attribute.
    return Attribute(b.getUnitAttr());
  }
  emitError() << "unknown attribute value kind " << value.value_case();
  return failure();
}
