//===- Elementwise.cpp - tf elementwise ops to linalg.generic --*- C++ -*-===//
//
// Arithmetic, comparisons, activations, selects and casts. Every op becomes
// one linalg.generic with all-parallel loops over the result; its operands
// are read through TensorFlow's (numpy's) broadcasting, expressed as
// indexing maps (getBroadcastIndexingMap), and its body is the scalar
// function of the op.
//
// There is one pattern template, ElementwiseLowering<OpTy>; what differs
// from op to op is a row of the table in populateElementwisePatterns: the
// element kinds the op accepts and the function that builds its scalar body.
// The body builders follow TensorFlow's CPU kernels (tensorflow/core/kernels/
// cwise_op_*.cc, cwise_ops.h, relu_op_functor.h, cast_op_impl.h) and
// documentation; where the two differ from the obvious arith op the builder
// says so.
//
// Shapes: the result type is the tf op's converted result type, static
// after shape inference. A dynamic operand size is assumed to equal the
// result's: shape inference has already checked the operands, and a dynamic
// size that turns out to be a broadcasting 1 at run time is not supported.
// BroadcastTo's shape operand may be computed at run time: the sizes its
// result type leaves dynamic are then read from it.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace kiln;

namespace {

//===----------------------------------------------------------------------===//
// Element kinds and scalar bodies
//===----------------------------------------------------------------------===//

/// TensorFlow element kinds, as a bit set of what an op accepts. The kind is
/// read from the tf-level type, before conversion makes unsigned integers
/// signless, because it decides between signed and unsigned arith ops.
enum ElementKind : unsigned {
  kBool = 1u << 0,
  kSigned = 1u << 1,
  kUnsigned = 1u << 2,
  kFloat = 1u << 3,
  kInt = kSigned | kUnsigned,
  kIntOrFloat = kInt | kFloat,
  kAnyKind = kIntOrFloat | kBool,
};

/// The kind of a tf-level element type, or 0 for one no pattern lowers
/// (complex, string, quantized, resource, ...).
unsigned classifyElement(Type type) {
  if (isa<FloatType>(type))
    return kFloat;
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer)
    return 0;
  if (integer.getWidth() == 1)
    return kBool;
  return integer.isUnsigned() ? kUnsigned : kSigned;
}

/// Prints a type for a diagnostic.
std::string typeString(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << type << "'";
  return s;
}

/// Prints a shape for a diagnostic: [2, ?, 3].
std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << "?";
    else
      os << size;
  });
  os << "]";
  return s;
}

/// What a scalar body builder sees besides the scalar operands.
struct ScalarContext {
  OpBuilder &b;
  Location loc;
  /// The tf op being lowered (for its attributes).
  Operation *op;
  /// The kind of the data operands (one ElementKind bit).
  unsigned kind;
  /// The kind of the tf op's result element type.
  unsigned resultKind;
  /// The converted (signless) result element type.
  Type resultElement;

  bool isFloat() const { return kind == kFloat; }
  bool isUnsigned() const { return kind == kUnsigned; }

  /// A scalar constant of `type` (float or integer) holding `value`.
  Value constant(Type type, double value) const {
    if (auto floatType = dyn_cast<FloatType>(type))
      return arith::ConstantOp::create(b, loc,
                                       FloatAttr::get(floatType, value));
    return arith::ConstantOp::create(
        b, loc, IntegerAttr::get(type, static_cast<int64_t>(value)));
  }
};

/// Builds the result element from the operand elements.
using ScalarBuilder = Value (*)(const ScalarContext &, ValueRange);

/// Checks what the element kinds cannot express (an attribute, the result
/// type), reporting the reason; runs before any IR is created.
using OpChecker = LogicalResult (*)(Operation *);

/// The indexing map of operand `index` (of `operandShape`) for an op whose
/// result has `resultShape`.
using MapBuilder = FailureOr<AffineMap> (*)(unsigned index,
                                            ArrayRef<int64_t> operandShape,
                                            ArrayRef<int64_t> resultShape,
                                            MLIRContext *context);

FailureOr<AffineMap> broadcastMap(unsigned, ArrayRef<int64_t> operandShape,
                                  ArrayRef<int64_t> resultShape,
                                  MLIRContext *context) {
  return kiln::detail::getBroadcastIndexingMap(operandShape, resultShape,
                                               context);
}

