//===- Conv.cpp - tf convolutions to linalg ---------------------*- C++ -*-===//
//
// Conv2D, DepthwiseConv2dNative and Conv2DBackpropInput, with TensorFlow's
// SAME padding (the extra row on the after side). Floats narrower than f32
// accumulate in f32. Spatial and batch sizes may be dynamic (SAME padding
// is then computed at run time); kernel sizes must be constants.
// Conv2DBackpropInput's input_sizes may be computed at run time (the
// padding and buffer sizes are then index arithmetic).
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
// Convolutions
//===----------------------------------------------------------------------===//

/// What the convolution patterns share: the checked types and window, the
/// input's spatial sizes and the kernel's, in NHWC order.
struct ConvSetup {
  Window2D window;
  RankedTensorType inputType, filterType, resultType;
  SmallVector<int64_t> spatial, kernel, resultSpatial;
};

/// Checks a convolution's operand types and reads its window, reporting
/// what is unsupported.
template <typename OpTy>
FailureOr<ConvSetup> setUpConvolution(OpTy op, Value input, Value filter,
                                      const TypeConverter &converter) {
  ConvSetup setup;
  setup.inputType = dyn_cast<RankedTensorType>(input.getType());
  setup.filterType = dyn_cast<RankedTensorType>(filter.getType());
  setup.resultType =
      kiln::detail::getConvertedTensorType(converter, op.getType());
  if (failed(checkWindowTypes(
          op, {setup.inputType, setup.filterType, setup.resultType})))
    return failure();
  Type element = setup.resultType.getElementType();
  if (!(isa<FloatType>(element) || element.isSignlessInteger(32)))
    return kiln::detail::reportUnsupported(op, describeElement(element));
  FailureOr<Window2D> window =
      parseWindow(op, op.getDataFormat(), op.getStrides(), op.getDilations(),
                  /*ksize=*/nullptr, op.getPadding(), op.getExplicitPaddings());
  if (failed(window))
    return failure();
  setup.window = *window;
  FailureOr<SmallVector<int64_t>> kernel =
      getStaticSizes(setup.filterType, {0, 1});
  if (failed(kernel))
    return kiln::detail::reportUnsupported(
        op, "dynamic spatial dimensions of the filter");
  setup.spatial = getDimSizes(setup.inputType,
                              {window->spatialDim(0), window->spatialDim(1)});
  setup.kernel = *kernel;
  setup.resultSpatial = {setup.resultType.getDimSize(window->spatialDim(0)),
                         setup.resultType.getDimSize(window->spatialDim(1))};
  return setup;
}


/// The zero-filled accumulator [N, OH, OW, C] of a convolution of `input`
/// (NHWC, padded) with output spatial sizes from `paddings`.
Value createConvInit(OpBuilder &b, Location loc, Value input,
                     const std::array<SpatialPadding, 2> &paddings,
                     const Window2D &window, ArrayRef<int64_t> kernel,
                     OpFoldResult channels, Type accumulator) {
  SmallVector<OpFoldResult> sizes{
      tensor::getMixedSize(b, loc, input, 0),
      getOutputSize(b, loc, input, 0, paddings[0], window, kernel[0]),
      getOutputSize(b, loc, input, 1, paddings[1], window, kernel[1]),
      channels};
  return createFilled(b, loc, sizes, accumulator,
                      createZero(b, loc, accumulator));
}

