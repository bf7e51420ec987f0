//===- StreamTiming.cpp - Predicted timing of a whole stream ----*- C++ -*-===//
//
// An event loop over cycles at which something can change: a command ends,
// or the fetch unit may dispatch again. At each such cycle, completions are
// taken first, then engines start their heads (in engine-number order, so a
// tie for the DRAM port goes to the lower engine) and the fetch unit
// dispatches, until nothing more can happen in that cycle.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Analysis/StreamTiming.h"

#include "runtime/npu/Simulator.h"

#include <algorithm>
#include <deque>
#include <optional>

using namespace kiln;
using namespace kiln::npuhw;

TimedCommand kiln::npuhw::timedCommand(const npu::Command &command,
                                       const npu::TargetConfig &config) {
  TimedCommand timed;
  timed.engine = command.engine();
  timed.isEnd = command.opcode == npu::Opcode::END;
  timed.cycles = npu::commandCycles(command, config);
  bool dram = command.opcode == npu::Opcode::DMA_STORE ||
              (command.opcode == npu::Opcode::DMA_LOAD &&
               !(command.flags & npu::flags::kLmemSource));
  // A DRAM transfer's cycles are setup + transfer + latency (docs/npu-cycle-model.md).
  if (dram)
    timed.portCycles =
        timed.cycles - config.dmaSetupCycles - config.dmaDramLatency;
  return timed;
}

StreamTiming kiln::npuhw::replayStream(
    const std::vector<TimedCommand> &commands,
    const npu::TargetConfig &config) {
  constexpr int kEngines = npu::kNumEngines;
  const size_t n = commands.size();
  StreamTiming timing;
  timing.commands.resize(n);
  std::vector<bool> done(n, false);
  std::deque<size_t> fifo[kEngines];
  std::optional<size_t> running[kEngines];
  uint64_t now = 0, fetchFree = 0, portFree = 0, lastEnd = 0;
  size_t fetch = 0, outstanding = 0;
  bool ended = false;

  auto ready = [&](size_t i) {
    for (unsigned d : commands[i].deps)
      if (d >= i || !done[d])
        return false;
    return true;
  };
  auto start = [&](int e) {
    size_t i = fifo[e].front();
    fifo[e].pop_front();
    const TimedCommand &c = commands[i];
    CommandTime &t = timing.commands[i];
    t.start = now;
    t.end = now + c.cycles;
    if (c.portCycles) {
      uint64_t request = now + config.dmaSetupCycles;
      uint64_t grant = std::max(request, portFree);
      portFree = grant + c.portCycles;
      t.end += grant - request;
    }
    running[e] = i;
  };
  auto dispatch = [&]() {
    if (ended || fetch >= n || fetchFree > now)
      return false;
    const TimedCommand &c = commands[fetch];
    if (c.engine == npu::Engine::CTRL) {
      // A fence: every earlier command has completed.
      if (outstanding || !ready(fetch))
        return false;
      timing.commands[fetch] = {now, now, now};
      done[fetch] = true;
      if (c.isEnd)
        ended = true;
    } else {
      int e = static_cast<int>(c.engine);
      if (fifo[e].size() >= config.fifoDepth)
        return false;
      fifo[e].push_back(fetch);
      timing.commands[fetch].dispatch = now;
      ++outstanding;
    }
    ++fetch;
    fetchFree = now + 1;
    return true;
  };

  while (!ended) {
    for (int e = 1; e < kEngines; ++e)
      if (running[e] && timing.commands[*running[e]].end == now) {
        done[*running[e]] = true;
        lastEnd = std::max(lastEnd, now);
        running[e].reset();
        --outstanding;
      }
    for (bool changed = true; changed;) {
      changed = false;
      for (int e = 1; e < kEngines; ++e)
        if (!running[e] && !fifo[e].empty() && ready(fifo[e].front())) {
          start(e);
          changed = true;
        }
      changed |= dispatch();
    }
    if (ended)
      break;
    uint64_t next = UINT64_MAX;
    for (int e = 1; e < kEngines; ++e)
      if (running[e])
        next = std::min(next, timing.commands[*running[e]].end);
    if (fetch < n && fetchFree > now)
      next = std::min(next, fetchFree);
    if (next == UINT64_MAX)
      break; // Out of commands (no END), or dependencies never met.
    now = next;
  }
  timing.totalCycles = ended ? now : lastEnd;
  return timing;
}
