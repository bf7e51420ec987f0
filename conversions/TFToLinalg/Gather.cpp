//===- Gather.cpp - tf gathers to linalg ------------------------*- C++ -*-===//
//
// GatherV2 (an axis constant or known at run time) and GatherNd (a static index depth).
// Out-of-range gather indices are an error in TensorFlow on CPU. Indices known
// at compile time are checked here and an out-of-range one is a compile error
// naming it; indices known only at run time are clamped into range, so that
// the compiled code never reads outside the tensor, or read as zero under
// GatherNd's "IGNORE" policy.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"
#include "conversions/TFToLinalg/ShapeUtils.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::shape;

namespace {

//===----------------------------------------------------------------------===//
// Gathers
//===----------------------------------------------------------------------===//

/// `index` (an integer of any width, signed) as an index clamped to
/// [0, size - 1].
Value clampIndex(OpBuilder &b, Location loc, Value index, Value size) {
  if (!index.getType().isIndex())
    index = arith::IndexCastOp::create(b, loc, b.getIndexType(), index);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value last = arith::SubIOp::create(b, loc, size, one);
  Value low = arith::MaxSIOp::create(b, loc, index, zero);
  return arith::MinSIOp::create(b, loc, low, last);
}

/// The constant `indices`, or nothing when they are not known at compile time
/// (the adaptor's value, or the original operand when that is still a tf
/// constant).
std::optional<DenseIntElementsAttr> getConstantIndices(Value converted,
                                                       Value original) {
  DenseIntElementsAttr values;
  if (matchPattern(converted, m_Constant(&values)) ||
      matchPattern(original, m_Constant(&values)))
    return values;
  return std::nullopt;
}

/// Fails with an error naming the first index of `indices` (a constant of
/// `depth` components per index) outside [0, extent) of the params dimension
/// it addresses; dynamic extents are not checked.
LogicalResult checkConstantIndices(Operation *op, DenseIntElementsAttr indices,
                                   ArrayRef<int64_t> extents,
                                   ArrayRef<int64_t> dims) {
  int64_t depth = extents.size(), position = 0;
  if (depth == 0)
    return success();
  for (const APInt &value : indices.getValues<APInt>()) {
    int64_t component = position % depth;
    int64_t index = value.getSExtValue();
    int64_t extent = extents[component];
    if (!ShapedType::isDynamic(extent) && (index < 0 || index >= extent))
      return op->emitOpError("index ")
             << index << " (element " << position
             << " of the constant indices) is out of range [0, " << extent
             << ") of params' dimension " << dims[component];
    ++position;
  }
  return success();
}

/// The gather of `params` along the static `axis` at `indices`, whose
/// first `batchDims` dimensions are shared with params.
Value gatherAlong(OpBuilder &b, Location loc, Value params, Value indices,
                int64_t axis, int64_t batchDims) {
  auto paramsType = cast<RankedTensorType>(params.getType());
  int64_t paramsRank = paramsType.getRank();
  int64_t indicesRank = cast<RankedTensorType>(indices.getType()).getRank();
  int64_t outRank = paramsRank - 1 + indicesRank - batchDims;
  MLIRContext *context = b.getContext();
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim = 0; dim < axis; ++dim)
    sizes.push_back(getDimSize(b, loc, params, dim));
  for (int64_t dim = batchDims; dim < indicesRank; ++dim)
    sizes.push_back(getDimSize(b, loc, indices, dim));
  for (int64_t dim = axis + 1; dim < paramsRank; ++dim)
    sizes.push_back(getDimSize(b, loc, params, dim));
  Value init =
      tensor::EmptyOp::create(b, loc, sizes, paramsType.getElementType());
  Value axisSize = toIndexValue(b, loc, getDimSize(b, loc, params, axis));
  SmallVector<AffineExpr> indexExprs;
  for (int64_t dim = 0; dim < batchDims; ++dim)
    indexExprs.push_back(getAffineDimExpr(dim, context));
  for (int64_t dim = batchDims; dim < indicesRank; ++dim)
    indexExprs.push_back(getAffineDimExpr(axis + dim - batchDims, context));
  SmallVector<AffineMap> maps = {
      AffineMap::get(outRank, 0, indexExprs, context),
      b.getMultiDimIdentityMap(outRank)};
  SmallVector<utils::IteratorType> iterators(outRank,
                                             utils::IteratorType::parallel);
  int64_t afterAxis = axis + indicesRank - batchDims;
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{indices}, ValueRange{init},
      maps, iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
        SmallVector<Value> source;
        for (int64_t dim = 0; dim < axis; ++dim)
          source.push_back(linalg::IndexOp::create(b, loc, dim));
        source.push_back(clampIndex(b, loc, args[0], axisSize));
        for (int64_t dim = afterAxis; dim < outRank; ++dim)
          source.push_back(linalg::IndexOp::create(b, loc, dim));
        Value element = tensor::ExtractOp::create(b, loc, params, source);
        linalg::YieldOp::create(b, loc, element);
      });
  return generic.getResult(0);
}

