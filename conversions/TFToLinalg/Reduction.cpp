//===- Reduction.cpp - tf reductions to linalg ------------------*- C++ -*-===//
//
// Sum, Mean, Max, Min, Prod, All, Any, ArgMax and Softmax, and Where, whose
// result size is a reduction (the count of true elements). The reduction axes
// must be constants (negative axes count from the end, repeated axes count
// once, no axes is the identity); dynamic sizes, reduced or not, are supported.
//
// TensorFlow's semantics kept here: Mean of integers divides the integer sum
// by the element count, truncating towards zero (unsigned: down); Max and Min
// of floats propagate NaN; Max of an empty set is the lowest value (-inf for
// floats) and Min the highest; ArgMax returns the first index of the maximum;
// Softmax is exp(x - max) / sum(exp(x - max)) over the last axis.
//
// Accumulator types follow TensorFlow's CPU reduction functors
// (core/kernels/reduction_ops.h): Mean of 8-, 16- and 32-bit integers sums
// and divides in 64 bits (int64, or uint64 for unsigned types) and truncates
// the quotient to the element type, so the sum does not wrap; Sum and Mean
// of bfloat16 accumulate in f32. Every other reduction (Sum and Prod of
// integers, which wrap in TensorFlow too; f16) accumulates in the element
// type.
//
// Where (one operand) follows TensorFlow's CPU kernel (core/kernels/
// where_op.cc): an element is true when `x != 0` in its own type, so a
// float NaN is true and -0.0 is false; the coordinates of the true elements
// are written in row-major order as int64. (TF.js's whereImpl, tfjs-core
// backends/where_impl.ts, tests JavaScript truthiness instead, under which
// NaN is false.) The kernel rejects rank 0 and f16 inputs; here a rank-0
// condition gives the shape inference result [num_true, 0], and f16 is
// compared like the other floats.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"
#include "conversions/TFToLinalg/ShapeUtils.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::shape;

namespace {

//===----------------------------------------------------------------------===//
// Local helpers
//===----------------------------------------------------------------------===//

/// The kinds of tf reductions over axes.
enum class ReduceKind { Sum, Mean, Max, Min, Prod };

/// The sizes of `value` except those of `dims` (sorted).
SmallVector<OpFoldResult> getReducedSizes(OpBuilder &b, Location loc,
                                          Value value, ArrayRef<int64_t> dims) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim) {
    if (llvm::is_contained(dims, dim))
      continue;
    if (type.isDynamicDim(dim))
      sizes.push_back(tensor::DimOp::create(b, loc, value, dim).getResult());
    else
      sizes.push_back(b.getIndexAttr(type.getDimSize(dim)));
  }
  return sizes;
}

/// A tensor of `sizes` filled with `init`.
Value createFilled(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes,
                   Value init) {
  Value empty = tensor::EmptyOp::create(b, loc, sizes, init.getType());
  return linalg::FillOp::create(b, loc, ValueRange{init}, ValueRange{empty})
      .getResult(0);
}

/// The neutral element of `kind` for `type` (the first value a reduction
/// starts from).
TypedAttr getNeutralElement(OpBuilder &b, ReduceKind kind, Type type,
                            bool isUnsigned) {
  if (auto floatType = dyn_cast<FloatType>(type)) {
    const llvm::fltSemantics &semantics = floatType.getFloatSemantics();
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      return b.getFloatAttr(type, 0.0);
    case ReduceKind::Prod:
      return b.getFloatAttr(type, 1.0);
    case ReduceKind::Max:
      return b.getFloatAttr(type,
                            APFloat::getInf(semantics, /*Negative=*/true));
    case ReduceKind::Min:
      return b.getFloatAttr(type, APFloat::getInf(semantics));
    }
  }
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value;
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    value = APInt::getZero(width);
    break;
  case ReduceKind::Prod:
    value = APInt(width, 1);
    break;
  case ReduceKind::Max:
    value = isUnsigned ? APInt::getMinValue(width)
                       : APInt::getSignedMinValue(width);
    break;
  case ReduceKind::Min:
    value = isUnsigned ? APInt::getMaxValue(width)
                       : APInt::getSignedMaxValue(width);
    break;
  }
  return b.getIntegerAttr(type, value);
}

