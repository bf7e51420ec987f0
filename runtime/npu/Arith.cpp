//===- Arith.cpp - NPU-v1 bit-exact arithmetic primitives -------*- C++ -*-===//
//
// Software fp16 conversion and float-to-int rounding.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Arith.h"

#include <cmath>

namespace kiln::npu {

float f16ToF32(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13) | (mant ? 0x400000u : 0);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {
    // Denormal: normalise.
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while (!(mant & 0x400));
    bits = sign | (uint32_t(112 - e) << 23) | ((mant & 0x3ff) << 13);
  }
  return bitsFloat(bits);
}

uint16_t f32ToF16(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t mant = x & 0x7fffff;
  if (exp == 0xff)
    return mant ? kF16CanonicalNaN : static_cast<uint16_t>(sign | 0x7c00);
  int e = int(exp) - 127 + 15; // Biased fp16 exponent.
  if (e >= 0x1f)
    return static_cast<uint16_t>(sign | 0x7c00);
  if (e <= 0) {
    // Result is a denormal or zero: value = 1.mant * 2^(exp-127); the fp16
    // denormal unit is 2^-24, so keep (1.mant) >> (14 - e) with RNE.
    if (e < -10)
      return sign; // Below half the smallest denormal (exactly half: even=0).
    uint32_t full = mant | 0x800000u;
    unsigned shiftBy = static_cast<unsigned>(14 - e);
    uint32_t q = full >> shiftBy;
    uint32_t rem = full & ((1u << shiftBy) - 1);
    uint32_t half = 1u << (shiftBy - 1);
    if (rem > half || (rem == half && (q & 1)))
      ++q;
    return static_cast<uint16_t>(sign | q);
  }
  uint32_t q = (uint32_t(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (q & 1)))
    ++q; // May carry into the exponent, up to infinity: both correct.
  return static_cast<uint16_t>(sign | q);
}

int32_t f32ToI32Sat(float f) {
  if (std::isnan(f))
    return 0;
  if (f >= 2147483648.0f)
    return INT32_MAX;
  if (f < -2147483648.0f)
    return INT32_MIN;
  return static_cast<int32_t>(std::nearbyint(f));
}

} // namespace kiln::npu
