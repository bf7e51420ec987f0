//===- NPUConvOps.cpp - verifiers of the MAC and pooling ops ----*- C++ -*-===//
//
// Verifiers of npu.conv2d, npu.depthwise_conv2d, npu.fully_connected and
// the pooling operations: shapes, element types, quantisation, and the
// limits of the op's target (docs/npu-isa.md §5, §6, §10).
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPU/IR/NPUVerifyUtils.h"

using namespace mlir;
using namespace kiln::npu;
using namespace kiln::npu::detail;

//===----------------------------------------------------------------------===//
// Shared MAC checks
//===----------------------------------------------------------------------===//

namespace {
/// What a MAC operation is made of, for the shared checks.
struct MacOperands {
  Value input, weight, bias, output;
  Attribute clampMin, clampMax;
  /// Output channels, and the axis of the weight that holds them.
  int64_t channels;
  int32_t weightAxis;
};
} // namespace

/// Checks element types and quantisation of a conv-like op: int8 (input and
/// output per-tensor, weight per-axis along the output channels, bias i32,
/// every requantisation multiplier representable) or fp16.
static LogicalResult verifyMacTypes(Operation *op, const MacOperands &m) {
  auto biasType = m.bias ? cast<ShapedType>(m.bias.getType()) : ShapedType();
  if (biasType &&
      (biasType.getRank() != 1 || biasType.getDimSize(0) != m.channels))
    return op->emitOpError() << "bias must be a vector of " << m.channels
                             << " output channels, got " << biasType;
  if (isF16(m.input.getType())) {
    if (!isF16(m.weight.getType()) || !isF16(m.output.getType()))
      return op->emitOpError()
             << "fp16 input needs f16 weight and output, got "
             << m.weight.getType() << " and " << m.output.getType();
    if (biasType && !biasType.getElementType().isF16() &&
        !biasType.getElementType().isF32())
      return op->emitOpError() << "fp16 bias must be f16 or f32, got "
                               << biasType.getElementType();
    return checkClampF16(op, m.clampMin, m.clampMax);
  }
  auto input = getQI8(m.input.getType());
  if (!input)
    return op->emitOpError()
           << "input element type must be f16 or int8 quantised per tensor, "
              "got "
           << cast<ShapedType>(m.input.getType()).getElementType();
  auto output = getQI8(m.output.getType());
  if (!output)
    return op->emitOpError()
           << "output element type must be int8 quantised per tensor, got "
           << cast<ShapedType>(m.output.getType()).getElementType();
  if (failed(checkZeroPoint(op, "input", input, "MAC_CONV 'in_zp'")) ||
      failed(checkZeroPoint(op, "output", output, "VEC_REQUANT 'out_zp'")))
    return failure();
  SmallVector<double> scales;
  if (failed(checkWeightQuant(op, m.weight.getType(), m.weightAxis, m.channels,
                              scales)))
    return failure();
  if (biasType && !biasType.getElementType().isSignlessInteger(32))
    return op->emitOpError()
           << "int8 bias must be i32, got " << biasType.getElementType();
  for (auto [channel, scale] : llvm::enumerate(scales))
    if (failed(checkRequantMultiplier(
            op, input.getScale() * scale / output.getScale(),
            "requantisation multiplier (input scale * weight scale / output "
            "scale) of output channel " +
                Twine(channel))))
      return failure();
  return checkClampI8(op, m.clampMin, m.clampMax);
}

/// Reads stride, dilation and padding of a conv-like op.
template <typename OpTy>
static LogicalResult readConvWindow(OpTy op, int64_t kh, int64_t kw,
                                    Window &window) {
  window.kernel[0] = kh;
  window.kernel[1] = kw;
  if (failed(readArray(op, "stride", op.getStride(), 2, window.stride)) ||
      failed(readArray(op, "dilation", op.getDilation(), 2, window.dilation)) ||
      failed(readArray(op, "pad", op.getPad(), 4, window.pad)))
    return failure();
  return checkWindowFields(op, window);
}

