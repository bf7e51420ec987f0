//===- ConfigAndViewsTest.cpp - Configurations, strided views ---*- C++ -*-===//
//
// Target configurations (JSON, other array and SRAM sizes), views that are
// crops and channel slices of larger tensors, DRAM races, fp16 broadcasts.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Examples.h"
#include "runtime/npu/Packing.h"
#include "runtime/npu/Reference.h"
#include "unittests/runtime/npu/TestUtil.h"

namespace kiln::npu::test {
namespace {

TEST(NPUConfig, JsonRoundTripAndErrors) {
  TargetConfig cfg;
  cfg.macRows = 32;
  cfg.lmemAccKiB = 64;
  absl::StatusOr<TargetConfig> back = TargetConfig::fromJson(cfg.toJson());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->toJson(), cfg.toJson());
  EXPECT_EQ(back->regionBase(LmemRegion::PARAM), (512u + 256 + 64) * 1024);
  // Missing keys keep their defaults.
  absl::StatusOr<TargetConfig> partial =
      TargetConfig::fromJson(R"({"mac.cols": 32})");
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->macCols, 32u);
  EXPECT_EQ(partial->macRows, 16u);
  EXPECT_EQ(TargetConfig::fromJson(R"({"mac.colz": 32})").status().message(),
            "target config: unknown key 'mac.colz'");
  EXPECT_EQ(TargetConfig::fromJson(R"({"semaphores": -1})").status().message(),
            "target config: 'semaphores' must be an unsigned 32-bit integer");
  EXPECT_EQ(TargetConfig::fromJson(R"({"mac.rows": 24})").status().message(),
            "target config: 'mac.rows' and 'mac.cols' must be multiples of 16");
  EXPECT_EQ(TargetConfig::fromJson("{").status().message(),
            "target config: malformed JSON");
  EXPECT_EQ(
      TargetConfig::fromJson(R"({"lmem.act_kib": 20000})").status().message(),
      "target config: LMEM regions total 20448 KiB, more than the "
      "24-bit address space (16384 KiB)");
}

TEST(NPUConfig, IoTensorsMustFitTheirRegions) {
  ConvExample ex = buildConvExample({8, 8, 16, 16, 4, true, 1});
  ex.program.io[1].offset = 100;
  EXPECT_EQ(verifyProgram(ex.program).message(),
            "IO tensor 'y': 1024 bytes at offset 100 exceed region r3 (1024 "
            "bytes)");
  ex.program.io[1].offset = 0;
  ex.program.io[0].region = 6;
  EXPECT_EQ(verifyProgram(ex.program).message(),
            "IO tensor 'x': region r6 is not declared in the REGIONS section");
}

TEST(NPUConfig, OtherConfigurationsRunTheSameStream) {
  ConvExampleOptions o{16, 16, 32, 32, 4, true, 8};
  ConvExample base = buildConvExample(o);
  absl::StatusOr<Simulator> sim = Simulator::create(base.program);
  ASSERT_TRUE(sim.ok());
  ASSERT_TRUE(sim->setInput("x", base.input).ok());
  absl::StatusOr<RunResult> r = sim->run();
  ASSERT_TRUE(r.ok());
  std::vector<uint8_t> y = *sim->getOutput("y");

  // A 32x32 array: same results, fewer cycles, same stream (the example's
  // addresses fit a smaller WGT and PARAM too).
  ConvExample big = buildConvExample(o);
  big.program.config.macRows = big.program.config.macCols = 32;
  big.program.config.fifoDepth = 2;
  absl::StatusOr<Simulator> bigSim = Simulator::create(big.program);
  ASSERT_TRUE(bigSim.ok()) << bigSim.status();
  ASSERT_TRUE(bigSim->setInput("x", big.input).ok());
  RunOptions options;
  options.raceCheck = true;
  absl::StatusOr<RunResult> rb = bigSim->run(options);
  ASSERT_TRUE(rb.ok()) << rb.status();
  EXPECT_TRUE(rb->races.empty());
  EXPECT_EQ(*bigSim->getOutput("y"), y);
  EXPECT_LT(rb->stats.totalCycles, r->stats.totalCycles);

  // Less SRAM: the stream, built for the default map, no longer fits, and
  // the verifier says where.
  ConvExample small = buildConvExample(o);
  small.program.config.lmemAccKiB = 16;
  absl::StatusOr<Simulator> smallSim = Simulator::create(small.program);
  ASSERT_FALSE(smallSim.ok());
  EXPECT_EQ(smallSim.status().message(),
            "command 1 (DMA_LOAD): field 'dst' 0xe0000 is outside LMEM (848 "
            "KiB)");
  // With ACC shrunk to 64 KiB and PARAM grown so that the example's
  // addresses exist, the same stream runs and gives the same output.
  small.program.config.lmemAccKiB = 64;
  small.program.config.lmemParamKiB = 128;
  smallSim = Simulator::create(small.program);
  ASSERT_TRUE(smallSim.ok()) << smallSim.status();
  ASSERT_TRUE(smallSim->setInput("x", small.input).ok());
  ASSERT_TRUE(smallSim->run(options).ok());
  EXPECT_EQ(*smallSim->getOutput("y"), y);
}

