//===- NPUToNPUHWResizeTest.cpp - npu up-sampling compiled and run -------===//
//
// For seeded random npu.resize_nearest (factors 1-4 per axis) and
// npu.resize_bilinear (2x, half-pixel centres) layers in int8 and fp16
// (1-70 channels, odd counts included, batches of 2, random scales and zero
// points, small LMEM.ACT and LMEM.ACC targets and band/group bounds so that
// layers take several bands and channel groups), the test writes the npu
// function as MLIR text, runs kiln-npu-to-npuhw-pipeline, exports the
// stream as --npuhw-to-npub does, runs it on the simulator with race
// checking and compares the output bytes with the runtime's independent
// reference (ref::resizeNearest, ref::resizeBilinear2xInt8 with
// ref::requant, ref::resizeBilinear2xF16 with ref::floatToHalf) bit for
// bit.
//
// KILN_NPU_LOWERING_CASES=<n> sets the number of layers per op and element
// type (default 24; docs/npu-lowering.md: the full run uses 200).
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUOps.h"
#include "runtime/npu/Reference.h"
#include "unittests/Conversion/NPULoweringHarness.h"

#include <cstring>
#include <random>
#include <sstream>

namespace kiln {
namespace {

namespace ref = npu::ref;

/// One random up-sampling layer and the data it runs on.
struct ResizeCase {
  bool bilinear = false, fp16 = false;
  int n = 1, h = 1, w = 1, c = 1, sy = 2, sx = 2;
  double inScale = 0.25, outScale = 0.25;
  int inZp = 0, outZp = 0;
  /// The input bytes: int8 values, or fp16 bits little-endian.
  std::vector<uint8_t> x;
  unsigned maxRows = 0, maxBlocks = 0;
  /// The `#npu.target` parameters.
  std::string target = "\"default\"";

