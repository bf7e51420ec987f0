//===- Arith.h - NPU-v1 bit-exact arithmetic primitives ---------*- C++ -*-===//
//
// The scalar primitives the NPU-v1 specification defines (docs/npu-isa.md,
// "Arithmetic"): software fp16 conversion, TOSA apply_scale_32, TFLite's
// MultiplyByQuantizedMultiplier, rounding division, saturation. The
// simulator's kernels use these; the independent reference does not.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_ARITH_H
#define KILN_RUNTIME_NPU_ARITH_H

#include <cstdint>
#include <cstring>

namespace kiln::npu {

/// Reinterprets a float as its bits.
inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
/// Reinterprets bits as a float.
inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// The canonical NaN every NaN converts to in fp16.
inline constexpr uint16_t kF16CanonicalNaN = 0x7e00;

/// Exact fp16 -> fp32 (denormals kept, NaN -> quiet NaN with payload).
float f16ToF32(uint16_t h);
/// fp32 -> fp16, round to nearest even, denormals kept, overflow to
/// infinity, any NaN -> kF16CanonicalNaN.
uint16_t f32ToF16(float f);

/// Saturates a 64-bit value into [lo, hi].
inline int64_t clampI64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

/// TOSA apply_scale_32: (value * multiplier + round) >> shift, with the
/// double-round adjustment for shift > 31; the result saturates to int32.
/// Requires 0 <= multiplier and 2 <= shift <= 62 (checked by callers).
inline int32_t applyScale32(int32_t value, int32_t multiplier, int shift,
                            bool doubleRound) {
  int64_t round = int64_t(1) << (shift - 1);
  if (doubleRound && shift > 31) {
    if (value >= 0)
      round += int64_t(1) << 30;
    else
      round -= int64_t(1) << 30;
  }
  int64_t result = (int64_t(value) * multiplier + round) >> shift;
  return static_cast<int32_t>(clampI64(result, INT32_MIN, INT32_MAX));
}

/// gemmlowp SaturatingRoundingDoublingHighMul.
inline int32_t srdhm(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  int64_t ab = int64_t(a) * b;
  int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  int64_t num = ab + nudge;
  // Division truncating toward zero, as gemmlowp does.
  return static_cast<int32_t>(num / (int64_t(1) << 31));
}

/// gemmlowp RoundingDivideByPOT: x / 2^exponent rounded half away from
/// zero; 0 <= exponent <= 31.
inline int32_t roundingDivideByPOT(int32_t x, int exponent) {
  int32_t mask = static_cast<int32_t>((int64_t(1) << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/// TFLite MultiplyByQuantizedMultiplier(x, multiplier, shift): shift > 0
/// shifts left first (wrapping), shift < 0 divides by 2^-shift after the high
/// multiply. Requires -31 <= shift <= 30.
inline int32_t multiplyByQuantizedMultiplier(int32_t x, int32_t multiplier,
                                             int shift) {
  int left = shift > 0 ? shift : 0;
  int right = shift > 0 ? 0 : -shift;
  int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  return roundingDivideByPOT(srdhm(shifted, multiplier), right);
}

/// Wrapping int32 addition.
inline int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) +
                              static_cast<uint32_t>(b));
}

/// Float -> int32 with round to nearest even, saturating; NaN -> 0.
int32_t f32ToI32Sat(float f);

/// TFLite average: sum / count rounded half away from zero (count > 0).
inline int32_t roundedAverage(int32_t sum, int32_t count) {
  return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_ARITH_H
