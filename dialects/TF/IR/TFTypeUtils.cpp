//===- TFTypeUtils.cpp - tensor type lattice helpers ------------*- C++ -*-===//
//
// Implementation of TFTypeUtils.h.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFTypeUtils.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

Type kiln::tf::joinTensorTypes(Type a, Type b) {
  if (a == b)
    return a;
  auto ta = cast<TensorType>(a), tb = cast<TensorType>(b);
  if (!ta.hasRank() || !tb.hasRank() || ta.getRank() != tb.getRank())
    return UnrankedTensorType::get(ta.getElementType());
  SmallVector<int64_t> dims;
  for (auto [x, y] : llvm::zip(ta.getShape(), tb.getShape()))
    dims.push_back(x == y ? x : ShapedType::kDynamic);
  return RankedTensorType::get(dims, ta.getElementType());
}
