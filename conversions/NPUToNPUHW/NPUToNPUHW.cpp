//===- NPUToNPUHW.cpp - convert-npu-to-npuhw ---------------------*- C++ -*-===//
//
// Each function whose body is a sequence of npu ops (any dataflow, constants
// through quant.scast; convolutions and pooling in int8 or fp16) becomes an
// npuhw.stream of the same name. The driver plans DRAM (arguments in r2,
// results in r3, intermediates in r1 reused by liveness, constants appended
// to r0), then calls the emitter of each op in program order (Lowering.h:
// ConvLowering, PoolLowering, VecLowering) with the DRAM places of its
// operands and results, an LMEM budget and the store tokens its LMEM reuse
// must wait for, adds the DRAM dependencies per command (Overlap.h: ops
// overlap), keeps in ACT the intermediates only the next op reads when
// they fit (Resident.h: the function is emitted again without a tensor
// that cannot stay), and finally writes the declarations (regions,
// constants, IO) and END. The
// rewrite replaces a function by a stream, not op by op, so it is a walk
// rather than a dialect conversion.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/NPUToNPUHW.h"

#include "conversions/NPUToNPUHW/Cascade.h"
#include "conversions/NPUToNPUHW/ConvLowering.h"
#include "conversions/NPUToNPUHW/Declarations.h"
#include "conversions/NPUToNPUHW/Overlap.h"
#include "conversions/NPUToNPUHW/PoolLowering.h"
#include "conversions/NPUToNPUHW/ResizeLowering.h"
#include "conversions/NPUToNPUHW/Resident.h"
#include "conversions/NPUToNPUHW/VecLowering.h"
#include "dialects/NPU/IR/NPUCost.h"
#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "dialects/NPUHW/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTNPUTONPUHWPASS
#include "conversions/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;


/// The emitter of \p op, or null when the pass has no lowering for it. The
/// one place that maps op types to emitters: add a `.Case` per new one.
static OpEmitter emitterFor(Operation *op) {
  return TypeSwitch<Operation *, OpEmitter>(op)
      .Case<npu::Conv2DOp, npu::DepthwiseConv2DOp, npu::FullyConnectedOp>(
          [](Operation *) { return &lowerConvLike; })
      .Case<npu::MaxPool2DOp, npu::AvgPool2DOp, npu::SumPool2DOp>(
          [](Operation *) { return &lowerPool; })
      .Case<npu::AddOp, npu::SubOp, npu::MulOp, npu::MinimumOp,
            npu::MaximumOp>([](Operation *) { return &lowerEltwise; })
      .Case<npu::RescaleOp, npu::TableOp, npu::ClampOp, npu::ConvertOp>(
          [](Operation *) { return &lowerUnary; })
      .Case<npu::ResizeNearestOp, npu::ResizeBilinearOp>(
          [](Operation *) { return &lowerResize; })
      .Default([](Operation *) { return nullptr; });
}

namespace {
uint64_t bytesOf(Value value) {
  auto type = cast<ShapedType>(value.getType());
  return static_cast<uint64_t>(type.getNumElements()) * elementBytes(type);
}

struct ConvertNPUToNPUHWPass final
    : kiln::impl::ConvertNPUToNPUHWPassBase<ConvertNPUToNPUHWPass> {
  using Base::Base;
  void runOnOperation() override;
  LogicalResult lowerFunction(func::FuncOp func);
  /// One attempt at the stream of \p func's \p ops, keeping in LMEM the
  /// intermediates that may stay there and are not in \p vetoed (listed in
  /// \p resident, whole, and \p cascaded, in rings). On failure, \p veto
  /// names the tensor to keep in DRAM instead when that is why (no
  /// diagnostic was emitted then).
  LogicalResult emitStream(func::FuncOp func, ArrayRef<Operation *> ops,
                           func::ReturnOp ret,
                           const llvm::DenseSet<Value> &vetoed,
                           SmallVector<ResidentTensor> &resident,
                           SmallVector<CascadedTensor> &cascaded,
                           std::optional<Value> &veto,
                           npuhw::StreamOp &result);
  /// True if npuhw-allocate-lmem places the buffers of \p stream (run on a
  /// copy, diagnostics dropped).
  bool lmemFits(npuhw::StreamOp stream);
};
} // namespace

