//===- NPUToNPUHWResidentTest.cpp - intermediates kept in LMEM ------------===//
//
// A 1x1 conv -> 3x3 depthwise -> 1x1 conv chain of random int8 layers
// whose two intermediates fit in ACT, so that convert-npu-to-npuhw keeps
// them in LMEM (lmem-resident, the default): the stream has no scratch
// region and no DMA_STORE except the result's, it runs without races and
// equals the reference composed from ref::convInt8, depthwiseInt8 and
// requant bit for bit, and the same bytes as with lmem-resident=false.
// Then the copy into a resident tensor with its dependency on the
// requantisation that wrote its band removed: the race checker reports it.
//
//===----------------------------------------------------------------------===//

#include "unittests/Conversion/NPULoweringHarness.h"

#include "conversions/Passes.h"
#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPUHW/Transforms/Passes.h"
#include "runtime/npu/Reference.h"

#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>

namespace kiln {
namespace {

namespace ref = npu::ref;
using Bytes = std::vector<uint8_t>;
using testing::exactNumber;
using testing::hexBytes;

/// The (multiplier, shift) pair the lowering packs for \p real.
std::pair<int32_t, int32_t> record(double real) {
  std::optional<npu::QuantizedMultiplier> q = npu::quantizeMultiplier(real);
  return {q->multiplier, 31 - q->exponent};
}

std::string qi8(double scale, int zp) {
  return "!quant.uniform<i8:f32, " + exactNumber(scale) + ":" +
         std::to_string(zp) + ">";
}

/// One random chain: its text, input and expected output.
struct Chain {
  std::string text;
  Bytes x, expected;
};

class NPUToNPUHWResidentTest : public testing::NPULoweringTest {
protected:
  /// A random chain on \p target: h x w x cin -> c (1x1) -> c (3x3
  /// depthwise, SAME) -> co (1x1), c a multiple of 16 so that every band
  /// of the intermediates is 16-byte aligned.
  Chain chain(std::mt19937 &rng, const std::string &target) {
    auto uni = [&](int lo, int hi) {
      return std::uniform_int_distribution<int>(lo, hi)(rng);
    };
    const int h = uni(3, 20), w = uni(1, 20), cin = 16 * uni(1, 3),
              c = 16 * uni(1, 3), co = 16 * uni(1, 2);
    const double scales[] = {0.5, 0.25, 0.125, 0.0625, 0.1875, 0.375};
    auto scale = [&] { return scales[uni(0, 5)]; };
    const double sx = scale(), sa = scale(), sd = scale(), sy = scale();
    const double w0 = 0.0078125, w1 = 0.015625, w2 = 0.00390625;
    const int zx = uni(-20, 20), za = uni(-20, 20), zd = uni(-20, 20),
              zy = uni(-20, 20);
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
    Chain out;
    out.x = bytes(size_t(h) * w * cin);
    Bytes k0 = bytes(size_t(cin) * c), k1 = bytes(9 * size_t(c)),
          k2 = bytes(size_t(c) * co);
    std::vector<int32_t> b0 = biases(c), b1 = biases(c), b2 = biases(co);

    auto t = [&](int ch, double s, int z) {
      return "tensor<1x" + std::to_string(h) + "x" + std::to_string(w) + "x" +
             std::to_string(ch) + "x" + qi8(s, z) + ">";
    };
    auto list = [](const std::vector<int32_t> &v) {
      std::string s;
      for (int32_t x : v)
        s += (s.empty() ? "" : ", ") + std::to_string(x);
      return s;
    };
    std::ostringstream m;
    auto weight = [&](const std::string &name, const std::string &shape,
                      const Bytes &data, double s) {
      m << "    %" << name << "i = arith.constant dense<\"" << hexBytes(data)
        << "\"> : tensor<" << shape << "xi8>\n    %" << name
        << " = quant.scast %" << name << "i : tensor<" << shape
        << "xi8> to tensor<" << shape << "x!quant.uniform<i8:f32, "
        << exactNumber(s) << ">>\n";
      return "tensor<" + shape + "x!quant.uniform<i8:f32, " + exactNumber(s) +
             ">>";
    };
    m << "module attributes {npu.target = #npu.target<" << target << ">} {\n"
      << "  func.func @chain(%x: " << t(cin, sx, zx) << ") -> "
      << t(co, sy, zy) << " {\n";
    std::string wt0 = weight("w0", "1x1x" + std::to_string(cin) + "x" +
                                        std::to_string(c), k0, w0);
    std::string wt1 = weight("w1", "3x3x" + std::to_string(c), k1, w1);
    std::string wt2 = weight("w2", "1x1x" + std::to_string(c) + "x" +
                                        std::to_string(co), k2, w2);
    m << "    %b0 = arith.constant dense<[" << list(b0) << "]> : tensor<" << c
      << "xi32>\n    %b1 = arith.constant dense<[" << list(b1)
      << "]> : tensor<" << c << "xi32>\n    %b2 = arith.constant dense<["
      << list(b2) << "]> : tensor<" << co << "xi32>\n";
    const std::string attrs1 =
        "{stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = "
        "array<i64: 0, 0, 0, 0>}";
    m << "    %a = npu.conv2d %x, %w0, %b0 " << attrs1 << " : ("
      << t(cin, sx, zx) << ", " << wt0 << ", tensor<" << c << "xi32>) -> "
      << t(c, sa, za) << "\n    %d = npu.depthwise_conv2d %a, %w1, %b1 "
      << "{stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = "
         "array<i64: 1, 1, 1, 1>, clamp_min = -100 : i64} : ("
      << t(c, sa, za) << ", " << wt1 << ", tensor<" << c << "xi32>) -> "
      << t(c, sd, zd) << "\n    %y = npu.conv2d %d, %w2, %b2 " << attrs1
      << " : (" << t(c, sd, zd) << ", " << wt2 << ", tensor<" << co
      << "xi32>) -> " << t(co, sy, zy) << "\n    return %y : "
      << t(co, sy, zy) << "\n  }\n}\n";
    out.text = m.str();

    // The composed reference.
    auto requant = [](const std::vector<int32_t> &acc, int ch,
                      const std::vector<int32_t> &bias, double real, int zp,
                      int lo) {
      auto [mult, shift] = record(real);
      return ref::requant(acc, ch, bias, std::vector<int32_t>(ch, mult),
                          std::vector<int32_t>(ch, shift), true, zp, lo, 127);
    };
    auto s8 = [](const Bytes &b) { return std::vector<int8_t>(b.begin(), b.end()); };
    ref::Window one, three{3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
    std::vector<int8_t> a = requant(
        ref::convInt8(s8(out.x), h, w, cin, s8(k0), c, one, zx), c, b0,
        sx * w0 / sa, za, -128);
    std::vector<int8_t> d = requant(
        ref::depthwiseInt8(a, h, w, c, s8(k1), three, za), c, b1,
        sa * w1 / sd, zd, -100);
    std::vector<int8_t> y = requant(ref::convInt8(d, h, w, c, s8(k2), co,
                                                  one, zd),
                                    co, b2, sd * w2 / sy, zy, -128);
    out.expected.assign(y.begin(), y.end());
    return out;
  }

  /// The chain converted by convert-npu-to-npuhw with \p options.
  mlir::OwningOpRef<mlir::ModuleOp>
  convert(const std::string &text, const ConvertNPUToNPUHWPassOptions &o) {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
    EXPECT_TRUE(module);
    mlir::PassManager pm(&ctx);
    pm.addPass(createConvertNPUToNPUHWPass(o));
    EXPECT_TRUE(succeeded(pm.run(*module)));
    return module;
  }
};

/// DMA commands of \p module that touch DRAM region \p region.
int dramAccesses(mlir::ModuleOp module, unsigned region) {
  int n = 0;
  module.walk([&](mlir::Operation *op) {
    if (!mlir::isa<npuhw::DmaLoadOp, npuhw::DmaStoreOp>(op))
      return;
    for (mlir::Value v : op->getOperands())
      if (auto type = llvm::dyn_cast<mlir::MemRefType>(v.getType()))
        if (auto space = llvm::dyn_cast_or_null<npuhw::DramSpaceAttr>(
                type.getMemorySpace());
            space && space.getRegion() == region)
          ++n;
  });
  return n;
}

TEST_F(NPUToNPUHWResidentTest, ChainBitExactWithoutDram) {
  const char *env = std::getenv("KILN_NPU_LOWERING_CASES");
  const int cases = env ? std::atoi(env) : 20;
  std::mt19937 rng(2026);
  for (int i = 0; i < cases; ++i) {
    std::string target = i % 2 ? "\"realistic\"" : "\"default\"";
    Chain c = chain(rng, target);
    SCOPED_TRACE(c.text);
    ConvertNPUToNPUHWPassOptions on, off;
    on.maxRowsPerBand = off.maxRowsPerBand = 1 + rng() % 6;
    off.lmemResident = false;
    off.cascade = false;
    // Resident: no scratch traffic, one buffer per intermediate in ACT.
    mlir::OwningOpRef<mlir::ModuleOp> resident = convert(c.text, on);
    mlir::OwningOpRef<mlir::ModuleOp> dram = convert(c.text, off);
    ASSERT_TRUE(resident && dram);
    EXPECT_EQ(dramAccesses(*resident, 1), 0);
    EXPECT_GT(dramAccesses(*dram, 1), 0);
    Bytes y, yDram;
    size_t races = 0, racesDram = 0;
    allocateAndRun(*resident, c.x, y, races, /*verify=*/false);
    allocateAndRun(*dram, c.x, yDram, racesDram, /*verify=*/false);
    EXPECT_EQ(races, 0u);
    EXPECT_EQ(racesDram, 0u);
    EXPECT_EQ(y, c.expected);
    EXPECT_EQ(yDram, c.expected);
  }
}

TEST_F(NPUToNPUHWResidentTest, MissingDependencyOnResidentCopyRaces) {
  std::mt19937 rng(5);
  Chain c = chain(rng, "\"realistic\"");
  ConvertNPUToNPUHWPassOptions options;
  options.maxRowsPerBand = 2;
  mlir::OwningOpRef<mlir::ModuleOp> module = convert(c.text, options);
  ASSERT_TRUE(module);
  // The first copy into a resident tensor (an LMEM-to-LMEM DMA_LOAD into a
  // flat byte buffer): it waits for the requantisation of its band.
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
  allocateAndRun(*intact, c.x, y, races, /*verify=*/false);
  EXPECT_EQ(races, 0u);
  EXPECT_EQ(y, c.expected);
  copy.getDepsMutable().clear();
  allocateAndRun(*module, c.x, y, races, /*verify=*/false);
  EXPECT_GT(races, 0u);
}

} // namespace
} // namespace kiln
