//===- NNUtils.cpp - helpers shared by the NN op families -------*- C++ -*-===//
//
// See NNUtils.h.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/NNUtils.h"
#include "conversions/TFToLinalg/Patterns.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace kiln::nn {

bool isSupportedElement(Type type) {
  return isa<FloatType>(type) || type.isSignlessInteger();
}

Type getAccumulatorType(Type element) {
  if (auto floatType = dyn_cast<FloatType>(element))
    if (floatType.getWidth() < 32)
      return Float32Type::get(element.getContext());
  return element;
}

Value createZero(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

Value createFilled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                   Type element, Value value) {
  Value empty = tensor::EmptyOp::create(b, loc, sizes, element);
  return linalg::FillOp::create(b, loc, ValueRange{value}, ValueRange{empty})
      .getResult(0);
}

SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value value) {
  return tensor::getMixedSizes(b, loc, value);
}

Value convertElements(OpBuilder &b, Location loc, Value value, Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == element)
    return value;
  Value init =
      tensor::EmptyOp::create(b, loc, getSizes(b, loc, value), element);
  AffineMap identity = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{value}, ValueRange{init},
      SmallVector<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        Value converted;
        if (element.getIntOrFloatBitWidth() <
            type.getElementType().getIntOrFloatBitWidth())
          converted = arith::TruncFOp::create(nb, loc, element, args[0]);
        else
          converted = arith::ExtFOp::create(nb, loc, element, args[0]);
        linalg::YieldOp::create(nb, loc, converted);
      });
  return generic.getResult(0);
}

Value castToType(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

Value transpose(OpBuilder &b, Location loc, Value value,
                ArrayRef<int64_t> permutation) {
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, value);
  SmallVector<OpFoldResult> permuted;
  for (int64_t dim : permutation)
    permuted.push_back(sizes[dim]);
  Value init = tensor::EmptyOp::create(
      b, loc, permuted,
      cast<RankedTensorType>(value.getType()).getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, permutation)
      .getResult()[0];
}

SmallVector<int64_t> getInts(ArrayAttr attr) {
  SmallVector<int64_t> values;
  if (attr)
    for (Attribute a : attr)
      values.push_back(cast<IntegerAttr>(a).getInt());
  return values;
}

DenseIntElementsAttr getI64Pair(OpBuilder &b, int64_t first, int64_t second) {
  return b.getI64TensorAttr({first, second});
}

FailureOr<Window2D> parseWindow(Operation *op, StringRef dataFormat,
                                ArrayAttr strides, ArrayAttr dilations,
                                ArrayAttr ksize, StringRef padding,
                                ArrayAttr explicitPaddings) {
  Window2D window;
  if (dataFormat == "NCHW")
    window.nchw = true;
  else if (dataFormat != "NHWC")
    return kiln::detail::reportUnsupported(op, "data_format '" + dataFormat +
                                                   "' (expected NHWC or NCHW)");

  auto readQuad = [&](ArrayAttr attr, StringRef name,
                      int64_t(&out)[2]) -> LogicalResult {
    if (!attr)
      return success();
    SmallVector<int64_t> values = getInts(attr);
    if (values.size() != 4)
      return kiln::detail::reportUnsupported(
          op, name + " with " + Twine(values.size()) + " values (expected 4)");
    if (values[0] != 1 || values[window.channelDim()] != 1)
      return kiln::detail::reportUnsupported(
          op, name + " other than 1 in the batch or channel dimension");
    for (int i = 0; i < 2; ++i) {
      out[i] = values[window.spatialDim(i)];
      if (out[i] < 1)
        return kiln::detail::reportUnsupported(
            op, name + " " + Twine(out[i]) + " (expected at least 1)");
    }
    return success();
  };
  if (failed(readQuad(strides, "strides", window.strides)) ||
      failed(readQuad(dilations, "dilations", window.dilations)) ||
      failed(readQuad(ksize, "ksize", window.sizes)))
    return failure();

  window.padding = padding;
  if (padding == "EXPLICIT") {
    SmallVector<int64_t> pads = getInts(explicitPaddings);
    if (!explicitPaddings || pads.size() != 8)
      return kiln::detail::reportUnsupported(
          op, "EXPLICIT padding with " + Twine(pads.size()) +
                  " explicit_paddings (expected 8)");
    int64_t channel = window.channelDim();
    if (pads[0] != 0 || pads[1] != 0 || pads[2 * channel] != 0 ||
        pads[2 * channel + 1] != 0)
      return kiln::detail::reportUnsupported(
          op, "explicit padding of the batch or channel dimension");
    for (int i = 0; i < 2; ++i) {
      int64_t dim = window.spatialDim(i);
      window.explicitPads[i][0] = pads[2 * dim];
      window.explicitPads[i][1] = pads[2 * dim + 1];
      if (pads[2 * dim] < 0 || pads[2 * dim + 1] < 0)
        return kiln::detail::reportUnsupported(op, "negative explicit padding");
    }
  } else if (padding != "SAME" && padding != "VALID") {
    return kiln::detail::reportUnsupported(op, "padding '" + padding + "'");
  }
  return window;
}

