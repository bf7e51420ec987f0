//===- NPUToNPUHWTest.cpp - npu layers compiled and run bit for bit -------===//
//
// For a seeded set of random int8 layers (npu.conv2d, npu.depthwise_conv2d,
// npu.fully_connected: several bands and channel groups, halos, channel
// counts that are not multiples of 16, strides 1-3, kernels 1/3/5, SAME and
// VALID padding, dilation, batches, clamps), the test writes the npu
// function as MLIR text, runs kiln-npu-to-npuhw-pipeline, exports the
// stream as --npuhw-to-npub does, runs it on the simulator with race
// checking, and compares the output bytes with the runtime's independent
// reference (ref::convInt8 / depthwiseInt8 / matmulInt8, then ref::requant)
// bit for bit. The requantisation records of the reference are computed
// here from the scales, not taken from the compiler.
//
// KILN_NPU_LOWERING_CASES=<n> sets the number of layers per op (default 40;
// docs/npu-lowering.md: the full run uses 200).
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
#include <sstream>

namespace kiln {
namespace {

using namespace mlir;
namespace ref = npu::ref;

enum class Kind { Conv, Depthwise, FullyConnected };

/// One random layer and the data it runs on.
struct Layer {
  Kind kind = Kind::Conv;
  int n = 1, h = 1, w = 1, cin = 1, cout = 1, kh = 1, kw = 1;
  ref::Window win;
  bool same = true;
  int inZp = 0, outZp = 0, lo = -128, hi = 127;
  bool clamp = false, hasBias = false;
  double inScale = 1, outScale = 1;
  std::vector<double> wScales;
  std::vector<int8_t> x, weights;
  std::vector<int32_t> bias;
  unsigned maxRows = 0, maxBlocks = 0;
  /// The `#npu.target` parameters.
  std::string target = "\"default\"";

