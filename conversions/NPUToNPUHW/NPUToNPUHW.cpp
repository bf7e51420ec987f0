//===- NPUToNPUHW.cpp - convert-npu-to-npuhw ---------------------*- C++ -*-===//
//
// Each function whose body is an int8 or fp16 npu convolution-like op on its
// argument (weights and bias constant) becomes an npuhw.stream of the same
// name: the DRAM regions, the constants (packed weights, requantisation
// records), the IO declarations, and the commands of ConvLowering. The
// rewrite replaces a function by a stream, not op by op, so it is a walk
// rather than a dialect conversion.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/NPUToNPUHW.h"

#include "conversions/NPUToNPUHW/ConvLowering.h"
#include "dialects/NPU/IR/NPUCost.h"
#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTNPUTONPUHWPASS
#include "conversions/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

namespace {
/// The int8 constant behind \p value (through quant.scast), or null.
DenseIntElementsAttr constantInts(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (def->getName().getStringRef() != "quant.scast" ||
        def->getNumOperands() != 1)
      break;
    value = def->getOperand(0);
  }
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return nullptr;
  return attr;
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
  l.packedWeights =
      l.depthwise
          ? npu::packDepthwiseWeights(bytes, l.kh, l.kw, l.cout, 2)
          : packF16ConvWeights(bytes, l.kh, l.kw, l.cin, l.cout);
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
  l.packedWeights =
      l.depthwise
          ? npu::packDepthwiseWeights(bytes, l.kh, l.kw, l.cout, 1)
          : npu::packConvWeights(bytes, l.kh, l.kw, l.cin, l.cout, 1);
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

/// IO names: the `tf.entry_function` lists when present, else argN/resultN.
SmallVector<std::string> ioNames(func::FuncOp func, StringRef key,
                                 StringRef prefix, unsigned count) {
  SmallVector<std::string> names;
  if (auto entry = func->getAttrOfType<DictionaryAttr>("tf.entry_function"))
    if (auto list = entry.getAs<StringAttr>(key)) {
      SmallVector<StringRef> parts;
      llvm::SplitString(list.getValue(), parts, ",");
      if (parts.size() == count)
        for (StringRef p : parts)
          names.push_back(p.str());
    }
  for (unsigned i = names.size(); i < count; ++i)
    names.push_back((prefix + Twine(i)).str());
  return names;
}

/// A declaration op of the stream, built by name with its attributes.
void declare(OpBuilder &b, Location loc, StringRef name,
             ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, name);
  state.addAttributes(attrs);
  b.create(state);
}

struct ConvertNPUToNPUHWPass final
    : kiln::impl::ConvertNPUToNPUHWPassBase<ConvertNPUToNPUHWPass> {
  using Base::Base;
  void runOnOperation() override;
  LogicalResult lowerFunction(func::FuncOp func);
};
} // namespace