/// tf.Select (v1) does not broadcast numpy-style: its condition has the
/// shape of the values, or is a scalar, or is a vector over their first
/// dimension that selects whole rows.
FailureOr<AffineMap> selectMap(unsigned index, ArrayRef<int64_t> operandShape,
                               ArrayRef<int64_t> resultShape,
                               MLIRContext *context) {
  int64_t rank = resultShape.size();
  if (index == 0 && operandShape.size() == 1 && rank > 1) {
    if (!ShapedType::isDynamic(operandShape[0]) &&
        !ShapedType::isDynamic(resultShape[0]) &&
        operandShape[0] != resultShape[0])
      return failure();
    return AffineMap::get(rank, 0, getAffineDimExpr(0, context), context);
  }
  if (index == 0 && operandShape.empty())
    return AffineMap::get(rank, 0, context);
  if (operandShape.size() != resultShape.size())
    return failure();
  return kiln::detail::getBroadcastIndexingMap(operandShape, resultShape,
                                               context);
}

//--- Arithmetic ------------------------------------------------------------//

Value buildAdd(const ScalarContext &c, ValueRange a) {
  if (c.isFloat())
    return arith::AddFOp::create(c.b, c.loc, a[0], a[1]);
  return arith::AddIOp::create(c.b, c.loc, a[0], a[1]);
}

Value buildSub(const ScalarContext &c, ValueRange a) {
  if (c.isFloat())
    return arith::SubFOp::create(c.b, c.loc, a[0], a[1]);
  return arith::SubIOp::create(c.b, c.loc, a[0], a[1]);
}

Value buildMul(const ScalarContext &c, ValueRange a) {
  if (c.isFloat())
    return arith::MulFOp::create(c.b, c.loc, a[0], a[1]);
  return arith::MulIOp::create(c.b, c.loc, a[0], a[1]);
}

/// AddN: the sum of all operands, in operand order.
Value buildAddN(const ScalarContext &c, ValueRange a) {
  Value sum = a[0];
  for (Value v : a.drop_front())
    sum = buildAdd(c, {sum, v});
  return sum;
}

/// RealDiv: floating-point division (TensorFlow registers RealDiv kernels for
/// floating-point and complex types only; the table accepts floats).
Value buildRealDiv(const ScalarContext &c, ValueRange a) {
  return arith::DivFOp::create(c.b, c.loc, a[0], a[1]);
}

/// FloorDiv: floor(x / y) for floats; for integers the quotient rounded
/// toward negative infinity (tf.math.floordiv: "Python semantics"), which
/// arith.floordivsi computes. Integer division by zero, an error in
/// TensorFlow, is undefined here.
Value buildFloorDiv(const ScalarContext &c, ValueRange a) {
  if (c.isFloat())
    return math::FloorOp::create(c.b, c.loc,
                                 arith::DivFOp::create(c.b, c.loc, a[0], a[1]));
  if (c.isUnsigned())
    return arith::DivUIOp::create(c.b, c.loc, a[0], a[1]);
  return arith::FloorDivSIOp::create(c.b, c.loc, a[0], a[1]);
}

