//===- Pooling.cpp - tf pooling to linalg -----------------------*- C++ -*-===//
//
// MaxPool and AvgPool as linalg pooling ops, with TensorFlow's SAME
// padding; AvgPool divides by the count of non-padded elements.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/NNUtils.h"
#include "conversions/TFToLinalg/Patterns.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "llvm/ADT/StringExtras.h"

#include <array>
#include <cmath>

using namespace mlir;
using namespace kiln;
using namespace kiln::nn;

namespace {

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// What the pooling patterns share: the checked types, window and padding.
struct PoolSetup {
  Window2D window;
  RankedTensorType inputType, resultType;
  std::array<SpatialPadding, 2> paddings;
  SmallVector<int64_t> spatial;
};

/// Checks a pooling op's types and reads its window and padding, reporting
/// what is unsupported.
template <typename OpTy>
FailureOr<PoolSetup> setUpPooling(OpTy op, Value input, ArrayAttr explicitPads,
                                  const TypeConverter &converter) {
  PoolSetup setup;
  setup.inputType = dyn_cast<RankedTensorType>(input.getType());
  setup.resultType =
      kiln::detail::getConvertedTensorType(converter, op.getType());
  if (failed(checkWindowTypes(op, {setup.inputType, setup.resultType})))
    return failure();
  FailureOr<Window2D> window = parseWindow(
      op, op.getDataFormat(), op.getStrides(),
      /*dilations=*/nullptr, op.getKsize(), op.getPadding(), explicitPads);
  if (failed(window))
    return failure();
  setup.window = *window;
  setup.spatial = getDimSizes(setup.inputType,
                              {window->spatialDim(0), window->spatialDim(1)});
  SmallVector<int64_t> resultSpatial{
      setup.resultType.getDimSize(window->spatialDim(0)),
      setup.resultType.getDimSize(window->spatialDim(1))};
  FailureOr<std::array<SpatialPadding, 2>> paddings =
      computePaddings(op, *window, setup.spatial,
                      {window->sizes[0], window->sizes[1]}, resultSpatial);
  if (failed(paddings))
    return failure();
  if (failed(
          checkResultShape(op,
                           {setup.inputType.getDimSize(0),
                            (*paddings)[0].output, (*paddings)[1].output,
                            setup.inputType.getDimSize(window->channelDim())},
                           setup.resultType, window->nchw)))
    return failure();
  setup.paddings = *paddings;
  return setup;
}

/// The [N, OH, OW, C] tensor of a pooling of `input` (NHWC, padded) filled
/// with `value`.
Value createPoolInit(OpBuilder &b, Location loc, Value input,
                     const std::array<SpatialPadding, 2> &paddings,
                     const Window2D &window, Type element, Value value) {
  SmallVector<OpFoldResult> sizes{
      tensor::getMixedSize(b, loc, input, 0),
      getOutputSize(b, loc, input, 0, paddings[0], window, window.sizes[0]),
      getOutputSize(b, loc, input, 1, paddings[1], window, window.sizes[1]),
      tensor::getMixedSize(b, loc, input, 3)};
  return createFilled(b, loc, sizes, element, value);
}

/// tf.MaxPool -> tensor.pad with the lowest value of the element type (no
/// window of SAME padding lies in the padding only) and
/// linalg.pooling_nhwc_max (_unsigned for TensorFlow's unsigned types),
/// from that same value. The lowest value is TensorFlow's kernel's initial
/// value, Eigen::NumTraits<T>::lowest(): for floats the lowest finite one
/// (-3.4028235e+38 for f32), not -inf, so a window of only -inf gives it.
struct MaxPoolOpLowering final : OpConversionPattern<tf::MaxPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::MaxPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<PoolSetup> setup = setUpPooling(
        op, adaptor.getInput(), op.getExplicitPaddings(), *getTypeConverter());
    if (failed(setup))
      return failure();
    const Window2D &window = setup->window;
    for (int i = 0; i < 2; ++i)
      if (setup->paddings[i].before >= window.sizes[i] ||
          setup->paddings[i].after >= window.sizes[i])
        return kiln::detail::reportUnsupported(
            op, "explicit padding as large as the window");

