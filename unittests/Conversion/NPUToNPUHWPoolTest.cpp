//===- NPUToNPUHWPoolTest.cpp - npu pooling compiled and run bit for bit --===//
//
// For seeded random npu.max_pool2d, npu.avg_pool2d and npu.sum_pool2d
// layers in int8 and fp16 (kernels 1-5, also non-square; strides 1-4, so
// kernels larger and smaller than the stride; VALID, SAME and random
// explicit padding, also beyond the kernel; 1-70 channels; batches of 2;
// int8 clamps; small LMEM.ACT and band/group bounds so that layers take
// several bands and channel groups), the test writes the npu function as MLIR text, runs
// kiln-npu-to-npuhw-pipeline, exports the stream as --npuhw-to-npub does,
// runs it on the simulator with race checking and compares the output bytes
// with the runtime's independent reference (ref::poolInt8 / ref::poolF16)
// bit for bit.
//
// KILN_NPU_LOWERING_CASES=<n> sets the number of layers per op and element
// type (default 30; docs/npu-lowering.md: the full run uses 200).
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/PoolLowering.h"
#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "dialects/NPUHW/Transforms/Passes.h"
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

#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>

namespace kiln {
namespace {

using namespace mlir;
namespace ref = npu::ref;
using ref::Pool;

/// One random pooling layer and the data it runs on.
struct PoolCase {
  Pool op = Pool::Max;
  bool fp16 = false;
  int n = 1, h = 1, w = 1, c = 1;
  ref::Window win;
  bool clamp = false;
  int lo = -128, hi = 127, zp = 0;
  /// The input bytes: int8 values, or fp16 bits little-endian.
  std::vector<uint8_t> x;
  unsigned maxRows = 0, maxBlocks = 0;
  /// The `#npu.target` parameters.
  std::string target = "\"default\"";