/// Combines an element into the accumulator for `kind`.
Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value element,
              Value accumulator, bool isUnsigned) {
  bool isFloat = isa<FloatType>(element.getType());
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return isFloat ? Value(arith::AddFOp::create(b, loc, element, accumulator))
                   : Value(arith::AddIOp::create(b, loc, element, accumulator));
  case ReduceKind::Prod:
    return isFloat ? Value(arith::MulFOp::create(b, loc, element, accumulator))
                   : Value(arith::MulIOp::create(b, loc, element, accumulator));
  case ReduceKind::Max:
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, element, accumulator);
    return isUnsigned
               ? Value(arith::MaxUIOp::create(b, loc, element, accumulator))
               : Value(arith::MaxSIOp::create(b, loc, element, accumulator));
  case ReduceKind::Min:
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, element, accumulator);
    return isUnsigned
               ? Value(arith::MinUIOp::create(b, loc, element, accumulator))
               : Value(arith::MinSIOp::create(b, loc, element, accumulator));
  }
  llvm_unreachable("unknown reduction");
}

/// The type TensorFlow's CPU kernel accumulates a `kind` reduction of
/// `element`s in: i64 for Mean of narrower integers (TensorFlow's int64 or
/// uint64), f32 for Sum and Mean of bf16, the element type otherwise.
Type getAccumulatorType(OpBuilder &b, ReduceKind kind, Type element) {
  if (kind == ReduceKind::Mean && isa<IntegerType>(element) &&
      element.getIntOrFloatBitWidth() < 64)
    return b.getI64Type();
  if ((kind == ReduceKind::Sum || kind == ReduceKind::Mean) &&
      element.isBF16())
    return b.getF32Type();
  return element;
}

/// The scalar `value` converted to `type`: extended (signed, unsigned or
/// float), truncated, or itself when it has that type already.
Value convertScalar(OpBuilder &b, Location loc, Value value, Type type,
                    bool isUnsigned) {
  Type from = value.getType();
  if (from == type)
    return value;
  if (isa<FloatType>(type))
    return from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth()
               ? Value(arith::ExtFOp::create(b, loc, type, value))
               : Value(arith::TruncFOp::create(b, loc, type, value));
  if (from.getIntOrFloatBitWidth() > type.getIntOrFloatBitWidth())
    return arith::TruncIOp::create(b, loc, type, value);
  return isUnsigned ? Value(arith::ExtUIOp::create(b, loc, type, value))
                    : Value(arith::ExtSIOp::create(b, loc, type, value));
}

/// A linalg.reduce of `input` over `dims` (sorted, unique) for `kind`,
/// accumulating in `accType` (each element is converted to it first).
Value createReduce(OpBuilder &b, Location loc, ReduceKind kind, Value input,
                   ArrayRef<int64_t> dims, bool isUnsigned, Type accType) {
  Value neutral = arith::ConstantOp::create(
      b, loc, getNeutralElement(b, kind, accType, isUnsigned));
  Value init =
      createFilled(b, loc, getReducedSizes(b, loc, input, dims), neutral);
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{input}, ValueRange{init}, dims,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value element =
            convertScalar(nested, nestedLoc, args[0], accType, isUnsigned);
        linalg::YieldOp::create(
            nested, nestedLoc,
            combine(nested, nestedLoc, kind, element, args[1], isUnsigned));
      });
  return reduce.getResult(0);
}

/// A linalg.reduce of `input` over `dims` for `kind`, accumulating in the
/// element type.
Value createReduce(OpBuilder &b, Location loc, ReduceKind kind, Value input,
                   ArrayRef<int64_t> dims, bool isUnsigned) {
  return createReduce(b, loc, kind, input, dims, isUnsigned,
                      getElementTypeOrSelf(input.getType()));
}

/// The number of elements of `value` in `dims` as a scalar of `type`, the
/// divisor of a Mean. For integers an empty reduction divides by 1 rather
/// than 0 (TensorFlow's kernel would divide by zero), so the result is the
/// zero sum instead of undefined behaviour.
Value getMeanDivisor(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> dims, Type type) {
  auto valueType = cast<RankedTensorType>(value.getType());
  int64_t known = 1;
  Value count;
  for (int64_t dim : dims) {
    if (!valueType.isDynamicDim(dim)) {
      known *= valueType.getDimSize(dim);
      continue;
    }
    Value size = tensor::DimOp::create(b, loc, value, dim);
    count = count ? Value(arith::MulIOp::create(b, loc, count, size)) : size;
  }
  auto floatType = dyn_cast<FloatType>(type);
  if (!count) {
    if (floatType)
      return arith::ConstantOp::create(
          b, loc, b.getFloatAttr(floatType, static_cast<double>(known)));
    return arith::ConstantOp::create(
        b, loc, b.getIntegerAttr(type, known == 0 ? 1 : known));
  }
  if (known != 1)
    count = arith::MulIOp::create(
        b, loc, count, arith::ConstantIndexOp::create(b, loc, known));
  if (floatType) {
    Value wide = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count);
    return arith::UIToFPOp::create(b, loc, floatType, wide);
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value isEmpty =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count, zero);
  count = arith::SelectOp::create(b, loc, isEmpty, one, count);
  return arith::IndexCastUIOp::create(b, loc, type, count);
}