LogicalResult ConvertNPUToNPUHWPass::lowerFunction(func::FuncOp func) {
  for (auto [i, type] : llvm::enumerate(func.getFunctionType().getInputs()))
    if (auto shaped = dyn_cast<ShapedType>(type);
        !shaped || !shaped.hasStaticShape())
      return func.emitOpError() << "argument " << i
                                << " must be a statically shaped tensor, got "
                                << type;
  Block &body = func.getBody().front();
  SmallVector<Operation *> ops;
  for (Operation &op : body) {
    if (isa<func::ReturnOp>(op) || op.hasTrait<OpTrait::ConstantLike>() ||
        op.getName().getStringRef() == "quant.scast")
      continue;
    if (!emitterFor(&op))
      return op.emitOpError() << "has no lowering to npuhw";
    ops.push_back(&op);
  }
  if (ops.empty())
    return func.emitOpError() << "has no npu operation to lower";
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    Operation *def = stripCasts(value).getDefiningOp();
    if (!def || !llvm::is_contained(ops, def))
      return ret.emitOpError()
             << "result " << i
             << " must be computed by an npu operation of the function";
  }

  // Attempts: each tensor that cannot stay in LMEM (an access the LMEM
  // rules forbid, a neighbour that no longer tiles beside it, buffers that
  // npuhw-allocate-lmem cannot place) goes back to DRAM, the largest first.
  llvm::DenseSet<Value> vetoed;
  for (;;) {
    SmallVector<ResidentTensor> resident;
    SmallVector<CascadedTensor> cascaded;
    std::optional<Value> veto;
    npuhw::StreamOp stream;
    if (failed(emitStream(func, ops, ret, vetoed, resident, cascaded, veto,
                          stream))) {
      if (!veto)
        return failure();
      vetoed.insert(*veto);
      continue;
    }
    if ((!resident.empty() || !cascaded.empty()) && !lmemFits(stream)) {
      // The largest tensor kept in LMEM (a ring counts its bytes in ACT).
      uint64_t most = 0;
      Value largest;
      auto consider = [&](uint64_t bytes, Value value) {
        if (!largest || bytes > most)
          std::tie(most, largest) = std::make_pair(bytes, value);
      };
      for (const ResidentTensor &t : resident)
        consider(t.bytes, t.value);
      for (const CascadedTensor &t : cascaded)
        consider(t.ringBytes(), t.value);
      vetoed.insert(largest);
      stream.erase();
      continue;
    }
    func.erase();
    return success();
  }
}

bool ConvertNPUToNPUHWPass::lmemFits(npuhw::StreamOp stream) {
  OpBuilder b(stream->getContext());
  b.setInsertionPointAfter(stream);
  Operation *copy = b.clone(*stream);
  OpPassManager pm(npuhw::StreamOp::getOperationName());
  pm.addPass(npuhw::createNPUHWAllocateLmemPass());
  bool fits;
  {
    ScopedDiagnosticHandler quiet(stream->getContext(),
                                  [](Diagnostic &) { return success(); });
    fits = succeeded(runPipeline(pm, copy));
  }
  copy->erase();
  return fits;
}

