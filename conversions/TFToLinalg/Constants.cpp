//===- Constants.cpp - tf constants and shape queries to tensor -*- C++ -*-===//
//
// Const, Identity/IdentityN, and the ops that build a tensor from a shape
// or from scalars: Shape, Size, Fill, Range. Fill's dims and signed
// integer or float Range bounds may be known only at run time.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"
#include "conversions/TFToLinalg/ShapeUtils.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::shape;

namespace {

//===----------------------------------------------------------------------===//
// Constants and forwarding
//===----------------------------------------------------------------------===//

/// tf.Const -> arith.constant, with unsigned element types reinterpreted as
/// signless (same bits).
struct ConstOpLowering final : OpConversionPattern<tf::ConstOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::ConstOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (!type)
      return kiln::detail::reportUnsupported(op, "unsupported result type");
    TypedAttr value = dyn_cast<TypedAttr>(op.getValue());
    if (!value)
      return kiln::detail::reportUnsupported(op,
                                             "value is not a typed attribute");
    if (value.getType() != type) {
      auto dense = dyn_cast<DenseElementsAttr>(value);
      if (!dense || dense.getElementType().getIntOrFloatBitWidth() !=
                        type.getElementTypeBitWidth())
        return kiln::detail::reportUnsupported(
            op, "cannot reinterpret the value as the converted type");
      value = dense.bitcast(type.getElementType()).reshape(type);
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, value);
    return success();
  }
};

/// tf.Identity, tf.IdentityN: the operands themselves.
template <typename OpTy>
struct ForwardOperandsLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    for (Value result : op->getResults()) {
      Type type = this->getTypeConverter()->convertType(result.getType());
      if (!type)
        return kiln::detail::reportUnsupported(op, "unsupported result type");
      types.push_back(type);
    }
    SmallVector<Value> results;
    for (auto [operand, type] : llvm::zip(adaptor.getOperands(), types))
      results.push_back(
          kiln::detail::castToType(rewriter, op.getLoc(), operand, type));
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Shape queries and tensor creation
//===----------------------------------------------------------------------===//

/// `value` (index) as an integer of `type`.
Value indexToInt(OpBuilder &b, Location loc, Value value, Type type) {
  return arith::IndexCastOp::create(b, loc, type, value);
}

/// tf.Shape -> a constant when the input shape is static, else
/// tensor.from_elements of the sizes.
struct ShapeOpLowering final : OpConversionPattern<tf::ShapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::ShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    auto type = RankedTensorType::get({inputType.getRank()},
                                      resultType.getElementType());
    Location loc = op.getLoc();
    Value result;
    if (inputType.hasStaticShape()) {
      SmallVector<APInt> values;
      for (int64_t size : inputType.getShape())
        values.push_back(APInt(type.getElementTypeBitWidth(), size));
      result = arith::ConstantOp::create(rewriter, loc, type,
                                         DenseElementsAttr::get(type, values));
    } else {
      SmallVector<Value> sizes;
      for (OpFoldResult size : getSizes(rewriter, loc, input))
        sizes.push_back(indexToInt(rewriter, loc,
                                   toIndexValue(rewriter, loc, size),
                                   type.getElementType()));
      result = tensor::FromElementsOp::create(rewriter, loc, type, sizes);
    }
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// tf.Size -> the element count as a scalar tensor.
struct SizeOpLowering final : OpConversionPattern<tf::SizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::SizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    RankedTensorType inputType = getRankedType(input);
    if (!resultType || !inputType || resultType.getRank() != 0)
      return kiln::detail::reportUnsupported(
          op, "unranked operand or non-scalar result");
    Location loc = op.getLoc();
    Type elementType = resultType.getElementType();
    if (inputType.hasStaticShape()) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, resultType,
          DenseElementsAttr::get(resultType,
                                 APInt(resultType.getElementTypeBitWidth(),
                                       inputType.getNumElements())));
      return success();
    }
    Value count;
    for (OpFoldResult size : getSizes(rewriter, loc, input)) {
      Value extent = toIndexValue(rewriter, loc, size);
      count = count ? Value(arith::MulIOp::create(rewriter, loc, count, extent))
                    : extent;
    }
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, resultType, indexToInt(rewriter, loc, count, elementType));
    return success();
  }
};

