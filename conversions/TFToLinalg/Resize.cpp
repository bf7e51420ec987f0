//===- Resize.cpp - tf resizing to linalg -----------------------*- C++ -*-===//
//
// ResizeBilinear with TensorFlow's source-index formulas; its size may be
// computed at run time (the source indices and weights are then computed
// in the loop body rather than tabulated).
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
// Resizing
//===----------------------------------------------------------------------===//

/// The source rows of one output dimension of TensorFlow's bilinear resize:
/// for each output index, the lower and upper source index and the weight
/// of the upper one.
struct BilinearTable {
  SmallVector<int64_t> lower, upper;
  SmallVector<float> lerp;
};

/// TensorFlow's bilinear interpolation table (resize_bilinear_op.cc),
/// computed in float as TensorFlow does: scale = (in - 1) / (out - 1) with
/// align_corners (and out > 1), in / out otherwise; the source coordinate
/// is (o + 0.5) * scale - 0.5 with half_pixel_centers, o * scale
/// otherwise; lower = max(floor, 0), upper = min(ceil, in - 1), weight =
/// coordinate - floor.
BilinearTable computeBilinearTable(int64_t in, int64_t out, bool alignCorners,
                                   bool halfPixelCenters) {
  float scale = (alignCorners && out > 1)
                    ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                    : static_cast<float>(in) / static_cast<float>(out);
  BilinearTable table;
  for (int64_t o = 0; o < out; ++o) {
    float source = halfPixelCenters
                       ? (static_cast<float>(o) + 0.5f) * scale - 0.5f
                       : static_cast<float>(o) * scale;
    float floor = std::floor(source);
    table.lower.push_back(std::max<int64_t>(static_cast<int64_t>(floor), 0));
    table.upper.push_back(
        std::min<int64_t>(static_cast<int64_t>(std::ceil(source)), in - 1));
    table.lerp.push_back(source - floor);
  }
  return table;
}

/// The f32 value of TensorFlow's bilinear interpolation at output position
/// (n, c) of `images` (NHWC) between source rows `top`, `bottom` and columns
/// `left`, `right` (indices), with weights `yLerp` and `xLerp` (f32):
/// top = tl + (tr - tl) * x, bottom = bl + (br - bl) * x, then
/// top + (bottom - top) * y. Source elements are converted to f32
/// (`isUnsigned` for unsigned integers).
Value interpolateBilinear(OpBuilder &b, Location loc, Value images,
                          bool isUnsigned, Value top, Value bottom, Value left,
                          Value right, Value yLerp, Value xLerp) {
  Type sourceElement =
      cast<RankedTensorType>(images.getType()).getElementType();
  Type f32 = b.getF32Type();
  Value n = linalg::IndexOp::create(b, loc, 0);
  Value c = linalg::IndexOp::create(b, loc, 3);
  auto read = [&](Value y, Value x) -> Value {
    Value v = tensor::ExtractOp::create(b, loc, images, ValueRange{n, y, x, c});
    if (isa<FloatType>(sourceElement))
      return sourceElement == f32
                 ? v
                 : (sourceElement.getIntOrFloatBitWidth() < 32
                        ? Value(arith::ExtFOp::create(b, loc, f32, v))
                        : Value(arith::TruncFOp::create(b, loc, f32, v)));
    if (isUnsigned)
      return arith::UIToFPOp::create(b, loc, f32, v);
    return arith::SIToFPOp::create(b, loc, f32, v);
  };
  auto lerp = [&](Value from, Value to, Value weight) -> Value {
    Value difference = arith::SubFOp::create(b, loc, to, from);
    Value scaled = arith::MulFOp::create(b, loc, difference, weight);
    return arith::AddFOp::create(b, loc, from, scaled);
  };
  Value topRow = lerp(read(top, left), read(top, right), xLerp);
  Value bottomRow = lerp(read(bottom, left), read(bottom, right), xLerp);
  return lerp(topRow, bottomRow, yLerp);
}

