//===- ShapeUtils.cpp - helpers of the shape op families --------*- C++ -*-===//
//
// The helpers of ShapeUtils.h.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/ShapeUtils.h"
#include "conversions/TFToLinalg/Patterns.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace kiln;

namespace kiln::shape {

/// The ranked tensor type of `value`, or null.
RankedTensorType getRankedType(Value value) {
  return dyn_cast<RankedTensorType>(value.getType());
}

/// The size of dimension `dim` of `value`: a constant when static, else a
/// tensor.dim.
OpFoldResult getDimSize(OpBuilder &b, Location loc, Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, value, dim).getResult();
}

/// The single integer of a constant scalar (or one-element) tensor.
FailureOr<int64_t> getConstantScalar(Value value) {
  FailureOr<SmallVector<int64_t>> values =
      kiln::detail::getConstantIntValues(value);
  if (failed(values) || values->size() != 1)
    return failure();
  return values->front();
}

/// The sizes of `value`: constants where static, tensor.dim ops elsewhere.
SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value value) {
  return tensor::getMixedSizes(b, loc, value);
}

/// An index value for `ofr`.
Value toIndexValue(OpBuilder &b, Location loc, OpFoldResult ofr) {
  if (auto value = dyn_cast<Value>(ofr))
    return value;
  return arith::ConstantIndexOp::create(
      b, loc, cast<IntegerAttr>(cast<Attribute>(ofr)).getInt());
}

/// The sizes of `value` as its type gives them: constants where static,
/// unfolded tensor.dim ops elsewhere (so that a size known only through
/// folding stays dynamic, as the types of ops built from it expect).
SmallVector<OpFoldResult> getTypeSizes(OpBuilder &b, Location loc,
                                       Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    if (type.isDynamicDim(dim))
      sizes.push_back(tensor::DimOp::create(b, loc, value, dim).getResult());
    else
      sizes.push_back(b.getIndexAttr(type.getDimSize(dim)));
  }
  return sizes;
}

/// A cf.assert that the i1 `cond` holds at run time, failing with `message`.
void createRuntimeCheck(OpBuilder &b, Location loc, Value cond,
                        const Twine &message) {
  cf::AssertOp::create(b, loc, cond, b.getStringAttr(message));
}

/// `value` / `divisor` for an index `value` that must be a multiple of the
/// positive `divisor`: folded when static, otherwise arith.divui after a
/// run-time check (failing with `message`) that the remainder is zero.
OpFoldResult createExactDiv(OpBuilder &b, Location loc, OpFoldResult value,
                            int64_t divisor, const Twine &message) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return b.getIndexAttr(*constant / divisor);
  Value dividend = toIndexValue(b, loc, value);
  Value divisorValue = arith::ConstantIndexOp::create(b, loc, divisor);
  Value remainder = arith::RemUIOp::create(b, loc, dividend, divisorValue);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  createRuntimeCheck(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, remainder, zero),
      message);
  return arith::DivUIOp::create(b, loc, dividend, divisorValue).getResult();
}

/// An all-parallel linalg.generic with no inputs over a fresh tensor of
/// `sizes`, whose body computes each element from the loop indices.
Value createIndexGeneric(
    OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes, Type elementType,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>)> body) {
  int64_t rank = sizes.size();
  Value init = tensor::EmptyOp::create(b, loc, sizes, elementType);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)}, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange) {
        SmallVector<Value> indices;
        for (int64_t dim = 0; dim < rank; ++dim)
          indices.push_back(linalg::IndexOp::create(nested, nestedLoc, dim));
        linalg::YieldOp::create(nested, nestedLoc,
                                body(nested, nestedLoc, indices));
      });
  return generic.getResult(0);
}

/// The element of the integer tensor `values` at `position`, as an index.
Value extractIndex(OpBuilder &b, Location loc, Value values,
                   ArrayRef<int64_t> position) {
  SmallVector<Value> indices;
  for (int64_t p : position)
    indices.push_back(arith::ConstantIndexOp::create(b, loc, p));
  Value element = tensor::ExtractOp::create(b, loc, values, indices);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), element);
}

/// The runtime axis `axis` as an index in [0, rank) (rank - 1 when out of
/// range).
Value normalizeRuntimeAxis(OpBuilder &b, Location loc, Value axis,
                           int64_t rank) {
  auto type = cast<RankedTensorType>(axis.getType());
  Value value = extractIndex(b, loc, axis, SmallVector<int64_t>(type.getRank(), 0));
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value rankValue = arith::ConstantIndexOp::create(b, loc, rank);
  Value last = arith::ConstantIndexOp::create(b, loc, rank - 1);
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value, zero);
  Value shifted = arith::AddIOp::create(b, loc, value, rankValue);
  value = arith::SelectOp::create(b, loc, negative, shifted, value);
  Value inRange = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, value, zero),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value,
                            rankValue));
  return arith::SelectOp::create(b, loc, inRange, value, last);
}

/// An scf.index_switch on `key` over `keys`, the last one the default.
Value createKeySwitch(
    OpBuilder &b, Location loc, Value key, ArrayRef<int64_t> keys,
    RankedTensorType resultType,
    function_ref<Value(OpBuilder &, Location, size_t)> buildCase) {
  assert(!keys.empty() && "a switch needs at least one case");
  ArrayRef<int64_t> cases = keys.drop_back();
  auto switchOp = scf::IndexSwitchOp::create(b, loc, TypeRange{resultType}, key,
                                             cases, cases.size());
  OpBuilder::InsertionGuard guard(b);
  auto fill = [&](Region &region, size_t i) {
    Block *block = b.createBlock(&region);
    b.setInsertionPointToStart(block);
    Value result = buildCase(b, loc, i);
    result = kiln::detail::castToType(b, loc, result, resultType);
    scf::YieldOp::create(b, loc, result);
  };
  for (size_t i = 0; i < cases.size(); ++i)
    fill(switchOp.getCaseRegions()[i], i);
  fill(switchOp.getDefaultRegion(), keys.size() - 1);
  return switchOp.getResult(0);
}

/// A linalg.transpose of `input` by `perm` into a fresh tensor.
Value createTranspose(OpBuilder &b, Location loc, Value input,
                      ArrayRef<int64_t> perm) {
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> permuted;
  for (int64_t p : perm)
    permuted.push_back(sizes[p]);
  Value init = tensor::EmptyOp::create(b, loc, permuted,
                                       getElementTypeOrSelf(input.getType()));
  return linalg::TransposeOp::create(b, loc, input, init, perm).getResult()[0];
}

/// The constant [rank, 2] paddings of a pad as low and high lists, or a
/// reported failure.
LogicalResult getPaddings(Operation *op, Value paddings, int64_t rank,
                          SmallVectorImpl<int64_t> &low,
                          SmallVectorImpl<int64_t> &high,
                          StringRef name) {
  FailureOr<SmallVector<int64_t>> values =
      kiln::detail::getConstantIntValues(paddings);
  if (failed(values))
    return kiln::detail::reportUnsupported(op,
                                           name + " operand is not a constant");
  if (static_cast<int64_t>(values->size()) != 2 * rank)
    return kiln::detail::reportUnsupported(
        op, name + " has " + Twine(values->size()) + " elements for rank " +
                Twine(rank));
  for (int64_t dim = 0; dim < rank; ++dim) {
    low.push_back((*values)[2 * dim]);
    high.push_back((*values)[2 * dim + 1]);
    if (low.back() < 0 || high.back() < 0)
      return kiln::detail::reportUnsupported(
          op, "negative " + name + " in dimension " + Twine(dim));
  }
  return success();
}

} // namespace kiln::shape
