//===- CycleModelTest.cpp - Useful MACs, ports, tiled convs -----*- C++ -*-===//
//
// The honest cycle model: utilisation counts useful MACs (neither padded
// channels nor a diagonal-weight depthwise raise it), the LMEM port rule
// charges oversubscription, and the tiled convolution streams are exact and
// meet (double-buffered) or miss (fenced) the targets in the realistic
// configuration.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Packing.h"
#include "runtime/npu/Reference.h"
#include "runtime/npu/TiledConv.h"
#include "unittests/runtime/npu/TestUtil.h"

namespace kiln::npu::test {
namespace {

/// A stream that loads an [h][w][cin] int8 input (channels padded to whole
/// blocks with \p inZp), loads packed weights, fences, then runs \p macs
/// (their views filled in by the caller) and stores ACC [h][w][cout] i32.
struct MacStream {
  TestStream s;
  uint32_t act = lmem(LmemRegion::ACT), wgt = lmem(LmemRegion::WGT),
           acc = lmem(LmemRegion::ACC);
  MacStream(const std::vector<int8_t> &x, unsigned h, unsigned w, unsigned cin,
            const std::vector<uint8_t> &packed, int inZp) {
    uint32_t xi = s.addInput(bytesOf(x));
    s.push(loadTensor(2, xi, act, h, w, cin, 1, uint8_t(inZp)));
    uint32_t wi = s.addConst(packed);
    s.push(loadBytes(0, wi, wgt, uint32_t(packed.size())));
    s.fence();
  }
  void finish(unsigned h, unsigned w, unsigned cout) {
    s.fence();
    uint32_t at = s.addOutput(uint64_t(h) * w * cout * 4);
    s.push(storeTensor(acc, h, w, cout, 4, 3, at));
  }
};

Command conv3x3(Opcode op, const ViewDesc &in, const ViewDesc &out,
                uint32_t waddr, int inZp) {
  Command c = makeCommand(op);
  c.in = in;
  c.out = out;
  c.waddr = waddr;
  c.kh = c.kw = 3;
  c.sy = c.sx = c.dy = c.dx = 1;
  c.pt = c.pb = c.pl = c.pr = 1;
  c.inZp = static_cast<int16_t>(inZp);
  return c;
}

ref::Window same3x3() {
  ref::Window win;
  win.kh = win.kw = 3;
  win.pt = win.pb = win.pl = win.pr = 1;
  return win;
}

TEST(NPUUsefulMacs, PlainConvCountsRealChannelsAndNonzeroWeights) {
  // 8x8x32 -> 24 (padded to 32 output lanes), one weight set to zero.
  std::mt19937 rng(3);
  const unsigned h = 8, w = 8, cin = 32, cout = 24;
  std::vector<int8_t> x = randomI8(rng, h * w * cin);
  std::vector<int8_t> wt = randomI8(rng, 9 * cin * cout, 1, 127);
  wt[5] = 0;
  MacStream m(x, h, w, cin, packConvWeights(bytesOf(wt), 3, 3, cin, cout, 1),
              -2);
  m.s.push(conv3x3(Opcode::MAC_CONV, ViewDesc::dense(m.act, DType::I8, w, h, 2),
                   ViewDesc::dense(m.acc, DType::I32, w, h, 2), m.wgt, -2));
  m.finish(h, w, cout);
  RunResult r;
  std::vector<uint8_t> y = runStream(m.s, &r);
  EXPECT_EQ(valuesOf<int32_t>(y, 0, h * w * cout),
            ref::convInt8(x, h, w, cin, wt, cout, same3x3(), -2));
  const Stats &st = r.stats;
  EXPECT_TRUE(st.usefulMacsCounted);
  EXPECT_EQ(st.usefulMacs, uint64_t(h) * w * (9 * cin * cout - 1));
  EXPECT_EQ(st.paddedMacs, uint64_t(h) * w * 9 * cin * 32);
  const double peak = double(st.totalCycles) * 256;
  EXPECT_DOUBLE_EQ(st.macUtilisation, st.usefulMacs / peak);
  EXPECT_DOUBLE_EQ(st.paddedMacUtilisation, st.paddedMacs / peak);
  EXPECT_NE(st.toString().find("MAC utilisation"), std::string::npos);
  EXPECT_NE(st.toString().find("padded utilisation"), std::string::npos);

  // A timing-only run cannot see weights: it reports no useful figure.
  absl::StatusOr<Simulator> sim = Simulator::create(m.s.program());
  ASSERT_TRUE(sim.ok());
  RunOptions timing;
  timing.functional = false;
  absl::StatusOr<RunResult> t = sim->run(timing);
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t->stats.usefulMacsCounted);
  EXPECT_EQ(t->stats.usefulMacs, 0u);
  EXPECT_EQ(t->stats.paddedMacs, st.paddedMacs);
  EXPECT_EQ(t->stats.totalCycles, st.totalCycles);
  EXPECT_NE(t->stats.toString().find("n/a (timing-only run)"),
            std::string::npos);
}

TEST(NPUUsefulMacs, DiagonalWeightDepthwiseDoesNotRaiseUtilisation) {
  // A 3x3 depthwise convolution of 16x16x64, once as MAC_DWCONV and once
  // as MAC_CONV per channel block with diagonal 16x16 weight blocks.
  std::mt19937 rng(5);
  const unsigned h = 16, w = 16, c = 64, cb = 4;
  const int zp = 7;
  std::vector<int8_t> x = randomI8(rng, h * w * c);
  std::vector<int8_t> dwW = randomI8(rng, 9 * c, 1, 127); // [ky][kx][c]
  std::vector<int32_t> want =
      ref::depthwiseInt8(x, h, w, c, dwW, same3x3(), zp);

  MacStream dw(x, h, w, c, packDepthwiseWeights(bytesOf(dwW), 3, 3, c, 1), zp);
  dw.s.push(conv3x3(Opcode::MAC_DWCONV,
                    ViewDesc::dense(dw.act, DType::I8, w, h, cb),
                    ViewDesc::dense(dw.acc, DType::I32, w, h, cb), dw.wgt, zp));
  dw.finish(h, w, c);
  RunResult rd;
  EXPECT_EQ(valuesOf<int32_t>(runStream(dw.s, &rd), 0, h * w * c), want);

  // Diagonal blocks: for block b, HWIO [3][3][16][16] with w(ci, ci).
  std::vector<uint8_t> diag;
  for (unsigned b = 0; b < cb; ++b) {
    std::vector<int8_t> blk(9 * 16 * 16, 0);
    for (unsigned t = 0; t < 9; ++t)
      for (unsigned l = 0; l < 16; ++l)
        blk[(t * 16 + l) * 16 + l] = dwW[t * c + b * 16 + l];
    std::vector<uint8_t> p = packConvWeights(bytesOf(blk), 3, 3, 16, 16, 1);
    diag.insert(diag.end(), p.begin(), p.end());
  }
  MacStream tr(x, h, w, c, diag, zp);
  for (unsigned b = 0; b < cb; ++b) {
    ViewDesc in = ViewDesc::dense(tr.act + b * 16, DType::I8, w, h, 1);
    in.sw = cb;
    in.sh = w * cb;
    ViewDesc out = ViewDesc::dense(tr.acc + b * 64, DType::I32, w, h, 1);
    out.sw = 4 * cb;
    out.sh = w * 4 * cb;
    tr.s.push(conv3x3(Opcode::MAC_CONV, in, out, tr.wgt + b * 9 * 256, zp));
  }
  tr.finish(h, w, c);
  RunResult rt;
  EXPECT_EQ(valuesOf<int32_t>(runStream(tr.s, &rt), 0, h * w * c), want);

  // The same useful work; the trick keeps the array busy with zeros.
  EXPECT_EQ(rd.stats.usefulMacs, uint64_t(h) * w * c * 9);
  EXPECT_EQ(rt.stats.usefulMacs, rd.stats.usefulMacs);
  EXPECT_EQ(rt.stats.paddedMacs, 16 * rt.stats.usefulMacs);
  EXPECT_NEAR(rt.stats.macUtilisation, rt.stats.paddedMacUtilisation / 16,
              1e-12);
  // Counting padded MACs, the trick would look better than MAC_DWCONV;
  // counting useful ones, it is worse (it takes twice the cycles).
  EXPECT_GT(rt.stats.paddedMacUtilisation, rd.stats.paddedMacUtilisation);
  EXPECT_LT(rt.stats.macUtilisation, rd.stats.macUtilisation);
  // MAC_DWCONV counts as depthwise work; the trick does not.
  EXPECT_EQ(rd.stats.depthwiseUsefulMacs, rd.stats.usefulMacs);
  EXPECT_EQ(rt.stats.depthwiseUsefulMacs, 0u);
}

TEST(NPUUsefulMacs, PaddingAThreeChannelInputDoesNotRaiseUtilisation) {
  // 16x16x3 -> 16: the input is padded to one block with the zero point.
  std::mt19937 rng(9);
  const unsigned h = 16, w = 16, cin = 3, cout = 16;
  const int zp = -4;
  std::vector<int8_t> x = randomI8(rng, h * w * cin);
  std::vector<int8_t> wt = randomI8(rng, 9 * cin * cout, 1, 127);
  std::vector<int32_t> want =
      ref::convInt8(x, h, w, cin, wt, cout, same3x3(), zp);
  std::vector<uint8_t> packed =
      packConvWeights(bytesOf(wt), 3, 3, cin, cout, 1);
  // The gamed variant: nonzero weights on the padding channels too. The
  // result is the same (those inputs are the zero point), so is the count.
  std::vector<uint8_t> gamed = packed;
  for (size_t blk = 0; blk < 9; ++blk)
    for (unsigned ci = cin; ci < 16; ++ci)
      for (unsigned co = 0; co < 16; ++co)
        gamed[blk * 256 + ci * 16 + co] = uint8_t(1 + (ci * co) % 100);
  for (const std::vector<uint8_t> *weights : {&packed, &gamed}) {
    MacStream m(x, h, w, cin, *weights, zp);
    m.s.push(conv3x3(Opcode::MAC_CONV,
                     ViewDesc::dense(m.act, DType::I8, w, h, 1),
                     ViewDesc::dense(m.acc, DType::I32, w, h, 1), m.wgt, zp));
    m.finish(h, w, cout);
    RunResult r;
    EXPECT_EQ(valuesOf<int32_t>(runStream(m.s, &r), 0, h * w * cout), want);
    EXPECT_EQ(r.stats.usefulMacs, uint64_t(h) * w * 9 * cin * cout);
    EXPECT_EQ(r.stats.paddedMacs, uint64_t(h) * w * 9 * 16 * cout);
    EXPECT_NEAR(r.stats.macUtilisation,
                r.stats.paddedMacUtilisation * cin / 16, 1e-12);
  }
}

//===----------------------------------------------------------------------===//
// LMEM ports
//===----------------------------------------------------------------------===//

TEST(NPULmemPorts, OversubscribedRegionChargesTheLaterCommand) {
  TargetConfig cfg;
  EXPECT_EQ(lmemPortBytesPerCycle(cfg), 128u);
  const uint32_t act = lmem(LmemRegion::ACT), wgt = lmem(LmemRegion::WGT);
  // A 64 KiB LMEM->LMEM copy (read and written at 64 B/cycle: 16 + 1024
  // cycles), then an fp16 ABS over 64 KiB (32 B in, 32 B out per cycle:
  // 8 + 2048 cycles) dispatched one cycle later, both on ACT.
  auto run = [&](uint32_t copyDst, RunResult &r) {
    TestStream s;
    Command copy = makeCommand(Opcode::DMA_LOAD);
    copy.flags = flags::kLmemSource;
    copy.src = act;
    copy.dst = copyDst;
    copy.srcRun = copy.dstRun = 65536;
    copy.n[0] = copy.n[1] = copy.n[2] = 1;
    s.push(copy);
    Command abs = makeCommand(Opcode::VEC_UNARY);
    abs.op = static_cast<uint8_t>(UnaryOp::ABS);
    abs.in = ViewDesc::dense(act + 131072, DType::F16, 32, 32, 2);
    abs.out = ViewDesc::dense(act + 196608, DType::F16, 32, 32, 2);
    s.push(abs);
    runStream(s, &r);
  };
  RunResult same;
  run(act + 65536, same);
  const EngineStats &vec = same.stats.engines[int(Engine::VEC)];
  // Copy 131072 B / 1040 cycles, ABS 131072 B / 2056 cycles: over the 1039
  // overlapping cycles the port (128 B) is short by min(63.75, 63.75 +
  // 126.03 - 128) B per cycle, moved afterwards at 63.75 B per cycle.
  double copyRate = 131072.0 / 1040, absRate = 131072.0 / 2056;
  double deficit = std::min(absRate, absRate + copyRate - 128) * 1039;
  EXPECT_EQ(vec.stallLmem, uint64_t(std::ceil(deficit / absRate)));
  EXPECT_EQ(vec.stallLmem, 1007u);
  EXPECT_EQ(same.stats.totalCycles, 1u + 2056 + 1007);
  EXPECT_EQ(same.stats.engines[int(Engine::DMA_IN)].stallLmem, 0u);
  EXPECT_EQ(vec.busy + vec.stallSemaphore + vec.stallDram + vec.stallLmem +
                vec.idle,
            same.stats.totalCycles);
  EXPECT_NE(same.stats.toString().find("stall.lmem"), std::string::npos);
  // Copying into WGT halves the copy's demand on ACT: no charge.
  RunResult apart;
  run(wgt, apart);
  EXPECT_EQ(apart.stats.engines[int(Engine::VEC)].stallLmem, 0u);
  EXPECT_EQ(apart.stats.totalCycles, 1u + 2056);
  // The bytes the rule counts: both sides of a copy, each view once, and
  // for MAC_CONV every weight-block pass over the input.
  uint64_t bytes[kNumLmemRegions];
  Command copy = makeCommand(Opcode::DMA_LOAD);
  copy.flags = flags::kLmemSource;
  copy.src = act;
  copy.dst = wgt;
  copy.srcRun = copy.dstRun = 4096;
  copy.n[0] = copy.n[1] = copy.n[2] = 1;
  commandLmemBytes(copy, cfg, bytes);
  EXPECT_EQ(bytes[int(LmemRegion::ACT)], 4096u);
  EXPECT_EQ(bytes[int(LmemRegion::WGT)], 4096u);
  Command conv = conv3x3(Opcode::MAC_CONV,
                         ViewDesc::dense(act, DType::I8, 8, 8, 2),
                         ViewDesc::dense(lmem(LmemRegion::ACC), DType::I32, 8,
                                         8, 2),
                         wgt, 0);
  conv.flags = flags::kAccumulate;
  commandLmemBytes(conv, cfg, bytes);
  EXPECT_EQ(bytes[int(LmemRegion::ACT)], 36u * 64 * 16);
  EXPECT_EQ(bytes[int(LmemRegion::WGT)], 36u * 256);
  // ACCUMULATE reads the output, then writes it.
  EXPECT_EQ(bytes[int(LmemRegion::ACC)], 2u * 64 * 32 * 4);
  EXPECT_EQ(bytes[int(LmemRegion::PARAM)], 0u);
}

//===----------------------------------------------------------------------===//
// Tiled convolutions
//===----------------------------------------------------------------------===//

/// Builds, runs (functional, race checker on) and checks \p o against the
/// reference; returns the statistics.
Stats runTiled(const TiledConvOptions &o, bool check = true,
               TiledConv *out = nullptr) {
  absl::StatusOr<TiledConv> t = buildTiledConv(o);
  EXPECT_TRUE(t.ok()) << t.status();
  if (!t.ok())
    return {};
  absl::StatusOr<Simulator> sim = Simulator::create(t->program);
  EXPECT_TRUE(sim.ok()) << sim.status();
  if (!sim.ok())
    return {};
  EXPECT_TRUE(sim->setInput("x", t->input).ok());
  RunOptions options;
  options.raceCheck = true;
  absl::StatusOr<RunResult> r = sim->run(options);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok())
    return {};
  for (const Race &race : r->races)
    ADD_FAILURE() << race.message;
  if (check) {
    std::vector<int8_t> want = tiledConvReference(*t, o);
    absl::StatusOr<std::vector<uint8_t>> y = sim->getOutput("y");
    EXPECT_TRUE(y.ok()) << y.status();
    if (y.ok()) {
      EXPECT_EQ(valuesOf<int8_t>(*y, 0, want.size()), want);
    }
  }
  // Weights are nonzero and every channel is live: useful = the layer.
  EXPECT_EQ(r->stats.usefulMacs, t->layerMacs);
  if (out)
    *out = std::move(*t);
  return r->stats;
}

