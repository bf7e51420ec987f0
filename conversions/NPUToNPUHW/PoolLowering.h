//===- PoolLowering.h - npu pooling to VEC_POOL commands --------*- C++ -*-===//
//
// The tiling and the command schedule of one max, average or sum pooling
// layer, int8 or fp16: output-row bands with input halo rows (the windows of
// neighbouring bands overlap), the image border padded by VEC_POOL's padding
// fields, channel-block groups, two buffers per stage in LMEM.ACT so that
// DMA overlaps VEC; and `lowerPool`, the OpEmitter of npu.max_pool2d,
// npu.avg_pool2d and npu.sum_pool2d in a function of several ops.
// Internal to convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_POOLLOWERING_H
#define KILN_CONVERSIONS_NPUTONPUHW_POOLLOWERING_H

#include "conversions/NPUToNPUHW/Lowering.h"

#include "runtime/npu/Config.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"

#include <cstdint>
#include <string>

namespace kiln::npu_to_npuhw {

/// VEC_POOL's operations, in the order of its `op` field.
enum class PoolKind { Max, Avg, Sum };

/// One pooling layer with everything the commands need.
struct PoolLayer {
  PoolKind kind = PoolKind::Max;
  bool fp16 = false;                ///< f16 input, else int8.
  int64_t n = 1, h = 1, w = 1, c = 1; ///< Input [n][h][w][c].
  int64_t oh = 1, ow = 1;           ///< Output [n][oh][ow][c].
  int64_t kh = 1, kw = 1, sy = 1, sx = 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  /// The int8 clamp of MAX and AVG (stored values); unused otherwise.
  int64_t clampMin = -128, clampMax = 127;

  /// Bytes of one input element (1 or 2).
  int64_t inBytes() const { return fp16 ? 2 : 1; }
  /// Bytes of one output element: the input's, or 4 for SUM (i32, f32).
  int64_t outBytes() const { return kind == PoolKind::Sum ? 4 : inBytes(); }
};

/// The tiling chosen for a pooling layer.
struct PoolTiling {
  int64_t rowsPerBand = 0, blocksPerGroup = 0;
  /// Input and output buffers each: 2 (the next unit's load and the last
  /// unit's store overlap the pooling), or 1 when two do not fit ACT (every
  /// unit's load, pool and store run one after another).
  int64_t buffers = 2;
};

/// Chooses the channel group and band, whose input and output buffers fit
/// LMEM.ACT of \p config and whose VEC_POOL stays within the ISA's work
/// limit: per group width the tallest band, the width that loads the fewest
/// input rows; double buffers when any tile fits them, else single buffers
/// (a global pool of a large map). On failure \p why explains what does not
/// fit.
bool choosePoolTiling(const PoolLayer &layer, const npu::TargetConfig &config,
                      const TilingLimits &limits, PoolTiling &tiling,
                      std::string &why);

/// Where the layer's input and output live in DRAM: (region, byte offset)
/// of dense NHWC tensors, and what its commands wait for.
struct PoolPlacement {
  unsigned inputRegion = kInputRegion, outputRegion = kOutputRegion;
  uint64_t inputOffset = 0, outputOffset = 0; ///< 16-byte aligned.
  /// Tokens every DMA_LOAD (and the DMA_FILL of a band that reads only
  /// padding) of the layer depends on (OpLowering::after).
  llvm::SmallVector<mlir::Value> after;
};

/// Emits the commands of \p layer at \p builder's insertion point inside an
/// npuhw.stream: allocs, views, subviews and token-linked DMA_LOAD,
/// VEC_POOL and DMA_STORE commands (no END). Returns the tokens of the
/// stores, which END should depend on.
llvm::SmallVector<mlir::Value> emitPoolCommands(mlir::OpBuilder &builder,
                                                mlir::Location loc,
                                                const PoolLayer &layer,
                                                const PoolTiling &tiling,
                                                const PoolPlacement &place);

/// Emits npu.max_pool2d, npu.avg_pool2d or npu.sum_pool2d (an OpEmitter):
/// reads the window, tiles it (an error on \p op when nothing fits LMEM.ACT)
/// and emits its commands between the DRAM places of `lowering`.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerPool(mlir::Operation *op, OpLowering &lowering);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_POOLLOWERING_H
