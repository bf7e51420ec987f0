//===- ConvReading.cpp - npu convolutions read into ConvLayer -------------===//
//
// The emitter of npu.conv2d, npu.depthwise_conv2d and npu.fully_connected
// (lowerConvLike): reads the op's shapes, quantisation or fp16 bias and
// clamp into a ConvLayer, packs its weights and parameters into r0, tiles
// it (chooseTiling) and emits its commands (emitConvCommands).
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/ConvLowering.h"

#include "dialects/NPU/IR/NPUOps.h"
#include "runtime/npu/Packing.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

namespace {
/// The int8 constant behind \p value (through quant.scast), or null.
DenseIntElementsAttr constantInts(Value value) {
  return dyn_cast_or_null<DenseIntElementsAttr>(constantElements(value));
}

quant::UniformQuantizedType qi8(Type type) {
  auto q = dyn_cast<quant::UniformQuantizedType>(
      cast<ShapedType>(type).getElementType());
  if (!q || q.getStorageTypeIntegralWidth() != 8 || !q.isSigned())
    return nullptr;
  return q;
}

/// Per-output-channel scales of an int8 weight (per tensor or per axis).
SmallVector<double> weightScales(Type type, int64_t channels) {
  Type element = cast<ShapedType>(type).getElementType();
  if (auto q = dyn_cast<quant::UniformQuantizedType>(element))
    return SmallVector<double>(channels, q.getScale());
  if (auto q = dyn_cast<quant::UniformQuantizedPerAxisType>(element))
    return SmallVector<double>(q.getScales());
  return {};
}

/// The fp16 bit pattern nearest to \p value (ties to even).
uint16_t toF16Bits(APFloat value) {
  bool losesInfo;
  value.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(value.bitcastToAPInt().getZExtValue());
}

/// Reads an fp16 layer: f16 weights, an f16 or f32 bias widened exactly to
/// f32, clamp bounds rounded to fp16 (the npu verifier checked the types).
LogicalResult readLayerF16(Operation *op, Value weight, Value bias,
                           Attribute clampMin, Attribute clampMax,
                           ConvLayer &l) {
  l.fp16 = true;
  DenseFPElementsAttr w;
  if (!matchPattern(weight, m_Constant(&w)))
    return op->emitOpError() << "weight must be a constant";
  if (bias) {
    DenseFPElementsAttr b;
    if (!matchPattern(bias, m_Constant(&b)))
      return op->emitOpError() << "bias must be a constant";
    for (APFloat v : b.getValues<APFloat>()) {
      bool losesInfo;
      v.convert(APFloat::IEEEsingle(), APFloat::rmNearestTiesToEven,
                &losesInfo);
      l.biasF32.push_back(v.convertToFloat());
    }
  }
  if (auto a = dyn_cast_or_null<FloatAttr>(clampMin))
    l.clampMinF16 = toF16Bits(a.getValue());
  if (auto a = dyn_cast_or_null<FloatAttr>(clampMax))
    l.clampMaxF16 = toF16Bits(a.getValue());
  l.hasClamp = clampMin || clampMax;
  std::vector<uint8_t> bytes;
  for (const APFloat &v : w.getValues<APFloat>()) {
    uint64_t bits = v.bitcastToAPInt().getZExtValue();
    bytes.push_back(static_cast<uint8_t>(bits));
    bytes.push_back(static_cast<uint8_t>(bits >> 8));
  }
  l.hwio = std::move(bytes);
  packWeights(l);
  return success();
}

/// Reads the layer of a conv-like \p op (input, weight, bias, output), or
/// emits why it cannot be lowered.
LogicalResult readLayer(Operation *op, Value input, Value weight, Value bias,
                        Value output, Attribute clampMin, Attribute clampMax,
                        ConvLayer &l) {
  if (cast<ShapedType>(input.getType()).getElementType().isF16())
    return readLayerF16(op, weight, bias, clampMin, clampMax, l);
  auto in = qi8(input.getType()), out = qi8(output.getType());
  if (!in || !out)
    return op->emitOpError()
           << "only int8 and fp16 operands are lowered to npuhw, got "
           << input.getType();
  DenseIntElementsAttr w = constantInts(weight);
  if (!w)
    return op->emitOpError() << "weight must be a constant";
  SmallVector<int32_t> biases(l.cout, 0);
  if (bias) {
    DenseIntElementsAttr b = constantInts(bias);
    if (!b)
      return op->emitOpError() << "bias must be a constant";
    for (auto [i, v] : llvm::enumerate(b.getValues<APInt>()))
      biases[i] = static_cast<int32_t>(v.getSExtValue());
  }
  SmallVector<double> scales = weightScales(weight.getType(), l.cout);
  if (scales.size() != static_cast<size_t>(l.cout))
    return op->emitOpError() << "weight must be int8 quantised";
  l.inZp = in.getZeroPoint();
  l.outZp = out.getZeroPoint();
  if (auto a = dyn_cast_or_null<IntegerAttr>(clampMin))
    l.clampMin = std::max<int64_t>(-128, a.getInt());
  if (auto a = dyn_cast_or_null<IntegerAttr>(clampMax))
    l.clampMax = std::min<int64_t>(127, a.getInt());
  for (int64_t c = 0; c < l.cout; ++c) {
    // Representable: the npu verifier checked the multiplier.
    std::optional<npu::QuantizedMultiplier> q = npu::quantizeMultiplier(
        in.getScale() * scales[c] / out.getScale());
    if (!q)
      return op->emitOpError() << "requantisation multiplier of channel " << c
                               << " is not positive";
    l.records.push_back({biases[c], q->multiplier, 31 - q->exponent});
  }
  std::vector<uint8_t> bytes;
  for (const APInt &v : w.getValues<APInt>())
    bytes.push_back(static_cast<uint8_t>(v.getZExtValue()));
  l.hwio = std::move(bytes);
  packWeights(l);
  return success();
}

/// Fills the window and shapes of a conv2d or depthwise_conv2d.
template <typename OpTy>
LogicalResult readConv(OpTy op, bool depthwise, ConvLayer &l) {
  auto in = cast<ShapedType>(op.getInput().getType());
  auto out = cast<ShapedType>(op.getOutput().getType());
  auto w = cast<ShapedType>(op.getWeight().getType());
  l.depthwise = depthwise;
  l.n = in.getDimSize(0);
  l.h = in.getDimSize(1);
  l.w = in.getDimSize(2);
  l.cin = in.getDimSize(3);
  l.oh = out.getDimSize(1);
  l.ow = out.getDimSize(2);
  l.cout = out.getDimSize(3);
  l.kh = w.getDimSize(0);
  l.kw = w.getDimSize(1);
  l.sy = op.getStride()[0];
  l.sx = op.getStride()[1];
  l.dy = op.getDilation()[0];
  l.dx = op.getDilation()[1];
  l.pt = op.getPad()[0];
  l.pb = op.getPad()[1];
  l.pl = op.getPad()[2];
  l.pr = op.getPad()[3];
  return readLayer(op, op.getInput(), op.getWeight(), op.getBias(),
                   op.getOutput(), op.getClampMinAttr(), op.getClampMaxAttr(),
                   l);
}

/// A fully connected layer [m][k] x [k][n] as a 1x1 convolution of a
/// 1 x m x k image.
LogicalResult readFullyConnected(npu::FullyConnectedOp op, ConvLayer &l) {
  auto in = cast<ShapedType>(op.getInput().getType());
  auto out = cast<ShapedType>(op.getOutput().getType());
  l.w = l.ow = in.getDimSize(0);
  l.cin = in.getDimSize(1);
  l.cout = out.getDimSize(1);
  return readLayer(op, op.getInput(), op.getWeight(), op.getBias(),
                   op.getOutput(), op.getClampMinAttr(), op.getClampMaxAttr(),
                   l);
}
} // namespace