/// The run-time scale of one dimension of TensorFlow's bilinear resize
/// (computeBilinearTable's formula, in f32): (in - 1) / (out - 1) with
/// align_corners and out > 1, in / out otherwise. `in` and `out` are
/// indices.
Value createBilinearScale(OpBuilder &b, Location loc, Value in, Value out,
                          bool alignCorners) {
  Type f32 = b.getF32Type();
  auto toF32 = [&](Value index) -> Value {
    Value wide = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
    return arith::SIToFPOp::create(b, loc, f32, wide);
  };
  Value plain = arith::DivFOp::create(b, loc, toF32(in), toF32(out));
  if (!alignCorners)
    return plain;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value aligned = arith::DivFOp::create(
      b, loc, toF32(arith::SubIOp::create(b, loc, in, one)),
      toF32(arith::SubIOp::create(b, loc, out, one)));
  Value many =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, out, one);
  return arith::SelectOp::create(b, loc, many, aligned, plain);
}

/// TensorFlow's source rows of output index `o` (an index) of one dimension
/// at run time (computeBilinearTable's formulas): lower and upper source
/// index and the weight of the upper one.
std::array<Value, 3> createBilinearSource(OpBuilder &b, Location loc, Value o,
                                          Value scale, Value in,
                                          bool halfPixelCenters) {
  Type f32 = b.getF32Type();
  Type i64 = b.getI64Type();
  Value position = arith::SIToFPOp::create(
      b, loc, f32, arith::IndexCastOp::create(b, loc, i64, o));
  Value source;
  if (halfPixelCenters) {
    Value half = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.5f));
    Value centered = arith::AddFOp::create(b, loc, position, half);
    source = arith::SubFOp::create(
        b, loc, arith::MulFOp::create(b, loc, centered, scale), half);
  } else {
    source = arith::MulFOp::create(b, loc, position, scale);
  }
  Value floor = math::FloorOp::create(b, loc, source);
  Value ceil = math::CeilOp::create(b, loc, source);
  Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
  Value last =
      arith::SubIOp::create(b, loc, arith::IndexCastOp::create(b, loc, i64, in),
                            arith::ConstantIntOp::create(b, loc, i64, 1));
  Value lower = arith::MaxSIOp::create(
      b, loc, arith::FPToSIOp::create(b, loc, i64, floor), zero);
  Value upper = arith::MinSIOp::create(
      b, loc, arith::FPToSIOp::create(b, loc, i64, ceil), last);
  auto toIndex = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  return {toIndex(lower), toIndex(upper),
          arith::SubFOp::create(b, loc, source, floor)};
}