    Location loc = op.getLoc();
    Type element = setup->resultType.getElementType();
    bool isUnsigned = kiln::detail::isUnsignedElement(op.getInput().getType());
    TypedAttr lowest;
    if (auto floatType = dyn_cast<FloatType>(element))
      lowest = rewriter.getFloatAttr(
          floatType, APFloat::getLargest(floatType.getFloatSemantics(),
                                         /*Negative=*/true));
    else
      lowest = rewriter.getIntegerAttr(
          element, isUnsigned ? APInt::getZero(element.getIntOrFloatBitWidth())
                              : APInt::getSignedMinValue(
                                    element.getIntOrFloatBitWidth()));
    Value input = toNHWC(rewriter, loc, adaptor.getInput(), window.nchw);
    input = padSpatial(rewriter, loc, input, setup->paddings, lowest);
    Value lowestValue = arith::ConstantOp::create(rewriter, loc, lowest);
    Value init = createPoolInit(rewriter, loc, input, setup->paddings, window,
                                element, lowestValue);
    Value windowShape = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{window.sizes[0], window.sizes[1]},
        element);
    DenseIntElementsAttr strides =
        getI64Pair(rewriter, window.strides[0], window.strides[1]);
    DenseIntElementsAttr dilations = getI64Pair(rewriter, 1, 1);
    Value pooled;
    if (isUnsigned)
      pooled = linalg::PoolingNhwcMaxUnsignedOp::create(
                   rewriter, loc, TypeRange{init.getType()},
                   ValueRange{input, windowShape}, ValueRange{init}, strides,
                   dilations)
                   .getResult(0);
    else
      pooled = linalg::PoolingNhwcMaxOp::create(
                   rewriter, loc, TypeRange{init.getType()},
                   ValueRange{input, windowShape}, ValueRange{init}, strides,
                   dilations)
                   .getResult(0);
    rewriter.replaceOp(
        op, fromNHWC(rewriter, loc, pooled, window.nchw, setup->resultType));
    return success();
  }
};