TEST(NPUViews, ConvOverCropsAndChannelSlices) {
  // A 10x12 input with 3 channel blocks in ACT; the conv reads a 6x7 crop
  // of channel blocks 1..2 and writes channel blocks 2..3 of a 4-block
  // output tensor (concatenation by offset).
  std::mt19937 rng(606);
  const unsigned H = 10, W = 12, CB = 3, OCB = 4;
  const unsigned y0 = 2, x0 = 3, h = 6, w = 7, cin = 32, cout = 32;
  auto full = randomI8(rng, size_t(H) * W * CB * 16);
  ref::Window win;
  win.kh = win.kw = 3;
  win.pt = win.pl = 1;
  win.pb = win.pr = 0;
  win.sy = 1;
  win.sx = 2;
  int oh = win.outH(h), ow = win.outW(w);
  auto weights = randomI8(rng, size_t(9) * cin * cout);
  auto packed = packConvWeights(bytesOf(weights), 3, 3, cin, cout, 1);
  TestStream s;
  uint32_t act = lmem(LmemRegion::ACT), acc = lmem(LmemRegion::ACC);
  s.push(loadTensor(2, s.addInput(bytesOf(full)), act, H, W, CB * 16, 1));
  s.push(
      loadBytes(0, s.addConst(packed), lmem(LmemRegion::WGT), packed.size()));
  Command clear = makeCommand(Opcode::DMA_FILL);
  clear.dst = acc;
  clear.bytes = oh * ow * OCB * 64;
  clear.pattern = 0xdeadbeef;
  s.push(clear);
  s.fence();
  ViewDesc whole = ViewDesc::dense(act, DType::I8, W, H, CB);
  Command conv = makeCommand(Opcode::MAC_CONV);
  conv.in = whole;
  conv.in.addr = whole.vectorAddr(y0, x0, 1);
  conv.in.w = w;
  conv.in.h = h;
  conv.in.cb = 2;
  ViewDesc outWhole = ViewDesc::dense(acc, DType::I32, ow, oh, OCB);
  conv.out = outWhole;
  conv.out.addr = outWhole.vectorAddr(0, 0, 2);
  conv.out.cb = 2;
  conv.waddr = lmem(LmemRegion::WGT);
  conv.kh = conv.kw = 3;
  conv.sy = 1;
  conv.sx = 2;
  conv.dy = conv.dx = 1;
  conv.pt = conv.pl = 1;
  s.push(conv);
  s.fence();
  uint32_t outOff = s.addOutput(size_t(oh) * ow * OCB * 64);
  s.push(storeTensor(acc, oh, ow, OCB * 16, 4, 3, outOff));
  auto out =
      valuesOf<int32_t>(runStream(s), outOff, size_t(oh) * ow * OCB * 16);
  // The reference input: the crop and channel slice as a dense tensor.
  std::vector<int8_t> crop(size_t(h) * w * cin);
  for (unsigned y = 0; y < h; ++y)
    for (unsigned x = 0; x < w; ++x)
      for (unsigned c = 0; c < cin; ++c)
        crop[(size_t(y) * w + x) * cin + c] =
            full[((size_t(y0 + y) * W + x0 + x) * CB) * 16 + 16 + c];
  auto want = ref::convInt8(crop, h, w, cin, weights, cout, win, 0);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x)
      for (unsigned c = 0; c < OCB * 16; ++c) {
        int32_t got = out[(size_t(y) * ow + x) * OCB * 16 + c];
        int32_t expect = c < 32 ? int32_t(0xdeadbeef)
                                : want[(size_t(y) * ow + x) * cout + c - 32];
        ASSERT_EQ(got, expect) << y << "," << x << "," << c;
      }
}

