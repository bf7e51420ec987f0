//===- Window3D.cpp - tf 3-D convolution and pooling to linalg --*- C++ -*-===//
//
// Conv3D, MaxPool3D and AvgPool3D (what Keras' Conv3D, MaxPooling3D and
// AveragePooling3D layers emit) as linalg.conv_3d_ndhwc_dhwcf,
// linalg.pooling_ndhwc_max and linalg.pooling_ndhwc_sum, with TensorFlow's
// SAME padding (the odd element on the after side). The data format is
// NDHWC, the only one TensorFlow's CPU kernels run; the spatial sizes must
// be static (the batch may be dynamic). Floats narrower than f32 accumulate
// in f32.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/NNUtils.h"
#include "conversions/TFToLinalg/Patterns.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

#include <array>

using namespace mlir;
using namespace kiln;
using namespace kiln::nn;

namespace {

//===----------------------------------------------------------------------===//
// Window parameters
//===----------------------------------------------------------------------===//

/// The depth, height and width (spatial dimensions 1 to 3 of NDHWC) of a
/// 3-D window op: window sizes, strides, dilations, TensorFlow's padding and
/// the output sizes, all static.
struct Window3D {
  std::array<int64_t, 3> sizes{}, strides{}, dilations{}, before{}, after{},
      input{}, output{};
  RankedTensorType inputType, resultType;