/// FloorMod: the remainder of the flooring division, with the sign of the
/// divisor, so that floor(x / y) * y + floormod(x, y) = x
/// (tf.math.floormod). The truncated remainder (arith.remf is C's fmod,
/// arith.remsi C's %) is corrected by adding y when it is nonzero and its
/// sign differs from y's.
Value buildFloorMod(const ScalarContext &c, ValueRange a) {
  OpBuilder &b = c.b;
  Value x = a[0], y = a[1];
  if (c.isUnsigned())
    return arith::RemUIOp::create(b, c.loc, x, y);
  Type type = x.getType();
  Value zero = c.constant(type, 0);
  Value rem, remNonZero, remNegative, yNegative, adjusted;
  if (c.isFloat()) {
    rem = arith::RemFOp::create(b, c.loc, x, y);
    remNonZero =
        arith::CmpFOp::create(b, c.loc, arith::CmpFPredicate::ONE, rem, zero);
    remNegative =
        arith::CmpFOp::create(b, c.loc, arith::CmpFPredicate::OLT, rem, zero);
    yNegative =
        arith::CmpFOp::create(b, c.loc, arith::CmpFPredicate::OLT, y, zero);
    adjusted = arith::AddFOp::create(b, c.loc, rem, y);
  } else {
    rem = arith::RemSIOp::create(b, c.loc, x, y);
    remNonZero =
        arith::CmpIOp::create(b, c.loc, arith::CmpIPredicate::ne, rem, zero);
    remNegative =
        arith::CmpIOp::create(b, c.loc, arith::CmpIPredicate::slt, rem, zero);
    yNegative =
        arith::CmpIOp::create(b, c.loc, arith::CmpIPredicate::slt, y, zero);
    adjusted = arith::AddIOp::create(b, c.loc, rem, y);
  }
  Value signsDiffer = arith::XOrIOp::create(b, c.loc, remNegative, yNegative);
  Value fix = arith::AndIOp::create(b, c.loc, remNonZero, signsDiffer);
  return arith::SelectOp::create(b, c.loc, fix, adjusted, rem);
}

/// Maximum: NaN if either operand is NaN (arith.maximumf, not maxnumf).
Value buildMaximum(const ScalarContext &c, ValueRange a) {
  if (c.isFloat())
    return arith::MaximumFOp::create(c.b, c.loc, a[0], a[1]);
  if (c.isUnsigned())
    return arith::MaxUIOp::create(c.b, c.loc, a[0], a[1]);
  return arith::MaxSIOp::create(c.b, c.loc, a[0], a[1]);
}

/// Minimum: NaN if either operand is NaN (arith.minimumf, not minnumf).
Value buildMinimum(const ScalarContext &c, ValueRange a) {
  if (c.isFloat())
    return arith::MinimumFOp::create(c.b, c.loc, a[0], a[1]);
  if (c.isUnsigned())
    return arith::MinUIOp::create(c.b, c.loc, a[0], a[1]);
  return arith::MinSIOp::create(c.b, c.loc, a[0], a[1]);
}

/// SquaredDifference: (x - y) * (x - y).
Value buildSquaredDifference(const ScalarContext &c, ValueRange a) {
  Value diff = buildSub(c, a);
  return buildMul(c, {diff, diff});
}

/// Atan2(y, x): the angle of (x, y); the operands are in TensorFlow's order.
Value buildAtan2(const ScalarContext &c, ValueRange a) {
  return math::Atan2Op::create(c.b, c.loc, a[0], a[1]);
}

//--- Unary arithmetic and activations --------------------------------------//

Value buildSquare(const ScalarContext &c, ValueRange a) {
  return buildMul(c, {a[0], a[0]});
}

/// Neg: -x; integers wrap (0 - x).
Value buildNeg(const ScalarContext &c, ValueRange a) {
  if (c.isFloat())
    return arith::NegFOp::create(c.b, c.loc, a[0]);
  return arith::SubIOp::create(c.b, c.loc, c.constant(a[0].getType(), 0), a[0]);
}

/// Abs: |x|; unsigned values are their own absolute value.
Value buildAbs(const ScalarContext &c, ValueRange a) {
  if (c.isFloat())
    return math::AbsFOp::create(c.b, c.loc, a[0]);
  if (c.isUnsigned())
    return a[0];
  return math::AbsIOp::create(c.b, c.loc, a[0]);
}

/// Reciprocal: 1 / x (floats; TensorFlow's CPU kernel has no integer type).
Value buildReciprocal(const ScalarContext &c, ValueRange a) {
  return arith::DivFOp::create(c.b, c.loc, c.constant(a[0].getType(), 1), a[0]);
}

