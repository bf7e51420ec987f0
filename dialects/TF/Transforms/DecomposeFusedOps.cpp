//===- DecomposeFusedOps.cpp - fused ops to basic tf ops --------*- C++ -*-===//
//
// tf-decompose-fused-ops: _FusedConv2D, _FusedMatMul,
// FusedDepthwiseConv2dNative, FusedBatchNorm(V2|V3) in inference mode and
// Prelu become the basic ops they stand for. Every op a decomposition
// creates carries `kiln.fused_from` (the fused op's name), and the fused
// op's location, so backends can fuse the group again.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::tf {
#define GEN_PASS_DEF_TFDECOMPOSEFUSEDOPSPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;

namespace {

/// Creates the tf op `name` for a decomposition of `fused`.
class Builder {
public:
  Builder(PatternRewriter &rewriter, Operation *fused)
      : rewriter(rewriter), fused(fused),
        element(getElementTypeOrSelf(fused->getResult(0).getType())) {}

  /// An unranked result of the fused op's element type (shape inference
  /// refines it later).
  Type unranked() const { return UnrankedTensorType::get(element); }

  Value create(StringRef name, ValueRange operands, Type type,
               ArrayRef<NamedAttribute> attrs = {}) {
    OperationState state(fused->getLoc(), name);
    state.addOperands(operands);
    state.addTypes(type);
    state.addAttributes(attrs);
    state.addAttribute("kiln.fused_from",
                       rewriter.getStringAttr(fused->getName().getStringRef()));
    return rewriter.create(state)->getResult(0);
  }

  Value scalar(double value) {
    auto type = RankedTensorType::get({}, element);
    Attribute attr = isa<FloatType>(element)
                         ? Attribute(rewriter.getFloatAttr(element, value))
                         : Attribute(rewriter.getIntegerAttr(element, value));
    return create(
        "tf.Const", {}, type,
        {rewriter.getNamedAttr("value", DenseElementsAttr::get(type, attr))});
  }

