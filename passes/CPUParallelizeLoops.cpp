//===- CPUParallelizeLoops.cpp - tile loops to scf.forall -------*- C++ -*-===//
//
// kiln-cpu-parallelize-loops: after kiln-cpu-tile-and-vectorize, the
// outermost loop of each tiled op is an scf.for that threads the op's result
// tensor through its iteration argument and writes one tile of it per
// iteration. When every access to that tensor in the body (writes, reads,
// slices, nested loops over it) is at the loop's induction variable along one
// dim and no wider than the step, the iterations touch disjoint slabs of the
// result and the loop becomes an scf.forall whose iterations each write their
// slab (tensor.parallel_insert_slice). A loop of few iterations takes the
// perfectly nested loops inside it along (one forall over both), so that a
// 7x7 feature map still gives the threads enough pieces. Loops with less work
// than `min-work` stay sequential.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUPARALLELIZELOOPSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// A nest collapses while it has fewer iterations than this.
constexpr int64_t kEnoughIterations = 32;

/// For each dim of the loop-carried tensor: the loop (by depth in the nest)
/// whose induction variable every access seen so far indexes it with, and
/// the widest extent along it.
struct Slabs {
  static constexpr int kUnset = -2, kInvalid = -1;
  SmallVector<int> owner;
  SmallVector<int64_t> extent;
  ArrayRef<Value> ivs;

  Slabs(int64_t rank, ArrayRef<Value> ivs)
      : owner(rank, kUnset), extent(rank, 0), ivs(ivs) {}

  /// Records an access at `index` along `dim`, `size` elements wide.
  void access(int64_t dim, Value index, int64_t size) {
    const auto *it = llvm::find(ivs, index);
    int level = it == ivs.end() ? kInvalid : int(it - ivs.begin());
    if (level == kInvalid || ShapedType::isDynamic(size) ||
        (owner[dim] != kUnset && owner[dim] != level)) {
      owner[dim] = kInvalid;
      return;
    }
    owner[dim] = level;
    extent[dim] = std::max(extent[dim], size);
  }
  void invalidate(int64_t dim) { owner[dim] = kInvalid; }
};

/// The extent along each tensor dim of a transfer op's vector.
SmallVector<int64_t> transferExtents(VectorTransferOpInterface op,
                                     int64_t rank) {
  SmallVector<int64_t> extents(rank, 1);
  AffineMap map = op.getPermutationMap();
  for (auto [i, expr] : llvm::enumerate(map.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      extents[dim.getPosition()] = op.getVectorType().getDimSize(i);
  return extents;
}

/// Records the accesses to `value` (a version of the loop-carried tensor)
/// and follows the values derived from it. Returns failure on a use that is
/// not a slice, a transfer, a nested loop or a yield.
LogicalResult collect(Value value, Slabs &slabs,
                      SmallVectorImpl<Value> &versions) {
  versions.push_back(value);
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    auto transfer = [&](Operation *op) {
      auto iface = cast<VectorTransferOpInterface>(op);
      SmallVector<int64_t> extents = transferExtents(iface, rank);
      for (auto [d, index] : llvm::enumerate(iface.getIndices()))
        slabs.access(d, index, extents[d]);
    };
    auto slice = [&](Operation *op) {
      auto iface = cast<OffsetSizeAndStrideOpInterface>(op);
      SmallVector<OpFoldResult> offsets = iface.getMixedOffsets();
      SmallVector<OpFoldResult> sizes = iface.getMixedSizes();
      SmallVector<OpFoldResult> strides = iface.getMixedStrides();
      for (int64_t d = 0; d < rank; ++d) {
        std::optional<int64_t> size = getConstantIntValue(sizes[d]);
        std::optional<int64_t> stride = getConstantIntValue(strides[d]);
        auto offset = dyn_cast<Value>(offsets[d]);
        if (!size || stride != 1 || !offset)
          slabs.invalidate(d);
        else
          slabs.access(d, offset, *size);
      }
    };
    if (auto write = dyn_cast<vector::TransferWriteOp>(user)) {
      if (&use != &write.getBaseMutable())
        return failure();
      transfer(user);
      if (failed(collect(write.getResult(), slabs, versions)))
        return failure();
    } else if (isa<vector::TransferReadOp>(user)) {
      transfer(user);
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(user)) {
      if (use.get() != insert.getDest())
        return failure();
      slice(user);
      if (failed(collect(insert.getResult(), slabs, versions)))
        return failure();
    } else if (isa<tensor::ExtractSliceOp>(user)) {
      slice(user);
    } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
      BlockArgument arg = loop.getTiedLoopRegionIterArg(&use);
      OpResult result = loop.getTiedLoopResult(&use);
      if (!arg || !result || failed(collect(arg, slabs, versions)) ||
          failed(collect(result, slabs, versions)))
        return failure();
    } else if (!isa<scf::YieldOp>(user)) {
      return failure();
    }
  }
  return success();
}

