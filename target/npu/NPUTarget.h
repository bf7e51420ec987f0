//===- NPUTarget.h - npuhw streams <-> .npub programs -----------*- C++ -*-===//
//
// Converts an npuhw.stream into the runtime's Program (and so, through the
// runtime's writer, into .npub bytes) and a Program back into an npuhw
// stream. Command fields go through the runtime's field table
// (kiln::npu::fieldsOf) and the classification the dialect is generated
// from (dialects/NPUHW/IR/FieldClasses.h).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TARGET_NPU_NPUTARGET_H
#define KILN_TARGET_NPU_NPUTARGET_H

#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "runtime/npu/Format.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/raw_ostream.h"

namespace kiln::npuhw {

/// The npuhw ops of an exported stream, by command index.
using CommandOps = llvm::SmallVector<mlir::Operation *>;

/// Converts \p stream into a runtime program: TARGET from the stream's
/// target, REGIONS, CONST, IO, one command per command op (every memref
/// operand must be an npuhw.view), and a DEBUG entry per distinct
/// (op name, location) of the commands' NameLocs, tagged 1, 2, ... in sorted
/// order. Errors are emitted on the offending op. \p commandOps, when given,
/// receives the op of every command.
mlir::FailureOr<npu::Program> exportStream(StreamOp stream,
                                           CommandOps *commandOps = nullptr);

/// Writes the single npuhw.stream of \p module as .npub bytes.
mlir::LogicalResult writeNpub(mlir::ModuleOp module, llvm::raw_ostream &os);

/// Builds a module holding `npuhw.stream @<name>` from \p program, with the
/// target as an `npu.target` attribute of the module. Views are created for
/// every operand (one per distinct type, in first-use order), tokens from
/// the semaphore fields (the k-th wait on a semaphore depends on the k-th
/// signal), and locations from the DEBUG section.
mlir::OwningOpRef<mlir::ModuleOp> importProgram(const npu::Program &program,
                                                mlir::MLIRContext *context,
                                                llvm::StringRef name = "main");

/// Reads .npub bytes (readProgram), verifies them as the runtime does before
/// it runs a stream (verifyProgram) and imports them; errors are emitted at
/// an unknown location.
mlir::OwningOpRef<mlir::ModuleOp> readNpub(llvm::StringRef bytes,
                                           mlir::MLIRContext *context);

} // namespace kiln::npuhw

#endif // KILN_TARGET_NPU_NPUTARGET_H
