//===- NPUToNPUHWCascadeTest.cpp - cascaded intermediates in ACT rings ----===//
//
// Seeded random conv (1x1 or 3x3) -> 3x3 depthwise (stride 1 or 2, SAME or
// VALID) -> 1x1 conv chains, int8 and fp16, channel counts that are not
// multiples of 16, compiled with cascading (the intermediates in rolling
// line buffers in ACT, the ops' bands interleaved) and without, each run on
// the simulator with race checking and compared bit for bit with the
// reference composed from ref::convInt8 / depthwiseInt8 / requant and
// ref::convF16 / depthwiseF16 / floatToHalf. lmem-resident is off in most
// cases, ACT small in others and DRAM slow (realistic, or 1 byte/cycle:
// cascading must pay off against DRAM), so that small shapes cascade; the test
// checks that at least one in six did (fewer scratch accesses than
// without).
// Then the first copy into a ring with its dependency removed: the race
// checker reports it.
//
//===----------------------------------------------------------------------===//

#include "unittests/Conversion/NPULoweringHarness.h"

#include "conversions/Passes.h"
#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPUHW/Transforms/Passes.h"
#include "runtime/npu/Reference.h"

#include <numeric>
#include <random>
#include <sstream>

namespace kiln {
namespace {

namespace ref = npu::ref;
using Bytes = std::vector<uint8_t>;
using testing::exactNumber;
using testing::hexBytes;

/// One random chain: its text, input and expected output.
struct Chain {
  std::string text;
  Bytes x, expected;
  bool fp16 = false;
};

/// The shapes of a chain h x w x cin -> c (conv k0) -> c (depthwise 3x3,
/// stride s1) -> co (1x1).
struct Shape {
  int h, w, cin, c, co, k0, s1, pad1;
};

class NPUToNPUHWCascadeTest : public testing::NPULoweringTest {
protected:
  std::mt19937 rng{2027};
  int uni(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  }

  Shape shape(bool fp16) {
    Shape s;
    const int es = fp16 ? 2 : 1;
    s.c = uni(1, 40);
    // Rows of the first intermediate in 16-byte multiples (cascadable).
    const int step = 16 / std::gcd(s.c * es, 16);
    s.w = step * uni(1, std::max(1, 20 / step));
    s.h = uni(4, 24);
    s.cin = uni(1, 40);
    s.co = uni(1, 40);
    s.k0 = uni(0, 1) ? 3 : 1;
    s.s1 = uni(1, 2);
    s.pad1 = s.w < 3 ? 1 : uni(0, 1);
    return s;
  }

  std::string window(int pad, int stride) {
    std::string p = std::to_string(pad);
    return "{stride = array<i64: " + std::to_string(stride) + ", " +
           std::to_string(stride) +
           ">, dilation = array<i64: 1, 1>, pad = array<i64: " + p + ", " +
           p + ", " + p + ", " + p + ">}";
  }