/// Elements computed by the ops in `region`, nested static loops counted by
/// their trip counts (a rough measure of a loop body's work).
int64_t estimateWork(Region &region) {
  int64_t work = 0;
  for (Operation &op : region.getOps()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      int64_t trips = 1;
      if (std::optional<APInt> count = loop.getStaticTripCount())
        trips = count->getSExtValue();
      work += trips * estimateWork(loop.getRegion());
      continue;
    }
    int64_t elements = 1;
    for (Type type : op.getResultTypes())
      if (auto vector = dyn_cast<VectorType>(type))
        elements = std::max(elements, vector.getNumElements());
    work += elements;
    for (Region &nested : op.getRegions())
      work += estimateWork(nested);
  }
  return work;
}

/// A loop of the nest: its static bounds.
struct Level {
  mutable scf::ForOp loop;
  int64_t lb, ub, step, trips;
};

/// `loop` as a level of a nest, when it carries one static tensor and has
/// constant bounds.
std::optional<Level> asLevel(scf::ForOp loop) {
  if (loop.getNumRegionIterArgs() != 1)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(loop.getRegionIterArgs()[0].getType());
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!type || !type.hasStaticShape() || !lb || !ub || !step || *step <= 0 ||
      *ub <= *lb)
    return std::nullopt;
  return Level{loop, *lb, *ub, *step, (*ub - *lb + *step - 1) / *step};
}

/// The loop perfectly nested in `level`: the body is side-effect-free ops
/// not touching the tensor, then one scf.for over it whose result the body
/// yields.
std::optional<Level> innerLevel(const Level &level) {
  Block *body = level.loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  auto inner = yield.getOperand(0).getDefiningOp<scf::ForOp>();
  if (!inner || inner->getBlock() != body ||
      inner.getNumRegionIterArgs() != 1 ||
      inner.getInitArgs()[0] != level.loop.getRegionIterArgs()[0] ||
      &body->back() != yield.getOperation() ||
      inner->getNextNode() != yield.getOperation())
    return std::nullopt;
  for (Operation &op : body->without_terminator())
    if (&op != inner.getOperation() && !isPure(&op))
      return std::nullopt;
  return asLevel(inner);
}

