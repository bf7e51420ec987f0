//===- Slice.cpp - tf slicing and splitting to tensor -----------*- C++ -*-===//
//
// Slice, StridedSlice, Split and SplitV. Slice's begin and size and
// StridedSlice's begin and end may be known only at run time (read from the
// operand and clamped into range where TensorFlow would report an error);
// strides, split dimensions and size_splits must be constants, and
// Split/SplitV need a static split dimension.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"
#include "conversions/TFToLinalg/ShapeUtils.h"

#include "dialects/TF/IR/TFOps.h"

#include "llvm/ADT/bit.h"

#include <algorithm>

using namespace mlir;
using namespace kiln;
using namespace kiln::shape;

namespace {

//===----------------------------------------------------------------------===//
// Slicing
//===----------------------------------------------------------------------===//

/// tf.Slice -> tensor.extract_slice. Constant begin and size (-1: to the
/// end) are checked against static sizes. Runtime ones are read from the
/// operands and clamped so that the slice stays inside the input (where
/// TensorFlow reports an error instead); a size the result type makes static
/// is taken from it.
struct SliceOpLowering final : OpConversionPattern<tf::SliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    RankedTensorType beginType = getRankedType(adaptor.getBegin());
    RankedTensorType sizeType = getRankedType(adaptor.getSize());
    if (!resultType || !inputType || !beginType || !sizeType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t rank = inputType.getRank();
    auto hasRankElements = [&](RankedTensorType type) {
      return type.getRank() == 1 && type.getDimSize(0) == rank;
    };
    if (!hasRankElements(beginType) || !hasRankElements(sizeType) ||
        resultType.getRank() != rank)
      return kiln::detail::reportUnsupported(op, "begin and size must have " +
                                                     Twine(rank) + " elements");
    FailureOr<SmallVector<int64_t>> begin =
        kiln::detail::getConstantIntValues(adaptor.getBegin());
    FailureOr<SmallVector<int64_t>> size =
        kiln::detail::getConstantIntValues(adaptor.getSize());
    if (succeeded(begin) && succeeded(size)) {
      for (int64_t dim = 0; dim < rank; ++dim) {
        int64_t b = (*begin)[dim], s = (*size)[dim];
        int64_t extent = inputType.getDimSize(dim);
        if (b < 0 || s < -1 ||
            (!ShapedType::isDynamic(extent) &&
             (b > extent || (s != -1 && b + s > extent))))
          return kiln::detail::reportUnsupported(
              op, "slice [" + Twine(b) + ", +" + Twine(s) +
                      ") is out of bounds in dimension " + Twine(dim));
      }
    }

    Location loc = op.getLoc();
    SmallVector<OpFoldResult> offsets, sizes;
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    for (int64_t dim = 0; dim < rank; ++dim) {
      // A static size: from constant operands, or from the result type.
      std::optional<int64_t> staticSize;
      if (succeeded(begin) && succeeded(size)) {
        int64_t s = (*size)[dim];
        if (s != -1)
          staticSize = s;
        else if (!inputType.isDynamicDim(dim))
          staticSize = inputType.getDimSize(dim) - (*begin)[dim];
      } else if (succeeded(size) && (*size)[dim] != -1) {
        staticSize = (*size)[dim];
      } else if (!resultType.isDynamicDim(dim)) {
        staticSize = resultType.getDimSize(dim);
      }

      if (succeeded(begin) && succeeded(size)) {
        offsets.push_back(rewriter.getIndexAttr((*begin)[dim]));
        if (staticSize) {
          sizes.push_back(rewriter.getIndexAttr(*staticSize));
        } else {
          Value extent = tensor::DimOp::create(rewriter, loc, input, dim);
          Value offset =
              arith::ConstantIndexOp::create(rewriter, loc, (*begin)[dim]);
          sizes.push_back(
              arith::SubIOp::create(rewriter, loc, extent, offset).getResult());
        }
        continue;
      }

      // Runtime bounds, clamped into the input.
      Value extent =
          toIndexValue(rewriter, loc, getDimSize(rewriter, loc, input, dim));
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value offset =
          succeeded(begin)
              ? Value(arith::ConstantIndexOp::create(rewriter, loc,
                                                     (*begin)[dim]))
              : extractIndex(rewriter, loc, adaptor.getBegin(), {dim});
      offset = arith::MaxSIOp::create(rewriter, loc, offset, zero);
      if (staticSize) {
        Value count =
            arith::ConstantIndexOp::create(rewriter, loc, *staticSize);
        Value last = arith::SubIOp::create(rewriter, loc, extent, count);
        offset = arith::MinSIOp::create(rewriter, loc, offset, last);
        offset = arith::MaxSIOp::create(rewriter, loc, offset, zero);
        offsets.push_back(offset);
        sizes.push_back(rewriter.getIndexAttr(*staticSize));
        continue;
      }
      offset = arith::MinSIOp::create(rewriter, loc, offset, extent);
      offsets.push_back(offset);
      Value rest = arith::SubIOp::create(rewriter, loc, extent, offset);
      if (succeeded(size)) {
        // A constant -1.
        sizes.push_back(rest);
        continue;
      }
      Value count = extractIndex(rewriter, loc, adaptor.getSize(), {dim});
      Value minusOne = arith::ConstantIndexOp::create(rewriter, loc, -1);
      Value toEnd = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, count, minusOne);
      count = arith::MaxSIOp::create(rewriter, loc, count, zero);
      count = arith::MinSIOp::create(rewriter, loc, count, rest);
      sizes.push_back(arith::SelectOp::create(rewriter, loc, toEnd, rest, count)
                          .getResult());
    }
    Value result = tensor::ExtractSliceOp::create(rewriter, loc, input, offsets,
                                                  sizes, strides);
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// The slice a tf.StridedSlice takes, in terms of the input's dimensions
/// (TensorFlow's "dense spec" after canonicalization).
struct StridedSliceSpec {
  /// Per input dimension: first index, element count, step. A dimension
  /// with `whole` set is taken entirely with step 1 (its size may be
  /// dynamic).
  SmallVector<int64_t> begin, size, stride;
  SmallVector<bool> whole;
  /// Per input dimension: the entry of the sparse spec (begin/end/strides
  /// operands) it comes from, or -1 for one the ellipsis covers; whether
  /// begin and end are masked, and whether the dimension is shrunk.
  SmallVector<int64_t> sparseIndex;
  SmallVector<bool> beginMasked, endMasked, shrink;
  /// Input dimensions removed by shrink_axis_mask.
  SmallVector<int64_t> shrinkDims;
  /// Positions in the final shape of the dimensions new_axis_mask inserts.
  SmallVector<int64_t> newAxisPositions;
};

/// Builds the slice of a tf.StridedSlice on a tensor of `shape` from its
/// sparse spec, following TensorFlow's rules: one ellipsis (an implicit one
/// at the end when there is none) expands to the dimensions no other entry
/// names, new axes insert size-1 dimensions, begin/end indices count from
/// the end when negative, are clamped to the dimension, and are replaced by
/// the dimension's first/last index when masked (which depends on the sign
/// of the stride), and a shrink entry takes the single element at `begin`.
FailureOr<StridedSliceSpec>
computeStridedSlice(ArrayRef<int64_t> shape, ArrayRef<int64_t> begin,
                    ArrayRef<int64_t> end, ArrayRef<int64_t> strides,
                    uint64_t beginMask, uint64_t endMask, uint64_t ellipsisMask,
                    uint64_t newAxisMask, uint64_t shrinkMask,
                    bool structureOnly, std::string &error) {
  llvm::raw_string_ostream os(error);
  int64_t sparseDims = strides.size();
  if (llvm::popcount(ellipsisMask) > 1) {
    os << "multiple ellipses in the slice spec";
    return failure();
  }
  if (!ellipsisMask) {
    ellipsisMask = uint64_t(1) << sparseDims;
    ++sparseDims;
  }
  auto bit = [](uint64_t mask, int64_t i) { return (mask >> i) & 1; };
  int64_t numNewAxesAfterEllipsis = 0;
  bool ellipsisSeen = false;
  for (int64_t i = 0; i < sparseDims; ++i) {
    if (ellipsisSeen && bit(newAxisMask, i) && !bit(ellipsisMask, i))
      ++numNewAxesAfterEllipsis;
    if (bit(ellipsisMask, i))
      ellipsisSeen = true;
  }

  // Dense spec: one entry per input dimension.
  int64_t rank = shape.size();
  SmallVector<int64_t> denseBegin(rank, 0), denseEnd(rank, 0),
      denseStride(rank, 1);
  SmallVector<bool> denseBeginMasked(rank, false), denseEndMasked(rank, false),
      denseShrink(rank, false);
  SmallVector<int64_t> sparseIndex(rank, -1);
  StridedSliceSpec spec;
  int64_t finalRank = 0;
  int64_t full = 0;
  for (int64_t i = 0; i < sparseDims; ++i) {
    if (bit(ellipsisMask, i)) {
      int64_t next =
          std::min(rank - (sparseDims - i) + 1 + numNewAxesAfterEllipsis, rank);
      for (; full < next; ++full) {
        denseBeginMasked[full] = denseEndMasked[full] = true;
        ++finalRank;
      }
      continue;
    }
    if (bit(newAxisMask, i)) {
      spec.newAxisPositions.push_back(finalRank++);
      continue;
    }
    if (full == rank) {
      os << "index " << i << " of the slice spec is out of range for rank "
         << rank;
      return failure();
    }
    if (!structureOnly) {
      denseBegin[full] = begin[i];
      denseEnd[full] = end[i];
    }
    sparseIndex[full] = i;
    denseStride[full] = strides[i];
    denseBeginMasked[full] = bit(beginMask, i);
    denseEndMasked[full] = bit(endMask, i);
    denseShrink[full] = bit(shrinkMask, i);
    if (denseShrink[full])
      spec.shrinkDims.push_back(full);
    else
      ++finalRank;
    ++full;
  }

  spec.sparseIndex = sparseIndex;
  spec.beginMasked = denseBeginMasked;
  spec.endMasked = denseEndMasked;
  spec.shrink = denseShrink;
  for (int64_t dim = 0; dim < rank; ++dim) {
    int64_t stride = denseStride[dim];
    int64_t extent = shape[dim];
    if (stride == 0) {
      os << "stride of dimension " << dim << " is zero";
      return failure();
    }
    if (denseShrink[dim] && stride < 0) {
      os << "negative stride on the shrunk dimension " << dim;
      return failure();
    }
    if (structureOnly) {
      spec.stride.push_back(stride);
      continue;
    }
    if (ShapedType::isDynamic(extent)) {
      if (denseBeginMasked[dim] && denseEndMasked[dim] && stride == 1 &&
          !denseShrink[dim]) {
        spec.begin.push_back(0);
        spec.size.push_back(ShapedType::kDynamic);
        spec.stride.push_back(1);
        spec.whole.push_back(true);
        continue;
      }
      os << "dimension " << dim
         << " is dynamic and not taken whole with stride 1";
      return failure();
    }
    int64_t lowest = stride > 0 ? 0 : -1;
    int64_t highest = stride > 0 ? extent : extent - 1;
    auto canonical = [&](int64_t x, bool masked, bool isEnd) {
      if (masked)
        return (stride > 0) != isEnd ? lowest : highest;
      int64_t forward = x < 0 ? extent + x : x;
      return std::clamp(forward, lowest, highest);
    };
    int64_t first, last;
    if (denseShrink[dim]) {
      first = denseBegin[dim] < 0 ? extent + denseBegin[dim] : denseBegin[dim];
      if (first < 0 || first >= extent) {
        os << "slice index " << denseBegin[dim] << " of dimension " << dim
           << " is out of bounds";
        return failure();
      }
      last = first + 1;
    } else {
      first = canonical(denseBegin[dim], denseBeginMasked[dim], false);
      last = canonical(denseEnd[dim], denseEndMasked[dim], true);
    }
    int64_t interval = last - first;
    int64_t size = 0;
    if (interval != 0 && (interval < 0) == (stride < 0))
      size = interval / stride + (interval % stride != 0 ? 1 : 0);
    spec.begin.push_back(size == 0 ? 0 : first);
    spec.size.push_back(size);
    spec.stride.push_back(size == 0 ? 1 : stride);
    spec.whole.push_back(false);
  }
  return spec;
}

/// tf.StridedSlice with constant begin, end and strides ->
/// tensor.extract_slice (positive strides) or a linalg.generic of
/// tensor.extract (negative strides), then tensor.collapse_shape for the
/// shrunk dimensions and tensor.expand_shape for the new axes.
struct StridedSliceOpLowering final : OpConversionPattern<tf::StridedSliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::StridedSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    FailureOr<SmallVector<int64_t>> strides =
        kiln::detail::getConstantIntValues(adaptor.getStrides());
    if (failed(strides))
      return kiln::detail::reportUnsupported(
          op, "strides operand is not a constant");
    FailureOr<SmallVector<int64_t>> begin =
        kiln::detail::getConstantIntValues(adaptor.getBegin());
    FailureOr<SmallVector<int64_t>> end =
        kiln::detail::getConstantIntValues(adaptor.getEnd());
    auto hasStridesLength = [&](Value operand) {
      RankedTensorType type = getRankedType(operand);
      return type && type.getRank() == 1 &&
             type.getDimSize(0) == static_cast<int64_t>(strides->size());
    };
    if (!hasStridesLength(adaptor.getBegin()) ||
        !hasStridesLength(adaptor.getEnd()) || strides->size() >= 63)
      return kiln::detail::reportUnsupported(
          op, "begin, end and strides must have the same length");
    auto compute = [&](bool structureOnly, std::string &error) {
      return computeStridedSlice(
          inputType.getShape(), structureOnly ? ArrayRef<int64_t>() : *begin,
          structureOnly ? ArrayRef<int64_t>() : *end, *strides,
          static_cast<int64_t>(op.getBeginMask()),
          static_cast<int64_t>(op.getEndMask()),
          static_cast<int64_t>(op.getEllipsisMask()),
          static_cast<int64_t>(op.getNewAxisMask()),
          static_cast<int64_t>(op.getShrinkAxisMask()), structureOnly, error);
    };
    // Constant bounds are resolved now; bounds known only at run time, or
    // dynamic sizes the slice does not take whole, at run time.
    std::string error;
    bool runtime = failed(begin) || failed(end);
    FailureOr<StridedSliceSpec> spec = failure();
    if (!runtime) {
      spec = compute(/*structureOnly=*/false, error);
      if (failed(spec) && !inputType.hasStaticShape()) {
        runtime = true;
        error.clear();
      }
    }
    if (runtime)
      spec = compute(/*structureOnly=*/true, error);
    if (failed(spec))
      return kiln::detail::reportUnsupported(op, error);
    int64_t finalRank = inputType.getRank() -
                        static_cast<int64_t>(spec->shrinkDims.size()) +
                        static_cast<int64_t>(spec->newAxisPositions.size());
    if (finalRank != resultType.getRank())
      return kiln::detail::reportUnsupported(
          op, "the slice has rank " + Twine(finalRank) +
                  " but the result has rank " + Twine(resultType.getRank()));

