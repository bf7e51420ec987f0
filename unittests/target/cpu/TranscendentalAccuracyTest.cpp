//===- TranscendentalAccuracyTest.cpp - vector exp/log/tanh vs libm -*- C++ -*-===//
//
// kiln-cpu-approximate-math replaces libm's expf, logf and tanhf on vectors
// by polynomial approximations. This measures, through an object kiln-compile
// wrote (transcendentals.mlir: tf.Exp, tf.Log, tf.Tanh, tf.Sigmoid of one
// feed), the largest error of each against libm over a sweep of f32 inputs:
// every 257th bit pattern of the range, in units in the last place (ulp) and
// relative to libm's result. The bounds asserted are the measured figures
// with a small margin; docs/performance.md states the figures.
//
//===----------------------------------------------------------------------===//

#include "transcendentals_model.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <string>

namespace {

/// A float's position on the number line as an integer: adjacent floats
/// differ by one, +0 and -0 coincide.
int64_t ordinal(float x) {
  int32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits < 0 ? -static_cast<int64_t>(bits & 0x7fffffff) : bits;
}

float fromBits(uint32_t bits) {
  float x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// The largest errors of one function over a sweep.
struct Errors {
  int64_t maxUlp = 0;
  double maxRelative = 0;
  double maxAbsolute = 0;
  float worstInput = 0;
  int64_t mismatchedSpecials = 0;
  int64_t count = 0;
};

/// Which fetch of the model a function is.
enum class Fn { Exp, Log, Tanh, Sigmoid };

/// Runs the model on the floats whose bit patterns go from `first` to
/// `last` by `stride` (in the order of the number line, through zero when
/// the range has both signs), comparing fetch `fn` with `reference`.
Errors sweep(kiln_test::Transcendentals &model, Fn fn, float lo, float hi,
             int64_t stride, const std::function<float(float)> &reference) {
  Errors errors;
  const int64_t n = model.feed_count(0);
  const int64_t first = ordinal(lo), last = ordinal(hi);
  for (int64_t start = first; start <= last; start += n * stride) {
    float *x = model.feed_x_data();
    int64_t used = 0;
    for (; used < n; ++used) {
      int64_t o = std::min(start + used * stride, last);
      uint32_t bits = o < 0 ? (0x80000000u | static_cast<uint32_t>(-o))
                            : static_cast<uint32_t>(o);
      x[used] = fromBits(bits);
    }
    EXPECT_TRUE(model.Run());
    const float *y = fn == Fn::Exp    ? model.fetch_exp_data()
                     : fn == Fn::Log  ? model.fetch_log_data()
                     : fn == Fn::Tanh ? model.fetch_tanh_data()
                                      : model.fetch_sigmoid_data();
    for (int64_t i = 0; i < n; ++i) {
      float want = reference(x[i]);
      float got = y[i];
      ++errors.count;
      if (!std::isfinite(want) || !std::isfinite(got)) {
        bool same = (std::isnan(want) && std::isnan(got)) || want == got;
        errors.mismatchedSpecials += same ? 0 : 1;
        continue;
      }
      int64_t ulp = std::abs(ordinal(got) - ordinal(want));
      double absolute = std::fabs(static_cast<double>(got) - want);
      double relative = want != 0 ? absolute / std::fabs(want) : absolute;
      if (ulp > errors.maxUlp) {
        errors.maxUlp = ulp;
        errors.worstInput = x[i];
      }
      errors.maxRelative = std::max(errors.maxRelative, relative);
      errors.maxAbsolute = std::max(errors.maxAbsolute, absolute);
    }
  }
  return errors;
}

void report(const char *name, const Errors &e) {
  std::printf("%-8s %9lld inputs: max %lld ulp (at x = %.9g), max relative "
              "%.3g, max absolute %.3g\n",
              name, static_cast<long long>(e.count),
              static_cast<long long>(e.maxUlp), e.worstInput, e.maxRelative,
              e.maxAbsolute);
  ::testing::Test::RecordProperty(std::string(name) + "_max_ulp",
                                  std::to_string(e.maxUlp));
}

constexpr int64_t kStride = 257;

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

TEST(TranscendentalAccuracy, ExpWithinThreeUlpOfLibm) {
  kiln_test::Transcendentals model;
  // Results from the smallest normal float (below it the approximation
  // flushes to zero) to 2^127.5: the range reduction keeps the reduced
  // argument within [-ln 2 / 2, ln 2 / 2] there.
  Errors e = sweep(model, Fn::Exp, -87.33f, 88.37f, kStride,
                   [](float x) { return std::exp(x); });
  report("exp", e);
  EXPECT_EQ(e.mismatchedSpecials, 0);
  EXPECT_LE(e.maxUlp, 3);
  EXPECT_LT(e.maxRelative, 3e-7);
  // Above, the power of two is capped at 2^127 and the reduced argument
  // grows to 0.69, where the polynomial is less accurate (measured: 5 ulp).
  Errors top = sweep(model, Fn::Exp, 88.37f, 88.72f, 1,
                     [](float x) { return std::exp(x); });
  report("exp-top", top);
  EXPECT_EQ(top.mismatchedSpecials, 0);
  EXPECT_LE(top.maxUlp, 8);
  EXPECT_LT(top.maxRelative, 1e-6);
}

TEST(TranscendentalAccuracy, LogWithinThreeUlpOfLibm) {
  kiln_test::Transcendentals model;
  // Every positive normal float, and +inf.
  Errors e = sweep(model, Fn::Log, std::numeric_limits<float>::min(),
                   std::numeric_limits<float>::infinity(), kStride,
                   [](float x) { return std::log(x); });
  report("log", e);
  EXPECT_EQ(e.mismatchedSpecials, 0);
  EXPECT_LE(e.maxUlp, 3);
  EXPECT_LT(e.maxRelative, 3e-7);
}

TEST(TranscendentalAccuracy, TanhWithinAFewUlpOfLibm) {
  kiln_test::Transcendentals model;
  // Both signs, through the tiny values where tanh(x) = x, to saturation.
  Errors e = sweep(model, Fn::Tanh, -12.0f, 12.0f, kStride,
                   [](float x) { return std::tanh(x); });
  report("tanh", e);
  EXPECT_EQ(e.mismatchedSpecials, 0);
  EXPECT_LE(e.maxUlp, 8);
  EXPECT_LT(e.maxAbsolute, 1e-6);
}

TEST(TranscendentalAccuracy, SigmoidWithinAFewUlpOfLibm) {
  kiln_test::Transcendentals model;
  // Down to where the sigmoid leaves the normal floats; it is 1 above 17.
  Errors e = sweep(model, Fn::Sigmoid, -87.0f, 20.0f, kStride, sigmoid);
  report("sigmoid", e);
  EXPECT_EQ(e.mismatchedSpecials, 0);
  EXPECT_LE(e.maxUlp, 6);
  EXPECT_LT(e.maxAbsolute, 3e-7);
}

TEST(TranscendentalAccuracy, SpecialValuesAsLibmGivesThem) {
  kiln_test::Transcendentals model;
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float x[] = {0.0f, -0.0f, 1.0f, -1.0f, inf, -inf, nan, 100.0f, -100.0f};
  const int64_t count = sizeof x / sizeof x[0];
  for (int64_t i = 0; i < model.feed_count(0); ++i)
    model.feed_x_data()[i] = x[i % count];
  ASSERT_TRUE(model.Run());
  // Infinities, NaNs and signed zeros exactly as libm's; finite results
  // within 1e-6 (relative above 1); results below the smallest normal may
  // be flushed to zero (exp(-100)).
  auto close = [](float got, float want) {
    if (std::isnan(want) || std::isnan(got))
      return std::isnan(want) && std::isnan(got);
    if (std::isinf(want) || std::isinf(got) || want == 0)
      return got == want && std::signbit(got) == std::signbit(want);
    if (std::fabs(want) < std::numeric_limits<float>::min() && got == 0)
      return true;
    return std::fabs(got - want) <= 1e-6f * std::max(1.0f, std::fabs(want));
  };
  for (int64_t i = 0; i < count; ++i) {
    EXPECT_PRED2(close, model.fetch_exp_data()[i], std::exp(x[i]))
        << "exp(" << x[i] << ")";
    EXPECT_PRED2(close, model.fetch_log_data()[i], std::log(x[i]))
        << "log(" << x[i] << ")";
    EXPECT_PRED2(close, model.fetch_tanh_data()[i], std::tanh(x[i]))
        << "tanh(" << x[i] << ")";
    EXPECT_PRED2(close, model.fetch_sigmoid_data()[i], sigmoid(x[i]))
        << "sigmoid(" << x[i] << ")";
  }
}

} // namespace
