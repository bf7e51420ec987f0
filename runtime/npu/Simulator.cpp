//===- Simulator.cpp - The NPU-v1 reference simulator -----------*- C++ -*-===//
//
// An event-driven scheduler over the fetch unit, four engine FIFOs, counting
// semaphores granted in stream order and the shared DRAM port; functional
// execution at command completion; vector clocks for the race checker.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Simulator.h"

#include "runtime/npu/Kernels.h"
#include "runtime/npu/Trace.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <optional>

namespace kiln::npu {

namespace {
uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

bool usesDram(const Command &c) {
  return c.opcode == Opcode::DMA_STORE ||
         (c.opcode == Opcode::DMA_LOAD && !(c.flags & flags::kLmemSource));
}

/// Bytes moved over the DRAM port: the DRAM-side runs in transfer order,
/// consecutive runs that continue each other merged into one segment, each
/// segment rounded out to the whole bursts it touches.
uint64_t burstBytes(const Command &c, uint64_t burst) {
  uint64_t base = c.opcode == Opcode::DMA_LOAD ? c.src : c.dst;
  const uint32_t *stride =
      c.opcode == Opcode::DMA_LOAD ? c.srcStride : c.dstStride;
  uint64_t total = 0, segLo = 0, segHi = 0;
  bool open = false;
  auto flush = [&] {
    if (open)
      total += ((segHi - 1) / burst - segLo / burst + 1) * burst;
  };
  for (uint64_t i2 = 0; i2 < c.n[2]; ++i2)
    for (uint64_t i1 = 0; i1 < c.n[1]; ++i1) {
      uint64_t row = base + i2 * stride[2] + i1 * stride[1];
      if (stride[0] == c.srcRun) {
        // The whole row is one contiguous piece.
        uint64_t lo = row, hi = row + uint64_t(c.n[0]) * c.srcRun;
        if (open && lo == segHi) {
          segHi = hi;
        } else {
          flush();
          segLo = lo;
          segHi = hi;
          open = true;
        }
        continue;
      }
      for (uint64_t i0 = 0; i0 < c.n[0]; ++i0) {
        uint64_t lo = row + i0 * stride[0], hi = lo + c.srcRun;
        if (open && lo == segHi) {
          segHi = hi;
        } else {
          flush();
          segLo = lo;
          segHi = hi;
          open = true;
        }
      }
    }
  flush();
  return total;
}

uint64_t viewBytes(const ViewDesc &v) {
  return uint64_t(v.w) * v.h * v.cb * v.vectorBytes();
}
} // namespace

namespace {
/// Bytes operand \p e of \p c moves (views: every vector once; DMA: the
/// runs on that side; others: the extent).
uint64_t operandBytes(const Command &c, const Extent &e) {
  std::string field = e.field;
  if (field == "in.addr")
    return viewBytes(c.in);
  if (field == "in2.addr")
    return viewBytes(c.in2);
  if (field == "out.addr")
    return viewBytes(c.out);
  if ((c.engine() == Engine::DMA_IN || c.engine() == Engine::DMA_OUT) &&
      c.opcode != Opcode::DMA_FILL)
    return uint64_t(c.n[0]) * c.n[1] * c.n[2] *
           ((field == "dst" && c.opcode == Opcode::DMA_LOAD) ? c.dstRun
                                                             : c.srcRun);
  return e.hi - e.lo;
}

/// MAC_CONV weight-block passes: kh*kw*ceil(cin/rows)*ceil(cout/cols).
uint64_t macBlocks(const Command &c, const TargetConfig &cfg) {
  return uint64_t(c.kh) * c.kw * ceilDiv(uint64_t(c.in.cb) * 16, cfg.macRows) *
         ceilDiv(uint64_t(c.out.cb) * 16, cfg.macCols);
}
} // namespace

uint64_t lmemPortBytesPerCycle(const TargetConfig &cfg) {
  return 2 * uint64_t(cfg.dmaLmemBytesPerCycle);
}

void commandLmemBytes(const Command &c, const TargetConfig &cfg,
                      uint64_t bytes[kNumLmemRegions]) {
  for (int r = 0; r < kNumLmemRegions; ++r)
    bytes[r] = 0;
  const uint64_t esize = (c.flags & flags::kFp16) ? 2 : 1;
  const uint64_t pixels = uint64_t(c.out.w) * c.out.h;
  const uint64_t taps = uint64_t(c.kh) * c.kw;
  for (const Extent &e : commandExtents(c)) {
    LmemRegion r;
    if (e.dram || !lmemRegionOf(cfg, e.lo, r))
      continue;
    uint64_t b = operandBytes(c, e);
    std::string field = e.field;
    if (c.opcode == Opcode::MAC_CONV && field == "in.addr")
      // Every weight-block pass streams each pixel's `rows` input lanes.
      b = macBlocks(c, cfg) * pixels * cfg.macRows * esize;
    else if (c.opcode == Opcode::MAC_DWCONV && field == "in.addr")
      b = pixels * c.in.cb * taps * 16 * esize; // One vector per tap.
    bytes[static_cast<int>(r)] += b;
  }
}

uint64_t commandCycles(const Command &c, const TargetConfig &cfg) {
  switch (c.engine()) {
  case Engine::CTRL:
    return 0;
  case Engine::DMA_IN:
  case Engine::DMA_OUT: {
    if (usesDram(c))
      return cfg.dmaSetupCycles +
             ceilDiv(burstBytes(c, cfg.dmaBurstBytes),
                     cfg.dmaDramBytesPerCycle) +
             cfg.dmaDramLatency;
    uint64_t bytes = c.opcode == Opcode::DMA_FILL
                         ? c.bytes
                         : uint64_t(c.n[0]) * c.n[1] * c.n[2] * c.dstRun;
    return cfg.dmaSetupCycles + ceilDiv(bytes, cfg.dmaLmemBytesPerCycle);
  }
  case Engine::MAC: {
    uint64_t rate = (c.flags & flags::kFp16) ? 2 : 1;
    uint64_t pixels = uint64_t(c.out.w) * c.out.h;
    uint64_t work;
    if (c.opcode == Opcode::MAC_CONV)
      work = macBlocks(c, cfg) *
             std::max<uint64_t>(pixels, cfg.macWeightLoadCycles);
    else
      work = ceilDiv(commandPaddedMacs(c), depthwiseMacsPerCycle(cfg));
    return cfg.macSetupCycles + cfg.macPipelineLatency + rate * work;
  }
  case Engine::VEC: {
    uint64_t vectors =
        ceilDiv(uint64_t(c.out.w) * c.out.h * c.out.cb * 16, cfg.vecLanes);
    uint64_t cost = c.opcode == Opcode::VEC_POOL ? uint64_t(c.kh) * c.kw : 1;
    return cfg.vecSetupCycles + vectors * cost;
  }
  }
  return 1;
}

std::string Stats::toString() const {
  std::string out;
  absl::StrAppendFormat(&out, "total cycles        %d (%.3f us)\n", totalCycles,
                        microseconds);
  absl::StrAppendFormat(&out, "%-8s %9s %12s %12s %12s %12s %12s %7s\n",
                        "engine", "commands", "busy", "stall.sem",
                        "stall.dram", "stall.lmem", "idle", "busy%");
  for (int e = 1; e < kNumEngines; ++e) {
    const EngineStats &s = engines[e];
    absl::StrAppendFormat(&out, "%-8s %9d %12d %12d %12d %12d %12d %6.1f%%\n",
                          engineName(static_cast<Engine>(e)), s.commands,
                          s.busy, s.stallSemaphore, s.stallDram, s.stallLmem,
                          s.idle,
                          totalCycles ? 100.0 * s.busy / totalCycles : 0.0);
  }
  absl::StrAppendFormat(&out, "fetch stall (FIFO full) %d cycles\n",
                        fetchStall);
  absl::StrAppendFormat(&out, "DRAM port busy      %d cycles\n", dramPortBusy);
  for (size_t r = 0; r < dramBytesRead.size(); ++r)
    if (dramBytesRead[r] || dramBytesWritten[r])
      absl::StrAppendFormat(&out,
                            "DRAM r%d            read %d B, written %d B\n", r,
                            dramBytesRead[r], dramBytesWritten[r]);
  for (int r = 0; r < kNumLmemRegions; ++r)
    absl::StrAppendFormat(&out, "LMEM.%-6s         read %d B, written %d B\n",
                          lmemRegionName(static_cast<LmemRegion>(r)),
                          lmemBytesRead[r], lmemBytesWritten[r]);
  if (usefulMacsCounted) {
    absl::StrAppendFormat(&out, "MACs useful         %d\n", usefulMacs);
    absl::StrAppendFormat(&out, "MAC utilisation     %.2f%% (useful MACs)\n",
                          100.0 * macUtilisation);
  } else {
    absl::StrAppendFormat(&out, "MACs useful         n/a (timing-only run)\n");
    absl::StrAppendFormat(&out, "MAC utilisation     n/a (timing-only run)\n");
  }
  absl::StrAppendFormat(&out, "MACs padded         %d\n", paddedMacs);
  absl::StrAppendFormat(&out, "padded utilisation  %.2f%%\n",
                        100.0 * paddedMacUtilisation);
  if (depthwisePaddedMacs && usefulMacsCounted)
    absl::StrAppendFormat(
        &out,
        "depthwise           %d useful MACs, %.2f%% of the depthwise peak\n",
        depthwiseUsefulMacs, 100.0 * depthwiseUtilisation);
  return out;
}

//===----------------------------------------------------------------------===//
// Loading and binding
//===----------------------------------------------------------------------===//

Simulator::Simulator(Program program) : prog(std::move(program)) {
  dram.resize(prog.config.dramRegions);
  for (const RegionDecl &decl : prog.regions)
    dram[decl.region].assign(decl.size, 0);
  if (!prog.constants.empty())
    dram[0] = prog.constants;
}

absl::StatusOr<Simulator> Simulator::create(Program program,
                                            const VerifyOptions &verify,
                                            uint64_t maxRegionBytes) {
  if (absl::Status s = verifyProgram(program, verify); !s.ok())
    return s;
  for (const RegionDecl &decl : program.regions)
    if (decl.size > maxRegionBytes)
      return absl::ResourceExhaustedError(absl::StrCat(
          "region r", decl.region, " declares ", decl.size,
          " bytes, more than the simulator's limit of ", maxRegionBytes));
  return Simulator(std::move(program));
}

absl::StatusOr<Simulator> Simulator::load(absl::Span<const uint8_t> bytes,
                                          const VerifyOptions &verify,
                                          uint64_t maxRegionBytes) {
  absl::StatusOr<Program> program = readProgram(bytes);
  if (!program.ok())
    return program.status();
  return create(std::move(*program), verify, maxRegionBytes);
}

absl::Status Simulator::bindRegion(unsigned region, std::vector<uint8_t> data) {
  if (region >= dram.size())
    return absl::InvalidArgumentError(absl::StrCat(
        "region r", region, " does not exist (target has ", dram.size(), ")"));
  if (const RegionDecl *decl = prog.findRegion(region);
      decl && data.size() < decl->size)
    return absl::InvalidArgumentError(
        absl::StrCat("region r", region, ": ", data.size(),
                     " bytes bound, the program declares ", decl->size));
  dram[region] = std::move(data);
  return absl::OkStatus();
}

absl::Span<const uint8_t> Simulator::region(unsigned region) const {
  if (region >= dram.size())
    return {};
  return dram[region];
}

const IoDecl *Simulator::findIo(absl::string_view name) const {
  for (const IoDecl &io : prog.io)
    if (io.name == name)
      return &io;
  return nullptr;
}

absl::Status Simulator::setInput(absl::string_view name,
                                 absl::Span<const uint8_t> data) {
  const IoDecl *io = findIo(name);
  if (!io)
    return absl::NotFoundError(absl::StrCat("no IO tensor named '", name, "'"));
  if (data.size() != io->byteSize())
    return absl::InvalidArgumentError(
        absl::StrCat("input '", name, "': ", data.size(), " bytes given, ",
                     io->byteSize(), " expected"));
  if (io->region >= dram.size())
    return absl::InvalidArgumentError(absl::StrCat(
        "input '", name, "': region r", io->region, " does not exist"));
  std::vector<uint8_t> &r = dram[io->region];
  if (uint64_t(io->offset) + data.size() > r.size())
    return absl::InvalidArgumentError(absl::StrCat(
        "input '", name, "' does not fit in region r", io->region));
  std::copy(data.begin(), data.end(), r.begin() + io->offset);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint8_t>>
Simulator::getOutput(absl::string_view name) const {
  const IoDecl *io = findIo(name);
  if (!io)
    return absl::NotFoundError(absl::StrCat("no IO tensor named '", name, "'"));
  if (io->region >= dram.size())
    return absl::InvalidArgumentError(absl::StrCat(
        "output '", name, "': region r", io->region, " does not exist"));
  const std::vector<uint8_t> &r = dram[io->region];
  if (uint64_t(io->offset) + io->byteSize() > r.size())
    return absl::InvalidArgumentError(absl::StrCat(
        "output '", name, "' does not fit in region r", io->region));
  return std::vector<uint8_t>(r.begin() + io->offset,
                              r.begin() + io->offset + io->byteSize());
}

//===----------------------------------------------------------------------===//
// The scheduler
//===----------------------------------------------------------------------===//

namespace {
class Run {
public:
  Run(const Program &program, std::vector<std::vector<uint8_t>> &dram,
      const RunOptions &options)
      : prog(program), cfg(program.config), cmds(program.commands),
        opts(options), race(program) {
    mem.lmem.assign(cfg.lmemSize(), 0);
    mem.dram.swap(dram);
    timing.resize(cmds.size());
    usefulPerCommand.assign(cmds.size(), 0);
    sem.assign(cfg.semaphores, 0);
    waiters.resize(cfg.semaphores);
    tokens.resize(cfg.semaphores);
    cmdClock.resize(cmds.size());
    dispatchClock.resize(cmds.size());
    stats.dramBytesRead.assign(cfg.dramRegions, 0);
    stats.dramBytesWritten.assign(cfg.dramRegions, 0);
  }
  ~Run() = default;

  absl::Status go();
  /// Returns the DRAM buffers to the simulator.
  void release(std::vector<std::vector<uint8_t>> &dram) { mem.dram.swap(dram); }

  RunResult result;

private:
  bool canTake(size_t index) const;
  void take(size_t index, VectorClock &clock);
  void start(int engine, size_t index);
  absl::Status complete(int engine);
  bool tryDispatch();
  std::string deadlockReport() const;
  void account(const Command &c);
  uint64_t lmemPortCharge(int engine, const Command &c, uint64_t cycles);

  const Program &prog;
  const TargetConfig &cfg;
  const std::vector<Command> &cmds;
  const RunOptions &opts;
  Memory mem;
  RaceChecker race;
  Stats stats;
  std::vector<CommandTiming> timing;
  std::vector<uint64_t> usefulPerCommand;

  uint64_t now = 0;
  size_t fetch = 0;       // Next command to dispatch.
  uint64_t fetchFree = 0; // Earliest cycle of the next dispatch.
  uint64_t fetchBlockedSince = UINT64_MAX;
  bool ended = false;
  size_t outstanding = 0; // Dispatched, not completed.
  std::deque<size_t> fifo[kNumEngines];
  std::optional<size_t> running[kNumEngines];
  uint64_t engineFree[kNumEngines] = {};
  uint64_t portFree = 0;
  std::vector<int64_t> sem;
  std::vector<std::deque<size_t>> waiters; // Stream-order tickets.
  std::vector<std::deque<VectorClock>> tokens;
  VectorClock engineClock[kNumEngines] = {};
  VectorClock completedJoin = {};
  std::vector<VectorClock> cmdClock, dispatchClock;
  /// LMEM bytes per cycle of the command running on each engine, per region.
  double lmemRate[kNumEngines][kNumLmemRegions] = {};
};

bool Run::canTake(size_t index) const {
  const Command &c = cmds[index];
  for (int w = 0; w < 2; ++w) {
    uint8_t s = c.wait[w];
    if (s == kNoSemaphore)
      continue;
    int need = (c.wait[0] == c.wait[1]) ? 2 : 1;
    if (sem[s] < need)
      return false;
    if (c.engine() != Engine::CTRL &&
        (waiters[s].empty() || waiters[s].front() != index))
      return false;
  }
  return true;
}

void Run::take(size_t index, VectorClock &clock) {
  const Command &c = cmds[index];
  for (int w = 0; w < 2; ++w) {
    uint8_t s = c.wait[w];
    if (s == kNoSemaphore)
      continue;
    --sem[s];
    if (c.engine() != Engine::CTRL)
      waiters[s].pop_front();
    if (!tokens[s].empty()) {
      joinClock(clock, tokens[s].front());
      tokens[s].pop_front();
    }
  }
}

void Run::account(const Command &c) {
  for (const Extent &e : commandExtents(c)) {
    uint64_t bytes = operandBytes(c, e);
    if (e.dram) {
      if (e.region < cfg.dramRegions)
        (e.write ? stats.dramBytesWritten : stats.dramBytesRead)[e.region] +=
            bytes;
    } else {
      LmemRegion r;
      if (lmemRegionOf(cfg, e.lo, r))
        (e.write ? stats.lmemBytesWritten
                 : stats.lmemBytesRead)[static_cast<int>(r)] += bytes;
    }
  }
}

/// The LMEM port rule: the starting command's demand on each region, added
/// to that of the commands already running, may exceed the region's port;
/// the bytes it cannot move while they run are moved after, at its own
/// rate. Earlier commands keep their rate (first come, first served).
uint64_t Run::lmemPortCharge(int e, const Command &c, uint64_t cycles) {
  uint64_t bytes[kNumLmemRegions];
  commandLmemBytes(c, cfg, bytes);
  const double width = double(lmemPortBytesPerCycle(cfg));
  double worst = 0; // Extra cycles of the most oversubscribed region.
  for (int r = 0; r < kNumLmemRegions; ++r) {
    lmemRate[e][r] = cycles ? double(bytes[r]) / double(cycles) : 0;
    const double own = lmemRate[e][r];
    if (own == 0)
      continue;
    // Piecewise over the ends of the other running commands on region r.
    std::vector<std::pair<uint64_t, double>> others;
    for (int o = 1; o < kNumEngines; ++o)
      if (o != e && running[o] && lmemRate[o][r] > 0 &&
          timing[*running[o]].end > now)
        others.push_back({timing[*running[o]].end, lmemRate[o][r]});
    std::sort(others.begin(), others.end());
    double deficit = 0; // Bytes the port could not give this command.
    uint64_t from = now;
    const uint64_t until = now + cycles;
    for (size_t i = 0; i < others.size() && from < until; ++i) {
      double load = 0;
      for (size_t j = i; j < others.size(); ++j)
        load += others[j].second;
      uint64_t to = std::min(until, others[i].first);
      deficit += std::min(own, std::max(0.0, own + load - width)) *
                 double(to - from);
      from = to;
    }
    // The missing bytes move after the overlap, at the command's own rate.
    worst = std::max(worst, deficit / own);
  }
  return uint64_t(std::ceil(worst - 1e-9));
}

void Run::start(int e, size_t index) {
  const Command &c = cmds[index];
  fifo[e].pop_front();
  VectorClock &clock = engineClock[e];
  ++clock[e];
  joinClock(clock, dispatchClock[index]);
  take(index, clock);
  cmdClock[index] = clock;
  EngineStats &es = stats.engines[e];
  es.stallSemaphore += now - std::max(engineFree[e], timing[index].dispatch);
  uint64_t cycles = commandCycles(c, cfg);
  uint64_t end = now + cycles;
  if (usesDram(c)) {
    uint64_t xfer =
        ceilDiv(burstBytes(c, cfg.dmaBurstBytes), cfg.dmaDramBytesPerCycle);
    uint64_t ready = now + cfg.dmaSetupCycles;
    uint64_t portStart = std::max(ready, portFree);
    portFree = portStart + xfer;
    stats.dramPortBusy += xfer;
    es.stallDram += portStart - ready;
    end += portStart - ready;
  }
  uint64_t lmemExtra = lmemPortCharge(e, c, cycles);
  es.stallLmem += lmemExtra;
  end += lmemExtra;
  es.busy += cycles;
  ++es.commands;
  timing[index].start = now;
  timing[index].end = end;
  engineFree[e] = end;
  running[e] = index;
}

absl::Status Run::complete(int e) {
  size_t index = *running[e];
  running[e].reset();
  --outstanding;
  const Command &c = cmds[index];
  if (c.engine() == Engine::MAC) {
    uint64_t padded = commandPaddedMacs(c);
    uint64_t useful = opts.functional ? commandUsefulMacs(c, mem.lmem) : 0;
    stats.paddedMacs += padded;
    stats.usefulMacs += useful;
    usefulPerCommand[index] = useful;
    if (c.opcode == Opcode::MAC_DWCONV) {
      stats.depthwisePaddedMacs += padded;
      stats.depthwiseUsefulMacs += useful;
    }
  }
  if (opts.functional)
    if (absl::Status s = executeCommand(c, index, cfg, mem); !s.ok())
      return s;
  if (opts.raceCheck)
    race.record(index, cmdClock[index]);
  account(c);
  joinClock(completedJoin, cmdClock[index]);
  for (int s = 0; s < 2; ++s)
    if (c.signal[s] != kNoSemaphore) {
      ++sem[c.signal[s]];
      tokens[c.signal[s]].push_back(cmdClock[index]);
    }
  return absl::OkStatus();
}

bool Run::tryDispatch() {
  if (ended || fetch >= cmds.size() || fetchFree > now)
    return false;
  const Command &c = cmds[fetch];
  int e = static_cast<int>(c.engine());
  if (c.engine() == Engine::CTRL) {
    // A fence: every earlier command has completed, and its waits hold.
    if (outstanding || !canTake(fetch))
      return false;
    VectorClock &clock = engineClock[0];
    ++clock[0];
    joinClock(clock, completedJoin);
    take(fetch, clock);
    cmdClock[fetch] = clock;
    for (int s = 0; s < 2; ++s)
      if (c.signal[s] != kNoSemaphore) {
        ++sem[c.signal[s]];
        tokens[c.signal[s]].push_back(clock);
      }
    timing[fetch] = {now, now, now};
    ++stats.engines[0].commands;
    if (c.opcode == Opcode::END)
      ended = true;
  } else {
    if (fifo[e].size() >= cfg.fifoDepth)
      return false;
    fifo[e].push_back(fetch);
    for (int w = 0; w < 2; ++w)
      if (c.wait[w] != kNoSemaphore)
        waiters[c.wait[w]].push_back(fetch);
    timing[fetch].dispatch = now;
    dispatchClock[fetch] = engineClock[0];
    ++outstanding;
  }
  ++fetch;
  fetchFree = now + 1;
  return true;
}

std::string Run::deadlockReport() const {
  std::string out =
      absl::StrCat("deadlock at cycle ", now,
                   ": every engine is blocked and nothing is pending\n");
  auto describe = [&](size_t index) {
    const Command &c = cmds[index];
    std::string waits;
    for (int w = 0; w < 2; ++w)
      if (c.wait[w] != kNoSemaphore)
        absl::StrAppend(&waits, waits.empty() ? "" : ", ", "semaphore ",
                        c.wait[w], " (value ", sem[c.wait[w]], ")");
    return absl::StrCat(
        commandPrefix(c, index).substr(0, commandPrefix(c, index).size() - 2),
        waits.empty() ? "" : " waiting on ", waits);
  };
  for (int e = 1; e < kNumEngines; ++e) {
    absl::StrAppend(&out, "  ", engineName(static_cast<Engine>(e)), ": ");
    if (fifo[e].empty())
      absl::StrAppend(&out, "idle\n");
    else
      absl::StrAppend(&out, "blocked at ", describe(fifo[e].front()), "\n");
  }
  if (fetch < cmds.size()) {
    const Command &c = cmds[fetch];
    absl::StrAppend(
        &out, "  fetch: blocked at ", describe(fetch),
        c.engine() == Engine::CTRL
            ? (outstanding ? " (fence: earlier commands pending)" : "")
            : absl::StrCat(" (", engineName(c.engine()), " FIFO full)"),
        "\n");
  }
  absl::StrAppend(&out, "  semaphores:");
  for (size_t s = 0; s < sem.size(); ++s)
    if (sem[s] || !waiters[s].empty())
      absl::StrAppend(&out, " s", s, "=", sem[s]);
  return out;
}

absl::Status Run::go() {
  while (true) {
    for (int e = 1; e < kNumEngines; ++e)
      if (running[e] && timing[*running[e]].end == now)
        if (absl::Status s = complete(e); !s.ok())
          return s;
    bool changed = true;
    while (changed) {
      changed = false;
      for (int e = 1; e < kNumEngines; ++e)
        if (!running[e] && !fifo[e].empty() && canTake(fifo[e].front())) {
          start(e, fifo[e].front());
          changed = true;
        }
      if (tryDispatch()) {
        changed = true;
        if (fetchBlockedSince != UINT64_MAX) {
          stats.fetchStall += now - fetchBlockedSince;
          fetchBlockedSince = UINT64_MAX;
        }
      }
    }
    if (ended)
      break;
    if (fetch < cmds.size() && fetchFree <= now &&
        cmds[fetch].engine() != Engine::CTRL && fetchBlockedSince == UINT64_MAX)
      fetchBlockedSince = now; // The target FIFO is full.
    uint64_t next = UINT64_MAX;
    for (int e = 1; e < kNumEngines; ++e)
      if (running[e])
        next = std::min(next, timing[*running[e]].end);
    if (fetch < cmds.size() && fetchFree > now)
      next = std::min(next, fetchFree);
    if (next == UINT64_MAX) {
      if (fetch >= cmds.size())
        return absl::FailedPreconditionError(
            absl::StrCat("the stream ran out of commands at cycle ", now,
                         " without an END"));
      return absl::FailedPreconditionError(deadlockReport());
    }
    if (next > opts.maxCycles)
      return absl::DeadlineExceededError(absl::StrCat(
          "the run did not end within ", opts.maxCycles, " cycles"));
    now = next;
  }
  stats.totalCycles = now;
  for (int e = 1; e < kNumEngines; ++e) {
    EngineStats &s = stats.engines[e];
    s.idle = now - std::min(now, s.busy + s.stallSemaphore + s.stallDram +
                                        s.stallLmem);
  }
  stats.usefulMacsCounted = opts.functional;
  const double peak = double(now) * cfg.macRows * cfg.macCols;
  stats.macUtilisation = now ? double(stats.usefulMacs) / peak : 0;
  stats.paddedMacUtilisation = now ? double(stats.paddedMacs) / peak : 0;
  stats.depthwiseUtilisation =
      now ? double(stats.depthwiseUsefulMacs) /
                (double(now) * depthwiseMacsPerCycle(cfg))
          : 0;
  stats.microseconds = double(now) / cfg.clockMHz;
  result.stats = stats;
  result.timings = timing;
  result.usefulMacs = usefulPerCommand;
  result.races = race.races();
  if (opts.trace)
    result.traceJson = chromeTraceJson(prog, timing, fetch);
  return absl::OkStatus();
}
} // namespace

absl::StatusOr<RunResult> Simulator::run(const RunOptions &options) {
  for (const RegionDecl &decl : prog.regions)
    if (dram[decl.region].size() < decl.size)
      return absl::FailedPreconditionError(absl::StrCat(
          "region r", decl.region, " is bound to ", dram[decl.region].size(),
          " bytes, the program needs ", decl.size));
  Run run(prog, dram, options);
  absl::Status status = run.go();
  run.release(dram);
  if (!status.ok())
    return status;
  return std::move(run.result);
}

} // namespace kiln::npu
