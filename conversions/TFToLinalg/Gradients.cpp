//===- Gradients.cpp - tf gradient ops to linalg ----------------*- C++ -*-===//
//
// The gradients of the window ops of training steps: Conv2DBackpropFilter
// (a contraction of the padded input with out_backprop) and MaxPoolGrad
// (each window's gradient routed to its first maximum). NHWC, floats,
// static shapes.
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

/// Checks the static NHWC float types of a window gradient and reads its
/// window; `ksize` is null for a convolution.
template <typename OpTy>
FailureOr<Window2D> setUpGradient(OpTy op, ArrayRef<Type> types,
                                  ArrayAttr dilations, ArrayAttr ksize) {
  if (failed(checkWindowTypes(op, types)))
    return failure();
  for (Type type : types)
    if (!cast<RankedTensorType>(type).hasStaticShape())
      return kiln::detail::reportUnsupported(op, "dynamic shapes");
  Type element = cast<RankedTensorType>(types.front()).getElementType();
  if (!isa<FloatType>(element))
    return kiln::detail::reportUnsupported(op, describeElement(element));
  FailureOr<Window2D> window =
      parseWindow(op, op.getDataFormat(), op.getStrides(), dilations, ksize,
                  op.getPadding(), op.getExplicitPaddings());
  if (failed(window))
    return failure();
  if (window->nchw)
    return kiln::detail::reportUnsupported(op, "data_format NCHW");
  return window;
}

