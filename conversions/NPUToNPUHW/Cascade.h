//===- Cascade.h - row bands of one op feeding the next in ACT --*- C++ -*-===//
//
// Cascading (docs/npu-lowering.md, "Cascading"): an intermediate too large
// to stay whole in ACT, written by a convolution and read only by the next
// convolution, lives in a rolling line buffer of N rows in ACT instead of
// DRAM. The producer copies each output band into the ring (slot = row mod
// N) and the consumer loads its input bands (with their halo rows) from it
// as soon as the rows exist, so the two ops' commands interleave in the
// stream. The driver gives such a tensor a place in the pseudo DRAM region
// `kCascadeRegion` while the ops are emitted (so the emitters and the DRAM
// hazards see an ordinary tensor), emits the ops of a cascade group (two or
// three ops joined by cascaded tensors) with shares of LMEM and a common
// band height, then `makeCascades` rewrites the accesses into the ring,
// interleaves the consumer's commands into the producer's and checks, by
// replaying DMA_IN's order, that every load reads the rows it expects.
// Internal to convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_CASCADE_H
#define KILN_CONVERSIONS_NPUTONPUHW_CASCADE_H

#include "runtime/npu/Config.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace kiln::npu_to_npuhw {

/// The discardable attribute that tags each command of a cascade group's
/// ops with the op's index while the stream is built (removed by
/// `makeCascades`).
inline constexpr llvm::StringLiteral kCascadeOpAttr = "kiln.cascade_op";

/// One intermediate kept in a ring of rows in ACT.
struct CascadedTensor {
  /// The tensor (the producer's result, NHWC).
  mlir::Value value;
  /// Its place in the pseudo region `kCascadeRegion` and its dense bytes.
  uint64_t offset = 0, bytes = 0;
  /// Index of the producer among the function's ops (the consumer is the
  /// next one).
  unsigned producer = 0;
  /// Rows of all images (n * h), pixels per row, channels, element bytes.
  int64_t rows = 0, width = 0, channels = 0, elementBytes = 1;
  /// Rows the ring holds.
  int64_t ringRows = 0;
  /// Dense bytes of a row in DRAM layout, and in the ring (channels padded
  /// to 16, so that every LMEM-side stride is a multiple of 16).
  int64_t rowBytes() const { return width * channels * elementBytes; }
  int64_t ringRowBytes() const {
    return width * ((channels + 15) / 16 * 16) * elementBytes;
  }
  int64_t ringBytes() const { return ringRows * ringRowBytes(); }
};

/// Ops [first, last] joined by cascaded tensors: they are emitted with the
/// same band height and LMEM shares that fit together beside the rings.
struct CascadeGroup {
  unsigned first = 0, last = 0;
  /// The band height of every op of the group.
  int64_t rowsPerBand = 0;
  /// The ACT bytes of each op (index k - first).
  llvm::SmallVector<uint64_t> act;
};

/// True if \p value, the result of op \p producer among \p ops, may be
/// cascaded: read only by the next op (not a result), both ops
/// `npu.conv2d` or `npu.depthwise_conv2d`, and its rows 16-byte multiples
/// (so that no band load of the consumer starts before the rows it needs).
bool cascadable(mlir::Value value, unsigned producer,
                llvm::ArrayRef<mlir::Operation *> ops,
                mlir::Operation *terminator);

/// Forms the cascade groups from \p candidates (cascadable tensors, by
/// producer): runs of at most two consecutive tensors, each with the
/// tallest band (at most \p maxRows rows when nonzero) whose rings and
/// double-buffered tiles fit ACT less the \p reservedAct bytes of each op
/// and whose accumulators fit a share of ACC. A tensor whose pair fits no
/// band is dropped. Fills \p tensors (ring sizes) and \p groups.
void planCascades(llvm::ArrayRef<mlir::Operation *> ops,
                  llvm::ArrayRef<CascadedTensor> candidates,
                  const npu::TargetConfig &config,
                  llvm::ArrayRef<uint64_t> reservedAct, int64_t maxRows,
                  llvm::SmallVectorImpl<CascadedTensor> &tensors,
                  llvm::SmallVectorImpl<CascadeGroup> &groups);

/// Rewrites the accesses of \p tensors (pseudo region `kCascadeRegion`) in
/// \p block, whose cascade groups' commands carry `kCascadeOpAttr`: each
/// tensor gets an ACT ring before its producer's first command; a
/// DMA_STORE of rows into it becomes LMEM-to-LMEM DMA_LOADs into the ring
/// (two where the rows wrap), moved down to the next store into an LMEM
/// tensor or the first use of its token; a DMA_LOAD from it reads the ring
/// (two where the rows wrap). Then the consumer's commands move up, each
/// just after the last of its operands' definitions. The token of each
/// replaced command maps to its last replacement in \p replaced. Returns
/// the index of a tensor that cannot be cascaded (an access that is not
/// whole rows, more rows than the ring holds, or a load that would read a
/// slot overwritten or not yet written in DMA_IN order); the block is then
/// left half rewritten (the driver emits it again). Removes the tags.
std::optional<unsigned>
makeCascades(mlir::Block &block, llvm::ArrayRef<CascadedTensor> tensors,
             llvm::DenseMap<mlir::Value, mlir::Value> &replaced);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_CASCADE_H
