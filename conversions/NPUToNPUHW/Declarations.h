//===- Declarations.h - the declarations of a lowered stream ----*- C++ -*-===//
//
// The ops that open an npuhw.stream written by convert-npu-to-npuhw: its
// DRAM regions, its constants and its IO tensors. Internal to
// convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_DECLARATIONS_H
#define KILN_CONVERSIONS_NPUTONPUHW_DECLARATIONS_H

#include "conversions/NPUToNPUHW/Lowering.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <vector>

namespace kiln::npu_to_npuhw {

/// Declares at \p b's insertion point the stream's regions (those with a
/// nonzero size: r0 holding \p constBytes, r1 \p scratchSize, r2
/// \p inputSize, r3 \p outputSize), its constants, and one `npuhw.io` per
/// argument and result of \p func (returned by \p ret) at its place in
/// \p places, named from `tf.entry_function` when present.
void declareStream(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::func::FuncOp func, mlir::func::ReturnOp ret,
                   const llvm::DenseMap<mlir::Value, DramPlace> &places,
                   const std::vector<uint8_t> &constBytes,
                   uint64_t scratchSize, uint64_t inputSize,
                   uint64_t outputSize);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_DECLARATIONS_H
