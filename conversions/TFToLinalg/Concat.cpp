//===- Concat.cpp - tf concatenation, padding, tiling to tensor -*- C++ -*-===//
//
// ConcatV2 (the axis constant or taken at run time), Pad and PadV2
// (paddings constant or taken at run time), and Tile (multiples constant or
// taken at run time).
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"
#include "conversions/TFToLinalg/ShapeUtils.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::shape;

namespace {

//===----------------------------------------------------------------------===//
// Concatenation
//===----------------------------------------------------------------------===//

/// tf.ConcatV2 -> tensor.concat of the operands that are not statically
/// empty along the axis (the operand itself when one is left); for an axis
/// known only at run time, one per axis in an scf.index_switch.
struct ConcatV2OpLowering final : OpConversionPattern<tf::ConcatV2Op> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::ConcatV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (!resultType || !llvm::all_of(adaptor.getValues(),
                                     [](Value v) { return getRankedType(v); }))
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t rank = resultType.getRank();
    Location loc = op.getLoc();
    FailureOr<int64_t> axis = getConstantScalar(adaptor.getAxis());
    if (failed(axis)) {
      // An axis known only at run time: a switch over the axes the operands'
      // shapes allow (the others differ in a static size elsewhere), each
      // case the concatenation along one. An axis out of range or not
      // allowed, which TensorFlow rejects, reads as the last allowed one.
      RankedTensorType axisType = getRankedType(adaptor.getAxis());
      if (!axisType || !axisType.hasStaticShape() ||
          axisType.getNumElements() != 1 || rank == 0)
        return kiln::detail::reportUnsupported(
            op, "axis operand is not a single integer");
      SmallVector<int64_t> allowed;
      for (int64_t dim = 0; dim < rank; ++dim) {
        bool fits = true;
        for (int64_t other = 0; other < rank; ++other) {
          if (other == dim)
            continue;
          int64_t size = resultType.getDimSize(other);
          for (Value value : adaptor.getValues()) {
            RankedTensorType type = getRankedType(value);
            if (type.getRank() != rank) {
              fits = false;
              break;
            }
            int64_t own = type.getDimSize(other);
            if (ShapedType::isDynamic(size))
              size = own;
            else if (!ShapedType::isDynamic(own) && own != size)
              fits = false;
          }
        }
        if (fits)
          allowed.push_back(dim);
      }
      if (allowed.empty())
        return kiln::detail::reportUnsupported(
            op, "the operands' shapes allow concatenation along no axis");
      Value key = normalizeRuntimeAxis(rewriter, loc, adaptor.getAxis(), rank);
      Value result = createKeySwitch(
          rewriter, loc, key, allowed, resultType,
          [&](OpBuilder &b, Location loc, size_t i) {
            return concatAlong(b, loc, adaptor.getValues(), allowed[i]);
          });
      rewriter.replaceOp(op, result);
      return success();
    }
    std::optional<int64_t> dim = kiln::detail::normalizeAxis(*axis, rank);
    if (!dim)
      return kiln::detail::reportUnsupported(
          op,
          "axis " + Twine(*axis) + " is out of range for rank " + Twine(rank));
    Value result = concatAlong(rewriter, loc, adaptor.getValues(), *dim);
    rewriter.replaceOp(op,
                       kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }

  /// The concatenation of `operands` along `dim`.
  static Value concatAlong(OpBuilder &b, Location loc, ValueRange operands,
                           int64_t dim) {
    // An operand of static size 0 along the axis adds nothing: drop it, since
    // MLIR 22 rejects the size-0 insert_slice tensor.concat decomposes into
    // when one follows other data ("offset 0 is out-of-bounds: 3 >= 3").
    // Keep one operand when all are empty (a dynamic result size). An
    // operand of another rank than the first's is kept for tensor.concat's
    // verifier to report.
    int64_t rank = getRankedType(operands.front()).getRank();
    SmallVector<Value> values;
    for (Value value : operands) {
      RankedTensorType type = getRankedType(value);
      if (type.getRank() != rank || type.getDimSize(dim) != 0)
        values.push_back(value);
    }
    if (values.empty())
      values.push_back(operands.front());
    if (values.size() == 1)
      return values.front();
    return tensor::ConcatOp::create(b, loc, dim, values);
  }
};

//===----------------------------------------------------------------------===//
// Padding
//===----------------------------------------------------------------------===//

/// A tensor.pad of `input` by static `low` and `high` with `padValue`.
Value createPad(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> low,
                ArrayRef<int64_t> high, Value padValue) {
  auto inputType = cast<RankedTensorType>(input.getType());
  auto type = tensor::PadOp::inferResultType(inputType, low, high);
  SmallVector<OpFoldResult> lowSizes, highSizes;
  for (auto [l, h] : llvm::zip(low, high)) {
    lowSizes.push_back(b.getIndexAttr(l));
    highSizes.push_back(b.getIndexAttr(h));
  }
  return tensor::PadOp::create(b, loc, type, input, lowSizes, highSizes,
                               padValue);
}