  int oh() const { return win.outH(h); }
  int ow() const { return win.outW(w); }
  std::string describe() const {
    std::ostringstream s;
    s << (op == Pool::Max ? "max" : op == Pool::Avg ? "avg" : "sum") << " "
      << (fp16 ? "f16 " : "i8 ") << n << "x" << h << "x" << w << "x" << c
      << " k" << win.kh << "x" << win.kw << " s" << win.sy << "x" << win.sx
      << " pad " << win.pt << "," << win.pb << "," << win.pl << "," << win.pr
      << " clamp " << lo << ".." << hi << " rows<=" << maxRows
      << " blocks<=" << maxBlocks << " " << target;
    return s.str();
  }
};

/// TF's SAME padding of one dimension (before, after) or VALID's (0, 0).
std::pair<int, int> padFor(bool same, int in, int k, int s) {
  if (!same)
    return {0, 0};
  int out = (in + s - 1) / s;
  int total = std::max((out - 1) * s + k - in, 0);
  return {total / 2, total - total / 2};
}

/// Random fp16 bits: both signs, magnitudes from 2^-10 to 2^6 with random
/// mantissas (so sums and averages round), some zeros of either sign, some
/// large values and repeated values.
uint16_t randomHalf(std::mt19937 &rng) {
  auto uni = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  uint16_t sign = uni(0, 1) ? 0x8000 : 0;
  switch (uni(0, 15)) {
  case 0:
    return sign; // +-0
  case 1:
    return sign | (uni(25, 29) << 10) | uni(0, 1023); // up to 65504
  case 2:
    return sign | 0x3c00; // +-1
  default:
    return sign | (uni(5, 21) << 10) | uni(0, 1023);
  }
}

PoolCase randomPool(Pool op, bool fp16, std::mt19937 &rng) {
  auto uni = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  PoolCase l;
  l.op = op;
  l.fp16 = fp16;
  l.win.kh = uni(1, 5);
  l.win.kw = uni(0, 3) ? l.win.kh : uni(1, 5);
  l.win.sy = uni(1, 4);
  l.win.sx = uni(0, 2) ? l.win.sy : uni(1, 4);
  l.n = uni(0, 4) ? 1 : 2;
  l.h = std::max(uni(1, 24), l.win.kh);
  l.w = std::max(uni(1, 24), l.win.kw);
  l.c = uni(0, 3) ? uni(1, 70) : 16 * uni(1, 4);
  // VALID, SAME, explicit padding below the kernel (every window then
  // holds an image position) or up to two beyond it (windows, and with
  // short bands whole bands, that lie in the padding).
  switch (uni(0, 5)) {
  case 0:
    break;
  case 1:
    std::tie(l.win.pt, l.win.pb) = padFor(true, l.h, l.win.kh, l.win.sy);
    std::tie(l.win.pl, l.win.pr) = padFor(true, l.w, l.win.kw, l.win.sx);
    break;
  case 5:
    l.win.pt = uni(0, l.win.kh + 2);
    l.win.pb = uni(0, l.win.kh + 2);
    l.win.pl = uni(0, l.win.kw + 2);
    l.win.pr = uni(0, l.win.kw + 2);
    break;
  default:
    l.win.pt = uni(0, l.win.kh - 1);
    l.win.pb = uni(0, l.win.kh - 1);
    l.win.pl = uni(0, l.win.kw - 1);
    l.win.pr = uni(0, l.win.kw - 1);
    break;
  }
  l.zp = uni(-20, 20);
  l.clamp = !fp16 && op != Pool::Sum && uni(0, 2) == 0;
  if (l.clamp) {
    l.lo = uni(-128, 0);
    l.hi = uni(0, 127);
  }
  l.maxRows = uni(0, 2) ? uni(1, 4) : 0;
  l.maxBlocks = uni(0, 2) ? uni(1, 3) : 0;
  // A third on a small LMEM.ACT (several bands and groups without bounds),
  // some on the realistic target.
  // 4 KiB only when the smallest double-buffered tile (two buffers of one
  // output row and its input rows, one channel block) fits it.
  int esize = fp16 ? 2 : 1, outSize = op == Pool::Sum ? 4 : esize;
  int smallest = 2 * (std::min(l.h, l.win.kh) * l.w * 16 * esize +
                      l.ow() * 16 * outSize);
  if (int t = uni(0, 5); t <= 1)
    l.target = "\"default\", {\"lmem.act_kib\" = " +
               std::to_string(uni(0, 1) && smallest <= 4096 ? 4 : 16) +
               " : i64}";
  else if (t == 2)
    l.target = "\"realistic\"";
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

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17e", v);
  return buf;
}

/// The npu function of \p l as MLIR text.
std::string poolModule(const PoolCase &l) {
  std::string elem = l.fp16 ? "f16"
                            : "!quant.uniform<i8:f32, " + num(0.25) + ":" +
                                  std::to_string(l.zp) + ">";
  std::string outElem =
      l.op != Pool::Sum ? elem : l.fp16 ? "f32" : "i32";
  auto shape = [&](int h, int w) {
    return std::to_string(l.n) + "x" + std::to_string(h) + "x" +
           std::to_string(w) + "x" + std::to_string(l.c);
  };
  std::string inT = "tensor<" + shape(l.h, l.w) + "x" + elem + ">";
  std::string outT = "tensor<" + shape(l.oh(), l.ow()) + "x" + outElem + ">";
  const ref::Window &w = l.win;
  std::ostringstream s;
  s << "module attributes {npu.target = #npu.target<" << l.target
    << ">} {\n  func.func @pool(%x: " << inT << ") -> " << outT << " {\n"
    << "    %y = npu."
    << (l.op == Pool::Max   ? "max_pool2d"
        : l.op == Pool::Avg ? "avg_pool2d"
                            : "sum_pool2d")
    << " %x {kernel = array<i64: " << w.kh << ", " << w.kw
    << ">, stride = array<i64: " << w.sy << ", " << w.sx
    << ">, pad = array<i64: " << w.pt << ", " << w.pb << ", " << w.pl << ", "
    << w.pr << ">";
  if (l.clamp)
    s << ", clamp_min = " << l.lo << " : i64, clamp_max = " << l.hi
      << " : i64";
  s << "} : (" << inT << ") -> " << outT << "\n    return %y : " << outT
    << "\n  }\n}\n";
  return s.str();
}

/// The expected output bytes, image by image, from the reference.
std::vector<uint8_t> expected(const PoolCase &l) {
  std::vector<uint8_t> out;
  const size_t esize = l.fp16 ? 2 : 1;
  const size_t image = size_t(l.h) * l.w * l.c * esize;
  for (int img = 0; img < l.n; ++img) {
    const uint8_t *x = l.x.data() + img * image;
    if (!l.fp16) {
      std::vector<int8_t> in(image);
      std::memcpy(in.data(), x, image);
      std::vector<int32_t> y =
          ref::poolInt8(in, l.h, l.w, l.c, l.win, l.op, l.lo, l.hi);
      for (int32_t v : y) {
        if (l.op != Pool::Sum) {
          out.push_back(static_cast<uint8_t>(v));
          continue;
        }
        for (int i = 0; i < 4; ++i)
          out.push_back(static_cast<uint8_t>(uint32_t(v) >> (8 * i)));
      }
      continue;
    }
    std::vector<uint16_t> in(image / 2);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = uint16_t(x[2 * i] | (x[2 * i + 1] << 8));
    for (float v : ref::poolF16(in, l.h, l.w, l.c, l.win, l.op)) {
      if (l.op != Pool::Sum) {
        uint16_t bits = ref::floatToHalf(v);
        out.push_back(bits & 0xff);
        out.push_back(bits >> 8);
        continue;
      }
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<uint8_t>(bits >> (8 * i)));
    }
  }
  return out;
}

class NPUToNPUHWPoolTest : public kiln::testing::NPULoweringTest {
protected:
  /// Compiles \p l with its band and group bounds; fills \p program or
  /// returns the diagnostics.
  std::string compile(const PoolCase &l, npu::Program &program) {
    NPUToNPUHWPipelineOptions options;
    options.maxRowsPerBand = l.maxRows;
    options.maxBlocksPerGroup = l.maxBlocks;
    return NPULoweringTest::compile(poolModule(l), program, options);
  }

