//===- DecomposeTrainingOps.cpp - training ops to basic tf ops --*- C++ -*-===//
//
// tf-decompose-training-ops: the gradient ops and optimizer updates of TF1
// training steps become the basic tf ops (and variable reads and
// assignments) that compute the same values, in the order TensorFlow's CPU
// kernels compute them.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::tf {
#define GEN_PASS_DEF_TFDECOMPOSETRAININGOPSPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;

namespace {

/// Creates the tf ops of one decomposition, at the decomposed op's location,
/// with unranked results of `element` unless told otherwise (shape
/// inference refines them).
class Emitter {
public:
  Emitter(PatternRewriter &rewriter, Operation *op, Type element)
      : rewriter(rewriter), op(op), element(element) {}

  Value create(StringRef name, ValueRange operands, Type type = {},
               ArrayRef<NamedAttribute> attrs = {}) {
    OperationState state(op->getLoc(), name);
    state.addOperands(operands);
    if (!type)
      type = UnrankedTensorType::get(element);
    state.addTypes(type);
    state.addAttributes(attrs);
    return rewriter.create(state)->getResult(0);
  }

  /// `v` as `type`: through a tf.Identity when the types differ (an
  /// unranked intermediate standing for a ranked result, whose users'
  /// verifiers need its shape).
  Value as(Value v, Type type) {
    return v.getType() == type ? v : create("tf.Identity", {v}, type);
  }

  Value add(Value a, Value b) { return create("tf.AddV2", {a, b}); }
  Value sub(Value a, Value b) { return create("tf.Sub", {a, b}); }
  Value mul(Value a, Value b) { return create("tf.Mul", {a, b}); }
  Value div(Value a, Value b) { return create("tf.RealDiv", {a, b}); }

  /// A scalar constant of the element type.
  Value scalar(double value) {
    auto type = RankedTensorType::get({}, element);
    return create("tf.Const", {}, type,
                  {rewriter.getNamedAttr(
                      "value", DenseElementsAttr::get(
                                   type, rewriter.getFloatAttr(element, value)))});
  }

  /// An i32 vector constant (reduction axes).
  Value axes(ArrayRef<int32_t> values) {
    auto type = RankedTensorType::get({(int64_t)values.size()},
                                      rewriter.getI32Type());
    return create("tf.Const", {}, type,
                  {rewriter.getNamedAttr(
                      "value", DenseElementsAttr::get(type, values))});
  }

  /// Sum or Mean (`name`) of `x` along `axes`.
  Value reduce(StringRef name, Value x, ArrayRef<int32_t> along,
               bool keepDims, Type type = {}) {
    return create(name, {x, axes(along)}, type,
                  {rewriter.getNamedAttr("keep_dims",
                                         rewriter.getBoolAttr(keepDims))});
  }

  /// The value of the resource variable `handle`, typed by its subtype when
  /// it has one, else like `like`.
  Value read(Value handle, Value like) {
    Type type = like.getType();
    if (auto tensor = dyn_cast<TensorType>(handle.getType()))
      if (auto resource =
              dyn_cast<tf_type::ResourceType>(tensor.getElementType()))
        if (resource.getSubtypes().size() == 1)
          type = resource.getSubtypes().front();
    return create("tf.ReadVariableOp", {handle}, type);
  }

  void assign(Value handle, Value value) {
    OperationState state(op->getLoc(), "tf.AssignVariableOp");
    state.addOperands({handle, value});
    rewriter.create(state);
  }