LogicalResult ConvertNPUToNPUHWPass::emitStream(
    func::FuncOp func, ArrayRef<Operation *> ops, func::ReturnOp ret,
    const llvm::DenseSet<Value> &vetoed, SmallVector<ResidentTensor> &resident,
    SmallVector<CascadedTensor> &cascaded, std::optional<Value> &veto,
    npuhw::StreamOp &result) {
  Block &body = func.getBody().front();
  npu::TargetConfig config = npu::targetConfigFor(func);
  // The DRAM plan: arguments in r2, results in r3, intermediates in r1,
  // every tensor at a 16-byte aligned offset; with lmem-resident, an
  // intermediate that only the next op reads and that takes at most half
  // of ACT stays in LMEM (Resident.h; at offsets of the pseudo region
  // kResidentRegion while the ops are emitted).
  llvm::DenseMap<Value, DramPlace> places;
  uint64_t inputSize = 0, outputSize = 0;
  for (BlockArgument arg : body.getArguments()) {
    places[arg] = {kInputRegion, inputSize};
    inputSize = align16(inputSize + bytesOf(arg));
  }
  for (Value value : ret.getOperands()) {
    Value v = stripCasts(value);
    if (places.try_emplace(v, DramPlace{kOutputRegion, outputSize}).second)
      outputSize = align16(outputSize + bytesOf(v));
  }
  llvm::DenseMap<Value, unsigned> lastUse;
  for (auto [k, op] : llvm::enumerate(ops)) {
    for (Value operand : op->getOperands())
      lastUse[stripCasts(operand)] = k;
    for (Value result : op->getResults())
      lastUse.try_emplace(result, k);
  }
  // Resident tensors first (whole in ACT), then the cascade candidates
  // among the others (Cascade.h), then the rest in r1.
  uint64_t residentSize = 0;
  SmallVector<CascadedTensor> candidates;
  for (auto [k, op] : llvm::enumerate(ops))
    for (Value result : op->getResults()) {
      if (places.count(result) || vetoed.count(result))
        continue;
      uint64_t bytes = bytesOf(result);
      if (lmemResident &&
          align16(bytes) <= config.regionSize(npu::LmemRegion::ACT) / 2 &&
          onlyReadByNext(result, k, ops, ret)) {
        places[result] = {kResidentRegion, residentSize};
        resident.push_back({result, residentSize, bytes,
                            static_cast<unsigned>(k)});
        residentSize = align16(residentSize + bytes);
      } else if (cascade && cascadable(result, k, ops, ret)) {
        auto type = cast<ShapedType>(result.getType());
        candidates.push_back(
            {result, 0, bytes, static_cast<unsigned>(k),
             type.getDimSize(0) * type.getDimSize(1), type.getDimSize(2),
             type.getDimSize(3), elementBytes(type)});
      }
    }
  // The ACT bytes each op must leave to the resident tensors live while
  // it may run: those of its producer's neighbour (k-1), its producer, its
  // consumer and the consumer's neighbour (k+2).
  SmallVector<uint64_t> reserved(ops.size(), 0);
  for (const ResidentTensor &t : resident)
    for (int64_t j = static_cast<int64_t>(t.producer) - 1;
         j <= static_cast<int64_t>(t.producer) + 2; ++j)
      if (j >= 0 && j < static_cast<int64_t>(ops.size()))
        reserved[j] += align16(t.bytes);
  // Cascade groups: ops that run together with shares of LMEM beside the
  // rings of their cascaded tensors, and after the ops before them.
  SmallVector<CascadeGroup> groups;
  planCascades(ops, candidates, config, reserved, maxRowsPerBand, cascaded,
               groups);
  uint64_t cascadeSize = 0;
  for (CascadedTensor &t : cascaded) {
    t.offset = cascadeSize;
    places[t.value] = {kCascadeRegion, cascadeSize};
    cascadeSize = align16(cascadeSize + t.bytes);
  }
  SmallVector<const CascadeGroup *> groupOf(ops.size(), nullptr);
  for (const CascadeGroup &g : groups)
    for (unsigned k = g.first; k <= g.last; ++k)
      groupOf[k] = &g;
  ScratchPlan scratch;
  for (auto [k, op] : llvm::enumerate(ops))
    for (Value result : op->getResults())
      if (!places.count(result))
        places[result] = {kScratchRegion,
                          scratch.place(bytesOf(result), k, lastUse[result])};

  OpBuilder b(func);
  MLIRContext *ctx = func.getContext();
  Location loc = func.getLoc();
  auto stream = npuhw::StreamOp::create(b, loc, func.getSymName());
  result = stream;
  Block *block = &stream.getBody().emplaceBlock();
  // The stream runs on the target it was tiled for.
  if (Attribute target = func->getAttr(npu::kTargetAttrName))
    stream->setAttr(npu::kTargetAttrName, target);
  b.setInsertionPointToStart(block);

  // The ops in order, each with an LMEM budget (Overlap.h). An op that
  // may run at the same time as the op before it gets what that op leaves
  // of every region, and half of each region if that tiles as well (its
  // time, the longer of its MAC/VEC cycles and its DRAM traffic, within
  // 1/16 and four DRAM latencies of the time with whole regions: about
  // what the overlap saves), so that the
  // op after it fits too; odd ops' buffers sit at the top of the regions,
  // even ops' at the bottom, and an op's loads wait for the stores of the
  // op two back, whose buffers it may reuse. An op that tiles much worse
  // within a budget gets all of LMEM and runs after the op before it, and
  // the op after it after it. DRAM dependencies are per command and byte
  // range (DramHazards).
  ConstantPool constants;
  SmallVector<SmallVector<Value>> opStores;
  SmallVector<bool> opWhole;
  SmallVector<Value> allStores;
  LmemUse previousUse{};
  DramHazards hazards;
  LmemUse fullRegions;
  for (unsigned r = 0; r < npu::kNumLmemRegions; ++r)
    fullRegions[r] = config.regionSize(static_cast<npu::LmemRegion>(r));
  TilingLimits limits{static_cast<int64_t>(maxRowsPerBand),
                      static_cast<int64_t>(maxBlocksPerGroup)};
  // Per cascade group (by its first op): its ops' MAC, VEC and DRAM
  // cycles interleaved, and their time one after the other uncascaded.
  struct GroupTally {
    uint64_t mac = 0, vec = 0, dram = 0, alone = 0;
  };
  llvm::DenseMap<unsigned, GroupTally> tallies;
  for (auto [k, op] : llvm::enumerate(ops)) {
    // Beside the resident tensors live while op k may run.
    auto largestNear = [&] {
      const ResidentTensor *largest = nullptr;
      for (const ResidentTensor &t : resident)
        if (t.producer + 2 >= k && t.producer <= k + 1 &&
            (!largest || t.bytes > largest->bytes))
          largest = &t;
      return largest->value;
    };
    LmemUse regions = fullRegions;
    uint64_t &act = regions[static_cast<unsigned>(npu::LmemRegion::ACT)];
    if (reserved[k] >= act) {
      veto = largestNear();
      stream.erase();
      return failure();
    }
    act -= reserved[k];
    SmallVector<std::optional<DramPlace>> operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      Value v = stripCasts(operand);
      auto it = places.find(v);
      if (it != places.end()) {
        operands.push_back(it->second);
        continue;
      }
      if (!constantElements(v)) {
        stream.erase();
        return op->emitOpError() << "operand " << i
                                 << " is neither a tensor of the function "
                                    "nor a dense constant";
      }
      operands.push_back(std::nullopt);
    }
    Operation *mark = block->empty() ? nullptr : &block->back();
    auto emitted = [&] {
      return mark ? std::next(Block::iterator(mark)) : block->begin();
    };
    auto erase = [&] {
      SmallVector<Operation *> dead;
      for (Operation &o : llvm::make_range(emitted(), block->end()))
        dead.push_back(&o);
      for (Operation *o : llvm::reverse(dead))
        o->erase();
    };
    // Emits the op within \p budget; \p whole: after the previous op. The
    // ops of a cascade group come after the two ops before the group.
    const CascadeGroup *group = groupOf[k];
    auto emit = [&](const npu::TargetConfig &budget, bool whole) {
      TilingLimits lim = limits;
      if (group)
        lim.maxRowsPerBand = group->rowsPerBand;
      OpLowering lowering{
          b,  NameLoc::get(op->getName().getIdentifier(), op->getLoc()),
          budget, lim, operands, {}, {}, constants};
      if (group) {
        for (unsigned j = std::max(group->first, 2u) - 2; j < group->first;
             ++j)
          lowering.after.append(opStores[j]);
      } else if (k > 0 && (whole || opWhole[k - 1])) {
        lowering.after = opStores[k - 1];
      } else if (k > 1) {
        lowering.after = opStores[k - 2];
      }
      for (Value result : op->getResults())
        lowering.results.push_back(places[result]);
      return emitterFor(op)(op, lowering);
    };
    // A group pays off when its interleaved time, the longest of its ops'
    // summed MAC, VEC and DRAM cycles (the rings' bytes cross no port),
    // beats the ops' times one after the other with whole regions and the
    // cascaded tensors through DRAM. Else its first tensor goes to DRAM.
    auto weighCascade = [&](Operation *op, unsigned k,
                            const CascadeGroup &g, const LmemUse &whole,
                            auto emitted, auto erase) -> LogicalResult {
      GroupTally &tally = tallies[g.first];
      npu::CostEstimate e{};
      if (auto cost = dyn_cast<npu::NPUCostOpInterface>(op))
        e = cost.estimateCost(config);
      const uint64_t bw = config.dmaDramBytesPerCycle;
      tally.mac += e.macCycles;
      tally.vec += e.vecCycles;
      tally.dram +=
          dramBurstBytes(emitted(), block->end(), config.dmaBurstBytes);
      uint64_t through = 0;
      for (const CascadedTensor &t : cascaded)
        if (t.producer == k || t.producer + 1 == k)
          through += t.bytes;
      // The op alone: emitted again after the group's commands so far,
      // measured and erased.
      Operation *last = &block->back();
      const size_t constSize = constants.bytes().size();
      {
        ScopedDiagnosticHandler quiet(ctx,
                                      [](Diagnostic &) { return success(); });
        const CascadeGroup *saved = group;
        group = nullptr;
        FailureOr<SmallVector<Value>> alone = emit(budget(config, whole), true);
        group = saved;
        uint64_t bytes = through;
        if (succeeded(alone))
          bytes += dramBurstBytes(std::next(Block::iterator(last)),
                                  block->end(), config.dmaBurstBytes);
        tally.alone += std::max({e.macCycles, e.vecCycles, (bytes + bw - 1) / bw});
        for (Operation *o = &block->back(); o != last;) {
          Operation *prev = o->getPrevNode();
          o->erase();
          o = prev;
        }
        constants.truncate(constSize);
      }
      if (k < g.last)
        return success();
      const uint64_t together =
          std::max({tally.mac, tally.vec, (tally.dram + bw - 1) / bw});
      if (together + together / 16 < tally.alone)
        return success();
      for (const CascadedTensor &t : cascaded)
        if (t.producer == g.first)
          veto = t.value;
      stream.erase();
      return failure();
    };
    if (group) {
      // Its share of the regions beside the rings; a failure sends the
      // cascaded tensor it reads (or writes) back to DRAM.
      LmemUse share;
      for (unsigned r = 0; r < npu::kNumLmemRegions; ++r)
        share[r] = fullRegions[r] / (group->last - group->first + 1);
      share[static_cast<unsigned>(npu::LmemRegion::ACT)] =
          group->act[k - group->first];
      FailureOr<SmallVector<Value>> stores = failure();
      {
        ScopedDiagnosticHandler quiet(ctx,
                                      [](Diagnostic &) { return success(); });
        stores = emit(budget(config, share), false);
      }
      if (failed(stores)) {
        for (const CascadedTensor &t : cascaded)
          if (t.producer + 1 == k || (t.producer == k && !veto))
            veto = t.value;
        stream.erase();
        return failure();
      }
      if (failed(weighCascade(op, k, *group, regions, emitted, erase)))
        return failure();
      hazards.link(emitted(), block->end());
      for (Operation &o : llvm::make_range(emitted(), block->end()))
        o.setAttr(kCascadeOpAttr, b.getI64IntegerAttr(k));
      previousUse = fullRegions;
      opStores.push_back(*stores);
      opWhole.push_back(k == group->last);
      allStores.append(*stores);
      continue;
    }
    // The candidates: half (or less), what the previous op leaves, whole.
    // (An op right before a cascade group leaves room for no one: the
    // group waits for it.)
    const bool lastBefore = k + 1 == ops.size() || groupOf[k + 1];
    LmemUse available = regions, half;
    if (k > 0 && !opWhole[k - 1])
      for (unsigned r = 0; r < npu::kNumLmemRegions; ++r)
        available[r] -= std::min(available[r], previousUse[r]);
    for (unsigned r = 0; r < npu::kNumLmemRegions; ++r)
      half[r] = std::min(available[r], regions[r] / 2);
    // (The last op leaves room for no one: it takes what is left.)
    SmallVector<std::pair<LmemUse, bool>> candidates;
    if (overlapOps && !lastBefore)
      candidates.push_back({half, false});
    if (overlapOps && (available != half || lastBefore))
      candidates.push_back({available, false});
    candidates.push_back({regions, true});
    size_t constSize = constants.bytes().size();
    // The op's time with a tiling: its engine work (the cost model's MAC
    // and VEC cycles) or its DRAM traffic, whichever is longer; none when
    // it does not tile within \p use (emitted quietly, then erased).
    uint64_t engines = 0;
    if (auto cost = dyn_cast<npu::NPUCostOpInterface>(op)) {
      npu::CostEstimate e = cost.estimateCost(config);
      engines = std::max(e.macCycles, e.vecCycles);
    }
    auto time = [&](uint64_t bytes) {
      return std::max(engines, (bytes + config.dmaDramBytesPerCycle - 1) /
                                   config.dmaDramBytesPerCycle);
    };
    auto timeWithin = [&](const LmemUse &use,
                          bool whole) -> std::optional<uint64_t> {
      ScopedDiagnosticHandler quiet(ctx,
                                    [](Diagnostic &) { return success(); });
      npu::TargetConfig cut = budget(config, use);
      FailureOr<SmallVector<Value>> stores = emit(cut, whole);
      std::optional<uint64_t> t;
      if (succeeded(stores) &&
          fitsBudget(lmemUse(emitted(), block->end()), cut))
        t = time(dramBurstBytes(emitted(), block->end(),
                                config.dmaBurstBytes));
      erase();
      constants.truncate(constSize);
      return t;
    };
    unsigned chosen = candidates.size() - 1;
    SmallVector<std::optional<uint64_t>> times;
    for (auto [use, whole] : candidates)
      times.push_back(candidates.size() > 1 || reserved[k]
                          ? timeWithin(use, whole)
                          : std::nullopt);
    if (candidates.size() > 1) {
      uint64_t limit = times.back() ? *times.back() : 0;
      limit += limit / 16 + 4 * config.dmaDramLatency;
      for (unsigned c = 0; c + 1 < candidates.size(); ++c)
        if (times[c] && (!times.back() || *times[c] <= limit)) {
          chosen = c;
          break;
        }
    }
    // Beside resident tensors the op tiles to less ACT. When that costs it
    // more than the DRAM time the largest of them saves (a store and a
    // load), that one goes back to DRAM.
    if (reserved[k]) {
      std::optional<uint64_t> full = timeWithin(fullRegions, true);
      Value largest = largestNear();
      uint64_t saved = 0;
      for (const ResidentTensor &t : resident)
        if (t.value == largest)
          saved = 2 * ((t.bytes + config.dmaDramBytesPerCycle - 1) /
                       config.dmaDramBytesPerCycle);
      if (full && (!times[chosen] || *times[chosen] > *full + saved)) {
        veto = largest;
        stream.erase();
        return failure();
      }
    }
    bool whole = candidates[chosen].second;
    FailureOr<SmallVector<Value>> stores = failure();
    if (reserved[k]) {
      // Beside resident tensors: a failure sends the largest of them back
      // to DRAM, quietly (the next attempt reports a real error).
      ScopedDiagnosticHandler quiet(ctx,
                                    [](Diagnostic &) { return success(); });
      stores = emit(budget(config, candidates[chosen].first), whole);
      if (failed(stores))
        veto = largestNear();
    } else {
      stores = emit(budget(config, candidates[chosen].first), whole);
    }
    if (failed(stores)) {
      stream.erase();
      return failure();
    }
    previousUse = lmemUse(emitted(), block->end());
    if (!whole && k % 2)
      placeFromTop(emitted(), block->end());
    hazards.link(emitted(), block->end());
    opStores.push_back(*stores);
    opWhole.push_back(whole);
    allStores.append(*stores);
  }
  // The cascaded tensors' accesses become ring accesses, the consumers'
  // commands interleaved with the producers'.
  llvm::DenseMap<Value, Value> replaced;
  if (!cascaded.empty()) {
    if (std::optional<unsigned> bad =
            makeCascades(*block, cascaded, replaced)) {
      veto = cascaded[*bad].value;
      stream.erase();
      return failure();
    }
    for (Value &token : allStores)
      token = replaced.lookup_or(token, token);
  }
  // The resident tensors' pseudo-region accesses become LMEM ones.
  if (!resident.empty()) {
    if (std::optional<unsigned> bad =
            makeResident(*block, resident, replaced)) {
      veto = resident[*bad].value;
      stream.erase();
      return failure();
    }
    for (Value &token : allStores)
      token = replaced.lookup_or(token, token);
  }
  // The lower bound charges neither kind to DRAM.
  SmallVector<ResidentTensor> kept(resident);
  for (const CascadedTensor &t : cascaded)
    kept.push_back({t.value, t.offset, t.bytes, t.producer});
  recordResident(stream, kept, ops);
  OperationState end(loc, "npuhw.end");
  end.addOperands(allStores);
  b.create(end);

  // The declarations, which precede everything else in the stream.
  b.setInsertionPointToStart(block);
  declareStream(b, loc, func, ret, places, constants.bytes(), scratch.size,
                inputSize, outputSize);
  return success();
}

void ConvertNPUToNPUHWPass::runOnOperation() {
  SmallVector<func::FuncOp> funcs;
  for (auto func : getOperation().getOps<func::FuncOp>()) {
    bool hasNpu = false;
    func.walk([&](Operation *op) {
      if (isa<npu::NPUDialect>(op->getDialect()))
        hasNpu = true;
    });
    if (hasNpu)
      funcs.push_back(func);
  }
  for (func::FuncOp func : funcs)
    if (failed(lowerFunction(func)))
      return signalPassFailure();
}
