//===- NPUCost.cpp - cost estimates of npu operations -----------*- C++ -*-===//
//
// NPUCostOpInterface for every npu operation: useful MACs, and the MAC, VEC
// and DRAM cycles at the target's peak rates (docs/npu-cycle-model.md). The
// estimate is their maximum, a lower bound of the run time.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUCost.h"
#include "dialects/NPU/IR/NPUPacking.h"
#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPU/IR/NPUVerifyUtils.h"

#include "mlir/IR/Matchers.h"

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

uint64_t CostEstimate::lowerBound() const {
  return std::max({usefulMacCycles, vecCycles, dramCycles});
}

CostBound CostEstimate::bound() const {
  uint64_t best = lowerBound();
  if (usefulMacCycles == best)
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

uint64_t kiln::npu::flatVecCycles(const TargetConfig &config,
                                  uint64_t elements, uint64_t passes) {
  return passes * ceilDiv(ceilDiv(elements, 16) * 16, config.vecLanes);
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
/// element operations each, moving \p extraBytes besides its tensors. With
/// \p flat, the lowering's flat layout (16 elements per lane vector,
/// whatever the channels); else channels padded to lane vectors per pixel.
static CostEstimate vecOnlyCost(Operation *op, const TargetConfig &config,
                                uint64_t passes, uint64_t window = 1,
                                uint64_t extraBytes = 0, bool flat = false) {
  CostEstimate cost;
  auto [pixels, channels] = pixelsAndChannels(op->getResult(0).getType());
  cost.vecCycles =
      flat ? flatVecCycles(config, pixels * channels * window, passes)
           : vecCycles(config, pixels, channels, passes, window);
  cost.dramBytes = operandBytes(op) + extraBytes;
  cost.dramCycles = dramCycles(config, cost.dramBytes);
  return cost;
}

/// VEC passes after a MAC operation: int8 needs one VEC_REQUANT (bias,
/// scale, clamp in one); fp16 converts the f32 accumulators and clamps in a
/// pass of its own (the bias is preloaded into ACC by DMA, not a VEC pass).
/// Returns the passes and the bytes of per-channel records (16 per output
/// channel for int8) that replace the bias in DRAM.
static std::pair<uint64_t, uint64_t>
macEpilogue(bool fp16, Value bias, bool clamp, uint64_t channels) {
  if (!fp16)
    return {1, 16 * channels - (bias ? tensorBytes(bias.getType()) : 0)};
  return {1 + (clamp ? 1 : 0), 0};
}

/// \p macs at the peak: rows x cols per cycle (depthwise: an eighth), half
/// of it in fp16.
static uint64_t peakCycles(const TargetConfig &config, uint64_t macs,
                           bool depthwise, bool fp16) {
  uint64_t peak = uint64_t(config.macRows) * config.macCols;
  if (depthwise)
    peak = std::max<uint64_t>(peak / 8, 1);
  return ceilDiv(macs * (fp16 ? 2 : 1), peak);
}

/// The ConvShape of a convolution-like op's tensors and attributes.
template <typename OpTy>
static ConvShape convShape(OpTy op, bool depthwise) {
  ArrayRef<int64_t> in = op.getInput().getType().getShape();
  ArrayRef<int64_t> w = op.getWeight().getType().getShape();
  ArrayRef<int64_t> out = op.getOutput().getType().getShape();
  ConvShape l;
  l.depthwise = depthwise;
  l.fp16 = isF16(op.getInput().getType());
  l.bias = static_cast<bool>(op.getBias());
  l.clamp = op.getClampMinAttr() || op.getClampMaxAttr();
  l.n = in[0];
  l.h = in[1];
  l.w = in[2];
  l.cin = in[3];
  l.oh = out[1];
  l.ow = out[2];
  l.cout = out[3];
  l.kh = w[0];
  l.kw = w[1];
  ArrayRef<int64_t> stride = op.getStride(), dilation = op.getDilation(),
                    pad = op.getPad();
  l.sy = stride.size() == 2 ? stride[0] : 1;
  l.dy = dilation.size() == 2 ? dilation[0] : 1;
  l.pt = pad.size() == 4 ? pad[0] : 0;
  return l;
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
  cost.usefulMacCycles = peakCycles(config, cost.usefulMacs, false, fp16);
  cost.cycles = convScheduleCycles(config, convShape(*this, false));
  // Few input channels: the lowering packs the windows into the lanes when
  // its estimate says that is faster (NPUPacking.h); predict the faster.
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> stride = getStride(), dilation = getDilation(),
                    pad = getPad();
  PackWidth width;
  width.kw = w[1];
  width.sx = stride.size() == 2 ? stride[1] : 1;
  width.dx = dilation.size() == 2 ? dilation[1] : 1;
  width.pl = pad.size() == 4 ? pad[2] : 0;
  width.w = in[2];
  width.ow = out[2];
  width.cin = in[3];
  width.elementBytes = fp16 ? 2 : 1;
  int64_t lanes = 0;
  std::vector<PackPiece> pieces = planSmallChannelPieces(width, lanes);
  if (!pieces.empty()) {
    ConvShape packed = convShape(*this, false);
    packed.w = packed.ow;
    packed.cin = lanes;
    packed.kw = 1;
    cost.cycles = std::min(
        cost.cycles, packedConvScheduleCycles(config, packed, pieces, in[2],
                                              in[3], width.sx));
  }
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
  cost.usefulMacCycles = peakCycles(config, cost.usefulMacs, true, fp16);
  cost.cycles = convScheduleCycles(config, convShape(*this, true));
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
  cost.usefulMacCycles = peakCycles(config, cost.usefulMacs, false, fp16);
  // A 1x1 convolution of one row of m pixels.
  ConvShape l;
  l.fp16 = fp16;
  l.bias = static_cast<bool>(getBias());
  l.clamp = getClampMinAttr() || getClampMaxAttr();
  l.w = l.ow = m;
  l.cin = w[0];
  l.cout = w[1];
  cost.cycles = convScheduleCycles(config, l);
  return cost;
}

//===----------------------------------------------------------------------===//
// VEC operations
//===----------------------------------------------------------------------===//

/// VEC_ELTWISE reads a 64-byte parameter block in every mode.
static constexpr uint64_t kEltwiseParamBytes = 64;

/// Bytes per element of a tensor type.
static int64_t bytesPerElement(Type type) {
  auto shaped = cast<ShapedType>(type);
  return static_cast<int64_t>(tensorBytes(type) /
                              std::max<int64_t>(shaped.getNumElements(), 1));
}

/// An element-wise op: its broadcast (a one-element rhs is a scalar, an rhs
/// of the lhs's shape a tensor, anything else a per-channel vector) decides
/// the layout and the loads, as the lowering does.
static CostEstimate eltwiseCost(Operation *op, const TargetConfig &config) {
  auto lhs = cast<ShapedType>(op->getOperand(0).getType());
  auto rhs = cast<ShapedType>(op->getOperand(1).getType());
  // Only a CHANNEL broadcast takes the channel layout.
  bool flat = rhs.getNumElements() == 1 || rhs.getShape() == lhs.getShape();
  CostEstimate cost =
      vecOnlyCost(op, config, 1, 1, kEltwiseParamBytes, flat);
  VecShape l;
  l.elements = cast<ShapedType>(op->getResult(0).getType()).getNumElements();
  l.outBytes = bytesPerElement(op->getResult(0).getType());
  l.inBytes.push_back(bytesPerElement(lhs));
  l.fixedLoads.push_back(kEltwiseParamBytes);
  if (rhs.getNumElements() == 1) {
    // A scalar that is not a constant is copied over the block's word 12.
    if (!matchPattern(op->getOperand(1), m_Constant()))
      l.fixedLoads.push_back(bytesPerElement(rhs));
  } else if (rhs.getShape() == lhs.getShape()) {
    l.inBytes.push_back(bytesPerElement(rhs));
  } else {
    l.channels = lhs.getShape().back();
    l.broadcastBytes = bytesPerElement(rhs);
    l.fixedLoads.push_back(tensorBytes(rhs));
  }
  cost.cycles = vecScheduleCycles(config, l);
  return cost;
}

CostEstimate AddOp::estimateCost(const TargetConfig &config) {
  return eltwiseCost(*this, config);
}
CostEstimate SubOp::estimateCost(const TargetConfig &config) {
  return eltwiseCost(*this, config);
}
CostEstimate MulOp::estimateCost(const TargetConfig &config) {
  return eltwiseCost(*this, config);
}
CostEstimate MinimumOp::estimateCost(const TargetConfig &config) {
  return eltwiseCost(*this, config);
}
CostEstimate MaximumOp::estimateCost(const TargetConfig &config) {
  return eltwiseCost(*this, config);
}

/// Pooling costs kh * kw element operations per output element.
template <typename OpTy>
static CostEstimate poolCost(OpTy op, const TargetConfig &config) {
  ArrayRef<int64_t> kernel = op.getKernel();
  uint64_t window = kernel.size() == 2 ? kernel[0] * kernel[1] : 1;
  CostEstimate cost = vecOnlyCost(op, config, 1, window);
  ArrayRef<int64_t> in = op.getInput().getType().getShape();
  ArrayRef<int64_t> out = op.getOutput().getType().getShape();
  ArrayRef<int64_t> stride = op.getStride(), pad = op.getPad();
  PoolShape l;
  l.n = in[0];
  l.h = in[1];
  l.w = in[2];
  l.c = in[3];
  l.oh = out[1];
  l.ow = out[2];
  l.kh = kernel.size() == 2 ? kernel[0] : 1;
  l.kw = kernel.size() == 2 ? kernel[1] : 1;
  l.sy = stride.size() == 2 ? stride[0] : 1;
  l.pt = pad.size() == 4 ? pad[0] : 0;
  l.inBytes = bytesPerElement(op.getInput().getType());
  l.outBytes = bytesPerElement(op.getOutput().getType());
  cost.cycles = poolScheduleCycles(config, l);
  return cost;
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

/// A unary op: one flat band loop, after \p fixedBytes of table.
static CostEstimate unaryCost(Operation *op, const TargetConfig &config,
                              uint64_t fixedBytes = 0) {
  CostEstimate cost = vecOnlyCost(op, config, 1, 1, fixedBytes, /*flat=*/true);
  VecShape l;
  l.elements = cast<ShapedType>(op->getResult(0).getType()).getNumElements();
  l.outBytes = bytesPerElement(op->getResult(0).getType());
  l.inBytes.push_back(bytesPerElement(op->getOperand(0).getType()));
  if (fixedBytes)
    l.fixedLoads.push_back(fixedBytes);
  cost.cycles = vecScheduleCycles(config, l);
  return cost;
}

CostEstimate RescaleOp::estimateCost(const TargetConfig &config) {
  return unaryCost(*this, config);
}
CostEstimate TableOp::estimateCost(const TargetConfig &config) {
  return unaryCost(*this, config, 256);
}
CostEstimate ClampOp::estimateCost(const TargetConfig &config) {
  return unaryCost(*this, config);
}
CostEstimate ConvertOp::estimateCost(const TargetConfig &config) {
  return unaryCost(*this, config);
}
