//===- NPUToNPUHWF16Test.cpp - fp16 npu layers run bit for bit ------------===//
//
// For a seeded set of random fp16 layers (npu.conv2d, npu.depthwise_conv2d,
// npu.fully_connected: several bands and channel groups, halos, channel
// counts that are not multiples of 16, strides 1-3, kernels 1/3/5, SAME and
// VALID padding, dilation, batches, f16, f32 or no bias, clamps with bounds
// that are not fp16 values, weights loaded once or streamed), the test
// writes the npu function as MLIR text, runs kiln-npu-to-npuhw-pipeline,
// exports the stream, runs it on the simulator with race checking, and
// compares the output bits with a reference composed from the runtime's
// independent reference (ref::convF16, ref::halfToFloat, ref::floatToHalf)
// following the semantics of the op descriptions (docs/npu-lowering.md,
// "fp16 layers"):
//
//   acc = f32(bias[c]) (or +0.0), then acc += x * w sequentially in f32 over
//         (ky, kx, input lanes padded to 16 with +0.0); y = f16(acc) (RNE);
//         y = clamp(y, f16(clamp_min), f16(clamp_max)), NaN unchanged.
//
// Values are random reals of several magnitudes (negatives, ±0, fp16
// denormals), so products and sums round. KILN_NPU_LOWERING_CASES=<n> sets
// the number of layers per op (default 40; the full run uses 200).
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "passes/Pipelines.h"
#include "unittests/Conversion/NPULoweringHarness.h"
#include "runtime/npu/Reference.h"
#include "runtime/npu/Simulator.h"
#include "target/npu/NPUTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <sstream>

namespace kiln {
namespace {

using namespace mlir;
namespace ref = npu::ref;

enum class Kind { Conv, Depthwise, FullyConnected };
enum class Bias { None, F16, F32 };

/// One random fp16 layer and the data it runs on.
struct Layer {
  Kind kind = Kind::Conv;
  int n = 1, h = 1, w = 1, cin = 1, cout = 1, kh = 1, kw = 1;
  ref::Window win;
  Bias bias = Bias::None;
  bool hasMin = false, hasMax = false;
  float lo = 0, hi = 0; ///< The clamp attributes (f32).
  std::vector<uint16_t> x, weights, biasF16;
  std::vector<float> biasF32;
  unsigned maxRows = 0, maxBlocks = 0;
  std::string target = "\"default\"";

