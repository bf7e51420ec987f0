//===- SpaceBatch.cpp - tf space/batch/depth ops to tensor ------*- C++ -*-===//
//
// DepthToSpace (a static depth), SpaceToBatchND and BatchToSpaceND: the
// block shape must be constant; paddings and crops may be known only at
// run time.
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
// Space, batch and depth rearrangements
//===----------------------------------------------------------------------===//

/// tf.DepthToSpace (NHWC) -> expand [N, H, W, bs, bs, C'], transpose to
/// [N, H, bs, W, bs, C'], collapse to [N, H*bs, W*bs, C'].
struct DepthToSpaceOpLowering final : OpConversionPattern<tf::DepthToSpaceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::DepthToSpaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType || inputType.getRank() != 4)
      return kiln::detail::reportUnsupported(op, "expects a 4-D input");
    if (op.getDataFormat() != "NHWC")
      return kiln::detail::reportUnsupported(
          op, "data_format '" + op.getDataFormat() + "' (only NHWC)");
    int64_t block = static_cast<int64_t>(op.getBlockSize());
    int64_t depth = inputType.getDimSize(3);
    if (ShapedType::isDynamic(depth) || depth % (block * block) != 0)
      return kiln::detail::reportUnsupported(
          op, "depth must be static and divisible by block_size^2");
    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, input);
    SmallVector<OpFoldResult> expandedSizes = {
        sizes[0],
        sizes[1],
        sizes[2],
        rewriter.getIndexAttr(block),
        rewriter.getIndexAttr(block),
        rewriter.getIndexAttr(depth / (block * block))};
    SmallVector<int64_t> expandedShape = {inputType.getDimSize(0),
                                          inputType.getDimSize(1),
                                          inputType.getDimSize(2),
                                          block,
                                          block,
                                          depth / (block * block)};
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, inputType.clone(expandedShape), input,
        ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4, 5}},
        expandedSizes);
    Value transposed =
        createTranspose(rewriter, loc, expanded, {0, 1, 3, 2, 4, 5});
    Value result = tensor::CollapseShapeOp::create(
        rewriter, loc, transposed,
        ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3, 4}, {5}});
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// The constant block shape of a SpaceToBatchND/BatchToSpaceND and its
/// [M, 2] paddings or crops, for an input of at least 1 + M dimensions, or
/// a reported failure. `isConstant` tells whether the paddings or crops are
/// constant (then in `low` and `high`) or runtime values of shape [M, 2].
LogicalResult getBlockSpec(Operation *op, RankedTensorType inputType,
                           Value blockShape, Value paddings, StringRef name,
                           SmallVectorImpl<int64_t> &block,
                           SmallVectorImpl<int64_t> &low,
                           SmallVectorImpl<int64_t> &high, bool &isConstant) {
  FailureOr<SmallVector<int64_t>> values =
      kiln::detail::getConstantIntValues(blockShape);
  if (failed(values))
    return kiln::detail::reportUnsupported(
        op, "block_shape operand is not a constant");
  block.assign(*values);
  int64_t m = block.size();
  if (m < 1 || inputType.getRank() < m + 1 ||
      llvm::any_of(block, [](int64_t b) { return b < 1; }))
    return kiln::detail::reportUnsupported(
        op, "block_shape must hold 1 to rank-1 positive values");
  isConstant = succeeded(kiln::detail::getConstantIntValues(paddings));
  if (isConstant)
    return getPaddings(op, paddings, m, low, high, name);
  RankedTensorType paddingsType = getRankedType(paddings);
  if (!paddingsType || paddingsType.getShape() != ArrayRef<int64_t>{m, 2})
    return kiln::detail::reportUnsupported(op, name + " must have shape [" +
                                                   Twine(m) + ", 2]");
  return success();
}

/// The [M, 2] `amounts` (paddings or crops) of a SpaceToBatchND or
/// BatchToSpaceND as index values: `low` and `high` when constant, otherwise
/// read from the operand with negative amounts taken as zero (TensorFlow
/// reports an error).
void getBlockAmounts(OpBuilder &b, Location loc, Value amounts, int64_t m,
                     bool isConstant, ArrayRef<int64_t> low,
                     ArrayRef<int64_t> high,
                     SmallVectorImpl<OpFoldResult> &lowAmounts,
                     SmallVectorImpl<OpFoldResult> &highAmounts) {
  if (isConstant) {
    for (int64_t i = 0; i < m; ++i) {
      lowAmounts.push_back(b.getIndexAttr(low[i]));
      highAmounts.push_back(b.getIndexAttr(high[i]));
    }
    return;
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t side = 0; side < 2; ++side) {
      Value amount = extractIndex(b, loc, amounts, {i, side});
      amount = arith::MaxSIOp::create(b, loc, amount, zero);
      (side == 0 ? lowAmounts : highAmounts).push_back(amount);
    }
  }
}