/// Sign: -1, 0 or 1. For floats, a NaN stays NaN and a zero keeps its sign:
/// x is returned where it is neither positive nor negative. TensorFlow 1.x
/// documented 0 for NaN; TensorFlow 2 (and numpy) return NaN.
Value buildSign(const ScalarContext &c, ValueRange a) {
  OpBuilder &b = c.b;
  Value x = a[0];
  Type type = x.getType();
  Value zero = c.constant(type, 0), one = c.constant(type, 1);
  if (c.isUnsigned()) {
    Value nonZero =
        arith::CmpIOp::create(b, c.loc, arith::CmpIPredicate::ne, x, zero);
    return arith::SelectOp::create(b, c.loc, nonZero, one, zero);
  }
  Value minusOne = c.constant(type, -1);
  Value positive, negative;
  if (c.isFloat()) {
    positive =
        arith::CmpFOp::create(b, c.loc, arith::CmpFPredicate::OGT, x, zero);
    negative =
        arith::CmpFOp::create(b, c.loc, arith::CmpFPredicate::OLT, x, zero);
  } else {
    positive =
        arith::CmpIOp::create(b, c.loc, arith::CmpIPredicate::sgt, x, zero);
    negative =
        arith::CmpIOp::create(b, c.loc, arith::CmpIPredicate::slt, x, zero);
  }
  Value otherwise = c.isFloat() ? x : zero;
  Value negOrOther =
      arith::SelectOp::create(b, c.loc, negative, minusOne, otherwise);
  return arith::SelectOp::create(b, c.loc, positive, one, negOrOther);
}

/// Relu: max(x, 0), NaN stays NaN.
Value buildRelu(const ScalarContext &c, ValueRange a) {
  return buildMaximum(c, {a[0], c.constant(a[0].getType(), 0)});
}

/// Relu6: min(max(x, 0), 6), NaN stays NaN.
Value buildRelu6(const ScalarContext &c, ValueRange a) {
  Value relu = buildRelu(c, a);
  return buildMinimum(c, {relu, c.constant(a[0].getType(), 6)});
}

/// LeakyRelu: x where x > 0, alpha * x elsewhere (TensorFlow selects rather
/// than taking max(x, alpha * x), which would be wrong for alpha > 1).
Value buildLeakyRelu(const ScalarContext &c, ValueRange a) {
  Value x = a[0];
  double alpha = cast<tf::LeakyReluOp>(c.op).getAlpha().convertToDouble();
  Value scaled =
      arith::MulFOp::create(c.b, c.loc, x, c.constant(x.getType(), alpha));
  Value positive = arith::CmpFOp::create(c.b, c.loc, arith::CmpFPredicate::OGT,
                                         x, c.constant(x.getType(), 0));
  return arith::SelectOp::create(c.b, c.loc, positive, x, scaled);
}

/// Prelu (a TF.js op): x where x > 0, alpha * x elsewhere, with alpha
/// broadcast against x.
Value buildPrelu(const ScalarContext &c, ValueRange a) {
  Value x = a[0];
  Value scaled = arith::MulFOp::create(c.b, c.loc, a[1], x);
  Value positive = arith::CmpFOp::create(c.b, c.loc, arith::CmpFPredicate::OGT,
                                         x, c.constant(x.getType(), 0));
  return arith::SelectOp::create(c.b, c.loc, positive, x, scaled);
}

/// Sigmoid: 1 / (1 + exp(-x)).
Value buildSigmoid(const ScalarContext &c, ValueRange a) {
  Type type = a[0].getType();
  Value negated = arith::NegFOp::create(c.b, c.loc, a[0]);
  Value exp = math::ExpOp::create(c.b, c.loc, negated);
  Value one = c.constant(type, 1);
  Value denominator = arith::AddFOp::create(c.b, c.loc, one, exp);
  return arith::DivFOp::create(c.b, c.loc, one, denominator);
}

/// A float op from the math dialect applied to the single operand.
template <typename MathOp>
Value buildMath(const ScalarContext &c, ValueRange a) {
  return MathOp::create(c.b, c.loc, a[0]);
}

/// ZerosLike: 0 (false for bool) of the operand's type.
Value buildZero(const ScalarContext &c, ValueRange) {
  return c.constant(c.resultElement, 0);
}

//--- Comparisons, logic, selection -----------------------------------------//

/// Compares with `floatPred` (ordered predicates, so any comparison with
/// NaN is false, except NotEqual which uses UNE), `signedPred` or
/// `unsignedPred`; bools compare as unsigned integers.
Value buildCompare(const ScalarContext &c, ValueRange a,
                   arith::CmpFPredicate floatPred,
                   arith::CmpIPredicate signedPred,
                   arith::CmpIPredicate unsignedPred) {
  if (c.isFloat())
    return arith::CmpFOp::create(c.b, c.loc, floatPred, a[0], a[1]);
  return arith::CmpIOp::create(
      c.b, c.loc, c.kind == kSigned ? signedPred : unsignedPred, a[0], a[1]);
}

