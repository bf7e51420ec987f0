//===- Int8.cpp - int8 NPU segments from calibrated ranges ------*- C++ -*-===//
//
// The int8 body of an NPU segment, as TFLite's post-training quantisation
// defines it: per-channel symmetric weights, i32 biases at input × weight
// scale, per-tensor asymmetric activations from the calibrated ranges, a
// bias and a Relu/Relu6 folded into the convolution, tables for the other
// activations, and quantisation (dequantisation) of the f32 arguments
// (results) at the segment's boundary. The ops are built by the fp16
// builders of Lowering.cpp (so windows, padding and broadcasts are decided
// once) and then given their int8 operands and types.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToNPU/TFToNPU.h"

#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_to_npu;
using quant::UniformQuantizedType;

namespace {

//===----------------------------------------------------------------------===//
// Quantisation parameters
//===----------------------------------------------------------------------===//

/// The per-tensor int8 type of values in \p range: the range widened to
/// hold 0, scale = (max - min) / 255, zero point = round(-128 - min / scale)
/// clamped to [-128, 127] (TFLite's asymmetric activations).
UniformQuantizedType activationType(MLIRContext *context, Range range) {
  double lo = std::min(range.min, 0.0), hi = std::max(range.max, 0.0);
  if (hi - lo < 1e-30)
    hi = lo + 1.0;
  double scale = (hi - lo) / 255.0;
  double zeroPoint = std::clamp(std::round(-128.0 - lo / scale), -128.0, 127.0);
  return UniformQuantizedType::get(
      quant::QuantizationFlags::Signed, IntegerType::get(context, 8),
      Float32Type::get(context), scale, static_cast<int64_t>(zeroPoint), -128,
      127);
}

/// The range of the values of \p data.
Range dataRange(DenseElementsAttr data) {
  Range range;
  bool first = true;
  for (float value : data.getValues<float>()) {
    range.min = first ? value : std::min<double>(range.min, value);
    range.max = first ? value : std::max<double>(range.max, value);
    first = false;
  }
  return range;
}

/// A tensor of \p shape with element type \p element.
RankedTensorType tensorOf(ArrayRef<int64_t> shape, Type element) {
  return RankedTensorType::get(shape, element);
}

/// The per-tensor quantised element type of \p type.
UniformQuantizedType quantTypeOf(Type type) {
  return cast<UniformQuantizedType>(getElementTypeOrSelf(type));
}

ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// \p values as an int8 constant of element type \p element (quantised),
/// through quant.scast.
Value int8Constant(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   ArrayRef<int8_t> values, Type element) {
  auto storage = tensorOf(shape, b.getI8Type());
  Value raw = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(storage, values));
  return quant::StorageCastOp::create(b, loc, tensorOf(shape, element), raw);
}

/// \p data quantised to the per-tensor type \p type.
Value quantizedConstant(OpBuilder &b, Location loc, DenseElementsAttr data,
                        UniformQuantizedType type) {
  SmallVector<int8_t> values;
  for (float value : data.getValues<float>())
    values.push_back(static_cast<int8_t>(
        std::clamp(std::round(value / type.getScale()) + type.getZeroPoint(),
                   -128.0, 127.0)));
  return int8Constant(b, loc, data.getType().getShape(), values, type);
}

/// Factors in fp16's normal range whose product is about \p real: powers of
/// two, then the rest rounded to fp16. Multiplying by them one by one
/// scales by \p real without leaving fp16's range.
SmallVector<double> f16Factors(double real) {
  SmallVector<double> factors;
  while (real > 32768.0) {
    factors.push_back(32768.0);
    real /= 32768.0;
  }
  while (real < 0x1p-14) {
    factors.push_back(0x1p-14);
    real /= 0x1p-14;
  }
  APFloat rest(real);
  bool lost = false;
  rest.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
  factors.push_back(rest.convertToDouble());
  return factors;
}

/// An f16 scalar constant (a one-element tensor, VEC_ELTWISE's SCALAR).
Value f16Scalar(OpBuilder &b, Location loc, double value) {
  APFloat half(value);
  bool lost = false;
  half.convert(APFloat::IEEEhalf(), APFloat::rmNearestTiesToEven, &lost);
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tensorOf({1}, b.getF16Type()), half));
}