/// tf.Conv2DBackpropFilter -> a linalg.generic over (kh, kw, ci, co | n, oh,
/// ow): dw[kh, kw, ci, co] += x[n, oh * sh + kh * dh, ow * sw + kw * dw, ci]
/// * dy[n, oh, ow, co], x padded as the forward convolution pads it.
struct Conv2DBackpropFilterOpLowering final
    : OpConversionPattern<tf::Conv2DBackpropFilterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::Conv2DBackpropFilterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
    auto gradType =
        dyn_cast<RankedTensorType>(adaptor.getOutBackprop().getType());
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    FailureOr<Window2D> window = setUpGradient(
        op, {Type(inputType), Type(gradType), Type(resultType)},
        op.getDilations(), nullptr);
    if (failed(window))
      return failure();
    ArrayRef<int64_t> x = inputType.getShape(), dy = gradType.getShape(),
                      w = resultType.getShape();
    if (w[2] != x[3] || w[3] != dy[3] || x[0] != dy[0])
      return kiln::detail::reportUnsupported(
          op, "filter_sizes that do not match input and out_backprop");
    FailureOr<std::array<SpatialPadding, 2>> paddings = computePaddings(
        op, *window, {x[1], x[2]}, {w[0], w[1]}, {dy[1], dy[2]});
    if (failed(paddings))
      return failure();

    Location loc = op.getLoc();
    Type element = resultType.getElementType();
    Value input =
        padSpatial(rewriter, loc, adaptor.getInput(), *paddings,
                   rewriter.getZeroAttr(element));
    Value init =
        createFilled(rewriter, loc,
                     getAsIndexOpFoldResult(rewriter.getContext(), w), element,
                     createZero(rewriter, loc, element));
    MLIRContext *ctx = rewriter.getContext();
    // Dimensions: kh, kw, ci, co, n, oh, ow.
    AffineExpr kh, kw, ci, co, n, oh, ow;
    bindDims(ctx, kh, kw, ci, co, n, oh, ow);
    auto inputMap = AffineMap::get(
        7, 0,
        {n, oh * window->strides[0] + kh * window->dilations[0],
         ow * window->strides[1] + kw * window->dilations[1], ci},
        ctx);
    auto gradMap = AffineMap::get(7, 0, {n, oh, ow, co}, ctx);
    auto resultMap = AffineMap::get(7, 0, {kh, kw, ci, co}, ctx);
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.append(3, utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{input, adaptor.getOutBackprop()}, ValueRange{init},
        ArrayRef<AffineMap>{inputMap, gradMap, resultMap}, iterators,
        [](OpBuilder &b, Location loc, ValueRange args) {
          Value product = arith::MulFOp::create(b, loc, args[0], args[1]);
          Value sum = arith::AddFOp::create(b, loc, args[2], product);
          linalg::YieldOp::create(b, loc, sum);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// tf.MaxPoolGrad -> two linalg.generics. The first finds, per window, the
/// position (kh * KW + kw) of its maximum over the input padded with the
/// lowest value; ties go to the smaller position, which makes the
/// reduction order-free and equals TensorFlow's first maximum in row-major
/// order. The second gathers, per input element, the gradients of the
/// windows whose maximum it is: over (n, h, w, c | kh, kw), window (oh, ow)
/// = ((h + pb - kh) / sh, (w + pl - kw) / sw) when exact and in range.
struct MaxPoolGradOpLowering final : OpConversionPattern<tf::MaxPoolGradOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::MaxPoolGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inputType =
        dyn_cast<RankedTensorType>(adaptor.getOrigInput().getType());
    auto gradType = dyn_cast<RankedTensorType>(adaptor.getGrad().getType());
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    FailureOr<Window2D> window = setUpGradient(
        op, {Type(inputType), Type(gradType), Type(resultType)}, nullptr,
        op.getKsize());
    if (failed(window))
      return failure();
    ArrayRef<int64_t> x = inputType.getShape(), dy = gradType.getShape();
    int64_t k[2] = {window->sizes[0], window->sizes[1]};
    FailureOr<std::array<SpatialPadding, 2>> paddings = computePaddings(
        op, *window, {x[1], x[2]}, {k[0], k[1]}, {dy[1], dy[2]});
    if (failed(paddings))
      return failure();
    if (resultType.getShape() != x || dy[0] != x[0] || dy[3] != x[3])
      return kiln::detail::reportUnsupported(
          op, "a gradient whose shape is not the pooling's");

    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto floatType = cast<FloatType>(resultType.getElementType());
    Type i32 = rewriter.getI32Type();
    TypedAttr lowest = rewriter.getFloatAttr(
        floatType,
        APFloat::getLargest(floatType.getFloatSemantics(), /*Negative=*/true));
    Value padded =
        padSpatial(rewriter, loc, adaptor.getOrigInput(), *paddings, lowest);

    // 1. The position of each window's maximum.
    SmallVector<OpFoldResult> pooledSizes =
        getAsIndexOpFoldResult(ctx, gradType.getShape());
    Value maxInit = createFilled(
        rewriter, loc, pooledSizes, floatType,
        arith::ConstantOp::create(rewriter, loc, lowest));
    Value posInit = createFilled(
        rewriter, loc, pooledSizes, i32,
        arith::ConstantOp::create(rewriter, loc, rewriter.getI32IntegerAttr(
                                                     k[0] * k[1])));
    AffineExpr n, oh, ow, c, kh, kw;
    bindDims(ctx, n, oh, ow, c, kh, kw);
    auto windowMap = AffineMap::get(
        6, 0,
        {n, oh * window->strides[0] + kh, ow * window->strides[1] + kw, c},
        ctx);
    auto pooledMap = AffineMap::get(6, 0, {n, oh, ow, c}, ctx);
    // The window's extent, read by no body: it bounds kh and kw.
    auto kernelMap = AffineMap::get(6, 0, {kh, kw}, ctx);
    Value windowShape = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{k[0], k[1]}, floatType);
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    iterators.append(2, utils::IteratorType::reduction);
    int64_t kernelWidth = k[1];
    auto argmax = linalg::GenericOp::create(
        rewriter, loc, TypeRange{maxInit.getType(), posInit.getType()},
        ValueRange{padded, windowShape}, ValueRange{maxInit, posInit},
        ArrayRef<AffineMap>{windowMap, kernelMap, pooledMap, pooledMap},
        iterators,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value row = linalg::IndexOp::create(b, loc, 4);
          Value col = linalg::IndexOp::create(b, loc, 5);
          Value width = arith::ConstantIndexOp::create(b, loc, kernelWidth);
          Value pos = arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, row, width), col);
          pos = arith::IndexCastOp::create(b, loc, b.getI32Type(), pos);
          Value greater = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                                args[0], args[2]);
          Value equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                              args[0], args[2]);
          Value before = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                               pos, args[3]);
          Value take = arith::OrIOp::create(
              b, loc, greater, arith::AndIOp::create(b, loc, equal, before));
          Value value =
              arith::SelectOp::create(b, loc, take, args[0], args[2]);
          Value position = arith::SelectOp::create(b, loc, take, pos, args[3]);
          linalg::YieldOp::create(b, loc, ValueRange{value, position});
        });
    Value positions = argmax.getResult(1);

    // 2. Each input element sums the gradients of the windows it maximizes.
    Value init = createFilled(rewriter, loc, getAsIndexOpFoldResult(ctx, x),
                              floatType, createZero(rewriter, loc, floatType));
    auto resultMap = AffineMap::get(6, 0, {n, oh, ow, c}, ctx);
    Value grad = adaptor.getGrad();
    int64_t strides[2] = {window->strides[0], window->strides[1]};
    int64_t before[2] = {(*paddings)[0].before, (*paddings)[1].before};
    int64_t pooled[2] = {dy[1], dy[2]};
    auto gather = linalg::GenericOp::create(
        rewriter, loc, TypeRange{init.getType()}, ValueRange{windowShape},
        ValueRange{init}, ArrayRef<AffineMap>{kernelMap, resultMap}, iterators,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          auto cst = [&](int64_t v) {
            return arith::ConstantIndexOp::create(b, loc, v).getResult();
          };
          Value batch = linalg::IndexOp::create(b, loc, 0);
          Value channel = linalg::IndexOp::create(b, loc, 3);
          Value valid = arith::ConstantIntOp::create(b, loc, 1, 1);
          Value window[2];
          for (int i = 0; i < 2; ++i) {
            Value at = linalg::IndexOp::create(b, loc, 1 + i);
            Value kernel = linalg::IndexOp::create(b, loc, 4 + i);
            // t = at + before - kernel, a multiple of the stride in [0,
            // stride * pooled).
            Value t = arith::SubIOp::create(
                b, loc, arith::AddIOp::create(b, loc, at, cst(before[i])),
                kernel);
            Value nonNegative = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::sge, t, cst(0));
            Value clamped = arith::MaxSIOp::create(b, loc, t, cst(0));
            Value q = arith::DivUIOp::create(b, loc, clamped, cst(strides[i]));
            Value exact = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::eq,
                arith::RemUIOp::create(b, loc, clamped, cst(strides[i])),
                cst(0));
            Value inRange = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::slt, q, cst(pooled[i]));
            valid = arith::AndIOp::create(
                b, loc, valid,
                arith::AndIOp::create(
                    b, loc, nonNegative,
                    arith::AndIOp::create(b, loc, exact, inRange)));
            window[i] = arith::MinSIOp::create(b, loc, q, cst(pooled[i] - 1));
          }
          Value kernelRow = linalg::IndexOp::create(b, loc, 4);
          Value kernelCol = linalg::IndexOp::create(b, loc, 5);
          Value pos = arith::IndexCastOp::create(
              b, loc, b.getI32Type(),
              arith::AddIOp::create(
                  b, loc, arith::MulIOp::create(b, loc, kernelRow, cst(k[1])),
                  kernelCol));
          ValueRange at{batch, window[0], window[1], channel};
          Value chosen = tensor::ExtractOp::create(b, loc, positions, at);
          Value isMax = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                              chosen, pos);
          Value g = tensor::ExtractOp::create(b, loc, grad, at);
          Value sum = arith::AddFOp::create(b, loc, args[1], g);
          Value take = arith::AndIOp::create(b, loc, valid, isMax);
          linalg::YieldOp::create(
              b, loc, arith::SelectOp::create(b, loc, take, sum, args[1])
                          .getResult());
        });
    rewriter.replaceOp(op, gather.getResult(0));
    return success();
  }
};

} // namespace

void kiln::detail::populateGradientPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  patterns.add<Conv2DBackpropFilterOpLowering, MaxPoolGradOpLowering>(
      typeConverter, patterns.getContext());
}
