//===- NPUSim.cpp - fuzz the NPU simulator on verified streams ------------===//
//
// Input: a .npub file, its file size, CRC and target hash made to match
// (NpubRepair.h). A program that loads and verifies (Simulator::load)
// runs on the simulator with its inputs zeroed, the race checker on, and a
// cap of kMaxRunCycles cycles. The work per input is bounded before the run:
// DRAM regions above kMaxRegionBytes are refused at load, and programs whose
// commands add up to more than kMaxCommandCycles engine cycles or kMaxRunMacs
// padded MACs are skipped (a verified stream may legally ask for 2^34 MACs).
//
//===----------------------------------------------------------------------===//

#include "fuzz/NpubRepair.h"
#include "runtime/npu/MacCount.h"
#include "runtime/npu/Simulator.h"

#include <cstddef>
#include <cstdint>

namespace {
constexpr uint64_t kMaxRegionBytes = uint64_t(1) << 20;
constexpr uint64_t kMaxCommandCycles = uint64_t(1) << 22;
constexpr uint64_t kMaxRunMacs = uint64_t(1) << 24;
constexpr uint64_t kMaxRunCycles = uint64_t(1) << 24;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace kiln::npu;
  std::vector<uint8_t> bytes = kiln::fuzz::repairNpub(data, size);
  absl::StatusOr<Simulator> simulator = Simulator::load(
      absl::MakeConstSpan(bytes), VerifyOptions(), kMaxRegionBytes);
  if (!simulator.ok())
    return 0;
  const Program &program = simulator->program();
  uint64_t cycles = 0, macs = 0;
  for (const Command &command : program.commands) {
    uint64_t commandCost = commandCycles(command, program.config);
    uint64_t commandMacs = commandPaddedMacs(command);
    if (commandCost > kMaxCommandCycles - cycles ||
        commandMacs > kMaxRunMacs - macs)
      return 0;
    cycles += commandCost;
    macs += commandMacs;
  }
  RunOptions options;
  options.raceCheck = true;
  options.maxCycles = kMaxRunCycles;
  absl::StatusOr<RunResult> result = simulator->run(options);
  (void)result;
  return 0;
}