//===----------------------------------------------------------------------===//
// Boundary
//===----------------------------------------------------------------------===//

/// f32 \p input to int8 \p type on the NPU: f32 -> f16, times c (fp16
/// factors) so that the range's largest magnitude becomes about 2^15, f16 ->
/// i32 (round to nearest even), read as i32 of scale 1/c, rescaled to
/// \p type (round, add zero point, saturate).
Value quantizeInput(OpBuilder &b, Location loc, Value input,
                    UniformQuantizedType type) {
  ArrayRef<int64_t> shape = shapeOf(input);
  double scale = type.getScale();
  double largest = std::max(std::fabs((-128.0 - type.getZeroPoint()) * scale),
                            std::fabs((127.0 - type.getZeroPoint()) * scale));
  Value h = npu::ConvertOp::create(b, loc, tensorOf(shape, b.getF16Type()),
                                   input);
  double product = 1.0;
  for (double factor : f16Factors(32768.0 / largest)) {
    h = npu::MulOp::create(b, loc, h.getType(), h, f16Scalar(b, loc, factor),
                           IntegerAttr(), IntegerAttr());
    product *= factor;
  }
  Value i = npu::ConvertOp::create(b, loc, tensorOf(shape, b.getI32Type()), h);
  auto wide = UniformQuantizedType::get(
      quant::QuantizationFlags::Signed, b.getI32Type(), b.getF32Type(),
      1.0 / product, 0, INT32_MIN, INT32_MAX);
  Value iq = quant::StorageCastOp::create(b, loc, tensorOf(shape, wide), i);
  return npu::RescaleOp::create(b, loc, tensorOf(shape, type), iq,
                                IntegerAttr(), IntegerAttr());
}

/// int8 \p value back to f32 \p type on the NPU: stored i8 -> f16, minus
/// the zero point (exact), times the scale (fp16 factors), f16 -> f32.
Value dequantizeOutput(OpBuilder &b, Location loc, Value value, Type type) {
  ArrayRef<int64_t> shape = shapeOf(value);
  auto quantType = quantTypeOf(value.getType());
  Value raw = quant::StorageCastOp::create(b, loc,
                                           tensorOf(shape, b.getI8Type()),
                                           value);
  auto f16 = tensorOf(shape, b.getF16Type());
  Value h = npu::ConvertOp::create(b, loc, f16, raw);
  if (quantType.getZeroPoint() != 0)
    h = npu::SubOp::create(b, loc, f16, h,
                           f16Scalar(b, loc, quantType.getZeroPoint()),
                           IntegerAttr(), IntegerAttr());
  for (double factor : f16Factors(quantType.getScale()))
    h = npu::MulOp::create(b, loc, f16, h, f16Scalar(b, loc, factor),
                           IntegerAttr(), IntegerAttr());
  return npu::ConvertOp::create(b, loc, type, h);
}

//===----------------------------------------------------------------------===//
// Convolutions with their bias and activation
//===----------------------------------------------------------------------===//

bool isMac(Operation *op) {
  return isa<tf::Conv2DOp, tf::DepthwiseConv2dNativeOp, tf::MatMulOp>(op);
}

/// A convolution, depthwise convolution or matmul and what folds into it:
/// a constant per-channel bias (BiasAdd, Add, AddV2), then Relu or Relu6,
/// each the only user of the value before it.
struct MacChain {
  Operation *mac = nullptr;
  Operation *bias = nullptr;
  DenseElementsAttr biasData;
  Operation *activation = nullptr;
  Operation *last() const {
    return activation ? activation : bias ? bias : mac;
  }
};

/// The only user of \p value when it is a member, else null.
Operation *soleMemberUser(Value value,
                         const llvm::SmallPtrSetImpl<Operation *> &members) {
  if (!value.hasOneUse())
    return nullptr;
  Operation *user = *value.getUsers().begin();
  return members.contains(user) ? user : nullptr;
}