TEST(NPUViews, EltwiseF16Broadcasts) {
  std::mt19937 rng(9);
  const unsigned h = 3, w = 4, c = 20;
  std::vector<uint16_t> a(h * w * c), ch(c);
  for (auto &v : a)
    v = ref::floatToHalf(float(int(rng() % 2000) - 1000) / 64.0f);
  for (auto &v : ch)
    v = ref::floatToHalf(float(int(rng() % 200) - 100) / 16.0f);
  TestStream s;
  uint32_t act = lmem(LmemRegion::ACT), prm = lmem(LmemRegion::PARAM);
  s.push(loadTensor(2, s.addInput(bytesOf(a)), act, h, w, c, 2));
  s.push(loadTensor(2, s.addInput(bytesOf(ch)), act + 8192, 1, 1, c, 2));
  EltwiseParams p;
  p.scalar = ref::floatToHalf(1.5f);
  auto block = packEltwiseParams(p);
  s.push(loadBytes(0, s.addConst(block), prm, 64));
  s.fence();
  Command mul = makeCommand(Opcode::VEC_ELTWISE);
  mul.op = static_cast<uint8_t>(EltOp::MUL);
  mul.bcast = static_cast<uint8_t>(Broadcast::SCALAR);
  mul.in = ViewDesc::dense(act, DType::F16, w, h, 2);
  mul.out = ViewDesc::dense(act + 16384, DType::F16, w, h, 2);
  mul.paddr = prm;
  s.push(mul);
  Command add = mul;
  add.op = static_cast<uint8_t>(EltOp::ADD);
  add.bcast = static_cast<uint8_t>(Broadcast::CHANNEL);
  add.in2 = ViewDesc::dense(act + 8192, DType::F16, 1, 1, 2);
  add.out.addr = act + 32768;
  s.push(add);
  s.fence();
  uint32_t o1 = s.addOutput(h * w * c * 2), o2 = s.addOutput(h * w * c * 2);
  s.push(storeTensor(act + 16384, h, w, c, 2, 3, o1));
  s.push(storeTensor(act + 32768, h, w, c, 2, 3, o2));
  auto out = runStream(s);
  std::vector<uint16_t> scal(a.size(), uint16_t(p.scalar)), chan(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    chan[i] = ch[i % c];
  EXPECT_EQ(valuesOf<uint16_t>(out, o1, a.size()),
            ref::eltwiseF16(a, scal, ref::Elt::Mul));
  EXPECT_EQ(valuesOf<uint16_t>(out, o2, a.size()),
            ref::eltwiseF16(a, chan, ref::Elt::Add));
}

TEST(NPURaceChecker, DramRaceAndFenceOrdering) {
  // DMA_OUT writes r3 while DMA_IN reads the same bytes back: a DRAM race.
  TestStream s;
  s.addOutput(256);
  s.push(storeTensor(lmem(LmemRegion::ACT), 1, 1, 256, 1, 3, 0));
  s.push(loadBytes(3, 0, lmem(LmemRegion::ACT, 4096), 256));
  absl::StatusOr<Simulator> sim = Simulator::create(s.program());
  ASSERT_TRUE(sim.ok());
  RunOptions options;
  options.raceCheck = true;
  absl::StatusOr<RunResult> r = sim->run(options);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->races.size(), 1u);
  EXPECT_EQ(r->races[0].message,
            "race on DRAM r3 [0x0, 0x100): command 0 (DMA_STORE on DMA_OUT) "
            "writes and command 1 (DMA_LOAD on DMA_IN) reads with no "
            "synchronisation between them");
  // A fence between them orders the two: no race.
  TestStream fenced = s;
  fenced.cmds.insert(fenced.cmds.begin() + 1, makeCommand(Opcode::NOP));
  absl::StatusOr<Simulator> sim2 = Simulator::create(fenced.program());
  ASSERT_TRUE(sim2.ok());
  absl::StatusOr<RunResult> r2 = sim2->run(options);
  ASSERT_TRUE(r2.ok());
  EXPECT_TRUE(r2->races.empty());
  // So does a semaphore.
  TestStream synced = s;
  synced.cmds[0].signal[0] = 7;
  synced.cmds[1].wait[1] = 7;
  absl::StatusOr<Simulator> sim3 = Simulator::create(synced.program());
  ASSERT_TRUE(sim3.ok());
  absl::StatusOr<RunResult> r3 = sim3->run(options);
  ASSERT_TRUE(r3.ok());
  EXPECT_TRUE(r3->races.empty());
  EXPECT_GE(r3->timings[1].start, r3->timings[0].end);
}

} // namespace
} // namespace kiln::npu::test

namespace kiln::npu::test {
namespace {

TEST(NPURaceChecker, HugeRunCountsStayBounded) {
  // 255^3 runs of 16 bytes, all from and to the same place: legal, bounded
  // work, and the race checker keeps one interval for it.
  TestStream s;
  s.addInput(std::vector<uint8_t>(64, 7));
  Command load = loadBytes(2, 0, lmem(LmemRegion::ACT), 16);
  load.n[0] = load.n[1] = load.n[2] = 255;
  s.push(load);
  s.fence();
  uint32_t out = s.addOutput(16);
  s.push(storeTensor(lmem(LmemRegion::ACT), 1, 1, 16, 1, 3, out));
  RunResult r;
  auto bytes = runStream(s, &r);
  ASSERT_GE(bytes.size(), 16u);
  EXPECT_EQ(bytes[out], 7);
  EXPECT_EQ(r.stats.dramBytesRead[2], 255ull * 255 * 255 * 16);
}

} // namespace
} // namespace kiln::npu::test
