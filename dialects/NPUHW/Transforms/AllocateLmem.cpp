//===- AllocateLmem.cpp - Liveness-based LMEM addresses -------------------===//
//
// npuhw-allocate-lmem: collects every npuhw.alloc of a stream with the
// commands that access it (through memref.subview chains), places the
// buffers of each LMEM region with planLmem (dialects/NPUHW/Analysis), and
// rewrites allocs and subviews into npuhw.view ops at their addresses.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Analysis/LmemPlan.h"
#include "dialects/NPUHW/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln::npuhw {
#define GEN_PASS_DEF_NPUHWALLOCATELMEMPASS
#include "dialects/NPUHW/Transforms/Passes.h.inc"
} // namespace kiln::npuhw

using namespace mlir;
using namespace kiln::npuhw;

namespace {

/// Alignment of every LMEM address (docs/npu-isa.md §3).
constexpr uint64_t kLmemAlignment = 16;

/// One alloc, its subviews and its accesses.
struct Buffer {
  AllocOp alloc;
  LmemRegion region;
  LmemBuffer use;
  /// Subviews in discovery order (parents before children).
  llvm::SmallVector<memref::SubViewOp> subviews;
};

struct NPUHWAllocateLmemPass final
    : kiln::npuhw::impl::NPUHWAllocateLmemPassBase<
          NPUHWAllocateLmemPass> {
  using Base::Base;
  void runOnOperation() override;
};

/// Bytes of one element of an LMEM memref.
uint64_t elementBytes(MemRefType type) {
  return std::max<uint64_t>(1, type.getElementTypeBitWidth() / 8);
}

/// True if \p op may read / write \p value, from its memory effects (both
/// when it does not say).
void accessKind(Operation *op, Value value, bool &reads, bool &writes) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects) {
    reads = writes = true;
    return;
  }
  llvm::SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  reads = writes = false;
  for (const MemoryEffects::EffectInstance &e : list) {
    if (e.getValue() && e.getValue() != value)
      continue;
    reads |= isa<MemoryEffects::Read>(e.getEffect());
    writes |= isa<MemoryEffects::Write>(e.getEffect());
  }
}

/// The type of a view at \p elementOffset elements with \p type's shape and
/// \p strides.
MemRefType viewType(MemRefType type, ArrayRef<int64_t> strides,
                    int64_t elementOffset) {
  return MemRefType::get(
      type.getShape(), type.getElementType(),
      StridedLayoutAttr::get(type.getContext(), elementOffset, strides),
      type.getMemorySpace());
}

} // namespace

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

