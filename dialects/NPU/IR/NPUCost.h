//===- NPUCost.h - static cost estimates of npu operations ------*- C++ -*-===//
//
// The result of NPUCostOpInterface, and the shared formulas that the ops'
// implementations use (docs/npu-isa.md §8).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUCOST_H
#define KILN_DIALECTS_NPU_IR_NPUCOST_H

#include "runtime/npu/Config.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
class Operation;
} // namespace mlir

namespace kiln::npu {

/// The engine whose work bounds an estimate.
enum class CostBound : uint8_t { MAC, VEC, DRAM };

/// Returns "MAC", "VEC" or "DRAM".
llvm::StringRef costBoundName(CostBound bound);

/// A static cost estimate of one npu operation on one target. Every cycle
/// figure is the engine's work at its peak rate with no setup or latency, so
/// `estimate` is a lower bound of the operation's run time, not a
/// prediction.
struct CostEstimate {
  /// Multiply-accumulates of the operation itself (padding channels and
  /// padded window positions excluded).
  uint64_t usefulMacs = 0;
  /// MAC engine cycles: MAC_CONV at rows x cols MACs per cycle (fp16 at half
  /// rate) with channels rounded up to the array and at least
  /// mac.weight_load_cycles per weight block, or MAC_DWCONV at
  /// rows x cols / 8 MACs per cycle.
  uint64_t macCycles = 0;
  /// VEC engine cycles: the elements (channels padded to lane vectors) of
  /// every VEC pass at vec.lanes per cycle, a pooling window's positions
  /// each counting as one.
  uint64_t vecCycles = 0;
  /// Bytes every operand and the result move between DRAM and LMEM once.
  uint64_t dramBytes = 0;
  /// dramBytes at dma.dram_bytes_per_cycle.
  uint64_t dramCycles = 0;

  /// The largest of the three cycle figures: a lower bound of the run time.
  uint64_t estimate() const;
  /// The engine that sets estimate() (MAC on a tie with VEC or DRAM, then
  /// VEC).
  CostBound bound() const;
};

/// MAC cycles of a MAC_CONV-style operation: \p images times
/// f * kh * kw * ceil(16*inBlocks/rows) * ceil(16*outBlocks/cols) *
/// max(pixels, mac.weight_load_cycles), f = 2 for fp16.
uint64_t convMacCycles(const TargetConfig &config, uint64_t images,
                       uint64_t pixels, uint64_t kh, uint64_t kw,
                       uint64_t inChannels, uint64_t outChannels, bool fp16);
/// MAC cycles of a MAC_DWCONV-style operation: f * ceil(macs / (rows*cols/8))
/// with channels padded to lane vectors in \p paddedMacs.
uint64_t depthwiseMacCycles(const TargetConfig &config, uint64_t paddedMacs,
                            bool fp16);
/// VEC cycles of \p passes passes over \p pixels pixels of \p channels
/// channels (padded to 16), each element costing \p window element
/// operations.
uint64_t vecCycles(const TargetConfig &config, uint64_t pixels,
                   uint64_t channels, uint64_t passes, uint64_t window = 1);
/// DRAM cycles of \p bytes at dma.dram_bytes_per_cycle.
uint64_t dramCycles(const TargetConfig &config, uint64_t bytes);

/// The target configuration that applies to \p op: its `#npu.target` or its
/// closest ancestor's, else the "default" preset.
TargetConfig targetConfigFor(mlir::Operation *op);

} // namespace kiln::npu

#endif // KILN_DIALECTS_NPU_IR_NPUCOST_H