/// tf.Pad (zeros) and tf.PadV2 (a scalar value) -> tensor.pad, with static
/// low/high amounts when the paddings are constant.
template <typename OpTy>
struct PadOpLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = kiln::detail::getConvertedTensorType(
        *this->getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t rank = inputType.getRank();
    Value paddings = adaptor.getPaddings();
    SmallVector<int64_t> low, high;
    // Runtime paddings: read from the operand, negative ones taken as zero
    // (TensorFlow reports an error).
    bool isConstant = succeeded(kiln::detail::getConstantIntValues(paddings));
    if (isConstant) {
      if (failed(getPaddings(op, paddings, rank, low, high)))
        return failure();
    } else {
      RankedTensorType paddingsType = getRankedType(paddings);
      if (!paddingsType ||
          paddingsType.getShape() != ArrayRef<int64_t>{rank, 2})
        return kiln::detail::reportUnsupported(
            op, "paddings must have shape [" + Twine(rank) + ", 2]");
    }
    Value padValue;
    constexpr bool hasValue = std::is_same_v<OpTy, tf::PadV2Op>;
    if constexpr (hasValue) {
      RankedTensorType valueType = getRankedType(adaptor.getConstantValues());
      if (!valueType || valueType.getNumElements() != 1)
        return kiln::detail::reportUnsupported(
            op, "constant_values is not a tensor of one element");
    }
    Location loc = op.getLoc();
    if constexpr (hasValue) {
      Value values = adaptor.getConstantValues();
      auto valueType = cast<RankedTensorType>(values.getType());
      SmallVector<Value> zeros(
          valueType.getRank(),
          arith::ConstantIndexOp::create(rewriter, loc, 0));
      padValue = tensor::ExtractOp::create(rewriter, loc, values, zeros);
    } else {
      padValue = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(inputType.getElementType()));
    }
    Value result;
    if (isConstant) {
      result = createPad(rewriter, loc, input, low, high, padValue);
    } else {
      SmallVector<OpFoldResult> lowSizes, highSizes;
      SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      for (int64_t dim = 0; dim < rank; ++dim) {
        for (int64_t side = 0; side < 2; ++side) {
          Value amount = extractIndex(rewriter, loc, paddings, {dim, side});
          amount = arith::MaxSIOp::create(rewriter, loc, amount, zero);
          (side == 0 ? lowSizes : highSizes).push_back(amount);
        }
      }
      result = tensor::PadOp::create(rewriter, loc, inputType.clone(shape),
                                     input, lowSizes, highSizes, padValue);
    }
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Tiling
//===----------------------------------------------------------------------===//

/// tf.Tile -> a broadcasting linalg.generic into
/// [m0, d0, m1, d1, ...] and a tensor.collapse_shape to [m0*d0, m1*d1, ...].
struct TileOpLowering final : OpConversionPattern<tf::TileOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::TileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t rank = inputType.getRank();
    Location loc = op.getLoc();
    Value multiplesValue = adaptor.getMultiples();
    FailureOr<SmallVector<int64_t>> constantMultiples =
        kiln::detail::getConstantIntValues(multiplesValue);
    SmallVector<OpFoldResult> multiples;
    if (succeeded(constantMultiples)) {
      if (static_cast<int64_t>(constantMultiples->size()) != rank ||
          llvm::any_of(*constantMultiples, [](int64_t m) { return m < 0; }))
        return kiln::detail::reportUnsupported(
            op, "multiples must be " + Twine(rank) + " non-negative values");
      for (int64_t m : *constantMultiples)
        multiples.push_back(rewriter.getIndexAttr(m));
    } else {
      // Multiples known only at run time, negative ones (which TensorFlow
      // rejects) taken as zero.
      RankedTensorType type = getRankedType(multiplesValue);
      if (!type || type.getShape() != ArrayRef<int64_t>{rank})
        return kiln::detail::reportUnsupported(
            op, "multiples must have shape [" + Twine(rank) + "]");
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      for (int64_t dim = 0; dim < rank; ++dim)
        multiples.push_back(arith::MaxSIOp::create(
                                rewriter, loc,
                                extractIndex(rewriter, loc, multiplesValue, {dim}),
                                zero)
                                .getResult());
    }
    if (rank == 0) {
      rewriter.replaceOp(
          op, kiln::detail::castToType(rewriter, loc, input, resultType));
      return success();
    }
    MLIRContext *context = rewriter.getContext();
    SmallVector<OpFoldResult> sizes;
    SmallVector<AffineExpr> inputExprs;
    SmallVector<ReassociationIndices> groups;
    for (int64_t dim = 0; dim < rank; ++dim) {
      sizes.push_back(multiples[dim]);
      sizes.push_back(getDimSize(rewriter, loc, input, dim));
      inputExprs.push_back(getAffineDimExpr(2 * dim + 1, context));
      groups.push_back({2 * dim, 2 * dim + 1});
    }
    Value init = tensor::EmptyOp::create(rewriter, loc, sizes,
                                         inputType.getElementType());
    SmallVector<AffineMap> maps = {
        AffineMap::get(2 * rank, 0, inputExprs, context),
        rewriter.getMultiDimIdentityMap(2 * rank)};
    SmallVector<utils::IteratorType> iterators(2 * rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, init.getType(), ValueRange{input}, ValueRange{init},
        maps, iterators, [](OpBuilder &b, Location loc, ValueRange args) {
          linalg::YieldOp::create(b, loc, args[0]);
        });
    Value result = tensor::CollapseShapeOp::create(
        rewriter, loc, generic.getResult(0), groups);
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateConcatPatterns(const TypeConverter &typeConverter,
                                          RewritePatternSet &patterns) {
  patterns.add<ConcatV2OpLowering, PadOpLowering<tf::PadOp>,
               PadOpLowering<tf::PadV2Op>, TileOpLowering>(
      typeConverter, patterns.getContext());
}
