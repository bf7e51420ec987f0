//===- NPUOps.cpp - npu operations ------------------------------*- C++ -*-===//
//
// Verifiers of the element-wise and unary npu operations, the table
// builder, and the quantised-multiplier helper.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPU/IR/NPUVerifyUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

#include <cmath>

using namespace mlir;
using namespace kiln::npu;
using namespace kiln::npu::detail;

#include "dialects/NPU/IR/NPUInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/NPU/IR/NPUOps.cpp.inc"

std::optional<QuantizedMultiplier> kiln::npu::quantizeMultiplier(double real) {
  if (!(real > 0) || !std::isfinite(real))
    return std::nullopt;
  int exponent = 0;
  double mantissa = std::frexp(real, &exponent); // in [0.5, 1)
  int64_t fixed = std::llround(mantissa * 2147483648.0);
  if (fixed == (int64_t(1) << 31)) {
    fixed /= 2;
    ++exponent;
  }
  return QuantizedMultiplier{static_cast<int32_t>(fixed), exponent};
}

//===----------------------------------------------------------------------===//
// Element-wise operations
//===----------------------------------------------------------------------===//

namespace {
/// The arithmetic of an element-wise op, for its rescaling rules.
enum class EltKind { AddSub, Mul, MinMax };
} // namespace