  PatternRewriter &rewriter;
  Operation *op;
  Type element;
};

Type elementOf(Value v) { return getElementTypeOrSelf(v.getType()); }

/// ReluGrad(g, f) = select(f > 0, g, 0).
struct DecomposeReluGrad final : OpRewritePattern<tf::ReluGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::ReluGradOp op,
                                PatternRewriter &rewriter) const override {
    Type element = elementOf(op.getFeatures());
    if (!isa<FloatType>(element))
      return rewriter.notifyMatchFailure(op, "integer ReluGrad");
    Emitter e(rewriter, op, element);
    Value positive = e.create(
        "tf.Greater", {op.getFeatures(), e.scalar(0)},
        UnrankedTensorType::get(rewriter.getI1Type()));
    Value r = e.create("tf.SelectV2", {positive, op.getGradients(), e.scalar(0)},
                       op.getType());
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// RsqrtGrad(y, dy) = -0.5 * (dy * y) * (y * y).
struct DecomposeRsqrtGrad final : OpRewritePattern<tf::RsqrtGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::RsqrtGradOp op,
                                PatternRewriter &rewriter) const override {
    Type element = elementOf(op.getY());
    if (!isa<FloatType>(element))
      return rewriter.notifyMatchFailure(op, "complex RsqrtGrad");
    Emitter e(rewriter, op, element);
    Value y = op.getY();
    Value r = e.create("tf.Mul",
                       {e.mul(e.scalar(-0.5), e.mul(op.getDy(), y)), e.mul(y, y)},
                       op.getType());
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// TanhGrad(y, dy) = dy * (1 - y * y) and SigmoidGrad(y, dy) =
/// (dy * y) * (1 - y), in the order of TensorFlow's CPU kernels (the
/// gradients of TF1 RNN cells). The two ops are not in the tf op list
/// (ops.txt), so the importer makes them as unregistered `tf.` ops, matched
/// here by name: y and dy operands, one result.
struct DecomposeActivationGrad final : RewritePattern {
  DecomposeActivationGrad(MLIRContext *ctx, StringRef name)
      : RewritePattern(name, /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumOperands() != 2 || op->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "not (y, dy) -> one result");
    Value y = op->getOperand(0), dy = op->getOperand(1);
    Type element = elementOf(y);
    if (!isa<FloatType>(element))
      return rewriter.notifyMatchFailure(op, "not a float gradient");
    Emitter e(rewriter, op, element);
    Value r;
    if (op->getName().getStringRef() == "tf.TanhGrad")
      r = e.create("tf.Mul", {dy, e.sub(e.scalar(1), e.mul(y, y))},
                   op->getResult(0).getType());
    else
      r = e.create("tf.Mul", {e.mul(dy, y), e.sub(e.scalar(1), y)},
                   op->getResult(0).getType());
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// InvertPermutation(p) of a constant p (the gradient of a Transpose, such as
/// dynamic_rnn's to and from time-major): the constant q with q[p[i]] = i.
/// Not in the tf op list either: matched by name.
struct FoldInvertPermutation final : RewritePattern {
  explicit FoldInvertPermutation(MLIRContext *ctx)
      : RewritePattern("tf.InvertPermutation", /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    DenseIntElementsAttr perm;
    if (op->getNumOperands() != 1 || op->getNumResults() != 1 ||
        !matchPattern(op->getOperand(0), m_Constant(&perm)))
      return rewriter.notifyMatchFailure(op, "not a constant permutation");
    auto type = cast<RankedTensorType>(perm.getType());
    int64_t n = perm.getNumElements();
    SmallVector<APInt> inverse(n, APInt(type.getElementTypeBitWidth(), 0));
    for (auto [i, value] : llvm::enumerate(perm.getValues<APInt>())) {
      int64_t at = value.getSExtValue();
      if (at < 0 || at >= n)
        return rewriter.notifyMatchFailure(op, "not a permutation");
      inverse[at] = APInt(type.getElementTypeBitWidth(), i);
    }
    Emitter e(rewriter, op, type.getElementType());
    Value r = e.create("tf.Const", {}, type,
                       {rewriter.getNamedAttr(
                           "value", DenseElementsAttr::get(type, inverse))});
    rewriter.replaceOp(op, e.as(r, op->getResult(0).getType()));
    return success();
  }
};

/// With s = x - max(x) and z = sum(exp(s)) per row:
/// loss = sum(labels * (log(z) - s)), backprop = exp(s) / z - labels.
struct DecomposeSoftmaxCrossEntropy final
    : OpRewritePattern<tf::SoftmaxCrossEntropyWithLogitsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::SoftmaxCrossEntropyWithLogitsOp op,
                                PatternRewriter &rewriter) const override {
    Emitter e(rewriter, op, elementOf(op.getFeatures()));
    Value x = op.getFeatures(), labels = op.getLabels();
    Value s = e.sub(x, e.reduce("tf.Max", x, {1}, true));
    Value exp = e.create("tf.Exp", {s});
    Value z = e.reduce("tf.Sum", exp, {1}, true);
    Value terms = e.mul(labels, e.sub(e.create("tf.Log", {z}), s));
    Value loss = e.reduce("tf.Sum", terms, {1}, false, op.getLoss().getType());
    Value backprop = e.create("tf.Sub", {e.div(exp, z), labels},
                              op.getBackprop().getType());
    rewriter.replaceOp(op, {loss, backprop});
    return success();
  }
};

