//===- NPUHWOps.h - npuhw operations ----------------------------*- C++ -*-===//
//
// The operation classes of the npuhw dialect and the command interface.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_IR_NPUHWOPS_H
#define KILN_DIALECTS_NPUHW_IR_NPUHWOPS_H

#include "dialects/NPUHW/IR/NPUHWDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::npuhw {
/// The value of semaphore attribute \p name ("wait0", ...) of \p op, or
/// nullopt when absent (none).
std::optional<unsigned> getSemaphoreField(mlir::Operation *op,
                                          llvm::StringRef name);
/// Sets semaphore attribute \p name of \p op, or removes it for nullopt.
void setSemaphoreField(mlir::Operation *op, llvm::StringRef name,
                       std::optional<unsigned> id);
/// Checks that \p op's semaphore fields name semaphores of its target.
mlir::LogicalResult verifySemaphoreFields(mlir::Operation *op);
} // namespace kiln::npuhw

#include "dialects/NPUHW/IR/NPUHWInterfaces.h.inc"

#define GET_OP_CLASSES
#include "dialects/NPUHW/IR/NPUHWOps.h.inc"

namespace kiln::npuhw {

/// The address a memref type names: the LMEM region (or DRAM region) and the
/// byte offset in it. Fails when the layout is not static strided or the
/// memory space is not an NPU one.
struct MemRefAddress {
  bool dram = false;
  /// LMEM region (when !dram).
  LmemRegion lmem = LmemRegion::act;
  /// DRAM region (when dram).
  unsigned dramRegion = 0;
  /// Byte offset from the region's first byte.
  int64_t byteOffset = 0;
  /// Bytes from the first to one past the last byte the memref touches.
  int64_t byteExtent = 0;
};
/// The address of \p type, or nullopt if its layout is not static strided
/// with non-negative strides or its memory space is not an NPU one.
std::optional<MemRefAddress> addressOf(mlir::MemRefType type);

} // namespace kiln::npuhw

#endif // KILN_DIALECTS_NPUHW_IR_NPUHWOPS_H