TEST(NPUTiledConv, ExactWithHalosOddSizesGroupsAndStreamedWeights) {
  TargetConfig tight; // Forces several bands, groups and streamed weights.
  tight.lmemActKiB = 12;
  tight.lmemWgtKiB = 12;
  tight.lmemAccKiB = 8;
  for (ConvKind kind :
       {ConvKind::Dense3x3, ConvKind::Dense1x1, ConvKind::Depthwise3x3})
    for (Schedule schedule : {Schedule::Fenced, Schedule::DoubleBuffered})
      for (const TargetConfig &cfg : {TargetConfig(), tight}) {
        TiledConvOptions o;
        o.kind = kind;
        o.h = o.w = 13;
        o.cin = kind == ConvKind::Depthwise3x3 ? 35 : 19;
        o.cout = 35;
        o.schedule = schedule;
        o.config = cfg;
        o.seed = 7;
        SCOPED_TRACE(std::string(convKindName(kind)) +
                     (schedule == Schedule::Fenced ? " fenced" : " double") +
                     (cfg.lmemActKiB == 12 ? " tight" : " default"));
        TiledConv t;
        runTiled(o, true, &t);
        if (cfg.lmemActKiB == 12) {
          EXPECT_LT(t.rowsPerBand, 13u); // Halos between bands.
          EXPECT_LT(t.blocksPerGroup, 3u);
          EXPECT_EQ(t.weightsStreamed, kind == ConvKind::Dense3x3);
        }
        // Explicit small tiles: 3-row bands (the last has one row), one
        // block per group.
        o.rowsPerBand = 3;
        o.blocksPerGroup = 1;
        runTiled(o);
      }
}

