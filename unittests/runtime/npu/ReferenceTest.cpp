//===- ReferenceTest.cpp - the reference's unary functions ------*- C++ -*-===//
//
// Hand-computed cases of ref::lookupInt8, clampInt, clampF16 and convert
// from the semantics of docs/npu-isa.md §6 (VEC_UNARY): saturation,
// round-to-nearest-even ties, NaN handling and the double rounding of
// i32 -> f16.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace kiln::npu {
namespace {

std::vector<uint8_t> i32Bytes(std::initializer_list<int32_t> values) {
  std::vector<uint8_t> out;
  for (int32_t v : values)
    for (int b = 0; b < 4; ++b)
      out.push_back(uint8_t(uint32_t(v) >> (8 * b)));
  return out;
}
std::vector<uint8_t> f32Bytes(std::initializer_list<float> values) {
  std::vector<uint8_t> out(values.size() * 4);
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}
std::vector<uint8_t> f16Bytes(std::initializer_list<uint16_t> values) {
  std::vector<uint8_t> out;
  for (uint16_t v : values) {
    out.push_back(uint8_t(v));
    out.push_back(uint8_t(v >> 8));
  }
  return out;
}

TEST(NPUReference, LookupInt8) {
  std::vector<int8_t> table(256);
  for (int i = 0; i < 256; ++i)
    table[i] = int8_t(127 - i); // v -> -1 - v
  EXPECT_EQ(ref::lookupInt8({-128, -1, 0, 5, 127}, table),
            (std::vector<int8_t>{127, 0, -1, -6, -128}));
}

TEST(NPUReference, ClampInt) {
  EXPECT_EQ(ref::clampInt({-200, -5, 0, 7, 40000}, -5, 6),
            (std::vector<int32_t>{-5, -5, 0, 6, 6}));
}

TEST(NPUReference, ClampF16) {
  // Bounds -1.0 (0xbc00) and 6.0 (0x4600); -2, 0.5, 7, +inf, NaN, -0.
  std::vector<uint16_t> got =
      ref::clampF16({0xc000, 0x3800, 0x4700, 0x7c00, 0x7d01, 0x8000}, 0xbc00,
                    0x4600);
  EXPECT_EQ(got, (std::vector<uint16_t>{0xbc00, 0x3800, 0x4600, 0x4600,
                                        0x7e00, 0x8000}));
}

TEST(NPUReference, ConvertIntegers) {
  using ref::DataType;
  EXPECT_EQ(ref::convert(i32Bytes({-1000, -128, 5, 127, 300}), DataType::I32,
                         DataType::I8),
            (std::vector<uint8_t>{0x80, 0x80, 5, 127, 127}));
  EXPECT_EQ(ref::convert({0xff, 0x80}, DataType::I8, DataType::I32),
            i32Bytes({-1, -128}));
}

TEST(NPUReference, ConvertFloatToInt) {
  using ref::DataType;
  float nan = std::numeric_limits<float>::quiet_NaN();
  float inf = std::numeric_limits<float>::infinity();
  // Ties to even: 2.5 -> 2, -3.5 -> -4; saturation; NaN -> 0.
  EXPECT_EQ(ref::convert(f32Bytes({2.5f, -3.5f, 1e10f, -inf, nan, 0.49f}),
                         DataType::F32, DataType::I32),
            i32Bytes({2, -4, 2147483647, -2147483647 - 1, 0, 0}));
  EXPECT_EQ(ref::convert(f32Bytes({200.0f, -128.5f, 126.5f}), DataType::F32,
                         DataType::I8),
            (std::vector<uint8_t>{127, 0x80, 126}));
  // fp16 1.5 (0x3e00) -> 2, -0.5 (0xb800) -> 0, 65504 -> 127 in i8.
  EXPECT_EQ(ref::convert(f16Bytes({0x3e00, 0xb800, 0x7bff}), DataType::F16,
                         DataType::I8),
            (std::vector<uint8_t>{2, 0, 127}));
}

TEST(NPUReference, ConvertIntToFloat) {
  using ref::DataType;
  // 2^24 + 1 rounds to 2^24 in fp32 (tie to even); 16777219 to 16777220.
  EXPECT_EQ(ref::convert(i32Bytes({16777217, 16777219, -3}), DataType::I32,
                         DataType::F32),
            f32Bytes({16777216.0f, 16777220.0f, -3.0f}));
  // i32 -> f16 rounds twice: 2049 -> fp32 2049 -> fp16 2048 (tie to even);
  // 70000 overflows to +inf; -128 (i8) is exact.
  EXPECT_EQ(ref::convert(i32Bytes({2049, 70000}), DataType::I32,
                         DataType::F16),
            f16Bytes({0x6800, 0x7c00}));
  EXPECT_EQ(ref::convert({0x80}, DataType::I8, DataType::F16),
            f16Bytes({0xd800}));
}

TEST(NPUReference, ConvertFloats) {
  using ref::DataType;
  // f16 -> f32 exact (1.0, smallest denormal 2^-24); f32 -> f16 rounds
  // (1 + 2^-11 ties to 1.0), overflows (65520 -> inf), canonical NaN.
  EXPECT_EQ(ref::convert(f16Bytes({0x3c00, 0x0001}), DataType::F16,
                         DataType::F32),
            f32Bytes({1.0f, std::ldexp(1.0f, -24)}));
  EXPECT_EQ(ref::convert(f32Bytes({1.0f + std::ldexp(1.0f, -11), 65520.0f,
                                   std::numeric_limits<float>::quiet_NaN()}),
                         DataType::F32, DataType::F16),
            f16Bytes({0x3c00, 0x7c00, 0x7e00}));
  // f16 -> f16 passes values and canonicalises NaN.
  EXPECT_EQ(ref::convert(f16Bytes({0x1234, 0xfd00}), DataType::F16,
                         DataType::F16),
            f16Bytes({0x1234, 0x7e00}));
}

TEST(NPUReference, ResizeNearest) {
  // 1x2 image of 2-byte pixels {a, b} and {c, d}, by 2x3: every pixel three
  // times along the row, the row twice.
  std::vector<uint8_t> in = {1, 2, 3, 4};
  std::vector<uint8_t> row = {1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4};
  std::vector<uint8_t> want = row;
  want.insert(want.end(), row.begin(), row.end());
  EXPECT_EQ(ref::resizeNearest(in, 1, 2, 1, 2, 2, 3), want);
}

TEST(NPUReference, ResizeBilinear2x) {
  // [[0 16] [32 48]] with zero point 0: separably 0.25/0.75 weights with
  // the border repeated, 16 times the interpolated value.
  std::vector<int32_t> want = {0,   64,  192, 256, 128, 192, 320, 384,
                               384, 448, 576, 640, 512, 576, 704, 768};
  EXPECT_EQ(ref::resizeBilinear2xInt8({0, 16, 32, 48}, 2, 2, 1, 0), want);
  // The zero point is subtracted: a constant image at the zero point is 0.
  EXPECT_EQ(ref::resizeBilinear2xInt8({-5, -5, -5, -5}, 2, 2, 1, -5),
            std::vector<int32_t>(16, 0));
  // fp16 [[1 2] [3 4]]: output (1, 1) is 1*9/16 + 2*3/16 + 3*3/16 + 4/16 =
  // 1.75, the corners repeat the input; +0.0 plus -0.0 products is +0.0.
  std::vector<float> f = ref::resizeBilinear2xF16(
      {0x3c00, 0x4000, 0x4200, 0x4400}, 2, 2, 1);
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_EQ(f[5], 1.75f);
  EXPECT_EQ(f[15], 4.0f);
  std::vector<float> z = ref::resizeBilinear2xF16({0x8000}, 1, 1, 1);
  EXPECT_FALSE(std::signbit(z[0]));
}

} // namespace
} // namespace kiln::npu
