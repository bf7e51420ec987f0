//===- Segments.cpp - convex NPU segments -----------------------*- C++ -*-===//
//
// Groups the NPU ops of a block into connected, convex segments: a segment
// must be callable as one unit, so no path may leave it and come back
// through an op outside it (a CPU op, or another segment).
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToNPU/TFToNPU.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_to_npu;

void tf_to_npu::collectDependencies(
    Block &block, Operation *op, Operation *&lastEffect,
    SmallVectorImpl<Operation *> &deps,
    const llvm::DenseSet<Operation *> &effectFree) {
  llvm::SetVector<Operation *> found;
  auto visit = [&](Operation *user) {
    for (Value operand : user->getOperands()) {
      if (operand.getParentBlock() != &block)
        continue;
      if (Operation *def = operand.getDefiningOp())
        found.insert(def);
    }
  };
  op->walk(visit);
  found.remove(op);
  if (!isMemoryEffectFree(op) && !effectFree.contains(op)) {
    if (lastEffect)
      found.insert(lastEffect);
    lastEffect = op;
  }
  deps.append(found.begin(), found.end());
}

namespace {

/// A segment under construction: its members (as block positions) and
/// every op they depend on, transitively.
struct Segment {
  llvm::BitVector members;
  llvm::BitVector ancestors;
  int first = 0;
  bool alive = true;
};

} // namespace

std::vector<std::vector<Operation *>>
tf_to_npu::formSegments(Block &block, const llvm::DenseSet<Operation *> &npu) {
  std::vector<Operation *> ops;
  llvm::DenseMap<Operation *, int> index;
  for (Operation &op : block) {
    index[&op] = ops.size();
    ops.push_back(&op);
  }
  size_t n = ops.size();
  // ancestors[i]: the ops op i depends on, transitively.
  std::vector<llvm::BitVector> ancestors(n, llvm::BitVector(n));
  std::vector<SmallVector<int, 4>> producers(n);
  Operation *lastEffect = nullptr;
  for (size_t i = 0; i < n; ++i) {
    SmallVector<Operation *> deps;
    collectDependencies(block, ops[i], lastEffect, deps);
    for (Operation *dep : deps) {
      int d = index.lookup(dep);
      ancestors[i] |= ancestors[d];
      ancestors[i].set(d);
      producers[i].push_back(d);
    }
  }

  // A set is convex when no op outside it both depends on one of its ops and
  // is depended on by one: such an op lies among its ancestors, after its
  // first op, and has one of its members among its own ancestors.
  auto convex = [&](const llvm::BitVector &members,
                    const llvm::BitVector &ancestorsOf, int first) {
    llvm::BitVector outside = ancestorsOf;
    outside.reset(members);
    for (int x = outside.find_next(first); x != -1; x = outside.find_next(x))
      if (ancestors[x].anyCommon(members))
        return false;
    return true;
  };

  std::vector<Segment> segments;
  std::vector<int> segmentOf(n, -1);
  for (size_t v = 0; v < n; ++v) {
    if (!npu.contains(ops[v]))
      continue;
    Segment merged;
    merged.members = llvm::BitVector(n);
    merged.members.set(v);
    merged.ancestors = ancestors[v];
    merged.first = v;
    // Join the segments of v's producers, one by one, while that keeps the
    // union convex.
    llvm::SetVector<int> candidates;
    for (int p : producers[v])
      if (segmentOf[p] >= 0)
        candidates.insert(segmentOf[p]);
    SmallVector<int> joined;
    for (int s : candidates) {
      llvm::BitVector members = merged.members;
      members |= segments[s].members;
      llvm::BitVector ancestorsOf = merged.ancestors;
      ancestorsOf |= segments[s].ancestors;
      int first = std::min(merged.first, segments[s].first);
      if (!convex(members, ancestorsOf, first))
        continue;
      merged.members = std::move(members);
      merged.ancestors = std::move(ancestorsOf);
      merged.first = first;
      joined.push_back(s);
    }
    int id = segments.size();
    for (int s : joined)
      segments[s].alive = false;
    for (int m : merged.members.set_bits())
      segmentOf[m] = id;
    segments.push_back(std::move(merged));
  }

  std::vector<std::vector<Operation *>> result;
  std::vector<std::pair<int, size_t>> order;
  for (const Segment &segment : segments) {
    if (!segment.alive)
      continue;
    std::vector<Operation *> members;
    for (int m : segment.members.set_bits())
      members.push_back(ops[m]);
    order.push_back({segment.first, result.size()});
    result.push_back(std::move(members));
  }
  llvm::sort(order);
  std::vector<std::vector<Operation *>> sorted;
  for (auto [first, position] : order)
    sorted.push_back(std::move(result[position]));
  return sorted;
}

std::vector<Value>
tf_to_npu::segmentInputs(ArrayRef<Operation *> members) {
  llvm::SmallPtrSet<Operation *, 16> memberSet(members.begin(), members.end());
  llvm::SetVector<Value> inputs;
  for (Operation *op : members)
    for (Value operand : op->getOperands()) {
      Operation *def = operand.getDefiningOp();
      // Constants (f32 data, and the i32 axes of a Mean) are copied in or
      // read as attributes.
      if (def && (memberSet.contains(def) ||
                  def->hasTrait<OpTrait::ConstantLike>() ||
                  isa<tf::ConstOp>(def)))
        continue;
      inputs.insert(operand);
    }
  return std::vector<Value>(inputs.begin(), inputs.end());
}