  int oh() const { return kind == Kind::FullyConnected ? 1 : win.outH(h); }
  int ow() const { return kind == Kind::FullyConnected ? w : win.outW(w); }
  std::string describe() const {
    std::ostringstream s;
    s << (kind == Kind::Conv        ? "conv2d"
          : kind == Kind::Depthwise ? "depthwise_conv2d"
                                    : "fully_connected")
      << " " << n << "x" << h << "x" << w << "x" << cin << " -> " << cout
      << " k" << kh << "x" << kw << " s" << win.sy << "x" << win.sx << " d"
      << win.dy << " pad " << win.pt << "," << win.pb << "," << win.pl << ","
      << win.pr << " rows<=" << maxRows << " blocks<=" << maxBlocks << " "
      << target;
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

/// A random layer; \p smallChannels: a convolution of 1-4 input channels
/// with kernels 2-5 wide over wider images, the layers whose input the
/// lowering packs (docs/npu-lowering.md, "Small input channels").
Layer randomLayer(Kind kind, std::mt19937 &rng, bool smallChannels = false) {
  auto uni = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
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
    l.same = uni(0, 1);
    l.n = uni(0, 4) ? 1 : 2;
    l.h = uni(1, 20);
    l.w = uni(1, 20);
    // VALID needs the dilated window inside the image.
    l.h = std::max(l.h, l.win.dy * (l.kh - 1) + 1);
    l.w = std::max(l.w, l.win.dx * (l.kw - 1) + 1);
    l.cin = uni(1, 48);
    l.cout = kind == Kind::Depthwise ? l.cin : uni(1, 48);
    if (smallChannels) {
      const int kws[] = {2, 3, 3, 5};
      l.kw = l.win.kw = kws[uni(0, 3)];
      l.win.dx = uni(0, 5) ? 1 : 2;
      l.w = std::max(uni(8, 48), l.win.dx * (l.kw - 1) + 1);
      l.cin = uni(1, 4);
    }
    std::tie(l.win.pt, l.win.pb) =
        padFor(l.same, l.h, l.kh, l.win.sy, l.win.dy);
    std::tie(l.win.pl, l.win.pr) =
        padFor(l.same, l.w, l.kw, l.win.sx, l.win.dx);
    // The lowering rejects batches whose images end unaligned in DRAM.
    if ((l.oh() * l.ow() * l.cout) % 16)
      l.n = 1;
  }
  l.inZp = uni(-40, 40);
  l.outZp = uni(-40, 40);
  l.clamp = uni(0, 2) == 0;
  if (l.clamp) {
    l.lo = uni(-128, 0);
    l.hi = uni(0, 127);
  }
  l.hasBias = uni(0, 3) != 0;
  l.maxRows = uni(0, 2) ? uni(1, 4) : 0;
  l.maxBlocks = uni(0, 2) ? uni(1, 2) : 0;
  // A quarter on the realistic target, a quarter with 40 KiB of WGT, where
  // the weights of larger layers are streamed per group.
  if (int t = uni(0, 3); t == 0)
    l.target = "\"realistic\"";
  else if (t == 1)
    l.target = "\"default\", {\"lmem.wgt_kib\" = 40 : i64}";
  // Dyadic scales print and parse exactly; the output scale keeps typical
  // results inside int8.
  l.inScale = std::ldexp(1.0, -uni(3, 6));
  for (int c = 0; c < l.cout; ++c)
    l.wScales.push_back(uni(8, 64) / 4096.0);
  int terms = l.kh * l.kw * (kind == Kind::Depthwise ? 1 : l.cin);
  double wanted = l.inScale * (32 / 4096.0) * std::sqrt(terms) / 0.009;
  l.outScale = std::ldexp(1.0, static_cast<int>(std::lround(std::log2(wanted))));
  int wsize = l.kh * l.kw * l.cin * (kind == Kind::Depthwise ? 1 : l.cout);
  for (int i = 0; i < wsize; ++i)
    l.weights.push_back(static_cast<int8_t>(uni(-128, 127)));
  for (int i = 0; i < l.n * l.h * l.w * l.cin; ++i)
    l.x.push_back(static_cast<int8_t>(uni(-128, 127)));
  l.bias.assign(l.cout, 0);
  if (l.hasBias)
    for (int32_t &b : l.bias)
      b = uni(-3000, 3000);
  return l;
}

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17e", v);
  return buf;
}

std::string hex(const std::vector<int8_t> &bytes) {
  static const char *digits = "0123456789ABCDEF";
  std::string s = "0x";
  for (int8_t b : bytes) {
    s += digits[(uint8_t(b) >> 4) & 15];
    s += digits[uint8_t(b) & 15];
  }
  return s;
}

/// The npu function of \p l as MLIR text.
std::string layerModule(const Layer &l) {
  auto qi8 = [](double scale, int zp) {
    return "!quant.uniform<i8:f32, " + num(scale) + ":" + std::to_string(zp) +
           ">";
  };
  std::string wshape, inShape, outShape;
  int axis;
  if (l.kind == Kind::FullyConnected) {
    inShape = std::to_string(l.w) + "x" + std::to_string(l.cin);
    outShape = std::to_string(l.w) + "x" + std::to_string(l.cout);
    wshape = std::to_string(l.cin) + "x" + std::to_string(l.cout);
    axis = 1;
  } else {
    inShape = std::to_string(l.n) + "x" + std::to_string(l.h) + "x" +
              std::to_string(l.w) + "x" + std::to_string(l.cin);
    outShape = std::to_string(l.n) + "x" + std::to_string(l.oh()) + "x" +
               std::to_string(l.ow()) + "x" + std::to_string(l.cout);
    wshape = std::to_string(l.kh) + "x" + std::to_string(l.kw) + "x" +
             std::to_string(l.cin);
    if (l.kind == Kind::Conv)
      wshape += "x" + std::to_string(l.cout);
    axis = l.kind == Kind::Conv ? 3 : 2;
  }
  std::string scales;
  for (double s : l.wScales)
    scales += (scales.empty() ? "" : ",") + num(s);
  std::string inT = "tensor<" + inShape + "x" + qi8(l.inScale, l.inZp) + ">";
  std::string outT =
      "tensor<" + outShape + "x" + qi8(l.outScale, l.outZp) + ">";
  std::string wRaw = "tensor<" + wshape + "xi8>";
  std::string wT = "tensor<" + wshape + "x!quant.uniform<i8:f32:" +
                   std::to_string(axis) + ", {" + scales + "}>>";
  std::string biasT = "tensor<" + std::to_string(l.cout) + "xi32>";
  std::ostringstream s;
  s << "module attributes {npu.target = #npu.target<" << l.target
    << ">} {\n  func.func @layer(%x: " << inT << ") -> " << outT << " {\n"
    << "    %wi = arith.constant dense<\"" << hex(l.weights) << "\"> : "
    << wRaw << "\n    %w = quant.scast %wi : " << wRaw << " to " << wT
    << "\n";
  if (l.hasBias) {
    s << "    %b = arith.constant dense<[";
    for (int c = 0; c < l.cout; ++c)
      s << (c ? ", " : "") << l.bias[c];
    s << "]> : " << biasT << "\n";
  }
  std::string attrs;
  if (l.kind != Kind::FullyConnected) {
    const ref::Window &w = l.win;
    attrs = "stride = array<i64: " + std::to_string(w.sy) + ", " +
            std::to_string(w.sx) + ">, dilation = array<i64: " +
            std::to_string(w.dy) + ", " + std::to_string(w.dx) +
            ">, pad = array<i64: " + std::to_string(w.pt) + ", " +
            std::to_string(w.pb) + ", " + std::to_string(w.pl) + ", " +
            std::to_string(w.pr) + ">";
  }
  if (l.clamp)
    attrs += std::string(attrs.empty() ? "" : ", ") +
             "clamp_min = " + std::to_string(l.lo) +
             " : i64, clamp_max = " + std::to_string(l.hi) + " : i64";
  const char *op = l.kind == Kind::Conv        ? "npu.conv2d"
                   : l.kind == Kind::Depthwise ? "npu.depthwise_conv2d"
                                               : "npu.fully_connected";
  s << "    %y = " << op << " %x, %w" << (l.hasBias ? ", %b" : "") << " {"
    << attrs << "} : (" << inT << ", " << wT
    << (l.hasBias ? ", " + biasT : "") << ") -> " << outT << "\n"
    << "    return %y : " << outT << "\n  }\n}\n";
  return s.str();
}

/// The expected output bytes: the reference convolution, then requant with
/// records computed here (TFLite's QuantizeMultiplier, shift 31 - exponent).
std::vector<int8_t> expected(const Layer &l) {
  std::vector<int32_t> mult, shift;
  for (double ws : l.wScales) {
    int exponent = 0;
    double mantissa = std::frexp(l.inScale * ws / l.outScale, &exponent);
    int64_t fixed = std::llround(mantissa * 2147483648.0);
    if (fixed == (int64_t(1) << 31)) {
      fixed /= 2;
      ++exponent;
    }
    mult.push_back(static_cast<int32_t>(fixed));
    shift.push_back(31 - exponent);
  }
  std::vector<int8_t> out;
  for (int img = 0; img < l.n; ++img) {
    size_t size = size_t(l.h) * l.w * l.cin;
    std::vector<int8_t> x(l.x.begin() + img * size,
                          l.x.begin() + (img + 1) * size);
    std::vector<int32_t> acc =
        l.kind == Kind::Conv
            ? ref::convInt8(x, l.h, l.w, l.cin, l.weights, l.cout, l.win,
                            l.inZp)
        : l.kind == Kind::Depthwise
            ? ref::depthwiseInt8(x, l.h, l.w, l.cin, l.weights, l.win, l.inZp)
            : ref::matmulInt8(x, l.weights, l.w, l.cin, l.cout, l.inZp);
    std::vector<int8_t> y = ref::requant(acc, l.cout, l.bias, mult, shift,
                                         true, l.outZp, l.lo, l.hi);
    out.insert(out.end(), y.begin(), y.end());
  }
  return out;
}

class NPUToNPUHWTest : public kiln::testing::NPULoweringTest {
protected:
  /// Compiles \p l with its band and group bounds; fills \p program or
  /// returns the diagnostics.
  std::string compile(const Layer &l, npu::Program &program) {
    NPUToNPUHWPipelineOptions options;
    options.maxRowsPerBand = l.maxRows;
    options.maxBlocksPerGroup = l.maxBlocks;
    return NPULoweringTest::compile(layerModule(l), program, options);
  }