/// Checks that the smallest tile of a convolution fits LMEM: the weight
/// blocks of one input and one output channel block in WGT, the input rows
/// of one output row (one channel block) in ACT, and that output row's
/// accumulators in ACC.
static LogicalResult checkConvTile(Operation *op, const Window &window,
                                   int64_t inWidth, int64_t outWidth,
                                   uint64_t weightBlockBytes, bool fp16) {
  TargetConfig config = targetConfigFor(op);
  uint64_t esize = fp16 ? 2 : 1;
  uint64_t kernelPositions = window.kernel[0] * window.kernel[1];
  uint64_t rows = window.dilation[0] * (window.kernel[0] - 1) + 1;
  if (failed(checkLmem(
          op, config, LmemRegion::WGT, kernelPositions * weightBlockBytes,
          "one weight block set (" + Twine(window.kernel[0]) + "x" +
              Twine(window.kernel[1]) + " kernel, one channel block)")) ||
      failed(checkLmem(op, config, LmemRegion::ACT, rows * inWidth * 16 * esize,
                       "the input rows of one output row (" + Twine(rows) +
                           " rows of width " + Twine(inWidth) +
                           ", one channel block)")) ||
      failed(checkLmem(op, config, LmemRegion::ACC, outWidth * 16 * 4,
                       "one output row of accumulators (width " +
                           Twine(outWidth) + ", one channel block)")))
    return failure();
  return success();
}

static LogicalResult expectRank(Operation *op, StringRef name, Value value,
                                int64_t rank) {
  auto type = cast<ShapedType>(value.getType());
  if (type.getRank() != rank)
    return op->emitOpError()
           << name << " must have rank " << rank << ", got " << type;
  return success();
}

//===----------------------------------------------------------------------===//
// Conv2DOp
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::verify() {
  if (failed(expectRank(*this, "input", getInput(), 4)) ||
      failed(expectRank(*this, "weight", getWeight(), 4)) ||
      failed(expectRank(*this, "output", getOutput(), 4)))
    return failure();
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> w = getWeight().getType().getShape();
  ArrayRef<int64_t> out = getOutput().getType().getShape();
  if (w[2] != in[3])
    return emitOpError() << "weight has " << w[2] << " input channels, input "
                         << in[3] << " (groups other than 1 are not supported)";
  if (out[0] != in[0] || out[3] != w[3])
    return emitOpError() << "output must be [" << in[0] << ", OH, OW, " << w[3]
                         << "], got " << getOutput().getType();
  Window window;
  if (failed(readConvWindow(*this, w[0], w[1], window)) ||
      failed(checkWindowShape(*this, window, in, out)) ||
      failed(verifyMacTypes(*this,
                            {getInput(), getWeight(), getBias(), getOutput(),
                             getClampMinAttr(), getClampMaxAttr(), w[3], 3})))
    return failure();
  bool fp16 = isF16(getInput().getType());
  return checkConvTile(*this, window, in[2], out[2], 256 * (fp16 ? 2 : 1),
                       fp16);
}

//===----------------------------------------------------------------------===//
// DepthwiseConv2DOp
//===----------------------------------------------------------------------===//

LogicalResult DepthwiseConv2DOp::verify() {
  if (failed(expectRank(*this, "input", getInput(), 4)) ||
      failed(expectRank(*this, "output", getOutput(), 4)))
    return failure();
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> w = getWeight().getType().getShape();
  ArrayRef<int64_t> out = getOutput().getType().getShape();
  if (!(w.size() == 3 || (w.size() == 4 && w[3] == 1)))
    return emitOpError() << "weight must be [kh, kw, C] or [kh, kw, C, 1] "
                            "(multiplier 1), got "
                         << getWeight().getType();
  if (w[2] != in[3])
    return emitOpError() << "weight has " << w[2] << " channels, input "
                         << in[3];
  if (out[0] != in[0] || out[3] != in[3])
    return emitOpError() << "output must be [" << in[0] << ", OH, OW, " << in[3]
                         << "], got " << getOutput().getType();
  Window window;
  if (failed(readConvWindow(*this, w[0], w[1], window)) ||
      failed(checkWindowShape(*this, window, in, out)) ||
      failed(verifyMacTypes(*this,
                            {getInput(), getWeight(), getBias(), getOutput(),
                             getClampMinAttr(), getClampMaxAttr(), in[3], 2})))
    return failure();
  bool fp16 = isF16(getInput().getType());
  return checkConvTile(*this, window, in[2], out[2], 16 * (fp16 ? 2 : 1), fp16);
}

//===----------------------------------------------------------------------===//
// FullyConnectedOp
//===----------------------------------------------------------------------===//