/// tf.GatherV2 -> a linalg.generic that reads each index and
/// tensor.extracts the params element (for an axis known only at run time,
/// one per axis in an scf.index_switch). The output dimensions are
/// params[:axis] ++ indices[batch_dims:] ++ params[axis+1:], where the first
/// batch_dims of them are shared by params and indices.
struct GatherV2OpLowering final : OpConversionPattern<tf::GatherV2Op> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::GatherV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value params = adaptor.getParams(), indices = adaptor.getIndices();
    RankedTensorType paramsType = getRankedType(params);
    RankedTensorType indicesType = getRankedType(indices);
    if (!resultType || !paramsType || !indicesType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t paramsRank = paramsType.getRank();
    int64_t indicesRank = indicesType.getRank();
    FailureOr<int64_t> axisValue = getConstantScalar(adaptor.getAxis());
    if (failed(axisValue))
      return lowerRuntimeAxis(op, adaptor, resultType, rewriter);
    std::optional<int64_t> axis =
        kiln::detail::normalizeAxis(*axisValue, paramsRank);
    if (!axis)
      return kiln::detail::reportUnsupported(
          op, "axis " + Twine(*axisValue) + " is out of range for rank " +
                  Twine(paramsRank));
    int64_t batchValue = static_cast<int64_t>(op.getBatchDims());
    int64_t batchDims = batchValue < 0 ? batchValue + indicesRank : batchValue;
    if (batchDims < 0 || batchDims > indicesRank || batchDims > *axis)
      return kiln::detail::reportUnsupported(
          op, "batch_dims " + Twine(batchValue) +
                  " is out of range for the indices' rank and the axis");
    int64_t outRank = paramsRank - 1 + indicesRank - batchDims;
    if (outRank != resultType.getRank())
      return kiln::detail::reportUnsupported(
          op, "the gather has rank " + Twine(outRank) +
                  " but the result has rank " + Twine(resultType.getRank()));
    if (std::optional<DenseIntElementsAttr> constant =
            getConstantIndices(indices, op.getIndices()))
      if (failed(checkConstantIndices(op, *constant,
                                      {paramsType.getDimSize(*axis)}, {*axis})))
        return failure();

    Value result =
        gatherAlong(rewriter, op.getLoc(), params, indices, *axis, batchDims);
    rewriter.replaceOp(op, kiln::detail::castToType(rewriter, op.getLoc(),
                                                    result, resultType));
    return success();
  }

  /// An axis known only at run time: an scf.index_switch over the axes at or
  /// after batch_dims, each case the gather along that axis (an axis out of
  /// range, which TensorFlow rejects, reads as the last one).
  LogicalResult lowerRuntimeAxis(tf::GatherV2Op op, OpAdaptor adaptor,
                                 RankedTensorType resultType,
                                 ConversionPatternRewriter &rewriter) const {
    Value params = adaptor.getParams(), indices = adaptor.getIndices();
    int64_t paramsRank = getRankedType(params).getRank();
    int64_t indicesRank = getRankedType(indices).getRank();
    RankedTensorType axisType = getRankedType(adaptor.getAxis());
    if (!axisType || !axisType.hasStaticShape() ||
        axisType.getNumElements() != 1)
      return kiln::detail::reportUnsupported(
          op, "axis operand is not a single integer");
    int64_t batchValue = static_cast<int64_t>(op.getBatchDims());
    int64_t batchDims = batchValue < 0 ? batchValue + indicesRank : batchValue;
    if (batchDims < 0 || batchDims > indicesRank || batchDims >= paramsRank)
      return kiln::detail::reportUnsupported(
          op, "batch_dims " + Twine(batchValue) +
                  " is out of range for the indices' and params' ranks");
    int64_t outRank = paramsRank - 1 + indicesRank - batchDims;
    if (outRank != resultType.getRank())
      return kiln::detail::reportUnsupported(
          op, "the gather has rank " + Twine(outRank) +
                  " but the result has rank " + Twine(resultType.getRank()));
    Location loc = op.getLoc();
    Value key =
        normalizeRuntimeAxis(rewriter, loc, adaptor.getAxis(), paramsRank);
    SmallVector<int64_t> axes =
        llvm::to_vector(llvm::seq<int64_t>(batchDims, paramsRank));
    Value result = createKeySwitch(
        rewriter, loc, key, axes, resultType,
        [&](OpBuilder &b, Location loc, size_t i) {
          return gatherAlong(b, loc, params, indices, axes[i], batchDims);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tf.GatherNd -> a linalg.generic over indices[:-1] ++ params[K:] that
/// reads the K index components and tensor.extracts the params element.
struct GatherNdOpLowering final : OpConversionPattern<tf::GatherNdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::GatherNdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value params = adaptor.getParams(), indices = adaptor.getIndices();
    RankedTensorType paramsType = getRankedType(params);
    RankedTensorType indicesType = getRankedType(indices);
    if (!resultType || !paramsType || !indicesType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t indicesRank = indicesType.getRank();
    int64_t paramsRank = paramsType.getRank();
    if (indicesRank < 1 || indicesType.isDynamicDim(indicesRank - 1))
      return kiln::detail::reportUnsupported(
          op, "the last dimension of indices must be static");
    int64_t depth = indicesType.getDimSize(indicesRank - 1);
    if (depth > paramsRank)
      return kiln::detail::reportUnsupported(
          op, "indices of depth " + Twine(depth) + " into params of rank " +
                  Twine(paramsRank));
    StringRef policy = op.getBadIndicesPolicy();
    bool ignoreBad = policy == "IGNORE";
    if (!policy.empty() && policy != "DEFAULT" && policy != "ERROR" &&
        !ignoreBad)
      return kiln::detail::reportUnsupported(
          op, "unknown bad_indices_policy '" + policy + "'");
    int64_t outRank = indicesRank - 1 + paramsRank - depth;
    if (outRank != resultType.getRank())
      return kiln::detail::reportUnsupported(
          op, "the gather has rank " + Twine(outRank) +
                  " but the result has rank " + Twine(resultType.getRank()));

    if (std::optional<DenseIntElementsAttr> constant =
            getConstantIndices(indices, op.getIndices());
        constant && !ignoreBad) {
      SmallVector<int64_t> dims = llvm::to_vector(llvm::seq<int64_t>(0, depth));
      if (failed(checkConstantIndices(
              op, *constant, paramsType.getShape().take_front(depth), dims)))
        return failure();
    }

    Location loc = op.getLoc();
    SmallVector<OpFoldResult> sizes;
    for (int64_t dim = 0; dim + 1 < indicesRank; ++dim)
      sizes.push_back(getDimSize(rewriter, loc, indices, dim));
    for (int64_t dim = depth; dim < paramsRank; ++dim)
      sizes.push_back(getDimSize(rewriter, loc, params, dim));
    SmallVector<Value> extents;
    for (int64_t dim = 0; dim < depth; ++dim)
      extents.push_back(
          toIndexValue(rewriter, loc, getDimSize(rewriter, loc, params, dim)));
    Type elementType = paramsType.getElementType();
    Value result = createIndexGeneric(
        rewriter, loc, sizes, elementType,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> loops) {
          SmallVector<Value> position(loops.take_front(indicesRank - 1));
          position.push_back(Value());
          SmallVector<Value> source;
          Value inBounds;
          for (int64_t k = 0; k < depth; ++k) {
            position.back() = arith::ConstantIndexOp::create(b, loc, k);
            Value raw = tensor::ExtractOp::create(b, loc, indices, position);
            raw = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
            if (ignoreBad) {
              Value zero = arith::ConstantIndexOp::create(b, loc, 0);
              Value geZero = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::sge, raw, zero);
              Value ltSize = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::slt, raw, extents[k]);
              Value ok = arith::AndIOp::create(b, loc, geZero, ltSize);
              inBounds =
                  inBounds ? Value(arith::AndIOp::create(b, loc, inBounds, ok))
                           : ok;
            }
            source.push_back(clampIndex(b, loc, raw, extents[k]));
          }
          llvm::append_range(source, loops.drop_front(indicesRank - 1));
          Value element = tensor::ExtractOp::create(b, loc, params, source);
          if (inBounds) {
            Value zero =
                arith::ConstantOp::create(b, loc, b.getZeroAttr(elementType));
            element = arith::SelectOp::create(b, loc, inBounds, element, zero);
          }
          return element;
        });
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateGatherPatterns(const TypeConverter &typeConverter,
                                          RewritePatternSet &patterns) {
  patterns.add<GatherV2OpLowering, GatherNdOpLowering>(
      typeConverter, patterns.getContext());
}