/// LogSoftmax(x) = s - log(sum(exp(s))) with s = x - max(x), along the
/// last dimension.
struct DecomposeLogSoftmax final : OpRewritePattern<tf::LogSoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::LogSoftmaxOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getLogits().getType());
    if (!type || type.getRank() < 1)
      return rewriter.notifyMatchFailure(op, "unranked logits");
    int32_t last = type.getRank() - 1;
    Emitter e(rewriter, op, type.getElementType());
    Value x = op.getLogits();
    Value s = e.sub(x, e.reduce("tf.Max", x, {last}, true));
    Value z = e.reduce("tf.Sum", e.create("tf.Exp", {s}), {last}, true);
    Value r = e.create("tf.Sub", {s, e.create("tf.Log", {z})}, op.getType());
    rewriter.replaceOp(op, r);
    return success();
  }
};

/// ShapeN = one Shape per operand.
struct DecomposeShapeN final : OpRewritePattern<tf::ShapeNOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::ShapeNOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> shapes;
    for (auto [input, result] : llvm::zip(op.getInput(), op.getOutput())) {
      Emitter e(rewriter, op, elementOf(result));
      shapes.push_back(e.create("tf.Shape", {input}, result.getType()));
    }
    rewriter.replaceOp(op, shapes);
    return success();
  }
};

/// ConcatOffset(dim, s0, ..., sN-1): offset i = (s0 + ... + si-1) * mask,
/// mask one at `dim` (taken modulo the rank, as TensorFlow allows a negative
/// one) and zero elsewhere. ConcatV2's gradient slices with these offsets.
struct DecomposeConcatOffset final : OpRewritePattern<tf::ConcatOffsetOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::ConcatOffsetOp op,
                                PatternRewriter &rewriter) const override {
    auto shapeType = dyn_cast<RankedTensorType>(op.getShape()[0].getType());
    if (!shapeType || shapeType.getRank() != 1 || shapeType.isDynamicDim(0))
      return rewriter.notifyMatchFailure(op, "shape of unknown rank");
    Type element = shapeType.getElementType();
    int64_t rank = shapeType.getDimSize(0);
    Emitter e(rewriter, op, element);
    auto scalarType = RankedTensorType::get({}, element);
    auto vectorType = RankedTensorType::get({rank}, element);
    auto intConst = [&](Type type, ArrayRef<int64_t> values) {
      auto tensor = cast<ShapedType>(type);
      SmallVector<APInt> ints;
      for (int64_t v : values)
        ints.push_back(APInt(element.getIntOrFloatBitWidth(), v, true));
      return e.create("tf.Const", {}, type,
                      {rewriter.getNamedAttr(
                          "value", DenseElementsAttr::get(tensor, ints))});
    };
    SmallVector<int64_t> iotaValues;
    for (int64_t i = 0; i < rank; ++i)
      iotaValues.push_back(i);
    Value iota = intConst(vectorType, iotaValues);
    Value dim = e.create("tf.Cast", {op.getConcatDim()}, scalarType);
    dim = e.create("tf.FloorMod", {dim, intConst(scalarType, {rank})},
                   scalarType);
    Value hit = e.create("tf.Equal", {iota, dim},
                         vectorType.clone(rewriter.getI1Type()));
    Value mask = e.create("tf.Cast", {hit}, vectorType);
    SmallVector<Value> offsets;
    Value sum = intConst(vectorType, SmallVector<int64_t>(rank, 0));
    for (unsigned i = 0, n = op.getShape().size(); i < n; ++i) {
      if (i != 0)
        sum = e.create("tf.AddV2", {sum, op.getShape()[i - 1]}, vectorType);
      offsets.push_back(e.as(e.create("tf.Mul", {sum, mask}, vectorType),
                             op.getOffset()[i].getType()));
    }
    rewriter.replaceOp(op, offsets);
    return success();
  }
};