/// An all-parallel linalg.generic over `like`'s shape that reads `full`
/// (shape of `like`) and `reduced` (its shape without the last dimension)
/// and combines them elementwise with `body`.
Value createLastAxisBroadcast(
    OpBuilder &b, Location loc, Value full, Value reduced,
    function_ref<Value(OpBuilder &, Location, Value, Value)> body) {
  auto type = cast<RankedTensorType>(full.getType());
  int64_t rank = type.getRank();
  MLIRContext *context = b.getContext();
  Value init = kiln::detail::createEmptyLike(b, loc, type, full);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap dropLast = AffineMap::getMultiDimIdentityMap(rank - 1, context);
  dropLast = AffineMap::get(rank, 0, dropLast.getResults(), context);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{full, reduced}, ValueRange{init},
      ArrayRef<AffineMap>{identity, dropLast, identity}, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                body(nested, nestedLoc, args[0], args[1]));
      });
  return generic.getResult(0);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// tf.Sum, tf.Mean, tf.Max, tf.Min, tf.Prod with constant axes ->
/// linalg.reduce from the neutral element (Mean: then a division by the
/// element count), and a tensor.expand_shape back to the input's rank for
/// keep_dims. A single axis known only at run time gives an
/// scf.index_switch over the axes, each case the reduction over one.
template <typename OpTy, ReduceKind kind>
struct ReduceOpLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  /// The reduction of `input` over the sorted, distinct `dims`.
  static Value reduceOver(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> dims, bool keepDims,
                          bool isUnsigned) {
    Type elementType = cast<RankedTensorType>(input.getType()).getElementType();
    if (dims.empty())
      return input;
    Type accType = getAccumulatorType(b, kind, elementType);
    Value result =
        createReduce(b, loc, kind, input, dims, isUnsigned, accType);
    if (kind == ReduceKind::Mean || accType != elementType) {
      // Mean: the sum divided by the element count, in the accumulator
      // type; then (Mean or Sum) converted back to the element type.
      Value divisor;
      if (kind == ReduceKind::Mean)
        divisor = getMeanDivisor(b, loc, input, dims, accType);
      auto sumType = cast<RankedTensorType>(result.getType());
      auto outType = sumType.clone(elementType);
      Value init = kiln::detail::createEmptyLike(b, loc, outType, result);
      AffineMap identity = b.getMultiDimIdentityMap(sumType.getRank());
      SmallVector<utils::IteratorType> iterators(sumType.getRank(),
                                                 utils::IteratorType::parallel);
      auto generic = linalg::GenericOp::create(
          b, loc, outType, ValueRange{result}, ValueRange{init},
          ArrayRef<AffineMap>{identity, identity}, iterators,
          [&](OpBuilder &b, Location loc, ValueRange args) {
            Value quotient = args[0];
            if (divisor && isa<FloatType>(accType))
              quotient = arith::DivFOp::create(b, loc, args[0], divisor);
            else if (divisor && isUnsigned)
              quotient = arith::DivUIOp::create(b, loc, args[0], divisor);
            else if (divisor)
              quotient = arith::DivSIOp::create(b, loc, args[0], divisor);
            linalg::YieldOp::create(
                b, loc,
                convertScalar(b, loc, quotient, elementType, isUnsigned));
          });
      result = generic.getResult(0);
    }
    if (keepDims)
      result = kiln::detail::insertUnitDims(b, loc, result, dims);
    return result;
  }

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = kiln::detail::getConvertedTensorType(
        *this->getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    Type elementType = inputType.getElementType();
    if (!isa<FloatType, IntegerType>(elementType))
      return kiln::detail::reportUnsupported(op, "unsupported element type");
    // Booleans compare as unsigned (false < true).
    bool isUnsigned =
        kiln::detail::isUnsignedElement(op.getInput().getType()) ||
        elementType.isInteger(1);
    int64_t rank = inputType.getRank();
    bool keepDims = op.getKeepDims();
    Location loc = op.getLoc();
    Value indices = adaptor.getReductionIndices();
    FailureOr<SmallVector<int64_t>> axes =
        kiln::detail::getConstantIntValues(indices);
    if (failed(axes)) {
      // One axis known only at run time: a switch over the rank's axes, each
      // case the reduction over that axis.
      RankedTensorType indicesType = getRankedType(indices);
      if (!indicesType || !indicesType.hasStaticShape() ||
          indicesType.getNumElements() != 1 || rank == 0)
        return kiln::detail::reportUnsupported(
            op, "reduction_indices operand is known only at run time and is "
                "not a single axis");
      if (resultType.getRank() != (keepDims ? rank : rank - 1))
        return kiln::detail::reportUnsupported(
            op, "the result's rank does not match a reduction over one axis");
      Value key = normalizeRuntimeAxis(rewriter, loc, indices, rank);
      Value result = createKeySwitch(
          rewriter, loc, key, llvm::to_vector(llvm::seq<int64_t>(0, rank)),
          resultType, [&](OpBuilder &b, Location loc, size_t axis) {
            return reduceOver(b, loc, input, {static_cast<int64_t>(axis)},
                              keepDims, isUnsigned);
          });
      rewriter.replaceOp(op, result);
      return success();
    }
    SmallVector<int64_t> dims;
    for (int64_t axis : *axes) {
      std::optional<int64_t> dim = kiln::detail::normalizeAxis(axis, rank);
      if (!dim)
        return kiln::detail::reportUnsupported(
            op, "reduction axis " + Twine(axis) + " is out of range for rank " +
                    Twine(rank));
      dims.push_back(*dim);
    }
    llvm::sort(dims);
    dims.erase(llvm::unique(dims), dims.end());
    int64_t expectedRank = keepDims ? rank : rank - dims.size();
    if (resultType.getRank() != expectedRank)
      return kiln::detail::reportUnsupported(
          op, "the reduction has rank " + Twine(expectedRank) +
                  " but the result has rank " + Twine(resultType.getRank()));

    Value result = reduceOver(rewriter, loc, input, dims, keepDims, isUnsigned);
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

/// tf.ArgMax with a constant dimension -> a linalg.generic reducing the
/// dimension into a (value, index) pair. An element replaces the pair when
/// it is greater, or equal with a smaller index, so the result is the first
/// index of the maximum whatever order the loop runs in. NaN compares false
/// and never wins (unless every element is NaN, then the index is 0).
struct ArgMaxOpLowering final : OpConversionPattern<tf::ArgMaxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::ArgMaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!resultType || !inputType || inputType.getRank() == 0)
      return kiln::detail::reportUnsupported(
          op, "unranked or scalar operand, or unranked result");
    Type elementType = inputType.getElementType();
    if (!isa<FloatType, IntegerType>(elementType))
      return kiln::detail::reportUnsupported(op, "unsupported element type");
    bool isUnsigned =
        kiln::detail::isUnsignedElement(op.getInput().getType()) ||
        elementType.isInteger(1);
    FailureOr<SmallVector<int64_t>> dimension =
        kiln::detail::getConstantIntValues(adaptor.getDimension());
    if (failed(dimension) || dimension->size() != 1)
      return kiln::detail::reportUnsupported(
          op, "dimension operand is not a constant scalar");
    int64_t rank = inputType.getRank();
    std::optional<int64_t> axis =
        kiln::detail::normalizeAxis(dimension->front(), rank);
    if (!axis)
      return kiln::detail::reportUnsupported(
          op, "dimension " + Twine(dimension->front()) +
                  " is out of range for rank " + Twine(rank));
    if (resultType.getRank() != rank - 1)
      return kiln::detail::reportUnsupported(op, "the result must have rank " +
                                                     Twine(rank - 1));

    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    Type indexType = resultType.getElementType();
    SmallVector<OpFoldResult> sizes =
        getReducedSizes(rewriter, loc, input, {*axis});
    Value lowest = arith::ConstantOp::create(
        rewriter, loc,
        getNeutralElement(rewriter, ReduceKind::Max, elementType, isUnsigned));
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getZeroAttr(indexType));
    Value values = createFilled(rewriter, loc, sizes, lowest);
    Value indices = createFilled(rewriter, loc, sizes, zero);
    SmallVector<AffineExpr> reducedExprs;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t dim = 0; dim < rank; ++dim) {
      iterators.push_back(dim == *axis ? utils::IteratorType::reduction
                                       : utils::IteratorType::parallel);
      if (dim != *axis)
        reducedExprs.push_back(getAffineDimExpr(dim, context));
    }
    AffineMap reducedMap = AffineMap::get(rank, 0, reducedExprs, context);
    int64_t axisDim = *axis;
    bool isFloat = isa<FloatType>(elementType);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{values.getType(), indices.getType()},
        ValueRange{input}, ValueRange{values, indices},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank), reducedMap,
                            reducedMap},
        iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
          Value element = args[0], best = args[1], bestIndex = args[2];
          Value position = arith::IndexCastOp::create(
              b, loc, indexType, linalg::IndexOp::create(b, loc, axisDim));
          Value greater, equal;
          if (isFloat) {
            greater = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                            element, best);
            equal = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                          element, best);
          } else {
            greater =
                arith::CmpIOp::create(b, loc,
                                      isUnsigned ? arith::CmpIPredicate::ugt
                                                 : arith::CmpIPredicate::sgt,
                                      element, best);
            equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          element, best);
          }
          Value earlier = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, position, bestIndex);
          Value tieEarlier = arith::AndIOp::create(b, loc, equal, earlier);
          Value take = arith::OrIOp::create(b, loc, greater, tieEarlier);
          Value newBest = arith::SelectOp::create(b, loc, take, element, best);
          Value newIndex =
              arith::SelectOp::create(b, loc, take, position, bestIndex);
          linalg::YieldOp::create(b, loc, ValueRange{newBest, newIndex});
        });
    rewriter.replaceOp(op, kiln::detail::castToType(rewriter, loc,
                                                    generic.getResult(1),
                                                    resultType));
    return success();
  }
};

