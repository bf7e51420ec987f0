//===- ConvLowering.h - npu convolutions to npuhw commands ------*- C++ -*-===//
//
// The tiling and the command schedule of one int8 or fp16 convolution-like
// layer (dense, depthwise, or a fully connected layer as a 1x1 convolution),
// with the decisions of the runtime's hand-built streams
// (runtime/npu/TiledConv): output-row bands with input halo rows, the image
// border padded by the MAC padding fields, output-channel groups sized to
// ACC, weights loaded once or streamed per group, two buffers per stage.
// Internal to convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_CONVLOWERING_H
#define KILN_CONVERSIONS_NPUTONPUHW_CONVLOWERING_H

#include "conversions/NPUToNPUHW/Lowering.h"
#include "dialects/NPU/IR/NPUPacking.h"
#include "runtime/npu/Config.h"
#include "runtime/npu/Packing.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npu_to_npuhw {

/// One DMA_LOAD per band of a packed input (ConvLayer::pieces).
using npu::PackPiece;

/// One int8 or fp16 convolution-like layer with everything the commands
/// need.
struct ConvLayer {
  bool depthwise = false;
  /// fp16: f16 activations and weights, f32 accumulators, the bias
  /// preloaded into ACC, VEC_UNARY CONVERT (and CLAMP) instead of
  /// VEC_REQUANT.
  bool fp16 = false;
  int64_t n = 1, h = 1, w = 1, cin = 1; ///< Input [n][h][w][cin].
  int64_t oh = 1, ow = 1, cout = 1;     ///< Output [n][oh][ow][cout].
  int64_t kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1;
  int64_t pt = 0, pb = 0, pl = 0, pr = 0;
  int64_t inZp = 0, outZp = 0, clampMin = -128, clampMax = 127;
  /// Packed weights (the ISA's block layout) and, for int8, per-channel
  /// records.
  std::vector<uint8_t> packedWeights;
  std::vector<npu::ChannelRecord> records;
  /// fp16: the f32 bias per output channel (empty: no bias), and the clamp
  /// bounds as fp16 bit patterns (hasClamp: emit VEC_UNARY CLAMP).
  std::vector<float> biasF32;
  bool hasClamp = false;
  uint16_t clampMinF16 = 0xfc00, clampMaxF16 = 0x7c00;

  /// The weights as read, HWIO bytes (fp16: little-endian bit patterns).
  std::vector<uint8_t> hwio;
  /// Channel packing (docs/npu-lowering.md, "Small input channels"): when
  /// not empty, the layer is the kh x 1 convolution of a packed image of
  /// w = ow pixels of cin lanes, loaded by these pieces from the DRAM input
  /// [n][h][srcW][srcC] whose windows are srcSx pixels apart (the original
  /// horizontal stride); packedWeights match it.
  std::vector<PackPiece> pieces;
  int64_t srcW = 0, srcC = 0, srcSx = 1;

  /// The last output block's weights (cout % 16 lanes) are stored compact
  /// in DRAM and padded back to 16 lanes by their load
  /// (chooseCompactWeights).
  bool compactLastBlock = false;

  /// Bytes per activation and weight element.
  int64_t elementBytes() const { return fp16 ? 2 : 1; }
  /// Whether the input is packed (pieces).
  bool packed() const { return !pieces.empty(); }
};

/// Packs the layer's weights from `hwio` into MAC blocks for its current
/// shape (kh, kw, cin, cout; the depthwise layout when depthwise).
void packWeights(ConvLayer &layer);

/// Rewrites \p layer as the kh x 1 convolution of a packed input
/// (PackPiece) when its few input channels waste the MAC array, its window
/// can be loaded exactly (no dilation or left padding along the width,
/// every window column either inside the image or a whole piece of
/// padding) and the estimate of the packed layer on \p config is below
/// the plain one's. \p residentInput: the input would otherwise stay in
/// LMEM (packing loads it from DRAM, so its producer must store it).
/// Returns whether it packed.
bool packSmallChannels(ConvLayer &layer, const npu::TargetConfig &config,
                       const TilingLimits &limits, bool residentInput);

/// Sets layer.compactLastBlock when storing a partial last output block's
/// weights compact saves more DRAM time than its second load costs on
/// \p config (npu::compactWeightSaving). Call after packSmallChannels.
void chooseCompactWeights(ConvLayer &layer, const npu::TargetConfig &config);

/// Packs fp16 HWIO weights (little-endian bit patterns) into MAC_CONV blocks
/// like npu::packConvWeights, but with -0.0 in the rows of the input
/// channels that pad the last input block: the input's padding lanes are
/// +0.0, so each of their products is -0.0, which leaves every f32
/// accumulator unchanged (+0.0 would turn a -0.0 sum into +0.0).
std::vector<uint8_t> packF16ConvWeights(const std::vector<uint8_t> &hwio,
                                        int64_t kh, int64_t kw, int64_t cin,
                                        int64_t cout);

/// The packed weights as they are stored in r0: the layer's packedWeights
/// with the rows of 16 output lanes of a partial last output block
/// (cout % 16 != 0) cut to the lanes that exist; the weight loads pad them
/// back to 16 lanes in WGT (docs/npu-lowering.md, "Partial output blocks").
std::vector<uint8_t> dramWeights(const ConvLayer &layer);

/// The layer's parameter bytes, stored in r0 after the weights: the packed
/// VEC_REQUANT records (int8), or the f32 biases padded with +0.0 to whole
/// 16-channel blocks (fp16; empty without a bias).
std::vector<uint8_t> packLayerParams(const ConvLayer &layer);

/// The tiling chosen for a layer.
struct ConvTiling {
  int64_t rowsPerBand = 0, blocksPerGroup = 0;
  bool streamWeights = false;
  /// Streamed weights: WGT buffers used alternately (1 when two buffers of
  /// one output block's weights do not fit).
  int64_t weightBuffers = 2;
  /// Bands after the first copy the halo rows the band before them loaded
  /// (LMEM to LMEM) instead of reading them from DRAM again: set when the
  /// layer's DRAM traffic, halos read again, outlasts its MAC work.
  bool copyHalo = false;
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
  uint64_t inputOffset = 0, outputOffset = 0; ///< 16-byte aligned.
  /// In r0: the packed weights, and the records (int8) or biases (fp16).
  uint64_t weightOffset = 0, recordOffset = 0;
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

/// The emitter (OpEmitter) of npu.conv2d, npu.depthwise_conv2d and
/// npu.fully_connected: reads the op into a ConvLayer, packs its weights and
/// parameters into r0, tiles and emits it (ConvReading.cpp).
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerConvLike(mlir::Operation *op, OpLowering &lowering);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_CONVLOWERING_H
