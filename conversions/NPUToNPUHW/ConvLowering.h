//===- ConvLowering.h - npu convolutions to npuhw commands ------*- C++ -*-===//
//
// The tiling and the command schedule of one int8 convolution-like layer
// (dense, depthwise, or a fully connected layer as a 1x1 convolution), with
// the decisions of the runtime's hand-built streams (runtime/npu/TiledConv):
// output-row bands with input halo rows, the image border padded by the MAC
// padding fields, output-channel groups sized to ACC, weights loaded once or
// streamed per group, two buffers per stage. Internal to convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_CONVLOWERING_H
#define KILN_CONVERSIONS_NPUTONPUHW_CONVLOWERING_H

#include "conversions/NPUToNPUHW/Lowering.h"
#include "runtime/npu/Config.h"
#include "runtime/npu/Packing.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npu_to_npuhw {

/// One int8 convolution-like layer with everything the commands need.
struct ConvLayer {
  bool depthwise = false;
  int64_t n = 1, h = 1, w = 1, cin = 1; ///< Input [n][h][w][cin].
  int64_t oh = 1, ow = 1, cout = 1;     ///< Output [n][oh][ow][cout].
  int64_t kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  int64_t inZp = 0, outZp = 0, clampMin = -128, clampMax = 127;
  /// Packed weights (the ISA's block layout) and per-channel records.
  std::vector<uint8_t> packedWeights;
  std::vector<npu::ChannelRecord> records;
};

/// The tiling chosen for a layer.
struct ConvTiling {
  int64_t rowsPerBand = 0, blocksPerGroup = 0;
  bool streamWeights = false;
};

/// Chooses the tallest band, then the widest channel group, whose double
/// buffers fit the LMEM regions of \p config; on failure \p why explains
/// which region is too small.
bool chooseTiling(const ConvLayer &layer, const npu::TargetConfig &config,
                  const TilingLimits &limits, ConvTiling &tiling,
                  std::string &why);

/// Where the layer's data lives in DRAM, and what its loads wait for.
struct ConvPlacement {
  unsigned inputRegion = kInputRegion, outputRegion = kOutputRegion;
  uint64_t inputOffset = 0, outputOffset = 0;  ///< 16-byte aligned.
  uint64_t weightOffset = 0, recordOffset = 0; ///< In r0.
  /// Tokens every DMA_LOAD of the layer depends on (OpLowering::after).
  llvm::SmallVector<mlir::Value> after;
};

/// Emits the commands of \p layer at \p builder's insertion point inside an
/// npuhw.stream: allocs, views, subviews and token-linked commands (no END).
/// Returns the tokens of the stores, which END should depend on.
llvm::SmallVector<mlir::Value> emitConvCommands(mlir::OpBuilder &builder,
                                                mlir::Location loc,
                                                const ConvLayer &layer,
                                                const ConvTiling &tiling,
                                                const ConvPlacement &place);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_CONVLOWERING_H