/// BiasAddGrad = Sum over every dimension but the channel one.
struct DecomposeBiasAddGrad final : OpRewritePattern<tf::BiasAddGradOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::BiasAddGradOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getOutBackprop().getType());
    if (!type || type.getRank() < 2)
      return rewriter.notifyMatchFailure(op, "unranked out_backprop");
    int64_t channel = op.getDataFormat() == "NCHW" ? 1 : type.getRank() - 1;
    SmallVector<int32_t> along;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (i != channel)
        along.push_back(i);
    Emitter e(rewriter, op, type.getElementType());
    Value sum = e.create("tf.Sum", {op.getOutBackprop(), e.axes(along)},
                         op.getType(),
                         {rewriter.getNamedAttr("keep_dims",
                                                rewriter.getBoolAttr(false))});
    rewriter.replaceOp(op, sum);
    return success();
  }
};

/// AssignAddVariableOp / AssignSubVariableOp: read, add or subtract, assign.
template <typename OpTy>
struct DecomposeAssignUpdate final : OpRewritePattern<OpTy> {
  DecomposeAssignUpdate(MLIRContext *ctx, StringRef arithmetic)
      : OpRewritePattern<OpTy>(ctx), arithmetic(arithmetic) {}
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Emitter e(rewriter, op, elementOf(op.getValue()));
    Value var = e.read(op.getResource(), op.getValue());
    e.assign(op.getResource(), e.create(arithmetic, {var, op.getValue()}));
    rewriter.eraseOp(op);
    return success();
  }
  std::string arithmetic;
};

/// var -= delta * alpha.
struct DecomposeApplyGradientDescent final
    : OpRewritePattern<tf::ResourceApplyGradientDescentOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::ResourceApplyGradientDescentOp op,
                                PatternRewriter &rewriter) const override {
    Emitter e(rewriter, op, elementOf(op.getDelta()));
    Value var = e.read(op.getVar(), op.getDelta());
    e.assign(op.getVar(),
             e.sub(var, e.mul(op.getDelta(), op.getAlpha())));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Adam, as TensorFlow's CPU kernel computes it (see the op's description).
struct DecomposeApplyAdam final : OpRewritePattern<tf::ResourceApplyAdamOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::ResourceApplyAdamOp op,
                                PatternRewriter &rewriter) const override {
    Emitter e(rewriter, op, elementOf(op.getGrad()));
    Value grad = op.getGrad();
    Value one = e.scalar(1);
    Value alpha =
        e.div(e.mul(op.getLr(),
                    e.create("tf.Sqrt", {e.sub(one, op.getBeta2Power())})),
              e.sub(one, op.getBeta1Power()));
    Value m = e.read(op.getM(), grad);
    Value v = e.read(op.getV(), grad);
    Value var = e.read(op.getVar(), grad);
    Value oneMinusBeta1 = e.sub(one, op.getBeta1());
    Value newM = e.add(m, e.mul(e.sub(grad, m), oneMinusBeta1));
    Value newV = e.add(
        v, e.mul(e.sub(e.mul(grad, grad), v), e.sub(one, op.getBeta2())));
    e.assign(op.getM(), newM);
    e.assign(op.getV(), newV);
    Value numerator =
        op.getUseNesterov()
            ? e.mul(e.add(e.mul(grad, oneMinusBeta1), e.mul(op.getBeta1(), newM)),
                    alpha)
            : e.mul(newM, alpha);
    Value denominator = e.add(e.create("tf.Sqrt", {newV}), op.getEpsilon());
    e.assign(op.getVar(), e.sub(var, e.div(numerator, denominator)));
    rewriter.eraseOp(op);
    return success();
  }
};

