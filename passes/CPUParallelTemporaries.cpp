//===- CPUParallelTemporaries.cpp - tile buffers on the stack ---*- C++ -*-===//
//
// kiln-cpu-parallel-temporaries: a buffer that bufferization allocates in
// the body of an scf.forall (a tile's temporary, made again by each
// iteration) would be a malloc per iteration on whichever thread runs it, and
// would keep kiln-cpu-caller-buffers from giving the entry its
// allocation-free variant. When the buffer is small, statically shaped and
// does not leave the block it is made in, it becomes a memref.alloca: each
// thread's iteration gets its own, on its own stack
// (kiln-cpu-parallel-loops-to-runtime reserves it once per call of the
// outlined body).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUPARALLELTEMPORARIESPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// Whether no alias of `alloc` leaves its block or is freed there.
bool staysInBlock(memref::AllocOp alloc) {
  Block *block = alloc->getBlock();
  SmallVector<Value> worklist = {alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (!block->findAncestorOpInBlock(*user) ||
          user->hasTrait<OpTrait::IsTerminator>() ||
          isa<CallOpInterface, bufferization::ToTensorOp, memref::DeallocOp>(
              user))
        return false;
      if (isa<ViewLikeOpInterface>(user))
        worklist.append(user->result_begin(), user->result_end());
    }
  }
  return true;
}

struct KilnCPUParallelTemporariesPass final
    : kiln::impl::KilnCPUParallelTemporariesPassBase<
          KilnCPUParallelTemporariesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      if (!alloc->getParentOfType<scf::ForallOp>() || !type.hasStaticShape() ||
          !type.getLayout().isIdentity() || type.getMemorySpace() ||
          !type.getElementType().isIntOrFloat() ||
          type.getElementTypeBitWidth() % 8 != 0)
        return;
      int64_t bytes =
          type.getNumElements() * (type.getElementTypeBitWidth() / 8);
      if (bytes <= maxBytes && staysInBlock(alloc))
        allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs) {
      OpBuilder b(alloc);
      auto alloca = memref::AllocaOp::create(b, alloc.getLoc(), alloc.getType(),
                                             alloc.getAlignmentAttr());
      alloc.replaceAllUsesWith(alloca.getResult());
      alloc.erase();
      ++numOnStack;
    }
  }
};

} // namespace
