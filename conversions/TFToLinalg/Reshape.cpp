//===- Reshape.cpp - tf reshapes and layout changes to tensor ---*- C++ -*-===//
//
// Reshape, ExpandDims, Squeeze, Transpose, Pack and Unpack. Reshape's shape,
// ExpandDims' dim and Transpose's permutation may be known only at run time;
// the other axes must be constants. Squeeze without squeeze_dims needs all dimensions static (a
// dynamic dimension named in squeeze_dims is checked to be 1 at run time).
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"
#include "conversions/TFToLinalg/ShapeUtils.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include <numeric>

using namespace mlir;
using namespace kiln;
using namespace kiln::shape;

namespace {

//===----------------------------------------------------------------------===//
// Reshapes
//===----------------------------------------------------------------------===//

/// tf.Reshape -> tensor.collapse_shape / tensor.expand_shape, or a collapse
/// to one dimension followed by an expand when the two shapes do not nest.
/// The target sizes come from the result type, and from the shape operand for
/// the sizes the type leaves dynamic; one -1 in it is the element count
/// divided by the other sizes, as in TensorFlow. A shape operand known only
/// at run time gives a tensor.reshape.
struct ReshapeOpLowering final : OpConversionPattern<tf::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getTensor();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    SmallVector<int64_t> target(resultType.getShape());
    if (!resultType.hasStaticShape()) {
      FailureOr<SmallVector<int64_t>> shape =
          kiln::detail::getConstantIntValues(adaptor.getShape());
      if (failed(shape))
        return lowerRuntimeShape(op, input, adaptor.getShape(), resultType,
                                 rewriter);
      if (static_cast<int64_t>(shape->size()) != resultType.getRank())
        return kiln::detail::reportUnsupported(
            op, "shape operand has " + Twine(shape->size()) +
                    " elements for a result of rank " +
                    Twine(resultType.getRank()));
      for (auto [size, value] : llvm::zip(target, *shape))
        if (ShapedType::isDynamic(size) && value >= 0)
          size = value;
    }
    int64_t numDynamic = llvm::count_if(target, ShapedType::isDynamic);
    if (numDynamic > 1)
      return kiln::detail::reportUnsupported(
          op, "more than one result size is unknown");
    int64_t knownProduct = 1;
    for (int64_t size : target)
      if (!ShapedType::isDynamic(size))
        knownProduct *= size;
    if (numDynamic == 1 && knownProduct == 0)
      return kiln::detail::reportUnsupported(
          op, "cannot infer the -1 size of a reshape to zero elements");
    if (inputType.hasStaticShape() && numDynamic == 0 &&
        inputType.getNumElements() != knownProduct)
      return kiln::detail::reportUnsupported(
          op, "reshape of " + Twine(inputType.getNumElements()) +
                  " elements to " + Twine(knownProduct));

    Location loc = op.getLoc();
    auto targetType = resultType.clone(target);
    // The output_shape of an expand_shape: static sizes, and the element
    // count divided by them for the dynamic one.
    auto outputShape = [&]() {
      SmallVector<OpFoldResult> sizes;
      for (int64_t size : target) {
        if (!ShapedType::isDynamic(size)) {
          sizes.push_back(rewriter.getIndexAttr(size));
          continue;
        }
        // (product of the dynamic input sizes) * (product of the static
        // ones) / knownProduct, without the division when it is exact.
        Value count;
        int64_t staticProduct = 1;
        for (int64_t dim = 0; dim < inputType.getRank(); ++dim) {
          if (!inputType.isDynamicDim(dim)) {
            staticProduct *= inputType.getDimSize(dim);
            continue;
          }
          Value extent = tensor::DimOp::create(rewriter, loc, input, dim);
          count =
              count ? Value(arith::MulIOp::create(rewriter, loc, count, extent))
                    : extent;
        }
        int64_t multiplier = staticProduct, divisor = knownProduct;
        if (staticProduct % knownProduct == 0) {
          multiplier = staticProduct / knownProduct;
          divisor = 1;
        }
        if (!count)
          count = arith::ConstantIndexOp::create(rewriter, loc, 1);
        if (multiplier != 1)
          count = arith::MulIOp::create(
              rewriter, loc, count,
              arith::ConstantIndexOp::create(rewriter, loc, multiplier));
        if (divisor != 1)
          count = arith::DivUIOp::create(
              rewriter, loc, count,
              arith::ConstantIndexOp::create(rewriter, loc, divisor));
        sizes.push_back(count);
      }
      return sizes;
    };