  /// Compiles and runs \p l, compares with the reference; returns the
  /// simulator's statistics.
  npu::Stats runPool(const PoolCase &l) {
    SCOPED_TRACE(l.describe());
    npu::Program program;
    std::string error = compile(l, program);
    EXPECT_EQ(error, "");
    if (!error.empty())
      return {};
    return runProgram(l, std::move(program), "arg0", "result0");
  }

  /// Runs \p program on \p l's input (IO \p in) with race checking and
  /// compares IO \p out with the reference; returns the statistics.
  npu::Stats runProgram(const PoolCase &l, npu::Program program,
                        const char *inName, const char *outName) {
    absl::StatusOr<npu::Simulator> sim =
        npu::Simulator::create(std::move(program));
    EXPECT_TRUE(sim.ok()) << sim.status();
    if (!sim.ok())
      return {};
    absl::Status set = sim->setInput(inName, l.x);
    EXPECT_TRUE(set.ok()) << set;
    npu::RunOptions run;
    run.raceCheck = true;
    absl::StatusOr<npu::RunResult> result = sim->run(run);
    EXPECT_TRUE(result.ok()) << result.status();
    if (!result.ok())
      return {};
    EXPECT_TRUE(result->races.empty())
        << result->races.size() << " unsynchronised access pairs";
    absl::StatusOr<std::vector<uint8_t>> y = sim->getOutput(outName);
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

  void runRandom(Pool op, bool fp16, uint32_t seed) {
    int cases = kiln::testing::loweringCases(30);
    std::mt19937 rng(seed);
    for (int i = 0; i < cases && !HasFailure(); ++i) {
      SCOPED_TRACE("case " + std::to_string(i));
      runPool(randomPool(op, fp16, rng));
    }
  }

};

TEST_F(NPUToNPUHWPoolTest, RandomMaxInt8MatchesReference) {
  runRandom(Pool::Max, false, 11);
}
TEST_F(NPUToNPUHWPoolTest, RandomAvgInt8MatchesReference) {
  runRandom(Pool::Avg, false, 12);
}
TEST_F(NPUToNPUHWPoolTest, RandomSumInt8MatchesReference) {
  runRandom(Pool::Sum, false, 13);
}
TEST_F(NPUToNPUHWPoolTest, RandomMaxF16MatchesReference) {
  runRandom(Pool::Max, true, 14);
}
TEST_F(NPUToNPUHWPoolTest, RandomAvgF16MatchesReference) {
  runRandom(Pool::Avg, true, 15);
}
TEST_F(NPUToNPUHWPoolTest, RandomSumF16MatchesReference) {
  runRandom(Pool::Sum, true, 16);
}

// Windows whose smallest double-buffered tile does not fit ACT (4 KiB) but
// whose single buffers do: global pools (one output row whose input is the
// whole map) and a 3x3 pool of 64-pixel rows in 8 bands, in int8 and fp16,
// over one and two images and one and several channel groups. They lower
// with one input and one output buffer and run bit exact and race free.
TEST_F(NPUToNPUHWPoolTest, SingleBuffersWhenDoubleBuffersDoNotFit) {
  std::mt19937 rng(21);
  auto make = [&](Pool op, bool fp16, int n, int h, int w, int c, int k,
                  int pad) {
    PoolCase l;
    l.op = op;
    l.fp16 = fp16;
    l.n = n;
    l.h = h;
    l.w = w;
    l.c = c;
    l.win.kh = l.win.kw = k;
    l.win.pt = l.win.pb = l.win.pl = l.win.pr = pad;
    l.target = "\"default\", {\"lmem.act_kib\" = 4 : i64}";
    for (size_t i = 0, e = size_t(n) * h * w * c; i < e; ++i) {
      if (fp16) {
        uint16_t v = randomHalf(rng);
        l.x.push_back(v & 0xff);
        l.x.push_back(v >> 8);
      } else {
        l.x.push_back(static_cast<uint8_t>(rng() & 0xff));
      }
    }
    return l;
  };
  for (const PoolCase &l :
       {make(Pool::Avg, false, 1, 12, 12, 40, 12, 0),
        make(Pool::Avg, true, 2, 8, 8, 20, 8, 0),
        make(Pool::Max, true, 1, 8, 8, 16, 8, 0),
        make(Pool::Sum, false, 2, 12, 12, 16, 12, 0),
        make(Pool::Avg, false, 1, 8, 64, 16, 3, 1)}) {
    SCOPED_TRACE(l.describe());
    npu::Program program;
    ASSERT_EQ(compile(l, program), "");
    runProgram(l, std::move(program), "arg0", "result0");
  }
}

// The emitter addresses its input and output at the DRAM (region, offset)
// it is given, not at offset 0: a stream whose IO tensors sit at byte 40 of
// r2 and byte 24 of r3 (unaligned, as intermediates in a scratch region may
// be), with several bands and channel groups, runs bit exact and race free.
TEST_F(NPUToNPUHWPoolTest, EmitterUsesGivenDramOffsets) {
  std::mt19937 rng(21);
  PoolCase l = randomPool(Pool::Avg, true, rng);
  l.n = 2;
  l.h = 9;
  l.w = 7;
  l.c = 20;
  l.win = ref::Window{3, 3, 2, 1, 1, 1, 1, 1, 1, 0};
  l.x.clear();
  for (int i = 0; i < l.n * l.h * l.w * l.c; ++i) {
    uint16_t v = randomHalf(rng);
    l.x.push_back(v & 0xff);
    l.x.push_back(v >> 8);
  }
  npu_to_npuhw::PoolLayer layer;
  layer.kind = npu_to_npuhw::PoolKind::Avg;
  layer.fp16 = true;
  layer.n = l.n;
  layer.h = l.h;
  layer.w = l.w;
  layer.c = l.c;
  layer.oh = l.oh();
  layer.ow = l.ow();
  layer.kh = layer.kw = 3;
  layer.sy = 2;
  layer.pt = layer.pb = layer.pl = 1;
  const int64_t inOffset = 40, outOffset = 24;
  const int64_t inBytes = int64_t(l.x.size());
  const int64_t outBytes = int64_t(l.n) * l.oh() * l.ow() * l.c * 2;
  std::ostringstream text;
  text << "module attributes {npu.target = #npu.target<\"default\">} {\n"
       << "  npuhw.stream @placed {\n"
       << "    npuhw.region 2 input size " << inOffset + inBytes + 8 << "\n"
       << "    npuhw.region 3 output size " << outOffset + outBytes + 8
       << "\n    npuhw.io input \"x\" region 2 offset " << inOffset
       << " f16 [" << l.n << ", " << l.h << ", " << l.w << ", " << l.c
       << "] nhwc scale 1.0 zp 0\n"
       << "    npuhw.io output \"y\" region 3 offset " << outOffset
       << " f16 [" << l.n << ", " << l.oh() << ", " << l.ow() << ", " << l.c
       << "] nhwc scale 1.0 zp 0\n    npuhw.end\n  }\n}\n";
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text.str(), &ctx);
  ASSERT_TRUE(module);
  npuhw::StreamOp stream = *module->getOps<npuhw::StreamOp>().begin();
  Operation *end = stream.getBody().front().getTerminator();
  OpBuilder b(end);
  npu_to_npuhw::PoolPlacement place;
  place.inputOffset = inOffset;
  place.outputOffset = outOffset;
  SmallVector<Value> stores = npu_to_npuhw::emitPoolCommands(
      b, end->getLoc(), layer, {/*rowsPerBand=*/2, /*blocksPerGroup=*/1},
      place);
  end->setOperands(stores);
  PassManager pm(&ctx);
  OpPassManager &nested = pm.nest<npuhw::StreamOp>();
  nested.addPass(npuhw::createNPUHWAllocateLmemPass());
  nested.addPass(npuhw::createNPUHWAssignSemaphoresPass());
  nested.addPass(npuhw::createNPUHWVerifyStreamPass());
  ASSERT_TRUE(succeeded(pm.run(*module)));
  FailureOr<npu::Program> program = npuhw::exportStream(stream);
  ASSERT_TRUE(succeeded(program));
  runProgram(l, std::move(*program), "x", "y");
}

// Two buffers per stage let DMA overlap VEC: on the realistic target a
// 3x3 stride-2 max pool of 56x56x64 (two bands) takes fewer cycles than its
// DMA_IN, VEC and DMA_OUT engines are busy in all, and stays within 5% of
// the cycles the shared DRAM port is busy (pooling is DRAM bound); bit
// exact.
TEST_F(NPUToNPUHWPoolTest, DmaOverlapsVec) {
  std::mt19937 rng(56);
  PoolCase l = randomPool(Pool::Max, false, rng);
  l.n = 1;
  l.h = l.w = 56;
  l.c = 64;
  l.win = ref::Window{3, 3, 2, 2, 1, 1, 0, 1, 0, 1};
  l.clamp = false;
  l.lo = -128;
  l.hi = 127;
  l.maxRows = l.maxBlocks = 0;
  l.target = "\"realistic\"";
  l.x.resize(56 * 56 * 64);
  for (uint8_t &v : l.x)
    v = static_cast<uint8_t>(std::uniform_int_distribution<int>(0, 255)(rng));
  npu::Stats stats = runPool(l);
  uint64_t busy = 0;
  for (npu::Engine e : {npu::Engine::DMA_IN, npu::Engine::VEC,
                        npu::Engine::DMA_OUT})
    busy += stats.engines[static_cast<int>(e)].busy;
  std::printf("maxpool3x3/2 56x56x64 realistic: %llu cycles, engines busy "
              "%llu cycles in all, DRAM port busy %llu\n",
              static_cast<unsigned long long>(stats.totalCycles),
              static_cast<unsigned long long>(busy),
              static_cast<unsigned long long>(stats.dramPortBusy));
  EXPECT_GT(stats.engines[static_cast<int>(npu::Engine::VEC)].commands, 1u);
  EXPECT_LT(stats.totalCycles, busy);
  EXPECT_LT(stats.totalCycles, stats.dramPortBusy * 105 / 100);
}

} // namespace
} // namespace kiln