  int oh() const { return kind == Kind::FullyConnected ? 1 : win.outH(h); }
  int ow() const { return kind == Kind::FullyConnected ? w : win.outW(w); }
  /// The bias of channel \p c as the accumulator starts with it.
  float biasOf(int c) const {
    return bias == Bias::F16   ? ref::halfToFloat(biasF16[c])
           : bias == Bias::F32 ? biasF32[c]
                               : 0.0f;
  }
  std::string describe() const {
    std::ostringstream s;
    s << (kind == Kind::Conv        ? "conv2d"
          : kind == Kind::Depthwise ? "depthwise_conv2d"
                                    : "fully_connected")
      << " " << n << "x" << h << "x" << w << "x" << cin << " -> " << cout
      << " k" << kh << "x" << kw << " s" << win.sy << "x" << win.sx << " d"
      << win.dy << " pad " << win.pt << "," << win.pb << "," << win.pl << ","
      << win.pr << " bias " << int(bias) << " rows<=" << maxRows
      << " blocks<=" << maxBlocks << " " << target;
    return s.str();
  }
};

/// TF's SAME padding of one dimension (before, after) or VALID's (0, 0).
std::pair<int, int> padFor(bool same, int in, int k, int s, int d) {
  if (!same)
    return {0, 0};
  int out = (in + s - 1) / s, keff = d * (k - 1) + 1;
  int total = std::max((out - 1) * s + keff - in, 0);
  return {total / 2, total - total / 2};
}

/// A random fp16 value: mostly uniform in [-scale, scale] (rounded to fp16),
/// sometimes ±0 or an fp16 denormal.
uint16_t randomHalf(std::mt19937 &rng, float scale) {
  int kind = std::uniform_int_distribution<int>(0, 99)(rng);
  std::uniform_real_distribution<float> real(-1.0f, 1.0f);
  if (kind < 3)
    return kind == 0 ? 0x8000 : 0x0000;
  if (kind < 6)
    return ref::floatToHalf(std::ldexp(real(rng), -15));
  return ref::floatToHalf(scale * real(rng));
}

/// A random layer; \p smallChannels: a convolution of 1-4 input channels
/// with kernels 2-5 wide over wider images (the layers whose input the
/// lowering packs), whose inputs include infinities: a packed lane of real
/// data facing a zero weight would turn them into NaN.
Layer randomLayer(Kind kind, std::mt19937 &rng, bool smallChannels = false) {
  auto uni = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  auto real = [&](float lo, float hi) {
    return std::uniform_real_distribution<float>(lo, hi)(rng);
  };
  Layer l;
  l.kind = kind;
  if (kind == Kind::FullyConnected) {
    l.w = uni(1, 40);
    l.cin = uni(1, 80);
    l.cout = uni(1, 70);
  } else {
    const int ks[] = {1, 3, 5};
    l.kh = ks[uni(0, 2)];
    l.kw = uni(0, 3) ? l.kh : ks[uni(0, 2)];
    l.win.kh = l.kh;
    l.win.kw = l.kw;
    l.win.sy = uni(1, 3);
    l.win.sx = uni(0, 2) ? l.win.sy : uni(1, 3);
    l.win.dy = l.win.dx = uni(0, 4) ? 1 : 2;
    bool same = uni(0, 1);
    l.n = uni(0, 4) ? 1 : 2;
    l.h = std::max(uni(1, 20), l.win.dy * (l.kh - 1) + 1);
    l.w = std::max(uni(1, 20), l.win.dx * (l.kw - 1) + 1);
    l.cin = uni(1, 48);
    l.cout = kind == Kind::Depthwise ? l.cin : uni(1, 48);
    if (smallChannels) {
      const int kws[] = {2, 3, 3, 5};
      l.kw = l.win.kw = kws[uni(0, 3)];
      l.win.dx = uni(0, 5) ? 1 : 2;
      l.w = std::max(uni(8, 48), l.win.dx * (l.kw - 1) + 1);
      l.cin = uni(1, 4);
    }
    std::tie(l.win.pt, l.win.pb) = padFor(same, l.h, l.kh, l.win.sy, l.win.dy);
    std::tie(l.win.pl, l.win.pr) = padFor(same, l.w, l.kw, l.win.sx, l.win.dx);
    // The lowering rejects batches whose images end unaligned in DRAM.
    if ((l.oh() * l.ow() * l.cout * 2) % 16)
      l.n = 1;
  }
  l.bias = static_cast<Bias>(uni(0, 2));
  if (uni(0, 2) == 0) {
    l.hasMin = uni(0, 3) != 0;
    l.hasMax = !l.hasMin || uni(0, 1);
    l.lo = real(-3, 0.5f);
    l.hi = l.lo + real(0, 6);
  }
  l.maxRows = uni(0, 2) ? uni(1, 4) : 0;
  l.maxBlocks = uni(0, 2) ? uni(1, 2) : 0;
  if (int t = uni(0, 3); t == 0)
    l.target = "\"realistic\"";
  else if (t == 1)
    l.target = "\"default\", {\"lmem.wgt_kib\" = 40 : i64}";
  const float xScale = std::ldexp(1.0f, uni(-2, 4));
  int wsize = l.kh * l.kw * l.cin * (kind == Kind::Depthwise ? 1 : l.cout);
  for (int i = 0; i < wsize; ++i)
    l.weights.push_back(randomHalf(rng, 1.0f));
  for (int i = 0; i < l.n * l.h * l.w * l.cin; ++i)
    l.x.push_back(smallChannels && uni(0, 49) == 0
                      ? (uni(0, 1) ? 0x7c00 : 0xfc00)
                      : randomHalf(rng, xScale));
  for (int c = 0; c < l.cout; ++c) {
    // Some biases are -0.0, which a preload keeps and +0.0 would not.
    float b = uni(0, 9) ? real(-4, 4) * xScale : -0.0f;
    l.biasF32.push_back(b);
    l.biasF16.push_back(ref::floatToHalf(b));
  }
  return l;
}

std::string hexBytes(const void *data, size_t bytes) {
  static const char *digits = "0123456789ABCDEF";
  std::string s = "0x";
  for (size_t i = 0; i < bytes; ++i) {
    uint8_t b = static_cast<const uint8_t *>(data)[i];
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

/// An f32 attribute with exactly \p v's bits.
std::string f32Attr(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, 4);
  char buf[32];
  std::snprintf(buf, sizeof(buf), "0x%08X : f32", bits);
  return buf;
}

/// The npu function of \p l as MLIR text.
std::string layerModule(const Layer &l) {
  auto dims = [](std::initializer_list<int> ds) {
    std::string s;
    for (int d : ds)
      s += std::to_string(d) + "x";
    return s;
  };
  std::string inT, outT, wT;
  if (l.kind == Kind::FullyConnected) {
    inT = dims({l.w, l.cin});
    outT = dims({l.w, l.cout});
    wT = dims({l.cin, l.cout});
  } else {
    inT = dims({l.n, l.h, l.w, l.cin});
    outT = dims({l.n, l.oh(), l.ow(), l.cout});
    wT = l.kind == Kind::Conv ? dims({l.kh, l.kw, l.cin, l.cout})
                              : dims({l.kh, l.kw, l.cin});
  }
  inT = "tensor<" + inT + "f16>";
  outT = "tensor<" + outT + "f16>";
  wT = "tensor<" + wT + "f16>";
  std::string biasT = "tensor<" + std::to_string(l.cout) +
                      (l.bias == Bias::F16 ? "xf16>" : "xf32>");
  bool hasBias = l.bias != Bias::None;
  std::ostringstream s;
  s << "module attributes {npu.target = #npu.target<" << l.target
    << ">} {\n  func.func @layer(%x: " << inT << ") -> " << outT << " {\n"
    << "    %w = arith.constant dense<\""
    << hexBytes(l.weights.data(), l.weights.size() * 2) << "\"> : " << wT
    << "\n";
  if (hasBias)
    s << "    %b = arith.constant dense<\""
      << (l.bias == Bias::F16 ? hexBytes(l.biasF16.data(), l.cout * 2)
                              : hexBytes(l.biasF32.data(), l.cout * 4))
      << "\"> : " << biasT << "\n";
  std::vector<std::string> attrs;
  if (l.kind != Kind::FullyConnected) {
    const ref::Window &w = l.win;
    auto arr = [](std::initializer_list<int> vs) {
      std::string s = "array<i64: ";
      for (int v : vs)
        s += (s.back() == ' ' ? "" : ", ") + std::to_string(v);
      return s + ">";
    };
    attrs.push_back("stride = " + arr({w.sy, w.sx}));
    attrs.push_back("dilation = " + arr({w.dy, w.dx}));
    attrs.push_back("pad = " + arr({w.pt, w.pb, w.pl, w.pr}));
  }
  if (l.hasMin)
    attrs.push_back("clamp_min = " + f32Attr(l.lo));
  if (l.hasMax)
    attrs.push_back("clamp_max = " + f32Attr(l.hi));
  std::string attrText;
  for (const std::string &a : attrs)
    attrText += (attrText.empty() ? "" : ", ") + a;
  const char *op = l.kind == Kind::Conv        ? "npu.conv2d"
                   : l.kind == Kind::Depthwise ? "npu.depthwise_conv2d"
                                               : "npu.fully_connected";
  s << "    %y = " << op << " %x, %w" << (hasBias ? ", %b" : "") << " {"
    << attrText << "} : (" << inT << ", " << wT
    << (hasBias ? ", " + biasT : "") << ") -> " << outT << "\n"
    << "    return %y : " << outT << "\n  }\n}\n";
  return s.str();
}

/// The f32 accumulators of one image: the bias, then the products summed
/// in the MAC's order over (ky, kx, ci < cin); a depthwise channel is a
/// 1-channel convolution of its own.
std::vector<float> accumulators(const Layer &l, const uint16_t *x) {
  const int oh = l.oh(), ow = l.ow(),
            h = l.kind == Kind::FullyConnected ? 1 : l.h;
  std::vector<float> out(size_t(oh) * ow * l.cout), init;
  if (l.kind != Kind::Depthwise) {
    if (l.bias != Bias::None)
      for (size_t i = 0; i < out.size(); ++i)
        init.push_back(l.biasOf(static_cast<int>(i % l.cout)));
    std::vector<uint16_t> image(x, x + size_t(h) * l.w * l.cin);
    return ref::convF16(image, h, l.w, l.cin, l.weights, l.cout, l.win, init);
  }
  for (int c = 0; c < l.cout; ++c) {
    std::vector<uint16_t> xc(size_t(h) * l.w), wc(size_t(l.kh) * l.kw);
    for (size_t i = 0; i < xc.size(); ++i)
      xc[i] = x[i * l.cin + c];
    for (size_t i = 0; i < wc.size(); ++i)
      wc[i] = l.weights[i * l.cin + c];
    init.clear();
    if (l.bias != Bias::None)
      init.assign(size_t(oh) * ow, l.biasOf(c));
    std::vector<float> acc = ref::convF16(xc, h, l.w, 1, wc, 1, l.win, init);
    for (size_t i = 0; i < acc.size(); ++i)
      out[i * l.cout + c] = acc[i];
  }
  return out;
}

/// The expected output bits: f16(acc), then the clamp with fp16 bounds.
std::vector<uint16_t> expected(const Layer &l) {
  const uint16_t lo = l.hasMin ? ref::floatToHalf(l.lo) : 0xfc00,
                 hi = l.hasMax ? ref::floatToHalf(l.hi) : 0x7c00;
  std::vector<uint16_t> out;
  size_t image = size_t(l.kind == Kind::FullyConnected ? 1 : l.h) * l.w * l.cin;
  for (int img = 0; img < l.n; ++img)
    for (float acc : accumulators(l, l.x.data() + img * image)) {
      uint16_t y = ref::floatToHalf(acc);
      if (l.hasMin || l.hasMax) {
        float v = ref::halfToFloat(y);
        if (v < ref::halfToFloat(lo))
          y = lo;
        if (v > ref::halfToFloat(hi))
          y = hi;
      }
      out.push_back(y);
    }
  return out;
}

/// What a compiled stream does, to check that the random layers cover it.
struct Coverage {
  int bands = 0, groups = 0, streamed = 0, preloads = 0, clamps = 0;
  /// Layers whose MAC_CONV is 1 wide though the kernel is not (packed).
  int packed = 0;
};

class NPUToNPUHWF16Test : public kiln::testing::NPULoweringTest {
protected:
  /// Compiles \p l with its band and group bounds; fills \p program or
  /// returns the diagnostics.
  std::string compile(const Layer &l, npu::Program &program) {
    NPUToNPUHWPipelineOptions options;
    options.maxRowsPerBand = l.maxRows;
    options.maxBlocksPerGroup = l.maxBlocks;
    return NPULoweringTest::compile(layerModule(l), program, options);
  }

  /// Compiles and runs \p l, compares bit for bit; returns the statistics.
  npu::Stats runLayer(const Layer &l) {
    SCOPED_TRACE(l.describe());
    npu::Program program;
    std::string error = compile(l, program);
    EXPECT_EQ(error, "");
    if (!error.empty())
      return {};
    int stores = 0, macs = 0, weightLoads = 0;
    bool packed = false;
    for (const npu::Command &c : program.commands) {
      packed |= c.opcode == npu::Opcode::MAC_CONV && c.kw == 1 && l.kw > 1;
      stores += c.opcode == npu::Opcode::DMA_STORE;
      macs += c.engine() == npu::Engine::MAC;
      weightLoads += c.opcode == npu::Opcode::DMA_LOAD && c.region == 0 &&
                     !(c.flags & npu::flags::kLmemSource);
      coverage.preloads += c.opcode == npu::Opcode::DMA_LOAD &&
                           (c.flags & npu::flags::kLmemSource);
      coverage.clamps += c.opcode == npu::Opcode::VEC_UNARY && c.op == 3;
    }
    coverage.packed += packed;
    coverage.bands += stores > 1;
    coverage.groups += macs > stores;
    coverage.streamed += weightLoads > 2;
    absl::StatusOr<npu::Simulator> sim =
        npu::Simulator::create(std::move(program));
    EXPECT_TRUE(sim.ok()) << sim.status();
    if (!sim.ok())
      return {};
    std::vector<uint8_t> input(l.x.size() * 2);
    std::memcpy(input.data(), l.x.data(), input.size());
    absl::Status set = sim->setInput("arg0", input);
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
    std::vector<uint16_t> want = expected(l), got(y->size() / 2);
    std::memcpy(got.data(), y->data(), got.size() * 2);
    EXPECT_EQ(got.size(), want.size());
    size_t mismatches = 0, first = 0;
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
      if (got[i] != want[i] && !mismatches++)
        first = i;
    EXPECT_EQ(mismatches, 0u)
        << "first at element " << first << ": got 0x" << std::hex
        << got[first] << ", want 0x" << want[first];
    return result->stats;
  }

  void runRandom(Kind kind, uint32_t seed, bool smallChannels = false) {
    int cases = kiln::testing::loweringCases(40);
    std::mt19937 rng(seed);
    for (int i = 0; i < cases && !HasFailure(); ++i) {
      SCOPED_TRACE("case " + std::to_string(i));
      runLayer(randomLayer(kind, rng, smallChannels));
    }
    if (smallChannels) {
      EXPECT_GT(coverage.packed, 0);
      return;
    }
    // The seeds give layers with bias preloads and clamps, in several bands
    // (images), several groups (dense layers) and streamed weights (conv).
    EXPECT_GT(coverage.preloads, 0);
    EXPECT_GT(coverage.clamps, 0);
    if (kind != Kind::FullyConnected) {
      EXPECT_GT(coverage.bands, 0);
    }
    if (kind != Kind::Depthwise) {
      EXPECT_GT(coverage.groups, 0);
    }
    if (kind == Kind::Conv) {
      EXPECT_GT(coverage.streamed, 0);
    }
  }

  Coverage coverage;
};

TEST_F(NPUToNPUHWF16Test, RandomConvolutionsMatchReference) {
  runRandom(Kind::Conv, 11);
}

TEST_F(NPUToNPUHWF16Test, RandomDepthwiseConvolutionsMatchReference) {
  runRandom(Kind::Depthwise, 12);
}

TEST_F(NPUToNPUHWF16Test, RandomFullyConnectedMatchReference) {
  runRandom(Kind::FullyConnected, 13);
}

// Convolutions of 1-4 input channels, kernels 2-5 wide, strides 1-3, SAME
// and VALID, some dilated, inputs with infinities: packed or not, bit exact
// (the packed lanes hold only window data), race checker on.
TEST_F(NPUToNPUHWF16Test, RandomSmallChannelConvolutionsMatchReference) {
  runRandom(Kind::Conv, 14, /*smallChannels=*/true);
}

// A -0.0 bias survives a sum of -0.0 products: the accumulator starts as
// the bias (a +0.0 start would give +0.0), and the 15 padding lanes of the
// input block add -0.0 products (+0.0 inputs, -0.0 weights), which change
// nothing. The reference computes the same, and the output is -0.0.
TEST_F(NPUToNPUHWF16Test, SignedZeroBias) {
  for (Kind kind : {Kind::Conv, Kind::Depthwise}) {
    std::mt19937 rng(5);
    Layer l = randomLayer(kind, rng);
    l.n = 1;
    l.h = l.w = 2;
    l.cin = l.cout = 1;
    l.kh = l.kw = 1;
    l.win = ref::Window{};
    l.maxRows = l.maxBlocks = 0;
    l.bias = Bias::F32;
    l.biasF32 = {-0.0f};
    l.hasMin = l.hasMax = false;
    l.weights = {0x3c00}; // 1.0
    l.x = {0x8000, 0x8000, 0x8000, 0x8000};
    EXPECT_EQ(expected(l), std::vector<uint16_t>(4, 0x8000));
    runLayer(l);
  }
}

// fp16 doubles the weight bytes: one output block of a 3x3x48 layer has
// 13824 bytes of weights, which fit 16 KiB of WGT once but not twice, so the
// weights stream through one buffer (each load after the MAC that read the
// previous block): one load per band and output block, bit exact, no race.
TEST_F(NPUToNPUHWF16Test, SingleBufferedWeights) {
  std::mt19937 rng(9);
  Layer l = randomLayer(Kind::Conv, rng);
  l.n = 1;
  l.h = l.w = 8;
  l.cin = 48;
  l.cout = 32;
  l.kh = l.kw = 3;
  l.win = ref::Window{3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  l.maxRows = 4;
  l.maxBlocks = 0;
  l.target = "\"default\", {\"lmem.wgt_kib\" = 16 : i64}";
  l.weights.resize(3 * 3 * 48 * 32);
  for (uint16_t &v : l.weights)
    v = randomHalf(rng, 0.25f);
  l.x.resize(8 * 8 * 48);
  for (uint16_t &v : l.x)
    v = randomHalf(rng, 2.0f);
  l.bias = Bias::F16;
  l.biasF16.resize(32, 0x3c00);
  npu::Program program;
  ASSERT_EQ(compile(l, program), "");
  int weightLoads = 0;
  std::set<uint32_t> weightBuffers;
  for (const npu::Command &c : program.commands)
    if (c.opcode == npu::Opcode::DMA_LOAD && c.region == 0 &&
        !(c.flags & npu::flags::kLmemSource) && c.srcRun == 13824) {
      ++weightLoads;
      weightBuffers.insert(c.dst);
    }
  EXPECT_EQ(weightLoads, 2 * 2);
  EXPECT_EQ(weightBuffers.size(), 1u);
  runLayer(l);
}

// The layer of docs/performance-npu.md in fp16: 3x3 SAME, 56x56x64 -> 64, with
// an f32 bias and a ReLU6 clamp, realistic configuration. Bit exact; its
// useful-MAC utilisation is printed (of the dense int8 peak, which the
// simulator reports, and of the fp16 peak, half of it) and recorded in
// docs/npu-lowering.md.
TEST_F(NPUToNPUHWF16Test, Conv56x56x64Utilisation) {
  std::mt19937 rng(56);
  Layer l = randomLayer(Kind::Conv, rng);
  l.n = 1;
  l.h = l.w = 56;
  l.cin = l.cout = 64;
  l.kh = l.kw = 3;
  l.win = ref::Window{3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  l.maxRows = l.maxBlocks = 0;
  l.target = "\"realistic\"";
  l.bias = Bias::F32;
  l.hasMin = l.hasMax = true;
  l.lo = 0;
  l.hi = 6;
  l.weights.resize(3 * 3 * 64 * 64);
  for (uint16_t &v : l.weights)
    v = randomHalf(rng, 0.125f);
  l.x.resize(56 * 56 * 64);
  for (uint16_t &v : l.x)
    v = randomHalf(rng, 1.0f);
  l.biasF32.resize(64);
  l.biasF16.resize(64);
  npu::Stats stats = runLayer(l);
  std::printf("fp16 conv3x3 56x56x64->64 realistic: %llu cycles, useful-MAC "
              "utilisation %.1f%% of the int8 peak, %.1f%% of the fp16 "
              "peak\n",
              static_cast<unsigned long long>(stats.totalCycles),
              100 * stats.macUtilisation, 200 * stats.macUtilisation);
  EXPECT_GT(stats.macUtilisation, 0.4);
}

} // namespace
} // namespace kiln