/// The chains of the MAC ops among \p members, by MAC op.
DenseMap<Operation *, MacChain> findChains(ArrayRef<Operation *> members) {
  llvm::SmallPtrSet<Operation *, 32> memberSet(members.begin(),
                                               members.end());
  DenseMap<Operation *, MacChain> chains;
  for (Operation *op : members) {
    if (!isMac(op))
      continue;
    MacChain chain;
    chain.mac = op;
    Value current = op->getResult(0);
    int64_t channels = shapeOf(current).back();
    Operation *user = soleMemberUser(current, memberSet);
    if (user && isa<tf::BiasAddOp, tf::AddOp, tf::AddV2Op>(user) &&
        (user->getOperand(0) == current || !isa<tf::BiasAddOp>(user))) {
      Value other = user->getOperand(user->getOperand(0) == current ? 1 : 0);
      DenseElementsAttr data = getConstantData(other);
      ArrayRef<int64_t> shape = data ? data.getType().getShape()
                                     : ArrayRef<int64_t>();
      if (data && other != current && !shape.empty() &&
          shape.back() == channels && data.getNumElements() == channels &&
          shapeOf(user->getResult(0)) == shapeOf(current)) {
        chain.bias = user;
        chain.biasData = data;
        current = user->getResult(0);
        user = soleMemberUser(current, memberSet);
      }
    }
    if (user && isa<tf::ReluOp, tf::Relu6Op>(user))
      chain.activation = user;
    chains[op] = chain;
  }
  return chains;
}

/// The ops of \p chains other than their last: built with it.
llvm::SmallPtrSet<Operation *, 32>
foldedOps(const DenseMap<Operation *, MacChain> &chains) {
  llvm::SmallPtrSet<Operation *, 32> folded;
  for (const auto &[mac, chain] : chains)
    for (Operation *op : {chain.mac, chain.bias, chain.activation})
      if (op && op != chain.last())
        folded.insert(op);
  return folded;
}

/// Per-channel symmetric int8 weights of \p data (the channel is the last
/// dimension, the quantisation axis \p axis): scale = max|w| / 127 per
/// channel, zero point 0, but at least \p minScale. Returns the weight and
/// fills \p scales.
Value channelWeights(OpBuilder &b, Location loc, DenseElementsAttr data,
                     int32_t axis, double minScale,
                     SmallVectorImpl<double> &scales) {
  ArrayRef<int64_t> shape = data.getType().getShape();
  int64_t channels = shape.back() == 1 && axis + 2 == (int32_t)shape.size()
                         ? shape[axis]
                         : shape.back();
  auto values = llvm::to_vector(data.getValues<float>());
  scales.assign(channels, 0.0);
  for (auto [index, value] : llvm::enumerate(values))
    scales[index % channels] =
        std::max<double>(scales[index % channels], std::fabs(value));
  for (double &scale : scales)
    scale = std::max(scale > 0.0 ? scale / 127.0 : 1.0 / 127.0, minScale);
  SmallVector<int8_t> stored;
  for (auto [index, value] : llvm::enumerate(values))
    stored.push_back(static_cast<int8_t>(std::clamp(
        std::round(value / scales[index % channels]), -127.0, 127.0)));
  auto type = quant::UniformQuantizedPerAxisType::get(
      quant::QuantizationFlags::Signed, b.getI8Type(), b.getF32Type(), scales,
      SmallVector<int64_t>(channels, 0), axis, -128, 127);
  return int8Constant(b, loc, shape, stored, type);
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::vector<Value> tf_to_npu::int8RangeNeeds(ArrayRef<Operation *> members,
                                             ArrayRef<Value> inputs) {
  std::vector<Value> needs(inputs.begin(), inputs.end());
  llvm::SmallPtrSet<Operation *, 32> folded = foldedOps(findChains(members));
  for (Operation *op : members)
    if (!folded.contains(op) &&
        !isa<tf::MaxPoolOp, tf::AvgPoolOp, tf::MeanOp, tf::SigmoidOp,
             tf::TanhOp>(op))
      needs.push_back(op->getResult(0));
  return needs;
}

bool tf_to_npu::acceptInt8Only(Operation *op, Placement &why) {
  if (!isa<tf::SigmoidOp, tf::TanhOp>(op))
    return false;
  for (Value value : {op->getOperand(0), Value(op->getResult(0))}) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || !type.hasStaticShape() || !type.getElementType().isF32() ||
        type.getRank() < 1 || type.getRank() > 4) {
      why.kind = ReasonKind::Shape;
      why.reason = "npu.table needs static f32 tensors of rank 1 to 4";
      return false;
    }
  }
  return true;
}