/// tf.Conv2D -> tensor.pad (zeros, TensorFlow's padding) and
/// linalg.conv_2d_nhwc_hwcf; NCHW goes through transposes.
struct Conv2DOpLowering final : OpConversionPattern<tf::Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ConvSetup> setup = setUpConvolution(
        op, adaptor.getInput(), adaptor.getFilter(), *getTypeConverter());
    if (failed(setup))
      return failure();
    const Window2D &window = setup->window;
    int64_t inChannels = setup->inputType.getDimSize(window.channelDim());
    int64_t filterChannels = setup->filterType.getDimSize(2);
    if (!ShapedType::isDynamic(inChannels) &&
        !ShapedType::isDynamic(filterChannels) && inChannels != filterChannels)
      return kiln::detail::reportUnsupported(
          op, "grouped convolution (filter of " + Twine(filterChannels) +
                  " input channels for an input of " + Twine(inChannels) + ")");
    FailureOr<std::array<SpatialPadding, 2>> paddings = computePaddings(
        op, window, setup->spatial, setup->kernel, setup->resultSpatial);
    if (failed(paddings))
      return failure();
    if (failed(checkResultShape(op,
                                {setup->inputType.getDimSize(0),
                                 (*paddings)[0].output, (*paddings)[1].output,
                                 setup->filterType.getDimSize(3)},
                                setup->resultType, window.nchw)))
      return failure();

    Location loc = op.getLoc();
    Type element = setup->resultType.getElementType();
    Type accumulator = getAccumulatorType(element);
    Value input = toNHWC(rewriter, loc, adaptor.getInput(), window.nchw);
    input = padSpatial(rewriter, loc, input, *paddings,
                       rewriter.getZeroAttr(element));
    Value init = createConvInit(
        rewriter, loc, input, *paddings, window, setup->kernel,
        tensor::getMixedSize(rewriter, loc, adaptor.getFilter(), 3),
        accumulator);
    Value conv =
        linalg::Conv2DNhwcHwcfOp::create(
            rewriter, loc, TypeRange{init.getType()},
            ValueRange{input, adaptor.getFilter()}, ValueRange{init},
            getI64Pair(rewriter, window.strides[0], window.strides[1]),
            getI64Pair(rewriter, window.dilations[0], window.dilations[1]))
            .getResult(0);
    conv = convertElements(rewriter, loc, conv, element);
    rewriter.replaceOp(
        op, fromNHWC(rewriter, loc, conv, window.nchw, setup->resultType));
    return success();
  }
};

/// tf.DepthwiseConv2dNative -> tensor.pad and
/// linalg.depthwise_conv_2d_nhwc_hwc (channel multiplier 1, the filter's
/// last dimension collapsed) or linalg.depthwise_conv_2d_nhwc_hwcm with the
/// result's [C, M] collapsed into output channel c * M + m, TensorFlow's
/// order.
struct DepthwiseConv2dNativeOpLowering final
    : OpConversionPattern<tf::DepthwiseConv2dNativeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::DepthwiseConv2dNativeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ConvSetup> setup = setUpConvolution(
        op, adaptor.getInput(), adaptor.getFilter(), *getTypeConverter());
    if (failed(setup))
      return failure();
    const Window2D &window = setup->window;
    int64_t inChannels = setup->inputType.getDimSize(window.channelDim());
    int64_t filterChannels = setup->filterType.getDimSize(2);
    int64_t multiplier = setup->filterType.getDimSize(3);
    if (!ShapedType::isDynamic(inChannels) &&
        !ShapedType::isDynamic(filterChannels) && inChannels != filterChannels)
      return kiln::detail::reportUnsupported(
          op, "filter of " + Twine(filterChannels) +
                  " channels for an input of " + Twine(inChannels));
    if (ShapedType::isDynamic(multiplier))
      return kiln::detail::reportUnsupported(op, "dynamic channel multiplier");
    FailureOr<std::array<SpatialPadding, 2>> paddings = computePaddings(
        op, window, setup->spatial, setup->kernel, setup->resultSpatial);
    if (failed(paddings))
      return failure();
    int64_t outChannels = ShapedType::isDynamic(filterChannels)
                              ? ShapedType::kDynamic
                              : filterChannels * multiplier;
    if (failed(checkResultShape(op,
                                {setup->inputType.getDimSize(0),
                                 (*paddings)[0].output, (*paddings)[1].output,
                                 outChannels},
                                setup->resultType, window.nchw)))
      return failure();

    Location loc = op.getLoc();
    Type element = setup->resultType.getElementType();
    Type accumulator = getAccumulatorType(element);
    Value input = toNHWC(rewriter, loc, adaptor.getInput(), window.nchw);
    input = padSpatial(rewriter, loc, input, *paddings,
                       rewriter.getZeroAttr(element));
    OpFoldResult channels =
        tensor::getMixedSize(rewriter, loc, adaptor.getFilter(), 2);
    Value filter = adaptor.getFilter();
    DenseIntElementsAttr strides =
        getI64Pair(rewriter, window.strides[0], window.strides[1]);
    DenseIntElementsAttr dilations =
        getI64Pair(rewriter, window.dilations[0], window.dilations[1]);
    Value conv;
    if (multiplier == 1) {
      filter = tensor::CollapseShapeOp::create(
          rewriter, loc, filter,
          SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
      Value init = createConvInit(rewriter, loc, input, *paddings, window,
                                  setup->kernel, channels, accumulator);
      conv =
          linalg::DepthwiseConv2DNhwcHwcOp::create(
              rewriter, loc, TypeRange{init.getType()},
              ValueRange{input, filter}, ValueRange{init}, strides, dilations)
              .getResult(0);
    } else {
      SmallVector<OpFoldResult> sizes{
          tensor::getMixedSize(rewriter, loc, input, 0),
          getOutputSize(rewriter, loc, input, 0, (*paddings)[0], window,
                        setup->kernel[0]),
          getOutputSize(rewriter, loc, input, 1, (*paddings)[1], window,
                        setup->kernel[1]),
          channels, rewriter.getIndexAttr(multiplier)};
      Value init = createFilled(rewriter, loc, sizes, accumulator,
                                createZero(rewriter, loc, accumulator));
      conv =
          linalg::DepthwiseConv2DNhwcHwcmOp::create(
              rewriter, loc, TypeRange{init.getType()},
              ValueRange{input, filter}, ValueRange{init}, strides, dilations)
              .getResult(0);
      conv = tensor::CollapseShapeOp::create(
          rewriter, loc, conv,
          SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
    }
    conv = convertElements(rewriter, loc, conv, element);
    rewriter.replaceOp(
        op, fromNHWC(rewriter, loc, conv, window.nchw, setup->resultType));
    return success();
  }
};

