//===- NPUSimBenchmark.cpp - NPU-v1 simulator speed -------------*- C++ -*-===//
//
// Simulated MACs per second of int8 convolution on one core, with the
// independent scalar reference measured in the same run as the peer, and the
// end-to-end double-buffered example stream. Results: docs/performance-npu.md.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Examples.h"
#include "runtime/npu/Reference.h"
#include "runtime/npu/Simulator.h"

#include <benchmark/benchmark.h>

#include <random>

namespace {
using namespace kiln::npu;

/// A stream of MAC_CONV commands computing a 3x3, pad 1 convolution of an
/// h x w x c input in tiles of up to 8 output rows (ACC holds one tile).
Program convProgram(unsigned h, unsigned w, unsigned cin, unsigned cout,
                    bool fp16) {
  Program p;
  const TargetConfig &cfg = p.config;
  DType in = fp16 ? DType::F16 : DType::I8,
        out = fp16 ? DType::F32 : DType::I32;
  unsigned rows = 8;
  while (h % rows)
    --rows;
  for (unsigned r0 = 0; r0 < h; r0 += rows) {
    int first = int(r0) - 1, last = int(r0 + rows);
    unsigned pt = first < 0, pb = last >= int(h);
    first = std::max(first, 0);
    last = std::min(last, int(h) - 1);
    Command c;
    c.opcode = Opcode::MAC_CONV;
    c.flags = fp16 ? flags::kFp16 : 0;
    c.in = ViewDesc::dense(cfg.regionBase(LmemRegion::ACT), in, w,
                           last - first + 1, cin / 16);
    c.in.addr += first * c.in.sh * 16;
    c.out = ViewDesc::dense(cfg.regionBase(LmemRegion::ACC), out, w, rows,
                            cout / 16);
    c.waddr = cfg.regionBase(LmemRegion::WGT);
    c.kh = c.kw = 3;
    c.sy = c.sx = c.dy = c.dx = 1;
    c.pt = pt;
    c.pb = pb;
    c.pl = c.pr = 1;
    c.inZp = fp16 ? 0 : 3;
    p.commands.push_back(c);
  }
  Command end;
  end.opcode = Opcode::END;
  p.commands.push_back(end);
  return p;
}

uint64_t totalMacs(const Program &p) {
  uint64_t macs = 0;
  for (const Command &c : p.commands)
    macs += commandPaddedMacs(c);
  return macs;
}

void simulateConv(benchmark::State &state, bool fp16) {
  unsigned hw = state.range(0), c = state.range(1);
  absl::StatusOr<Simulator> sim =
      Simulator::create(convProgram(hw, hw, c, c, fp16));
  if (!sim.ok()) {
    state.SkipWithError(std::string(sim.status().message()).c_str());
    return;
  }
  uint64_t macs = totalMacs(sim->program());
  for (auto _ : state) {
    absl::StatusOr<RunResult> r = sim->run();
    benchmark::DoNotOptimize(r);
  }
  state.counters["MAC/s"] = benchmark::Counter(
      double(macs) * state.iterations(), benchmark::Counter::kIsRate);
}

/// The simulator's int8 convolution (functional + cycle model).
void BM_SimulatorConvInt8(benchmark::State &state) {
  simulateConv(state, false);
}
BENCHMARK(BM_SimulatorConvInt8)
    ->Args({56, 64})
    ->Args({28, 128})
    ->Args({14, 128})
    ->Unit(benchmark::kMillisecond);

/// fp16 keeps the sequential accumulation order, so it is slower.
void BM_SimulatorConvFp16(benchmark::State &state) {
  simulateConv(state, true);
}
BENCHMARK(BM_SimulatorConvFp16)->Args({28, 64})->Unit(benchmark::kMillisecond);

/// The peer: the independent scalar tensor-level reference, same shapes.
void BM_ReferenceConvInt8(benchmark::State &state) {
  int hw = state.range(0), c = state.range(1);
  std::mt19937 rng(1);
  std::vector<int8_t> x(size_t(hw) * hw * c), w(size_t(9) * c * c);
  for (auto &v : x)
    v = int8_t(rng());
  for (auto &v : w)
    v = int8_t(rng());
  ref::Window win;
  win.kh = win.kw = 3;
  win.pt = win.pb = win.pl = win.pr = 1;
  for (auto _ : state) {
    auto out = ref::convInt8(x, hw, hw, c, w, c, win, 3);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["MAC/s"] =
      benchmark::Counter(double(hw) * hw * c * c * 9 * state.iterations(),
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReferenceConvInt8)->Args({56, 64})->Unit(benchmark::kMillisecond);

/// The whole double-buffered example stream (DMA, conv, requant, store).
void BM_SimulatorDoubleBufferedStream(benchmark::State &state) {
  ConvExample ex = buildConvExample();
  absl::StatusOr<Simulator> sim = Simulator::create(ex.program);
  (void)sim->setInput("x", ex.input);
  RunOptions options;
  options.raceCheck = state.range(0);
  uint64_t macs = totalMacs(ex.program);
  for (auto _ : state) {
    absl::StatusOr<RunResult> r = sim->run(options);
    benchmark::DoNotOptimize(r);
  }
  state.counters["MAC/s"] = benchmark::Counter(
      double(macs) * state.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimulatorDoubleBufferedStream)
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