  Chain chainInt8(const Shape &s, const std::string &target) {
    auto bytes = [&](size_t n) {
      Bytes b(n);
      for (uint8_t &v : b)
        v = uint8_t(uni(0, 255));
      return b;
    };
    auto biases = [&](int n) {
      std::vector<int32_t> b(n);
      for (int32_t &v : b)
        v = uni(-3000, 3000);
      return b;
    };
    const double scales[] = {0.5, 0.25, 0.125, 0.0625, 0.1875, 0.375};
    const double sx = scales[uni(0, 5)], sa = scales[uni(0, 5)],
                 sd = scales[uni(0, 5)], sy = scales[uni(0, 5)];
    const double ws0 = 0.0078125, ws1 = 0.015625, ws2 = 0.00390625;
    const int zx = uni(-20, 20), za = uni(-20, 20), zd = uni(-20, 20),
              zy = uni(-20, 20);
    ref::Window win0{s.k0, s.k0, 1, 1, 1, 1}, one;
    win0.pt = win0.pb = win0.pl = win0.pr = s.k0 / 2;
    ref::Window win1{3, 3, s.s1, s.s1, 1, 1};
    win1.pt = win1.pb = win1.pl = win1.pr = s.pad1;
    const int h2 = win1.outH(s.h), w2 = win1.outW(s.w);
    Chain out;
    out.x = bytes(size_t(s.h) * s.w * s.cin);
    Bytes k0 = bytes(size_t(s.k0) * s.k0 * s.cin * s.c),
          k1 = bytes(9 * size_t(s.c)), k2 = bytes(size_t(s.c) * s.co);
    std::vector<int32_t> b0 = biases(s.c), b1 = biases(s.c), b2 = biases(s.co);
    auto q = [](double scale, int zp) {
      return "!quant.uniform<i8:f32, " + exactNumber(scale) + ":" +
             std::to_string(zp) + ">";
    };
    auto t = [&](int h, int w, int ch, double sc, int z) {
      return "tensor<1x" + std::to_string(h) + "x" + std::to_string(w) + "x" +
             std::to_string(ch) + "x" + q(sc, z) + ">";
    };
    auto list = [](const std::vector<int32_t> &v) {
      std::string r;
      for (int32_t x : v)
        r += (r.empty() ? "" : ", ") + std::to_string(x);
      return r;
    };
    std::ostringstream m;
    auto weight = [&](const std::string &name, const std::string &shape,
                      const Bytes &data, double sc) {
      std::string qt = "tensor<" + shape + "x!quant.uniform<i8:f32, " +
                       exactNumber(sc) + ">>";
      m << "    %" << name << "i = arith.constant dense<\"" << hexBytes(data)
        << "\"> : tensor<" << shape << "xi8>\n    %" << name
        << " = quant.scast %" << name << "i : tensor<" << shape << "xi8> to "
        << qt << "\n";
      return qt;
    };
    const std::string tx = t(s.h, s.w, s.cin, sx, zx),
                      ta = t(s.h, s.w, s.c, sa, za),
                      td = t(h2, w2, s.c, sd, zd),
                      ty = t(h2, w2, s.co, sy, zy);
    m << "module attributes {npu.target = #npu.target<" << target << ">} {\n"
      << "  func.func @chain(%x: " << tx << ") -> " << ty << " {\n";
    std::string wt0 = weight("w0", std::to_string(s.k0) + "x" +
                                       std::to_string(s.k0) + "x" +
                                       std::to_string(s.cin) + "x" +
                                       std::to_string(s.c),
                             k0, ws0);
    std::string wt1 = weight("w1", "3x3x" + std::to_string(s.c), k1, ws1);
    std::string wt2 = weight("w2", "1x1x" + std::to_string(s.c) + "x" +
                                       std::to_string(s.co),
                             k2, ws2);
    m << "    %b0 = arith.constant dense<[" << list(b0) << "]> : tensor<"
      << s.c << "xi32>\n    %b1 = arith.constant dense<[" << list(b1)
      << "]> : tensor<" << s.c << "xi32>\n    %b2 = arith.constant dense<["
      << list(b2) << "]> : tensor<" << s.co << "xi32>\n";
    m << "    %a = npu.conv2d %x, %w0, %b0 " << window(s.k0 / 2, 1) << " : ("
      << tx << ", " << wt0 << ", tensor<" << s.c << "xi32>) -> " << ta
      << "\n    %d = npu.depthwise_conv2d %a, %w1, %b1 {stride = array<i64: "
      << s.s1 << ", " << s.s1
      << ">, dilation = array<i64: 1, 1>, pad = array<i64: " << s.pad1
      << ", " << s.pad1 << ", " << s.pad1 << ", " << s.pad1
      << ">, clamp_min = -100 : i64} : (" << ta << ", " << wt1 << ", tensor<"
      << s.c << "xi32>) -> " << td << "\n    %y = npu.conv2d %d, %w2, %b2 "
      << window(0, 1) << " : (" << td << ", " << wt2 << ", tensor<" << s.co
      << "xi32>) -> " << ty << "\n    return %y : " << ty << "\n  }\n}\n";
    out.text = m.str();

    auto requant = [](const std::vector<int32_t> &acc, int ch,
                      const std::vector<int32_t> &bias, double real, int zp,
                      int lo) {
      std::optional<npu::QuantizedMultiplier> r =
          npu::quantizeMultiplier(real);
      return ref::requant(acc, ch, bias,
                          std::vector<int32_t>(ch, r->multiplier),
                          std::vector<int32_t>(ch, 31 - r->exponent), true,
                          zp, lo, 127);
    };
    auto s8 = [](const Bytes &b) {
      return std::vector<int8_t>(b.begin(), b.end());
    };
    std::vector<int8_t> a =
        requant(ref::convInt8(s8(out.x), s.h, s.w, s.cin, s8(k0), s.c, win0, zx),
                s.c, b0, sx * ws0 / sa, za, -128);
    std::vector<int8_t> d =
        requant(ref::depthwiseInt8(a, s.h, s.w, s.c, s8(k1), win1, za), s.c,
                b1, sa * ws1 / sd, zd, -100);
    std::vector<int8_t> y =
        requant(ref::convInt8(d, h2, w2, s.c, s8(k2), s.co, one, zd), s.co, b2,
                sd * ws2 / sy, zy, -128);
    out.expected.assign(y.begin(), y.end());
    return out;
  }