Value buildLogicalAnd(const ScalarContext &c, ValueRange a) {
  return arith::AndIOp::create(c.b, c.loc, a[0], a[1]);
}

/// Select and SelectV2: condition ? then : else.
Value buildSelect(const ScalarContext &c, ValueRange a) {
  return arith::SelectOp::create(c.b, c.loc, a[0], a[1], a[2]);
}

//--- Cast ------------------------------------------------------------------//

/// Cast, following C++ conversions as TensorFlow's kernel does: float to
/// integer truncates toward zero (out-of-range values and NaN are undefined,
/// as they are in C++), integers convert by their own signedness (wider:
/// sign- or zero-extended; narrower: wrapped), anything to bool is x != 0
/// (NaN is true), bool is 0 or 1, and floats round to nearest-even.
///
/// TensorFlow's CPU threads run with denormals flushed to zero (FTZ/DAZ), so
/// its Cast of an f32, f64 or bf16 denormal to bool is false: here a float
/// is true when |x| >= the smallest normal or x is NaN. f16 is converted in
/// software there and keeps its denormals (a denormal half is true), so f16
/// stays x != 0. (Other casts of denormals differ too, e.g. TensorFlow's
/// f32 -> f64 gives +-0; they are left as they are.)
Value buildCast(const ScalarContext &c, ValueRange a) {
  OpBuilder &b = c.b;
  Location loc = c.loc;
  Value x = a[0];
  Type src = x.getType(), dst = c.resultElement;
  if (src == dst)
    return x;
  if (c.resultKind == kBool) {
    if (auto srcFloat = dyn_cast<FloatType>(src); srcFloat && !src.isF16()) {
      Value smallestNormal = arith::ConstantOp::create(
          b, loc,
          b.getFloatAttr(src, APFloat::getSmallestNormalized(
                                  srcFloat.getFloatSemantics())));
      Value magnitude = math::AbsFOp::create(b, loc, x);
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UGE,
                                   magnitude, smallestNormal);
    }
    Value zero = c.constant(src, 0);
    if (c.isFloat())
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  if (c.kind == kBool) {
    if (isa<FloatType>(dst))
      return arith::UIToFPOp::create(b, loc, dst, x);
    return arith::ExtUIOp::create(b, loc, dst, x);
  }
  if (c.isFloat()) {
    if (auto dstFloat = dyn_cast<FloatType>(dst)) {
      unsigned srcWidth = src.getIntOrFloatBitWidth();
      unsigned dstWidth = dstFloat.getWidth();
      if (srcWidth == dstWidth) // f16 <-> bf16: exactly through f32.
        x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
      if (dstWidth > x.getType().getIntOrFloatBitWidth())
        return arith::ExtFOp::create(b, loc, dst, x);
      return arith::TruncFOp::create(b, loc, dst, x);
    }
    if (c.resultKind == kUnsigned)
      return arith::FPToUIOp::create(b, loc, dst, x);
    return arith::FPToSIOp::create(b, loc, dst, x);
  }
  if (isa<FloatType>(dst)) {
    if (c.isUnsigned())
      return arith::UIToFPOp::create(b, loc, dst, x);
    return arith::SIToFPOp::create(b, loc, dst, x);
  }
  unsigned srcWidth = src.getIntOrFloatBitWidth();
  unsigned dstWidth = dst.getIntOrFloatBitWidth();
  if (dstWidth < srcWidth)
    return arith::TruncIOp::create(b, loc, dst, x);
  if (c.isUnsigned())
    return arith::ExtUIOp::create(b, loc, dst, x);
  return arith::ExtSIOp::create(b, loc, dst, x);
}

