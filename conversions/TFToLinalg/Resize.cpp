//===- Resize.cpp - tf resizing to linalg -----------------------*- C++ -*-===//
//
// ResizeBilinear with TensorFlow's source-index formulas. With static sizes
// the source indices and weights are tabulated at compile time and the
// resize is two passes (along W, then along H) that the CPU vectorizer
// turns into channel-vector loads; a size computed at run time keeps one
// pass whose body computes the indices and weights.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/NNUtils.h"
#include "conversions/TFToLinalg/Patterns.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "llvm/ADT/BitVector.h"
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

/// `value`, an element read from an image of element type `sourceElement`,
/// as f32 (`isUnsigned` for unsigned integers).
Value convertToF32(OpBuilder &b, Location loc, Value value, Type sourceElement,
                   bool isUnsigned) {
  Type f32 = b.getF32Type();
  if (sourceElement == f32)
    return value;
  if (isa<FloatType>(sourceElement))
    return sourceElement.getIntOrFloatBitWidth() < 32
               ? Value(arith::ExtFOp::create(b, loc, f32, value))
               : Value(arith::TruncFOp::create(b, loc, f32, value));
  if (isUnsigned)
    return arith::UIToFPOp::create(b, loc, f32, value);
  return arith::SIToFPOp::create(b, loc, f32, value);
}

/// TensorFlow's interpolation step: from + (to - from) * weight.
Value createLerp(OpBuilder &b, Location loc, Value from, Value to,
                 Value weight) {
  Value difference = arith::SubFOp::create(b, loc, to, from);
  Value scaled = arith::MulFOp::create(b, loc, difference, weight);
  return arith::AddFOp::create(b, loc, from, scaled);
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
  Value n = linalg::IndexOp::create(b, loc, 0);
  Value c = linalg::IndexOp::create(b, loc, 3);
  auto read = [&](Value y, Value x) -> Value {
    Value v = tensor::ExtractOp::create(b, loc, images, ValueRange{n, y, x, c});
    return convertToF32(b, loc, v, sourceElement, isUnsigned);
  };
  Value topRow = createLerp(b, loc, read(top, left), read(top, right), xLerp);
  Value bottomRow =
      createLerp(b, loc, read(bottom, left), read(bottom, right), xLerp);
  return createLerp(b, loc, topRow, bottomRow, yLerp);
}

/// A 1-D constant of `values` with element type `element` (i32 or f32).
template <typename T>
Value createTable(OpBuilder &b, Location loc, Type element,
                  ArrayRef<T> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    element);
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, values));
}

/// Entry `position` (an index) of the i32 table `table`, as an index.
Value readIndex(OpBuilder &b, Location loc, Value table, Value position) {
  Value entry = tensor::ExtractOp::create(b, loc, table, ValueRange{position});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), entry);
}

/// The source indices of one dimension's table as i32 (tables are small and
/// sizes fit; the index casts in the bodies widen them).
SmallVector<int32_t> toI32(ArrayRef<int64_t> values) {
  return llvm::to_vector(llvm::map_range(
      values, [](int64_t v) { return static_cast<int32_t>(v); }));
}

