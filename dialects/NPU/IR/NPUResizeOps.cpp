//===- NPUResizeOps.cpp - npu up-sampling operations ------------*- C++ -*-===//
//
// Verifiers and cost estimates of npu.resize_nearest (DMA only) and
// npu.resize_bilinear (2x, half-pixel centres, MAC_DWCONV).
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUCost.h"
#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPU/IR/NPUVerifyUtils.h"

#include <algorithm>

using namespace mlir;
using namespace kiln::npu;
using namespace kiln::npu::detail;

/// Checks that \p op's input and output are rank-4 with int8 quantised per
/// tensor or f16 elements, and that the output is the input scaled by
/// \p sy x \p sx in height and width.
static LogicalResult verifyUpsample(Operation *op, int64_t sy, int64_t sx) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  if (in.getRank() != 4 || out.getRank() != 4)
    return op->emitOpError() << "input and output must be NHWC (rank 4), got "
                             << in << " and " << out;
  ArrayRef<int64_t> i = in.getShape(), o = out.getShape();
  if (o[0] != i[0] || o[1] != i[1] * sy || o[2] != i[2] * sx || o[3] != i[3])
    return op->emitOpError()
           << "output shape must be [" << i[0] << ", " << i[1] * sy << ", "
           << i[2] * sx << ", " << i[3] << "] (the input scaled by " << sy
           << "x" << sx << "), got " << out;
  bool f16 = isF16(in) && isF16(out);
  if (!f16 && (!getQI8(in) || !getQI8(out)))
    return op->emitOpError()
           << "input and output must be both f16 or both int8 quantised per "
              "tensor, got "
           << in.getElementType() << " and " << out.getElementType();
  return success();
}

LogicalResult ResizeNearestOp::verify() {
  ArrayRef<int64_t> scale = getScale();
  if (scale.size() != 2 || scale[0] < 1 || scale[1] < 1 ||
      scale[1] > 65535)
    return emitOpError() << "scale must be two factors [sy, sx], sy >= 1 and "
                            "1 <= sx <= 65535 (a DMA count), got "
                         << getScaleAttr();
  if (failed(verifyUpsample(*this, scale[0], scale[1])))
    return failure();
  if (getInput().getType().getElementType() !=
      getOutput().getType().getElementType())
    return emitOpError() << "copies stored values, so the output element type "
                            "must equal the input's, got "
                         << getInput().getType().getElementType() << " and "
                         << getOutput().getType().getElementType();
  ShapedType in = getInput().getType();
  uint64_t row = in.getDimSize(2) * 16 * channelBlocks(in.getDimSize(3)) *
                 elementBytes(in);
  return checkLmem(*this, targetConfigFor(*this), LmemRegion::ACT, 2 * row,
                   "two buffers of one input row (width " +
                       Twine(in.getDimSize(2)) + ", all channel blocks)");
}

LogicalResult ResizeBilinearOp::verify() {
  if (failed(verifyUpsample(*this, 2, 2)))
    return failure();
  ShapedType in = getInput().getType();
  if (auto qi = getQI8(in)) {
    auto qo = getQI8(getOutput().getType());
    if (failed(checkZeroPoint(*this, "input", qi, "MAC_DWCONV 'in_zp'")) ||
        failed(checkZeroPoint(*this, "output", qo, "VEC_REQUANT 'out_zp'")) ||
        failed(checkRequantMultiplier(
            *this, qi.getScale() / (16 * qo.getScale()),
            "multiplier (input scale / (16 * output scale))")))
      return failure();
  }
  // The smallest tile of the lowering: a band of one input row, its two
  // border rows and a spare row, two border columns, all channel blocks;
  // its 2x2 output rows; one channel block of f32/i32 accumulators.
  TargetConfig config = targetConfigFor(*this);
  int64_t w = in.getDimSize(2), es = elementBytes(in);
  uint64_t slot = 16 * channelBlocks(in.getDimSize(3)) * es;
  uint64_t act = 2 * (4 * (w + 2) * slot + 4 * w * slot);
  if (failed(checkLmem(*this, config, LmemRegion::ACT, act,
                       "two buffers of one band of one input row (width " +
                           Twine(w) + ", with its border) and its output")) ||
      failed(checkLmem(*this, config, LmemRegion::ACC, 2 * 4 * w * 64,
                       "two accumulator buffers of one band of one input "
                       "row and one channel block")) ||
      failed(checkLmem(*this, config, LmemRegion::WGT, 4 * 64 * es,
                       "the weights of four phases of one channel block")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Cost
//===----------------------------------------------------------------------===//

/// The predicted cycles of an up-sampling layer: its bands stream with the
/// loads, MACs and stores overlapped, so the steady state is the busiest
/// engine; the first load's and the last store's DRAM latency are not
/// hidden (measured within 10% on the models' layers, docs/npu-lowering.md).
static uint64_t resizeCycles(const TargetConfig &config,
                             const CostEstimate &cost) {
  uint64_t steady =
      std::max({cost.macCycles, cost.vecCycles, cost.dramCycles});
  return steady + 2 * uint64_t(config.dmaDramLatency);
}

static uint64_t ceilDivU64(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

CostEstimate ResizeNearestOp::estimateCost(const TargetConfig &config) {
  CostEstimate cost;
  cost.dramBytes =
      tensorBytes(getInput().getType()) + tensorBytes(getOutput().getType());
  cost.dramCycles = dramCycles(config, cost.dramBytes);
  cost.cycles = resizeCycles(config, cost);
  return cost;
}

CostEstimate ResizeBilinearOp::estimateCost(const TargetConfig &config) {
  ArrayRef<int64_t> out = getOutput().getType().getShape();
  bool fp16 = isF16(getInput().getType());
  uint64_t pixels = out[0] * out[1] * out[2];
  uint64_t blocks = channelBlocks(out[3]);
  CostEstimate cost;
  cost.usefulMacs = pixels * 4 * out[3];
  cost.usefulMacCycles = ceilDivU64(
      cost.usefulMacs * (fp16 ? 2 : 1),
      std::max<uint64_t>(uint64_t(config.macRows) * config.macCols / 8, 1));
  cost.macCycles = depthwiseMacCycles(config, pixels * 4 * 16 * blocks, fp16);
  cost.vecCycles = vecCycles(config, pixels, out[3], 1);
  // The four phases' weights of every channel block, int8's one record.
  uint64_t weights = 4 * 64 * blocks * (fp16 ? 2 : 1) + (fp16 ? 0 : 16);
  cost.dramBytes = tensorBytes(getInput().getType()) +
                   tensorBytes(getOutput().getType()) + weights;
  cost.dramCycles = dramCycles(config, cost.dramBytes);
  cost.cycles = resizeCycles(config, cost);
  return cost;
}