FailureOr<SpatialPadding> computePadding(Operation *op, const Window2D &window,
                                         int i, int64_t input, int64_t kernel) {
  int64_t stride = window.strides[i];
  int64_t effective = (kernel - 1) * window.dilations[i] + 1;
  SpatialPadding result;
  if (ShapedType::isDynamic(input)) {
    result.output = ShapedType::kDynamic;
    if (window.padding == "SAME" && stride != 1) {
      result.runtimeStride = stride;
      result.runtimeEffective = effective;
    } else if (window.padding == "SAME") {
      result.before = (effective - 1) / 2;
      result.after = effective - 1 - result.before;
    } else if (window.padding == "EXPLICIT") {
      result.before = window.explicitPads[i][0];
      result.after = window.explicitPads[i][1];
    }
    return result;
  }
  if (window.padding == "SAME") {
    result.output = llvm::divideCeil(input, stride);
    int64_t total =
        std::max<int64_t>((result.output - 1) * stride + effective - input, 0);
    result.before = total / 2;
    result.after = total - result.before;
    return result;
  }
  if (window.padding == "EXPLICIT") {
    result.before = window.explicitPads[i][0];
    result.after = window.explicitPads[i][1];
  }
  int64_t padded = input + result.before + result.after;
  if (padded < effective)
    return kiln::detail::reportUnsupported(
        op, "window of " + Twine(effective) +
                " larger than the padded input (" + Twine(padded) + ")");
  result.output = (padded - effective) / stride + 1;
  return result;
}

FailureOr<std::array<SpatialPadding, 2>>
computePaddings(Operation *op, const Window2D &window,
                ArrayRef<int64_t> inputSizes, ArrayRef<int64_t> kernelSizes,
                ArrayRef<int64_t> resultSizes) {
  std::array<SpatialPadding, 2> paddings;
  for (int i = 0; i < 2; ++i) {
    FailureOr<SpatialPadding> padding =
        computePadding(op, window, i, inputSizes[i], kernelSizes[i]);
    if (failed(padding))
      return failure();
    if (!ShapedType::isDynamic(resultSizes[i]) &&
        resultSizes[i] != padding->output)
      return kiln::detail::reportUnsupported(
          op, "result spatial size " + Twine(resultSizes[i]) +
                  " differs from the computed " + Twine(padding->output));
    paddings[i] = *padding;
  }
  return paddings;
}

std::pair<OpFoldResult, OpFoldResult>
getPadAmounts(OpBuilder &b, Location loc, Value value, int i,
              const SpatialPadding &padding) {
  if (!padding.isRuntime())
    return {b.getIndexAttr(padding.before), b.getIndexAttr(padding.after)};
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  int64_t stride = padding.runtimeStride;
  Value input = tensor::DimOp::create(b, loc, value, 1 + i);
  Value output = arith::CeilDivUIOp::create(b, loc, input, constant(stride));
  Value covered = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc,
                            arith::SubIOp::create(b, loc, output, constant(1)),
                            constant(stride)),
      constant(padding.runtimeEffective));
  Value total = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, covered, input), constant(0));
  Value before = arith::DivUIOp::create(b, loc, total, constant(2));
  return {before, arith::SubIOp::create(b, loc, total, before).getResult()};
}

