//===- Activations.cpp - tf float activations and Pow to linalg -*- C++ -*-===//
//
// Elu, Selu, Softplus, Erfc and Pow on floats, as Keras layers emit them
// (activations; GELU through Erfc and Pow), and StopGradient, which
// Keras' normalisation layers put around their moments: each a
// linalg.generic over the (broadcast) result.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/Patterns.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace kiln;

namespace {

/// A float scalar constant of `type`.
Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, FloatAttr::get(type, value));
}

/// exp(x) - 1 where x < 0, else `positive` (x itself for Elu), as
/// TensorFlow's Elu and Selu kernels compute it (not expm1).
Value expMinusOneBelowZero(OpBuilder &b, Location loc, Value x,
                           Value negativeScale, Value positive) {
  Type type = x.getType();
  Value one = floatConstant(b, loc, type, 1.0);
  Value expm1 = arith::SubFOp::create(b, loc, math::ExpOp::create(b, loc, x),
                                      one);
  if (negativeScale)
    expm1 = arith::MulFOp::create(b, loc, negativeScale, expm1);
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                         floatConstant(b, loc, type, 0.0));
  return arith::SelectOp::create(b, loc, negative, expm1, positive);
}

/// Elu: x where x >= 0, exp(x) - 1 elsewhere.
Value buildElu(OpBuilder &b, Location loc, ValueRange a) {
  return expMinusOneBelowZero(b, loc, a[0], nullptr, a[0]);
}

/// Selu: scale * x where x >= 0, scale * alpha * (exp(x) - 1) elsewhere,
/// with TensorFlow's constants.
Value buildSelu(OpBuilder &b, Location loc, ValueRange a) {
  Type type = a[0].getType();
  constexpr double kAlpha = 1.6732632423543772848170429916717;
  constexpr double kScale = 1.0507009873554804934193349852946;
  Value scaled =
      arith::MulFOp::create(b, loc, floatConstant(b, loc, type, kScale), a[0]);
  return expMinusOneBelowZero(
      b, loc, a[0], floatConstant(b, loc, type, kScale * kAlpha), scaled);
}

/// Erfc, from Abramowitz and Stegun's formula 7.1.26 (absolute error below
/// 1.5e-7): for x >= 0, erfc(x) = t * (a1 + t * (a2 + ... + t * a5)) *
/// exp(-x^2) with t = 1 / (1 + p * x); for x < 0, 2 - erfc(-x). Computed in
/// f32 at least (f16 and bf16 widen, then round). NaN stays NaN.
Value buildErfc(OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0];
  Type type = x.getType();
  Type work = type.getIntOrFloatBitWidth() < 32 ? b.getF32Type() : type;
  if (work != type)
    x = arith::ExtFOp::create(b, loc, work, x);
  auto constant = [&](double value) {
    return floatConstant(b, loc, work, value);
  };
  Value z = math::AbsFOp::create(b, loc, x);
  Value t = arith::DivFOp::create(
      b, loc, constant(1.0),
      arith::AddFOp::create(
          b, loc, constant(1.0),
          arith::MulFOp::create(b, loc, constant(0.3275911), z)));
  const double coefficients[] = {0.254829592, -0.284496736, 1.421413741,
                                 -1.453152027, 1.061405429};
  Value poly = constant(coefficients[4]);
  for (int i = 3; i >= 0; --i)
    poly = arith::AddFOp::create(b, loc, constant(coefficients[i]),
                                 arith::MulFOp::create(b, loc, t, poly));
  poly = arith::MulFOp::create(b, loc, t, poly);
  Value negSquare = arith::NegFOp::create(b, loc,
                                          arith::MulFOp::create(b, loc, z, z));
  Value upper =
      arith::MulFOp::create(b, loc, poly, math::ExpOp::create(b, loc, negSquare));
  Value lower = arith::SubFOp::create(b, loc, constant(2.0), upper);
  Value negative = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                         constant(0.0));
  Value result = arith::SelectOp::create(b, loc, negative, lower, upper);
  if (work != type)
    result = arith::TruncFOp::create(b, loc, type, result);
  return result;
}

/// Softplus as TensorFlow's kernel computes it: with threshold
/// log(epsilon) + 2 of the type, x where x > -threshold, exp(x) where
/// x < threshold, log(1 + exp(x)) between.
Value buildSoftplus(OpBuilder &b, Location loc, ValueRange a) {
  Value x = a[0];
  auto type = cast<FloatType>(x.getType());
  // epsilon = 2^(1 - precision) of the type.
  double epsilon =
      std::ldexp(1.0, 1 - static_cast<int>(llvm::APFloat::semanticsPrecision(
                              type.getFloatSemantics())));
  double threshold = std::log(epsilon) + 2.0;
  Value exp = math::ExpOp::create(b, loc, x);
  Value log1p = math::LogOp::create(
      b, loc, arith::AddFOp::create(b, loc, floatConstant(b, loc, type, 1.0),
                                    exp));
  Value tooLarge = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                         floatConstant(b, loc, type, -threshold));
  Value tooSmall = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                         floatConstant(b, loc, type, threshold));
  Value small = arith::SelectOp::create(b, loc, tooSmall, exp, log1p);
  return arith::SelectOp::create(b, loc, tooLarge, x, small);
}

/// Pow on floats: std::pow, as TensorFlow's kernel calls it.
Value buildPow(OpBuilder &b, Location loc, ValueRange a) {
  return math::PowFOp::create(b, loc, a[0], a[1]);
}

using ScalarFn = Value (*)(OpBuilder &, Location, ValueRange);

/// A float elementwise tf op whose operands broadcast against its result:
/// one linalg.generic computing `Fn` on the operand elements.
template <typename OpTy, ScalarFn Fn>
struct FloatElementwiseLowering final : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = kiln::detail::getConvertedTensorType(
        *this->getTypeConverter(), op->getResult(0).getType());
    if (!resultType)
      return kiln::detail::reportUnsupported(op, "unranked result");
    if (!isa<FloatType>(resultType.getElementType()))
      return kiln::detail::reportUnsupported(
          op, "non-float element type (only float operands are lowered)");
    SmallVector<AffineMap> maps;
    for (Value operand : adaptor.getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        return kiln::detail::reportUnsupported(op, "unranked operand");
      FailureOr<AffineMap> map = kiln::detail::getBroadcastIndexingMap(
          type.getShape(), resultType.getShape(), rewriter.getContext());
      if (failed(map))
        return kiln::detail::reportUnsupported(
            op, "an operand does not broadcast to the result");
      maps.push_back(*map);
    }
    Value result = kiln::detail::createElementwiseGeneric(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(), maps,
        [](OpBuilder &b, Location loc, ValueRange args) {
          return Fn(b, loc, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tf.StopGradient: its operand (gradients do not exist here).
struct StopGradientOpLowering final
    : OpConversionPattern<tf::StopGradientOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::StopGradientOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return kiln::detail::reportUnsupported(op, "unsupported result type");
    rewriter.replaceOp(op, kiln::detail::castToType(
                               rewriter, op.getLoc(), adaptor.getInput(), type));
    return success();
  }
};

} // namespace

void kiln::detail::populateActivationPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<FloatElementwiseLowering<tf::EluOp, buildElu>,
               FloatElementwiseLowering<tf::SeluOp, buildSelu>,
               FloatElementwiseLowering<tf::SoftplusOp, buildSoftplus>,
               FloatElementwiseLowering<tf::ErfcOp, buildErfc>,
               FloatElementwiseLowering<tf::PowOp, buildPow>,
               StopGradientOpLowering>(typeConverter, patterns.getContext());
}