/// The transposed convolution's tail: `dilated` (out_backprop dilated and
/// padded, NHWC) correlated by a stride-1 linalg.conv_2d_nhwc_hwcf with
/// `filter` flipped in both spatial dimensions and its channel dimensions
/// swapped, into [N, H, W, C] of `resultSizes`, in the op's data format as
/// `resultType`.
Value convolveFlipped(OpBuilder &b, Location loc, const Window2D &window,
                      Value dilated, Value filter, ArrayRef<int64_t> kernel,
                      OpFoldResult outChannels, OpFoldResult inChannels,
                      ArrayRef<OpFoldResult> resultSizes, Type element,
                      RankedTensorType resultType) {
  Type accumulator = getAccumulatorType(element);
  // The filter flipped in both spatial dimensions, [KH, KW, out, in].
  MLIRContext *context = b.getContext();
  AffineExpr d0 = getAffineDimExpr(0, context);
  AffineExpr d1 = getAffineDimExpr(1, context);
  AffineMap flip = AffineMap::get(4, 0,
                                  {kernel[0] - 1 - d0, kernel[1] - 1 - d1,
                                   getAffineDimExpr(3, context),
                                   getAffineDimExpr(2, context)},
                                  context);
  Value flippedInit = tensor::EmptyOp::create(
      b, loc,
      SmallVector<OpFoldResult>{b.getIndexAttr(kernel[0]),
                                b.getIndexAttr(kernel[1]), outChannels,
                                inChannels},
      element);
  Value flipped =
      linalg::GenericOp::create(
          b, loc, flippedInit.getType(), ValueRange{filter},
          ValueRange{flippedInit},
          SmallVector<AffineMap>{flip, b.getMultiDimIdentityMap(4)},
          SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
          [](OpBuilder &b, Location loc, ValueRange args) {
            linalg::YieldOp::create(b, loc, args[0]);
          })
          .getResult(0);

  Value init = createFilled(b, loc, resultSizes, accumulator,
                            createZero(b, loc, accumulator));
  Value conv =
      linalg::Conv2DNhwcHwcfOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{dilated, flipped},
          ValueRange{init}, getI64Pair(b, 1, 1),
          getI64Pair(b, window.dilations[0], window.dilations[1]))
          .getResult(0);
  conv = convertElements(b, loc, conv, element);
  return fromNHWC(b, loc, conv, window.nchw, resultType);
}