  /// Compiles and runs \p l; returns the simulator's statistics.
  npu::Stats runLayer(const Layer &l) {
    SCOPED_TRACE(l.describe());
    npu::Program program;
    std::string error = compile(l, program);
    EXPECT_EQ(error, "");
    if (!error.empty())
      return {};
    for (const npu::Command &c : program.commands)
      if (c.opcode == npu::Opcode::MAC_CONV && c.kw == 1 && l.kw > 1) {
        ++packed;
        break;
      }
    // A weight load from r0 that pads its runs: a compact partial block.
    for (const npu::Command &c : program.commands)
      if (c.opcode == npu::Opcode::DMA_LOAD && c.region == 0 &&
          !(c.flags & npu::flags::kLmemSource) && c.srcRun < c.dstRun) {
        ++compact;
        break;
      }
    absl::StatusOr<npu::Simulator> sim =
        npu::Simulator::create(std::move(program));
    EXPECT_TRUE(sim.ok()) << sim.status();
    if (!sim.ok())
      return {};
    std::vector<uint8_t> input(l.x.size());
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
    std::vector<int8_t> want = expected(l);
    std::vector<int8_t> got(y->begin(), y->end());
    EXPECT_EQ(got.size(), want.size());
    size_t mismatches = 0, first = 0;
    for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
      if (got[i] != want[i] && !mismatches++)
        first = i;
    EXPECT_EQ(mismatches, 0u) << "first at byte " << first << ": got "
                              << int(got[first]) << ", want "
                              << int(want[first]);
    return result->stats;
  }

