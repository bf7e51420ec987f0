//===- CPUPadInPlace.cpp - padded tensors written in place ------*- C++ -*-===//
//
// kiln-cpu-pad-in-place: rewrites a tensor.pad of static shape into a tensor
// whose border is filled with the padding value and whose interior is the
// source inserted with tensor.insert_slice. The padded tensor is created
// before the source's producer, so that empty-tensor elimination can make
// the producer write its result into the interior: no zeroed copy of the
// whole tensor, no copy of the source.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUPADINPLACEPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// Where the padded tensor is built: before the op defining `source` when
/// it is in the same block as `pad` (so that the producer can later write
/// into it), else at `pad`.
Operation *insertionPoint(tensor::PadOp pad) {
  Operation *producer = pad.getSource().getDefiningOp();
  if (producer && producer->getBlock() == pad->getBlock())
    return producer;
  return pad;
}

/// Fills the border of `padded` (every element outside the box of
/// `interiorOffsets` / `interiorSizes`) with `value`: for each padded dim d,
/// the slabs before and after the interior along d, spanning the interior
/// along the dims before d and everything along the dims after it, so that
/// each border element is written once.
Value fillBorder(OpBuilder &b, Location loc, Value padded, Value value,
                 ArrayRef<int64_t> interiorOffsets,
                 ArrayRef<int64_t> interiorSizes, ArrayRef<int64_t> shape) {
  int64_t rank = shape.size();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t before = interiorOffsets[d];
    int64_t after = shape[d] - before - interiorSizes[d];
    for (auto [offset, size] :
         {std::pair{int64_t(0), before},
          std::pair{before + interiorSizes[d], after}}) {
      if (size == 0)
        continue;
      SmallVector<int64_t> offsets, sizes;
      for (int64_t k = 0; k < rank; ++k) {
        if (k < d) {
          offsets.push_back(interiorOffsets[k]);
          sizes.push_back(interiorSizes[k]);
        } else if (k == d) {
          offsets.push_back(offset);
          sizes.push_back(size);
        } else {
          offsets.push_back(0);
          sizes.push_back(shape[k]);
        }
      }
      auto slabType = RankedTensorType::get(
          sizes, cast<RankedTensorType>(padded.getType()).getElementType());
      Value slab = tensor::ExtractSliceOp::create(
          b, loc, slabType, padded, ValueRange{}, ValueRange{}, ValueRange{},
          offsets, sizes, strides);
      Value filled =
          linalg::FillOp::create(b, loc, value, slab).getResult(0);
      padded = tensor::InsertSliceOp::create(
          b, loc, filled, padded, ValueRange{}, ValueRange{}, ValueRange{},
          offsets, sizes, strides);
    }
  }
  return padded;
}

/// Rewrites `pad` if its shapes and padding are static and its padding value
/// is a constant; returns whether it did.
bool rewritePad(RewriterBase &rewriter, DominanceInfo &dominance,
                tensor::PadOp pad) {
  RankedTensorType sourceType = pad.getSourceType();
  RankedTensorType resultType = pad.getResultType();
  if (!sourceType.hasStaticShape() || !resultType.hasStaticShape() ||
      ShapedType::isDynamicShape(pad.getStaticLow()) ||
      ShapedType::isDynamicShape(pad.getStaticHigh()))
    return false;
  Value paddingValue = pad.getConstantPaddingValue();
  TypedAttr paddingAttr;
  if (!paddingValue || !matchPattern(paddingValue, m_Constant(&paddingAttr)))
    return false;
  // Negative padding (a crop) is a slice, not a border.
  if (llvm::any_of(pad.getStaticLow(), [](int64_t v) { return v < 0; }) ||
      llvm::any_of(pad.getStaticHigh(), [](int64_t v) { return v < 0; }))
    return false;

  Location loc = pad.getLoc();
  Operation *point = insertionPoint(pad);
  rewriter.setInsertionPoint(point);
  Value value = dominance.properlyDominates(paddingValue, point)
                    ? paddingValue
                    : arith::ConstantOp::create(rewriter, loc, paddingAttr);
  Value empty = tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                        resultType.getElementType());
  Value bordered =
      fillBorder(rewriter, loc, empty, value, pad.getStaticLow(),
                 sourceType.getShape(), resultType.getShape());

  rewriter.setInsertionPoint(pad);
  SmallVector<int64_t> strides(sourceType.getRank(), 1);
  rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
      pad, pad.getSource(), bordered, ValueRange{}, ValueRange{}, ValueRange{},
      pad.getStaticLow(), sourceType.getShape(), strides);
  return true;
}

struct KilnCPUPadInPlacePass final
    : kiln::impl::KilnCPUPadInPlacePassBase<KilnCPUPadInPlacePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<tensor::PadOp> pads;
    getOperation()->walk([&](tensor::PadOp pad) { pads.push_back(pad); });
    IRRewriter rewriter(&getContext());
    DominanceInfo &dominance = getAnalysis<DominanceInfo>();
    for (tensor::PadOp pad : pads)
      (void)rewritePad(rewriter, dominance, pad);
  }
};

} // namespace