/// Cast's result must be a kind we lower, and `Truncate` (which makes a
/// narrowing float conversion drop mantissa bits instead of rounding) is
/// only accepted where it changes nothing.
LogicalResult checkCast(Operation *op) {
  auto cast = llvm::cast<tf::CastOp>(op);
  Type src = getElementTypeOrSelf(cast.getX().getType());
  Type dst = getElementTypeOrSelf(cast.getType());
  if (!classifyElement(dst))
    return kiln::detail::reportUnsupported(
        op, "unsupported result element type " + typeString(dst));
  if (cast.getTruncate() && isa<FloatType>(src) && isa<FloatType>(dst) &&
      dst.getIntOrFloatBitWidth() <= src.getIntOrFloatBitWidth() && src != dst)
    return kiln::detail::reportUnsupported(
        op, "Truncate = true on a narrowing float conversion is not lowered");
  return success();
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// How to lower one elementwise op: one row of the table.
struct ElementwiseSpec {
  /// The element kinds (ElementKind bits) the data operands may have.
  unsigned kinds;
  /// The scalar body.
  ScalarBuilder body;
  /// The operand whose element type gives the kind (Select's condition is
  /// operand 0, its values start at 1).
  unsigned dataOperand = 0;
  /// How operands are indexed; numpy broadcasting unless said otherwise.
  MapBuilder maps = broadcastMap;
  /// Checks beyond the element kinds, or null.
  OpChecker check = nullptr;
};

/// Any elementwise tf op -> one linalg.generic over its result, reading each
/// operand through its broadcasting map, with `spec.body` as the body.
template <typename OpTy>
struct ElementwiseLowering final : OpConversionPattern<OpTy> {
  ElementwiseLowering(const TypeConverter &typeConverter, MLIRContext *context,
                      ElementwiseSpec spec)
      : OpConversionPattern<OpTy>(typeConverter, context), spec(spec) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Operation *operation = op.getOperation();
    ValueRange operands = adaptor.getOperands();
    Type tfResultType = operation->getResult(0).getType();
    if (!isa<RankedTensorType>(tfResultType))
      return kiln::detail::reportUnsupported(op, "unranked result");
    RankedTensorType resultType = kiln::detail::getConvertedTensorType(
        *this->getTypeConverter(), tfResultType);
    if (!resultType)
      return kiln::detail::reportUnsupported(op, "unsupported result type " +
                                                     typeString(tfResultType));

    Type tfElement =
        getElementTypeOrSelf(operation->getOperand(spec.dataOperand));
    unsigned kind = classifyElement(tfElement);
    if (!(kind & spec.kinds))
      return kiln::detail::reportUnsupported(op, "unsupported element type " +
                                                     typeString(tfElement));
    if (spec.check && failed(spec.check(operation)))
      return failure();

    SmallVector<AffineMap> maps;
    for (auto [index, operand] : llvm::enumerate(operands)) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        return kiln::detail::reportUnsupported(op, "unranked operand #" +
                                                       llvm::Twine(index));
      FailureOr<AffineMap> map = spec.maps(
          index, type.getShape(), resultType.getShape(), op.getContext());
      if (failed(map))
        return kiln::detail::reportUnsupported(
            op, "operand #" + llvm::Twine(index) + " of shape " +
                    shapeString(type.getShape()) +
                    " does not broadcast to the result shape " +
                    shapeString(resultType.getShape()));
      maps.push_back(*map);
    }

    unsigned resultKind = classifyElement(getElementTypeOrSelf(tfResultType));
    Value result = kiln::detail::createElementwiseGeneric(
        rewriter, op.getLoc(), resultType, operands, maps,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          ScalarContext context{b,    loc,        operation,
                                kind, resultKind, resultType.getElementType()};
          return spec.body(context, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }

  ElementwiseSpec spec;
};

/// tf.BroadcastTo -> linalg.generic that reads the input through its
/// broadcasting map. With a constant shape, the result's static shape comes
/// from the constant (the shape operand is not read) and a tensor.cast
/// restores the op's result type if that is less static. With a shape
/// computed at run time, the result's rank is the op's (static) and each
/// size the result type leaves dynamic is read from the shape operand; an
/// input size of 1 broadcasts, a dynamic input size is taken to equal the
/// shape's (as for the other elementwise ops).
struct BroadcastToOpLowering final : OpConversionPattern<tf::BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getType()))
      return kiln::detail::reportUnsupported(op, "unranked result");
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (!resultType)
      return kiln::detail::reportUnsupported(op, "unsupported result type " +
                                                     typeString(op.getType()));
    auto inputType = dyn_cast<RankedTensorType>(adaptor.getInput().getType());
    if (!inputType)
      return kiln::detail::reportUnsupported(op, "unranked operand #0");
    FailureOr<SmallVector<int64_t>> shape =
        kiln::detail::getConstantIntValues(op.getShape());
    if (failed(shape))
      return lowerRuntimeShape(op, adaptor, inputType, resultType, rewriter);
    if (llvm::any_of(*shape, [](int64_t size) { return size < 0; }) ||
        shape->size() != static_cast<size_t>(resultType.getRank()) ||
        failed(verifyCompatibleShape(*shape, resultType.getShape())))
      return kiln::detail::reportUnsupported(
          op, "shape " + shapeString(*shape) +
                  " does not match the result type " +
                  typeString(op.getType()));
    auto staticType =
        RankedTensorType::get(*shape, resultType.getElementType());
    FailureOr<AffineMap> map = kiln::detail::getBroadcastIndexingMap(
        inputType.getShape(), staticType.getShape(), op.getContext());
    if (failed(map))
      return kiln::detail::reportUnsupported(
          op, "operand #0 of shape " + shapeString(inputType.getShape()) +
                  " does not broadcast to the shape " + shapeString(*shape));
    Value result = kiln::detail::createElementwiseGeneric(
        rewriter, op.getLoc(), staticType, adaptor.getInput(), *map,
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    if (staticType != resultType)
      result =
          tensor::CastOp::create(rewriter, op.getLoc(), resultType, result);
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  /// The lowering for a shape operand that is not a constant.
  LogicalResult lowerRuntimeShape(tf::BroadcastToOp op, OpAdaptor adaptor,
                                  RankedTensorType inputType,
                                  RankedTensorType resultType,
                                  ConversionPatternRewriter &rewriter) const {
    int64_t rank = resultType.getRank();
    auto shapeType = dyn_cast<RankedTensorType>(adaptor.getShape().getType());
    if (!shapeType || shapeType.getRank() != 1 ||
        shapeType.getDimSize(0) != rank)
      return kiln::detail::reportUnsupported(
          op, "shape operand of type " + typeString(op.getShape().getType()) +
                  " for a result of rank " + Twine(rank));
    FailureOr<AffineMap> map = kiln::detail::getBroadcastIndexingMap(
        inputType.getShape(), resultType.getShape(), op.getContext());
    if (failed(map))
      return kiln::detail::reportUnsupported(
          op, "operand #0 of shape " + shapeString(inputType.getShape()) +
                  " does not broadcast to the result type " +
                  typeString(op.getType()));

    Location loc = op.getLoc();
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!resultType.isDynamicDim(d))
        continue;
      Value position = arith::ConstantIndexOp::create(rewriter, loc, d);
      Value size = tensor::ExtractOp::create(rewriter, loc, adaptor.getShape(),
                                             ValueRange{position});
      dynamicSizes.push_back(arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(), size));
    }
    Value init =
        tensor::EmptyOp::create(rewriter, loc, resultType, dynamicSizes);
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{resultType},
            ValueRange{adaptor.getInput()}, ValueRange{init},
            ArrayRef<AffineMap>{*map, rewriter.getMultiDimIdentityMap(rank)},
            SmallVector<utils::IteratorType>(rank,
                                             utils::IteratorType::parallel),
            [](OpBuilder &b, Location loc, ValueRange args) {
              linalg::YieldOp::create(b, loc, args[0]);
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Adds one ElementwiseLowering per row of the table.
struct ElementwiseTable {
  const TypeConverter &typeConverter;
  RewritePatternSet &patterns;

  template <typename OpTy> void add(ElementwiseSpec spec) {
    patterns.add<ElementwiseLowering<OpTy>>(typeConverter,
                                            patterns.getContext(), spec);
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateElementwisePatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  ElementwiseTable table{typeConverter, patterns};
  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;

  // Binary arithmetic, broadcasting.
  table.add<tf::AddV2Op>({kIntOrFloat, buildAdd});
  table.add<tf::AddOp>({kIntOrFloat, buildAdd});
  table.add<tf::SubOp>({kIntOrFloat, buildSub});
  table.add<tf::MulOp>({kIntOrFloat, buildMul});
  table.add<tf::RealDivOp>({kFloat, buildRealDiv});
  table.add<tf::FloorDivOp>({kIntOrFloat, buildFloorDiv});
  table.add<tf::FloorModOp>({kIntOrFloat, buildFloorMod});
  table.add<tf::MaximumOp>({kIntOrFloat, buildMaximum});
  table.add<tf::MinimumOp>({kIntOrFloat, buildMinimum});
  table.add<tf::SquaredDifferenceOp>({kIntOrFloat, buildSquaredDifference});
  table.add<tf::Atan2Op>({kFloat, buildAtan2});
  table.add<tf::PreluOp>({kFloat, buildPrelu});
  table.add<tf::AddNOp>({kIntOrFloat, buildAddN});

  // Unary arithmetic and activations.
  table.add<tf::SquareOp>({kIntOrFloat, buildSquare});
  table.add<tf::NegOp>({kIntOrFloat, buildNeg});
  table.add<tf::AbsOp>({kIntOrFloat, buildAbs});
  table.add<tf::SignOp>({kIntOrFloat, buildSign});
  table.add<tf::ReciprocalOp>({kFloat, buildReciprocal});
  table.add<tf::ReluOp>({kIntOrFloat, buildRelu});
  table.add<tf::Relu6Op>({kIntOrFloat, buildRelu6});
  table.add<tf::LeakyReluOp>({kFloat, buildLeakyRelu});
  table.add<tf::SigmoidOp>({kFloat, buildSigmoid});
  table.add<tf::TanhOp>({kFloat, buildMath<math::TanhOp>});
  table.add<tf::ExpOp>({kFloat, buildMath<math::ExpOp>});
  table.add<tf::LogOp>({kFloat, buildMath<math::LogOp>});
  table.add<tf::RsqrtOp>({kFloat, buildMath<math::RsqrtOp>});
  table.add<tf::SqrtOp>({kFloat, buildMath<math::SqrtOp>});
  table.add<tf::SinOp>({kFloat, buildMath<math::SinOp>});
  table.add<tf::CosOp>({kFloat, buildMath<math::CosOp>});
  table.add<tf::FloorOp>({kFloat, buildMath<math::FloorOp>});
  table.add<tf::CeilOp>({kFloat, buildMath<math::CeilOp>});
  table.add<tf::ZerosLikeOp>({kAnyKind, buildZero});
  table.add<tf::CastOp>({kAnyKind, buildCast, 0, broadcastMap, checkCast});

  // Comparisons (i1 results) and logic.
  table.add<tf::GreaterOp>(
      {kIntOrFloat, +[](const ScalarContext &c, ValueRange a) {
         return buildCompare(c, a, FP::OGT, IP::sgt, IP::ugt);
       }});
  table.add<tf::GreaterEqualOp>(
      {kIntOrFloat, +[](const ScalarContext &c, ValueRange a) {
         return buildCompare(c, a, FP::OGE, IP::sge, IP::uge);
       }});
  table.add<tf::LessOp>(
      {kIntOrFloat, +[](const ScalarContext &c, ValueRange a) {
         return buildCompare(c, a, FP::OLT, IP::slt, IP::ult);
       }});
  table.add<tf::LessEqualOp>(
      {kIntOrFloat, +[](const ScalarContext &c, ValueRange a) {
         return buildCompare(c, a, FP::OLE, IP::sle, IP::ule);
       }});
  table.add<tf::EqualOp>({kAnyKind, +[](const ScalarContext &c, ValueRange a) {
                            return buildCompare(c, a, FP::OEQ, IP::eq, IP::eq);
                          }});
  table.add<tf::NotEqualOp>(
      {kAnyKind, +[](const ScalarContext &c, ValueRange a) {
         return buildCompare(c, a, FP::UNE, IP::ne, IP::ne);
       }});
  table.add<tf::LogicalAndOp>({kBool, buildLogicalAnd});

  // Selection: SelectV2 broadcasts all three operands; Select (v1) may take
  // a row-selecting vector condition.
  table.add<tf::SelectV2Op>({kAnyKind, buildSelect, 1});
  table.add<tf::SelectOp>({kAnyKind, buildSelect, 1, selectMap});

  patterns.add<BroadcastToOpLowering>(typeConverter, patterns.getContext());
}