/// Static-size tf.ResizeBilinear as two passes whose source indices and
/// weights come from constant tables read with linalg.index, so that every
/// gather index is uniform over the innermost (channel) loop and the CPU
/// vectorizer reads whole channel vectors instead of gathering scalars:
///
/// 1. along W, on the source rows the result needs (`rows`, all of them
///    unless the resize drops some): t[n, k, ow, c] = l + (r - l) * x with
///    l = images[n, rows[k], left[ow], c], r at right[ow];
/// 2. along H: out[n, oh, ow, c] = top + (bottom - top) * y with top =
///    t[n, top[oh], ow, c], bottom at bottom[oh] (positions in `rows`).
///
/// W first, then H, is TensorFlow's order of operations, so the result is
/// the same float for float as the single-pass interpolation.
Value lowerSeparableBilinear(OpBuilder &b, Location loc, Value images,
                             bool isUnsigned, const BilinearTable &rowTable,
                             const BilinearTable &columnTable,
                             int64_t inHeight) {
  MLIRContext *context = b.getContext();
  auto imagesType = cast<RankedTensorType>(images.getType());
  Type sourceElement = imagesType.getElementType();
  Type f32 = b.getF32Type();
  Type i32 = b.getIntegerType(32);
  int64_t outHeight = rowTable.lower.size();
  int64_t outWidth = columnTable.lower.size();

  // The source rows the H pass reads, in order, and each output row's
  // positions among them.
  llvm::BitVector used(inHeight);
  for (int64_t o = 0; o < outHeight; ++o) {
    used.set(rowTable.lower[o]);
    used.set(rowTable.upper[o]);
  }
  SmallVector<int64_t> rows;
  for (unsigned h : used.set_bits())
    rows.push_back(h);
  auto positionOf = [&](int64_t h) {
    return static_cast<int64_t>(llvm::lower_bound(rows, h) - rows.begin());
  };
  SmallVector<int64_t> topRows, bottomRows;
  for (int64_t o = 0; o < outHeight; ++o) {
    topRows.push_back(positionOf(rowTable.lower[o]));
    bottomRows.push_back(positionOf(rowTable.upper[o]));
  }
  bool allRows = static_cast<int64_t>(rows.size()) == inHeight;

  OpFoldResult batch = tensor::getMixedSize(b, loc, images, 0);
  OpFoldResult channels = tensor::getMixedSize(b, loc, images, 3);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(4, context);
  SmallVector<utils::IteratorType> parallel(4, utils::IteratorType::parallel);

  // Pass 1: along W.
  Value rowIndices =
      allRows ? Value() : createTable(b, loc, i32, ArrayRef(toI32(rows)));
  Value left = createTable(b, loc, i32, ArrayRef(toI32(columnTable.lower)));
  Value right = createTable(b, loc, i32, ArrayRef(toI32(columnTable.upper)));
  Value xLerp = createTable(b, loc, f32, ArrayRef(columnTable.lerp));
  Value rowsInit = tensor::EmptyOp::create(
      b, loc,
      SmallVector<OpFoldResult>{batch,
                                b.getIndexAttr(static_cast<int64_t>(
                                    rows.size())),
                                b.getIndexAttr(outWidth), channels},
      f32);
  Value interpolatedRows =
      linalg::GenericOp::create(
          b, loc, rowsInit.getType(), ValueRange{}, ValueRange{rowsInit},
          ArrayRef{identity}, parallel,
          [&](OpBuilder &nb, Location nloc, ValueRange) {
            Value n = linalg::IndexOp::create(nb, nloc, 0);
            Value k = linalg::IndexOp::create(nb, nloc, 1);
            Value ow = linalg::IndexOp::create(nb, nloc, 2);
            Value c = linalg::IndexOp::create(nb, nloc, 3);
            Value h = allRows ? k : readIndex(nb, nloc, rowIndices, k);
            auto read = [&](Value table) -> Value {
              Value x = readIndex(nb, nloc, table, ow);
              Value v = tensor::ExtractOp::create(nb, nloc, images,
                                                  ValueRange{n, h, x, c});
              return convertToF32(nb, nloc, v, sourceElement, isUnsigned);
            };
            Value leftValue = read(left);
            Value rightValue = read(right);
            Value weight =
                tensor::ExtractOp::create(nb, nloc, xLerp, ValueRange{ow});
            linalg::YieldOp::create(
                nb, nloc, createLerp(nb, nloc, leftValue, rightValue, weight));
          })
          .getResult(0);

  // Pass 2: along H.
  Value top = createTable(b, loc, i32, ArrayRef(toI32(topRows)));
  Value bottom = createTable(b, loc, i32, ArrayRef(toI32(bottomRows)));
  Value yLerp = createTable(b, loc, f32, ArrayRef(rowTable.lerp));
  Value init = tensor::EmptyOp::create(
      b, loc,
      SmallVector<OpFoldResult>{batch, b.getIndexAttr(outHeight),
                                b.getIndexAttr(outWidth), channels},
      f32);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{}, ValueRange{init},
             ArrayRef{identity}, parallel,
             [&](OpBuilder &nb, Location nloc, ValueRange) {
               Value n = linalg::IndexOp::create(nb, nloc, 0);
               Value oh = linalg::IndexOp::create(nb, nloc, 1);
               Value ow = linalg::IndexOp::create(nb, nloc, 2);
               Value c = linalg::IndexOp::create(nb, nloc, 3);
               auto read = [&](Value table) -> Value {
                 Value k = readIndex(nb, nloc, table, oh);
                 return tensor::ExtractOp::create(nb, nloc, interpolatedRows,
                                                  ValueRange{n, k, ow, c});
               };
               Value topValue = read(top);
               Value bottomValue = read(bottom);
               Value weight =
                   tensor::ExtractOp::create(nb, nloc, yLerp, ValueRange{oh});
               linalg::YieldOp::create(
                   nb, nloc,
                   createLerp(nb, nloc, topValue, bottomValue, weight));
             })
      .getResult(0);
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