LogicalResult FullyConnectedOp::verify() {
  if (failed(expectRank(*this, "input", getInput(), 2)) ||
      failed(expectRank(*this, "weight", getWeight(), 2)) ||
      failed(expectRank(*this, "output", getOutput(), 2)))
    return failure();
  ArrayRef<int64_t> in = getInput().getType().getShape();
  ArrayRef<int64_t> w = getWeight().getType().getShape();
  ArrayRef<int64_t> out = getOutput().getType().getShape();
  if (w[0] != in[1])
    return emitOpError() << "contraction mismatch: input has " << in[1]
                         << " columns, weight " << w[0] << " rows";
  if (out[0] != in[0] || out[1] != w[1])
    return emitOpError() << "output must be [" << in[0] << ", " << w[1]
                         << "], got " << getOutput().getType();
  if (failed(verifyMacTypes(*this,
                            {getInput(), getWeight(), getBias(), getOutput(),
                             getClampMinAttr(), getClampMaxAttr(), w[1], 1})))
    return failure();
  // A 1x1 convolution of a 1 x M x K view: one weight block, and the
  // accumulators of one output row of the view.
  Window window = {{1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}};
  bool fp16 = isF16(getInput().getType());
  return checkConvTile(*this, window, in[0], out[0], 256 * (fp16 ? 2 : 1),
                       fp16);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// Checks a pooling op; \p sum selects SUM's widened output type.
template <typename OpTy> static LogicalResult verifyPool(OpTy op, bool sum) {
  if (failed(expectRank(op, "input", op.getInput(), 4)) ||
      failed(expectRank(op, "output", op.getOutput(), 4)))
    return failure();
  auto inType = cast<ShapedType>(op.getInput().getType());
  auto outType = cast<ShapedType>(op.getOutput().getType());
  ArrayRef<int64_t> in = inType.getShape();
  ArrayRef<int64_t> out = outType.getShape();
  if (out[0] != in[0] || out[3] != in[3])
    return op.emitOpError() << "output must be [" << in[0] << ", OH, OW, "
                            << in[3] << "], got " << outType;
  Window window;
  window.dilation[0] = window.dilation[1] = 1;
  if (failed(readArray(op, "kernel", op.getKernel(), 2, window.kernel)) ||
      failed(readArray(op, "stride", op.getStride(), 2, window.stride)) ||
      failed(readArray(op, "pad", op.getPad(), 4, window.pad)) ||
      failed(checkWindowFields(op, window)) ||
      failed(checkWindowShape(op, window, in, out)))
    return failure();
  bool fp16 = isF16(inType);
  if (!fp16 && !getQI8(inType))
    return op.emitOpError()
           << "input element type must be f16 or int8 quantised per tensor, "
              "got "
           << inType.getElementType();
  if (sum) {
    Type expected = fp16 ? Type(Float32Type::get(op.getContext()))
                         : Type(IntegerType::get(op.getContext(), 32));
    if (outType.getElementType() != expected)
      return op.emitOpError()
             << "sum of " << inType.getElementType() << " values is "
             << expected << ", got " << outType.getElementType();
  } else if (outType.getElementType() != inType.getElementType()) {
    return op.emitOpError()
           << "output element type must equal the input's, "
           << inType.getElementType() << ", got " << outType.getElementType();
  }
  if ((sum || fp16) && (op.getClampMinAttr() || op.getClampMaxAttr()))
    return op.emitOpError() << "VEC_POOL clamps only int8 max and average "
                               "pooling";
  if (failed(checkClampI8(op, op.getClampMinAttr(), op.getClampMaxAttr())))
    return failure();
  // One output row needs the input rows of its windows and the row itself.
  TargetConfig config = targetConfigFor(op);
  uint64_t esize = fp16 ? 2 : 1;
  uint64_t outSize = sum ? 4 : esize;
  return checkLmem(op, config, LmemRegion::ACT,
                   window.kernel[0] * in[2] * 16 * esize +
                       out[2] * 16 * outSize,
                   "one output row and its " + Twine(window.kernel[0]) +
                       " input rows (one channel block)");
}

LogicalResult MaxPool2DOp::verify() { return verifyPool(*this, false); }
LogicalResult AvgPool2DOp::verify() { return verifyPool(*this, false); }
LogicalResult SumPool2DOp::verify() { return verifyPool(*this, true); }
