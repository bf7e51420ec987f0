//===- NPUOps.h - npu operations --------------------------------*- C++ -*-===//
//
// The operation classes of the npu dialect, their cost interface, and the
// quantisation helpers their verifiers and builders share.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUOPS_H
#define KILN_DIALECTS_NPU_IR_NPUOPS_H

#include "dialects/NPU/IR/NPUCost.h"
#include "dialects/NPU/IR/NPUDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <array>
#include <cstdint>
#include <optional>

namespace kiln::npu {

/// Named activations that npu.table can express (TFLite's LUT kernels).
enum class Activation : uint8_t { Relu, Relu6, Sigmoid, Tanh, HardSwish };

/// A real multiplier as a 32-bit fixed-point multiplier in [2^30, 2^31) and
/// an exponent: real ≈ multiplier · 2^(exponent − 31). VEC_REQUANT and
/// RESCALE shift right by 31 − exponent; VEC_ELTWISE's MBQM takes exponent
/// as its (left) shift.
struct QuantizedMultiplier {
  int32_t multiplier = 0;
  int exponent = 0;
};

/// Splits a positive finite \p real into a QuantizedMultiplier (rounding the
/// mantissa to 31 bits, as TFLite's QuantizeMultiplier does); nullopt for a
/// real that is not positive and finite.
std::optional<QuantizedMultiplier> quantizeMultiplier(double real);

/// The 256-entry table of \p activation from int8 \p input to int8
/// \p output quantisation: entry v + 128 is
/// clamp(round(f((v - in_zp) * in_scale) / out_scale) + out_zp, -128, 127).
std::array<int8_t, 256>
computeActivationTable(Activation activation,
                       mlir::quant::UniformQuantizedType input,
                       mlir::quant::UniformQuantizedType output);

} // namespace kiln::npu

#include "dialects/NPU/IR/NPUInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialects/NPU/IR/NPUOps.h.inc"

#endif // KILN_DIALECTS_NPU_IR_NPUOPS_H
