//===- CPULowerStridedCopies.cpp - copies without memrefCopy ----*- C++ -*-===//
//
// kiln-cpu-lower-strided-copies: rewrites the memref.copy ops that
// finalize-memref-to-llvm would lower to a call to MLIR's runtime function
// memrefCopy into linalg.copy, so compiled objects need only the C library.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPULOWERSTRIDEDCOPIESPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// True when finalize-memref-to-llvm copies `type` with a memcpy (the
/// condition of its memref.copy lowering).
bool isCopiedByMemcpy(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && (memref.getLayout().isIdentity() ||
                    memref::isStaticShapeAndContiguousRowMajor(memref));
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnCPULowerStridedCopiesPass final
    : kiln::impl::KilnCPULowerStridedCopiesPassBase<
          KilnCPULowerStridedCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      Type source = copy.getSource().getType();
      Type target = copy.getTarget().getType();
      // Unranked copies have no linalg form; the LLVM contract check reports
      // the memrefCopy call they become.
      if (!isa<MemRefType>(source) || !isa<MemRefType>(target))
        return;
      if (isCopiedByMemcpy(source) && isCopiedByMemcpy(target))
        return;
      copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};

} // namespace
