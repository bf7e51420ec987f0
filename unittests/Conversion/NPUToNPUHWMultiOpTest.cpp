//===- NPUToNPUHWMultiOpTest.cpp - functions of several npu ops -----------===//
//
// A function of five ops with two arguments and two results, compiled into
// one stream (intermediates in the scratch region, a result read back by a
// later op, an intermediate read twice, a scalar known only at run time):
//
//   %c = npu.conv2d %x, %w, %b        (3x3 SAME)
//   %a = npu.add %c, %x               (residual)        -> result 0
//   %t = npu.table %a
//   %m = npu.mul %t, %s               (%s: 1-element argument, SCALAR)
//   %o = npu.sub %m, %t                                 -> result 1
//
// run on the simulator with race checking and compared bit for bit with the
// reference composed from ref::convInt8, requant, eltwiseInt8 and
// lookupInt8, with every multiplier computed here from the scales. And a
// function with a pool among the other emitters:
//
//   %c = npu.conv2d %x, %w, %b        (3x3 SAME, in scratch)
//   %p = npu.max_pool2d %c            (2x2 or 3x3 SAME, clamped) -> result 0
//   %o = npu.add %p, %c               (%p read back from r3)     -> result 1
//
// with random band and group bounds, against ref::convInt8, requant, poolInt8 and eltwiseInt8.
//
//===----------------------------------------------------------------------===//

#include "unittests/Conversion/NPULoweringHarness.h"

#include "runtime/npu/Reference.h"

#include <cmath>
#include <random>
#include <sstream>

