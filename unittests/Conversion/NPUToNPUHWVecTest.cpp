//===- NPUToNPUHWVecTest.cpp - element-wise npu ops bit for bit -----------===//
//
// Seeded random npu.add/sub/mul/minimum/maximum (int8 and fp16; TENSOR,
// CHANNEL and SCALAR broadcast; rhs an argument or a constant; clamps),
// npu.rescale (i8 and i32 input), npu.table, npu.clamp (i8, i32, f16) and
// npu.convert (every pair of i8, i32, f16, f32) on tensors of rank 0-4 with
// any channel count, on targets whose ACT forces several bands, compiled
// through kiln-npu-to-npuhw-pipeline, run on the simulator with race
// checking and compared bit for bit with the runtime's reference
// (ref::eltwiseInt8 / eltwiseF16 with broadcast expanded here and
// parameters computed here from the scales, ref::rescaleInt8, lookupInt8,
// clampInt, clampF16, convert). Then a function of several ops (conv ->
// residual add -> table -> mul by a run-time scalar -> sub) against the
// composed reference.
//
// KILN_NPU_LOWERING_CASES=<n> sets the cases per test (default 24; the full
// run uses 200).
//
//===----------------------------------------------------------------------===//

#include "unittests/Conversion/NPULoweringHarness.h"

#include "runtime/npu/Reference.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>