/// tf.Conv2DBackpropInput (the transposed convolution) -> a stride-1
/// linalg.conv_2d_nhwc_hwcf over out_backprop dilated by the strides, of
/// the spatially flipped filter with its channel dimensions swapped.
///
/// The forward convolution reads padded input row h + pb at out row o and
/// kernel row k when o * s + k * d = h + pb, so the gradient of input row h
/// is sum over k of z[h + pb - k * d] * w[k], where z is out_backprop with
/// s - 1 zeros between rows. With k' = K - 1 - k this is a correlation
/// sum over k' of z'[h + k' * d] * w[K - 1 - k'] on z padded by
/// (K - 1) * d - pb before; the padding after makes H + (K - 1) * d rows.
///
/// input_sizes may be computed at run time (an image of dynamic size): H
/// and W are then extracted from it, and pb, the padded size and the result
/// size are index arithmetic; the kernel must still be static.
struct Conv2DBackpropInputOpLowering final
    : OpConversionPattern<tf::Conv2DBackpropInputOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::Conv2DBackpropInputOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto gradType =
        dyn_cast<RankedTensorType>(adaptor.getOutBackprop().getType());
    auto filterType = dyn_cast<RankedTensorType>(adaptor.getFilter().getType());
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (failed(checkWindowTypes(op, {gradType, filterType, resultType})))
      return failure();
    Type element = resultType.getElementType();
    if (!(isa<FloatType>(element) || element.isSignlessInteger(32)))
      return kiln::detail::reportUnsupported(op, describeElement(element));
    FailureOr<Window2D> parsed = parseWindow(
        op, op.getDataFormat(), op.getStrides(), op.getDilations(),
        /*ksize=*/nullptr, op.getPadding(), op.getExplicitPaddings());
    if (failed(parsed))
      return failure();
    const Window2D &window = *parsed;

    FailureOr<SmallVector<int64_t>> sizes =
        kiln::detail::getConstantIntValues(adaptor.getInputSizes());
    if (failed(sizes))
      sizes = kiln::detail::getConstantIntValues(op.getInputSizes());
    if (failed(sizes))
      return lowerRuntimeSizes(op, adaptor, rewriter, window, gradType,
                               filterType, resultType);
    int64_t inputSpatial[2];
    if (sizes->size() == 4) {
      inputSpatial[0] = (*sizes)[window.spatialDim(0)];
      inputSpatial[1] = (*sizes)[window.spatialDim(1)];
    } else if (sizes->size() == 2) {
      inputSpatial[0] = (*sizes)[0];
      inputSpatial[1] = (*sizes)[1];
    } else {
      return kiln::detail::reportUnsupported(
          op, "input_sizes of " + Twine(sizes->size()) +
                  " values (expected 4 or 2)");
    }
    for (int i = 0; i < 2; ++i) {
      int64_t declared = resultType.getDimSize(window.spatialDim(i));
      if (!ShapedType::isDynamic(declared) && declared != inputSpatial[i])
        return kiln::detail::reportUnsupported(
            op, "input_sizes do not match the result type");
    }
    FailureOr<SmallVector<int64_t>> gradSpatial =
        getStaticSizes(gradType, {window.spatialDim(0), window.spatialDim(1)});
    FailureOr<SmallVector<int64_t>> kernel = getStaticSizes(filterType, {0, 1});
    if (failed(gradSpatial) || failed(kernel))
      return kiln::detail::reportUnsupported(
          op, "dynamic spatial dimensions of out_backprop or the filter");
    // The forward convolution's padding, and from it the padding of the
    // dilated out_backprop.
    FailureOr<std::array<SpatialPadding, 2>> forward =
        computePaddings(op, window, inputSpatial, *kernel, *gradSpatial);
    if (failed(forward))
      return failure();
    if (failed(checkChannels(op, window, gradType, filterType)))
      return failure();
    if (failed(checkResultShape(op,
                                {gradType.getDimSize(0), inputSpatial[0],
                                 inputSpatial[1], filterType.getDimSize(2)},
                                resultType, window.nchw)))
      return failure();
    int64_t padBefore[2], padAfter[2];
    for (int i = 0; i < 2; ++i) {
      int64_t effective = ((*kernel)[i] - 1) * window.dilations[i] + 1;
      int64_t dilatedSize = ((*gradSpatial)[i] - 1) * window.strides[i] + 1;
      padBefore[i] = effective - 1 - (*forward)[i].before;
      padAfter[i] =
          inputSpatial[i] + effective - 1 - padBefore[i] - dilatedSize;
      if (padBefore[i] < 0 || padAfter[i] < 0)
        return kiln::detail::reportUnsupported(
            op, "padding larger than the dilated kernel");
    }

    Location loc = op.getLoc();
    Value grad = toNHWC(rewriter, loc, adaptor.getOutBackprop(), window.nchw);
    Value filter = adaptor.getFilter();
    OpFoldResult batch = tensor::getMixedSize(rewriter, loc, grad, 0);
    OpFoldResult outChannels = tensor::getMixedSize(rewriter, loc, grad, 3);
    OpFoldResult inChannels = tensor::getMixedSize(rewriter, loc, filter, 2);

    // out_backprop with stride - 1 zeros between elements, padded.
    SmallVector<OpFoldResult> dilatedSizes{batch, OpFoldResult(),
                                           OpFoldResult(), outChannels};
    for (int i = 0; i < 2; ++i)
      dilatedSizes[1 + i] = rewriter.getIndexAttr(
          padBefore[i] + ((*gradSpatial)[i] - 1) * window.strides[i] + 1 +
          padAfter[i]);
    Value dilated = createFilled(rewriter, loc, dilatedSizes, element,
                                 createZero(rewriter, loc, element));
    SmallVector<OpFoldResult> offsets{
        rewriter.getIndexAttr(0), rewriter.getIndexAttr(padBefore[0]),
        rewriter.getIndexAttr(padBefore[1]), rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> sliceStrides{
        rewriter.getIndexAttr(1), rewriter.getIndexAttr(window.strides[0]),
        rewriter.getIndexAttr(window.strides[1]), rewriter.getIndexAttr(1)};
    dilated = tensor::InsertSliceOp::create(
        rewriter, loc, grad, dilated, offsets, getSizes(rewriter, loc, grad),
        sliceStrides);

    SmallVector<OpFoldResult> resultSizes{
        batch, rewriter.getIndexAttr(inputSpatial[0]),
        rewriter.getIndexAttr(inputSpatial[1]), inChannels};
    rewriter.replaceOp(op,
                       convolveFlipped(rewriter, loc, window, dilated, filter,
                                       *kernel, outChannels, inChannels,
                                       resultSizes, element, resultType));
    return success();
  }