  void runRandom(Kind kind, uint32_t seed, bool smallChannels = false) {
    int cases = kiln::testing::loweringCases(40);
    std::mt19937 rng(seed);
    for (int i = 0; i < cases && !HasFailure(); ++i) {
      SCOPED_TRACE("case " + std::to_string(i));
      runLayer(randomLayer(kind, rng, smallChannels));
    }
  }

  /// Layers whose MAC_CONV is 1 wide though the layer's kernel is not: the
  /// input was packed.
  int packed = 0;
  /// Layers whose partial last output block's weights were stored compact.
  int compact = 0;

};

TEST_F(NPUToNPUHWTest, RandomConvolutionsMatchReference) {
  runRandom(Kind::Conv, 1);
  // Some layers keep a partial last block compact (docs/npu-lowering.md,
  // "Partial output blocks"), bit exact.
  EXPECT_GT(compact, 0);
}

TEST_F(NPUToNPUHWTest, RandomDepthwiseConvolutionsMatchReference) {
  runRandom(Kind::Depthwise, 2);
}

TEST_F(NPUToNPUHWTest, RandomFullyConnectedMatchReference) {
  runRandom(Kind::FullyConnected, 3);
}

// Convolutions of 1-4 input channels, kernels 2-5 wide, strides 1-3, SAME
// and VALID, some dilated: those the lowering packs (no left padding or
// horizontal dilation, when its estimate is lower) and those it does not
// stay bit exact, with the race checker on.
TEST_F(NPUToNPUHWTest, RandomSmallChannelConvolutionsMatchReference) {
  runRandom(Kind::Conv, 4, /*smallChannels=*/true);
  EXPECT_GT(packed, 0);
}

// Weights that do not fit WGT (4 blocks of 3x3x48 weights, 27 KiB, in
// 16 KiB) are loaded per output block into two alternating buffers, again
// for each of the 4 bands of 2 rows.
TEST_F(NPUToNPUHWTest, StreamedWeights) {
  std::mt19937 rng(7);
  Layer l = randomLayer(Kind::Conv, rng);
  l.n = 1;
  l.h = l.w = 8;
  l.cin = 48;
  l.cout = 64;
  l.kh = l.kw = 3;
  l.win = ref::Window{3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  l.maxRows = 2;
  l.maxBlocks = 0;
  l.target = "\"default\", {\"lmem.wgt_kib\" = 16 : i64}";
  l.wScales.assign(64, 16 / 4096.0);
  l.outScale = std::ldexp(l.inScale * 16 / 4096.0, 7);
  l.weights.resize(3 * 3 * 48 * 64);
  for (int8_t &v : l.weights)
    v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  l.x.resize(8 * 8 * 48);
  for (int8_t &v : l.x)
    v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  l.bias.assign(64, 0);
  npu::Program program;
  ASSERT_EQ(compile(l, program), "");
  int weightLoads = 0;
  for (const npu::Command &c : program.commands)
    weightLoads += c.opcode == npu::Opcode::DMA_LOAD && c.region == 0 &&
                   !(c.flags & npu::flags::kLmemSource);
  // The records, then one load per band and block.
  EXPECT_EQ(weightLoads, 1 + 4 * 4);
  runLayer(l);
}

// Bands after the first take the halo rows the band before them loaded
// from its input buffer (an LMEM-to-LMEM DMA_LOAD) and read only their new
// rows from DRAM: each input row crosses the DRAM port once
// (docs/npu-lowering.md, "Halo rows"). 3x3 depthwise and dense layers,
// strides 1 and 2, SAME and VALID, bands of 1-3 rows, bit exact with the
// race checker on.
TEST_F(NPUToNPUHWTest, HaloRowsLoadedOnce) {
  std::mt19937 rng(23);
  for (int i = 0; i < 8 && !HasFailure(); ++i) {
    Layer l = randomLayer(i % 2 ? Kind::Conv : Kind::Depthwise, rng);
    l.n = 1 + i / 6;
    l.h = 9 + i;
    l.w = 8;
    l.cin = 16 + 8 * (i % 3);
    l.cout = l.kind == Kind::Depthwise ? l.cin : 32;
    l.kh = l.kw = 3;
    const int s = 1 + i / 2 % 2;
    l.same = i % 4 != 3;
    auto [pt, pb] = padFor(l.same, l.h, 3, s, 1);
    auto [pl, pr] = padFor(l.same, l.w, 3, s, 1);
    l.win = ref::Window{3, 3, s, s, 1, 1, pt, pb, pl, pr};
    l.maxRows = 1 + i % 3;
    l.maxBlocks = 0;
    l.target = "\"realistic\"";
    l.wScales.assign(l.cout, 16 / 4096.0);
    l.outScale = std::ldexp(l.inScale * 16 / 4096.0, 7);
    l.weights.resize(size_t(9) * (l.kind == Kind::Conv ? l.cin : 1) * l.cout);
    for (int8_t &v : l.weights)
      v = static_cast<int8_t>(
          std::uniform_int_distribution<int>(-128, 127)(rng));
    l.x.resize(size_t(l.n) * l.h * l.w * l.cin);
    for (int8_t &v : l.x)
      v = static_cast<int8_t>(
          std::uniform_int_distribution<int>(-128, 127)(rng));
    l.bias.assign(l.cout, 0);
    SCOPED_TRACE(l.describe());
    npu::Program program;
    ASSERT_EQ(compile(l, program), "");
    uint64_t inputBytes = 0;
    int haloCopies = 0;
    for (const npu::Command &c : program.commands) {
      if (c.opcode != npu::Opcode::DMA_LOAD)
        continue;
      if (c.flags & npu::flags::kLmemSource)
        ++haloCopies;
      else if (c.region == 2)
        inputBytes += uint64_t(c.n[0]) * std::max<uint16_t>(c.n[1], 1) *
                      std::max<uint16_t>(c.n[2], 1) * c.srcRun;
    }
    // The rows the windows reach, once per image.
    const int last = std::min(l.h - 1, (l.oh() - 1) * s - pt + 2);
    EXPECT_EQ(inputBytes,
              uint64_t(l.n) * (last - std::max(0, -pt) + 1) * l.w * l.cin);
    EXPECT_GT(haloCopies, 0);
    runLayer(l);
  }
}

// The layer of docs/performance-npu.md: 3x3 SAME, 56x56x64 -> 64, realistic
// configuration. Bit exact, and its useful-MAC utilisation is printed (and
// recorded in docs/npu-lowering.md).
TEST_F(NPUToNPUHWTest, Conv56x56x64Utilisation) {
  std::mt19937 rng(56);
  Layer l = randomLayer(Kind::Conv, rng);
  l.n = 1;
  l.h = l.w = 56;
  l.cin = l.cout = 64;
  l.kh = l.kw = l.win.kh = l.win.kw = 3;
  l.win = ref::Window{3, 3, 1, 1, 1, 1, 1, 1, 1, 1};
  l.maxRows = l.maxBlocks = 0;
  l.target = "\"realistic\"";
  l.wScales.assign(64, 16 / 4096.0);
  l.weights.resize(3 * 3 * 64 * 64);
  for (int8_t &v : l.weights)
    v = static_cast<int8_t>(std::uniform_int_distribution<int>(1, 127)(rng));
  l.x.resize(56 * 56 * 64);
  for (int8_t &v : l.x)
    v = static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  l.bias.assign(64, 0);
  npu::Stats stats = runLayer(l);
  std::printf("conv3x3 56x56x64->64 realistic: %llu cycles, useful-MAC "
              "utilisation %.1f%%\n",
              static_cast<unsigned long long>(stats.totalCycles),
              100 * stats.macUtilisation);
  EXPECT_GT(stats.macUtilisation, 0.8);
}

} // namespace
} // namespace kiln