/// tf.AvgPool -> linalg.pooling_nhwc_sum over the zero-padded input, then a
/// linalg.generic dividing each window's sum by its count of non-padded
/// elements (TensorFlow's SAME average): a scalar when every window has the
/// same count, else a constant [OH, OW] table, or over dynamic sizes the
/// count computed in the body from the output index.
struct AvgPoolOpLowering final : OpConversionPattern<tf::AvgPoolOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::AvgPoolOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<PoolSetup> setup =
        setUpPooling(op, adaptor.getValue(),
                     /*explicitPads=*/nullptr, *getTypeConverter());
    if (failed(setup))
      return failure();
    Type element = setup->resultType.getElementType();
    if (!isa<FloatType>(element))
      return kiln::detail::reportUnsupported(op, describeElement(element));
    const Window2D &window = setup->window;
    bool dynamic = llvm::any_of(setup->paddings, [](const SpatialPadding &p) {
      return ShapedType::isDynamic(p.output);
    });
    // SAME over dynamic sizes counts the non-padded elements at run time.
    bool runtimeCounts = dynamic && window.padding != "VALID";

    // The number of non-padded elements in each window, per dimension (the
    // whole window for VALID).
    std::array<SmallVector<int64_t>, 2> counts;
    for (int i = 0; i < 2; ++i) {
      if (dynamic) {
        counts[i].push_back(window.sizes[i]);
        continue;
      }
      for (int64_t o = 0; o < setup->paddings[i].output; ++o) {
        int64_t start = o * window.strides[i] - setup->paddings[i].before;
        int64_t end = start + window.sizes[i];
        counts[i].push_back(std::min(end, setup->spatial[i]) -
                            std::max<int64_t>(start, 0));
      }
    }
    auto accumulator = cast<FloatType>(getAccumulatorType(element));
    SmallVector<APFloat> table;
    bool uniform = true;
    for (int64_t rows : counts[0])
      for (int64_t columns : counts[1]) {
        table.push_back(APFloat(static_cast<double>(rows * columns)));
        uniform &= rows * columns == counts[0][0] * counts[1][0];
      }
    for (APFloat &value : table) {
      bool losesInfo;
      value.convert(accumulator.getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
    }

    Location loc = op.getLoc();
    Value unpadded = toNHWC(rewriter, loc, adaptor.getValue(), window.nchw);
    Value input = padSpatial(rewriter, loc, unpadded, setup->paddings,
                             rewriter.getZeroAttr(element));
    Value init =
        createPoolInit(rewriter, loc, input, setup->paddings, window,
                       accumulator, createZero(rewriter, loc, accumulator));
    // For run-time counts: each dimension's input size and padding before.
    std::array<Value, 2> runtimeSizes, runtimeBefore;
    if (runtimeCounts) {
      for (int i = 0; i < 2; ++i) {
        runtimeSizes[i] = tensor::DimOp::create(rewriter, loc, unpadded, 1 + i);
        OpFoldResult before =
            getPadAmounts(rewriter, loc, unpadded, i, setup->paddings[i]).first;
        runtimeBefore[i] =
            isa<Value>(before)
                ? cast<Value>(before)
                : arith::ConstantIndexOp::create(
                      rewriter, loc,
                      cast<IntegerAttr>(cast<Attribute>(before)).getInt())
                      .getResult();
      }
    }
    Value windowShape = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{window.sizes[0], window.sizes[1]},
        element);
    Value sum = linalg::PoolingNhwcSumOp::create(
                    rewriter, loc, TypeRange{init.getType()},
                    ValueRange{input, windowShape}, ValueRange{init},
                    getI64Pair(rewriter, window.strides[0], window.strides[1]),
                    getI64Pair(rewriter, 1, 1))
                    .getResult(0);

    MLIRContext *context = rewriter.getContext();
    AffineMap identity = rewriter.getMultiDimIdentityMap(4);
    SmallVector<Value> inputs{sum};
    SmallVector<AffineMap> maps{identity};
    Value scalarCount;
    if (runtimeCounts) {
      // Counted in the body below.
    } else if (uniform) {
      scalarCount = arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(accumulator, table.front()));
    } else {
      auto tableType = RankedTensorType::get(
          {setup->paddings[0].output, setup->paddings[1].output}, accumulator);
      inputs.push_back(arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(tableType, table)));
      maps.push_back(AffineMap::get(
          4, 0, {getAffineDimExpr(1, context), getAffineDimExpr(2, context)},
          context));
    }
    maps.push_back(identity);
    Value resultInit = tensor::EmptyOp::create(
        rewriter, loc, getSizes(rewriter, loc, sum), element);
    Value average =
        linalg::GenericOp::create(
            rewriter, loc, resultInit.getType(), inputs, ValueRange{resultInit},
            maps,
            SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
            [&](OpBuilder &b, Location loc, ValueRange args) {
              Value count = scalarCount     ? scalarCount
                            : runtimeCounts ? Value()
                                            : args[1];
              if (runtimeCounts) {
                // Per dimension: min(start + k, size) - max(start, 0) with
                // start = o * stride - before.
                Value product;
                for (int i = 0; i < 2; ++i) {
                  auto constant = [&](int64_t v) -> Value {
                    return arith::ConstantIndexOp::create(b, loc, v);
                  };
                  Value o = linalg::IndexOp::create(b, loc, 1 + i);
                  Value start = arith::SubIOp::create(
                      b, loc,
                      arith::MulIOp::create(b, loc, o,
                                            constant(window.strides[i])),
                      runtimeBefore[i]);
                  Value end = arith::AddIOp::create(b, loc, start,
                                                    constant(window.sizes[i]));
                  Value last =
                      arith::MinSIOp::create(b, loc, end, runtimeSizes[i]);
                  Value first =
                      arith::MaxSIOp::create(b, loc, start, constant(0));
                  Value rows = arith::SubIOp::create(b, loc, last, first);
                  product =
                      product
                          ? Value(arith::MulIOp::create(b, loc, product, rows))
                          : rows;
                }
                Value wide =
                    arith::IndexCastOp::create(b, loc, b.getI64Type(), product);
                count = arith::SIToFPOp::create(b, loc, accumulator, wide);
              }
              Value quotient = arith::DivFOp::create(b, loc, args[0], count);
              if (quotient.getType() != element)
                quotient = arith::TruncFOp::create(b, loc, element, quotient);
              linalg::YieldOp::create(b, loc, quotient);
            })
            .getResult(0);
    rewriter.replaceOp(
        op, fromNHWC(rewriter, loc, average, window.nchw, setup->resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populatePoolingPatterns(const TypeConverter &typeConverter,
                                           RewritePatternSet &patterns) {
  patterns.add<MaxPoolOpLowering, AvgPoolOpLowering>(typeConverter,
                                                     patterns.getContext());
}