  /// fp16: no bias and no clamp; values of magnitude 1/8 to 1 (with zeros)
  /// so that the sums round but stay finite.
  Chain chainF16(const Shape &s, const std::string &target) {
    auto halves = [&](size_t n, float scale) {
      std::vector<uint16_t> v(n);
      for (uint16_t &x : v)
        x = ref::floatToHalf(scale * float(uni(-1024, 1024)) / 1024.0f);
      return v;
    };
    auto hex = [](const std::vector<uint16_t> &v) {
      Bytes b;
      for (uint16_t x : v) {
        b.push_back(uint8_t(x));
        b.push_back(uint8_t(x >> 8));
      }
      return hexBytes(b);
    };
    ref::Window win0{s.k0, s.k0, 1, 1, 1, 1}, one;
    win0.pt = win0.pb = win0.pl = win0.pr = s.k0 / 2;
    ref::Window win1{3, 3, s.s1, s.s1, 1, 1};
    win1.pt = win1.pb = win1.pl = win1.pr = s.pad1;
    const int h2 = win1.outH(s.h), w2 = win1.outW(s.w);
    std::vector<uint16_t> x = halves(size_t(s.h) * s.w * s.cin, 1.0f),
                          k0 = halves(size_t(s.k0) * s.k0 * s.cin * s.c,
                                      0.25f),
                          k1 = halves(9 * size_t(s.c), 0.5f),
                          k2 = halves(size_t(s.c) * s.co, 0.25f);
    auto t = [](int h, int w, int ch) {
      return "tensor<1x" + std::to_string(h) + "x" + std::to_string(w) + "x" +
             std::to_string(ch) + "xf16>";
    };
    const std::string tx = t(s.h, s.w, s.cin), ta = t(s.h, s.w, s.c),
                      td = t(h2, w2, s.c), ty = t(h2, w2, s.co);
    const std::string wt0 = "tensor<" + std::to_string(s.k0) + "x" +
                            std::to_string(s.k0) + "x" +
                            std::to_string(s.cin) + "x" +
                            std::to_string(s.c) + "xf16>",
                      wt1 = "tensor<3x3x" + std::to_string(s.c) + "xf16>",
                      wt2 = "tensor<1x1x" + std::to_string(s.c) + "x" +
                            std::to_string(s.co) + "xf16>";
    std::ostringstream m;
    m << "module attributes {npu.target = #npu.target<" << target << ">} {\n"
      << "  func.func @chain(%x: " << tx << ") -> " << ty << " {\n"
      << "    %w0 = arith.constant dense<\"" << hex(k0) << "\"> : " << wt0
      << "\n    %w1 = arith.constant dense<\"" << hex(k1) << "\"> : " << wt1
      << "\n    %w2 = arith.constant dense<\"" << hex(k2) << "\"> : " << wt2
      << "\n    %a = npu.conv2d %x, %w0 " << window(s.k0 / 2, 1) << " : ("
      << tx << ", " << wt0 << ") -> " << ta
      << "\n    %d = npu.depthwise_conv2d %a, %w1 " << window(s.pad1, s.s1)
      << " : (" << ta << ", " << wt1 << ") -> " << td
      << "\n    %y = npu.conv2d %d, %w2 " << window(0, 1) << " : (" << td
      << ", " << wt2 << ") -> " << ty << "\n    return %y : " << ty
      << "\n  }\n}\n";
    Chain out;
    out.fp16 = true;
    out.text = m.str();
    for (uint16_t v : x) {
      out.x.push_back(uint8_t(v));
      out.x.push_back(uint8_t(v >> 8));
    }
    auto round = [](const std::vector<float> &v) {
      std::vector<uint16_t> r;
      for (float f : v)
        r.push_back(ref::floatToHalf(f));
      return r;
    };
    std::vector<uint16_t> a =
        round(ref::convF16(x, s.h, s.w, s.cin, k0, s.c, win0));
    std::vector<uint16_t> d =
        round(ref::depthwiseF16(a, s.h, s.w, s.c, k1, win1));
    std::vector<uint16_t> y =
        round(ref::convF16(d, h2, w2, s.c, k2, s.co, one));
    for (uint16_t v : y) {
      out.expected.push_back(uint8_t(v));
      out.expected.push_back(uint8_t(v >> 8));
    }
    return out;
  }

