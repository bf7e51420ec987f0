//===- ArithTest.cpp - fp16 and rescaling primitives ------------*- C++ -*-===//
//
// The simulator's primitives against the reference's independent versions:
// every fp16 value, rounding ties, denormals, infinities, and random
// rescaling inputs.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Arith.h"
#include "runtime/npu/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <random>

namespace kiln::npu {
namespace {

TEST(NPUArith, F16ToF32EveryValue) {
  for (uint32_t h = 0; h < 65536; ++h) {
    float a = f16ToF32(uint16_t(h)), b = ref::halfToFloat(uint16_t(h));
    if (std::isnan(b)) {
      ASSERT_TRUE(std::isnan(a)) << h;
      continue;
    }
    ASSERT_EQ(floatBits(a), floatBits(b)) << "fp16 0x" << std::hex << h;
    // Every non-NaN fp16 value survives the round trip.
    ASSERT_EQ(f32ToF16(a), h) << std::hex << h;
  }
}

TEST(NPUArith, F32ToF16TiesGoToEven) {
  // The midpoint between each pair of adjacent finite fp16 values.
  for (uint32_t h = 0; h < 0x7bff; ++h) {
    double lo = ref::halfToFloat(uint16_t(h)),
           hi = ref::halfToFloat(uint16_t(h + 1));
    float mid = static_cast<float>((lo + hi) / 2);
    ASSERT_EQ(double(mid), (lo + hi) / 2); // Exact in fp32.
    uint16_t even = (h & 1) ? uint16_t(h + 1) : uint16_t(h);
    ASSERT_EQ(f32ToF16(mid), even) << std::hex << h;
    ASSERT_EQ(f32ToF16(-mid), even | 0x8000) << std::hex << h;
    // Just above and below the midpoint.
    ASSERT_EQ(f32ToF16(std::nextafter(mid, 1e9f)), h + 1) << std::hex << h;
    ASSERT_EQ(f32ToF16(std::nextafter(mid, -1e9f)), h) << std::hex << h;
  }
}

TEST(NPUArith, F32ToF16EdgeCases) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(f32ToF16(65504.0f), 0x7bff);
  EXPECT_EQ(f32ToF16(65519.0f), 0x7bff);
  EXPECT_EQ(f32ToF16(65520.0f), 0x7c00); // Tie above the largest: infinity.
  EXPECT_EQ(f32ToF16(1e10f), 0x7c00);
  EXPECT_EQ(f32ToF16(-1e10f), 0xfc00);
  EXPECT_EQ(f32ToF16(inf), 0x7c00);
  EXPECT_EQ(f32ToF16(-inf), 0xfc00);
  EXPECT_EQ(f32ToF16(std::nanf("")), kF16CanonicalNaN);
  EXPECT_EQ(f32ToF16(-std::nanf("")), kF16CanonicalNaN);
  EXPECT_EQ(f32ToF16(0.0f), 0x0000);
  EXPECT_EQ(f32ToF16(-0.0f), 0x8000);
  EXPECT_EQ(f32ToF16(std::ldexp(1.0f, -24)), 0x0001); // Smallest denormal.
  EXPECT_EQ(f32ToF16(std::ldexp(1.0f, -25)), 0x0000); // Tie: to even 0.
  EXPECT_EQ(f32ToF16(std::ldexp(1.5f, -25)), 0x0001);
  EXPECT_EQ(f32ToF16(std::ldexp(3.0f, -25)), 0x0002);    // 1.5 ulp: tie to 2.
  EXPECT_EQ(f32ToF16(std::ldexp(1.0f, -14)), 0x0400);    // Smallest normal.
  EXPECT_EQ(f32ToF16(std::ldexp(1023.5f, -24)), 0x0400); // Rounds up a binade.
  EXPECT_EQ(f32ToF16(std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(f32ToF16(-std::numeric_limits<float>::denorm_min()), 0x8000);
  EXPECT_EQ(f16ToF32(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(f16ToF32(0x03ff), std::ldexp(1023.0f, -24));
}

TEST(NPUArith, F32ToF16MatchesReferenceOnRandomFloats) {
  std::mt19937 rng(17);
  for (int i = 0; i < 300000; ++i) {
    uint32_t bits = rng();
    // Concentrate on the fp16 exponent range and its surroundings.
    if (i % 2)
      bits = (bits & 0x807fffffu) | (uint32_t(100 + rng() % 60) << 23);
    float f = bitsFloat(bits);
    ASSERT_EQ(f32ToF16(f), ref::floatToHalf(f)) << std::hex << bits;
  }
}

TEST(NPUArith, ApplyScaleMatchesReference) {
  std::mt19937 rng(23);
  for (int i = 0; i < 200000; ++i) {
    int32_t value = static_cast<int32_t>(rng());
    if (i % 3 == 0)
      value >>= rng() % 31;
    int32_t mult = static_cast<int32_t>(rng() & 0x7fffffff);
    int shift = 2 + rng() % 61;
    bool dr = rng() & 1;
    ASSERT_EQ(applyScale32(value, mult, shift, dr),
              ref::applyScale32(value, mult, shift, dr))
        << value << " " << mult << " " << shift << " " << dr;
  }
  // Round half up (TOSA single round) and the double-round adjustment.
  EXPECT_EQ(applyScale32(3, 1 << 30, 31, false), 2);   // 1.5 -> 2.
  EXPECT_EQ(applyScale32(-3, 1 << 30, 31, false), -1); // -1.5 -> -1.
  EXPECT_EQ(applyScale32(INT32_MAX, INT32_MAX, 2, false), INT32_MAX);
  EXPECT_EQ(applyScale32(INT32_MIN, INT32_MAX, 2, false), INT32_MIN);
}

TEST(NPUArith, TfliteMultiplierMatchesReference) {
  std::mt19937 rng(29);
  for (int i = 0; i < 200000; ++i) {
    int32_t x = static_cast<int32_t>(rng());
    if (i % 2)
      x >>= rng() % 31;
    int32_t mult = static_cast<int32_t>(rng());
    int shift = int(rng() % 62) - 31;
    ASSERT_EQ(multiplyByQuantizedMultiplier(x, mult, shift),
              ref::multiplyByQuantizedMultiplier(x, mult, shift))
        << x << " " << mult << " " << shift;
  }
  EXPECT_EQ(srdhm(INT32_MIN, INT32_MIN), INT32_MAX);
  EXPECT_EQ(roundingDivideByPOT(5, 1), 3);   // 2.5 -> 3.
  EXPECT_EQ(roundingDivideByPOT(-5, 1), -3); // -2.5 -> -3.
  EXPECT_EQ(roundedAverage(5, 2), 3);
  EXPECT_EQ(roundedAverage(-5, 2), -3);
  EXPECT_EQ(roundedAverage(7, 3), 2);
}

} // namespace
} // namespace kiln::npu
