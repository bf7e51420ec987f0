//===- StreamTiming.h - Predicted timing of a whole stream ------*- C++ -*-===//
//
// The dialect-independent core of `npuhw-estimate-layers`: the compiler's
// prediction of when each command of a lowered stream starts and ends, from
// the stream as lowered (stream order, engines, dependencies) and the cycle
// table of docs/npu-cycle-model.md, under the dispatch and engine rules of
// docs/npu-isa.md §4.
// Because it replays the whole stream, consecutive ops overlap in it the way
// the lowering scheduled them (the next op's loads during this op's compute,
// each op in the LMEM share the lowering gave it): a layer's predicted span
// includes the time it shares with its neighbours, as its measured span does.
// No MLIR, so unit tests drive it directly.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_ANALYSIS_STREAMTIMING_H
#define KILN_DIALECTS_NPUHW_ANALYSIS_STREAMTIMING_H

#include "runtime/npu/Commands.h"
#include "runtime/npu/Config.h"

#include <cstdint>
#include <vector>

namespace kiln::npuhw {

/// One command of a stream as the timing replay sees it.
struct TimedCommand {
  /// The engine that runs it; CTRL commands (NOP, END) are fences at the
  /// fetch unit, and END finishes the run.
  npu::Engine engine = npu::Engine::CTRL;
  bool isEnd = false;
  /// Cycles it occupies its engine without port waits (the table of
  /// docs/npu-cycle-model.md; for a DRAM transfer setup + transfer + latency).
  uint64_t cycles = 0;
  /// For a DMA to or from DRAM: the cycles it holds the DRAM port (its
  /// burst-rounded bytes at dma.dram_bytes_per_cycle); 0 otherwise.
  uint64_t portCycles = 0;
  /// Stream indices of earlier commands that must have completed before it
  /// starts (what its semaphore waits pair with).
  std::vector<unsigned> deps;
};

/// When a command ran in the replay.
struct CommandTime {
  uint64_t dispatch = 0, start = 0, end = 0;
};

/// The replay's result: per command its times, and the run's cycles (when
/// END executes; the last command's end when the stream has no END).
struct StreamTiming {
  std::vector<CommandTime> commands;
  uint64_t totalCycles = 0;
};

/// \p command as the replay sees it (cycles and port cycles from the table
/// of docs/npu-cycle-model.md on \p config); its dependencies are left empty.
TimedCommand timedCommand(const npu::Command &command,
                          const npu::TargetConfig &config);

/// Replays \p commands in stream order: the fetch unit dispatches one command
/// a cycle into its engine's FIFO (at most queues.fifo_depth not yet started,
/// else fetch stalls), and holds a CTRL command until every earlier command
/// has completed; each engine starts its FIFO's head when the engine is free
/// and the head's dependencies have completed; a DRAM transfer asks for the
/// shared port after dma.setup_cycles and gets it first come, first served
/// (lower engine number first on a tie). LMEM port stalls are not modelled.
/// Dependencies must name earlier commands.
StreamTiming replayStream(const std::vector<TimedCommand> &commands,
                          const npu::TargetConfig &config);

} // namespace kiln::npuhw

#endif // KILN_DIALECTS_NPUHW_ANALYSIS_STREAMTIMING_H