/// tf.Fill -> linalg.fill of the scalar value; dynamic sizes are read from
/// the dims operand.
struct FillOpLowering final : OpConversionPattern<tf::FillOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value value = adaptor.getValue(), dims = adaptor.getDims();
    RankedTensorType valueType = getRankedType(value);
    RankedTensorType dimsType = getRankedType(dims);
    if (!resultType || !valueType || valueType.getRank() != 0 || !dimsType ||
        dimsType.getRank() != 1)
      return kiln::detail::reportUnsupported(
          op, "expects a 1-D dims and a scalar value");
    Location loc = op.getLoc();
    SmallVector<Value> dynamicSizes;
    for (auto [dim, size] : llvm::enumerate(resultType.getShape())) {
      if (!ShapedType::isDynamic(size))
        continue;
      Value position = arith::ConstantIndexOp::create(rewriter, loc, dim);
      Value extent = tensor::ExtractOp::create(rewriter, loc, dims, position);
      dynamicSizes.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), extent));
    }
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType.getShape(),
                                resultType.getElementType(), dynamicSizes);
    Value scalar =
        tensor::ExtractOp::create(rewriter, loc, value, ValueRange{});
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, ValueRange{scalar},
                                                ValueRange{init});
    return success();
  }
};

/// The elements attribute of a constant tensor (tf.Const or arith.constant,
/// possibly through a conversion cast), or null.
DenseElementsAttr getConstantElements(Value value) {
  while (auto cast = value.getDefiningOp<UnrealizedConversionCastOp>()) {
    if (cast.getInputs().size() != 1)
      break;
    value = cast.getInputs().front();
  }
  if (auto constant = value.getDefiningOp<tf::ConstOp>())
    return dyn_cast<DenseElementsAttr>(constant.getValue());
  DenseElementsAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr;
  return nullptr;
}

