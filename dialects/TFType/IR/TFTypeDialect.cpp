//===- TFTypeDialect.cpp - the tf_type dialect ------------------*- C++ -*-===//
//
// Registration of the tf_type types and attributes, and the reference-type
// helpers.
//
//===----------------------------------------------------------------------===//

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::tf_type;

#include "dialects/TFType/IR/TFTypeDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/TFType/IR/TFTypeTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/TFType/IR/TFTypeAttrs.cpp.inc"

void TFTypeDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/TFType/IR/TFTypeTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/TFType/IR/TFTypeAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Type syntax
//===----------------------------------------------------------------------===//

Type TFTypeDialect::parseType(DialectAsmParser &parser) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Type type;
  OptionalParseResult result = generatedTypeParser(parser, &mnemonic, type);
  if (!result.has_value()) {
    parser.emitError(loc) << "unknown type `" << mnemonic
                          << "` in dialect `tf_type`";
    return {};
  }
  if (failed(*result))
    return {};
  // ODS's parser of a type without parameters stops after the mnemonic, and
  // the rest of the type's body would be ignored.
  if (!isa<ResourceType, VariantType>(type) &&
      succeeded(parser.parseOptionalLess())) {
    parser.emitError(loc) << "type " << type << " takes no parameters";
    return {};
  }
  return type;
}

void TFTypeDialect::printType(Type type, DialectAsmPrinter &printer) const {
  (void)generatedTypePrinter(type, printer);
}

//===----------------------------------------------------------------------===//
// Reference types
//===----------------------------------------------------------------------===//

namespace {
/// Pairs each reference type with the type it refers to.
template <typename Fn> Type mapRefTypes(MLIRContext *ctx, Fn &&fn) {
  Builder b(ctx);
  std::pair<Type, Type> table[] = {
      {F16RefType::get(ctx), b.getF16Type()},
      {F32RefType::get(ctx), b.getF32Type()},
      {F64RefType::get(ctx), b.getF64Type()},
      {Bf16RefType::get(ctx), b.getBF16Type()},
      {BoolRefType::get(ctx), b.getI1Type()},
      {Int8RefType::get(ctx), b.getIntegerType(8)},
      {Int16RefType::get(ctx), b.getIntegerType(16)},
      {Int32RefType::get(ctx), b.getIntegerType(32)},
      {Int64RefType::get(ctx), b.getIntegerType(64)},
      {Uint8RefType::get(ctx), b.getIntegerType(8, /*isSigned=*/false)},
      {Uint16RefType::get(ctx), b.getIntegerType(16, /*isSigned=*/false)},
      {Uint32RefType::get(ctx), b.getIntegerType(32, /*isSigned=*/false)},
      {Uint64RefType::get(ctx), b.getIntegerType(64, /*isSigned=*/false)},
      {Complex64RefType::get(ctx), ComplexType::get(b.getF32Type())},
      {Complex128RefType::get(ctx), ComplexType::get(b.getF64Type())},
      {StringRefType::get(ctx), StringType::get(ctx)},
      {ResourceRefType::get(ctx), ResourceType::get(ctx)},
      {VariantRefType::get(ctx), VariantType::get(ctx)},
      {Qint8RefType::get(ctx), Qint8Type::get(ctx)},
      {Qint16RefType::get(ctx), Qint16Type::get(ctx)},
      {Qint32RefType::get(ctx), Qint32Type::get(ctx)},
      {Quint8RefType::get(ctx), Quint8Type::get(ctx)},
      {Quint16RefType::get(ctx), Quint16Type::get(ctx)},
  };
  for (auto &[ref, of] : table)
    if (Type t = fn(ref, of))
      return t;
  return nullptr;
}
} // namespace

bool kiln::tf_type::isRefType(Type type) {
  return static_cast<bool>(getRefElementType(type));
}

Type kiln::tf_type::getRefElementType(Type type) {
  if (!type || !isa<TFTypeDialect>(type.getDialect()))
    return nullptr;
  return mapRefTypes(type.getContext(), [&](Type ref, Type of) {
    return ref == type ? of : Type();
  });
}

Type kiln::tf_type::getRefTypeOf(Type type) {
  if (!type)
    return nullptr;
  return mapRefTypes(type.getContext(), [&](Type ref, Type of) {
    return of == type ? ref : Type();
  });
}