    // Whether `groups` of `expanded`'s dimensions make a valid reshape to and
    // from `collapsed`: a collapsed size is dynamic exactly when its group
    // has a dynamic size.
    auto isValidGrouping = [](ArrayRef<ReassociationIndices> groups,
                              RankedTensorType collapsed,
                              RankedTensorType expanded) {
      for (auto [dim, group] : llvm::enumerate(groups)) {
        bool anyDynamic = llvm::any_of(
            group, [&](int64_t d) { return expanded.isDynamicDim(d); });
        if (anyDynamic != collapsed.isDynamicDim(dim))
          return false;
      }
      return true;
    };
    std::optional<SmallVector<ReassociationIndices>> groups;
    if (inputType.getRank() != 0 && targetType.getRank() != 0)
      groups = getReassociationIndicesForReshape(inputType, targetType);
    if (groups && !(inputType.getRank() > targetType.getRank()
                        ? isValidGrouping(*groups, targetType, inputType)
                        : isValidGrouping(*groups, inputType, targetType)))
      groups.reset();

    Value result;
    if (inputType.getShape() == targetType.getShape()) {
      result = input;
    } else if (inputType.hasStaticShape() &&
               (inputType.getRank() == 0 || targetType.getRank() == 0)) {
      // A scalar and a tensor of one element: the reassociation is empty.
      result = targetType.getRank() == 0
                   ? Value(tensor::CollapseShapeOp::create(
                         rewriter, loc, targetType, input,
                         ArrayRef<ReassociationIndices>{}))
                   : Value(tensor::ExpandShapeOp::create(
                         rewriter, loc, targetType, input,
                         ArrayRef<ReassociationIndices>{}, outputShape()));
    } else if (groups && inputType.getRank() > targetType.getRank()) {
      result = tensor::CollapseShapeOp::create(rewriter, loc, targetType, input,
                                               *groups);
    } else if (groups) {
      result = tensor::ExpandShapeOp::create(rewriter, loc, targetType, input,
                                             *groups, outputShape());
    } else {
      // Through one dimension (the input has rank 1 or more here): collapse
      // everything, give the flat tensor its static size when the target is
      // static, and expand.
      Value flat = input;
      if (inputType.getRank() != 1) {
        ReassociationIndices all(inputType.getRank());
        std::iota(all.begin(), all.end(), 0);
        int64_t flatSize = inputType.hasStaticShape()
                               ? inputType.getNumElements()
                               : ShapedType::kDynamic;
        flat = tensor::CollapseShapeOp::create(
            rewriter, loc, inputType.clone({flatSize}), input,
            ArrayRef<ReassociationIndices>{all});
      }
      if (numDynamic == 0)
        flat = kiln::detail::castToType(rewriter, loc, flat,
                                        inputType.clone({knownProduct}));
      if (targetType.getRank() == 0) {
        result = tensor::CollapseShapeOp::create(
            rewriter, loc, targetType, flat, ArrayRef<ReassociationIndices>{});
      } else if (targetType.getRank() == 1) {
        result = kiln::detail::castToType(rewriter, loc, flat, targetType);
      } else {
        ReassociationIndices allTarget(targetType.getRank());
        std::iota(allTarget.begin(), allTarget.end(), 0);
        result = tensor::ExpandShapeOp::create(
            rewriter, loc, targetType, flat,
            ArrayRef<ReassociationIndices>{allTarget}, outputShape());
      }
    }
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }

  /// A shape operand known only at run time: its sizes are read, a -1 is the
  /// element count divided by the other sizes, and tensor.reshape takes
  /// them. Sizes the result type makes static are taken from it.
  LogicalResult lowerRuntimeShape(tf::ReshapeOp op, Value input, Value shape,
                                  RankedTensorType resultType,
                                  ConversionPatternRewriter &rewriter) const {
    RankedTensorType shapeType = getRankedType(shape);
    int64_t rank = resultType.getRank();
    if (!shapeType || shapeType.getRank() != 1 ||
        shapeType.getDimSize(0) != rank)
      return kiln::detail::reportUnsupported(op, "shape operand must have " +
                                                     Twine(rank) + " elements");
    Location loc = op.getLoc();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value minusOne = arith::ConstantIndexOp::create(rewriter, loc, -1);
    Value count = one;
    for (OpFoldResult size : getSizes(rewriter, loc, input))
      count = arith::MulIOp::create(rewriter, loc, count,
                                    toIndexValue(rewriter, loc, size));
    SmallVector<Value> sizes, isUnknown;
    Value known = one;
    for (int64_t dim = 0; dim < rank; ++dim) {
      Value size = extractIndex(rewriter, loc, shape, {dim});
      Value unknown = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, size, minusOne);
      known = arith::MulIOp::create(
          rewriter, loc, known,
          arith::SelectOp::create(rewriter, loc, unknown, one, size));
      sizes.push_back(size);
      isUnknown.push_back(unknown);
    }
    // An empty known product makes the -1 size 0 rather than a division by
    // zero (TensorFlow reports an error).
    Value isEmpty = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, known, zero);
    Value divisor = arith::SelectOp::create(rewriter, loc, isEmpty, one, known);
    Value missing = arith::DivUIOp::create(rewriter, loc, count, divisor);
    for (int64_t dim = 0; dim < rank; ++dim) {
      if (!resultType.isDynamicDim(dim))
        sizes[dim] = arith::ConstantIndexOp::create(rewriter, loc,
                                                    resultType.getDimSize(dim));
      else
        sizes[dim] = arith::SelectOp::create(rewriter, loc, isUnknown[dim],
                                             missing, sizes[dim]);
    }
    Value shapeTensor = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({rank}, rewriter.getIndexType()),
        sizes);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, resultType, input,
                                                   shapeTensor);
    return success();
  }
};