struct KilnCPUParallelizeLoopsPass final
    : kiln::impl::KilnCPUParallelizeLoopsPassBase<
          KilnCPUParallelizeLoopsPass> {
  using Base::Base;

  /// The nest's loops with a slab dim each, or failure.
  FailureOr<SmallVector<int64_t>> slabDims(ArrayRef<Level> nest,
                                           Slabs &slabs,
                                           RankedTensorType type) {
    SmallVector<int64_t> dims;
    for (auto [l, level] : llvm::enumerate(nest)) {
      int64_t last = level.lb + (level.trips - 1) * level.step;
      std::optional<int64_t> dim;
      for (int64_t d = 0; d < type.getRank() && !dim; ++d)
        if (slabs.owner[d] == int(l) && slabs.extent[d] > 0 &&
            slabs.extent[d] <= level.step &&
            last + slabs.extent[d] <= type.getDimSize(d))
          dim = d;
      if (!dim)
        return failure();
      dims.push_back(*dim);
    }
    return dims;
  }

  /// Turns the nest starting at `loop` into an scf.forall when its
  /// iterations write disjoint slabs of its one tensor. Returns whether it
  /// did.
  bool parallelize(scf::ForOp loop) {
    std::optional<Level> outer = asLevel(loop);
    if (!outer || outer->trips < 2 ||
        outer->trips * estimateWork(loop.getRegion()) < minWork)
      return false;
    auto type = cast<RankedTensorType>(loop.getRegionIterArgs()[0].getType());

    // The deepest nest (while it has few iterations) whose every level
    // owns a dim.
    SmallVector<Level> nest = {*outer};
    SmallVector<Value> versions;
    SmallVector<int64_t> dims;
    std::optional<Level> candidate = *outer;
    int64_t iterations = 1;
    while (candidate) {
      SmallVector<Level> trial = nest;
      if (candidate->loop != loop)
        trial.push_back(*candidate);
      SmallVector<Value> ivs;
      for (const Level &level : trial)
        ivs.push_back(level.loop.getInductionVar());
      Slabs slabs(type.getRank(), ivs);
      SmallVector<Value> trialVersions;
      if (failed(collect(loop.getRegionIterArgs()[0], slabs, trialVersions)))
        break;
      FailureOr<SmallVector<int64_t>> trialDims =
          slabDims(trial, slabs, type);
      if (failed(trialDims))
        break;
      nest = trial;
      versions = trialVersions;
      dims = *trialDims;
      iterations *= candidate->trips;
      if (iterations >= kEnoughIterations)
        break;
      candidate = innerLevel(nest.back());
    }
    if (dims.empty())
      return false;
    // Every version is yielded by the loop that makes it or read.
    Value yielded = nest.back().loop.getBody()->getTerminator()->getOperand(0);
    if (!llvm::is_contained(versions, yielded))
      return false;

    // The forall, each iteration working on its slab of the shared tensor.
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    SmallVector<OpFoldResult> lbs, ubs, steps;
    for (const Level &level : nest) {
      lbs.push_back(b.getIndexAttr(level.lb));
      ubs.push_back(b.getIndexAttr(level.ub));
      steps.push_back(b.getIndexAttr(level.step));
    }
    auto forall = scf::ForallOp::create(b, loc, lbs, ubs, steps,
                                        loop.getInitArgs(), std::nullopt);
    Block *body = forall.getBody();
    Value shared = forall.getRegionIterArgs()[0];
    b.setInsertionPointToStart(body);
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
    for (int64_t size : type.getShape())
      sizes.push_back(b.getIndexAttr(size));
    // Along a slab dim the slab is the step wide, or what is left after
    // the last iteration's start when that is less (the accesses, at most
    // that wide, fit either way).
    for (auto [l, dim] : llvm::enumerate(dims)) {
      const Level &level = nest[l];
      int64_t last = level.lb + (level.trips - 1) * level.step;
      offsets[dim] = forall.getInductionVars()[l];
      sizes[dim] = b.getIndexAttr(
          std::min(level.step, type.getDimSize(dim) - last));
    }
    Value slab = tensor::ExtractSliceOp::create(b, loc, shared, offsets, sizes,
                                                strides);
    auto slabType = cast<RankedTensorType>(slab.getType());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);

    // Each level's body ops move over in nest order (the inner loops and
    // the yields stay behind); the tensor versions become slab versions
    // whose accesses along the slab dims are at 0.
    Value result =
        nest.back().loop.getBody()->getTerminator()->getOperand(0);
    for (auto [l, level] : llvm::enumerate(nest)) {
      Block *old = level.loop.getBody();
      Operation *end = l + 1 < nest.size() ? nest[l + 1].loop.getOperation()
                                           : old->getTerminator();
      body->getOperations().splice(Block::iterator(body->getTerminator()),
                                   old->getOperations(), old->begin(),
                                   Block::iterator(end));
      level.loop.getInductionVar().replaceAllUsesWith(
          forall.getInductionVars()[l]);
    }
    for (Value version : versions) {
      version.setType(slabType);
      for (OpOperand &use : version.getUses()) {
        Operation *user = use.getOwner();
        for (int64_t d : dims) {
          if (auto write = dyn_cast<vector::TransferWriteOp>(user)) {
            write.getIndicesMutable()[d].assign(zero);
          } else if (auto read = dyn_cast<vector::TransferReadOp>(user)) {
            read.getIndicesMutable()[d].assign(zero);
          } else if (auto op = dyn_cast<OffsetSizeAndStrideOpInterface>(user)) {
            // The offset along d is a dynamic one (an induction variable);
            // its operand follows those of the dynamic offsets before it.
            unsigned k = 0;
            for (int64_t i = 0; i < d; ++i)
              k += ShapedType::isDynamic(op.getStaticOffsets()[i]);
            user->setOperand(op.getOffsetSizeAndStrideStartOperandIndex() + k,
                             zero);
          }
        }
      }
    }
    for (const Level &level : nest)
      level.loop.getRegionIterArgs()[0].replaceAllUsesWith(slab);
    b.setInsertionPointToStart(forall.getTerminator().getBody());
    tensor::ParallelInsertSliceOp::create(b, loc, result, shared, offsets,
                                          sizes, strides);
    loop.getResult(0).replaceAllUsesWith(forall.getResult(0));
    loop.erase();
    ++numParallelized;
    return true;
  }

  void runOnOperation() override {
    // Outermost loops first; a loop that stays sequential may hold
    // parallel ones.
    SmallVector<scf::ForOp> worklist;
    auto collectLoops = [&](Region &region) {
      region.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (auto loop = dyn_cast<scf::ForOp>(op)) {
          worklist.push_back(loop);
          return WalkResult::skip();
        }
        return WalkResult::advance();
      });
    };
    collectLoops(getOperation().getBody());
    while (!worklist.empty()) {
      scf::ForOp loop = worklist.pop_back_val();
      if (!parallelize(loop))
        collectLoops(loop.getRegion());
    }
  }
};

} // namespace