void NPUHWAllocateLmemPass::runOnOperation() {
  StreamOp stream = getOperation();
  kiln::npu::TargetConfig config = stream.getTargetConfig();

  // The stream as a dependency graph.
  std::vector<SyncCommand> graph;
  llvm::DenseMap<Operation *, unsigned> index;
  for (Operation &op : stream.getBody().front())
    if (auto command = dyn_cast<CommandOpInterface>(&op)) {
      SyncCommand node;
      node.engine = command.getEngine();
      for (Value dep : command.getDeps())
        if (Operation *def = dep.getDefiningOp(); def && index.count(def))
          node.deps.push_back(index[def]);
      index[&op] = graph.size();
      graph.push_back(node);
    }

  // Buffers and their accesses.
  std::vector<Buffer> buffers;
  for (AllocOp alloc : stream.getBody().front().getOps<AllocOp>()) {
    Buffer buffer{alloc,
                  cast<LmemRegionAttr>(alloc.getType().getMemorySpace())
                      .getValue(),
                  {},
                  {}};
    MemRefType type = alloc.getType();
    buffer.use.size = type.getNumElements() * elementBytes(type);
    buffer.use.fromTop = alloc.getFromTop();
    unsigned first = UINT32_MAX;
    bool firstWrites = true;
    llvm::SmallVector<Value> work = {alloc.getResult()};
    while (!work.empty()) {
      Value value = work.pop_back_val();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        if (auto subview = dyn_cast<memref::SubViewOp>(user);
            subview && use.get() == subview.getSource()) {
          buffer.subviews.push_back(subview);
          work.push_back(subview.getResult());
          continue;
        }
        auto it = index.find(user);
        if (it == index.end()) {
          alloc.emitOpError("is used by '")
              << user->getName()
              << "', which npuhw-allocate-lmem cannot give an address to";
          return signalPassFailure();
        }
        buffer.use.accesses.push_back(it->second);
        bool reads, writes;
        accessKind(user, value, reads, writes);
        if (it->second < first || (it->second == first && !writes)) {
          first = it->second;
          firstWrites = writes && !reads;
        }
      }
    }
    buffer.use.readFirst = first != UINT32_MAX && !firstWrites;
    buffers.push_back(std::move(buffer));
  }

  // Placement per region.
  std::vector<uint64_t> offsets(buffers.size());
  for (unsigned r = 0; r < kiln::npu::kNumLmemRegions; ++r) {
    auto region = static_cast<LmemRegion>(r);
    std::vector<unsigned> members;
    std::vector<LmemBuffer> uses;
    for (unsigned b = 0; b < buffers.size(); ++b)
      if (buffers[b].region == region) {
        members.push_back(b);
        uses.push_back(buffers[b].use);
      }
    if (members.empty())
      continue;
    uint64_t size = config.regionSize(toRuntime(region));
    LmemPlan plan = planLmem(graph, uses, kLmemAlignment, size);
    if (plan.peak > size) {
      for (unsigned k : plan.order)
        if (plan.offsets[k] + uses[k].size > size) {
          buffers[members[k]].alloc.emitOpError("does not fit in LMEM region ")
              << stringifyLmemRegion(region) << " (" << size
              << " bytes): the region's buffers need " << plan.peak
              << " bytes at peak";
          return signalPassFailure();
        }
    }
    for (unsigned k = 0; k < members.size(); ++k) {
      offsets[members[k]] = plan.offsets[k];
      ++numBuffers;
      for (unsigned j : plan.order) {
        if (j == k)
          break;
        if (plan.offsets[j] < plan.offsets[k] + uses[k].size &&
            plan.offsets[k] < plan.offsets[j] + uses[j].size) {
          ++numReused;
          break;
        }
      }
    }
  }

  // Rewrite: every subview and alloc becomes a view.
  OpBuilder builder(&getContext());
  for (unsigned b = 0; b < buffers.size(); ++b) {
    Buffer &buffer = buffers[b];
    MemRefType type = buffer.alloc.getType();
    int64_t base =
        static_cast<int64_t>(offsets[b] / elementBytes(type));
    for (memref::SubViewOp subview : buffer.subviews) {
      MemRefType subType = subview.getType();
      llvm::SmallVector<int64_t> strides;
      int64_t offset;
      if (failed(subType.getStridesAndOffset(strides, offset)) ||
          ShapedType::isDynamic(offset) ||
          llvm::any_of(strides, ShapedType::isDynamic) ||
          !subType.hasStaticShape()) {
        subview.emitOpError("has a dynamic offset, size or stride: "
                            "npuhw-allocate-lmem needs static subviews");
        return signalPassFailure();
      }
      builder.setInsertionPoint(subview);
      auto view = ViewOp::create(builder, subview.getLoc(),
                                 viewType(subType, strides, base + offset));
      subview.getResult().replaceAllUsesWith(view.getResult());
    }
    for (memref::SubViewOp subview : llvm::reverse(buffer.subviews))
      subview.erase();
    if (buffer.alloc->use_empty()) { // Only its subviews were used.
      buffer.alloc.erase();
      continue;
    }
    llvm::SmallVector<int64_t> strides;
    int64_t offset;
    (void)type.getStridesAndOffset(strides, offset);
    builder.setInsertionPoint(buffer.alloc);
    auto view = ViewOp::create(builder, buffer.alloc.getLoc(),
                               viewType(type, strides, base + offset));
    buffer.alloc.getResult().replaceAllUsesWith(view.getResult());
    buffer.alloc.erase();
  }
}