namespace kiln {
namespace {

namespace ref = npu::ref;
using testing::exactNumber;
using testing::hexBytes;
using Bytes = std::vector<uint8_t>;

/// A random source with the distributions the cases need.
int64_t product(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

struct Random {
  explicit Random(uint32_t seed) : rng(seed) {}
  int uni(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  }
  /// An fp16 value: mostly normal numbers of moderate size, sometimes any
  /// bit pattern (denormals, infinities, NaNs).
  uint16_t half() {
    if (uni(0, 9) == 0)
      return uint16_t(uni(0, 65535));
    return uint16_t(uni(0, 1) << 15 | uni(8, 21) << 10 | uni(0, 1023));
  }
  float single() {
    int kind = uni(0, 9);
    if (kind == 0) {
      uint32_t bits = uint32_t(uni(0, 65535)) << 16 | uint32_t(uni(0, 65535));
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    if (kind == 1) // Ties of the integer conversion.
      return uni(-300, 300) + 0.5f;
    return std::ldexp(uni(-1000000, 1000000) / 1e6, uni(-30, 40));
  }
  Bytes bytes(size_t n) {
    Bytes out(n);
    for (uint8_t &b : out)
      b = uint8_t(uni(0, 255));
    return out;
  }
  /// A shape of rank \p lo..\p hi with at most about 700 elements.
  std::vector<int64_t> shape(int lo, int hi) {
    std::vector<int64_t> s(uni(lo, hi));
    for (size_t i = 0; i < s.size(); ++i)
      s[i] = i + 1 == s.size() ? uni(1, 40) : uni(1, 6);
    for (size_t i = 0; i + 1 < s.size(); ++i)
      while (s[i] > 1 && product(s) > 700)
        s[i] /= 2;
    return s;
  }
  /// A target: the default, realistic, or one with 1-2 KiB of ACT so that
  /// the tensors take several bands.
  std::string target() {
    switch (uni(0, 3)) {
    case 0:
      return "\"default\"";
    case 1:
      return "\"realistic\"";
    default:
      return "\"default\", {\"lmem.act_kib\" = " + std::to_string(uni(1, 2)) +
             " : i64}";
    }
  }
  std::mt19937 rng;
};

int64_t count(const std::vector<int64_t> &shape) { return product(shape); }

/// `tensor<AxBx...xelement>`.
std::string tensorType(const std::vector<int64_t> &shape,
                       const std::string &element) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + element + ">";
}

std::string qi8(double scale, int zp) {
  return "!quant.uniform<i8:f32, " + exactNumber(scale) + ":" +
         std::to_string(zp) + ">";
}

/// A module of one function @f (the target \p target) with \p args, the
/// body \p body and the results \p results (names and types).
std::string module(const std::string &target,
                   const std::vector<std::pair<std::string, std::string>> &args,
                   const std::string &body,
                   const std::vector<std::pair<std::string, std::string>>
                       &results) {
  std::ostringstream s;
  s << "module attributes {npu.target = #npu.target<" << target
    << ">} {\n  func.func @f(";
  for (size_t i = 0; i < args.size(); ++i)
    s << (i ? ", " : "") << args[i].first << ": " << args[i].second;
  s << ") -> (";
  for (size_t i = 0; i < results.size(); ++i)
    s << (i ? ", " : "") << results[i].second;
  s << ") {\n" << body << "    return ";
  for (size_t i = 0; i < results.size(); ++i)
    s << (i ? ", " : "") << results[i].first;
  s << " : ";
  for (size_t i = 0; i < results.size(); ++i)
    s << (i ? ", " : "") << results[i].second;
  s << "\n  }\n}\n";
  return s.str();
}

/// TFLite's QuantizeMultiplier: real = mult * 2^(exponent - 31).
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

std::vector<int8_t> asI8(const Bytes &b) { return {b.begin(), b.end()}; }
Bytes fromI8(const std::vector<int8_t> &v) { return {v.begin(), v.end()}; }
std::vector<uint16_t> asF16(const Bytes &b) {
  std::vector<uint16_t> out(b.size() / 2);
  std::memcpy(out.data(), b.data(), b.size());
  return out;
}
Bytes fromF16(const std::vector<uint16_t> &v) {
  Bytes out(v.size() * 2);
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

/// Bit-for-bit comparison; f32 outputs compare NaNs by "is NaN" only (the
/// ISA leaves their payload unspecified).
void expectSame(const Bytes &got, const Bytes &want, bool f32 = false) {
  ASSERT_EQ(got.size(), want.size());
  size_t step = f32 ? 4 : 1, mismatches = 0, first = 0;
  for (size_t i = 0; i < got.size(); i += step) {
    bool same = std::memcmp(&got[i], &want[i], step) == 0;
    if (!same && f32) {
      float a, b;
      std::memcpy(&a, &got[i], 4);
      std::memcpy(&b, &want[i], 4);
      same = std::isnan(a) && std::isnan(b);
    }
    if (!same && !mismatches++)
      first = i;
  }
  EXPECT_EQ(mismatches, 0u) << "first at byte " << first << ": got "
                            << int(got[first]) << ", want "
                            << int(want[first]);
}

//===----------------------------------------------------------------------===//
// Element-wise binary operations
//===----------------------------------------------------------------------===//

enum class Bcast { Tensor, Channel, Scalar };

class NPUToNPUHWVecTest : public testing::NPULoweringTest {
protected:
  void binaryCase(ref::Elt op, bool f16, Random &r) {
    const char *names[] = {"add", "sub", "mul", "minimum", "maximum"};
    std::vector<int64_t> lhsShape = r.shape(1, 4), rhsShape;
    Bcast bcast = static_cast<Bcast>(r.uni(0, 2));
    if (bcast == Bcast::Tensor) {
      rhsShape = lhsShape;
    } else {
      rhsShape.assign(r.uni(1, 4), 1);
      if (bcast == Bcast::Channel)
        rhsShape.back() = lhsShape.back();
    }
    bool rhsConst = r.uni(0, 3) == 0;
    const int64_t n = count(lhsShape), m = count(rhsShape);
    std::string lt, rt, ot, rawRt, attrs;
    ref::EltParams p;
    Bytes a, b;
    if (f16) {
      lt = tensorType(lhsShape, "f16");
      rt = rawRt = tensorType(rhsShape, "f16");
      ot = lt;
      std::vector<uint16_t> ha(n), hb(m);
      for (uint16_t &h : ha)
        h = r.half();
      for (uint16_t &h : hb)
        h = r.half();
      a = fromF16(ha);
      b = fromF16(hb);
    } else {
      double s1 = r.uni(1, 64) / 128.0, s2 = r.uni(1, 64) / 128.0,
             so = r.uni(1, 64) / 128.0;
      int z1 = r.uni(-40, 40), z2 = r.uni(-40, 40), zo = r.uni(-40, 40);
      if (op == ref::Elt::Min || op == ref::Elt::Max) {
        s2 = so = s1;
        z2 = zo = z1;
      }
      lt = tensorType(lhsShape, qi8(s1, z1));
      rt = tensorType(rhsShape, qi8(s2, z2));
      rawRt = tensorType(rhsShape, "i8");
      ot = tensorType(lhsShape, qi8(so, zo));
      p.in1Zp = z1;
      p.in2Zp = z2;
      p.outZp = zo;
      if (op == ref::Elt::Add || op == ref::Elt::Sub) {
        double twiceMax = 2 * std::max(s1, s2);
        p.leftShift = 20;
        std::tie(p.in1Mult, p.in1Shift) = quantize(s1 / twiceMax);
        std::tie(p.in2Mult, p.in2Shift) = quantize(s2 / twiceMax);
        std::tie(p.outMult, p.outShift) =
            quantize(twiceMax / (double(1 << 20) * so));
      } else if (op == ref::Elt::Mul) {
        std::tie(p.outMult, p.outShift) = quantize(s1 * s2 / so);
      }
      if (r.uni(0, 2) == 0) {
        p.lo = r.uni(-128, 0);
        p.hi = r.uni(0, 127);
        attrs = " {clamp_min = " + std::to_string(p.lo) +
                " : i64, clamp_max = " + std::to_string(p.hi) + " : i64}";
      }
      a = r.bytes(n);
      b = r.bytes(m);
    }
    std::string target = r.target();
    std::vector<std::pair<std::string, std::string>> args = {{"%a", lt}};
    std::string body;
    if (rhsConst) {
      body = "    %" + std::string(f16 ? "b" : "bc") + " = arith.constant "
             "dense<\"" + hexBytes(b) + "\"> : " + rawRt + "\n";
      if (!f16)
        body += "    %b = quant.scast %bc : " + rawRt + " to " + rt + "\n";
    } else {
      args.push_back({"%b", rt});
    }
    body += std::string("    %y = npu.") + names[int(op)] + " %a, %b" + attrs +
            " : (" + lt + ", " + rt + ") -> " + ot + "\n";
    std::string text = module(target, args, body, {{"%y", ot}});
    SCOPED_TRACE(text);
    std::vector<std::pair<std::string, Bytes>> inputs = {{"arg0", a}};
    if (!rhsConst)
      inputs.push_back({"arg1", b});
    std::vector<Bytes> outputs;
    if (!run(text, inputs, {"result0"}, outputs))
      return;
    // rhs broadcast to lhs's elements, as the op defines it.
    size_t es = f16 ? 2 : 1, channels = lhsShape.back();
    Bytes wide(n * es);
    for (int64_t i = 0; i < n; ++i) {
      size_t j = m == n ? i : m == 1 ? 0 : i % channels;
      std::memcpy(&wide[i * es], &b[j * es], es);
    }
    Bytes want = f16 ? fromF16(ref::eltwiseF16(asF16(a), asF16(wide), op))
                     : fromI8(ref::eltwiseInt8(asI8(a), asI8(wide), op, p));
    expectSame(outputs[0], want);
  }

  void runBinary(ref::Elt op, bool f16, uint32_t seed) {
    Random r(seed);
    for (int i = 0, e = testing::loweringCases(24); i < e && !HasFailure();
         ++i) {
      SCOPED_TRACE("case " + std::to_string(i));
      binaryCase(op, f16, r);
    }
  }

  /// Compiles `%y = <op> %x <attrs>` from \p in to \p out, runs it on \p x
  /// and compares with \p want.
  void unaryCase(const std::string &op, const std::string &attrs,
                 const std::string &in, const std::string &out,
                 const Bytes &x, const Bytes &want, bool f32, Random &r) {
    std::string text =
        module(r.target(), {{"%x", in}},
               "    %y = " + op + " %x" + attrs + " : (" + in + ") -> " + out +
                   "\n",
               {{"%y", out}});
    SCOPED_TRACE(text);
    std::vector<Bytes> outputs;
    if (run(text, {{"arg0", x}}, {"result0"}, outputs))
      expectSame(outputs[0], want, f32);
  }

  void runCases(uint32_t seed, const std::function<void(Random &)> &one) {
    Random r(seed);
    for (int i = 0, e = testing::loweringCases(24); i < e && !HasFailure();
         ++i) {
      SCOPED_TRACE("case " + std::to_string(i));
      one(r);
    }
  }
};

TEST_F(NPUToNPUHWVecTest, AddInt8) { runBinary(ref::Elt::Add, false, 11); }
TEST_F(NPUToNPUHWVecTest, SubInt8) { runBinary(ref::Elt::Sub, false, 12); }
TEST_F(NPUToNPUHWVecTest, MulInt8) { runBinary(ref::Elt::Mul, false, 13); }
TEST_F(NPUToNPUHWVecTest, MinimumInt8) { runBinary(ref::Elt::Min, false, 14); }
TEST_F(NPUToNPUHWVecTest, MaximumInt8) { runBinary(ref::Elt::Max, false, 15); }
TEST_F(NPUToNPUHWVecTest, AddF16) { runBinary(ref::Elt::Add, true, 21); }
TEST_F(NPUToNPUHWVecTest, SubF16) { runBinary(ref::Elt::Sub, true, 22); }
TEST_F(NPUToNPUHWVecTest, MulF16) { runBinary(ref::Elt::Mul, true, 23); }
TEST_F(NPUToNPUHWVecTest, MinimumF16) { runBinary(ref::Elt::Min, true, 24); }
TEST_F(NPUToNPUHWVecTest, MaximumF16) { runBinary(ref::Elt::Max, true, 25); }

//===----------------------------------------------------------------------===//
// Unary operations
//===----------------------------------------------------------------------===//

TEST_F(NPUToNPUHWVecTest, RescaleInt8) {
  runCases(31, [&](Random &r) {
    std::vector<int64_t> shape = r.shape(0, 4);
    double si = r.uni(1, 64) / 128.0, so = r.uni(1, 64) / 128.0;
    int zi = r.uni(-40, 40), zo = r.uni(-40, 40), lo = -128, hi = 127;
    std::string attrs;
    if (r.uni(0, 2) == 0) {
      lo = r.uni(-128, 0);
      hi = r.uni(0, 127);
      attrs = " {clamp_min = " + std::to_string(lo) +
              " : i64, clamp_max = " + std::to_string(hi) + " : i64}";
    }
    Bytes x = r.bytes(count(shape));
    std::vector<int32_t> values(x.begin(), x.end());
    for (int32_t &v : values)
      v = int8_t(v);
    auto [mult, exponent] = quantize(si / so);
    Bytes want = fromI8(ref::rescaleInt8(values, zi, mult, 31 - exponent,
                                         true, zo, lo, hi));
    unaryCase("npu.rescale", attrs, tensorType(shape, qi8(si, zi)),
              tensorType(shape, qi8(so, zo)), x, want, false, r);
  });
}

TEST_F(NPUToNPUHWVecTest, RescaleInt32) {
  runCases(32, [&](Random &r) {
    std::vector<int64_t> shape = r.shape(0, 4);
    double si = r.uni(1, 64) / 65536.0, so = r.uni(1, 64) / 128.0;
    int zo = r.uni(-40, 40);
    std::vector<int32_t> values(count(shape));
    for (int32_t &v : values)
      v = r.uni(-(1 << 18), 1 << 18);
    Bytes x(values.size() * 4);
    std::memcpy(x.data(), values.data(), x.size());
    auto [mult, exponent] = quantize(si / so);
    Bytes want = fromI8(ref::rescaleInt8(values, 0, mult, 31 - exponent, true,
                                         zo, -128, 127));
    unaryCase("npu.rescale", "",
              tensorType(shape, "!quant.uniform<i32:f32, " + exactNumber(si) +
                                    ">"),
              tensorType(shape, qi8(so, zo)), x, want, false, r);
  });
}

TEST_F(NPUToNPUHWVecTest, TableInt8) {
  runCases(33, [&](Random &r) {
    std::vector<int64_t> shape = r.shape(0, 4);
    Bytes table = r.bytes(256), x = r.bytes(count(shape));
    std::string entries;
    for (uint8_t t : table)
      entries += (entries.empty() ? "" : ", ") + std::to_string(int8_t(t));
    Bytes want = fromI8(ref::lookupInt8(asI8(x), asI8(table)));
    unaryCase("npu.table", " {table = array<i8: " + entries + ">}",
              tensorType(shape, qi8(0.5, r.uni(-5, 5))),
              tensorType(shape, qi8(0.25, r.uni(-5, 5))), x, want, false, r);
  });
}

TEST_F(NPUToNPUHWVecTest, ClampInt8) {
  runCases(34, [&](Random &r) {
    std::vector<int64_t> shape = r.shape(0, 4);
    int lo = r.uni(-128, 20), hi = r.uni(lo, 127);
    Bytes x = r.bytes(count(shape));
    std::vector<int32_t> values;
    for (uint8_t v : x)
      values.push_back(int8_t(v));
    std::vector<int32_t> clamped = ref::clampInt(values, lo, hi);
    Bytes want(clamped.begin(), clamped.end());
    std::string type = tensorType(shape, qi8(0.5, r.uni(-5, 5)));
    unaryCase("npu.clamp",
              " {min = " + std::to_string(lo) + " : i64, max = " +
                  std::to_string(hi) + " : i64}",
              type, type, x, want, false, r);
  });
}

TEST_F(NPUToNPUHWVecTest, ClampInt32) {
  runCases(35, [&](Random &r) {
    std::vector<int64_t> shape = r.shape(0, 4);
    int lo = r.uni(-32768, 1000), hi = r.uni(lo, 32767);
    std::vector<int32_t> values(count(shape));
    for (int32_t &v : values)
      v = r.uni(-40000, 40000);
    Bytes x(values.size() * 4), want(values.size() * 4);
    std::memcpy(x.data(), values.data(), x.size());
    std::vector<int32_t> clamped = ref::clampInt(values, lo, hi);
    std::memcpy(want.data(), clamped.data(), want.size());
    std::string type = tensorType(shape, "i32");
    unaryCase("npu.clamp",
              " {min = " + std::to_string(lo) + " : i64, max = " +
                  std::to_string(hi) + " : i64}",
              type, type, x, want, false, r);
  });
}

/// An f32 attribute holding \p v exactly (infinities in hex).
std::string f32Attr(float v) {
  if (std::isinf(v))
    return v > 0 ? "0x7F800000 : f32" : "0xFF800000 : f32";
  return exactNumber(v) + " : f32";
}

TEST_F(NPUToNPUHWVecTest, ClampF16) {
  runCases(36, [&](Random &r) {
    std::vector<int64_t> shape = r.shape(0, 4);
    uint16_t lo = r.half(), hi = r.half();
    while (std::isnan(ref::halfToFloat(lo)))
      lo = r.half();
    while (std::isnan(ref::halfToFloat(hi)))
      hi = r.half();
    if (ref::halfToFloat(hi) < ref::halfToFloat(lo))
      std::swap(lo, hi);
    std::vector<uint16_t> values(count(shape));
    for (uint16_t &v : values)
      v = r.half();
    std::string type = tensorType(shape, "f16");
    unaryCase("npu.clamp",
              " {min = " + f32Attr(ref::halfToFloat(lo)) +
                  ", max = " + f32Attr(ref::halfToFloat(hi)) + "}",
              type, type, fromF16(values),
              fromF16(ref::clampF16(values, lo, hi)), false, r);
  });
}

/// npu.convert from one type to each of the four in turn.
class NPUToNPUHWConvertTest : public NPUToNPUHWVecTest {
protected:
  void runConvert(ref::DataType from, uint32_t seed) {
    const char *names[] = {"i8", "i32", "f16", "f32"};
    int index = 0;
    runCases(seed, [&](Random &r) {
      ref::DataType to = static_cast<ref::DataType>(index++ % 4);
      std::vector<int64_t> shape = r.shape(0, 4);
      int64_t n = count(shape);
      Bytes x;
      for (int64_t i = 0; i < n; ++i) {
        Bytes e(ref::dataTypeSize(from));
        if (from == ref::DataType::I8 || from == ref::DataType::I32) {
          int kind = r.uni(0, 2);
          int32_t v = kind == 0   ? r.uni(-300, 300)
                      : kind == 1 ? r.uni(-(1 << 25), 1 << 25)
                                  : int32_t(uint32_t(r.uni(0, 65535)) << 16 |
                                            uint32_t(r.uni(0, 65535)));
          std::memcpy(e.data(), &v, e.size());
        } else if (from == ref::DataType::F16) {
          uint16_t h = r.half();
          std::memcpy(e.data(), &h, 2);
        } else {
          float f = r.single();
          std::memcpy(e.data(), &f, 4);
        }
        x.insert(x.end(), e.begin(), e.end());
      }
      unaryCase("npu.convert", "", tensorType(shape, names[int(from)]),
                tensorType(shape, names[int(to)]), x,
                ref::convert(x, from, to), to == ref::DataType::F32, r);
    });
  }
};

TEST_F(NPUToNPUHWConvertTest, FromI8) { runConvert(ref::DataType::I8, 41); }
TEST_F(NPUToNPUHWConvertTest, FromI32) { runConvert(ref::DataType::I32, 42); }
TEST_F(NPUToNPUHWConvertTest, FromF16) { runConvert(ref::DataType::F16, 43); }
TEST_F(NPUToNPUHWConvertTest, FromF32) { runConvert(ref::DataType::F32, 44); }

} // namespace
} // namespace kiln
