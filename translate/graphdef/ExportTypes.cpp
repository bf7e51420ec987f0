//===- ExportTypes.cpp - MLIR types and attrs to TF protos ------*- C++ -*-===//
//
// DataType, shape, tensor and attribute conversions for the exporter.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/ExportTypes.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln;
using tensorflow::DataType;

//===----------------------------------------------------------------------===//
// DataType and shape
//===----------------------------------------------------------------------===//

FailureOr<DataType> graphdef::exportDataType(Type type, ErrorFn emitError) {
  Type element = getElementTypeOrSelf(type);
  // convertToDataType compares against tf_type types, which need the
  // dialect even when the module never mentions it.
  element.getContext()->getOrLoadDialect<tf_type::TFTypeDialect>();
  DataType dtype = convertToDataType(element);
  if (dtype == tensorflow::DT_INVALID) {
    emitError() << "type " << element << " has no TensorFlow DataType";
    return failure();
  }
  return dtype;
}

void graphdef::exportShape(Type type, tensorflow::TensorShapeProto &shape) {
  shape.Clear();
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return;
  if (!shaped.hasRank()) {
    shape.set_unknown_rank(true);
    return;
  }
  for (int64_t dim : shaped.getShape())
    shape.add_dim()->set_size(ShapedType::isDynamic(dim) ? -1 : dim);
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

namespace {

/// Adds one integer of `type` to the TensorProto field the importer reads
/// for it.
void addInteger(IntegerType type, const APInt &value,
                tensorflow::TensorProto &tensor) {
  unsigned width = type.getWidth();
  bool isUnsigned = type.isUnsigned();
  if (width == 64 && isUnsigned)
    tensor.add_uint64_val(value.getZExtValue());
  else if (width == 64)
    tensor.add_int64_val(value.getSExtValue());
  else if (width == 32 && isUnsigned)
    tensor.add_uint32_val(value.getZExtValue());
  else
    tensor.add_int_val(isUnsigned ? value.getZExtValue()
                                  : value.getSExtValue());
}

/// Adds one float of `type` to its typed field; false if the type has none
/// (float8 types are written as tensor_content only).
bool addFloat(FloatType type, const APFloat &value,
              tensorflow::TensorProto &tensor) {
  if (type.isF32()) {
    tensor.add_float_val(value.convertToFloat());
    return true;
  }
  if (type.isF64()) {
    tensor.add_double_val(value.convertToDouble());
    return true;
  }
  if (type.isF16() || type.isBF16()) {
    tensor.add_half_val(
        static_cast<int32_t>(value.bitcastToAPInt().getZExtValue()));
    return true;
  }
  return false;
}

} // namespace

LogicalResult graphdef::exportTensor(ElementsAttr attr,
                                     tensorflow::TensorProto &tensor,
                                     ErrorFn emitError) {
  tensor.Clear();
  if (auto proto = dyn_cast<tf_type::TensorProtoAttr>(attr)) {
    StringRef hex = proto.getValue();
    std::string bytes;
    if (!hex.consume_front("0x") || !llvm::tryGetFromHex(hex, bytes) ||
        !tensor.ParseFromString(bytes))
      return emitError() << "#tf_type.tensor_proto does not hold a "
                            "serialized TensorProto";
    return success();
  }
  auto type = cast<ShapedType>(attr.getType());
  Type element = type.getElementType();
  FailureOr<DataType> dtype = exportDataType(element, emitError);
  if (failed(dtype))
    return failure();
  tensor.set_dtype(*dtype);
  exportShape(type, *tensor.mutable_tensor_shape());

  if (auto strings = dyn_cast<DenseStringElementsAttr>(attr)) {
    ArrayRef<StringRef> values = strings.getRawStringData();
    if (strings.isSplat()) {
      if (!values.empty() && !values.front().empty())
        tensor.add_string_val(values.front().str());
      return success();
    }
    for (StringRef value : values)
      tensor.add_string_val(value.str());
    return success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return emitError() << "constant " << attr
                       << " is neither dense nor a #tf_type.tensor_proto";

  // Booleans: bool_val, as TensorFlow writes them.
  if (element.isInteger(1)) {
    if (dense.isSplat()) {
      if (dense.getSplatValue<bool>())
        tensor.add_bool_val(true);
      return success();
    }
    for (bool value : dense.getValues<bool>())
      tensor.add_bool_val(value);
    return success();
  }

  // 4-bit integers cannot use tensor_content: one int_val each.
  if (auto intType = dyn_cast<IntegerType>(element);
      intType && intType.getWidth() < 8) {
    if (dense.isSplat()) {
      APInt value = dense.getSplatValue<APInt>();
      if (!value.isZero())
        addInteger(intType, value, tensor);
      return success();
    }
    for (const APInt &value : dense.getValues<APInt>())
      addInteger(intType, value, tensor);
    return success();
  }

  // Splats: one value of the typed field, none for zero.
  if (dense.isSplat()) {
    if (auto intType = dyn_cast<IntegerType>(element)) {
      APInt value = dense.getSplatValue<APInt>();
      if (!value.isZero())
        addInteger(intType, value, tensor);
      return success();
    }
    if (auto floatType = dyn_cast<FloatType>(element)) {
      APFloat value = dense.getSplatValue<APFloat>();
      if (value.bitcastToAPInt().isZero())
        return success();
      if (addFloat(floatType, value, tensor))
        return success();
    }
    if (auto complex = dyn_cast<ComplexType>(element)) {
      auto value = dense.getSplatValue<std::complex<APFloat>>();
      if (value.real().bitcastToAPInt().isZero() &&
          value.imag().bitcastToAPInt().isZero())
        return success();
      if (complex.getElementType().isF64()) {
        tensor.add_dcomplex_val(value.real().convertToDouble());
        tensor.add_dcomplex_val(value.imag().convertToDouble());
      } else {
        tensor.add_scomplex_val(value.real().convertToFloat());
        tensor.add_scomplex_val(value.imag().convertToFloat());
      }
      return success();
    }
  }

  // Everything else: the raw little-endian bytes.
  ArrayRef<char> raw = dense.getRawData();
  std::string content;
  if (dense.isSplat()) {
    int64_t count = type.getNumElements();
    content.reserve(raw.size() * count);
    for (int64_t i = 0; i < count; ++i)
      content.append(raw.data(), raw.size());
  } else {
    content.assign(raw.data(), raw.size());
  }
  tensor.set_tensor_content(std::move(content));
  return success();
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

namespace {

void exportShapeAttr(tf_type::ShapeAttr attr,
                     tensorflow::TensorShapeProto &shape) {
  shape.Clear();
  if (!attr.hasRank()) {
    shape.set_unknown_rank(true);
    return;
  }
  for (int64_t dim : attr.getShape())
    shape.add_dim()->set_size(dim);
}

/// The DataType of a legacy `"tfdtype$DT_FLOAT"` string, if `attr` is one.
std::optional<DataType> legacyDataType(Attribute attr) {
  auto string = dyn_cast<StringAttr>(attr);
  if (!string)
    return std::nullopt;
  StringRef name = string.getValue();
  if (!name.consume_front("tfdtype$"))
    return std::nullopt;
  DataType dtype;
  if (!tensorflow::DataType_Parse(name.str(), &dtype))
    return std::nullopt;
  return dtype;
}

LogicalResult exportFunc(Attribute attr, tensorflow::NameAttrList &func,
                         graphdef::ErrorFn emitError) {
  if (auto ref = dyn_cast<SymbolRefAttr>(attr)) {
    func.set_name(ref.getRootReference().str());
    return success();
  }
  auto funcAttr = cast<tf_type::FuncAttr>(attr);
  func.set_name(funcAttr.getName().getRootReference().str());
  for (NamedAttribute entry : funcAttr.getAttrs()) {
    tensorflow::AttrValue value;
    if (failed(graphdef::exportAttrValue(entry.getValue(), value, emitError)))
      return failure();
    (*func.mutable_attr())[entry.getName().str()] = std::move(value);
  }
  return success();
}

LogicalResult exportListItem(Attribute item,
                             tensorflow::AttrValue::ListValue &list,
                             graphdef::ErrorFn emitError) {
  if (auto dtype = legacyDataType(item)) {
    list.add_type(*dtype);
  } else if (auto string = dyn_cast<StringAttr>(item)) {
    list.add_s(string.getValue().str());
  } else if (auto boolean = dyn_cast<BoolAttr>(item)) {
    list.add_b(boolean.getValue());
  } else if (auto integer = dyn_cast<IntegerAttr>(item)) {
    list.add_i(integer.getValue().getSExtValue());
  } else if (auto floating = dyn_cast<FloatAttr>(item)) {
    list.add_f(floating.getValueAsDouble());
  } else if (auto type = dyn_cast<TypeAttr>(item)) {
    FailureOr<DataType> dtype =
        graphdef::exportDataType(type.getValue(), emitError);
    if (failed(dtype))
      return failure();
    list.add_type(*dtype);
  } else if (auto shape = dyn_cast<tf_type::ShapeAttr>(item)) {
    exportShapeAttr(shape, *list.add_shape());
  } else if (auto elements = dyn_cast<ElementsAttr>(item)) {
    if (failed(graphdef::exportTensor(elements, *list.add_tensor(), emitError)))
      return failure();
  } else if (isa<SymbolRefAttr, tf_type::FuncAttr>(item)) {
    if (failed(exportFunc(item, *list.add_func(), emitError)))
      return failure();
  } else {
    return emitError() << "list attribute element " << item
                       << " has no TensorFlow form";
  }
  return success();
}

} // namespace

LogicalResult graphdef::exportAttrValue(Attribute attr,
                                        tensorflow::AttrValue &value,
                                        ErrorFn emitError) {
  value.Clear();
  if (auto dtype = legacyDataType(attr)) {
    value.set_type(*dtype);
  } else if (auto string = dyn_cast<StringAttr>(attr)) {
    value.set_s(string.getValue().str());
  } else if (auto boolean = dyn_cast<BoolAttr>(attr)) {
    value.set_b(boolean.getValue());
  } else if (auto integer = dyn_cast<IntegerAttr>(attr)) {
    value.set_i(integer.getValue().getSExtValue());
  } else if (auto floating = dyn_cast<FloatAttr>(attr)) {
    value.set_f(floating.getValueAsDouble());
  } else if (auto type = dyn_cast<TypeAttr>(attr)) {
    FailureOr<DataType> dtype = exportDataType(type.getValue(), emitError);
    if (failed(dtype))
      return failure();
    value.set_type(*dtype);
  } else if (isa<UnitAttr>(attr)) {
    // An AttrValue with no value: what the importer reads as a unit.
  } else if (auto shape = dyn_cast<tf_type::ShapeAttr>(attr)) {
    exportShapeAttr(shape, *value.mutable_shape());
  } else if (auto elements = dyn_cast<ElementsAttr>(attr)) {
    return exportTensor(elements, *value.mutable_tensor(), emitError);
  } else if (isa<SymbolRefAttr, tf_type::FuncAttr>(attr)) {
    return exportFunc(attr, *value.mutable_func(), emitError);
  } else if (auto placeholder = dyn_cast<tf_type::PlaceholderAttr>(attr)) {
    value.set_placeholder(placeholder.getValue().str());
  } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
    auto *list = value.mutable_list();
    for (Attribute item : array)
      if (failed(exportListItem(item, *list, emitError)))
        return failure();
  } else {
    return emitError() << "attribute " << attr << " has no TensorFlow form";
  }
  return success();
}
