//===- Simulator.h - The NPU-v1 reference simulator -------------*- C++ -*-===//
//
// The C++ API of the simulator: load a .npub buffer (or a Program built in
// memory), bind DRAM regions, run. A run executes every command functionally,
// times it with the analytical cycle model, detects deadlocks (reporting each
// engine's blocked command and the semaphore values), optionally checks for
// races and records a Chrome trace-event JSON trace.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_SIMULATOR_H
#define KILN_RUNTIME_NPU_SIMULATOR_H

#include "runtime/npu/Format.h"
#include "runtime/npu/MacCount.h"
#include "runtime/npu/RaceChecker.h"
#include "runtime/npu/Verifier.h"

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npu {

/// Options of one run.
struct RunOptions {
  /// Track happens-before and report unsynchronised access pairs.
  bool raceCheck = false;
  /// Record the Chrome trace-event JSON in RunResult::traceJson.
  bool trace = false;
  /// Execute commands (off: timing only, memories untouched).
  bool functional = true;
  /// A run that has not ended by this cycle fails (a safety net; verified
  /// streams always end).
  uint64_t maxCycles = uint64_t(1) << 48;
};

/// Per-engine figures, in cycles.
struct EngineStats {
  uint64_t commands = 0;
  uint64_t busy = 0;           ///< Executing (DMA: excluding port waits).
  uint64_t stallSemaphore = 0; ///< Head command waiting on a semaphore.
  uint64_t stallDram = 0;      ///< DMA waiting for the shared DRAM port.
  /// Extra cycles charged because LMEM region ports were oversubscribed
  /// (docs/npu-cycle-model.md, "LMEM ports").
  uint64_t stallLmem = 0;
  uint64_t idle = 0;           ///< Nothing to do: total - the rest.
};

/// Statistics of one run.
struct Stats {
  uint64_t totalCycles = 0;
  EngineStats engines[kNumEngines];
  /// Cycles the fetch unit could not dispatch because the target engine's
  /// FIFO was full (CTRL commands waiting at the fetch unit are not counted).
  uint64_t fetchStall = 0;
  std::vector<uint64_t> dramBytesRead, dramBytesWritten; ///< Per region.
  uint64_t lmemBytesRead[kNumLmemRegions] = {};
  uint64_t lmemBytesWritten[kNumLmemRegions] = {};
  uint64_t dramPortBusy = 0; ///< Cycles the DRAM port transferred.
  /// Multiply-accumulates that can change a result (commandUsefulMacs):
  /// counted in functional runs only, 0 in timing-only runs.
  uint64_t usefulMacs = 0;
  /// Multiply-accumulates the array performs, padding channels included.
  uint64_t paddedMacs = 0;
  /// The MAC_DWCONV part of usefulMacs and paddedMacs.
  uint64_t depthwiseUsefulMacs = 0, depthwisePaddedMacs = 0;
  /// False for a timing-only run: the useful figures are then not known.
  bool usefulMacsCounted = false;
  /// usefulMacs / (totalCycles * rows * cols): the headline figure.
  double macUtilisation = 0;
  /// paddedMacs / (totalCycles * rows * cols).
  double paddedMacUtilisation = 0;
  /// depthwiseUsefulMacs / (totalCycles * rows * cols / 8): the share of the
  /// depthwise peak, meaningful for a stream of depthwise work.
  double depthwiseUtilisation = 0;
  /// Microseconds at the configured clock.
  double microseconds = 0;
  /// A human-readable table.
  std::string toString() const;
};

/// When one command ran.
struct CommandTiming {
  uint64_t dispatch = 0, start = 0, end = 0;
};

/// The outcome of a successful run.
struct RunResult {
  Stats stats;
  std::vector<CommandTiming> timings;
  /// Useful MACs of each command (0 but for MAC commands, and 0 throughout
  /// a timing-only run): what per-layer reports attribute to a layer.
  std::vector<uint64_t> usefulMacs;
  std::vector<Race> races;
  std::string traceJson;
};

/// The simulator of one program with its bound DRAM regions.
class Simulator {
public:
  /// Verifies \p program (rejecting it with the verifier's message). DRAM
  /// regions larger than \p maxRegionBytes are refused rather than
  /// allocated.
  static absl::StatusOr<Simulator>
  create(Program program, const VerifyOptions &verify = {},
         uint64_t maxRegionBytes = kDefaultMaxRegionBytes);
  /// Parses and verifies a .npub buffer.
  static absl::StatusOr<Simulator>
  load(absl::Span<const uint8_t> bytes, const VerifyOptions &verify = {},
       uint64_t maxRegionBytes = kDefaultMaxRegionBytes);
  /// The default limit on one DRAM region (1 GiB).
  static constexpr uint64_t kDefaultMaxRegionBytes = uint64_t(1) << 30;

  const Program &program() const { return prog; }

  /// Binds \p data to DRAM \p region; it must hold at least the declared
  /// size. r0 is bound to the CONST section and declared regions to zeroed
  /// buffers until bound otherwise.
  absl::Status bindRegion(unsigned region, std::vector<uint8_t> data);
  /// The current contents of DRAM \p region (empty if not bound).
  absl::Span<const uint8_t> region(unsigned region) const;

  /// Copies \p data into the IO tensor \p name (an input); sizes must match.
  absl::Status setInput(absl::string_view name, absl::Span<const uint8_t> data);
  /// Reads the IO tensor \p name.
  absl::StatusOr<std::vector<uint8_t>> getOutput(absl::string_view name) const;

  /// Runs the stream from the start (LMEM and semaphores reset; DRAM keeps
  /// its contents). Deadlocks, runtime errors and the cycle limit are
  /// errors; races are reported in the result.
  absl::StatusOr<RunResult> run(const RunOptions &options = {});

private:
  explicit Simulator(Program program);
  const IoDecl *findIo(absl::string_view name) const;

  Program prog;
  std::vector<std::vector<uint8_t>> dram;
};

/// The cycles command \p command occupies its engine, excluding DRAM port
/// waits (DMA: setup + transfer + latency). Exposed for golden tests.
uint64_t commandCycles(const Command &command, const TargetConfig &config);

/// Bytes \p command moves in each LMEM region over its busy cycles, as the
/// LMEM port rule counts them (docs/npu-cycle-model.md, "LMEM ports").
void commandLmemBytes(const Command &command, const TargetConfig &config,
                      uint64_t bytes[kNumLmemRegions]);

/// Width in bytes per cycle of each LMEM region's port: twice
/// dma.lmem_bytes_per_cycle.
uint64_t lmemPortBytesPerCycle(const TargetConfig &config);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_SIMULATOR_H