namespace {

/// Operands of the fp16 builders in an int8 segment: the int8 values built
/// so far, and constants quantised per tensor with their own range (the
/// caller replaces weights and the operands of minimum/maximum).
class Int8Source final : public ValueSource {
public:
  Int8Source(OpBuilder &b, DenseMap<Value, Value> &mapped)
      : b(b), mapped(mapped) {}
  Value activation(Value value) override { return mapped.lookup(value); }
  Value constant(RankedTensorType, DenseElementsAttr data) override {
    Value value = quantizedConstant(
        b, b.getUnknownLoc(), data,
        activationType(b.getContext(), dataRange(data)));
    constants[value] = data;
    return value;
  }
  /// The f32 data of a constant this source built.
  DenseElementsAttr dataOf(Value value) const {
    return constants.lookup(value);
  }

private:
  OpBuilder &b;
  DenseMap<Value, Value> &mapped;
  DenseMap<Value, DenseElementsAttr> constants;
};

} // namespace

void tf_to_npu::buildInt8Segment(OpBuilder &b, ArrayRef<Operation *> members,
                                 ArrayRef<Value> inputs,
                                 ArrayRef<Value> arguments,
                                 ArrayRef<Value> outputs,
                                 const DenseMap<Value, Range> &ranges,
                                 SmallVectorImpl<Value> &results) {
  MLIRContext *context = b.getContext();
  auto typeOf = [&](Value value) {
    return activationType(context, ranges.at(value));
  };
  DenseMap<Value, Value> mapped;
  for (auto [input, argument] : llvm::zip(inputs, arguments))
    mapped[input] =
        quantizeInput(b, input.getLoc(), argument, typeOf(input));

  DenseMap<Operation *, MacChain> chains = findChains(members);
  llvm::SmallPtrSet<Operation *, 32> folded = foldedOps(chains);
  // The last op of a chain is built with its MAC op, which comes first.
  for (const auto &[mac, chain] : chains)
    folded.insert(chain.last());
  Int8Source source(b, mapped);
  for (Operation *op : members) {
    if (folded.contains(op) && !chains.count(op))
      continue;
    Value result = op->getResult(0);
    ArrayRef<int64_t> shape = shapeOf(result);
    Location loc = op->getLoc();
    auto table = [&](npu::Activation activation, UniformQuantizedType type) {
      mapped[result] = npu::TableOp::create(b, loc, tensorOf(shape, type),
                                            mapped.lookup(op->getOperand(0)),
                                            activation);
    };
    if (isa<tf::SigmoidOp>(op)) {
      // TFLite's fixed output quantisation of logistic and tanh.
      table(npu::Activation::Sigmoid,
            UniformQuantizedType::get(quant::QuantizationFlags::Signed,
                                      b.getI8Type(), b.getF32Type(),
                                      1.0 / 256.0, -128, -128, 127));
      continue;
    }
    if (isa<tf::TanhOp>(op)) {
      table(npu::Activation::Tanh,
            UniformQuantizedType::get(quant::QuantizationFlags::Signed,
                                      b.getI8Type(), b.getF32Type(),
                                      1.0 / 128.0, 0, -128, 127));
      continue;
    }
    if (isa<tf::ReluOp, tf::Relu6Op>(op)) {
      // Not folded into a convolution: a table from the input's
      // quantisation to the result's.
      table(isa<tf::ReluOp>(op) ? npu::Activation::Relu
                                : npu::Activation::Relu6,
            typeOf(result));
      continue;
    }

    Placement why;
    // The probe accepted every member, so this builds.
    Value built = *buildNPUOps(b, op, source, why);
    Operation *npuOp = built.getDefiningOp();
    Value input = npuOp->getOperand(0);
    if (isa<npu::MaxPool2DOp, npu::AvgPool2DOp>(npuOp)) {
      // Pools keep the input's quantisation.
      built.setType(tensorOf(shape, getElementTypeOrSelf(input.getType())));
      mapped[result] = built;
      continue;
    }
    auto it = chains.find(op);
    if (it == chains.end()) {
      // Element-wise: its own output quantisation; minimum and maximum
      // compare stored values, so their operands take the output's.
      // The built op's own shape: the Packs of a stacked up-sampling
      // (ssd320fpnlite's FPN) each build the whole rank-4 resize, not a
      // value of their own rank-5 shape.
      UniformQuantizedType type = typeOf(result);
      built.setType(tensorOf(shapeOf(built), type));
      if (isa<npu::MinimumOp, npu::MaximumOp>(npuOp)) {
        // The requantised operands go before the op that reads them (a
        // constant too: mobileface's PReLU is Maximum(x, 0) and more).
        b.setInsertionPoint(npuOp);
        for (OpOperand &operand : npuOp->getOpOperands()) {
          Value value = operand.get();
          if (DenseElementsAttr data = source.dataOf(value))
            operand.set(quantizedConstant(b, loc, data, type));
          else if (getElementTypeOrSelf(value.getType()) != type)
            operand.set(npu::RescaleOp::create(
                b, loc, tensorOf(shapeOf(value), type), value, IntegerAttr(),
                IntegerAttr()));
        }
        b.setInsertionPointAfter(npuOp);
      }
      mapped[result] = built;
      continue;
    }

    // A convolution, with its bias and activation folded in.
    const MacChain &chain = it->second;
    Value last = chain.last()->getResult(0);
    UniformQuantizedType outType = typeOf(last);
    auto inType = quantTypeOf(input.getType());
    Value rawWeight = npuOp->getOperand(1);
    int32_t axis = isa<npu::FullyConnectedOp>(npuOp) ? 1
                   : isa<npu::DepthwiseConv2DOp>(npuOp) ? 2
                                                        : 3;
    // A channel of near-zero weights (mobileface has channels of 1e-20)
    // would need a requantisation multiplier below VEC_REQUANT's 2^-32; its
    // scale is raised so the multiplier is 2^-31. Its weights then round to
    // 0 or near it, and what they contributed was below 2^-31 of an output
    // step per input step.
    double minScale = 0x1p-31 * outType.getScale() / inType.getScale();
    SmallVector<double> scales;
    b.setInsertionPoint(npuOp);
    Value weight = channelWeights(b, loc, source.dataOf(rawWeight), axis,
                                  minScale, scales);
    npuOp->setOperand(1, weight);
    if (chain.bias) {
      SmallVector<int32_t> bias;
      for (auto [c, value] :
           llvm::enumerate(chain.biasData.getValues<float>()))
        bias.push_back(static_cast<int32_t>(std::clamp(
            std::round(value / (inType.getScale() * scales[c])),
            double(INT32_MIN), double(INT32_MAX))));
      Value biasValue = arith::ConstantOp::create(
          b, chain.bias->getLoc(),
          DenseElementsAttr::get(
              tensorOf({(int64_t)bias.size()}, b.getI32Type()),
              ArrayRef(bias)));
      npuOp->insertOperands(2, ValueRange{biasValue});
    }
    b.setInsertionPointAfter(npuOp);
    // The per-tensor constant the fp16 builder asked for is not used.
    if (auto cast = rawWeight.getDefiningOp<quant::StorageCastOp>()) {
      Operation *raw = cast.getOperand().getDefiningOp();
      cast->erase();
      raw->erase();
    }
    if (chain.activation) {
      int64_t zero = outType.getZeroPoint();
      npuOp->setAttr("clamp_min", b.getI64IntegerAttr(zero));
      if (isa<tf::Relu6Op>(chain.activation))
        npuOp->setAttr("clamp_max",
                       b.getI64IntegerAttr(std::min<int64_t>(
                           127, zero + static_cast<int64_t>(std::round(
                                           6.0 / outType.getScale())))));
    }
    SmallVector<Location> locations;
    for (Operation *part : {chain.mac, chain.bias, chain.activation})
      if (part)
        locations.push_back(part->getLoc());
    npuOp->setLoc(b.getFusedLoc(locations));
    built.setType(tensorOf(shapeOf(last), outType));
    mapped[last] = built;
  }

  for (Value output : outputs)
    results.push_back(dequantizeOutput(b, output.getLoc(),
                                       mapped.lookup(output),
                                       output.getType()));
}