    Location loc = op.getLoc();
    if (runtime) {
      Value result =
          lowerRuntimeBounds(op, adaptor, *spec, begin, end, rewriter);
      rewriter.replaceOp(
          op, kiln::detail::castToType(rewriter, loc, result, resultType));
      return success();
    }
    int64_t rank = inputType.getRank();
    SmallVector<OpFoldResult> sizes;
    for (int64_t dim = 0; dim < rank; ++dim)
      sizes.push_back(spec->whole[dim] ? getDimSize(rewriter, loc, input, dim)
                                       : OpFoldResult(rewriter.getIndexAttr(
                                             spec->size[dim])));
    Value sliced;
    if (llvm::all_of(spec->stride, [](int64_t s) { return s > 0; })) {
      SmallVector<OpFoldResult> offsets, steps;
      for (int64_t dim = 0; dim < rank; ++dim) {
        offsets.push_back(rewriter.getIndexAttr(spec->begin[dim]));
        steps.push_back(rewriter.getIndexAttr(spec->stride[dim]));
      }
      sliced = tensor::ExtractSliceOp::create(rewriter, loc, input, offsets,
                                              sizes, steps);
    } else {
      sliced = createIndexGeneric(
          rewriter, loc, sizes, inputType.getElementType(),
          [&](OpBuilder &b, Location loc, ArrayRef<Value> indices) {
            SmallVector<Value> source;
            for (auto [dim, index] : llvm::enumerate(indices)) {
              Value first =
                  arith::ConstantIndexOp::create(b, loc, spec->begin[dim]);
              Value step =
                  arith::ConstantIndexOp::create(b, loc, spec->stride[dim]);
              Value offset = arith::MulIOp::create(b, loc, index, step);
              source.push_back(arith::AddIOp::create(b, loc, first, offset));
            }
            return tensor::ExtractOp::create(b, loc, input, source);
          });
    }
    Value result =
        kiln::detail::dropUnitDims(rewriter, loc, sliced, spec->shrinkDims);
    result = kiln::detail::insertUnitDims(rewriter, loc, result,
                                          spec->newAxisPositions);
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }

  /// The slice for bounds read at run time, as TensorFlow canonicalizes them:
  /// each bound is counted from the end when negative and clamped to the
  /// valid range ([0, size] for a positive stride, [-1, size - 1] for a
  /// negative one), a masked bound is the end of that range the stride
  /// starts or stops at, and the element count is
  /// ceil(|end - begin| / |stride|) when the interval runs the stride's way.
  Value lowerRuntimeBounds(tf::StridedSliceOp op, OpAdaptor adaptor,
                           const StridedSliceSpec &spec,
                           const FailureOr<SmallVector<int64_t>> &begin,
                           const FailureOr<SmallVector<int64_t>> &end,
                           ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto bound = [&](Value operand,
                     const FailureOr<SmallVector<int64_t>> &values,
                     int64_t index) -> Value {
      if (succeeded(values))
        return arith::ConstantIndexOp::create(rewriter, loc, (*values)[index]);
      return extractIndex(rewriter, loc, operand, {index});
    };
    Value minusOne = arith::ConstantIndexOp::create(rewriter, loc, -1);
    auto forwardClamped = [&](Value x, Value extent, Value low,
                              Value high) -> Value {
      Value negative = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::slt, x, zero);
      Value fromEnd = arith::AddIOp::create(rewriter, loc, x, extent);
      x = arith::SelectOp::create(rewriter, loc, negative, fromEnd, x);
      x = arith::MaxSIOp::create(rewriter, loc, x, low);
      return arith::MinSIOp::create(rewriter, loc, x, high);
    };
    SmallVector<OpFoldResult> offsets, sizes, steps;
    for (int64_t dim = 0; dim < rank; ++dim) {
      int64_t index = spec.sparseIndex[dim];
      int64_t stride = spec.stride[dim];
      if (index < 0 || (spec.beginMasked[dim] && spec.endMasked[dim] &&
                        stride == 1 && !spec.shrink[dim])) {
        offsets.push_back(rewriter.getIndexAttr(0));
        sizes.push_back(getDimSize(rewriter, loc, input, dim));
        steps.push_back(rewriter.getIndexAttr(1));
        continue;
      }
      Value extent =
          toIndexValue(rewriter, loc, getDimSize(rewriter, loc, input, dim));
      if (spec.shrink[dim]) {
        Value last = arith::SubIOp::create(rewriter, loc, extent, one);
        offsets.push_back(forwardClamped(
            bound(adaptor.getBegin(), begin, index), extent, zero, last));
        sizes.push_back(rewriter.getIndexAttr(1));
        steps.push_back(rewriter.getIndexAttr(1));
        continue;
      }
      // The valid range is [0, extent] for a positive stride and
      // [-1, extent - 1] for a negative one; masked bounds are its ends.
      Value lowest = stride > 0 ? zero : minusOne;
      Value highest =
          stride > 0 ? extent
                     : Value(arith::SubIOp::create(rewriter, loc, extent, one));
      auto canonical = [&](Value operand,
                           const FailureOr<SmallVector<int64_t>> &values,
                           bool masked, bool isEnd) -> Value {
        if (masked)
          return (stride > 0) != isEnd ? lowest : highest;
        return forwardClamped(bound(operand, values, index), extent, lowest,
                              highest);
      };
      Value first =
          canonical(adaptor.getBegin(), begin, spec.beginMasked[dim], false);
      Value last = canonical(adaptor.getEnd(), end, spec.endMasked[dim], true);
      // The element count, ceil(|last - first| / |stride|) when the interval
      // runs the stride's way, else 0.
      Value interval = stride > 0
                           ? arith::SubIOp::create(rewriter, loc, last, first)
                           : arith::SubIOp::create(rewriter, loc, first, last);
      interval = arith::MaxSIOp::create(rewriter, loc, interval, zero);
      Value step = arith::ConstantIndexOp::create(
          rewriter, loc, stride > 0 ? stride : -stride);
      Value rounded = arith::AddIOp::create(
          rewriter, loc, interval,
          arith::SubIOp::create(rewriter, loc, step, one));
      offsets.push_back(first);
      sizes.push_back(
          arith::DivUIOp::create(rewriter, loc, rounded, step).getResult());
      steps.push_back(rewriter.getIndexAttr(stride));
    }
    Value sliced;
    if (llvm::all_of(spec.stride, [](int64_t s) { return s > 0; })) {
      sliced = tensor::ExtractSliceOp::create(rewriter, loc, input, offsets,
                                              sizes, steps);
    } else {
      // tensor.extract_slice takes no negative strides: read each element.
      SmallVector<Value> firsts;
      for (OpFoldResult offset : offsets)
        firsts.push_back(toIndexValue(rewriter, loc, offset));
      sliced = createIndexGeneric(
          rewriter, loc, sizes, getElementTypeOrSelf(input.getType()),
          [&](OpBuilder &b, Location loc, ArrayRef<Value> indices) -> Value {
            SmallVector<Value> source;
            for (auto [dim, i] : llvm::enumerate(indices)) {
              Value step =
                  arith::ConstantIndexOp::create(b, loc, spec.stride[dim]);
              Value offset = arith::MulIOp::create(b, loc, i, step);
              source.push_back(
                  arith::AddIOp::create(b, loc, firsts[dim], offset));
            }
            return tensor::ExtractOp::create(b, loc, input, source);
          });
    }
    Value result =
        kiln::detail::dropUnitDims(rewriter, loc, sliced, spec.shrinkDims);
    return kiln::detail::insertUnitDims(rewriter, loc, result,
                                        spec.newAxisPositions);
  }
};