  /// Whether some spatial dimension is padded.
  bool isPadded() const {
    for (int i = 0; i < 3; ++i)
      if (before[i] != 0 || after[i] != 0)
        return true;
    return false;
  }
};

/// Checks the types and attributes of a 3-D window op and computes its
/// padding and output sizes, reporting what is unsupported. `window` holds
/// the window's spatial sizes (the filter's for Conv3D, ksize's for pools);
/// `dilations` may be null.
FailureOr<Window3D> setUpWindow3D(Operation *op, Value input, Type resultType,
                                  ArrayRef<int64_t> window, ArrayAttr strides,
                                  ArrayAttr dilations, StringRef padding,
                                  StringRef dataFormat) {
  Window3D w;
  w.inputType = dyn_cast<RankedTensorType>(input.getType());
  w.resultType = dyn_cast_or_null<RankedTensorType>(resultType);
  for (RankedTensorType type : {w.inputType, w.resultType}) {
    if (!type || type.getRank() != 5)
      return kiln::detail::reportUnsupported(op,
                                             "operands of rank other than 5");
    if (!isa<FloatType>(type.getElementType()))
      return kiln::detail::reportUnsupported(
          op, describeElement(type.getElementType()));
  }
  if (dataFormat != "NDHWC")
    return kiln::detail::reportUnsupported(
        op, "data_format '" + dataFormat +
                "' (expected NDHWC, the only one TensorFlow's CPU kernels "
                "run)");
  if (padding != "SAME" && padding != "VALID")
    return kiln::detail::reportUnsupported(op, "padding '" + padding + "'");
  SmallVector<int64_t> strideValues = getInts(strides);
  SmallVector<int64_t> dilationValues =
      dilations ? getInts(dilations) : SmallVector<int64_t>(5, 1);
  if (strideValues.size() != 5 || dilationValues.size() != 5)
    return kiln::detail::reportUnsupported(op, "strides or dilations without "
                                               "5 values");
  for (int i = 0; i < 3; ++i) {
    w.sizes[i] = window[i];
    w.strides[i] = strideValues[1 + i];
    w.dilations[i] = dilationValues[1 + i];
    w.input[i] = w.inputType.getDimSize(1 + i);
    if (ShapedType::isDynamic(w.input[i]))
      return kiln::detail::reportUnsupported(
          op, "a dynamic spatial size (dimension " + Twine(1 + i) +
                  " of the input)");
    if (ShapedType::isDynamic(w.sizes[i]))
      return kiln::detail::reportUnsupported(
          op, "a dynamic window size (spatial dimension " + Twine(i) + ")");
    if (w.strides[i] <= 0 || w.dilations[i] <= 0)
      return kiln::detail::reportUnsupported(op, "non-positive strides or "
                                                 "dilations");
    int64_t effective = (w.sizes[i] - 1) * w.dilations[i] + 1;
    if (padding == "VALID") {
      if (w.input[i] < effective)
        return kiln::detail::reportUnsupported(
            op, "a VALID window of " + Twine(effective) +
                    " over an input of " + Twine(w.input[i]) +
                    " in dimension " + Twine(1 + i));
      w.output[i] = (w.input[i] - effective) / w.strides[i] + 1;
      continue;
    }
    w.output[i] = (w.input[i] + w.strides[i] - 1) / w.strides[i];
    int64_t total = std::max<int64_t>(
        (w.output[i] - 1) * w.strides[i] + effective - w.input[i], 0);
    w.before[i] = total / 2;
    w.after[i] = total - w.before[i];
  }
  for (int i = 0; i < 3; ++i) {
    int64_t expected = w.resultType.getDimSize(1 + i);
    if (!ShapedType::isDynamic(expected) && expected != w.output[i])
      return op->emitOpError("has result type ")
             << w.resultType << " but TensorFlow's padding gives "
             << w.output[i] << " in dimension " << 1 + i;
  }
  return w;
}

/// `value` (NDHWC) padded spatially by `w`'s padding with `padValue`;
/// `value` itself when nothing is padded.
Value padSpatial3D(OpBuilder &b, Location loc, Value value, const Window3D &w,
                   TypedAttr padValue) {
  if (!w.isPadded())
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> low(5, b.getIndexAttr(0));
  SmallVector<OpFoldResult> high(5, b.getIndexAttr(0));
  for (int i = 0; i < 3; ++i) {
    low[1 + i] = b.getIndexAttr(w.before[i]);
    high[1 + i] = b.getIndexAttr(w.after[i]);
    shape[1 + i] += w.before[i] + w.after[i];
  }
  Value pad = arith::ConstantOp::create(b, loc, padValue);
  return tensor::PadOp::create(b, loc, type.clone(shape), value, low, high,
                               pad);
}

/// A [N, OD, OH, OW, channels] tensor of `element` filled with `value`,
/// the batch size read from `input`.
Value createInit3D(OpBuilder &b, Location loc, Value input, const Window3D &w,
                   OpFoldResult channels, Type element, Value value) {
  SmallVector<OpFoldResult> sizes{tensor::getMixedSize(b, loc, input, 0),
                                  b.getIndexAttr(w.output[0]),
                                  b.getIndexAttr(w.output[1]),
                                  b.getIndexAttr(w.output[2]), channels};
  return createFilled(b, loc, sizes, element, value);
}

/// The depth, height and width of a window op as a rank-1 i64 tensor
/// attribute (linalg's strides and dilations).
DenseIntElementsAttr getI64Triple(OpBuilder &b,
                                  const std::array<int64_t, 3> &values) {
  return b.getI64TensorAttr({values[0], values[1], values[2]});
}

/// The spatial sizes of ksize, an attribute of 5 values in NDHWC order
/// (dynamic ones when it has another length; the verifier rejects those).
SmallVector<int64_t> getPoolWindow(ArrayAttr ksize) {
  SmallVector<int64_t> values = getInts(ksize);
  if (values.size() != 5)
    return SmallVector<int64_t>(3, ShapedType::kDynamic);
  return {values[1], values[2], values[3]};
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// tf.Conv3D -> tensor.pad (zeros) and linalg.conv_3d_ndhwc_dhwcf, whose
/// filter layout [D, H, W, C, F] is TensorFlow's.
struct Conv3DOpLowering final : OpConversionPattern<tf::Conv3DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::Conv3DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto filterType = dyn_cast<RankedTensorType>(adaptor.getFilter().getType());
    if (!filterType || filterType.getRank() != 5)
      return kiln::detail::reportUnsupported(op, "a filter of rank other "
                                                 "than 5");
    FailureOr<Window3D> w = setUpWindow3D(
        op, adaptor.getInput(),
        getTypeConverter()->convertType(op.getType()),
        filterType.getShape().take_front(3), op.getStrides(),
        op.getDilations(), op.getPadding(), op.getDataFormat());
    if (failed(w))
      return failure();
    int64_t inChannels = w->inputType.getDimSize(4);
    int64_t filterChannels = filterType.getDimSize(3);
    if (ShapedType::isDynamic(inChannels) ||
        ShapedType::isDynamic(filterChannels) || inChannels != filterChannels)
      return kiln::detail::reportUnsupported(
          op, "grouped or dynamic channels (filter of " +
                  Twine(filterChannels) + " input channels for an input of " +
                  Twine(inChannels) + ")");

    Location loc = op.getLoc();
    Type element = w->resultType.getElementType();
    Type accumulator = getAccumulatorType(element);
    Value input = padSpatial3D(rewriter, loc, adaptor.getInput(), *w,
                               rewriter.getZeroAttr(element));
    Value init = createInit3D(
        rewriter, loc, input, *w,
        tensor::getMixedSize(rewriter, loc, adaptor.getFilter(), 4),
        accumulator, createZero(rewriter, loc, accumulator));
    Value conv = linalg::Conv3DNdhwcDhwcfOp::create(
                     rewriter, loc, TypeRange{init.getType()},
                     ValueRange{input, adaptor.getFilter()}, ValueRange{init},
                     getI64Triple(rewriter, w->strides),
                     getI64Triple(rewriter, w->dilations))
                     .getResult(0);
    conv = convertElements(rewriter, loc, conv, element);
    rewriter.replaceOp(op, castToType(rewriter, loc, conv, w->resultType));
    return success();
  }
};