/// The number of elements per channel of an NHWC tensor, or failure.
FailureOr<int64_t> restSize(Value x) {
  auto type = dyn_cast<RankedTensorType>(x.getType());
  if (!type || type.getRank() != 4 || !type.hasStaticShape())
    return failure();
  return type.getDimSize(0) * type.getDimSize(1) * type.getDimSize(2);
}

/// True when `op`'s data_format is NHWC (the default).
bool isNHWC(Operation *op) {
  auto format = op->getAttrOfType<StringAttr>("data_format");
  return !format || format.getValue() == "NHWC";
}

double epsilonOf(Operation *op) {
  auto eps = op->getAttrOfType<FloatAttr>("epsilon");
  return eps ? eps.getValueAsDouble() : 1e-4;
}

/// An empty [0] f32 tensor (the reserve spaces no CPU kernel reads).
Value emptyReserve(Emitter &e) {
  auto type = RankedTensorType::get({0}, e.rewriter.getF32Type());
  return e.create("tf.Const", {}, type,
                  {e.rewriter.getNamedAttr(
                      "value", DenseElementsAttr::get(type, ArrayRef<float>{}))});
}

/// FusedBatchNormV3 with is_training (NHWC, static shape): the batch mean
/// and biased variance per channel normalize x; batch_variance is the
/// unbiased variance (blended with the given statistics by
/// exponential_avg_factor); the reserve spaces hold the batch mean and
/// biased variance for the gradient.
struct DecomposeBatchNormTraining final
    : OpRewritePattern<tf::FusedBatchNormV3Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::FusedBatchNormV3Op op,
                                PatternRewriter &rewriter) const override {
    if (!op.getIsTraining())
      return rewriter.notifyMatchFailure(op, "inference mode");
    FailureOr<int64_t> rest = restSize(op.getX());
    if (!isNHWC(op) || failed(rest) || *rest < 2 ||
        !elementOf(op.getX()).isF32())
      return rewriter.notifyMatchFailure(op, "needs static NHWC f32");
    Emitter e(rewriter, op, rewriter.getF32Type());
    Value x = op.getX();
    Value mean = e.reduce("tf.Mean", x, {0, 1, 2}, false);
    Value centered = e.sub(x, mean);
    Value var =
        e.reduce("tf.Mean", e.mul(centered, centered), {0, 1, 2}, false);
    Value factor = e.mul(
        e.create("tf.Rsqrt", {e.add(var, e.scalar(epsilonOf(op)))}),
        op.getScale());
    Value y = e.create("tf.AddV2", {e.mul(centered, factor), op.getOffset()},
                       op.getY().getType());
    Value unbiased = e.mul(var, e.scalar(double(*rest) / double(*rest - 1)));
    Value newMean = mean, newVar = unbiased;
    double f = op.getExponentialAvgFactor().convertToDouble();
    if (f != 1.0) {
      Value keep = e.scalar(1.0 - f), take = e.scalar(f);
      newMean = e.add(e.mul(op.getMean(), keep), e.mul(mean, take));
      newVar = e.add(e.mul(op.getVariance(), keep), e.mul(unbiased, take));
    }
    rewriter.replaceOp(op, {y, e.as(newMean, op.getBatchMean().getType()),
                            e.as(newVar, op.getBatchVariance().getType()),
                            e.as(mean, op.getReserveSpace_1().getType()),
                            e.as(var, op.getReserveSpace_2().getType()),
                            e.as(emptyReserve(e),
                                 op.getReserveSpace_3().getType())});
    return success();
  }
};

/// FusedBatchNormV3 for inference whose reserve spaces a gradient reads:
/// they are the given mean and variance (reserve_space_3 is empty), so the
/// op is left with unused reserve spaces for tf-decompose-fused-ops.
struct ForwardBatchNormReserves final
    : OpRewritePattern<tf::FusedBatchNormV3Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::FusedBatchNormV3Op op,
                                PatternRewriter &rewriter) const override {
    if (op.getIsTraining())
      return rewriter.notifyMatchFailure(op, "training mode");
    if (llvm::all_of(op->getResults().drop_front(3),
                     [](Value v) { return v.use_empty(); }))
      return rewriter.notifyMatchFailure(op, "reserve spaces unused");
    Emitter e(rewriter, op, rewriter.getF32Type());
    rewriter.replaceAllUsesWith(
        op.getReserveSpace_1(),
        e.as(op.getMean(), op.getReserveSpace_1().getType()));
    rewriter.replaceAllUsesWith(
        op.getReserveSpace_2(),
        e.as(op.getVariance(), op.getReserveSpace_2().getType()));
    rewriter.replaceAllUsesWith(
        op.getReserveSpace_3(),
        e.as(emptyReserve(e), op.getReserveSpace_3().getType()));
    return success();
  }
};