/// tf.ExpandDims -> tensor.expand_shape inserting one size-1 dimension at
/// `dim` (in [-rank-1, rank]); for a dim known only at run time, one per
/// position in an scf.index_switch.
struct ExpandDimsOpLowering final : OpConversionPattern<tf::ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    FailureOr<int64_t> dim = getConstantScalar(adaptor.getDim());
    if (failed(dim)) {
      // A dim known only at run time: a switch over the rank + 1 positions
      // (a dim out of range, which TensorFlow rejects, reads as the last).
      RankedTensorType dimType = getRankedType(adaptor.getDim());
      if (!dimType || !dimType.hasStaticShape() ||
          dimType.getNumElements() != 1)
        return kiln::detail::reportUnsupported(
            op, "dim operand is not a single integer");
      int64_t positions = inputType.getRank() + 1;
      Location loc = op.getLoc();
      Value key = normalizeRuntimeAxis(rewriter, loc, adaptor.getDim(),
                                       positions);
      Value result = createKeySwitch(
          rewriter, loc, key,
          llvm::to_vector(llvm::seq<int64_t>(0, positions)), resultType,
          [&](OpBuilder &b, Location loc, size_t axis) {
            return kiln::detail::insertUnitDims(
                b, loc, input, {static_cast<int64_t>(axis)});
          });
      rewriter.replaceOp(op, result);
      return success();
    }
    std::optional<int64_t> axis =
        kiln::detail::normalizeAxis(*dim, inputType.getRank() + 1);
    if (!axis)
      return kiln::detail::reportUnsupported(
          op, "dim " + Twine(*dim) + " is out of range for rank " +
                  Twine(inputType.getRank()));
    Value result =
        kiln::detail::insertUnitDims(rewriter, op.getLoc(), input, {*axis});
    rewriter.replaceOp(op, kiln::detail::castToType(rewriter, op.getLoc(),
                                                    result, resultType));
    return success();
  }
};