/// The emitter of npu.conv2d, npu.depthwise_conv2d and npu.fully_connected:
/// packs the weights and records into r0, tiles (ConvLowering) and emits.
FailureOr<SmallVector<Value>>
npu_to_npuhw::lowerConvLike(Operation *op, OpLowering &lowering) {
  ConvLayer layer;
  LogicalResult read =
      TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](npu::Conv2DOp op) { return readConv(op, false, layer); })
          .Case([&](npu::DepthwiseConv2DOp op) {
            return readConv(op, true, layer);
          })
          .Case([&](npu::FullyConnectedOp op) {
            return readFullyConnected(op, layer);
          })
          .Default([](Operation *) { return failure(); });
  if (failed(read))
    return failure();
  // Packing gathers the input's windows from DRAM, so an input kept in LMEM
  // (resident, or a cascade's ring) is read as it is.
  DramPlace input = placeOperand(op, 0, lowering);
  packSmallChannels(layer, lowering.config, lowering.limits,
                    input.region == kResidentRegion ||
                        input.region == kCascadeRegion);
  chooseCompactWeights(layer, lowering.config);
  ConvTiling tiling;
  std::string why;
  if (!chooseTiling(layer, lowering.config, lowering.limits, tiling, why))
    return op->emitOpError() << "does not fit LMEM: " << why;
  ConvPlacement place;
  place.inputRegion = input.region;
  place.inputOffset = input.offset;
  place.outputRegion = lowering.results[0].region;
  place.outputOffset = lowering.results[0].offset;
  place.weightOffset = lowering.constants.append(dramWeights(layer));
  place.recordOffset =
      lowering.constants.append(packLayerParams(layer));
  place.after = lowering.after;
  return emitConvCommands(lowering.builder, lowering.loc, layer, tiling,
                          place);
}
