//===- Overlap.h - let the ops of one stream run at the same time -*- C++ -*-===//
//
// What convert-npu-to-npuhw needs so that consecutive ops of a function
// overlap (docs/npu-lowering.md, "Ops overlap"): the DRAM hazards between
// ops by byte range (a load waits for the last store that wrote a byte it
// reads, a store for the last load that read a byte it overwrites), and
// the LMEM budget of an op (half of each region, so that two consecutive
// ops, placed at opposite ends of the regions, fit together). Internal to
// convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_OVERLAP_H
#define KILN_CONVERSIONS_NPUTONPUHW_OVERLAP_H

#include "runtime/npu/Config.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"

#include <array>
#include <cstdint>
#include <vector>

namespace kiln::npu_to_npuhw {

/// The DMA commands of the ops emitted so far, by the DRAM bytes they touch.
class DramHazards {
public:
  /// Adds to each DMA_LOAD and DMA_STORE among the ops [begin, end) (one
  /// npu op's commands) a dependency on the latest DMA command of an
  /// earlier op that touches a byte it touches with a conflicting access: a
  /// load waits for the latest store that wrote a byte it reads (read after
  /// write), a store for the latest load that read a byte it writes (write
  /// after read, where scratch space is reused). DMA_IN and DMA_OUT run in
  /// order, so the latest such command orders all earlier ones, and stores
  /// are ordered among themselves. Then records the op's DMA commands.
  void link(mlir::Block::iterator begin, mlir::Block::iterator end);

private:
  struct Access {
    unsigned region;
    uint64_t lo, hi;
    mlir::Value token;
  };
  std::vector<Access> loads, stores;
};

/// Bytes of LMEM an op's buffers occupy, per region (npu::LmemRegion order),
/// each rounded up to the 16-byte alignment.
using LmemUse = std::array<uint64_t, npu::kNumLmemRegions>;

/// The sum of the `npuhw.alloc`s among [begin, end), per region.
LmemUse lmemUse(mlir::Block::iterator begin, mlir::Block::iterator end);

/// \p config with each LMEM region cut to \p bytes (whole KiB, rounded
/// down): the budget of an op that runs at the same time as a neighbour.
npu::TargetConfig budget(const npu::TargetConfig &config,
                         const LmemUse &bytes);

/// The bytes the DMA commands among [begin, end) move over the DRAM port:
/// per command, its DRAM-side runs in transfer order, runs that continue
/// each other merged, each piece rounded out to whole bursts of \p burst
/// bytes (docs/npu-isa.md, "DRAM bursts"). What a tiling costs in DRAM time.
uint64_t dramBurstBytes(mlir::Block::iterator begin, mlir::Block::iterator end,
                        uint64_t burst);

/// True if \p use fits the regions of \p budget.
bool fitsBudget(const LmemUse &use, const npu::TargetConfig &budget);

/// Marks the `npuhw.alloc`s among [begin, end) `from_top`.
void placeFromTop(mlir::Block::iterator begin, mlir::Block::iterator end);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_OVERLAP_H
