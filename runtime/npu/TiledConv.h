//===- TiledConv.h - Hand-built tiled convolution streams -------*- C++ -*-===//
//
// An int8 SAME convolution (dense 3x3 or 1x1, depthwise 3x3, stride 1) of
// any size, tiled for a given TargetConfig: output-row bands with input halo
// rows, output-channel groups sized to ACC, weights streamed to WGT when they
// do not fit, with a fenced (no overlap) or a double-buffered schedule. The
// tests and `kiln-npu-sim --layer_table` measure the cycle model with it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_TILEDCONV_H
#define KILN_RUNTIME_NPU_TILEDCONV_H

#include "runtime/npu/Format.h"
#include "runtime/npu/Packing.h"

#include "absl/status/statusor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npu {

/// The kind of convolution.
enum class ConvKind { Dense3x3, Dense1x1, Depthwise3x3 };

/// How the stream is scheduled.
enum class Schedule {
  /// One buffer per stage and a NOP fence after every command: DMA, MAC and
  /// VEC never overlap.
  Fenced,
  /// Two buffers per stage and semaphores between the stages: DMA overlaps
  /// MAC and VEC.
  DoubleBuffered,
};

/// A tiled convolution layer.
struct TiledConvOptions {
  ConvKind kind = ConvKind::Dense3x3;
  unsigned h = 32, w = 32, cin = 64;
  /// Output channels (must equal cin for depthwise).
  unsigned cout = 64;
  Schedule schedule = Schedule::DoubleBuffered;
  TargetConfig config;
  uint32_t seed = 1;
  /// Output rows per band and output channel blocks per group; 0 chooses the
  /// largest that fit.
  unsigned rowsPerBand = 0, blocksPerGroup = 0;
};

/// The stream, the data it was built from, and its tiling.
struct TiledConv {
  Program program;
  std::vector<uint8_t> input;     ///< r2 ("x", [h][w][cin] int8).
  std::vector<int8_t> x, weights; ///< weights HWIO (depthwise [kh][kw][c]).
  std::vector<ChannelRecord> records;
  int inZp = 0, outZp = 0;
  /// MACs the layer needs: h*w*cout*k*k*cin (depthwise: h*w*c*k*k).
  uint64_t layerMacs = 0;
  unsigned rowsPerBand = 0, blocksPerGroup = 0;
  bool weightsStreamed = false;
};

/// Builds the stream for "x" (r2) -> "y" (r3, [h][w][cout] int8, per-channel
/// requantised). Weights are nonzero int8 values, so a functional run's
/// useful MACs equal layerMacs. Fails if a band of one row and a group of
/// one channel block do not fit the LMEM regions of the configuration.
absl::StatusOr<TiledConv> buildTiledConv(const TiledConvOptions &options);

/// The expected output "y" of \p conv from the independent reference.
std::vector<int8_t> tiledConvReference(const TiledConv &conv,
                                       const TiledConvOptions &options);

/// "conv3x3", "conv1x1" or "dwconv3x3".
const char *convKindName(ConvKind kind);
/// Parses a name of convKindName.
bool parseConvKind(const std::string &name, ConvKind &kind);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_TILEDCONV_H
