//===- Lowering.h - the per-op emitter interface of npu -> npuhw -*- C++ -*-===//
//
// What convert-npu-to-npuhw hands the emitter of one npu op, and the small
// helpers emitters share. The driver (NPUToNPUHW.cpp) places every tensor of
// the function in DRAM (arguments in the input region, results in the output
// region, intermediates in the scratch region r1, constants in r0), then
// calls one emitter per op in program order; each emitter loads its operands
// from their DRAM places, computes in LMEM and stores its result to its
// place. Adding a lowering is: write an `OpEmitter` in its own file (building
// its commands with LoweringUtils.h's `CommandEmitter`) and add one `.Case`
// to `emitterFor` in NPUToNPUHW.cpp.
//
// Internal to convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_LOWERING_H
#define KILN_CONVERSIONS_NPUTONPUHW_LOWERING_H

#include "runtime/npu/Config.h"

#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace kiln::npu_to_npuhw {

/// DRAM region numbers of the streams the pass writes.
enum DramRegion : unsigned {
  kConstRegion = 0,   ///< r0: constants (the stream's CONST section).
  kScratchRegion = 1, ///< r1: intermediate tensors.
  kInputRegion = 2,   ///< r2: the function's arguments.
  kOutputRegion = 3,  ///< r3: the function's results.
  /// Not a region of the stream either: the cascaded intermediates
  /// (Cascade.h), rewritten into rolling line buffers in ACT.
  kCascadeRegion = 6,
  /// Not a region of the stream: the intermediates kept in LMEM
  /// (Resident.h) have their places here while the ops are emitted, and
  /// the driver rewrites every access of it into ACT before it finishes.
  kResidentRegion = 7,
};

/// Where a tensor lives: its dense row-major bytes start at `offset` in
/// DRAM region `region`.
struct DramPlace {
  unsigned region = kConstRegion;
  uint64_t offset = 0;
};

/// The bytes of DRAM region r0 as emitters append to them.
class ConstantPool {
public:
  /// Appends \p bytes at the next 64-byte aligned offset and returns that
  /// offset.
  uint64_t append(llvm::ArrayRef<uint8_t> bytes);
  /// Everything appended so far (the last piece is not padded).
  const std::vector<uint8_t> &bytes() const { return data; }
  /// Drops what was appended after the pool held \p size bytes (the
  /// constants of an emission that is being redone).
  void truncate(size_t size) { data.resize(size); }

private:
  std::vector<uint8_t> data;
};

/// Limits on the tiling (0: no limit), from the pass options.
struct TilingLimits {
  int64_t maxRowsPerBand = 0, maxBlocksPerGroup = 0;
};

/// Everything the emitter of one npu op gets from the driver.
struct OpLowering {
  /// Insertion point inside the npuhw.stream, after the previous op's
  /// commands.
  mlir::OpBuilder &builder;
  /// The location to give the op's commands (a NameLoc of the op's name).
  mlir::Location loc;
  /// The target the stream is compiled for, with the LMEM regions cut to
  /// the op's budget: tile to these sizes.
  npu::TargetConfig config;
  TilingLimits limits;
  /// The DRAM place of each operand, indexed like `op->getOperands()`;
  /// nullopt for a constant operand, whose bytes the emitter packs as it
  /// needs into `constants` (`placeConstant` places it as it is).
  llvm::SmallVector<std::optional<DramPlace>> operands;
  /// The DRAM place of each result.
  llvm::SmallVector<DramPlace> results;
  /// Tokens that every command of the op reading DRAM (operands and
  /// constants alike; DMA_FILL too) must depend on: the stores of the op
  /// whose LMEM buffers the op's may share bytes with (two ops back, or the
  /// previous op when one of the two uses whole regions), so that every
  /// LMEM access of that op happens before any of this one. The driver adds
  /// the DRAM dependencies (on the stores that wrote the bytes a load
  /// reads) itself, per command (Overlap.h).
  llvm::SmallVector<mlir::Value> after;
  /// DRAM region r0.
  ConstantPool &constants;
};

/// A per-op emitter. It checks that it can lower \p op (emitting an error on
/// \p op and returning failure otherwise), emits its commands at
/// `lowering.builder`, and returns the tokens of the stores that write its
/// results (END and the ops that read the results depend on them). An
/// emitter that fails may leave commands behind: the pass then fails.
using OpEmitter = mlir::FailureOr<llvm::SmallVector<mlir::Value>> (*)(
    mlir::Operation *op, OpLowering &lowering);

/// The constant behind \p value (through quant.scast), or null.
mlir::DenseElementsAttr constantElements(mlir::Value value);
/// The dense little-endian bytes of \p attr (integers at their storage
/// width, floats as their bits).
std::vector<uint8_t> rawBytes(mlir::DenseElementsAttr attr);
/// Bytes of one element of \p type (a quantised type counts its storage).
int64_t elementBytes(mlir::Type type);
/// The operand \p index of \p op in DRAM: its planned place, or for a
/// constant its raw bytes appended to r0.
DramPlace placeOperand(mlir::Operation *op, unsigned index,
                       OpLowering &lowering);

/// \p offset rounded up to a multiple of 16.
inline uint64_t align16(uint64_t offset) { return (offset + 15) / 16 * 16; }

/// First-fit placement of the intermediates in r1: a tensor may reuse the
/// bytes of one whose last reader comes before the op that defines it (its
/// stores then wait for those reads: DramHazards). Tensors are placed in
/// the order of the ops that define them.
class ScratchPlan {
public:
  /// Places \p bytes defined by op \p def and last read by op \p lastUse.
  uint64_t place(uint64_t bytes, unsigned def, unsigned lastUse);
  /// The bytes r1 needs.
  uint64_t size = 0;

private:
  struct Block {
    uint64_t offset, bytes;
    unsigned lastUse;
  };
  llvm::SmallVector<Block> live;
};

/// \p value without the quant.scast ops around it.
mlir::Value stripCasts(mlir::Value value);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_LOWERING_H