Value padSpatial(OpBuilder &b, Location loc, Value value,
                 const std::array<SpatialPadding, 2> &paddings,
                 TypedAttr padding) {
  if (llvm::all_of(paddings, [](const SpatialPadding &p) {
        return !p.isRuntime() && p.before == 0 && p.after == 0;
      }))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> low(4, b.getIndexAttr(0));
  SmallVector<OpFoldResult> high(4, b.getIndexAttr(0));
  for (int i = 0; i < 2; ++i) {
    std::tie(low[1 + i], high[1 + i]) =
        getPadAmounts(b, loc, value, i, paddings[i]);
    if (!ShapedType::isDynamic(shape[1 + i]))
      shape[1 + i] += paddings[i].before + paddings[i].after;
  }
  Value padValue = arith::ConstantOp::create(b, loc, padding);
  return tensor::PadOp::create(b, loc, type.clone(shape), value, low, high,
                               padValue);
}

OpFoldResult getOutputSize(OpBuilder &b, Location loc, Value padded, int i,
                           const SpatialPadding &padding,
                           const Window2D &window, int64_t kernel) {
  if (!ShapedType::isDynamic(padding.output))
    return b.getIndexAttr(padding.output);
  int64_t effective = (kernel - 1) * window.dilations[i] + 1;
  int64_t stride = window.strides[i];
  Value size = tensor::DimOp::create(b, loc, padded, 1 + i);
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  if (stride == 1)
    return effective == 1
               ? size
               : arith::SubIOp::create(b, loc, size, constant(effective - 1))
                     .getResult();
  Value span = arith::SubIOp::create(b, loc, size, constant(effective));
  Value steps = arith::DivUIOp::create(b, loc, span, constant(stride));
  return arith::AddIOp::create(b, loc, steps, constant(1)).getResult();
}

SmallVector<int64_t> getDimSizes(RankedTensorType type,
                                 ArrayRef<int64_t> dims) {
  SmallVector<int64_t> sizes;
  for (int64_t dim : dims)
    sizes.push_back(type.getDimSize(dim));
  return sizes;
}

FailureOr<SmallVector<int64_t>> getStaticSizes(RankedTensorType type,
                                               ArrayRef<int64_t> dims) {
  SmallVector<int64_t> sizes;
  for (int64_t dim : dims) {
    if (type.isDynamicDim(dim))
      return failure();
    sizes.push_back(type.getDimSize(dim));
  }
  return sizes;
}

LogicalResult checkResultShape(Operation *op, ArrayRef<int64_t> shape,
                               RankedTensorType resultType, bool nchw) {
  SmallVector<int64_t> expected(shape);
  if (nchw)
    expected = {shape[0], shape[3], shape[1], shape[2]};
  if (static_cast<int64_t>(expected.size()) != resultType.getRank())
    return kiln::detail::reportUnsupported(op, "result of rank " +
                                                   Twine(resultType.getRank()));
  for (auto [computed, declared] : llvm::zip(expected, resultType.getShape()))
    if (!ShapedType::isDynamic(computed) && !ShapedType::isDynamic(declared) &&
        computed != declared)
      return kiln::detail::reportUnsupported(op, "result dimension of " +
                                                     Twine(declared) +
                                                     " where the operands "
                                                     "give " +
                                                     Twine(computed));
  return success();
}

std::string describeElement(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "element type " << type;
  return text;
}

LogicalResult checkWindowTypes(Operation *op, ArrayRef<Type> types) {
  for (Type type : types) {
    auto ranked = dyn_cast_or_null<RankedTensorType>(type);
    if (!ranked || ranked.getRank() != 4)
      return kiln::detail::reportUnsupported(op,
                                             "operands of rank other than 4");
    if (!isSupportedElement(ranked.getElementType()))
      return kiln::detail::reportUnsupported(
          op, describeElement(ranked.getElementType()));
  }
  return success();
}

Value toNHWC(OpBuilder &b, Location loc, Value value, bool nchw) {
  return nchw ? transpose(b, loc, value, kNCHWToNHWC) : value;
}

Value fromNHWC(OpBuilder &b, Location loc, Value value, bool nchw, Type type) {
  if (nchw)
    value = transpose(b, loc, value, kNHWCToNCHW);
  return castToType(b, loc, value, type);
}

} // namespace kiln::nn