TEST(NPUTiledConv, RefusesATileThatDoesNotFit) {
  TiledConvOptions o;
  o.h = o.w = 112;
  o.config.lmemActKiB = 16; // One 112x64 row with halos needs 21 KiB.
  absl::StatusOr<TiledConv> t = buildTiledConv(o);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("does not fit LMEM"), std::string::npos)
      << t.status();
  o.config = TargetConfig();
  o.kind = ConvKind::Depthwise3x3;
  o.cout = 32;
  EXPECT_FALSE(buildTiledConv(o).ok());
}

/// Useful-MAC utilisation of a layer in a preset, fenced and double-buffered.
std::pair<Stats, Stats> layer(const std::string &preset, ConvKind kind,
                              unsigned hw, unsigned cin, unsigned cout) {
  TiledConvOptions o;
  o.kind = kind;
  o.h = o.w = hw;
  o.cin = cin;
  o.cout = cout;
  o.config = *TargetConfig::preset(preset);
  o.schedule = Schedule::Fenced;
  Stats fenced = runTiled(o, /*check=*/false);
  o.schedule = Schedule::DoubleBuffered;
  Stats db = runTiled(o, /*check=*/false);
  return {fenced, db};
}

TEST(NPUTiledConv, RealisticTargetsNeedOverlap) {
  // The four dense 3x3 layers: double buffering meets 80% in "realistic";
  // a fenced schedule misses it on the set (and on three of the four: at
  // 28x28x128 the MAC work dwarfs the DRAM traffic even without overlap).
  struct Dense {
    unsigned hw, c;
    bool fencedMisses;
  } dense[] = {{112, 64, true}, {56, 64, true}, {28, 128, false},
               {14, 256, true}};
  double useful = 0, fencedCycles = 0, dbCycles = 0;
  for (const Dense &d : dense) {
    SCOPED_TRACE(d.hw);
    auto [fenced, db] = layer("realistic", ConvKind::Dense3x3, d.hw, d.c, d.c);
    EXPECT_GE(db.macUtilisation, 0.80);
    EXPECT_EQ(fenced.macUtilisation < 0.80, d.fencedMisses)
        << fenced.macUtilisation;
    EXPECT_LT(db.totalCycles, fenced.totalCycles);
    useful += double(db.usefulMacs);
    fencedCycles += double(fenced.totalCycles);
    dbCycles += double(db.totalCycles);
  }
  EXPECT_LT(useful / (fencedCycles * 256), 0.80);
  EXPECT_GE(useful / (dbCycles * 256), 0.80);
  // The 1x1 layer: >= 75% only with overlap.
  auto [f1, d1] = layer("realistic", ConvKind::Dense1x1, 28, 256, 256);
  EXPECT_LT(f1.macUtilisation, 0.75);
  EXPECT_GE(d1.macUtilisation, 0.75);
  // Depthwise 3x3 56x56x128 with input and output in DRAM: at 4 B/cycle
  // its 802816 bytes of traffic need 200704 cycles, its MACs 112896 at the
  // depthwise peak, so it is DRAM-bound in "realistic" (at most 56% of the
  // peak) and reaches 80% only with the default DRAM.
  auto [fr, dr] = layer("realistic", ConvKind::Depthwise3x3, 56, 128, 128);
  EXPECT_LT(dr.depthwiseUtilisation, 0.5625);
  EXPECT_GT(dr.engines[int(Engine::DMA_IN)].stallDram, 0u);
  auto [fd, dd] = layer("default", ConvKind::Depthwise3x3, 56, 128, 128);
  EXPECT_GE(dd.depthwiseUtilisation, 0.80);
  EXPECT_LT(fd.depthwiseUtilisation, 0.80);
  EXPECT_DOUBLE_EQ(dd.depthwiseUtilisation * 32 / 256, dd.macUtilisation);
}

} // namespace
} // namespace kiln::npu::test
