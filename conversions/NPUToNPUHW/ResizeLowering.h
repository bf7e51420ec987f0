//===- ResizeLowering.h - npu up-sampling to DMA and MAC_DWCONV -*- C++ -*-===//
//
// `lowerResize`, the OpEmitter of npu.resize_nearest (strided DMA only) and
// npu.resize_bilinear (2x with half-pixel centres: four MAC_DWCONV phases
// over a border-replicated band, interleaved in the accumulators, one VEC
// and one store per band). Internal to convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_RESIZELOWERING_H
#define KILN_CONVERSIONS_NPUTONPUHW_RESIZELOWERING_H

#include "conversions/NPUToNPUHW/Lowering.h"

#include "runtime/npu/Config.h"

#include <cstdint>
#include <string>

namespace kiln::npu_to_npuhw {

/// The tiling of a 2x bilinear up-sampling: bands of `rowsPerBand` input
/// rows (all channels in ACT), groups of `blocksPerGroup` channel blocks in
/// the accumulators.
struct BilinearTiling {
  int64_t rowsPerBand = 0, blocksPerGroup = 0;
};

/// Chooses the tallest band whose two border-replicated input buffers and
/// two output buffers fit LMEM.ACT and whose two accumulator buffers hold
/// one channel block, then as many blocks per group as the accumulators
/// and LMEM.WGT hold; on failure \p why says what does not fit.
bool chooseBilinearTiling(int64_t h, int64_t w, int64_t c, int64_t elementSize,
                          const npu::TargetConfig &config,
                          const TilingLimits &limits, BilinearTiling &tiling,
                          std::string &why);

/// Emits npu.resize_nearest or npu.resize_bilinear (an OpEmitter) between
/// the DRAM places of `lowering`; an error on \p op when a tile does not
/// fit.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerResize(mlir::Operation *op, OpLowering &lowering);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_RESIZELOWERING_H