/// tf.ResizeBilinear (NHWC) -> a linalg.generic over the f32 result reading
/// the four source pixels with tensor.extract and interpolating as
/// TensorFlow does (interpolateBilinear). With a constant size and static
/// spatial input sizes, the source indices and weights come from constant
/// tables; otherwise (a size computed at run time, dynamic input sizes) the
/// body computes them with the same formulas from the run-time sizes.
struct ResizeBilinearOpLowering final
    : OpConversionPattern<tf::ResizeBilinearOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::ResizeBilinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto imagesType = dyn_cast<RankedTensorType>(adaptor.getImages().getType());
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (failed(checkWindowTypes(op, {imagesType, resultType})))
      return failure();
    if (!resultType.getElementType().isF32())
      return kiln::detail::reportUnsupported(
          op, describeElement(resultType.getElementType()));
    if (op.getAlignCorners() && op.getHalfPixelCenters())
      return kiln::detail::reportUnsupported(
          op, "align_corners together with half_pixel_centers");
    FailureOr<SmallVector<int64_t>> size =
        kiln::detail::getConstantIntValues(adaptor.getSize());
    if (failed(size))
      size = kiln::detail::getConstantIntValues(op.getSize());
    if (succeeded(size) && size->size() != 2)
      return kiln::detail::reportUnsupported(op, "size of other than 2 values");
    if (succeeded(size) && ((*size)[0] < 1 || (*size)[1] < 1))
      return kiln::detail::reportUnsupported(op, "size of zero or less");
    FailureOr<SmallVector<int64_t>> spatial =
        getStaticSizes(imagesType, {1, 2});
    int64_t outHeight = succeeded(size) ? (*size)[0] : ShapedType::kDynamic;
    int64_t outWidth = succeeded(size) ? (*size)[1] : ShapedType::kDynamic;
    if (failed(checkResultShape(op,
                                {imagesType.getDimSize(0), outHeight, outWidth,
                                 imagesType.getDimSize(3)},
                                resultType)))
      return failure();
    if (failed(size)) {
      auto sizeType = dyn_cast<RankedTensorType>(adaptor.getSize().getType());
      if (!sizeType || sizeType.getRank() != 1 || sizeType.getDimSize(0) != 2)
        return kiln::detail::reportUnsupported(op,
                                               "size operand not of shape [2]");
    }

    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    bool isUnsigned = kiln::detail::isUnsignedElement(op.getImages().getType());
    Type f32 = rewriter.getF32Type();
    Type i64 = rewriter.getI64Type();
    Value images = adaptor.getImages();
    bool tables = succeeded(size) && succeeded(spatial);

    // The output sizes; at run time, from the size operand.
    std::array<OpFoldResult, 2> outSizes;
    for (int i = 0; i < 2; ++i) {
      if (succeeded(size)) {
        outSizes[i] = rewriter.getIndexAttr((*size)[i]);
        continue;
      }
      Value position = arith::ConstantIndexOp::create(rewriter, loc, i);
      Value value = tensor::ExtractOp::create(rewriter, loc, adaptor.getSize(),
                                              ValueRange{position});
      outSizes[i] = Value(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), value));
    }

    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    std::array<Value, 2> scales, inSizes;
    if (tables) {
      for (int i = 0; i < 2; ++i) {
        BilinearTable table = computeBilinearTable((*spatial)[i], (*size)[i],
                                                   op.getAlignCorners(),
                                                   op.getHalfPixelCenters());
        auto indexType = RankedTensorType::get({(*size)[i]}, i64);
        auto weightType = RankedTensorType::get({(*size)[i]}, f32);
        inputs.push_back(arith::ConstantOp::create(
            rewriter, loc,
            DenseElementsAttr::get(indexType, ArrayRef(table.lower))));
        inputs.push_back(arith::ConstantOp::create(
            rewriter, loc,
            DenseElementsAttr::get(indexType, ArrayRef(table.upper))));
        inputs.push_back(arith::ConstantOp::create(
            rewriter, loc,
            DenseElementsAttr::get(weightType, ArrayRef(table.lerp))));
        AffineMap map =
            AffineMap::get(4, 0, getAffineDimExpr(1 + i, context), context);
        maps.append(3, map);
      }
    } else {
      for (int i = 0; i < 2; ++i) {
        inSizes[i] = tensor::DimOp::create(rewriter, loc, images, 1 + i);
        Value out = succeeded(size) ? Value(arith::ConstantIndexOp::create(
                                          rewriter, loc, (*size)[i]))
                                    : cast<Value>(outSizes[i]);
        scales[i] = createBilinearScale(rewriter, loc, inSizes[i], out,
                                        op.getAlignCorners());
      }
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(4));
    SmallVector<OpFoldResult> sizes{
        tensor::getMixedSize(rewriter, loc, images, 0), outSizes[0],
        outSizes[1], tensor::getMixedSize(rewriter, loc, images, 3)};
    Value init = tensor::EmptyOp::create(rewriter, loc, sizes, f32);
    Value resized =
        linalg::GenericOp::create(
            rewriter, loc, init.getType(), inputs, ValueRange{init}, maps,
            SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
            [&](OpBuilder &b, Location loc, ValueRange args) {
              std::array<std::array<Value, 3>, 2> sources;
              for (int i = 0; i < 2; ++i) {
                if (tables) {
                  auto toIndex = [&](Value v) -> Value {
                    return arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                                      v);
                  };
                  sources[i] = {toIndex(args[3 * i]), toIndex(args[3 * i + 1]),
                                args[3 * i + 2]};
                } else {
                  Value o = linalg::IndexOp::create(b, loc, 1 + i);
                  sources[i] =
                      createBilinearSource(b, loc, o, scales[i], inSizes[i],
                                           op.getHalfPixelCenters());
                }
              }
              linalg::YieldOp::create(
                  b, loc,
                  interpolateBilinear(b, loc, images, isUnsigned, sources[0][0],
                                      sources[0][1], sources[1][0],
                                      sources[1][1], sources[0][2],
                                      sources[1][2]));
            })
            .getResult(0);
    rewriter.replaceOp(op, castToType(rewriter, loc, resized, resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateResizePatterns(const TypeConverter &typeConverter,
                                          RewritePatternSet &patterns) {
  patterns.add<ResizeBilinearOpLowering>(typeConverter,
                                         patterns.getContext());
}
