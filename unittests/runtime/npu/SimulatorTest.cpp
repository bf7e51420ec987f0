//===- SimulatorTest.cpp - Cycle model, sync, races, deadlocks --*- C++ -*-===//
//
// Golden cycle numbers and properties of the cycle model, the hand-built
// double-buffered convolution (overlap, results, trace), the race checker
// and the deadlock report.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Examples.h"
#include "runtime/npu/Packing.h"
#include "runtime/npu/Reference.h"
#include "unittests/runtime/npu/TestUtil.h"

#include <nlohmann/json.hpp>

#include <set>

namespace kiln::npu::test {
namespace {

/// Runs an example and returns the result (race checking and tracing on).
absl::StatusOr<RunResult> runExample(const ConvExample &ex,
                                     std::vector<uint8_t> *y = nullptr,
                                     const VerifyOptions &verify = {}) {
  absl::StatusOr<Simulator> sim = Simulator::create(ex.program, verify);
  if (!sim.ok())
    return sim.status();
  if (absl::Status s = sim->setInput("x", ex.input); !s.ok())
    return s;
  RunOptions options;
  options.raceCheck = true;
  options.trace = true;
  absl::StatusOr<RunResult> result = sim->run(options);
  if (result.ok() && y)
    *y = *sim->getOutput("y");
  return result;
}

/// The example's expected output from the reference.
std::vector<int8_t> expectedOutput(const ConvExample &ex,
                                   const ConvExampleOptions &o) {
  ref::Window win;
  win.kh = win.kw = 3;
  win.pt = win.pb = win.pl = win.pr = 1;
  auto acc =
      ref::convInt8(ex.x, o.h, o.w, o.cin, ex.weights, o.cout, win, ex.inZp);
  std::vector<int32_t> bias, mult, shift;
  for (const ChannelRecord &r : ex.records) {
    bias.push_back(r.bias);
    mult.push_back(r.multiplier);
    shift.push_back(r.shift);
  }
  return ref::requant(acc, o.cout, bias, mult, shift, true, ex.outZp, -128,
                      127);
}

bool overlaps(const CommandTiming &a, const CommandTiming &b) {
  return a.start < b.end && b.start < a.end;
}

//===----------------------------------------------------------------------===//
// Cycle model
//===----------------------------------------------------------------------===//

TEST(NPUCycleModel, GoldenCommandCycles) {
  TargetConfig cfg;
  Command load = loadBytes(2, 0, 0, 4096);
  // setup 16 + 4096 B / 16 B per cycle + latency 200.
  EXPECT_EQ(commandCycles(load, cfg), 16u + 256 + 200);
  // Contiguous runs merge: 10 runs of 5 bytes are one 64-byte burst.
  Command dense = loadTensor(2, 0, 0, 1, 10, 5, 1);
  EXPECT_EQ(commandCycles(dense, cfg), 16u + 64 / 16 + 200);
  // Runs of 5 bytes at stride 7 cost whole bursts each: 10 runs in burst 0,
  // the one at 63 spills into burst 1.
  Command gather = dense;
  gather.srcStride[0] = 7;
  EXPECT_EQ(commandCycles(gather, cfg), 16u + (64 * 11) / 16 + 200);
  Command conv = makeCommand(Opcode::MAC_CONV);
  conv.in = ViewDesc::dense(0, DType::I8, 8, 8, 2);
  conv.out = ViewDesc::dense(0, DType::I32, 8, 8, 2);
  conv.kh = conv.kw = 3;
  // setup 8 + latency 32 + 9*2*2 blocks * max(64 pixels, 16).
  EXPECT_EQ(commandCycles(conv, cfg), 8u + 32 + 36 * 64);
  EXPECT_EQ(commandPaddedMacs(conv), 64u * 32 * 32 * 9);
  conv.flags = flags::kFp16;
  EXPECT_EQ(commandCycles(conv, cfg), 8u + 32 + 2 * 36 * 64);
  conv.flags = 0;
  conv.out.w = conv.out.h = 2; // 4 pixels: weight loading dominates.
  EXPECT_EQ(commandCycles(conv, cfg), 8u + 32 + 36 * 16);
  Command dw = conv;
  dw.opcode = Opcode::MAC_DWCONV;
  dw.out = ViewDesc::dense(0, DType::I32, 8, 8, 2);
  // Depthwise at rows*cols/8 = 32 MACs per cycle, one eighth of the dense
  // peak.
  EXPECT_EQ(commandCycles(dw, cfg), 8u + 32 + 64 * 32 * 9 / 32);
  dw.flags = flags::kFp16;
  EXPECT_EQ(commandCycles(dw, cfg), 8u + 32 + 2 * 64 * 32 * 9 / 32);
  dw.flags = 0;
  Command pool = makeCommand(Opcode::VEC_POOL);
  pool.out = ViewDesc::dense(0, DType::I8, 8, 8, 1);
  pool.kh = pool.kw = 3;
  EXPECT_EQ(commandCycles(pool, cfg), 8u + 64 * 9);
  Command fill = makeCommand(Opcode::DMA_FILL);
  fill.bytes = 1024;
  EXPECT_EQ(commandCycles(fill, cfg), 16u + 1024 / 64);
  // A bigger array halves the weight blocks.
  TargetConfig big;
  big.macRows = big.macCols = 32;
  conv.out = ViewDesc::dense(0, DType::I32, 8, 8, 2);
  EXPECT_EQ(commandCycles(conv, big), 8u + 32 + 9 * 64);
  // ... and a 32x32 array runs depthwise at 128 MACs per cycle.
  EXPECT_EQ(commandCycles(dw, big), 8u + 32 + 64 * 32 * 9 / 128);
}

TEST(NPUCycleModel, GoldenStreamTotal) {
  TestStream s;
  s.addInput(std::vector<uint8_t>(4096));
  s.push(loadBytes(2, 0, lmem(LmemRegion::ACT), 4096));
  s.fence();
  Command conv = makeCommand(Opcode::MAC_CONV);
  conv.in = ViewDesc::dense(lmem(LmemRegion::ACT), DType::I8, 8, 8, 2);
  conv.out = ViewDesc::dense(lmem(LmemRegion::ACC), DType::I32, 8, 8, 2);
  conv.waddr = lmem(LmemRegion::WGT);
  conv.kh = conv.kw = 3;
  conv.sy = conv.sx = conv.dy = conv.dx = 1;
  conv.pt = conv.pb = conv.pl = conv.pr = 1;
  s.push(conv);
  RunResult r;
  runStream(s, &r);
  // Load 0..472; the fence at 472; the conv dispatched at 473 runs 2344.
  EXPECT_EQ(r.timings[0].end, 472u);
  EXPECT_EQ(r.timings[1].start, 472u);
  EXPECT_EQ(r.timings[2].dispatch, 473u);
  EXPECT_EQ(r.stats.totalCycles, 473u + 2344);
  EXPECT_EQ(r.stats.engines[int(Engine::MAC)].busy, 2344u);
  EXPECT_EQ(r.stats.engines[int(Engine::DMA_IN)].busy, 472u);
  EXPECT_EQ(r.stats.paddedMacs, 64u * 32 * 32 * 9);
  // The weights in WGT are all zero: nothing useful was computed.
  EXPECT_TRUE(r.stats.usefulMacsCounted);
  EXPECT_EQ(r.stats.usefulMacs, 0u);
  EXPECT_EQ(r.stats.macUtilisation, 0.0);
  EXPECT_NEAR(r.stats.paddedMacUtilisation,
              64.0 * 32 * 32 * 9 / (2817.0 * 256), 1e-12);
  EXPECT_EQ(r.stats.dramBytesRead[2], 4096u);
}

TEST(NPUCycleModel, DramPortContention) {
  // A load and a store at the same time share the DRAM port.
  TestStream s;
  s.addInput(std::vector<uint8_t>(8192));
  s.addOutput(8192);
  s.push(loadBytes(2, 0, lmem(LmemRegion::ACT), 8192));
  s.push(storeTensor(lmem(LmemRegion::ACT, 65536), 1, 1, 8192, 1, 3, 0));
  RunResult r;
  runStream(s, &r);
  const EngineStats &in = r.stats.engines[int(Engine::DMA_IN)];
  const EngineStats &out = r.stats.engines[int(Engine::DMA_OUT)];
  // The store is dispatched a cycle later and waits for the load's 512
  // transfer cycles, less the cycle it came later.
  EXPECT_EQ(in.stallDram, 0u);
  EXPECT_EQ(out.stallDram, 511u);
  EXPECT_EQ(r.stats.dramPortBusy, 1024u);
  EXPECT_EQ(r.stats.totalCycles, 1u + 16 + 511 + 512 + 200);
}

TEST(NPUCycleModel, FullFifoStallsFetch) {
  // Ten 264-cycle VEC commands: the first starts at once, eight wait in the
  // FIFO, the tenth cannot be dispatched until the first completes.
  TestStream s;
  for (int i = 0; i < 10; ++i) {
    Command abs = makeCommand(Opcode::VEC_UNARY);
    abs.op = static_cast<uint8_t>(UnaryOp::ABS);
    abs.in = ViewDesc::dense(lmem(LmemRegion::ACT), DType::I8, 16, 16, 1);
    abs.out =
        ViewDesc::dense(lmem(LmemRegion::ACT, 8192), DType::I8, 16, 16, 1);
    s.push(abs);
  }
  RunResult r;
  runStream(s, &r);
  EXPECT_EQ(commandCycles(s.cmds[0], s.config), 8u + 256);
  EXPECT_EQ(r.timings[8].dispatch, 8u);
  EXPECT_EQ(r.timings[9].dispatch, 264u);
  EXPECT_EQ(r.stats.fetchStall, 264u - 9);
  EXPECT_EQ(r.stats.totalCycles, 10u * 264);
  EXPECT_EQ(r.stats.engines[int(Engine::VEC)].busy, 10u * 264);
  EXPECT_EQ(r.stats.engines[int(Engine::VEC)].idle, 0u);
  EXPECT_EQ(r.stats.engines[int(Engine::MAC)].idle, 10u * 264);
  // A deeper FIFO removes the stall, not the work.
  s.config.fifoDepth = 16;
  runStream(s, &r);
  EXPECT_EQ(r.stats.fetchStall, 0u);
  EXPECT_EQ(r.stats.totalCycles, 10u * 264);
}

TEST(NPUCycleModel, MoreBandwidthIsNeverSlowerAndTotalCoversEngines) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    for (bool db : {true, false}) {
      ConvExampleOptions o{16, 16, 32, 48, 4, db, seed};
      uint64_t previous = UINT64_MAX;
      for (uint32_t bw : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u}) {
        ConvExample ex = buildConvExample(o);
        ex.program.config.dmaDramBytesPerCycle = bw;
        absl::StatusOr<Simulator> sim = Simulator::create(ex.program);
        ASSERT_TRUE(sim.ok()) << sim.status();
        RunOptions options;
        options.functional = false;
        absl::StatusOr<RunResult> r = sim->run(options);
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_LE(r->stats.totalCycles, previous) << "bandwidth " << bw;
        previous = r->stats.totalCycles;
        for (int e = 1; e < kNumEngines; ++e) {
          const EngineStats &es = r->stats.engines[e];
          EXPECT_GE(r->stats.totalCycles, es.busy);
          EXPECT_EQ(es.busy + es.stallSemaphore + es.stallDram +
                        es.stallLmem + es.idle,
                    r->stats.totalCycles)
              << engineName(Engine(e));
        }
        EXPECT_GE(r->stats.totalCycles, r->stats.dramPortBusy);
        EXPECT_LE(r->stats.paddedMacUtilisation, 1.0);
        EXPECT_FALSE(r->stats.usefulMacsCounted); // Timing only.
        EXPECT_EQ(r->stats.usefulMacs, 0u);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// The double-buffered convolution
//===----------------------------------------------------------------------===//

TEST(NPUSimulator, DoubleBufferedConvOverlapsDmaAndMac) {
  ConvExampleOptions o{16, 16, 32, 48, 4, true, 11};
  ConvExample ex = buildConvExample(o);
  std::vector<uint8_t> y;
  absl::StatusOr<RunResult> r = runExample(ex, &y);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->races.empty()) << r->races.front().message;
  // Bit-exact against the reference.
  std::vector<int8_t> want = expectedOutput(ex, o);
  ASSERT_EQ(valuesOf<int8_t>(y, 0, want.size()), want);
  // The load of tile t+1 runs while the MAC computes tile t.
  int overlapped = 0;
  for (size_t t = 0; t + 1 < ex.convs.size(); ++t)
    overlapped +=
        overlaps(r->timings[ex.loads[t + 1]], r->timings[ex.convs[t]]);
  EXPECT_EQ(overlapped, int(ex.convs.size()) - 1);
  // The statistics show it: the MAC is busy most of the run, DMA_IN works
  // inside it.
  const Stats &st = r->stats;
  uint64_t mac = st.engines[int(Engine::MAC)].busy,
           in = st.engines[int(Engine::DMA_IN)].busy;
  EXPECT_LT(st.totalCycles, mac + in);
  EXPECT_GT(st.macUtilisation, 0.8);
  // Channels are whole blocks and random weights are rarely zero: the two
  // figures nearly agree.
  EXPECT_LE(st.macUtilisation, st.paddedMacUtilisation);
  EXPECT_GT(st.macUtilisation, 0.99 * st.paddedMacUtilisation);
  // DMA_IN waits for free input buffers and VEC for accumulators: stalls by
  // cause.
  EXPECT_GT(st.engines[int(Engine::DMA_IN)].stallSemaphore, 0u);
  EXPECT_GT(st.engines[int(Engine::VEC)].stallSemaphore, 0u);
  // Single buffering is slower.
  ConvExampleOptions single = o;
  single.doubleBuffer = false;
  ConvExample ex1 = buildConvExample(single);
  std::vector<uint8_t> y1;
  absl::StatusOr<RunResult> r1 = runExample(ex1, &y1);
  ASSERT_TRUE(r1.ok()) << r1.status();
  EXPECT_TRUE(r1->races.empty());
  EXPECT_EQ(y1, y);
  EXPECT_GT(r1->stats.totalCycles, st.totalCycles);
  // The trace shows the same overlap.
  nlohmann::json trace = nlohmann::json::parse(r->traceJson);
  ASSERT_TRUE(trace.contains("traceEvents"));
  std::vector<std::pair<double, double>> macSpans, dmaSpans;
  for (const auto &ev : trace["traceEvents"]) {
    if (ev["ph"] != "X")
      continue;
    double ts = ev["ts"], dur = ev["dur"];
    if (ev["cat"] == "MAC")
      macSpans.push_back({ts, ts + dur});
    if (ev["cat"] == "DMA_IN")
      dmaSpans.push_back({ts, ts + dur});
    if (ev["args"]["command"] == "MAC_CONV") {
      EXPECT_EQ(ev["args"]["op"], "conv2d");
      // Slices are named after their layer (the DEBUG location).
      EXPECT_EQ(ev["name"], ev["args"]["loc"]);
    }
  }
  EXPECT_EQ(macSpans.size(), ex.convs.size());
  int traced = 0;
  for (auto &m : macSpans)
    for (auto &d : dmaSpans)
      traced += d.first < m.second && m.first < d.second;
  EXPECT_GE(traced, int(ex.convs.size()) - 1);
}

TEST(NPUSimulator, ResultsDoNotDependOnTiming) {
  // The same synchronised stream under random timing parameters: different
  // interleavings, the same bits, never a race, and the accounting adds up.
  std::mt19937 rng(77);
  for (int iter = 0; iter < 25; ++iter) {
    ConvExampleOptions o{8u * (1 + rng() % 3),  8,
                         16u * (1 + rng() % 3), 16u * (1 + rng() % 3),
                         1u << (rng() % 3),     true,
                         uint32_t(iter)};
    ConvExample ex = buildConvExample(o);
    TargetConfig &cfg = ex.program.config;
    cfg.dmaDramBytesPerCycle = 1 + rng() % 64;
    cfg.dmaDramLatency = 1 + rng() % 1000;
    cfg.dmaBurstBytes = 1u << (rng() % 9);
    cfg.dmaSetupCycles = 1 + rng() % 64;
    cfg.macWeightLoadCycles = 1 + rng() % 64;
    cfg.macPipelineLatency = 1 + rng() % 64;
    cfg.vecSetupCycles = 1 + rng() % 64;
    cfg.fifoDepth = 1 + rng() % 8;
    cfg.macRows = cfg.macCols = 16u << (rng() % 2);
    std::vector<uint8_t> y;
    absl::StatusOr<RunResult> r = runExample(ex, &y);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->races.empty()) << "iter " << iter;
    std::vector<int8_t> want = expectedOutput(ex, o);
    ASSERT_EQ(valuesOf<int8_t>(y, 0, want.size()), want) << "iter " << iter;
    for (int e = 1; e < kNumEngines; ++e) {
      const EngineStats &es = r->stats.engines[e];
      EXPECT_EQ(es.busy + es.stallSemaphore + es.stallDram + es.stallLmem +
                    es.idle,
                r->stats.totalCycles);
    }
    // Deterministic: a second run gives the same timings.
    absl::StatusOr<RunResult> again = runExample(ex);
    ASSERT_TRUE(again.ok());
    for (size_t i = 0; i < r->timings.size(); ++i)
      ASSERT_EQ(again->timings[i].end, r->timings[i].end) << i;
  }
}

TEST(NPUSimulator, RemovingASemaphoreMakesTheRaceCheckerFire) {
  ConvExample ex = buildConvExample({16, 16, 32, 32, 4, true, 3});
  size_t load = ex.loads[2], conv = ex.convs[2];
  // Tile 2's convolution no longer waits for its input.
  ex.program.commands[conv].wait[0] = kNoSemaphore;
  ex.program.commands[load].signal[0] = kNoSemaphore;
  absl::StatusOr<RunResult> r = runExample(ex);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_FALSE(r->races.empty());
  bool named = false;
  for (const Race &race : r->races)
    named |= race.first == load && race.second == conv &&
             race.message.find("command " + std::to_string(load) +
                               " (DMA_LOAD on DMA_IN) writes") !=
                 std::string::npos &&
             race.message.find("command " + std::to_string(conv) +
                               " (MAC_CONV on MAC) reads") != std::string::npos;
  EXPECT_TRUE(named) << r->races.front().message;
  EXPECT_NE(r->races.front().message.find("LMEM.ACT"), std::string::npos);
}

TEST(NPUSimulator, RemovingASignalMakesTheDeadlockReportFire) {
  ConvExample ex = buildConvExample({16, 16, 32, 32, 4, true, 3});
  size_t store = ex.stores[0], requant = ex.requants[2];
  uint8_t sem = ex.program.commands[store].signal[0];
  ex.program.commands[store].signal[0] = kNoSemaphore;
  // The loader rejects it statically...
  absl::StatusOr<RunResult> rejected = runExample(ex);
  ASSERT_FALSE(rejected.ok());
  EXPECT_EQ(rejected.status().message(),
            "command " + std::to_string(requant) +
                " (VEC_REQUANT): field 'wait1' waits on semaphore " +
                std::to_string(sem) + " with no earlier uncovered signal");
  // ...and without the static rule the simulator reports the deadlock.
  VerifyOptions noRule;
  noRule.semaphoreRule = false;
  absl::StatusOr<RunResult> r = runExample(ex, nullptr, noRule);
  ASSERT_FALSE(r.ok());
  std::string msg(r.status().message());
  EXPECT_NE(msg.find("deadlock at cycle"), std::string::npos) << msg;
  EXPECT_NE(msg.find("VEC: blocked at command " + std::to_string(requant) +
                     " (VEC_REQUANT) waiting on semaphore"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("semaphore " + std::to_string(sem) + " (value 0)"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("MAC: idle"), std::string::npos) << msg;
}

TEST(NPUSimulator, EveryOpcodeThroughTheContainer) {
  // One stream with every opcode, written to a .npub, loaded from the bytes
  // and run with tracing: each command executes and appears in the trace.
  TestStream s;
  uint32_t act = lmem(LmemRegion::ACT), acc = lmem(LmemRegion::ACC),
           wgt = lmem(LmemRegion::WGT), prm = lmem(LmemRegion::PARAM);
  std::vector<uint8_t> x(4 * 4 * 16, 3), w(256 * 9, 1);
  s.push(loadTensor(2, s.addInput(x), act, 4, 4, 16, 1));
  s.push(loadBytes(0, s.addConst(w), wgt, w.size()));
  Command fill = makeCommand(Opcode::DMA_FILL);
  fill.dst = prm + 512;
  fill.bytes = 256;
  fill.pattern = 0x01010101;
  s.push(fill);
  s.push(loadBytes(0, s.addConst(packEltwiseParams(EltwiseParams())), prm, 64));
  std::vector<ChannelRecord> recs(16, {0, 1 << 30, 31});
  s.push(loadBytes(0, s.addConst(packChannelRecords(recs)), prm + 256, 256));
  s.fence();
  Command conv = makeCommand(Opcode::MAC_CONV);
  conv.in = ViewDesc::dense(act, DType::I8, 4, 4, 1);
  conv.out = ViewDesc::dense(acc, DType::I32, 4, 4, 1);
  conv.waddr = wgt;
  conv.kh = conv.kw = 3;
  conv.sy = conv.sx = conv.dy = conv.dx = 1;
  conv.pt = conv.pb = conv.pl = conv.pr = 1;
  s.push(conv);
  Command dw = conv;
  dw.opcode = Opcode::MAC_DWCONV;
  dw.flags = flags::kAccumulate;
  s.push(dw);
  s.fence();
  Command rq = makeCommand(Opcode::VEC_REQUANT);
  rq.in = conv.out;
  rq.out = ViewDesc::dense(act + 4096, DType::I8, 4, 4, 1);
  rq.paddr = prm + 256;
  rq.minV = -128;
  rq.maxV = 127;
  s.push(rq);
  Command elt = makeCommand(Opcode::VEC_ELTWISE);
  elt.op = static_cast<uint8_t>(EltOp::MAX);
  elt.in = rq.out;
  elt.in2 = conv.in;
  elt.out = ViewDesc::dense(act + 8192, DType::I8, 4, 4, 1);
  elt.paddr = prm;
  s.push(elt);
  Command un = makeCommand(Opcode::VEC_UNARY);
  un.op = static_cast<uint8_t>(UnaryOp::NEG);
  un.in = elt.out;
  un.out = ViewDesc::dense(act + 12288, DType::I8, 4, 4, 1);
  s.push(un);
  Command pool = makeCommand(Opcode::VEC_POOL);
  pool.op = static_cast<uint8_t>(PoolOp::AVG);
  pool.in = un.out;
  pool.out = ViewDesc::dense(act + 16384, DType::I8, 2, 2, 1);
  pool.kh = pool.kw = pool.sy = pool.sx = 2;
  pool.minV = -128;
  pool.maxV = 127;
  s.push(pool);
  s.fence();
  uint32_t outOff = s.addOutput(64);
  s.push(storeTensor(act + 16384, 2, 2, 16, 1, 3, outOff));
  Program program = s.program();
  std::set<Opcode> used;
  for (const Command &c : program.commands)
    used.insert(c.opcode);
  EXPECT_EQ(used.size(), allOpcodes().size());

  std::vector<uint8_t> bytes = writeProgram(program);
  absl::StatusOr<Simulator> sim = Simulator::load(bytes);
  ASSERT_TRUE(sim.ok()) << sim.status();
  ASSERT_TRUE(sim->bindRegion(2, s.input).ok());
  RunOptions options;
  options.raceCheck = true;
  options.trace = true;
  absl::StatusOr<RunResult> r = sim->run(options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->races.empty());
  nlohmann::json trace = nlohmann::json::parse(r->traceJson);
  size_t events = 0;
  for (const auto &ev : trace["traceEvents"])
    events += ev["ph"] != "M" && ev["cat"] != "layer";
  EXPECT_EQ(events, program.commands.size());
  for (size_t i = 0; i < program.commands.size(); ++i)
    EXPECT_LE(r->timings[i].dispatch, r->timings[i].start) << i;
  // Each output channel: conv 3*16*taps, plus the depthwise 3*taps, halved
  // by the requant (clamped to 127), max with 3, negated. The top-left
  // pooling window holds pixels with 4, 6, 6 and 9 taps.
  auto out = valuesOf<int8_t>(
      std::vector<uint8_t>(sim->region(3).begin(), sim->region(3).end()),
      outOff, 64);
  int8_t t4 = -102, t6 = -127, t9 = -127;
  int32_t sum = t4 + t6 + t6 + t9;
  int8_t want = static_cast<int8_t>(sum > 0 ? (sum + 2) / 4 : (sum - 2) / 4);
  EXPECT_EQ(out[0], want);
}

TEST(NPUSimulator, WaitWithoutSignalDeadlocksInsteadOfHanging) {
  TestStream s;
  Command nop = makeCommand(Opcode::NOP);
  nop.wait[0] = 5;
  s.push(nop);
  absl::StatusOr<Simulator> sim =
      Simulator::create(s.program(), VerifyOptions{false});
  ASSERT_TRUE(sim.ok());
  absl::StatusOr<RunResult> r = sim->run();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find(
                "fetch: blocked at command 0 (NOP) waiting on semaphore 5 "
                "(value 0)"),
            std::string::npos)
      << r.status();
}

TEST(NPUSimulator, CycleLimitAndBindingErrors) {
  ConvExample ex = buildConvExample({8, 8, 16, 16, 4, true, 1});
  absl::StatusOr<Simulator> sim = Simulator::create(ex.program);
  ASSERT_TRUE(sim.ok());
  RunOptions options;
  options.maxCycles = 100;
  EXPECT_EQ(sim->run(options).status().message(),
            "the run did not end within 100 cycles");
  EXPECT_EQ(sim->bindRegion(2, std::vector<uint8_t>(10)).message(),
            "region r2: 10 bytes bound, the program declares 1024");
  EXPECT_EQ(sim->setInput("x", std::vector<uint8_t>(3)).message(),
            "input 'x': 3 bytes given, 1024 expected");
  EXPECT_EQ(sim->getOutput("z").status().message(), "no IO tensor named 'z'");
  // A data-dependent bad parameter is an error naming the command.
  ex.program.constants[ex.program.constants.size() - 16 * 16 + 8] = 99;
  absl::StatusOr<Simulator> bad = Simulator::create(ex.program);
  ASSERT_TRUE(bad.ok());
  absl::StatusOr<RunResult> r = bad->run();
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("(VEC_REQUANT): channel 0: record"),
            std::string::npos)
      << r.status();
}

} // namespace
} // namespace kiln::npu::test
