//===- Resident.h - intermediates kept in LMEM between two ops --*- C++ -*-===//
//
// An intermediate that only the next op reads, and that fits in ACT beside
// the working sets of the ops around it, need not go to DRAM and back
// (docs/npu-lowering.md, "LMEM-resident intermediates"). The driver gives
// such a tensor a place in the pseudo DRAM region `kResidentRegion`, so that
// the emitters, the DRAM hazards and the tiling estimate treat it like any
// other tensor; once every op is emitted, `makeResident` gives each of them
// an `npuhw.alloc` in ACT, turns the producer's DMA_STOREs into it into
// LMEM-to-LMEM DMA_LOADs and the consumer's DMA_LOADs from it into loads
// with an LMEM source. No command touches DRAM for it: its bytes cross
// LMEM at `dma.lmem_bytes_per_cycle` instead of the DRAM port twice.
// Internal to convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_RESIDENT_H
#define KILN_CONVERSIONS_NPUTONPUHW_RESIDENT_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>

namespace kiln::npu_to_npuhw {

/// One intermediate kept in ACT: its bytes at `offset` of the pseudo region
/// `kResidentRegion` while the ops are emitted.
struct ResidentTensor {
  /// The tensor (the producer's result).
  mlir::Value value;
  uint64_t offset = 0, bytes = 0;
  /// Index of the producer among the function's ops (the consumer is the
  /// next one).
  unsigned producer = 0;
};

/// True if \p value, the result of op \p producer among \p ops, is read
/// only by op \p producer + 1 (one or more of its operands) and is not a
/// result of the function: the tensors that may stay in LMEM.
bool onlyReadByNext(mlir::Value value, unsigned producer,
                    llvm::ArrayRef<mlir::Operation *> ops,
                    mlir::Operation *terminator);

/// Rewrites the commands of \p block that touch the pseudo region
/// `kResidentRegion`: each tensor of \p tensors gets an ACT `npuhw.alloc`,
/// views of it become subviews of that alloc, DMA_STOREs into it become
/// LMEM-to-LMEM DMA_LOADs (with `dst_run = src_run`) and DMA_LOADs from it
/// read LMEM. The token of each replaced store maps to its load in
/// \p replaced. Changes nothing and returns the index of a tensor that
/// cannot stay in LMEM when one does not: an access not 16-byte aligned
/// within it, an LMEM-side stride that is not a multiple of 16, a store
/// from a region other than ACT (DMA_IN reads only ACT), a view beyond the
/// tensor, or a use other than a DMA.
std::optional<unsigned>
makeResident(mlir::Block &block, llvm::ArrayRef<ResidentTensor> tensors,
             llvm::DenseMap<mlir::Value, mlir::Value> &replaced);

/// Records \p tensors on \p stream as npu::kResidentTensorsAttrName
/// (NPUCost.h): per tensor its bytes and the locations of its producer and
/// consumer among \p ops, named as npu-record-costs names them, so that the
/// layers' lower bounds stop charging its DRAM store and load.
void recordResident(mlir::Operation *stream,
                    llvm::ArrayRef<ResidentTensor> tensors,
                    llvm::ArrayRef<mlir::Operation *> ops);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_RESIDENT_H