namespace kiln {
namespace {

namespace ref = npu::ref;
using Bytes = std::vector<uint8_t>;
using testing::exactNumber;
using testing::hexBytes;

std::pair<int32_t, int> quantize(double real) {
  int exponent = 0;
  double mantissa = std::frexp(real, &exponent);
  int64_t fixed = std::llround(mantissa * 2147483648.0);
  if (fixed == (int64_t(1) << 31)) {
    fixed /= 2;
    ++exponent;
  }
  return {static_cast<int32_t>(fixed), exponent};
}

/// TFLite's add/sub parameters for scales \p s1, \p s2 -> \p so.
ref::EltParams addParams(double s1, int z1, double s2, int z2, double so,
                         int zo) {
  ref::EltParams p;
  p.in1Zp = z1;
  p.in2Zp = z2;
  p.outZp = zo;
  p.leftShift = 20;
  double twiceMax = 2 * std::max(s1, s2);
  std::tie(p.in1Mult, p.in1Shift) = quantize(s1 / twiceMax);
  std::tie(p.in2Mult, p.in2Shift) = quantize(s2 / twiceMax);
  std::tie(p.outMult, p.outShift) = quantize(twiceMax / ((1 << 20) * so));
  return p;
}

std::string qi8(double scale, int zp) {
  return "!quant.uniform<i8:f32, " + exactNumber(scale) + ":" +
         std::to_string(zp) + ">";
}

class NPUToNPUHWMultiOpTest : public testing::NPULoweringTest {
protected:
  void runCase(std::mt19937 &rng) {
    auto uni = [&](int lo, int hi) {
      return std::uniform_int_distribution<int>(lo, hi)(rng);
    };
    const int h = uni(2, 10), w = uni(2, 10), c = uni(1, 40);
    const char *targets[] = {"\"default\"", "\"realistic\"",
                             "\"default\", {\"lmem.act_kib\" = 24 : i64}",
                             "\"default\", {\"lmem.act_kib\" = 32 : i64}"};
    std::string target = targets[uni(0, 3)];
    const double sx = 1.0 / 16, ss = uni(1, 64) / 64.0;
    const int zx = uni(-20, 20), zs = uni(-20, 20);
    std::vector<double> ws(c);
    for (double &s : ws)
      s = uni(8, 64) / 4096.0;
    const double sc = std::ldexp(
        1.0, int(std::lround(std::log2(sx * (32 / 4096.0) *
                                       std::sqrt(9.0 * c) / 0.009))));
    const double sa = uni(16, 64) / 256.0, st = uni(1, 64) / 128.0,
                 sm = uni(1, 64) / 64.0, so = uni(1, 64) / 64.0;
    const int zc = uni(-20, 20), za = uni(-20, 20), zt = uni(-20, 20),
              zm = uni(-20, 20), zo = uni(-20, 20);
    Bytes x(h * w * c), weights(9 * c * c), table(256), s(1);
    for (Bytes *v : {&x, &weights, &table, &s})
      for (uint8_t &b : *v)
        b = uint8_t(uni(0, 255));
    std::vector<int32_t> bias(c);
    for (int32_t &b : bias)
      b = uni(-2000, 2000);

    std::string shape = "1x" + std::to_string(h) + "x" + std::to_string(w) +
                        "x" + std::to_string(c);
    auto t = [&](double scale, int zp) {
      return "tensor<" + shape + "x" + qi8(scale, zp) + ">";
    };
    std::string wraw = "tensor<3x3x" + std::to_string(c) + "x" +
                       std::to_string(c) + "xi8>";
    std::string scales;
    for (double v : ws)
      scales += (scales.empty() ? "" : ",") + exactNumber(v);
    std::string wt = "tensor<3x3x" + std::to_string(c) + "x" +
                     std::to_string(c) + "x!quant.uniform<i8:f32:3, {" +
                     scales + "}>>";
    std::string bt = "tensor<" + std::to_string(c) + "xi32>";
    std::string st1 = "tensor<1x" + qi8(ss, zs) + ">";
    std::string entries;
    for (uint8_t v : table)
      entries += (entries.empty() ? "" : ", ") + std::to_string(int8_t(v));
    std::ostringstream m;
    m << "module attributes {npu.target = #npu.target<" << target << ">} {\n"
      << "  func.func @net(%x: " << t(sx, zx) << ", %s: " << st1 << ") -> ("
      << t(sa, za) << ", " << t(so, zo) << ")\n"
      << "      attributes {tf.entry_function = {inputs = \"x,s\", outputs "
         "= \"a,o\"}} {\n"
      << "    %wi = arith.constant dense<\"" << hexBytes(weights) << "\"> : "
      << wraw << "\n    %w = quant.scast %wi : " << wraw << " to " << wt
      << "\n    %b = arith.constant dense<[";
    for (int i = 0; i < c; ++i)
      m << (i ? ", " : "") << bias[i];
    m << "]> : " << bt << "\n"
      << "    %c = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, "
         "dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>} : ("
      << t(sx, zx) << ", " << wt << ", " << bt << ") -> " << t(sc, zc) << "\n"
      << "    %a = npu.add %c, %x : (" << t(sc, zc) << ", " << t(sx, zx)
      << ") -> " << t(sa, za) << "\n"
      << "    %t = npu.table %a {table = array<i8: " << entries << ">} : ("
      << t(sa, za) << ") -> " << t(st, zt) << "\n"
      << "    %m = npu.mul %t, %s : (" << t(st, zt) << ", " << st1 << ") -> "
      << t(sm, zm) << "\n"
      << "    %o = npu.sub %m, %t : (" << t(sm, zm) << ", " << t(st, zt)
      << ") -> " << t(so, zo) << "\n"
      << "    return %a, %o : " << t(sa, za) << ", " << t(so, zo) << "\n"
      << "  }\n}\n";
    std::string text = m.str();
    SCOPED_TRACE(text);
    std::vector<Bytes> outputs;
    if (!run(text, {{"x", x}, {"s", s}}, {"a", "o"}, outputs))
      return;

    // The composed reference.
    std::vector<int8_t> xi(x.begin(), x.end()), wi(weights.begin(),
                                                   weights.end()),
        ti(table.begin(), table.end());
    ref::Window win{3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
    std::vector<int32_t> mult, shift;
    for (double v : ws) {
      auto [mm, e] = quantize(sx * v / sc);
      mult.push_back(mm);
      shift.push_back(31 - e);
    }
    std::vector<int8_t> conv =
        ref::requant(ref::convInt8(xi, h, w, c, wi, c, win, zx), c, bias,
                     mult, shift, true, zc, -128, 127);
    std::vector<int8_t> a =
        ref::eltwiseInt8(conv, xi, ref::Elt::Add,
                         addParams(sc, zc, sx, zx, sa, za));
    std::vector<int8_t> tt = ref::lookupInt8(a, ti);
    ref::EltParams mp;
    mp.in1Zp = zt;
    mp.in2Zp = zs;
    mp.outZp = zm;
    std::tie(mp.outMult, mp.outShift) = quantize(st * ss / sm);
    std::vector<int8_t> mm = ref::eltwiseInt8(
        tt, std::vector<int8_t>(tt.size(), int8_t(s[0])), ref::Elt::Mul, mp);
    std::vector<int8_t> o = ref::eltwiseInt8(
        mm, tt, ref::Elt::Sub, addParams(sm, zm, st, zt, so, zo));
    EXPECT_EQ(outputs[0], Bytes(a.begin(), a.end()));
    EXPECT_EQ(outputs[1], Bytes(o.begin(), o.end()));
  }
};

/// conv -> max_pool2d -> add of the pool and the conv (see the header).
class NPUToNPUHWMultiOpPoolTest : public testing::NPULoweringTest {
protected:
  void runCase(std::mt19937 &rng) {
    auto uni = [&](int lo, int hi) {
      return std::uniform_int_distribution<int>(lo, hi)(rng);
    };
    const int h = uni(2, 10), w = uni(2, 10), c = uni(1, 40), k = uni(2, 3);
    const int pt = (k - 1) / 2, pb = k - 1 - pt, lo = uni(-128, -20),
              hi = uni(20, 127);
    // (No small-ACT target: the conv's aligned bands may then need the
    // whole image, which does not fit.)
    std::string target = uni(0, 1) ? "\"realistic\"" : "\"default\"";
    // Random band and group bounds, so the pool (and the conv) take
    // several bands and channel groups.
    NPUToNPUHWPipelineOptions options;
    options.maxRowsPerBand = uni(0, 4);
    options.maxBlocksPerGroup = uni(0, 2);
    const double sx = 1.0 / 16, ws = uni(8, 64) / 4096.0,
                 so = uni(1, 64) / 64.0;
    const double sc = std::ldexp(
        1.0, int(std::lround(std::log2(sx * (32 / 4096.0) *
                                       std::sqrt(9.0 * c) / 0.009))));
    const int zx = uni(-20, 20), zc = uni(-20, 20), zo = uni(-20, 20);
    Bytes x(h * w * c), weights(9 * c * c);
    for (Bytes *v : {&x, &weights})
      for (uint8_t &b : *v)
        b = uint8_t(uni(0, 255));
    std::vector<int32_t> bias(c);
    for (int32_t &b : bias)
      b = uni(-2000, 2000);

    std::string shape = "1x" + std::to_string(h) + "x" + std::to_string(w) +
                        "x" + std::to_string(c);
    auto t = [&](double scale, int zp) {
      return "tensor<" + shape + "x" + qi8(scale, zp) + ">";
    };
    std::string hwio =
        "3x3x" + std::to_string(c) + "x" + std::to_string(c) + "x";
    std::string wraw = "tensor<" + hwio + "i8>",
                wt = "tensor<" + hwio + qi8(ws, 0) + ">",
                bt = "tensor<" + std::to_string(c) + "xi32>";
    std::ostringstream m;
    m << "module attributes {npu.target = #npu.target<" << target << ">} {\n"
      << "  func.func @net(%x: " << t(sx, zx) << ") -> (" << t(sc, zc)
      << ", " << t(so, zo) << ")\n"
      << "      attributes {tf.entry_function = {inputs = \"x\", outputs "
         "= \"p,o\"}} {\n"
      << "    %wi = arith.constant dense<\"" << hexBytes(weights) << "\"> : "
      << wraw << "\n    %w = quant.scast %wi : " << wraw << " to " << wt
      << "\n    %b = arith.constant dense<[";
    for (int i = 0; i < c; ++i)
      m << (i ? ", " : "") << bias[i];
    m << "]> : " << bt << "\n"
      << "    %c = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, "
         "dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>} : ("
      << t(sx, zx) << ", " << wt << ", " << bt << ") -> " << t(sc, zc) << "\n"
      << "    %p = npu.max_pool2d %c {kernel = array<i64: " << k << ", " << k
      << ">, stride = array<i64: 1, 1>, pad = array<i64: " << pt << ", " << pb
      << ", " << pt << ", " << pb << ">, clamp_min = " << lo
      << " : i64, clamp_max = " << hi << " : i64} : (" << t(sc, zc)
      << ") -> " << t(sc, zc) << "\n"
      << "    %o = npu.add %p, %c : (" << t(sc, zc) << ", " << t(sc, zc)
      << ") -> " << t(so, zo) << "\n"
      << "    return %p, %o : " << t(sc, zc) << ", " << t(so, zo) << "\n"
      << "  }\n}\n";
    std::string text = m.str();
    SCOPED_TRACE(text);
    std::vector<Bytes> outputs;
    if (!run(text, {{"x", x}}, {"p", "o"}, outputs, options))
      return;

    std::vector<int8_t> xi(x.begin(), x.end()),
        wi(weights.begin(), weights.end());
    auto [cm, ce] = quantize(sx * ws / sc);
    std::vector<int8_t> conv = ref::requant(
        ref::convInt8(xi, h, w, c, wi, c,
                      ref::Window{3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, zx),
        c, bias, std::vector<int32_t>(c, cm), std::vector<int32_t>(c, 31 - ce),
        true, zc, -128, 127);
    std::vector<int32_t> pooled =
        ref::poolInt8(conv, h, w, c, ref::Window{k, k, 1, 1, 1, 1, pt, pb, pt, pb},
                      ref::Pool::Max, lo, hi);
    std::vector<int8_t> p(pooled.begin(), pooled.end());
    std::vector<int8_t> o = ref::eltwiseInt8(
        p, conv, ref::Elt::Add, addParams(sc, zc, sc, zc, so, zo));
    EXPECT_EQ(outputs[0], Bytes(p.begin(), p.end()));
    EXPECT_EQ(outputs[1], Bytes(o.begin(), o.end()));
  }
};

TEST_F(NPUToNPUHWMultiOpTest, ConvResidualTableMulSub) {
  std::mt19937 rng(77);
  for (int i = 0, e = testing::loweringCases(20); i < e && !HasFailure();
       ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    runCase(rng);
  }
}

TEST_F(NPUToNPUHWMultiOpPoolTest, ConvMaxPoolAdd) {
  std::mt19937 rng(91);
  for (int i = 0, e = testing::loweringCases(20); i < e && !HasFailure();
       ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    runCase(rng);
  }
}

} // namespace
} // namespace kiln
