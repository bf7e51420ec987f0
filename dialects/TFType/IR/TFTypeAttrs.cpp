//===- TFTypeAttrs.cpp - #tf_type.* attributes ------------------*- C++ -*-===//
//
// Custom syntax and helpers of #tf_type.shape (the generated definitions are
// included by TFTypeDialect.cpp, which registers them).
//
//===----------------------------------------------------------------------===//

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln::tf_type;

//===----------------------------------------------------------------------===//
// ShapeAttr
//===----------------------------------------------------------------------===//

// Syntax: `<*>` (unranked), `<>` (scalar), `<2x?x3>`; unknown dimensions are
// `?` and stored as -1, as TensorFlow stores them.
Attribute ShapeAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  if (succeeded(parser.parseOptionalStar())) {
    if (parser.parseGreater())
      return {};
    return ShapeAttr::get(parser.getContext(), std::nullopt);
  }
  SmallVector<int64_t> dims;
  if (succeeded(parser.parseOptionalGreater()))
    return ShapeAttr::get(parser.getContext(), ArrayRef<int64_t>(dims));

  // `2x?x3` lexes as integer / keyword tokens split on 'x'; the dimension
  // list parser of the builtin types does exactly this.
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseDimensionList(dims, /*allowDynamic=*/true,
                                /*withTrailingX=*/false) ||
      parser.parseGreater())
    return {};
  // Sizes and byte counts derived from the shape must not wrap.
  int64_t count = 1;
  for (int64_t d : dims)
    if (!ShapedType::isDynamic(d) && llvm::MulOverflow(count, d, count)) {
      parser.emitError(loc, "shape has more elements than int64 can count");
      return {};
    }
  for (int64_t &d : dims)
    if (ShapedType::isDynamic(d))
      d = -1;
  return ShapeAttr::get(parser.getContext(), ArrayRef<int64_t>(dims));
}

void ShapeAttr::print(AsmPrinter &printer) const {
  printer << "<";
  if (getUnranked()) {
    printer << "*>";
    return;
  }
  llvm::interleave(
      getShape(), printer,
      [&](int64_t d) {
        if (d < 0)
          printer << "?";
        else
          printer << d;
      },
      "x");
  printer << ">";
}

bool ShapeAttr::hasStaticShape() const {
  return hasRank() &&
         llvm::all_of(getShape(), [](int64_t d) { return d >= 0; });
}

std::optional<SmallVector<int64_t>> ShapeAttr::getShapedTypeShape() const {
  if (!hasRank())
    return std::nullopt;
  SmallVector<int64_t> dims;
  for (int64_t d : getShape())
    dims.push_back(d < 0 ? ShapedType::kDynamic : d);
  return dims;
}

ShapeAttr ShapeAttr::get(MLIRContext *context, Type type) {
  auto shaped = dyn_cast_or_null<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return ShapeAttr::get(context, std::nullopt);
  SmallVector<int64_t> dims;
  for (int64_t d : shaped.getShape())
    dims.push_back(ShapedType::isDynamic(d) ? -1 : d);
  return ShapeAttr::get(context, ArrayRef<int64_t>(dims));
}

//===----------------------------------------------------------------------===//
// TensorProtoAttr
//===----------------------------------------------------------------------===//

LogicalResult
TensorProtoAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        ShapedType type, StringRef value) {
  if (!value.starts_with("0x") || value.size() % 2 != 0 ||
      !llvm::all_of(value.drop_front(2), llvm::isHexDigit))
    return emitError() << "expects 0x-prefixed hex bytes, got \"" << value
                       << "\"";
  if (!isa<RankedTensorType>(type) ||
      !cast<RankedTensorType>(type).hasStaticShape())
    return emitError() << "expects a statically shaped tensor type, got "
                       << type;
  return success();
}