static LogicalResult verifyEltwise(Operation *op, EltKind kind) {
  auto lhs = cast<ShapedType>(op->getOperand(0).getType());
  auto rhs = cast<ShapedType>(op->getOperand(1).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  Attribute clampMin = op->getAttr("clamp_min");
  Attribute clampMax = op->getAttr("clamp_max");
  if (lhs.getRank() < 1 || lhs.getRank() > 4)
    return op->emitOpError() << "lhs must have rank 1 to 4, got " << lhs;
  if (out.getShape() != lhs.getShape())
    return op->emitOpError() << "output shape must equal lhs's, got " << out;
  int64_t channels = lhs.getShape().back();
  bool tensor = rhs.getShape() == lhs.getShape();
  bool scalar = rhs.getNumElements() == 1;
  bool channel = rhs.getRank() >= 1 && rhs.getShape().back() == channels &&
                 llvm::all_of(rhs.getShape().drop_back(),
                              [](int64_t d) { return d == 1; });
  if (!tensor && !scalar && !channel)
    return op->emitOpError()
           << "rhs must have lhs's shape, be a per-channel vector of "
           << channels << " or a single element (VEC_ELTWISE's TENSOR, "
           << "CHANNEL and SCALAR broadcasts), got " << rhs;
  if (isF16(lhs)) {
    if (!isF16(rhs) || !isF16(out))
      return op->emitOpError()
             << "fp16 lhs needs f16 rhs and output, got "
             << rhs.getElementType() << " and " << out.getElementType();
    if (clampMin || clampMax)
      return op->emitOpError()
             << "VEC_ELTWISE does not clamp fp16 results (use npu.clamp)";
  } else {
    auto q1 = getQI8(lhs), q2 = getQI8(rhs), qo = getQI8(out);
    if (!q1 || !q2 || !qo)
      return op->emitOpError()
             << "operands and output must be all f16 or "
                "all int8 quantised per tensor, got "
             << lhs.getElementType() << ", " << rhs.getElementType() << " and "
             << out.getElementType();
    if (failed(checkZeroPoint(op, "lhs", q1, "VEC_ELTWISE 'in1_zp'")) ||
        failed(checkZeroPoint(op, "rhs", q2, "VEC_ELTWISE 'in2_zp'")) ||
        failed(checkZeroPoint(op, "output", qo, "VEC_ELTWISE 'out_zp'")))
      return failure();
    if (kind == EltKind::MinMax) {
      if (q1 != q2 || q1 != qo)
        return op->emitOpError()
               << "compares stored values, so lhs, rhs and output need "
                  "equal quantisation, got "
               << q1 << ", " << q2 << " and " << qo;
    } else if (kind == EltKind::Mul) {
      if (failed(checkEltwiseMultiplier(
              op, q1.getScale() * q2.getScale() / qo.getScale(),
              "output multiplier (lhs scale * rhs scale / output scale)")))
        return failure();
    } else {
      // TFLite's integer add: inputs to twice the larger scale with 20 bits
      // of headroom, the sum to the output scale.
      double twiceMax = 2 * std::max(q1.getScale(), q2.getScale());
      if (failed(checkEltwiseMultiplier(op, q1.getScale() / twiceMax,
                                        "lhs multiplier")) ||
          failed(checkEltwiseMultiplier(op, q2.getScale() / twiceMax,
                                        "rhs multiplier")) ||
          failed(checkEltwiseMultiplier(
              op, twiceMax / (double(1 << 20) * qo.getScale()),
              "output multiplier (2 * max input scale / (2^20 * output "
              "scale))")))
        return failure();
    }
    if (failed(checkClampI8(op, clampMin, clampMax)))
      return failure();
  }
  // The lowering streams positions through two buffers per streamed
  // operand and the output: 16 elements per position (TENSOR and SCALAR
  // broadcasts, any shape), or the channels padded to 16 beside the
  // broadcast vector (CHANNEL). One position is the least it needs, so a
  // long tensor (12804x8) only takes more bands.
  const bool byChannel = !tensor && !scalar;
  const uint64_t blocks = byChannel ? (channels + 15) / 16 : 1;
  const uint64_t position = blocks * 16 * elementBytes(lhs);
  return checkLmem(op, targetConfigFor(op), LmemRegion::ACT,
                   position * (2 * (tensor ? 3 : 2) + (byChannel ? 1 : 0)),
                   "two buffers of one position of each streamed operand "
                   "and of the output" +
                       Twine(byChannel ? ", and the channel vector" : "") +
                       " (" + Twine(blocks) + " channel block(s))");
}

LogicalResult AddOp::verify() { return verifyEltwise(*this, EltKind::AddSub); }
LogicalResult SubOp::verify() { return verifyEltwise(*this, EltKind::AddSub); }
LogicalResult MulOp::verify() { return verifyEltwise(*this, EltKind::Mul); }
LogicalResult MinimumOp::verify() {
  return verifyEltwise(*this, EltKind::MinMax);
}
LogicalResult MaximumOp::verify() {
  return verifyEltwise(*this, EltKind::MinMax);
}

//===----------------------------------------------------------------------===//
// Unary operations
//===----------------------------------------------------------------------===//

/// Checks that a unary op's output has its input's shape.
static LogicalResult verifySameShape(Operation *op) {
  auto in = cast<ShapedType>(op->getOperand(0).getType());
  auto out = cast<ShapedType>(op->getResult(0).getType());
  if (in.getShape() != out.getShape())
    return op->emitOpError() << "output shape must equal the input's, got "
                             << in << " and " << out;
  return success();
}

LogicalResult RescaleOp::verify() {
  if (failed(verifySameShape(*this)))
    return failure();
  Type inElement = getInput().getType().getElementType();
  auto in = dyn_cast<quant::UniformQuantizedType>(inElement);
  if (!in || !in.isSigned() ||
      (in.getStorageTypeIntegralWidth() != 8 &&
       in.getStorageTypeIntegralWidth() != 32))
    return emitOpError() << "input element type must be int8 or int32 "
                            "quantised per tensor, got "
                         << inElement;
  if (in.getStorageTypeIntegralWidth() == 32 && in.getZeroPoint() != 0)
    return emitOpError() << "int32 input zero point " << in.getZeroPoint()
                         << " must be 0 (RESCALE subtracts in_zp from int8 "
                            "input only)";
  auto out = getQI8(getOutput().getType());
  if (!out)
    return emitOpError()
           << "output element type must be int8 quantised per tensor, got "
           << getOutput().getType().getElementType();
  if ((in.getStorageTypeIntegralWidth() == 8 &&
       failed(checkZeroPoint(*this, "input", in, "VEC_UNARY 'in_zp'"))) ||
      failed(checkZeroPoint(*this, "output", out, "VEC_UNARY 'out_zp'")))
    return failure();
  if (failed(checkRequantMultiplier(*this, in.getScale() / out.getScale(),
                                    "multiplier (input scale / output scale)")))
    return failure();
  return checkClampI8(*this, getClampMinAttr(), getClampMaxAttr());
}

LogicalResult TableOp::verify() {
  if (failed(verifySameShape(*this)))
    return failure();
  if (!getQI8(getInput().getType()) || !getQI8(getOutput().getType()))
    return emitOpError() << "input and output must be int8 quantised per "
                            "tensor, got "
                         << getInput().getType().getElementType() << " and "
                         << getOutput().getType().getElementType();
  if (getTable().size() != 256)
    return emitOpError() << "table must have 256 entries, got "
                         << getTable().size();
  return success();
}

void TableOp::build(OpBuilder &builder, OperationState &state, Type resultType,
                    Value input, Activation activation) {
  auto in = getQI8(input.getType());
  auto out = getQI8(resultType);
  std::array<int8_t, 256> table{};
  // Non-int8 types fail verification; the table is then all zero.
  if (in && out)
    table = computeActivationTable(activation, in, out);
  build(builder, state, resultType, input, builder.getDenseI8ArrayAttr(table));
}

LogicalResult ClampOp::verify() {
  if (getInput().getType() != getOutput().getType())
    return emitOpError() << "output type must equal the input type, got "
                         << getInput().getType() << " and "
                         << getOutput().getType();
  Type input = getInput().getType();
  if (isF16(input)) {
    auto lo = dyn_cast<FloatAttr>(getMin()), hi = dyn_cast<FloatAttr>(getMax());
    if (!lo || !hi)
      return emitOpError() << "fp16 clamp bounds must be floats";
    for (FloatAttr bound : {lo, hi})
      if (std::fabs(bound.getValueAsDouble()) > 65504.0 &&
          !std::isinf(bound.getValueAsDouble()))
        return emitOpError() << "bound " << realString(bound.getValueAsDouble())
                             << " is not representable in fp16 (max 65504)";
    if (!(lo.getValueAsDouble() <= hi.getValueAsDouble()))
      return emitOpError() << "clamp range ["
                           << realString(lo.getValueAsDouble()) << ", "
                           << realString(hi.getValueAsDouble()) << "] is empty";
    return success();
  }
  bool i8 = static_cast<bool>(getQI8(input));
  if (!i8 && !isInt(input, 32))
    return emitOpError() << "element type must be f16, i32 or int8 quantised "
                            "per tensor, got "
                         << getInput().getType().getElementType();
  auto lo = dyn_cast<IntegerAttr>(getMin()),
       hi = dyn_cast<IntegerAttr>(getMax());
  if (!lo || !hi)
    return emitOpError() << "integer clamp bounds must be integers";
  int64_t limit = i8 ? 128 : 32768;
  for (IntegerAttr bound : {lo, hi})
    if (bound.getInt() < -limit || bound.getInt() >= limit)
      return emitOpError() << "bound " << bound.getInt() << " does not fit "
                           << (i8 ? "int8" : "the s16 'min'/'max' fields")
                           << " ([" << -limit << ", " << limit - 1 << "])";
  if (lo.getInt() > hi.getInt())
    return emitOpError() << "clamp range [" << lo.getInt() << ", "
                         << hi.getInt() << "] is empty";
  return success();
}

LogicalResult ConvertOp::verify() {
  if (failed(verifySameShape(*this)))
    return failure();
  for (Type type : {getInput().getType().getElementType(),
                    getOutput().getType().getElementType()}) {
    if (isa<quant::QuantizedType>(type))
      return emitOpError() << "converts raw values; quantised type " << type
                           << " needs npu.rescale";
    if (!type.isSignlessInteger(8) && !type.isSignlessInteger(32) &&
        !type.isF16() && !type.isF32())
      return emitOpError() << "element type must be i8, i32, f16 or f32, got "
                           << type;
  }
  return success();
}