  mlir::OwningOpRef<mlir::ModuleOp>
  convert(const std::string &text, const ConvertNPUToNPUHWPassOptions &o) {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
    EXPECT_TRUE(module);
    if (!module)
      return module;
    mlir::PassManager pm(&ctx);
    pm.addPass(createConvertNPUToNPUHWPass(o));
    if (failed(pm.run(*module)))
      return nullptr;
    return module;
  }
};

/// DMA commands of \p module that touch scratch (r1).
int scratchAccesses(mlir::ModuleOp module) {
  int n = 0;
  module.walk([&](mlir::Operation *op) {
    if (!mlir::isa<npuhw::DmaLoadOp, npuhw::DmaStoreOp>(op))
      return;
    for (mlir::Value v : op->getOperands())
      if (auto type = llvm::dyn_cast<mlir::MemRefType>(v.getType()))
        if (auto space = llvm::dyn_cast_or_null<npuhw::DramSpaceAttr>(
                type.getMemorySpace());
            space && space.getRegion() == 1)
          ++n;
  });
  return n;
}

TEST_F(NPUToNPUHWCascadeTest, RandomChainsBitExact) {
  const int cases = testing::loweringCases(24);
  int cascadedChains = 0;
  const char *targets[] = {
      "\"default\", {\"dma.dram_bytes_per_cycle\" = 1 : i64}",
      "\"realistic\"",
      "\"default\", {\"lmem.act_kib\" = 24 : i64, "
      "\"dma.dram_bytes_per_cycle\" = 1 : i64}",
      "\"realistic\", {\"lmem.act_kib\" = 48 : i64}"};
  for (int i = 0; i < cases; ++i) {
    const bool fp16 = i % 2;
    Shape s = shape(fp16);
    const std::string target = targets[uni(0, 3)];
    Chain c = fp16 ? chainF16(s, target) : chainInt8(s, target);
    SCOPED_TRACE(c.text);
    ConvertNPUToNPUHWPassOptions on, off;
    on.maxRowsPerBand = off.maxRowsPerBand = uni(0, 6);
    on.lmemResident = off.lmemResident = uni(0, 3) != 0;
    off.cascade = false;
    // Shapes that do not tile at all in the small ACT (a band step of
    // several rows for aligned stores) are drawn again.
    mlir::OwningOpRef<mlir::ModuleOp> plain = convert(c.text, off);
    if (!plain) {
      --i;
      continue;
    }
    mlir::OwningOpRef<mlir::ModuleOp> cascaded = convert(c.text, on);
    ASSERT_TRUE(cascaded);
    if (scratchAccesses(*cascaded) < scratchAccesses(*plain))
      ++cascadedChains;
    Bytes y, yPlain;
    size_t races = 0, racesPlain = 0;
    allocateAndRun(*cascaded, c.x, y, races, /*verify=*/true);
    allocateAndRun(*plain, c.x, yPlain, racesPlain, /*verify=*/true);
    EXPECT_EQ(races, 0u);
    EXPECT_EQ(racesPlain, 0u);
    EXPECT_EQ(y, c.expected);
    EXPECT_EQ(yPlain, c.expected);
  }
  // Some of the chains cascade at least one intermediate (the rest keep it
  // resident, lmem-resident being on in three cases of four, or gain
  // nothing from a ring): 5 of the 24 default cases, 39 of 200.
  EXPECT_GE(cascadedChains * 6, cases);
}

TEST_F(NPUToNPUHWCascadeTest, MissingDependencyOnRingCopyRaces) {
  Shape s{12, 8, 16, 16, 16, 3, 1, 1};
  Chain c = chainInt8(s, "\"realistic\"");
  ConvertNPUToNPUHWPassOptions options;
  options.maxRowsPerBand = 2;
  options.lmemResident = false;
  mlir::OwningOpRef<mlir::ModuleOp> module = convert(c.text, options);
  ASSERT_TRUE(module);
  EXPECT_EQ(scratchAccesses(*module), 0);
  // The first copy into a ring: an LMEM-to-LMEM DMA_LOAD from a band's
  // output buffer into a flat byte view, after that band's requantisation.
  npuhw::DmaLoadOp copy;
  module->walk([&](npuhw::DmaLoadOp load) {
    auto src = llvm::cast<mlir::MemRefType>(load.getSrc().getType());
    auto dst = llvm::cast<mlir::MemRefType>(load.getDst().getType());
    if (!copy && llvm::isa<npuhw::LmemRegionAttr>(src.getMemorySpace()) &&
        src.getRank() == 4 && dst.getRank() == 1)
      copy = load;
  });
  ASSERT_TRUE(copy);
  ASSERT_FALSE(copy.getDeps().empty());
  ASSERT_TRUE(llvm::isa<npuhw::VecRequantOp>(
      copy.getDeps().front().getDefiningOp()));
  mlir::OwningOpRef<mlir::ModuleOp> intact(module->clone());
  Bytes y;
  size_t races = 0;
  allocateAndRun(*intact, c.x, y, races, /*verify=*/true);
  EXPECT_EQ(races, 0u);
  EXPECT_EQ(y, c.expected);
  copy.getDepsMutable().clear();
  allocateAndRun(*module, c.x, y, races, /*verify=*/true);
  EXPECT_GT(races, 0u);
}

} // namespace
} // namespace kiln