/// tf.MaxPool3D -> tensor.pad with -inf and linalg.pooling_ndhwc_max from
/// -inf: TensorFlow's 3-D kernel (Eigen's max reducer) starts from -inf, so
/// a window of only -inf gives -inf (the 2-D MaxPool's kernel starts from
/// the lowest finite value instead; see Pooling.cpp). A window of SAME
/// padding never lies in the padding only.
struct MaxPool3DOpLowering final : OpConversionPattern<tf::MaxPool3DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::MaxPool3DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Window3D> w = setUpWindow3D(
        op, adaptor.getInput(), getTypeConverter()->convertType(op.getType()),
        getPoolWindow(op.getKsize()), op.getStrides(), /*dilations=*/nullptr,
        op.getPadding(), op.getDataFormat());
    if (failed(w))
      return failure();
    Location loc = op.getLoc();
    auto element = cast<FloatType>(w->resultType.getElementType());
    TypedAttr negInf = rewriter.getFloatAttr(
        element, APFloat::getInf(element.getFloatSemantics(),
                                 /*Negative=*/true));
    Value input = padSpatial3D(rewriter, loc, adaptor.getInput(), *w, negInf);
    Value init = createInit3D(
        rewriter, loc, input, *w, tensor::getMixedSize(rewriter, loc, input, 4),
        element, arith::ConstantOp::create(rewriter, loc, negInf));
    Value windowShape =
        tensor::EmptyOp::create(rewriter, loc, w->sizes, element);
    Value pooled = linalg::PoolingNdhwcMaxOp::create(
                       rewriter, loc, TypeRange{init.getType()},
                       ValueRange{input, windowShape}, ValueRange{init},
                       getI64Triple(rewriter, w->strides),
                       getI64Triple(rewriter, {1, 1, 1}))
                       .getResult(0);
    rewriter.replaceOp(op, castToType(rewriter, loc, pooled, w->resultType));
    return success();
  }
};