/// tf.Squeeze -> tensor.collapse_shape dropping `squeeze_dims` (all static
/// size-1 dimensions when empty). A dynamic squeezed dimension is checked to
/// be 1 at run time (cf.assert), as TensorFlow requires, and cast to 1.
struct SqueezeOpLowering final : OpConversionPattern<tf::SqueezeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::SqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t rank = inputType.getRank();
    SmallVector<int64_t> dims;
    ArrayAttr squeezeDims = op.getSqueezeDims();
    if (squeezeDims.empty()) {
      for (int64_t dim = 0; dim < rank; ++dim) {
        if (inputType.isDynamicDim(dim))
          return kiln::detail::reportUnsupported(
              op, "squeeze of all size-1 dimensions with dynamic dimension " +
                      Twine(dim));
        if (inputType.getDimSize(dim) == 1)
          dims.push_back(dim);
      }
    }
    for (Attribute attr : squeezeDims) {
      int64_t value = cast<IntegerAttr>(attr).getInt();
      std::optional<int64_t> dim = kiln::detail::normalizeAxis(value, rank);
      if (!dim)
        return kiln::detail::reportUnsupported(
            op, "squeeze dimension " + Twine(value) +
                    " is out of range for rank " + Twine(rank));
      if (!inputType.isDynamicDim(*dim) && inputType.getDimSize(*dim) != 1)
        return kiln::detail::reportUnsupported(
            op, "squeeze dimension " + Twine(value) + " has size " +
                    Twine(inputType.getDimSize(*dim)) + ", not 1");
      dims.push_back(*dim);
    }
    llvm::sort(dims);
    dims.erase(llvm::unique(dims), dims.end());
    Location loc = op.getLoc();
    SmallVector<int64_t> unitShape(inputType.getShape());
    for (int64_t dim : dims) {
      if (!inputType.isDynamicDim(dim))
        continue;
      Value size = tensor::DimOp::create(rewriter, loc, input, dim);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      createRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, size,
                                one),
          "tf.Squeeze: squeezed dimension " + Twine(dim) + " must have size 1");
      unitShape[dim] = 1;
    }
    if (unitShape != inputType.getShape())
      input = tensor::CastOp::create(rewriter, loc, inputType.clone(unitShape),
                                     input);
    Value result =
        kiln::detail::dropUnitDims(rewriter, op.getLoc(), input, dims);
    rewriter.replaceOp(op, kiln::detail::castToType(rewriter, op.getLoc(),
                                                    result, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Transpose and packing
//===----------------------------------------------------------------------===//

/// Whether `perm` is a permutation of [0, rank).
bool isPermutation(ArrayRef<int64_t> perm, int64_t rank) {
  if (static_cast<int64_t>(perm.size()) != rank)
    return false;
  SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return false;
    seen[p] = true;
  }
  return true;
}

/// tf.Transpose with a constant permutation -> linalg.transpose; with one
/// known only at run time, a gathering linalg.generic.
struct TransposeOpLowering final : OpConversionPattern<tf::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getX();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    FailureOr<SmallVector<int64_t>> perm =
        kiln::detail::getConstantIntValues(adaptor.getPerm());
    if (failed(perm))
      return lowerRuntimePerm(op, adaptor, resultType, rewriter);
    if (!isPermutation(*perm, inputType.getRank()))
      return kiln::detail::reportUnsupported(
          op, "perm is not a permutation of the " + Twine(inputType.getRank()) +
                  " dimensions");
    Value result = createTranspose(rewriter, op.getLoc(), input, *perm);
    rewriter.replaceOp(op, kiln::detail::castToType(rewriter, op.getLoc(),
                                                    result, resultType));
    return success();
  }

  /// A permutation known only at run time: output dimension i has the size
  /// of input dimension perm[i], and a linalg.generic over the output reads
  /// input element j with j[perm[i]] = i[i] (tensor.extract). Entries out of
  /// range, which TensorFlow rejects, are clamped into range.
  LogicalResult lowerRuntimePerm(tf::TransposeOp op, OpAdaptor adaptor,
                                 RankedTensorType resultType,
                                 ConversionPatternRewriter &rewriter) const {
    Value input = adaptor.getX();
    int64_t rank = getRankedType(input).getRank();
    Value permValue = adaptor.getPerm();
    RankedTensorType permType = getRankedType(permValue);
    if (!permType || permType.getShape() != ArrayRef<int64_t>{rank})
      return kiln::detail::reportUnsupported(
          op, "perm must have shape [" + Twine(rank) + "]");
    if (resultType.getRank() != rank)
      return kiln::detail::reportUnsupported(
          op, "the result's rank differs from the input's");
    Location loc = op.getLoc();
    SmallVector<Value> perm, inputSizes;
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value last = arith::ConstantIndexOp::create(rewriter, loc, rank - 1);
    for (int64_t i = 0; i < rank; ++i) {
      Value p = extractIndex(rewriter, loc, permValue, {i});
      p = arith::MaxSIOp::create(rewriter, loc, p, zero);
      perm.push_back(arith::MinSIOp::create(rewriter, loc, p, last));
      inputSizes.push_back(
          toIndexValue(rewriter, loc, getDimSize(rewriter, loc, input, i)));
    }
    // select(perm[i] == 0, values[0], select(perm[i] == 1, values[1], ...)).
    auto pick = [](OpBuilder &b, Location loc, Value position,
                   ArrayRef<Value> values) {
      Value picked = values.back();
      for (int64_t j = values.size() - 2; j >= 0; --j) {
        Value is = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq, position,
            arith::ConstantIndexOp::create(b, loc, j));
        picked = arith::SelectOp::create(b, loc, is, values[j], picked);
      }
      return picked;
    };
    SmallVector<OpFoldResult> sizes;
    for (int64_t i = 0; i < rank; ++i)
      sizes.push_back(pick(rewriter, loc, perm[i], inputSizes));
    Value result = createIndexGeneric(
        rewriter, loc, sizes, getRankedType(input).getElementType(),
        [&](OpBuilder &b, Location loc, ArrayRef<Value> indices) -> Value {
          // Input dimension d is indexed by the output index i with
          // perm[i] == d.
          SmallVector<Value> source;
          for (int64_t d = 0; d < rank; ++d) {
            Value index = zero;
            for (int64_t i = 0; i < rank; ++i) {
              Value is = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::eq, perm[i],
                  arith::ConstantIndexOp::create(b, loc, d));
              index = arith::SelectOp::create(b, loc, is, indices[i], index);
            }
            // A repeated entry leaves d unindexed; stay in range.
            Value limit = arith::SubIOp::create(
                b, loc, inputSizes[d], arith::ConstantIndexOp::create(b, loc, 1));
            source.push_back(arith::MinSIOp::create(b, loc, index, limit));
          }
          return tensor::ExtractOp::create(b, loc, input, source);
        });
    rewriter.replaceOp(op, kiln::detail::castToType(rewriter, loc, result,
                                                    resultType));
    return success();
  }
};