/// tf.Range with constant operands -> an arith.constant holding the values
/// TensorFlow 2.21's CPU kernel computes: start + i * delta in the element
/// type (integers wrapping; floats rounded after the product and after the
/// sum, not accumulated), ceil(|limit - start| / |delta|) of them. Signed
/// integer and float operands known only at run time give a linalg.generic
/// computing the same; unsigned ones must be constants.
struct RangeOpLowering final : OpConversionPattern<tf::RangeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::RangeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (!resultType || resultType.getRank() != 1)
      return kiln::detail::reportUnsupported(op, "expects a 1-D result");
    bool allConstant = getConstantElements(adaptor.getStart()) &&
                       getConstantElements(adaptor.getLimit()) &&
                       getConstantElements(adaptor.getDelta());
    if (!allConstant && isa<IntegerType>(resultType.getElementType()) &&
        !kiln::detail::isUnsignedElement(op.getType()))
      return lowerRuntimeIntegerRange(op, adaptor, resultType, rewriter);
    if (!allConstant && isa<FloatType>(resultType.getElementType()))
      return lowerRuntimeFloatRange(op, adaptor, resultType, rewriter);
    DenseElementsAttr start = getConstantElements(adaptor.getStart());
    if (!start || start.getNumElements() != 1)
      return kiln::detail::reportUnsupported(op,
                                             "start operand is not a constant");
    DenseElementsAttr limit = getConstantElements(adaptor.getLimit());
    if (!limit || limit.getNumElements() != 1)
      return kiln::detail::reportUnsupported(op,
                                             "limit operand is not a constant");
    DenseElementsAttr delta = getConstantElements(adaptor.getDelta());
    if (!delta || delta.getNumElements() != 1)
      return kiln::detail::reportUnsupported(op,
                                             "delta operand is not a constant");
    Type elementType = resultType.getElementType();
    DenseElementsAttr values;
    if (auto floatType = dyn_cast<FloatType>(elementType)) {
      if (!isa<FloatType>(start.getElementType()))
        return kiln::detail::reportUnsupported(op, "mixed operand types");
      APFloat first = start.getSplatValue<APFloat>();
      APFloat last = limit.getSplatValue<APFloat>();
      APFloat step = delta.getSplatValue<APFloat>();
      double s = first.convertToDouble(), l = last.convertToDouble(),
             d = step.convertToDouble();
      if (d == 0 || (d > 0 && s > l) || (d < 0 && s < l))
        return kiln::detail::reportUnsupported(
            op, "delta does not move start towards limit");
      // ceil(|(limit - start) / delta|), computed in the element type as
      // TensorFlow's kernel does.
      APFloat quotient = last;
      quotient.subtract(first, APFloat::rmNearestTiesToEven);
      quotient.divide(step, APFloat::rmNearestTiesToEven);
      quotient.clearSign();
      quotient.roundToIntegral(APFloat::rmTowardPositive);
      int64_t count = static_cast<int64_t>(quotient.convertToDouble());
      if (!resultType.isDynamicDim(0) && resultType.getDimSize(0) != count)
        return kiln::detail::reportUnsupported(
            op, "range has " + Twine(count) + " elements but the result has " +
                    Twine(resultType.getDimSize(0)));
      SmallVector<APFloat> elements;
      for (int64_t i = 0; i < count; ++i) {
        APFloat value(first.getSemantics());
        value.convertFromAPInt(APInt(64, i), /*IsSigned=*/true,
                               APFloat::rmNearestTiesToEven);
        value.multiply(step, APFloat::rmNearestTiesToEven);
        value.add(first, APFloat::rmNearestTiesToEven);
        elements.push_back(value);
      }
      auto type = RankedTensorType::get({count}, floatType);
      values = DenseElementsAttr::get(type, elements);
    } else {
      FailureOr<int64_t> s = getConstantScalar(adaptor.getStart());
      FailureOr<int64_t> l = getConstantScalar(adaptor.getLimit());
      FailureOr<int64_t> d = getConstantScalar(adaptor.getDelta());
      if (failed(s) || failed(l) || failed(d))
        return kiln::detail::reportUnsupported(op, "non-integer operands");
      if (*d == 0 || (*d > 0 && *s > *l) || (*d < 0 && *s < *l))
        return kiln::detail::reportUnsupported(
            op, "delta does not move start towards limit");
      int64_t count = (std::abs(*l - *s) + std::abs(*d) - 1) / std::abs(*d);
      if (!resultType.isDynamicDim(0) && resultType.getDimSize(0) != count)
        return kiln::detail::reportUnsupported(
            op, "range has " + Twine(count) + " elements but the result has " +
                    Twine(resultType.getDimSize(0)));
      unsigned width = elementType.getIntOrFloatBitWidth();
      SmallVector<APInt> elements;
      APInt value(width, *s, /*isSigned=*/true, /*implicitTrunc=*/true);
      APInt step(width, *d, /*isSigned=*/true, /*implicitTrunc=*/true);
      for (int64_t i = 0; i < count; ++i) {
        elements.push_back(value);
        value += step;
      }
      auto type = RankedTensorType::get({count}, elementType);
      values = DenseElementsAttr::get(type, elements);
    }
    Location loc = op.getLoc();
    Value result = arith::ConstantOp::create(rewriter, loc, values);
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }

  /// start, limit and delta of a run-time range.
  struct RangeScalars {
    Value start, limit, delta;
  };

  /// Extracts the three scalar operands of \p op, which must be
  /// one-element tensors of \p elementType.
  FailureOr<RangeScalars>
  readRangeScalars(tf::RangeOp op, OpAdaptor adaptor, Type elementType,
                   ConversionPatternRewriter &rewriter) const {
    for (Value operand :
         {adaptor.getStart(), adaptor.getLimit(), adaptor.getDelta()}) {
      RankedTensorType type = getRankedType(operand);
      if (!type || type.getNumElements() != 1 ||
          type.getElementType() != elementType)
        return kiln::detail::reportUnsupported(
            op, "start, limit and delta must be scalars of the result type");
    }
    Location loc = op.getLoc();
    auto scalar = [&](Value operand) -> Value {
      auto type = cast<RankedTensorType>(operand.getType());
      SmallVector<Value> zeros(
          type.getRank(), arith::ConstantIndexOp::create(rewriter, loc, 0));
      return tensor::ExtractOp::create(rewriter, loc, operand, zeros);
    };
    return RangeScalars{scalar(adaptor.getStart()), scalar(adaptor.getLimit()),
                        scalar(adaptor.getDelta())};
  }

  /// Float operands known only at run time: ceil(|(limit - start) / delta|)
  /// elements, computed in the element type as TensorFlow's kernel does,
  /// start + i * delta each. A delta that does not move start towards limit
  /// gives no elements (TensorFlow reports an error).
  LogicalResult
  lowerRuntimeFloatRange(tf::RangeOp op, OpAdaptor adaptor,
                         RankedTensorType resultType,
                         ConversionPatternRewriter &rewriter) const {
    Type elementType = resultType.getElementType();
    Location loc = op.getLoc();
    FailureOr<RangeScalars> scalars =
        readRangeScalars(op, adaptor, elementType, rewriter);
    if (failed(scalars))
      return failure();
    auto [start, limit, delta] = *scalars;
    Value size;
    if (!resultType.isDynamicDim(0)) {
      size = arith::ConstantIndexOp::create(rewriter, loc,
                                            resultType.getDimSize(0));
    } else {
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getFloatAttr(elementType, 0.0));
      Value zeroIndex = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value span = arith::SubFOp::create(rewriter, loc, limit, start);
      Value quotient = arith::DivFOp::create(rewriter, loc, span, delta);
      Value count = math::CeilOp::create(
          rewriter, loc, math::AbsFOp::create(rewriter, loc, quotient));
      // Moves towards limit: span and delta have the same sign (or span 0).
      auto compare = [&](arith::CmpFPredicate predicate, Value a, Value b) {
        return arith::CmpFOp::create(rewriter, loc, predicate, a, b);
      };
      Value forward = arith::AndIOp::create(
          rewriter, loc, compare(arith::CmpFPredicate::OGT, delta, zero),
          compare(arith::CmpFPredicate::OGE, span, zero));
      Value backward = arith::AndIOp::create(
          rewriter, loc, compare(arith::CmpFPredicate::OLT, delta, zero),
          compare(arith::CmpFPredicate::OLE, span, zero));
      Value valid = arith::OrIOp::create(rewriter, loc, forward, backward);
      Value asInt = arith::FPToSIOp::create(rewriter, loc,
                                            rewriter.getI64Type(), count);
      Value asIndex = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), asInt);
      asIndex = arith::MaxSIOp::create(rewriter, loc, asIndex, zeroIndex);
      size = arith::SelectOp::create(rewriter, loc, valid, asIndex, zeroIndex);
    }
    Value result = createIndexGeneric(
        rewriter, loc, {OpFoldResult(size)}, elementType,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> indices) -> Value {
          Value i = arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                               indices[0]);
          Value x = arith::SIToFPOp::create(b, loc, elementType, i);
          Value offset = arith::MulFOp::create(b, loc, x, delta);
          return arith::AddFOp::create(b, loc, start, offset);
        });
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }

  /// Integer operands known only at run time: (|limit - start| + |delta| - 1)
  /// / |delta| elements, start + i * delta each (the accumulation TensorFlow
  /// does, wrapping the same way). A delta that does not move start towards
  /// limit gives no elements (TensorFlow reports an error).
  LogicalResult
  lowerRuntimeIntegerRange(tf::RangeOp op, OpAdaptor adaptor,
                           RankedTensorType resultType,
                           ConversionPatternRewriter &rewriter) const {
    Type elementType = resultType.getElementType();
    Location loc = op.getLoc();
    FailureOr<RangeScalars> scalars =
        readRangeScalars(op, adaptor, elementType, rewriter);
    if (failed(scalars))
      return failure();
    auto [start, limit, delta] = *scalars;
    Value size;
    if (!resultType.isDynamicDim(0)) {
      size = arith::ConstantIndexOp::create(rewriter, loc,
                                            resultType.getDimSize(0));
    } else {
      // In index (64-bit) arithmetic, sign-extended.
      Type indexType = rewriter.getIndexType();
      Value s = arith::IndexCastOp::create(rewriter, loc, indexType, start);
      Value l = arith::IndexCastOp::create(rewriter, loc, indexType, limit);
      Value d = arith::IndexCastOp::create(rewriter, loc, indexType, delta);
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value span = arith::SubIOp::create(rewriter, loc, l, s);
      // Moves towards limit: span and delta have the same sign (or span 0).
      Value product = arith::MulIOp::create(rewriter, loc, span, d);
      Value valid = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sgt, product, zero);
      Value negSpan = arith::SubIOp::create(rewriter, loc, zero, span);
      Value negDelta = arith::SubIOp::create(rewriter, loc, zero, d);
      Value absSpan = arith::MaxSIOp::create(rewriter, loc, span, negSpan);
      Value absDelta = arith::MaxSIOp::create(rewriter, loc, d, negDelta);
      Value divisor = arith::MaxSIOp::create(rewriter, loc, absDelta, one);
      Value rounded = arith::AddIOp::create(
          rewriter, loc, absSpan,
          arith::SubIOp::create(rewriter, loc, divisor, one));
      Value count = arith::DivUIOp::create(rewriter, loc, rounded, divisor);
      size = arith::SelectOp::create(rewriter, loc, valid, count, zero);
    }
    Value result = createIndexGeneric(
        rewriter, loc, {OpFoldResult(size)}, elementType,
        [&](OpBuilder &b, Location loc, ArrayRef<Value> indices) -> Value {
          Value i = arith::IndexCastOp::create(b, loc, elementType, indices[0]);
          Value offset = arith::MulIOp::create(b, loc, i, delta);
          return arith::AddIOp::create(b, loc, start, offset);
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

void kiln::detail::populateConstantPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  patterns.add<ConstOpLowering, ForwardOperandsLowering<tf::IdentityOp>,
               ForwardOperandsLowering<tf::IdentityNOp>, ShapeOpLowering,
               SizeOpLowering, FillOpLowering, RangeOpLowering>(
      typeConverter, patterns.getContext());
}