/// FusedBatchNormGradV3 (NHWC, static shape), with c = rsqrt(var + eps):
/// training: dx = scale * c * (dy - mean(dy) - (x - m) * mean(dy * (x - m))
/// * c^2); inference: dx = dy * scale * c; in both, dscale = sum(dy * (x -
/// m)) * c and doffset = sum(dy).
struct DecomposeBatchNormGrad final
    : OpRewritePattern<tf::FusedBatchNormGradV3Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tf::FusedBatchNormGradV3Op op,
                                PatternRewriter &rewriter) const override {
    FailureOr<int64_t> rest = restSize(op.getX());
    if (!isNHWC(op) || failed(rest) || !elementOf(op.getX()).isF32())
      return rewriter.notifyMatchFailure(op, "needs static NHWC f32");
    Emitter e(rewriter, op, rewriter.getF32Type());
    Value dy = op.getYBackprop(), x = op.getX();
    Value c = e.create("tf.Rsqrt", {e.add(op.getReserveSpace_2(),
                                          e.scalar(epsilonOf(op)))});
    Value centered = e.sub(x, op.getReserveSpace_1());
    Value offsetGrad = e.reduce("tf.Sum", dy, {0, 1, 2}, false,
                                op.getOffsetBackprop().getType());
    Value dyCentered = e.reduce("tf.Sum", e.mul(dy, centered), {0, 1, 2}, false);
    Value scaleGrad = e.create("tf.Mul", {dyCentered, c},
                               op.getScaleBackprop().getType());
    Value coef = e.mul(op.getScale(), c);
    Value xGrad;
    if (op.getIsTraining()) {
      Value inv = e.scalar(1.0 / double(*rest));
      Value dyMean = e.mul(offsetGrad, inv);
      Value proj = e.mul(e.mul(centered, e.mul(dyCentered, inv)), e.mul(c, c));
      xGrad = e.create("tf.Mul", {coef, e.sub(e.sub(dy, dyMean), proj)},
                       op.getXBackprop().getType());
    } else {
      xGrad = e.create("tf.Mul", {dy, coef}, op.getXBackprop().getType());
    }
    rewriter.replaceOp(
        op, {xGrad, scaleGrad, offsetGrad,
             e.as(emptyReserve(e), op.getReserveSpace_4().getType()),
             e.as(emptyReserve(e), op.getReserveSpace_5().getType())});
    return success();
  }
};

struct TFDecomposeTrainingOpsPass final
    : kiln::tf::impl::TFDecomposeTrainingOpsPassBase<
          TFDecomposeTrainingOpsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    RewritePatternSet set(ctx);
    set.add<DecomposeReluGrad, DecomposeRsqrtGrad, DecomposeSoftmaxCrossEntropy,
            DecomposeShapeN, DecomposeApplyGradientDescent, DecomposeApplyAdam,
            DecomposeBatchNormTraining, DecomposeBatchNormGrad,
            ForwardBatchNormReserves, DecomposeBiasAddGrad, DecomposeLogSoftmax,
            DecomposeConcatOffset>(
        ctx);
    set.add<FoldInvertPermutation>(ctx);
    set.add<DecomposeActivationGrad>(ctx, "tf.TanhGrad");
    set.add<DecomposeActivationGrad>(ctx, "tf.SigmoidGrad");
    set.add<DecomposeAssignUpdate<tf::AssignAddVariableOp>>(ctx, "tf.AddV2");
    set.add<DecomposeAssignUpdate<tf::AssignSubVariableOp>>(ctx, "tf.Sub");
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), patterns)))
      signalPassFailure();
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
