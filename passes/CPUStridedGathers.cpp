//===- CPUStridedGathers.cpp - vector.gather on strided buffers -*- C++ -*-===//
//
// kiln-cpu-strided-gathers: turns the indices of a vector.gather whose
// buffer is not contiguous from positions in the buffer's row-major shape
// (what the linalg vectorizer computes on tensors) into offsets in memory
// (what convert-vector-to-llvm adds to the base address).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUSTRIDEDGATHERSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// Whether a row-major position in `type` is also the element's offset in
/// memory from the start of the buffer.
bool isContiguous(MemRefType type) {
  return type.getLayout().isIdentity() ||
         memref::isStaticShapeAndContiguousRowMajor(type);
}

/// `value` (an index) splat to `type` (a vector of index).
Value splat(OpBuilder &b, Location loc, VectorType type, OpFoldResult value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(type, b.getIndexAttr(*constant)));
  return vector::BroadcastOp::create(b, loc, type, cast<Value>(value));
}

/// `a * b` on index values, folded when both are constants.
OpFoldResult multiply(OpBuilder &b, Location loc, OpFoldResult lhs,
                      OpFoldResult rhs) {
  std::optional<int64_t> l = getConstantIntValue(lhs);
  std::optional<int64_t> r = getConstantIntValue(rhs);
  if (l && r)
    return b.getIndexAttr(*l * *r);
  auto value = [&](OpFoldResult v) -> Value {
    if (std::optional<int64_t> c = getConstantIntValue(v))
      return arith::ConstantIndexOp::create(b, loc, *c);
    return cast<Value>(v);
  };
  return arith::MulIOp::create(b, loc, value(lhs), value(rhs)).getResult();
}

/// Rewrites `gather` (on a non-contiguous memref) so that it reads from the
/// buffer's first element with memory offsets: the row-major position
/// p = linear(offsets) + indices is split into coordinates c_d by the
/// buffer's sizes, and the new index is sum(c_d * stride_d).
void rewriteGather(vector::GatherOp gather) {
  // The ops go before a vector.mask holding the gather: its region holds
  // the masked op alone.
  Operation *anchor = gather;
  if (auto mask = dyn_cast<vector::MaskOp>(gather->getParentOp()))
    anchor = mask;
  OpBuilder b(anchor);
  Location loc = gather.getLoc();
  Value base = gather.getBase();
  auto type = cast<MemRefType>(base.getType());
  int64_t rank = type.getRank();
  VectorType indexType =
      cast<VectorType>(gather.getIndices().getType()).clone(b.getIndexType());
  Value position = gather.getIndices();
  if (!cast<VectorType>(position.getType()).getElementType().isIndex())
    position = arith::IndexCastOp::create(b, loc, indexType, position);

  SmallVector<OpFoldResult> sizes = memref::getMixedSizes(b, loc, base);
  SmallVector<int64_t> staticStrides = type.getStridesAndOffset().first;
  SmallVector<OpFoldResult> strides;
  memref::ExtractStridedMetadataOp metadata;
  for (int64_t d = 0; d < rank; ++d) {
    if (!ShapedType::isDynamic(staticStrides[d])) {
      strides.push_back(b.getIndexAttr(staticStrides[d]));
      continue;
    }
    if (!metadata)
      metadata = memref::ExtractStridedMetadataOp::create(b, loc, base);
    strides.push_back(metadata.getStrides()[d]);
  }

  // The row-major position of the base element, added to every lane.
  OpFoldResult start = b.getIndexAttr(0);
  OpFoldResult suffix = b.getIndexAttr(1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    OpFoldResult term = multiply(b, loc, gather.getOffsets()[d], suffix);
    std::optional<int64_t> s = getConstantIntValue(start);
    std::optional<int64_t> t = getConstantIntValue(term);
    if (s && t) {
      start = b.getIndexAttr(*s + *t);
    } else {
      Value lhs = s ? Value(arith::ConstantIndexOp::create(b, loc, *s))
                    : cast<Value>(start);
      Value rhs = t ? Value(arith::ConstantIndexOp::create(b, loc, *t))
                    : cast<Value>(term);
      start = arith::AddIOp::create(b, loc, lhs, rhs).getResult();
    }
    suffix = multiply(b, loc, suffix, sizes[d]);
  }
  if (getConstantIntValue(start) != std::optional<int64_t>(0))
    position = arith::AddIOp::create(b, loc, position,
                                     splat(b, loc, indexType, start));

  // Coordinates from the innermost dimension out; the outermost takes what
  // is left (masked-off lanes may hold anything: they are not read).
  Value offset;
  Value rest = position;
  for (int64_t d = rank - 1; d >= 0; --d) {
    Value coordinate = rest;
    if (d > 0) {
      Value size = splat(b, loc, indexType, sizes[d]);
      coordinate = arith::RemUIOp::create(b, loc, rest, size);
      rest = arith::DivUIOp::create(b, loc, rest, size);
    }
    Value term = arith::MulIOp::create(b, loc, coordinate,
                                       splat(b, loc, indexType, strides[d]));
    offset = offset ? Value(arith::AddIOp::create(b, loc, offset, term)) : term;
  }

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  gather.getOffsetsMutable().assign(SmallVector<Value>(rank, zero));
  gather.getIndicesMutable().set(offset);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnCPUStridedGathersPass final
    : kiln::impl::KilnCPUStridedGathersPassBase<KilnCPUStridedGathersPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<vector::GatherOp> gathers;
    getOperation().walk([&](vector::GatherOp gather) {
      auto type = dyn_cast<MemRefType>(gather.getBase().getType());
      if (type && type.getRank() > 0 && type.isStrided() &&
          !isContiguous(type))
        gathers.push_back(gather);
    });
    for (vector::GatherOp gather : gathers)
      rewriteGather(gather);
  }
};

} // namespace