/// tf.AvgPool3D -> linalg.pooling_ndhwc_sum over the zero-padded input, then
/// a linalg.generic dividing each window's sum by its count of non-padded
/// elements, as TensorFlow's SAME average does: a scalar when every window
/// has the same count, else a constant [OD, OH, OW] table.
struct AvgPool3DOpLowering final : OpConversionPattern<tf::AvgPool3DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::AvgPool3DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Window3D> w = setUpWindow3D(
        op, adaptor.getInput(), getTypeConverter()->convertType(op.getType()),
        getPoolWindow(op.getKsize()), op.getStrides(), /*dilations=*/nullptr,
        op.getPadding(), op.getDataFormat());
    if (failed(w))
      return failure();
    Location loc = op.getLoc();
    Type element = w->resultType.getElementType();
    auto accumulator = cast<FloatType>(getAccumulatorType(element));

    // Non-padded elements per output position, per spatial dimension.
    std::array<SmallVector<int64_t>, 3> counts;
    for (int i = 0; i < 3; ++i)
      for (int64_t o = 0; o < w->output[i]; ++o) {
        int64_t start = o * w->strides[i] - w->before[i];
        counts[i].push_back(std::min(start + w->sizes[i], w->input[i]) -
                            std::max<int64_t>(start, 0));
      }
    SmallVector<APFloat> table;
    bool uniform = true;
    int64_t first = counts[0][0] * counts[1][0] * counts[2][0];
    for (int64_t d : counts[0])
      for (int64_t h : counts[1])
        for (int64_t c : counts[2]) {
          APFloat value(static_cast<double>(d * h * c));
          bool losesInfo;
          value.convert(accumulator.getFloatSemantics(),
                        APFloat::rmNearestTiesToEven, &losesInfo);
          table.push_back(value);
          uniform &= d * h * c == first;
        }

    Value input = padSpatial3D(rewriter, loc, adaptor.getInput(), *w,
                               rewriter.getZeroAttr(element));
    Value init = createInit3D(
        rewriter, loc, input, *w, tensor::getMixedSize(rewriter, loc, input, 4),
        accumulator, createZero(rewriter, loc, accumulator));
    Value windowShape =
        tensor::EmptyOp::create(rewriter, loc, w->sizes, element);
    Value sum = linalg::PoolingNdhwcSumOp::create(
                    rewriter, loc, TypeRange{init.getType()},
                    ValueRange{input, windowShape}, ValueRange{init},
                    getI64Triple(rewriter, w->strides),
                    getI64Triple(rewriter, {1, 1, 1}))
                    .getResult(0);

    MLIRContext *context = rewriter.getContext();
    AffineMap identity = rewriter.getMultiDimIdentityMap(5);
    SmallVector<Value> inputs{sum};
    SmallVector<AffineMap> maps{identity};
    Value scalarCount;
    if (uniform) {
      scalarCount = arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(accumulator, table.front()));
    } else {
      auto tableType = RankedTensorType::get(
          {w->output[0], w->output[1], w->output[2]}, accumulator);
      inputs.push_back(arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(tableType, table)));
      maps.push_back(AffineMap::get(5, 0,
                                    {getAffineDimExpr(1, context),
                                     getAffineDimExpr(2, context),
                                     getAffineDimExpr(3, context)},
                                    context));
    }
    maps.push_back(identity);
    Value resultInit = tensor::EmptyOp::create(
        rewriter, loc, getSizes(rewriter, loc, sum), element);
    Value average =
        linalg::GenericOp::create(
            rewriter, loc, resultInit.getType(), inputs, ValueRange{resultInit},
            maps,
            SmallVector<utils::IteratorType>(5, utils::IteratorType::parallel),
            [&](OpBuilder &b, Location loc, ValueRange args) {
              Value count = scalarCount ? scalarCount : args[1];
              Value quotient = arith::DivFOp::create(b, loc, args[0], count);
              if (quotient.getType() != element)
                quotient = arith::TruncFOp::create(b, loc, element, quotient);
              linalg::YieldOp::create(b, loc, quotient);
            })
            .getResult(0);
    rewriter.replaceOp(op, castToType(rewriter, loc, average, w->resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateWindow3DPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  patterns.add<Conv3DOpLowering, MaxPool3DOpLowering, AvgPool3DOpLowering>(
      typeConverter, patterns.getContext());
}