/// tf.ResizeBilinear (NHWC) with an f32 result. With a constant size and
/// static spatial input sizes, the two table-driven passes of
/// lowerSeparableBilinear; otherwise (a size computed at run time, dynamic
/// input sizes) one linalg.generic over the result whose body computes the
/// source indices and weights with the tables' formulas from the run-time
/// sizes and reads the four source pixels (interpolateBilinear).
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
    // TensorFlow rejects an empty image; it has no pixel to interpolate.
    if (succeeded(spatial) && llvm::is_contained(*spatial, 0))
      return kiln::detail::reportUnsupported(op,
                                             "image of zero height or width");
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
    bool isUnsigned = kiln::detail::isUnsignedElement(op.getImages().getType());
    Value images = adaptor.getImages();

    // Static sizes: the two table-driven passes.
    if (succeeded(size) && succeeded(spatial)) {
      std::array<BilinearTable, 2> tables;
      for (int i = 0; i < 2; ++i)
        tables[i] = computeBilinearTable((*spatial)[i], (*size)[i],
                                         op.getAlignCorners(),
                                         op.getHalfPixelCenters());
      Value resized = lowerSeparableBilinear(rewriter, loc, images, isUnsigned,
                                             tables[0], tables[1],
                                             (*spatial)[0]);
      rewriter.replaceOp(op, castToType(rewriter, loc, resized, resultType));
      return success();
    }

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

    std::array<Value, 2> scales, inSizes;
    for (int i = 0; i < 2; ++i) {
      inSizes[i] = tensor::DimOp::create(rewriter, loc, images, 1 + i);
      Value out = succeeded(size) ? Value(arith::ConstantIndexOp::create(
                                        rewriter, loc, (*size)[i]))
                                  : cast<Value>(outSizes[i]);
      scales[i] = createBilinearScale(rewriter, loc, inSizes[i], out,
                                      op.getAlignCorners());
    }
    SmallVector<OpFoldResult> sizes{
        tensor::getMixedSize(rewriter, loc, images, 0), outSizes[0],
        outSizes[1], tensor::getMixedSize(rewriter, loc, images, 3)};
    Value init =
        tensor::EmptyOp::create(rewriter, loc, sizes, rewriter.getF32Type());
    Value resized =
        linalg::GenericOp::create(
            rewriter, loc, init.getType(), ValueRange{}, ValueRange{init},
            ArrayRef{rewriter.getMultiDimIdentityMap(4)},
            SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
            [&](OpBuilder &b, Location loc, ValueRange) {
              std::array<std::array<Value, 3>, 2> sources;
              for (int i = 0; i < 2; ++i) {
                Value o = linalg::IndexOp::create(b, loc, 1 + i);
                sources[i] =
                    createBilinearSource(b, loc, o, scales[i], inSizes[i],
                                         op.getHalfPixelCenters());
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