  PatternRewriter &rewriter;
  Operation *fused;
  Type element;
};

/// The strings of a `fused_ops` attribute.
SmallVector<StringRef> fusedOps(Operation *op) {
  SmallVector<StringRef> names;
  if (auto list = op->getAttrOfType<ArrayAttr>("fused_ops"))
    for (Attribute a : list)
      if (auto s = dyn_cast<StringAttr>(a))
        names.push_back(s.getValue());
  return names;
}

/// Applies the activation `name` (one of TensorFlow's fused activations) to
/// `x`; `alpha` is Prelu's slope operand. Null for an unknown activation.
Value activate(Builder &b, StringRef name, Value x, Value alpha, Type type) {
  if (name == "Relu" || name == "Relu6" || name == "Elu" || name == "Sigmoid" ||
      name == "Tanh")
    return b.create(("tf." + name).str(), {x}, type);
  if (name == "LeakyRelu") {
    auto a = b.fused->getAttrOfType<FloatAttr>("leakyrelu_alpha");
    return b.create("tf.LeakyRelu", {x}, type,
                    {b.rewriter.getNamedAttr(
                        "alpha", a ? a : b.rewriter.getF32FloatAttr(0.2f))});
  }
  if (name == "Prelu" && alpha) {
    // max(x, 0) + alpha * min(x, 0)
    Value zero = b.scalar(0);
    Value pos = b.create("tf.Maximum", {x, zero}, b.unranked());
    Value neg = b.create("tf.Minimum", {x, zero}, b.unranked());
    Value scaled = b.create("tf.Mul", {alpha, neg}, b.unranked());
    return b.create("tf.AddV2", {pos, scaled}, type);
  }
  return nullptr;
}

/// `x` normalized as inference-mode batch norm over its last dimension:
/// x * m + (offset - mean * m), m = scale * rsqrt(variance + epsilon).
Value batchNorm(Builder &b, Value x, Value scale, Value offset, Value mean,
                Value variance, double epsilon, Type type) {
  Value eps = b.scalar(epsilon);
  Value varEps = b.create("tf.AddV2", {variance, eps}, b.unranked());
  Value rsqrt = b.create("tf.Rsqrt", {varEps}, b.unranked());
  Value m = b.create("tf.Mul", {scale, rsqrt}, b.unranked());
  Value xm = b.create("tf.Mul", {x, m}, b.unranked());
  Value meanM = b.create("tf.Mul", {mean, m}, b.unranked());
  Value shift = b.create("tf.Sub", {offset, meanM}, b.unranked());
  return b.create("tf.AddV2", {xm, shift}, type);
}

/// The attributes of `op` named in `names` (those the basic op shares).
SmallVector<NamedAttribute> keepAttrs(Operation *op,
                                      ArrayRef<StringRef> names) {
  SmallVector<NamedAttribute> attrs;
  for (StringRef name : names)
    if (Attribute a = op->getAttr(name))
      attrs.emplace_back(StringAttr::get(op->getContext(), name), a);
  return attrs;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// _FusedConv2D, FusedDepthwiseConv2dNative, _FusedMatMul: the core op, then
/// BiasAdd or FusedBatchNorm, then an optional activation.
struct DecomposeFusedContraction final : RewritePattern {
  DecomposeFusedContraction(MLIRContext *ctx, StringRef opName,
                            StringRef coreName, ArrayRef<StringRef> coreAttrs)
      : RewritePattern(opName, /*benefit=*/1, ctx), coreName(coreName),
        coreAttrs(coreAttrs.begin(), coreAttrs.end()) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    SmallVector<StringRef> ops = fusedOps(op);
    ValueRange args = op->getOperands().drop_front(2);
    if (ops.empty())
      return rewriter.notifyMatchFailure(op, "no fused_ops");
    bool norm = ops.front() == "FusedBatchNorm";
    bool bias = ops.front() == "BiasAdd";
    unsigned used = norm ? 4 : bias ? 1 : 0;
    StringRef activation =
        ops.size() > (used ? 1u : 0u) ? ops[used ? 1 : 0] : StringRef();
    if (ops.size() > (used ? 2u : 1u) || (!norm && !bias && activation.empty()))
      return rewriter.notifyMatchFailure(op, "unsupported fused_ops list");
    if (args.size() < used + (activation == "Prelu" ? 1 : 0))
      return rewriter.notifyMatchFailure(op, "too few fused arguments");
    // Checked before any IR is created: a pattern must not fail after that.
    if (!activation.empty() &&
        !llvm::is_contained(
            {"Relu", "Relu6", "Elu", "Sigmoid", "Tanh", "LeakyRelu", "Prelu"},
            activation))
      return rewriter.notifyMatchFailure(op, "unknown activation");
    if (norm && op->getAttrOfType<StringAttr>("data_format") &&
        op->getAttrOfType<StringAttr>("data_format").getValue() != "NHWC")
      return rewriter.notifyMatchFailure(op, "batch norm needs NHWC");

    Builder b(rewriter, op);
    Type resultType = op->getResult(0).getType();
    SmallVector<StringRef> attrNames(coreAttrs.begin(), coreAttrs.end());
    Value x = b.create(coreName, {op->getOperand(0), op->getOperand(1)},
                       used || !activation.empty() ? b.unranked() : resultType,
                       keepAttrs(op, attrNames));
    Type afterNorm = activation.empty() ? resultType : b.unranked();
    if (bias)
      x = b.create("tf.BiasAdd", {x, args[0]}, afterNorm,
                   keepAttrs(op, {"data_format"}));
    if (norm) {
      auto eps = op->getAttrOfType<FloatAttr>("epsilon");
      x = batchNorm(b, x, args[0], args[1], args[2], args[3],
                    eps ? eps.getValueAsDouble() : 1e-3, afterNorm);
    }
    if (!activation.empty()) {
      Value alpha = activation == "Prelu" ? args[used] : Value();
      x = activate(b, activation, x, alpha, resultType);
    }
    rewriter.replaceOp(op, x);
    return success();
  }

  std::string coreName;
  SmallVector<StringRef> coreAttrs;
};

/// FusedBatchNorm(V2|V3) for inference: y as above; the batch statistics
/// are the given mean and variance.
struct DecomposeFusedBatchNorm final : RewritePattern {
  DecomposeFusedBatchNorm(MLIRContext *ctx, StringRef name)
      : RewritePattern(name, /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto training = op->getAttrOfType<BoolAttr>("is_training");
    if (!training || training.getValue())
      return rewriter.notifyMatchFailure(op, "training mode");
    auto format = op->getAttrOfType<StringAttr>("data_format");
    if (format && format.getValue() != "NHWC")
      return rewriter.notifyMatchFailure(op, "only NHWC");
    for (OpResult reserve : op->getResults().drop_front(3))
      if (!reserve.use_empty())
        return rewriter.notifyMatchFailure(op, "reserve space is used");
    Builder b(rewriter, op);
    auto eps = op->getAttrOfType<FloatAttr>("epsilon");
    Value y = batchNorm(b, op->getOperand(0), op->getOperand(1),
                        op->getOperand(2), op->getOperand(3), op->getOperand(4),
                        eps ? eps.getValueAsDouble() : 1e-4,
                        op->getResult(0).getType());
    rewriter.replaceAllUsesWith(op->getResult(0), y);
    rewriter.replaceAllUsesWith(op->getResult(1), op->getOperand(3));
    rewriter.replaceAllUsesWith(op->getResult(2), op->getOperand(4));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Prelu(x, alpha) = max(x, 0) + alpha * min(x, 0).
struct DecomposePrelu final : RewritePattern {
  explicit DecomposePrelu(MLIRContext *ctx)
      : RewritePattern("tf.Prelu", /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Builder b(rewriter, op);
    Value y = activate(b, "Prelu", op->getOperand(0), op->getOperand(1),
                       op->getResult(0).getType());
    rewriter.replaceOp(op, y);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TFDecomposeFusedOpsPass final
    : kiln::tf::impl::TFDecomposeFusedOpsPassBase<TFDecomposeFusedOpsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    RewritePatternSet set(ctx);
    static constexpr StringRef kConvAttrs[] = {
        "strides", "padding", "explicit_paddings", "data_format", "dilations"};
    set.add<DecomposeFusedContraction>(ctx, "tf._FusedConv2D", "tf.Conv2D",
                                       kConvAttrs);
    set.add<DecomposeFusedContraction>(ctx, "tf.FusedDepthwiseConv2dNative",
                                       "tf.DepthwiseConv2dNative", kConvAttrs);
    static constexpr StringRef kMatMulAttrs[] = {"transpose_a", "transpose_b"};
    set.add<DecomposeFusedContraction>(ctx, "tf._FusedMatMul", "tf.MatMul",
                                       kMatMulAttrs);
    for (StringRef name :
         {"tf.FusedBatchNorm", "tf.FusedBatchNormV2", "tf.FusedBatchNormV3"})
      set.add<DecomposeFusedBatchNorm>(ctx, name);
    set.add<DecomposePrelu>(ctx);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    if (failed(applyPatternsGreedily(getOperation(), patterns)))
      return signalPassFailure();
    // What stays fused could not be decomposed: say why, per op.
    bool left = false;
    getOperation()->walk([&](Operation *op) {
      StringRef name = op->getName().getStringRef();
      if (!llvm::is_contained({"tf._FusedConv2D", "tf._FusedMatMul",
                               "tf.FusedDepthwiseConv2dNative"},
                              name))
        return;
      SmallVector<StringRef> ops = fusedOps(op);
      InFlightDiagnostic diag = op->emitError("cannot decompose fused_ops [");
      llvm::interleaveComma(ops, diag);
      diag << "]";
      left = true;
    });
    if (left)
      signalPassFailure();
  }

  FrozenRewritePatternSet patterns;
};

} // namespace
