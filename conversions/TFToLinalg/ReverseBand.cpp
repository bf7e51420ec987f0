//===- ReverseBand.cpp - tf ReverseV2 and MatrixBandPart to linalg -*- C++ -*-//
//
// ReverseV2 with constant axes (Keras' Bidirectional reverses the time
// axis) and MatrixBandPart (Keras' causal attention mask): index-driven
// linalg.generics over the input's shape.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"
#include "conversions/TFToLinalg/ShapeUtils.h"

#include "dialects/TF/IR/TFOps.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::shape;

namespace {

/// tf.ReverseV2 with constant axes -> a linalg.generic over the input's
/// shape reading element size - 1 - i along each reversed dimension.
struct ReverseV2OpLowering final : OpConversionPattern<tf::ReverseV2Op> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::ReverseV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getTensor();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    FailureOr<SmallVector<int64_t>> axes =
        kiln::detail::getConstantIntValues(adaptor.getAxis());
    if (failed(axes))
      return kiln::detail::reportUnsupported(op,
                                             "axis operand is not a constant");
    int64_t rank = inputType.getRank();
    SmallVector<bool> reversed(rank, false);
    for (int64_t axis : *axes) {
      std::optional<int64_t> dim = kiln::detail::normalizeAxis(axis, rank);
      if (!dim)
        return kiln::detail::reportUnsupported(
            op, "axis " + Twine(axis) + " is out of range for rank " +
                    Twine(rank));
      reversed[*dim] = true;
    }
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, input);
    SmallVector<Value> lasts;
    for (int64_t dim = 0; dim < rank; ++dim) {
      Value size = toIndexValue(rewriter, loc, sizes[dim]);
      lasts.push_back(arith::SubIOp::create(
          rewriter, loc, size, arith::ConstantIndexOp::create(rewriter, loc, 1)));
    }
    Value result = createIndexGeneric(
        rewriter, loc, sizes, inputType.getElementType(),
        [&](OpBuilder &b, Location loc, ArrayRef<Value> indices) -> Value {
          SmallVector<Value> source;
          for (int64_t dim = 0; dim < rank; ++dim)
            source.push_back(reversed[dim] ? Value(arith::SubIOp::create(
                                                 b, loc, lasts[dim],
                                                 indices[dim]))
                                           : indices[dim]);
          return tensor::ExtractOp::create(b, loc, input, source);
        });
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// tf.MatrixBandPart -> a linalg.generic keeping element (m, n) of each
/// innermost matrix where (num_lower < 0 or m - n <= num_lower) and
/// (num_upper < 0 or n - m <= num_upper), zero elsewhere. The bounds may be
/// known only at run time.
struct MatrixBandPartOpLowering final
    : OpConversionPattern<tf::MatrixBandPartOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::MatrixBandPartOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t rank = inputType.getRank();
    if (rank < 2)
      return kiln::detail::reportUnsupported(
          op, "input of rank " + Twine(rank) + " (expected at least 2)");
    for (Value bound : {adaptor.getNumLower(), adaptor.getNumUpper()}) {
      RankedTensorType type = getRankedType(bound);
      if (!type || !type.hasStaticShape() || type.getNumElements() != 1)
        return kiln::detail::reportUnsupported(
            op, "num_lower and num_upper must be scalars");
    }
    Location loc = op.getLoc();
    auto scalar = [&](Value bound) {
      int64_t boundRank = getRankedType(bound).getRank();
      return extractIndex(rewriter, loc, bound,
                          SmallVector<int64_t>(boundRank, 0));
    };
    Value lower = scalar(adaptor.getNumLower());
    Value upper = scalar(adaptor.getNumUpper());
    Type elementType = inputType.getElementType();
    Value zero = arith::ConstantOp::create(
        rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(elementType)));
    Value zeroIndex = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value result = createIndexGeneric(
        rewriter, loc, getSizes(rewriter, loc, input), elementType,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> indices) -> Value {
          Value m = indices[rank - 2], n = indices[rank - 1];
          auto within = [&](Value bound, Value from, Value to) {
            Value unbounded = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::slt, bound, zeroIndex);
            Value distance = arith::SubIOp::create(b, loc, from, to);
            Value inside = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sle, distance, bound);
            return arith::OrIOp::create(b, loc, unbounded, inside);
          };
          Value keep = arith::AndIOp::create(b, loc, within(lower, m, n),
                                             within(upper, n, m));
          Value element = tensor::ExtractOp::create(b, loc, input, indices);
          return arith::SelectOp::create(b, loc, keep, element, zero);
        });
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void kiln::detail::populateReverseBandPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<ReverseV2OpLowering, MatrixBandPartOpLowering>(
      typeConverter, patterns.getContext());
}
