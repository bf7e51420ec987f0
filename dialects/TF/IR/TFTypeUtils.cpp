//===- TFTypeUtils.cpp - tensor type lattice helpers ------------*- C++ -*-===//
//
// Implementation of TFTypeUtils.h.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFTypeUtils.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <optional>

using namespace mlir;
using kiln::tf_type::ResourceType;
using kiln::tf_type::VariantType;

/// The subtypes of a variant or a resource (the tensors it holds), or none
/// for any other type.
static std::optional<ArrayRef<TensorType>> subtypesOf(Type element) {
  if (auto variant = dyn_cast<VariantType>(element))
    return variant.getSubtypes();
  if (auto resource = dyn_cast<ResourceType>(element))
    return resource.getSubtypes();
  return std::nullopt;
}

/// The tensor type a variant holds when it names exactly one.
static TensorType singleSubtype(Type element) {
  auto variant = dyn_cast<VariantType>(element);
  if (!variant || variant.getSubtypes().size() != 1)
    return {};
  return variant.getSubtypes().front();
}

/// The element type holding both `a` and `b`: the same type (the caller
/// guarantees it), or for variants the variant of the join of their single
/// subtypes (a plain variant when either names none or several).
static Type joinElementTypes(Type a, Type b) {
  if (a == b || !isa<VariantType>(a) || !isa<VariantType>(b))
    return a;
  TensorType subA = singleSubtype(a), subB = singleSubtype(b);
  if (!subA || !subB || subA.getElementType() != subB.getElementType())
    return VariantType::get(a.getContext());
  return VariantType::get(
      a.getContext(),
      {cast<TensorType>(kiln::tf::joinTensorTypes(subA, subB))});
}

Type kiln::tf::joinTensorTypes(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = cast<TensorType>(a), tb = cast<TensorType>(b);
  Type element = joinElementTypes(ta.getElementType(), tb.getElementType());
  if (!ta.hasRank() || !tb.hasRank() || ta.getRank() != tb.getRank())
    return UnrankedTensorType::get(element);
  SmallVector<int64_t> dims;
  for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
    dims.push_back(x == y ? x : ShapedType::kDynamic);
  return RankedTensorType::get(dims, element);
}

bool kiln::tf::areCompatibleElementTypes(Type a, Type b) {
  if (a == b)
    return true;
  // Variants with variants, resources with resources: a handle typed
  // without what it holds (a functional loop's `!tf_type.resource` result)
  // may be the one that says (`!tf_type.resource<tensor<2xf32>>`).
  if (a.getTypeID() != b.getTypeID())
    return false;
  std::optional<ArrayRef<TensorType>> subA = subtypesOf(a), subB = subtypesOf(b);
  if (!subA || !subB)
    return false;
  if (subA->empty() || subB->empty())
    return true;
  if (subA->size() != subB->size())
    return false;
  return llvm::all_of(llvm::zip(*subA, *subB), [](auto pair) {
    auto [x, y] = pair;
    return x.getElementType() == y.getElementType() &&
           succeeded(verifyCompatibleShape(x, y));
  });
}

bool kiln::tf::areCompatibleTensorTypes(Type a, Type b) {
  return areCompatibleElementTypes(getElementTypeOrSelf(a),
                                   getElementTypeOrSelf(b)) &&
         succeeded(verifyCompatibleShape(a, b));
}