//===----------------------------------------------------------------------===//
// Splitting
//===----------------------------------------------------------------------===//

/// Extract_slices of `input` along `axis` with the given static sizes, one
/// per result type.
SmallVector<Value> createSplits(OpBuilder &b, Location loc,
                                ArrayRef<Type> resultTypes, Value input,
                                int64_t axis, ArrayRef<int64_t> splitSizes) {
  auto inputType = cast<RankedTensorType>(input.getType());
  int64_t rank = inputType.getRank();
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, input);
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  SmallVector<Value> results;
  int64_t offset = 0;
  for (auto [size, type] : llvm::zip(splitSizes, resultTypes)) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    offsets[axis] = b.getIndexAttr(offset);
    sizes[axis] = b.getIndexAttr(size);
    Value slice =
        tensor::ExtractSliceOp::create(b, loc, input, offsets, sizes, strides);
    results.push_back(kiln::detail::castToType(b, loc, slice, type));
    offset += size;
  }
  return results;
}

/// tf.Split with a constant split_dim -> equal tensor.extract_slices.
struct SplitOpLowering final : OpConversionPattern<tf::SplitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getValue();
    RankedTensorType inputType = getRankedType(input);
    SmallVector<Type> resultTypes;
    if (!inputType || failed(getTypeConverter()->convertTypes(
                          op->getResultTypes(), resultTypes)))
      return kiln::detail::reportUnsupported(op, "unranked operand");
    FailureOr<int64_t> dimValue = getConstantScalar(adaptor.getSplitDim());
    if (failed(dimValue))
      return kiln::detail::reportUnsupported(
          op, "split_dim operand is not a constant");
    std::optional<int64_t> axis =
        kiln::detail::normalizeAxis(*dimValue, inputType.getRank());
    if (!axis)
      return kiln::detail::reportUnsupported(
          op, "split_dim " + Twine(*dimValue) + " is out of range for rank " +
                  Twine(inputType.getRank()));
    int64_t num = op.getNumResults();
    int64_t extent = inputType.getDimSize(*axis);
    if (ShapedType::isDynamic(extent))
      return kiln::detail::reportUnsupported(op, "split dimension is dynamic");
    if (extent % num != 0)
      return kiln::detail::reportUnsupported(
          op, "dimension of size " + Twine(extent) +
                  " does not split evenly into " + Twine(num));
    SmallVector<int64_t> splitSizes(num, extent / num);
    rewriter.replaceOp(op, createSplits(rewriter, op.getLoc(), resultTypes,
                                        input, *axis, splitSizes));
    return success();
  }
};