private:
  /// Checks that out_backprop's channels are the filter's output channels.
  static LogicalResult checkChannels(tf::Conv2DBackpropInputOp op,
                                     const Window2D &window,
                                     RankedTensorType gradType,
                                     RankedTensorType filterType) {
    int64_t gradChannels = gradType.getDimSize(window.channelDim());
    int64_t filterOut = filterType.getDimSize(3);
    if (!ShapedType::isDynamic(gradChannels) &&
        !ShapedType::isDynamic(filterOut) && gradChannels != filterOut)
      return kiln::detail::reportUnsupported(
          op, "filter of " + Twine(filterOut) +
                  " output channels for out_backprop of " +
                  Twine(gradChannels));
    return success();
  }

  /// The lowering when input_sizes is a run-time value. For each spatial
  /// dimension with H read from input_sizes and G from out_backprop, the
  /// forward padding before is 0 (VALID), the given one (EXPLICIT), or
  /// max((ceil(H / s) - 1) * s + eff - H, 0) / 2 (SAME); the dilated
  /// out_backprop of (G - 1) * s + 1 rows goes at offset eff - 1 - pb in
  /// zeros of H + eff - 1 rows, where eff = (K - 1) * d + 1.
  LogicalResult
  lowerRuntimeSizes(tf::Conv2DBackpropInputOp op, OpAdaptor adaptor,
                    ConversionPatternRewriter &rewriter, const Window2D &window,
                    RankedTensorType gradType, RankedTensorType filterType,
                    RankedTensorType resultType) const {
    auto sizesType =
        dyn_cast<RankedTensorType>(adaptor.getInputSizes().getType());
    if (!sizesType || sizesType.getRank() != 1 ||
        !sizesType.getElementType().isInteger() ||
        (sizesType.getDimSize(0) != 4 && sizesType.getDimSize(0) != 2))
      return kiln::detail::reportUnsupported(
          op, "non-constant input_sizes that are not a tensor of 4 or 2 "
              "integers");
    FailureOr<SmallVector<int64_t>> kernel = getStaticSizes(filterType, {0, 1});
    if (failed(kernel))
      return kiln::detail::reportUnsupported(
          op, "dynamic spatial dimensions of the filter");
    int64_t effective[2];
    for (int i = 0; i < 2; ++i) {
      effective[i] = ((*kernel)[i] - 1) * window.dilations[i] + 1;
      if (window.padding == "EXPLICIT" &&
          window.explicitPads[i][0] > effective[i] - 1)
        return kiln::detail::reportUnsupported(
            op, "padding larger than the dilated kernel");
    }
    if (failed(checkChannels(op, window, gradType, filterType)))
      return failure();
    if (failed(
            checkResultShape(op,
                             {gradType.getDimSize(0), ShapedType::kDynamic,
                              ShapedType::kDynamic, filterType.getDimSize(2)},
                             resultType, window.nchw)))
      return failure();

    Location loc = op.getLoc();
    Value grad = toNHWC(rewriter, loc, adaptor.getOutBackprop(), window.nchw);
    Value filter = adaptor.getFilter();
    OpFoldResult batch = tensor::getMixedSize(rewriter, loc, grad, 0);
    OpFoldResult outChannels = tensor::getMixedSize(rewriter, loc, grad, 3);
    OpFoldResult inChannels = tensor::getMixedSize(rewriter, loc, filter, 2);
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, value);
    };

    bool allSizes = sizesType.getDimSize(0) == 4;
    SmallVector<OpFoldResult> dilatedSizes{batch, OpFoldResult(),
                                           OpFoldResult(), outChannels};
    SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> resultSizes{batch, OpFoldResult(), OpFoldResult(),
                                          inChannels};
    for (int i = 0; i < 2; ++i) {
      Value position = constant(allSizes ? window.spatialDim(i) : i);
      Value size = tensor::ExtractOp::create(
          rewriter, loc, adaptor.getInputSizes(), ValueRange{position});
      size = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                        size);
      resultSizes[1 + i] = size;
      dilatedSizes[1 + i] =
          arith::AddIOp::create(rewriter, loc, size, constant(effective[i] - 1))
              .getResult();
      int64_t stride = window.strides[i];
      if (window.padding == "SAME" && stride != 1) {
        // pb = max((ceil(H / s) - 1) * s + eff - H, 0) / 2.
        Value output =
            arith::CeilDivUIOp::create(rewriter, loc, size, constant(stride));
        Value span = arith::AddIOp::create(
            rewriter, loc,
            arith::MulIOp::create(rewriter, loc, output, constant(stride)),
            constant(effective[i] - stride));
        Value total = arith::MaxSIOp::create(
            rewriter, loc, arith::SubIOp::create(rewriter, loc, span, size),
            constant(0));
        Value before =
            arith::DivUIOp::create(rewriter, loc, total, constant(2));
        offsets[1 + i] = arith::SubIOp::create(
                             rewriter, loc, constant(effective[i] - 1), before)
                             .getResult();
      } else {
        // With stride 1 SAME pads eff - 1 in total, whatever H.
        int64_t before = 0;
        if (window.padding == "SAME")
          before = (effective[i] - 1) / 2;
        else if (window.padding == "EXPLICIT")
          before = window.explicitPads[i][0];
        offsets[1 + i] = rewriter.getIndexAttr(effective[i] - 1 - before);
      }
    }

    // out_backprop with stride - 1 zeros between elements, padded.
    Value dilated =
        createFilled(rewriter, loc, dilatedSizes, resultType.getElementType(),
                     createZero(rewriter, loc, resultType.getElementType()));
    SmallVector<OpFoldResult> sliceStrides{
        rewriter.getIndexAttr(1), rewriter.getIndexAttr(window.strides[0]),
        rewriter.getIndexAttr(window.strides[1]), rewriter.getIndexAttr(1)};
    dilated = tensor::InsertSliceOp::create(
        rewriter, loc, grad, dilated, offsets, getSizes(rewriter, loc, grad),
        sliceStrides);
    rewriter.replaceOp(
        op, convolveFlipped(rewriter, loc, window, dilated, filter, *kernel,
                            outChannels, inChannels, resultSizes,
                            resultType.getElementType(), resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateConvPatterns(const TypeConverter &typeConverter,
                                        RewritePatternSet &patterns) {
  patterns.add<Conv2DOpLowering, DepthwiseConv2dNativeOpLowering,
               Conv2DBackpropInputOpLowering>(typeConverter,
                                              patterns.getContext());
}