LogicalResult ConvertNPUToNPUHWPass::lowerFunction(func::FuncOp func) {
  for (auto [i, type] : llvm::enumerate(func.getFunctionType().getInputs()))
    if (auto shaped = dyn_cast<ShapedType>(type);
        !shaped || !shaped.hasStaticShape())
      return func.emitOpError() << "argument " << i
                                << " must be a statically shaped tensor, got "
                                << type;
  Operation *layerOp = nullptr;
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp>(op) || op.hasTrait<OpTrait::ConstantLike>() ||
        op.getName().getStringRef() == "quant.scast")
      continue;
    if (!isa<npu::Conv2DOp, npu::DepthwiseConv2DOp, npu::FullyConnectedOp>(
            op))
      return op.emitOpError()
             << "has no lowering to npuhw (convert-npu-to-npuhw lowers "
                "npu.conv2d, npu.depthwise_conv2d and npu.fully_connected)";
    if (layerOp)
      return op.emitOpError() << "is a second layer: convert-npu-to-npuhw "
                                 "lowers one layer per function";
    layerOp = &op;
  }
  if (!layerOp)
    return func.emitOpError() << "has no npu operation to lower";
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  Value layerInput = layerOp->getOperand(0);
  if (!isa<BlockArgument>(layerInput) || ret.getNumOperands() != 1 ||
      ret.getOperand(0) != layerOp->getResult(0))
    return layerOp->emitOpError()
           << "must read a function argument and be the function's only "
              "result";

  ConvLayer layer;
  LogicalResult read =
      TypeSwitch<Operation *, LogicalResult>(layerOp)
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

  npu::TargetConfig config = npu::targetConfigFor(func);
  ConvTiling tiling;
  std::string why;
  if (!chooseTiling(layer, config,
                    {static_cast<int64_t>(maxRowsPerBand),
                     static_cast<int64_t>(maxBlocksPerGroup)},
                    tiling, why))
    return layerOp->emitOpError() << "does not fit LMEM: " << why;

  // The constants: weights, padded to 64 bytes, then the records.
  std::vector<uint8_t> constants = layer.packedWeights;
  constants.resize((constants.size() + 63) / 64 * 64, 0);
  ConvPlacement place;
  place.recordOffset = constants.size();
  std::vector<uint8_t> records = packLayerParams(layer);
  constants.insert(constants.end(), records.begin(), records.end());

  OpBuilder b(func);
  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  auto stream = npuhw::StreamOp::create(b, loc, func.getSymName());
  b.setInsertionPointToStart(&stream.getBody().emplaceBlock());

  auto region = [&](unsigned index, npuhw::RegionKind kind, uint64_t size) {
    declare(b, loc, "npuhw.region",
            {b.getNamedAttr("index", b.getI64IntegerAttr(index)),
             b.getNamedAttr("kind", npuhw::RegionKindAttr::get(ctx, kind)),
             b.getNamedAttr("size", b.getI64IntegerAttr(size))});
  };
  auto bytesOf = [&](Type type) {
    return static_cast<uint64_t>(cast<ShapedType>(type).getNumElements() *
                                 layer.elementBytes());
  };
  Value input = layerInput, output = layerOp->getResult(0);
  region(0, npuhw::RegionKind::const_, constants.size());
  region(place.inputRegion, npuhw::RegionKind::input, bytesOf(input.getType()));
  region(place.outputRegion, npuhw::RegionKind::output,
         bytesOf(output.getType()));
  auto constType =
      RankedTensorType::get({static_cast<int64_t>(constants.size())},
                            b.getI8Type());
  ArrayRef<int8_t> constData(reinterpret_cast<const int8_t *>(constants.data()),
                             constants.size());
  declare(b, loc, "npuhw.const",
          {b.getNamedAttr("value",
                          DenseElementsAttr::get(constType, constData))});

  unsigned inputIndex = cast<BlockArgument>(input).getArgNumber();
  auto io = [&](npuhw::IoDirection dir, StringRef name, unsigned regionIndex,
                Value value) {
    auto type = cast<ShapedType>(value.getType());
    auto q = qi8(type);
    // fp16 tensors are not quantised: scale 1, zero point 0.
    double scale = q ? q.getScale() : 1.0;
    int32_t zeroPoint = q ? q.getZeroPoint() : 0;
    Type element = q ? Type(b.getI8Type()) : b.getF16Type();
    declare(
        b, loc, "npuhw.io",
        {b.getNamedAttr("direction", npuhw::IoDirectionAttr::get(ctx, dir)),
         b.getNamedAttr("name", b.getStringAttr(name)),
         b.getNamedAttr("region", b.getI64IntegerAttr(regionIndex)),
         b.getNamedAttr("offset", b.getI64IntegerAttr(0)),
         b.getNamedAttr("element_type", TypeAttr::get(element)),
         b.getNamedAttr("shape", b.getDenseI64ArrayAttr(type.getShape())),
         b.getNamedAttr("layout", npuhw::IoLayoutAttr::get(
                                      ctx, npuhw::IoLayout::nhwc)),
         b.getNamedAttr("scale", b.getF32FloatAttr(scale)),
         b.getNamedAttr("zero_point", b.getI32IntegerAttr(zeroPoint))});
  };
  io(npuhw::IoDirection::input,
     ioNames(func, "inputs", "arg", func.getNumArguments())[inputIndex],
     place.inputRegion, input);
  io(npuhw::IoDirection::output, ioNames(func, "outputs", "result", 1)[0],
     place.outputRegion, output);

  Location cmdLoc = NameLoc::get(layerOp->getName().getIdentifier(),
                                 layerOp->getLoc());
  SmallVector<Value> last =
      emitConvCommands(b, cmdLoc, layer, tiling, place);
  OperationState end(loc, "npuhw.end");
  end.addOperands(last);
  b.create(end);
  func.erase();
  return success();
}

void ConvertNPUToNPUHWPass::runOnOperation() {
  SmallVector<func::FuncOp> funcs;
  for (auto func : getOperation().getOps<func::FuncOp>()) {
    bool hasNpu = false;
    func.walk([&](Operation *op) {
      if (isa<npu::NPUDialect>(op->getDialect()))
        hasNpu = true;
    });
    if (hasNpu)
      funcs.push_back(func);
  }
  for (func::FuncOp func : funcs)
    if (failed(lowerFunction(func)))
      return signalPassFailure();
}