/// tf.SplitV with constant size_splits (one may be -1) and split_dim ->
/// tensor.extract_slices.
struct SplitVOpLowering final : OpConversionPattern<tf::SplitVOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::SplitVOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getValue();
    RankedTensorType inputType = getRankedType(input);
    SmallVector<Type> resultTypes;
    if (!inputType || failed(getTypeConverter()->convertTypes(
                          op->getResultTypes(), resultTypes)))
      return kiln::detail::reportUnsupported(op, "unranked operand");
    FailureOr<SmallVector<int64_t>> splitSizes =
        kiln::detail::getConstantIntValues(adaptor.getSizeSplits());
    if (failed(splitSizes))
      return kiln::detail::reportUnsupported(
          op, "size_splits operand is not a constant");
    FailureOr<int64_t> dimValue = getConstantScalar(adaptor.getSplitDim());
    if (failed(dimValue))
      return kiln::detail::reportUnsupported(
          op, "split_dim operand is not a constant");
    std::optional<int64_t> axis =
        kiln::detail::normalizeAxis(*dimValue, inputType.getRank());
    if (!axis)
      return kiln::detail::reportUnsupported(
          op, "split_dim " + Twine(*dimValue) + " is out of range for rank " +
                  Twine(inputType.getRank()));
    int64_t extent = inputType.getDimSize(*axis);
    if (ShapedType::isDynamic(extent))
      return kiln::detail::reportUnsupported(op, "split dimension is dynamic");
    if (splitSizes->size() != op.getNumResults())
      return kiln::detail::reportUnsupported(
          op, "size_splits has " + Twine(splitSizes->size()) +
                  " elements for " + Twine(op.getNumResults()) + " results");
    int64_t known = 0, unknown = -1;
    for (auto [i, size] : llvm::enumerate(*splitSizes)) {
      if (size == -1 && unknown == -1) {
        unknown = i;
        continue;
      }
      if (size < 0)
        return kiln::detail::reportUnsupported(
            op, "size_splits has a negative size other than one -1");
      known += size;
    }
    if (known > extent || (unknown == -1 && known != extent))
      return kiln::detail::reportUnsupported(
          op, "size_splits add up to " + Twine(known) +
                  " for a dimension of size " + Twine(extent));
    if (unknown != -1)
      (*splitSizes)[unknown] = extent - known;
    rewriter.replaceOp(op, createSplits(rewriter, op.getLoc(), resultTypes,
                                        input, *axis, *splitSizes));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateSlicePatterns(const TypeConverter &typeConverter,
                                         RewritePatternSet &patterns) {
  patterns.add<SliceOpLowering, StridedSliceOpLowering, SplitOpLowering,
               SplitVOpLowering>(
      typeConverter, patterns.getContext());
}
