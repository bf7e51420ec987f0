//===- CPUPlanBuffers.cpp - one arena for a function's buffers --*- C++ -*-===//
//
// kiln-cpu-plan-buffers: packs the statically shaped buffers a function
// allocates at its top level, and that do not escape it, into one allocation
// by their live ranges. Each buffer becomes a memref.view of that arena at an
// offset no buffer live at the same time uses.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUPLANBUFFERSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// One buffer of the plan: the alloc, its size in bytes, the positions in
/// the function's body of its allocation and its last use, and its offset.
struct PlannedBuffer {
  memref::AllocOp alloc;
  int64_t bytes;
  unsigned first, last;
  int64_t offset = 0;
};

/// Rounds `bytes` up to a multiple of `alignment`.
int64_t alignTo(int64_t bytes, int64_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

/// The size in bytes of a buffer of `type`, if it is static, has the
/// identity layout and elements of whole bytes (i1 buffers are left alone:
/// LLVM's vector<N x i1> packs bits, see kiln-cpu-tile-and-vectorize).
std::optional<int64_t> staticBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace())
    return std::nullopt;
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  return type.getNumElements() * (element.getIntOrFloatBitWidth() / 8);
}

/// Whether `op` may let a buffer outlive the function, reach code this pass
/// cannot see, or free it: a return, a call, a dealloc, or a conversion back
/// to a tensor.
bool mayEscape(Operation *op) {
  return isa<func::ReturnOp, CallOpInterface, memref::DeallocOp,
             bufferization::ToTensorOp>(op);
}

/// Places every buffer at the lowest offset (a multiple of `alignment`)
/// where it overlaps no already placed buffer live at the same time; the
/// largest first. Returns the arena's size.
int64_t assignOffsets(MutableArrayRef<PlannedBuffer> buffers,
                      int64_t alignment) {
  SmallVector<PlannedBuffer *> order;
  for (PlannedBuffer &buffer : buffers)
    order.push_back(&buffer);
  llvm::stable_sort(order, [](PlannedBuffer *a, PlannedBuffer *b) {
    return a->bytes > b->bytes;
  });
  SmallVector<PlannedBuffer *> placed;
  int64_t arena = 0;
  for (PlannedBuffer *buffer : order) {
    // The address ranges of the placed buffers live at the same time, by
    // start; the buffer goes into the first gap large enough.
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (PlannedBuffer *other : placed)
      if (other->first <= buffer->last && buffer->first <= other->last)
        taken.push_back({other->offset, other->offset + other->bytes});
    llvm::sort(taken);
    int64_t offset = 0;
    for (auto [begin, end] : taken) {
      if (offset + buffer->bytes <= begin)
        break;
      offset = std::max(offset, alignTo(end, alignment));
    }
    buffer->offset = offset;
    arena = std::max(arena, offset + buffer->bytes);
    placed.push_back(buffer);
  }
  return alignTo(arena, alignment);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnCPUPlanBuffersPass final
    : kiln::impl::KilnCPUPlanBuffersPassBase<KilnCPUPlanBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    if (alignment <= 0 || (alignment & (alignment - 1)) != 0) {
      func.emitError() << "kiln-cpu-plan-buffers: alignment " << alignment
                       << " is not a positive power of two";
      return signalPassFailure();
    }
    Block &body = func.getBody().front();
    DenseMap<Operation *, unsigned> position;
    for (auto [index, op] : llvm::enumerate(body))
      position[&op] = index;

    BufferViewFlowAnalysis aliases(func);
    SmallVector<PlannedBuffer> buffers;
    for (auto alloc : body.getOps<memref::AllocOp>()) {
      std::optional<int64_t> bytes = staticBytes(alloc.getType());
      if (!bytes)
        continue;
      PlannedBuffer buffer{alloc, *bytes, position[alloc], position[alloc]};
      bool escapes = false;
      for (Value alias : aliases.resolve(alloc.getResult())) {
        for (Operation *user : alias.getUsers()) {
          escapes |= mayEscape(user);
          Operation *top = body.findAncestorOpInBlock(*user);
          if (!top) {
            escapes = true;
            continue;
          }
          buffer.last = std::max(buffer.last, position[top]);
        }
      }
      if (!escapes)
        buffers.push_back(buffer);
    }
    if (buffers.size() < 2)
      return;

    int64_t arenaBytes = assignOffsets(buffers, alignment);
    OpBuilder builder(&getContext());
    builder.setInsertionPointToStart(&body);
    Location loc = func.getLoc();
    auto arenaType = MemRefType::get({arenaBytes}, builder.getI8Type());
    Value arena = memref::AllocOp::create(
        builder, loc, arenaType, ValueRange(),
        builder.getI64IntegerAttr(alignment));
    for (PlannedBuffer &buffer : buffers) {
      builder.setInsertionPoint(buffer.alloc);
      Value offset = arith::ConstantIndexOp::create(
          builder, buffer.alloc.getLoc(), buffer.offset);
      Value view = memref::ViewOp::create(builder, buffer.alloc.getLoc(),
                                          buffer.alloc.getType(), arena,
                                          offset, ValueRange());
      buffer.alloc.getResult().replaceAllUsesWith(view);
      buffer.alloc.erase();
    }
    numPlanned += buffers.size();
    arenaSize += arenaBytes;
  }
};

} // namespace