/// tf.Pack -> a size-1 dimension inserted at `axis` in each value, then
/// tensor.concat along it.
struct PackOpLowering final : OpConversionPattern<tf::PackOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::PackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (!resultType || !llvm::all_of(adaptor.getValues(),
                                     [](Value v) { return getRankedType(v); }))
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    int64_t value = static_cast<int64_t>(op.getAxis());
    std::optional<int64_t> axis =
        kiln::detail::normalizeAxis(value, resultType.getRank());
    if (!axis)
      return kiln::detail::reportUnsupported(
          op, "axis " + Twine(value) + " is out of range for rank " +
                  Twine(resultType.getRank()));
    Location loc = op.getLoc();
    SmallVector<Value> expanded;
    for (Value v : adaptor.getValues())
      expanded.push_back(
          kiln::detail::insertUnitDims(rewriter, loc, v, {*axis}));
    Value result =
        expanded.size() == 1
            ? expanded.front()
            : Value(tensor::ConcatOp::create(rewriter, loc, *axis, expanded));
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// tf.Unpack -> one rank-reducing tensor.extract_slice per result.
struct UnpackOpLowering final : OpConversionPattern<tf::UnpackOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::UnpackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getValue();
    RankedTensorType inputType = getRankedType(input);
    if (!inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand");
    SmallVector<Type> resultTypes;
    for (Type type : op->getResultTypes()) {
      RankedTensorType converted =
          kiln::detail::getConvertedTensorType(*getTypeConverter(), type);
      if (!converted)
        return kiln::detail::reportUnsupported(op, "unranked result");
      resultTypes.push_back(converted);
    }
    int64_t rank = inputType.getRank();
    int64_t value = static_cast<int64_t>(op.getAxis());
    std::optional<int64_t> axis = kiln::detail::normalizeAxis(value, rank);
    if (!axis)
      return kiln::detail::reportUnsupported(
          op,
          "axis " + Twine(value) + " is out of range for rank " + Twine(rank));
    if (!inputType.isDynamicDim(*axis) &&
        inputType.getDimSize(*axis) != static_cast<int64_t>(op.getNumResults()))
      return kiln::detail::reportUnsupported(
          op, "unpacks dimension of size " +
                  Twine(inputType.getDimSize(*axis)) + " into " +
                  Twine(op.getNumResults()) + " results");
    Location loc = op.getLoc();
    SmallVector<int64_t> shape;
    for (auto [dim, size] : llvm::enumerate(inputType.getShape()))
      if (static_cast<int64_t>(dim) != *axis)
        shape.push_back(size);
    auto sliceType = inputType.clone(shape);
    SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, input);
    sizes[*axis] = rewriter.getIndexAttr(1);
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    SmallVector<Value> results;
    for (auto [i, type] : llvm::enumerate(resultTypes)) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[*axis] = rewriter.getIndexAttr(i);
      Value slice = tensor::ExtractSliceOp::create(
          rewriter, loc, sliceType, input, offsets, sizes, strides);
      results.push_back(kiln::detail::castToType(rewriter, loc, slice, type));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateReshapePatterns(const TypeConverter &typeConverter,
                                           RewritePatternSet &patterns) {
  patterns.add<ReshapeOpLowering, ExpandDimsOpLowering, SqueezeOpLowering,
               TransposeOpLowering, PackOpLowering, UnpackOpLowering>(
      typeConverter, patterns.getContext());
}
