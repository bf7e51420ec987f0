//===- NPUCost.h - static cost estimates of npu operations ------*- C++ -*-===//
//
// The result of NPUCostOpInterface, and the shared formulas that the ops'
// implementations use (docs/npu-cycle-model.md).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUCOST_H
#define KILN_DIALECTS_NPU_IR_NPUCOST_H

#include "runtime/npu/Config.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace mlir {
class Operation;
} // namespace mlir

namespace kiln::npu {

/// The module attribute npu-record-costs writes and the .npub exporter reads.
inline constexpr llvm::StringLiteral kLayerCostsAttrName = "npu.layer_costs";
/// The stream attribute convert-npu-to-npuhw writes when it keeps
/// intermediates in LMEM: an array with, per tensor, `bytes` and the
/// `producer` and `consumer` layer locations (as npu.layer_costs names
/// them). npuhw-estimate-layers takes their DRAM store and load out of those
/// layers' `dram` lower-bound terms, then drops the attribute.
inline constexpr llvm::StringLiteral kResidentTensorsAttrName =
    "npu.resident_tensors";

/// The engine whose work bounds an estimate.
enum class CostBound : uint8_t { MAC, VEC, DRAM };

/// Returns "MAC", "VEC" or "DRAM".
llvm::StringRef costBoundName(CostBound bound);

/// A static cost estimate of one npu operation on one target: a prediction
/// of the cycles its lowered commands take (`cycles`, from a model of the
/// lowering's schedule) and a lower bound (the largest of the useful MAC
/// time at the op's peak, the VEC time and the DRAM time of its tensors).
struct CostEstimate {
  /// Multiply-accumulates of the operation itself (padding channels and
  /// padded window positions excluded).
  uint64_t usefulMacs = 0;
  /// usefulMacs at the op's peak: rows x cols per cycle for dense work,
  /// rows x cols / 8 for depthwise, half of either in fp16.
  uint64_t usefulMacCycles = 0;
  /// The predicted cycles of the op's command stream, from its first
  /// command's start to its last command's end (NPUCostSchedule.cpp).
  uint64_t cycles = 0;
  /// MAC engine cycles: MAC_CONV at rows x cols MACs per cycle (fp16 at half
  /// rate) with channels rounded up to the array and at least
  /// mac.weight_load_cycles per weight block, or MAC_DWCONV at
  /// rows x cols / 8 MACs per cycle.
  uint64_t macCycles = 0;
  /// VEC engine cycles: the elements of every VEC pass in the lowering's
  /// layout (channels padded to lane vectors; element-wise ops without a
  /// channel broadcast flat, 16 elements per vector) at vec.lanes per
  /// cycle, a pooling window's positions each counting as one.
  uint64_t vecCycles = 0;
  /// Bytes every operand and the result move between DRAM and LMEM once.
  uint64_t dramBytes = 0;
  /// dramBytes at dma.dram_bytes_per_cycle.
  uint64_t dramCycles = 0;

  /// The prediction: `cycles`.
  uint64_t estimate() const { return cycles; }
  /// The lower bound: the largest of usefulMacCycles, vecCycles and
  /// dramCycles. No schedule of the op's work on the target is faster.
  uint64_t lowerBound() const;
  /// The engine that sets lowerBound() (MAC on a tie with VEC or DRAM, then
  /// VEC).
  CostBound bound() const;
};

/// A convolution-like layer as convert-npu-to-npuhw tiles it.
struct ConvShape {
  bool depthwise = false, fp16 = false;
  /// fp16: a bias (preloaded into ACC) and a clamp (a second VEC pass).
  bool bias = false, clamp = false;
  int64_t n = 1, h = 1, w = 1, cin = 1, oh = 1, ow = 1, cout = 1;
  int64_t kh = 1, kw = 1, sy = 1, dy = 1, pt = 0;
};
/// The predicted cycles of \p layer's commands (bands of output rows with
/// halos, output-channel groups, weights resident or streamed, two buffers
/// per stage), replayed on in-order engines with DMA setup, bursts, the
/// shared DRAM port and its latency.
uint64_t convScheduleCycles(const TargetConfig &config,
                            const ConvShape &layer);

/// A pooling layer as convert-npu-to-npuhw tiles it.
struct PoolShape {
  int64_t n = 1, h = 1, w = 1, c = 1, oh = 1, ow = 1, kh = 1, kw = 1;
  int64_t sy = 1, pt = 0, inBytes = 1, outBytes = 1;
};
/// The predicted cycles of \p layer's VEC_POOL bands and channel groups.
uint64_t poolScheduleCycles(const TargetConfig &config,
                            const PoolShape &layer);

/// An element-wise or unary op as convert-npu-to-npuhw bands it.
struct VecShape {
  /// Elements of the output.
  int64_t elements = 1;
  /// 0: the flat layout (16 elements per position); else the channel
  /// layout of a CHANNEL broadcast with this many channels per position.
  int64_t channels = 0;
  /// Bytes per element of each streamed input, and of the output.
  std::vector<int64_t> inBytes;
  int64_t outBytes = 1;
  /// Bytes per element of the broadcast vector kept in ACT (channel
  /// layout), else 0.
  int64_t broadcastBytes = 0;
  /// Loads before the first band (parameter block, table, broadcast
  /// vector, a scalar).
  std::vector<uint64_t> fixedLoads;
};
/// The predicted cycles of \p layer's bands: loads, one VEC command and a
/// store per band, two buffers per stage.
uint64_t vecScheduleCycles(const TargetConfig &config, const VecShape &layer);

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
/// VEC cycles of \p passes passes over \p elements elements in the flat
/// layout of the element-wise lowering: 16 elements per lane vector,
/// whatever the channel count.
uint64_t flatVecCycles(const TargetConfig &config, uint64_t elements,
                       uint64_t passes);
/// DRAM cycles of \p bytes at dma.dram_bytes_per_cycle.
uint64_t dramCycles(const TargetConfig &config, uint64_t bytes);

/// The target configuration that applies to \p op: its `#npu.target` or its
/// closest ancestor's, else the "default" preset.
TargetConfig targetConfigFor(mlir::Operation *op);

} // namespace kiln::npu

#endif // KILN_DIALECTS_NPU_IR_NPUCOST_H