/// tf.Softmax -> max over the last axis (linalg.reduce), exp(x - max)
/// (linalg.generic), their sum (linalg.reduce), and the quotient
/// (linalg.generic).
struct SoftmaxOpLowering final : OpConversionPattern<tf::SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value logits = adaptor.getLogits();
    auto type = dyn_cast<RankedTensorType>(logits.getType());
    if (!resultType || !type || type.getRank() == 0)
      return kiln::detail::reportUnsupported(
          op, "expects logits of rank 1 or more");
    if (!isa<FloatType>(type.getElementType()))
      return kiln::detail::reportUnsupported(op, "expects float logits");
    Location loc = op.getLoc();
    SmallVector<int64_t> last = {type.getRank() - 1};
    Value max = createReduce(rewriter, loc, ReduceKind::Max, logits, last,
                             /*isUnsigned=*/false);
    Value exp = createLastAxisBroadcast(
        rewriter, loc, logits, max,
        [](OpBuilder &b, Location loc, Value x, Value m) -> Value {
          Value shifted = arith::SubFOp::create(b, loc, x, m);
          return math::ExpOp::create(b, loc, shifted);
        });
    Value sum = createReduce(rewriter, loc, ReduceKind::Sum, exp, last,
                             /*isUnsigned=*/false);
    Value result = createLastAxisBroadcast(
        rewriter, loc, exp, sum,
        [](OpBuilder &b, Location loc, Value e, Value s) -> Value {
          return arith::DivFOp::create(b, loc, e, s);
        });
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Where
//===----------------------------------------------------------------------===//