  int oh() const { return h * sy; }
  int ow() const { return w * sx; }
  int esize() const { return fp16 ? 2 : 1; }
  std::string describe() const {
    std::ostringstream s;
    s << (bilinear ? "bilinear " : "nearest ") << (fp16 ? "f16 " : "i8 ")
      << n << "x" << h << "x" << w << "x" << c << " by " << sy << "x" << sx
      << " scales " << inScale << "->" << outScale << " zp " << inZp << "->"
      << outZp << " rows<=" << maxRows << " blocks<=" << maxBlocks << " "
      << target;
    return s.str();
  }
};

/// Random fp16 bits: both signs, magnitudes 2^-14 to 2^8 with random
/// mantissas (the weighted sums round), signed zeros, denormals, the
/// largest finite values, and rarely infinities and NaN.
uint16_t randomHalf(std::mt19937 &rng) {
  auto uni = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  uint16_t sign = uni(0, 1) ? 0x8000 : 0;
  switch (uni(0, 39)) {
  case 0:
  case 1:
    return sign; // +-0
  case 2:
    return sign | uni(1, 1023); // denormal
  case 3:
    return sign | 0x7bff; // +-65504
  case 4:
    return sign | (uni(0, 1) ? 0x7c00 : 0x7e00); // +-inf or NaN
  default:
    return sign | (uni(1, 23) << 10) | uni(0, 1023);
  }
}

ResizeCase randomResize(bool bilinear, bool fp16, std::mt19937 &rng) {
  auto uni = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  auto real = [&](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  ResizeCase l;
  l.bilinear = bilinear;
  l.fp16 = fp16;
  l.n = uni(0, 4) ? 1 : 2;
  l.h = uni(1, uni(0, 3) ? 12 : 40);
  l.w = uni(1, uni(0, 3) ? 12 : 40);
  l.c = uni(0, 3) ? uni(1, 70) : 16 * uni(1, 4);
  if (!bilinear) {
    l.sy = uni(0, 2) ? 2 : uni(1, 4);
    l.sx = uni(0, 2) ? l.sy : uni(1, 4);
  }
  if (!fp16) {
    l.inScale = real(0.005, 0.5);
    l.inZp = uni(-128, 127);
    // Nearest copies stored values: one type. Bilinear may rescale.
    bool same = !bilinear || uni(0, 1);
    l.outScale = same ? l.inScale : l.inScale * real(0.4, 2.5);
    l.outZp = same ? l.inZp : uni(-128, 127);
  }
  l.maxRows = uni(0, 2) ? uni(1, 5) : 0;
  l.maxBlocks = uni(0, 2) ? uni(1, 3) : 0;
  // The smallest tiles of the lowerings (ResizeLowering.cpp): small ACT and
  // ACC only where they fit.
  const int slot = (l.c + 15) / 16 * 16 * l.esize();
  const int act = bilinear ? 2 * (4 * (l.w + 2) * slot + 4 * l.w * slot)
                           : 2 * l.w * slot;
  const int acc = 8 * l.w * 64;
  switch (uni(0, 5)) {
  case 0:
    if (act <= 8192)
      l.target = "\"default\", {\"lmem.act_kib\" = 8 : i64}";
    break;
  case 1:
    if (acc <= 4096)
      l.target = "\"default\", {\"lmem.acc_kib\" = 4 : i64}";
    break;
  case 2:
    l.target = "\"realistic\"";
    break;
  default:
    break;
  }
  size_t elements = size_t(l.n) * l.h * l.w * l.c;
  for (size_t i = 0; i < elements; ++i) {
    if (fp16) {
      uint16_t v = randomHalf(rng);
      l.x.push_back(v & 0xff);
      l.x.push_back(v >> 8);
    } else {
      l.x.push_back(static_cast<uint8_t>(uni(-128, 127)));
    }
  }
  return l;
}

/// The npu function of \p l as MLIR text.
std::string resizeModule(const ResizeCase &l) {
  auto element = [&](double scale, int zp) {
    return l.fp16 ? std::string("f16")
                  : "!quant.uniform<i8:f32, " +
                        kiln::testing::exactNumber(scale) + ":" +
                        std::to_string(zp) + ">";
  };
  auto type = [&](int h, int w, const std::string &e) {
    return "tensor<" + std::to_string(l.n) + "x" + std::to_string(h) + "x" +
           std::to_string(w) + "x" + std::to_string(l.c) + "x" + e + ">";
  };
  std::string inT = type(l.h, l.w, element(l.inScale, l.inZp));
  std::string outT = type(l.oh(), l.ow(), element(l.outScale, l.outZp));
  std::ostringstream s;
  s << "module attributes {npu.target = #npu.target<" << l.target
    << ">} {\n  func.func @resize(%x: " << inT << ") -> " << outT
    << " {\n    %y = npu.";
  if (l.bilinear)
    s << "resize_bilinear %x";
  else
    s << "resize_nearest %x {scale = array<i64: " << l.sy << ", " << l.sx
      << ">}";
  s << " : (" << inT << ") -> " << outT << "\n    return %y : " << outT
    << "\n  }\n}\n";
  return s.str();
}

/// The expected output bytes, image by image, from the reference.
std::vector<uint8_t> expected(const ResizeCase &l) {
  std::vector<uint8_t> out;
  const size_t image = size_t(l.h) * l.w * l.c * l.esize();
  for (int img = 0; img < l.n; ++img) {
    std::vector<uint8_t> x(l.x.begin() + img * image,
                           l.x.begin() + (img + 1) * image);
    if (!l.bilinear) {
      std::vector<uint8_t> y =
          ref::resizeNearest(x, l.h, l.w, l.c, l.esize(), l.sy, l.sx);
      out.insert(out.end(), y.begin(), y.end());
      continue;
    }
    if (!l.fp16) {
      std::vector<int8_t> in(x.size());
      std::memcpy(in.data(), x.data(), x.size());
      std::vector<int32_t> acc =
          ref::resizeBilinear2xInt8(in, l.h, l.w, l.c, l.inZp);
      std::optional<npu::QuantizedMultiplier> m =
          npu::quantizeMultiplier(l.inScale / (16 * l.outScale));
      std::vector<int32_t> zero(l.c, 0), mult(l.c, m->multiplier),
          shift(l.c, 31 - m->exponent);
      for (int8_t v : ref::requant(acc, l.c, zero, mult, shift,
                                   /*doubleRound=*/false, l.outZp, -128, 127))
        out.push_back(static_cast<uint8_t>(v));
      continue;
    }
    std::vector<uint16_t> in(x.size() / 2);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = uint16_t(x[2 * i] | (x[2 * i + 1] << 8));
    for (float v : ref::resizeBilinear2xF16(in, l.h, l.w, l.c)) {
      uint16_t bits = ref::floatToHalf(v);
      out.push_back(bits & 0xff);
      out.push_back(bits >> 8);
    }
  }
  return out;
}

class NPUToNPUHWResizeTest : public kiln::testing::NPULoweringTest {
protected:
  /// Compiles and runs \p l with race checking and compares with the
  /// reference; returns the simulator's statistics.
  npu::Stats runResize(const ResizeCase &l) {
    SCOPED_TRACE(l.describe());
    NPUToNPUHWPipelineOptions options;
    options.maxRowsPerBand = l.maxRows;
    options.maxBlocksPerGroup = l.maxBlocks;
    npu::Program program;
    std::string error = compile(resizeModule(l), program, options);
    EXPECT_EQ(error, "") << resizeModule(l);
    if (!error.empty())
      return {};
    absl::StatusOr<npu::Simulator> sim =
        npu::Simulator::create(std::move(program));
    EXPECT_TRUE(sim.ok()) << sim.status();
    if (!sim.ok())
      return {};
    absl::Status set = sim->setInput("arg0", l.x);
    EXPECT_TRUE(set.ok()) << set;
    npu::RunOptions run;
    run.raceCheck = true;
    absl::StatusOr<npu::RunResult> result = sim->run(run);
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok())
      return {};
    EXPECT_TRUE(result->races.empty())
        << result->races.size() << " unsynchronised access pairs";
    absl::StatusOr<std::vector<uint8_t>> y = sim->getOutput("result0");
    EXPECT_TRUE(y.ok()) << y.status();
    if (!y.ok())
      return {};
    std::vector<uint8_t> want = expected(l);
    EXPECT_EQ(y->size(), want.size());
    size_t mismatches = 0, first = 0;
    for (size_t i = 0; i < std::min(y->size(), want.size()); ++i)
      if ((*y)[i] != want[i] && !mismatches++)
        first = i;
    EXPECT_EQ(mismatches, 0u)
        << "first at byte " << first << ": got " << int((*y)[first])
        << ", want " << int(want[first]);
    return result->stats;
  }

  /// Runs the random cases of one op and element type; checks that they
  /// include layers of several bands (DMA_OUT) and, for bilinear, several
  /// MAC units per band (channel groups).
  void runRandom(bool bilinear, bool fp16, uint32_t seed) {
    int cases = kiln::testing::loweringCases(24);
    std::mt19937 rng(seed);
    bool severalBands = false, severalGroups = false;
    for (int i = 0; i < cases && !HasFailure(); ++i) {
      SCOPED_TRACE("case " + std::to_string(i));
      ResizeCase l = randomResize(bilinear, fp16, rng);
      npu::Stats stats = runResize(l);
      uint64_t outs =
          stats.engines[static_cast<int>(npu::Engine::DMA_OUT)].commands;
      uint64_t macs = stats.engines[static_cast<int>(npu::Engine::MAC)].commands;
      severalBands |= outs > uint64_t(bilinear ? l.n : l.n * l.sy);
      severalGroups |= bilinear && macs > 4 * outs;
    }
    if (cases >= 20) {
      EXPECT_TRUE(severalBands);
      EXPECT_TRUE(!bilinear || severalGroups);
    }
  }
};

TEST_F(NPUToNPUHWResizeTest, RandomNearestInt8MatchesReference) {
  runRandom(false, false, 31);
}
TEST_F(NPUToNPUHWResizeTest, RandomNearestF16MatchesReference) {
  runRandom(false, true, 32);
}
TEST_F(NPUToNPUHWResizeTest, RandomBilinearInt8MatchesReference) {
  runRandom(true, false, 33);
}
TEST_F(NPUToNPUHWResizeTest, RandomBilinearF16MatchesReference) {
  runRandom(true, true, 34);
}

} // namespace
} // namespace kiln
