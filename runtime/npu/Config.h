//===- Config.h - NPU-v1 target configuration -------------------*- C++ -*-===//
//
// The target configuration of the NPU-v1 accelerator: array sizes, engine
// timings, on-chip memory sizes. It is read from and written to JSON (the
// TARGET section of every .npub file) and hashed into the file header.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_CONFIG_H
#define KILN_RUNTIME_NPU_CONFIG_H

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npu {

/// The four on-chip memory regions of the LMEM address space, in address
/// order.
enum class LmemRegion : uint8_t { ACT = 0, WGT = 1, ACC = 2, PARAM = 3 };
/// Number of LMEM regions.
inline constexpr int kNumLmemRegions = 4;
/// Returns "ACT", "WGT", "ACC" or "PARAM".
const char *lmemRegionName(LmemRegion region);

/// Target configuration (docs/npu-isa.md, "Target configuration").
struct TargetConfig {
  /// MAC array ("mac.rows", "mac.cols"): rows x cols int8 MACs per cycle.
  uint32_t macRows = 16;
  uint32_t macCols = 16;
  /// Cycles to load one weight block ("mac.weight_load_cycles").
  uint32_t macWeightLoadCycles = 16;
  /// Pipeline fill and drain per command ("mac.pipeline_latency").
  uint32_t macPipelineLatency = 32;
  /// Command setup ("mac.setup_cycles").
  uint32_t macSetupCycles = 8;
  /// Vector unit elements per cycle ("vec.lanes") and setup.
  uint32_t vecLanes = 16;
  uint32_t vecSetupCycles = 8;
  /// The shared DRAM port: bandwidth, latency, burst ("dma.*").
  uint32_t dmaDramBytesPerCycle = 16;
  uint32_t dmaDramLatency = 200;
  uint32_t dmaBurstBytes = 64;
  /// DMA command setup ("dma.setup_cycles").
  uint32_t dmaSetupCycles = 16;
  /// LMEM-only DMA bandwidth ("dma.lmem_bytes_per_cycle").
  uint32_t dmaLmemBytesPerCycle = 64;
  /// Region sizes in KiB ("lmem.act_kib", ...).
  uint32_t lmemActKiB = 512;
  uint32_t lmemWgtKiB = 256;
  uint32_t lmemAccKiB = 128;
  uint32_t lmemParamKiB = 64;
  /// Commands per engine FIFO ("queues.fifo_depth").
  uint32_t fifoDepth = 8;
  /// Counting semaphores and DRAM regions.
  uint32_t semaphores = 32;
  uint32_t dramRegions = 8;
  /// Clock, for reporting time only.
  uint32_t clockMHz = 1000;

  /// Size in bytes of \p region.
  uint32_t regionSize(LmemRegion region) const;
  /// First LMEM byte address of \p region (regions are laid out back to back
  /// in the order ACT, WGT, ACC, PARAM starting at 0).
  uint32_t regionBase(LmemRegion region) const;
  /// Total LMEM bytes.
  uint32_t lmemSize() const;

  /// Checks ranges (sizes nonzero, LMEM within 24 bits, semaphores <= 255,
  /// regions <= 255, burst a power of two...).
  absl::Status validate() const;
  /// Canonical JSON text (keys in a fixed order, two-space indent).
  std::string toJson() const;
  /// Parses JSON; missing keys keep their defaults, unknown keys are errors.
  static absl::StatusOr<TargetConfig> fromJson(absl::string_view text);

  /// Sets the value of one key of docs/npu-isa.md §2 ("mac.rows", ...).
  /// Unknown keys and values above 2^32 - 1 are errors; the result is not
  /// validated (call validate() once every key is set).
  absl::Status set(absl::string_view key, uint64_t value);
  /// The value of one key, or an error naming the unknown key.
  absl::StatusOr<uint32_t> get(absl::string_view key) const;
  /// The keys of §2, in the order of the table.
  static std::vector<std::string> keys();

  /// The shipped configurations: "default" (the values above) and
  /// "realistic" (DRAM 4 bytes/cycle with 500 cycles latency, as Arm's Vela
  /// assumes for an Ethos-U65 with DRAM, and a 256 KiB ACT region, so large
  /// feature maps must be tiled with halos). Performance targets are
  /// measured in "realistic".
  static absl::StatusOr<TargetConfig> preset(absl::string_view name);
  /// The names preset() accepts, in a fixed order.
  static std::vector<std::string> presetNames();
};

/// FNV-1a 64-bit hash; the header's target-config hash is this function over
/// the bytes of the TARGET section.
uint64_t fnv1a64(const uint8_t *data, size_t size);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_CONFIG_H