/// Whether the scalar `x` is true in tf.Where's sense: `x != 0` (floats:
/// unordered or not equal, so NaN is true and -0.0 false).
Value isNonZero(OpBuilder &b, Location loc, Value x) {
  Type type = x.getType();
  if (type.isInteger(1))
    return x;
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  if (isa<FloatType>(type))
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
}

/// tf.Where(condition) -> the count of true elements (a linalg.generic
/// reducing every dimension into an i64), a tensor.empty of [count, rank],
/// and a nest of scf.for over the condition in row-major order carrying the
/// result and the next row to write; a true element's coordinates are
/// written to that row with tensor.insert, which bufferizes in place.
struct WhereOpLowering final : OpConversionPattern<tf::WhereOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::WhereOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    Value input = adaptor.getInput();
    auto inputType = dyn_cast<RankedTensorType>(input.getType());
    if (!resultType || !inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand or result");
    Type elementType = inputType.getElementType();
    if (!isa<FloatType, IntegerType>(elementType))
      return kiln::detail::reportUnsupported(op, "unsupported element type");
    int64_t rank = inputType.getRank();
    Type indexType = resultType.getElementType();
    if (resultType.getRank() != 2 || !indexType.isInteger(64) ||
        (!resultType.isDynamicDim(1) && resultType.getDimSize(1) != rank))
      return kiln::detail::reportUnsupported(
          op,
          "the result must be a [num_true, " + Twine(rank) + "] tensor of i64");

    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();

    // The number of true elements.
    Value zeroCount =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(0));
    Value countInit =
        createFilled(rewriter, loc, ArrayRef<OpFoldResult>{}, zeroCount);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::reduction);
    auto countOp = linalg::GenericOp::create(
        rewriter, loc, countInit.getType(), ValueRange{input},
        ValueRange{countInit},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank),
                            AffineMap::get(rank, 0, {}, context)},
        iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
          Value isTrue = isNonZero(b, loc, args[0]);
          Value one = arith::ExtUIOp::create(b, loc, b.getI64Type(), isTrue);
          linalg::YieldOp::create(
              b, loc, ValueRange{arith::AddIOp::create(b, loc, args[1], one)});
        });
    Value count = tensor::ExtractOp::create(rewriter, loc, countOp.getResult(0),
                                            ValueRange{});
    count = arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                       count);
    Value result = tensor::EmptyOp::create(
        rewriter, loc,
        ArrayRef<OpFoldResult>{count, rewriter.getIndexAttr(rank)}, indexType);

    // The coordinates (a rank-0 condition has none to write).
    if (rank > 0) {
      Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
      SmallVector<Value> lbs(rank, c0), steps(rank, c1), ubs;
      for (int64_t dim = 0; dim < rank; ++dim)
        ubs.push_back(tensor::DimOp::create(rewriter, loc, input, dim));
      SmallVector<Value> dimIndices;
      for (int64_t dim = 0; dim < rank; ++dim)
        dimIndices.push_back(
            arith::ConstantIndexOp::create(rewriter, loc, dim));
      scf::LoopNest nest = scf::buildLoopNest(
          rewriter, loc, lbs, ubs, steps, ValueRange{result, c0},
          [&](OpBuilder &b, Location loc, ValueRange ivs,
              ValueRange args) -> scf::ValueVector {
            Value element = tensor::ExtractOp::create(b, loc, input, ivs);
            auto write = scf::IfOp::create(
                b, loc, isNonZero(b, loc, element),
                [&](OpBuilder &b, Location loc) {
                  Value row = args[0];
                  for (auto [iv, dimIndex] : llvm::zip(ivs, dimIndices)) {
                    Value coordinate =
                        arith::IndexCastOp::create(b, loc, indexType, iv);
                    row = tensor::InsertOp::create(
                        b, loc, coordinate, row, ValueRange{args[1], dimIndex});
                  }
                  Value next = arith::AddIOp::create(b, loc, args[1], c1);
                  scf::YieldOp::create(b, loc, ValueRange{row, next});
                },
                [&](OpBuilder &b, Location loc) {
                  scf::YieldOp::create(b, loc, args);
                });
            return llvm::to_vector_of<Value>(write.getResults());
          });
      result = nest.results.front();
    }
    rewriter.replaceOp(
        op, kiln::detail::castToType(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateReductionPatterns(const TypeConverter &typeConverter,
                                             RewritePatternSet &patterns) {
  patterns.add<ReduceOpLowering<tf::SumOp, ReduceKind::Sum>,
               ReduceOpLowering<tf::MeanOp, ReduceKind::Mean>,
               ReduceOpLowering<tf::MaxOp, ReduceKind::Max>,
               ReduceOpLowering<tf::MinOp, ReduceKind::Min>,
               ReduceOpLowering<tf::ProdOp, ReduceKind::Prod>,
               // Booleans compare unsigned: all is their minimum, any their
               // maximum.
               ReduceOpLowering<tf::AllOp, ReduceKind::Min>,
               ReduceOpLowering<tf::AnyOp, ReduceKind::Max>, ArgMaxOpLowering,
               SoftmaxOpLowering, WhereOpLowering>(typeConverter,
                                                   patterns.getContext());
}
