//===- NPUCost.cpp - cost estimates of npu operations -----------*- C++ -*-===//
//
// NPUCostOpInterface for every npu operation: useful MACs, and the MAC, VEC
// and DRAM cycles at the target's peak rates (docs/npu-isa.md §8). The
// estimate is their maximum, a lower bound of the run time.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUCost.h"
#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPU/IR/NPUVerifyUtils.h"

#include <algorithm>

using namespace mlir;
using namespace kiln::npu;
using namespace kiln::npu::detail;

//===----------------------------------------------------------------------===//
// Formulas
//===----------------------------------------------------------------------===//

static uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

llvm::StringRef kiln::npu::costBoundName(CostBound bound) {
  switch (bound) {
  case CostBound::MAC:
    return "MAC";
  case CostBound::VEC:
    return "VEC";
  case CostBound::DRAM:
    return "DRAM";
  }
  return "";
}

uint64_t CostEstimate::estimate() const {
  return std::max({macCycles, vecCycles, dramCycles});
}

CostBound CostEstimate::bound() const {
  uint64_t best = estimate();
  if (macCycles == best)
    return CostBound::MAC;
  if (vecCycles == best)
    return CostBound::VEC;
  return CostBound::DRAM;
}

uint64_t kiln::npu::convMacCycles(const TargetConfig &config, uint64_t images,
                                  uint64_t pixels, uint64_t kh, uint64_t kw,
                                  uint64_t inChannels, uint64_t outChannels,
                                  bool fp16) {
  uint64_t rowPasses = ceilDiv(16 * channelBlocks(inChannels), config.macRows);
  uint64_t colPasses = ceilDiv(16 * channelBlocks(outChannels), config.macCols);
  return images * (fp16 ? 2 : 1) * kh * kw * rowPasses * colPasses *
         std::max<uint64_t>(pixels, config.macWeightLoadCycles);
}

uint64_t kiln::npu::depthwiseMacCycles(const TargetConfig &config,
                                       uint64_t paddedMacs, bool fp16) {
  uint64_t perCycle =
      std::max<uint64_t>(config.macRows * config.macCols / 8, 1);
  return (fp16 ? 2 : 1) * ceilDiv(paddedMacs, perCycle);
}

uint64_t kiln::npu::vecCycles(const TargetConfig &config, uint64_t pixels,
                              uint64_t channels, uint64_t passes,
                              uint64_t window) {
  return passes * ceilDiv(pixels * 16 * channelBlocks(channels) * window,
                          config.vecLanes);
}

uint64_t kiln::npu::dramCycles(const TargetConfig &config, uint64_t bytes) {
  return ceilDiv(bytes, config.dmaDramBytesPerCycle);
}

