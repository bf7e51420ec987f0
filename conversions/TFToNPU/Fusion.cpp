//===- Fusion.cpp - bias and activation folding in NPU segments -*- C++ -*-===//
//
// Inside an fp16 segment, a constant per-channel addition after a
// convolution or fully connected layer is its bias, and a clamp after it
// its activation: NPU-v1 applies both in the VEC pass that converts the
// accumulators, so folding them saves two passes over the tensor.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToNPU/TFToNPU.h"

#include "dialects/NPU/IR/NPUOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_to_npu;

namespace {

/// The convolution-like op (conv2d, depthwise_conv2d, fully_connected)
/// defining \p value when \p value is its only use, or null.
Operation *singleUseMac(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !value.hasOneUse() ||
      !isa<npu::Conv2DOp, npu::DepthwiseConv2DOp, npu::FullyConnectedOp>(def))
    return nullptr;
  return def;
}

/// Operand index of a MAC op's optional bias.
constexpr unsigned kBiasOperand = 2;

/// npu.add(mac, constant [1, ..., 1, C]) -> mac with bias.
struct FoldBiasIntoMac final : OpRewritePattern<npu::AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(npu::AddOp add,
                                PatternRewriter &rewriter) const override {
    Operation *mac = singleUseMac(add.getLhs());
    if (!mac || mac->getNumOperands() > kBiasOperand ||
        mac->getAttr("clamp_min") || mac->getAttr("clamp_max"))
      return rewriter.notifyMatchFailure(add, "lhs is not a bare MAC op");
    auto constant = add.getRhs().getDefiningOp<arith::ConstantOp>();
    auto data = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                         : DenseElementsAttr();
    auto type = cast<RankedTensorType>(add.getRhs().getType());
    int64_t channels = add.getLhs().getType().getShape().back();
    if (!data || type.getShape().empty() ||
        type.getShape().back() != channels ||
        type.getNumElements() != channels)
      return rewriter.notifyMatchFailure(add, "rhs is not a channel vector");
    rewriter.setInsertionPoint(mac);
    auto biasType = RankedTensorType::get({channels}, type.getElementType());
    Value bias = arith::ConstantOp::create(rewriter, constant.getLoc(),
                                           data.reshape(biasType));
    rewriter.modifyOpInPlace(mac, [&] {
      mac->insertOperands(kBiasOperand, ValueRange{bias});
      mac->setLoc(rewriter.getFusedLoc({mac->getLoc(), add.getLoc()}));
    });
    rewriter.replaceOp(add, mac->getResult(0));
    return success();
  }
};

/// npu.clamp(mac) -> mac with clamp bounds.
struct FoldClampIntoMac final : OpRewritePattern<npu::ClampOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(npu::ClampOp clamp,
                                PatternRewriter &rewriter) const override {
    Operation *mac = singleUseMac(clamp.getInput());
    if (!mac || mac->getAttr("clamp_min") || mac->getAttr("clamp_max"))
      return rewriter.notifyMatchFailure(clamp, "input is not a bare MAC op");
    auto min = dyn_cast<FloatAttr>(clamp.getMin());
    auto max = dyn_cast<FloatAttr>(clamp.getMax());
    if (!min || !max)
      return rewriter.notifyMatchFailure(clamp, "not an fp16 clamp");
    rewriter.modifyOpInPlace(mac, [&] {
      if (!std::isinf(min.getValueAsDouble()))
        mac->setAttr("clamp_min", min);
      if (!std::isinf(max.getValueAsDouble()))
        mac->setAttr("clamp_max", max);
      mac->setLoc(rewriter.getFusedLoc({mac->getLoc(), clamp.getLoc()}));
    });
    rewriter.replaceOp(clamp, mac->getResult(0));
    return success();
  }
};

} // namespace

void tf_to_npu::populateNPUFusionPatterns(RewritePatternSet &patterns) {
  patterns.add<FoldBiasIntoMac, FoldClampIntoMac>(patterns.getContext());
}
