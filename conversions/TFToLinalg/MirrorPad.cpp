//===- MirrorPad.cpp - tf.MirrorPad to linalg -------------------*- C++ -*-===//
//
// tf.MirrorPad with constant paddings, in TensorFlow's two modes: with
// `i = o - before` the index into the input of output index `o` along a
// dimension of size `n`,
//   REFLECT:   i < 0 -> -i,     i >= n -> 2 (n - 1) - i  (the edge once);
//   SYMMETRIC: i < 0 -> -i - 1, i >= n -> 2 n - 1 - i    (the edge twice).
// TensorFlow requires paddings of at most n - 1 (REFLECT) or n (SYMMETRIC),
// so one reflection reaches every index; larger paddings are reported.
// Sizes may be dynamic (the reflections then use the run-time size, and
// the paddings are not checked against it).
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"

#include "dialects/TF/IR/TFOps.h"

using namespace mlir;
using namespace kiln;

namespace {

/// tf.MirrorPad -> a linalg.generic over the result that reads its element
/// from the input with tensor.extract at the reflected indices.
struct MirrorPadOpLowering final : OpConversionPattern<tf::MirrorPadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::MirrorPadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t rank = inputType.getRank();
    FailureOr<SmallVector<int64_t>> pads =
        kiln::detail::getConstantIntValues(adaptor.getPaddings());
    if (failed(pads))
      return kiln::detail::reportUnsupported(
          op, "paddings operand is not a constant");
    if (static_cast<int64_t>(pads->size()) != 2 * rank)
      return kiln::detail::reportUnsupported(
          op, "paddings has " + Twine(pads->size()) + " elements for rank " +
                  Twine(rank));
    bool reflect = op.getMode() == "REFLECT";
    for (int64_t dim = 0; dim < rank; ++dim) {
      int64_t before = (*pads)[2 * dim], after = (*pads)[2 * dim + 1];
      if (before < 0 || after < 0)
        return kiln::detail::reportUnsupported(
            op, "negative paddings in dimension " + Twine(dim));
      int64_t size = inputType.getDimSize(dim);
      int64_t limit = reflect ? size - 1 : size;
      if (!ShapedType::isDynamic(size) && std::max(before, after) > limit)
        return kiln::detail::reportUnsupported(
            op, "paddings " + Twine(before) + ", " + Twine(after) +
                    " in dimension " + Twine(dim) + " exceed " +
                    Twine(limit) + " (" + op.getMode() + " of size " +
                    Twine(size) + ")");
    }

    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes;
    SmallVector<Value> inputSizes;
    for (int64_t dim = 0; dim < rank; ++dim) {
      Value size = tensor::DimOp::create(rewriter, loc, input, dim);
      inputSizes.push_back(size);
      int64_t extra = (*pads)[2 * dim] + (*pads)[2 * dim + 1];
      if (!inputType.isDynamicDim(dim)) {
        sizes.push_back(
            rewriter.getIndexAttr(inputType.getDimSize(dim) + extra));
        continue;
      }
      sizes.push_back(
          arith::AddIOp::create(rewriter, loc, size,
                                arith::ConstantIndexOp::create(rewriter, loc,
                                                               extra))
              .getResult());
    }
    Value init = tensor::EmptyOp::create(rewriter, loc, sizes,
                                         inputType.getElementType());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)}, iterators,
        [&](OpBuilder &b, Location loc, ValueRange) {
          auto constant = [&](int64_t v) -> Value {
            return arith::ConstantIndexOp::create(b, loc, v);
          };
          SmallVector<Value> indices;
          for (int64_t dim = 0; dim < rank; ++dim) {
            Value index = arith::SubIOp::create(
                b, loc, linalg::IndexOp::create(b, loc, dim),
                constant((*pads)[2 * dim]));
            Value n = inputSizes[dim];
            // Before the input: -i (REFLECT) or -i - 1 (SYMMETRIC).
            Value negated = arith::SubIOp::create(
                b, loc, constant(reflect ? 0 : -1), index);
            // After it: 2 (n - 1) - i (REFLECT) or 2 n - 1 - i (SYMMETRIC).
            Value twiceN = arith::AddIOp::create(b, loc, n, n);
            Value mirrored = arith::SubIOp::create(
                b, loc,
                arith::SubIOp::create(b, loc, twiceN,
                                      constant(reflect ? 2 : 1)),
                index);
            Value isBefore = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::slt, index, constant(0));
            Value isAfter = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sge, index, n);
            index = arith::SelectOp::create(b, loc, isAfter, mirrored, index);
            index = arith::SelectOp::create(b, loc, isBefore, negated, index);
            indices.push_back(index);
          }
          linalg::YieldOp::create(
              b, loc,
              ValueRange{tensor::ExtractOp::create(b, loc, input, indices)});
        });
    rewriter.replaceOp(op, kiln::detail::castToType(
                               rewriter, loc, generic.getResult(0), resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateMirrorPadPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<MirrorPadOpLowering>(typeConverter, patterns.getContext());
}