TargetConfig kiln::npu::targetConfigFor(Operation *op) {
  if (TargetAttr target = lookupTarget(op))
    return target.getConfig();
  absl::StatusOr<TargetConfig> config = TargetConfig::preset("default");
  return config.ok() ? *config : TargetConfig();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Pixels (every dimension but the last) and channels (the last) of \p type.
static std::pair<uint64_t, uint64_t> pixelsAndChannels(Type type) {
  auto shaped = cast<ShapedType>(type);
  if (shaped.getRank() == 0)
    return {1, 1};
  uint64_t channels = shaped.getShape().back();
  return {shaped.getNumElements() / std::max<uint64_t>(channels, 1), channels};
}

/// Bytes of every operand and result tensor of \p op.
static uint64_t operandBytes(Operation *op) {
  uint64_t bytes = 0;
  for (Type type : op->getOperandTypes())
    bytes += tensorBytes(type);
  for (Type type : op->getResultTypes())
    bytes += tensorBytes(type);
  return bytes;
}

/// A VEC-only operation of \p passes passes over its output, \p window
/// element operations each, moving \p extraBytes besides its tensors.
static CostEstimate vecOnlyCost(Operation *op, const TargetConfig &config,
                                uint64_t passes, uint64_t window = 1,
                                uint64_t extraBytes = 0) {
  CostEstimate cost;
  auto [pixels, channels] = pixelsAndChannels(op->getResult(0).getType());
  cost.vecCycles = vecCycles(config, pixels, channels, passes, window);
  cost.dramBytes = operandBytes(op) + extraBytes;
  cost.dramCycles = dramCycles(config, cost.dramBytes);
  return cost;
}

/// VEC passes after a MAC operation: int8 needs one VEC_REQUANT (bias,
/// scale, clamp in one); fp16 converts the f32 accumulators, then adds the
/// bias and clamps in passes of their own. Returns the passes and the bytes
/// of per-channel records (16 per output channel for int8) that replace the
/// bias in DRAM.
static std::pair<uint64_t, uint64_t>
macEpilogue(bool fp16, Value bias, bool clamp, uint64_t channels) {
  if (!fp16)
    return {1, 16 * channels - (bias ? tensorBytes(bias.getType()) : 0)};
  return {1 + (bias ? 1 : 0) + (clamp ? 1 : 0), 0};
}

//===----------------------------------------------------------------------===//
// MAC operations
//===----------------------------------------------------------------------===//

CostEstimate Conv2DOp::estimateCost(const TargetConfig &config) {
  ArrayRef<int64_t> w = getWeight().getType().getShape();
  ArrayRef<int64_t> out = getOutput().getType().getShape();
  bool fp16 = isF16(getInput().getType());
  CostEstimate cost;
  uint64_t pixels = out[1] * out[2];
  cost.usefulMacs = out[0] * pixels * w[0] * w[1] * w[2] * w[3];
  cost.macCycles =
      convMacCycles(config, out[0], pixels, w[0], w[1], w[2], w[3], fp16);
  auto [passes, records] = macEpilogue(
      fp16, getBias(), getClampMinAttr() || getClampMaxAttr(), w[3]);
  cost.vecCycles = vecCycles(config, out[0] * pixels, w[3], passes);
  cost.dramBytes = operandBytes(*this) + records;
  cost.dramCycles = dramCycles(config, cost.dramBytes);
  return cost;
}

CostEstimate DepthwiseConv2DOp::estimateCost(const TargetConfig &config) {
  ArrayRef<int64_t> w = getWeight().getType().getShape();
  ArrayRef<int64_t> out = getOutput().getType().getShape();
  bool fp16 = isF16(getInput().getType());
  CostEstimate cost;
  uint64_t windows = out[0] * out[1] * out[2] * w[0] * w[1];
  cost.usefulMacs = windows * out[3];
  cost.macCycles =
      depthwiseMacCycles(config, windows * 16 * channelBlocks(out[3]), fp16);
  auto [passes, records] = macEpilogue(
      fp16, getBias(), getClampMinAttr() || getClampMaxAttr(), out[3]);
  cost.vecCycles = vecCycles(config, out[0] * out[1] * out[2], out[3], passes);
  cost.dramBytes = operandBytes(*this) + records;
  cost.dramCycles = dramCycles(config, cost.dramBytes);
  return cost;
}

CostEstimate FullyConnectedOp::estimateCost(const TargetConfig &config) {
  ArrayRef<int64_t> w = getWeight().getType().getShape();
  int64_t m = getInput().getType().getDimSize(0);
  bool fp16 = isF16(getInput().getType());
  CostEstimate cost;
  cost.usefulMacs = m * w[0] * w[1];
  cost.macCycles = convMacCycles(config, 1, m, 1, 1, w[0], w[1], fp16);
  auto [passes, records] = macEpilogue(
      fp16, getBias(), getClampMinAttr() || getClampMaxAttr(), w[1]);
  cost.vecCycles = vecCycles(config, m, w[1], passes);
  cost.dramBytes = operandBytes(*this) + records;
  cost.dramCycles = dramCycles(config, cost.dramBytes);
  return cost;
}

//===----------------------------------------------------------------------===//
// VEC operations
//===----------------------------------------------------------------------===//

/// VEC_ELTWISE reads a 64-byte parameter block in every mode.
static constexpr uint64_t kEltwiseParamBytes = 64;

CostEstimate AddOp::estimateCost(const TargetConfig &config) {
  return vecOnlyCost(*this, config, 1, 1, kEltwiseParamBytes);
}
CostEstimate SubOp::estimateCost(const TargetConfig &config) {
  return vecOnlyCost(*this, config, 1, 1, kEltwiseParamBytes);
}
CostEstimate MulOp::estimateCost(const TargetConfig &config) {
  return vecOnlyCost(*this, config, 1, 1, kEltwiseParamBytes);
}
CostEstimate MinimumOp::estimateCost(const TargetConfig &config) {
  return vecOnlyCost(*this, config, 1, 1, kEltwiseParamBytes);
}
CostEstimate MaximumOp::estimateCost(const TargetConfig &config) {
  return vecOnlyCost(*this, config, 1, 1, kEltwiseParamBytes);
}

/// Pooling costs kh * kw element operations per output element.
template <typename OpTy>
static CostEstimate poolCost(OpTy op, const TargetConfig &config) {
  ArrayRef<int64_t> kernel = op.getKernel();
  uint64_t window = kernel.size() == 2 ? kernel[0] * kernel[1] : 1;
  return vecOnlyCost(op, config, 1, window);
}

CostEstimate MaxPool2DOp::estimateCost(const TargetConfig &config) {
  return poolCost(*this, config);
}
CostEstimate AvgPool2DOp::estimateCost(const TargetConfig &config) {
  return poolCost(*this, config);
}
CostEstimate SumPool2DOp::estimateCost(const TargetConfig &config) {
  return poolCost(*this, config);
}

CostEstimate RescaleOp::estimateCost(const TargetConfig &config) {
  return vecOnlyCost(*this, config, 1);
}
CostEstimate TableOp::estimateCost(const TargetConfig &config) {
  return vecOnlyCost(*this, config, 1, 1, 256);
}
CostEstimate ClampOp::estimateCost(const TargetConfig &config) {
  return vecOnlyCost(*this, config, 1);
}
CostEstimate ConvertOp::estimateCost(const TargetConfig &config) {
  return vecOnlyCost(*this, config, 1);
}