/// tf.SpaceToBatchND -> pad the M spatial dimensions, expand each into
/// [p/b, b], move the block dimensions in front of the batch, and collapse
/// them into it.
struct SpaceToBatchNDOpLowering final
    : OpConversionPattern<tf::SpaceToBatchNDOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::SpaceToBatchNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    SmallVector<int64_t> block, low, high;
    bool isConstant = false;
    if (failed(getBlockSpec(op, inputType, adaptor.getBlockShape(),
                            adaptor.getPaddings(), "paddings", block, low, high,
                            isConstant)))
      return failure();
    int64_t m = block.size(), rank = inputType.getRank();
    ArrayRef<int64_t> shape = inputType.getShape();
    for (int64_t i = 0; isConstant && i < m; ++i)
      if (!inputType.isDynamicDim(i + 1) &&
          (shape[i + 1] + low[i] + high[i]) % block[i] != 0)
        return kiln::detail::reportUnsupported(
            op, "padded spatial dimension " + Twine(i) +
                    " is not divisible by its block size");

    Location loc = op.getLoc();
    SmallVector<OpFoldResult> lowAmounts, highAmounts;
    getBlockAmounts(rewriter, loc, adaptor.getPaddings(), m, isConstant, low,
                    high, lowAmounts, highAmounts);
    SmallVector<OpFoldResult> fullLow(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> fullHigh(fullLow);
    SmallVector<int64_t> paddedShape(shape);
    for (int64_t i = 0; i < m; ++i) {
      fullLow[i + 1] = lowAmounts[i];
      fullHigh[i + 1] = highAmounts[i];
      if (isConstant && !inputType.isDynamicDim(i + 1))
        paddedShape[i + 1] += low[i] + high[i];
      else
        paddedShape[i + 1] = ShapedType::kDynamic;
    }
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(inputType.getElementType()));
    Value padded =
        tensor::PadOp::create(rewriter, loc, inputType.clone(paddedShape),
                              input, fullLow, fullHigh, zero);
    SmallVector<OpFoldResult> paddedSizes = getTypeSizes(rewriter, loc, padded);
    // [B, p1/b1, b1, ..., pM/bM, bM, rest...]
    SmallVector<OpFoldResult> expandedSizes = {paddedSizes[0]};
    SmallVector<ReassociationIndices> groups = {{0}};
    for (int64_t i = 0; i < m; ++i) {
      groups.push_back({static_cast<int64_t>(expandedSizes.size()),
                        static_cast<int64_t>(expandedSizes.size()) + 1});
      expandedSizes.push_back(createExactDiv(
          rewriter, loc, paddedSizes[i + 1], block[i],
          "tf.SpaceToBatchND: padded spatial dimension " + Twine(i) +
              " must be divisible by its block size"));
      expandedSizes.push_back(rewriter.getIndexAttr(block[i]));
    }
    for (int64_t dim = m + 1; dim < rank; ++dim) {
      groups.push_back({static_cast<int64_t>(expandedSizes.size())});
      expandedSizes.push_back(paddedSizes[dim]);
    }
    SmallVector<int64_t> expandedShape;
    SmallVector<Value> dynamicSizes;
    dispatchIndexOpFoldResults(expandedSizes, dynamicSizes, expandedShape);
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, inputType.clone(expandedShape), padded, groups,
        expandedSizes);
    // [b1, ..., bM, B, p1/b1, ..., pM/bM, rest...]
    SmallVector<int64_t> perm;
    for (int64_t i = 0; i < m; ++i)
      perm.push_back(2 * i + 2);
    perm.push_back(0);
    for (int64_t i = 0; i < m; ++i)
      perm.push_back(2 * i + 1);
    for (int64_t dim = 2 * m + 1;
         dim < static_cast<int64_t>(expandedShape.size()); ++dim)
      perm.push_back(dim);
    Value transposed = createTranspose(rewriter, loc, expanded, perm);
    SmallVector<ReassociationIndices> collapse(1);
    for (int64_t dim = 0; dim <= m; ++dim)
      collapse[0].push_back(dim);
    for (int64_t dim = m + 1; dim < static_cast<int64_t>(perm.size()); ++dim)
      collapse.push_back({dim});
    Value result =
        tensor::CollapseShapeOp::create(rewriter, loc, transposed, collapse);
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// tf.BatchToSpaceND -> expand the batch into [b1, ..., bM, B], interleave
/// each block dimension after its spatial one, collapse the pairs, and crop.
struct BatchToSpaceNDOpLowering final
    : OpConversionPattern<tf::BatchToSpaceNDOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::BatchToSpaceNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    SmallVector<int64_t> block, cropStart, cropEnd;
    bool isConstant = false;
    if (failed(getBlockSpec(op, inputType, adaptor.getBlockShape(),
                            adaptor.getCrops(), "crops", block, cropStart,
                            cropEnd, isConstant)))
      return failure();
    int64_t m = block.size(), rank = inputType.getRank();
    ArrayRef<int64_t> shape = inputType.getShape();
    int64_t blocks = 1;
    for (int64_t b : block)
      blocks *= b;
    if (!inputType.isDynamicDim(0) && shape[0] % blocks != 0)
      return kiln::detail::reportUnsupported(op, "batch " + Twine(shape[0]) +
                                                     " is not divisible by " +
                                                     Twine(blocks) + " blocks");
    for (int64_t i = 0; isConstant && i < m; ++i)
      if (!inputType.isDynamicDim(i + 1) &&
          cropStart[i] + cropEnd[i] > shape[i + 1] * block[i])
        return kiln::detail::reportUnsupported(
            op, "crops of spatial dimension " + Twine(i) + " exceed its size");

    Location loc = op.getLoc();
    SmallVector<OpFoldResult> inputSizes = getTypeSizes(rewriter, loc, input);
    OpFoldResult batch = createExactDiv(
        rewriter, loc, inputSizes[0], blocks,
        "tf.BatchToSpaceND: batch must be divisible by the block count");
    // [b1, ..., bM, B, s1, ..., sM, rest...]
    SmallVector<OpFoldResult> expandedSizes;
    for (int64_t b : block)
      expandedSizes.push_back(rewriter.getIndexAttr(b));
    expandedSizes.push_back(batch);
    SmallVector<ReassociationIndices> groups(1);
    for (int64_t dim = 0; dim <= m; ++dim)
      groups[0].push_back(dim);
    for (int64_t dim = 1; dim < rank; ++dim) {
      groups.push_back({static_cast<int64_t>(expandedSizes.size())});
      expandedSizes.push_back(inputSizes[dim]);
    }
    SmallVector<int64_t> expandedShape;
    SmallVector<Value> dynamicSizes;
    dispatchIndexOpFoldResults(expandedSizes, dynamicSizes, expandedShape);
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, inputType.clone(expandedShape), input, groups,
        expandedSizes);
    // [B, s1, b1, ..., sM, bM, rest...]
    SmallVector<int64_t> perm = {m};
    SmallVector<ReassociationIndices> collapse = {{0}};
    for (int64_t i = 0; i < m; ++i) {
      collapse.push_back({static_cast<int64_t>(perm.size()),
                          static_cast<int64_t>(perm.size()) + 1});
      perm.push_back(m + 1 + i);
      perm.push_back(i);
    }
    for (int64_t dim = 2 * m + 1;
         dim < static_cast<int64_t>(expandedShape.size()); ++dim) {
      collapse.push_back({static_cast<int64_t>(perm.size())});
      perm.push_back(dim);
    }
    Value transposed = createTranspose(rewriter, loc, expanded, perm);
    Value collapsed =
        tensor::CollapseShapeOp::create(rewriter, loc, transposed, collapse);
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
    sizes.push_back(batch);
    SmallVector<OpFoldResult> startAmounts, endAmounts;
    getBlockAmounts(rewriter, loc, adaptor.getCrops(), m, isConstant, cropStart,
                    cropEnd, startAmounts, endAmounts);
    for (int64_t i = 0; i < m; ++i) {
      offsets[i + 1] = startAmounts[i];
      if (isConstant && !inputType.isDynamicDim(i + 1)) {
        sizes.push_back(rewriter.getIndexAttr(shape[i + 1] * block[i] -
                                              cropStart[i] - cropEnd[i]));
        continue;
      }
      Value full = arith::MulIOp::create(
          rewriter, loc, toIndexValue(rewriter, loc, inputSizes[i + 1]),
          arith::ConstantIndexOp::create(rewriter, loc, block[i]));
      if (isConstant && cropStart[i] + cropEnd[i] == 0) {
        sizes.push_back(full);
        continue;
      }
      Value crop = arith::AddIOp::create(
          rewriter, loc, toIndexValue(rewriter, loc, startAmounts[i]),
          toIndexValue(rewriter, loc, endAmounts[i]));
      createRuntimeCheck(rewriter, loc,
                         arith::CmpIOp::create(rewriter, loc,
                                               arith::CmpIPredicate::uge, full,
                                               crop),
                         "tf.BatchToSpaceND: crops of spatial dimension " +
                             Twine(i) + " must not exceed its size");
      sizes.push_back(
          arith::SubIOp::create(rewriter, loc, full, crop).getResult());
    }
    for (int64_t dim = m + 1; dim < rank; ++dim)
      sizes.push_back(inputSizes[dim]);
    Value result = tensor::ExtractSliceOp::create(rewriter, loc, collapsed,
                                                  offsets, sizes, strides);
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateSpaceBatchPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<DepthToSpaceOpLowering, SpaceToBatchNDOpLowering,
               BatchToSpaceNDOpLowering>(
      typeConverter, patterns.getContext());
}
