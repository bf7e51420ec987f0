//===- EstimateLayers.cpp - npuhw-estimate-layers ---------------*- C++ -*-===//
//
// Replays every lowered stream (Analysis/StreamTiming.h) and gives each
// layer of npu.layer_costs its predicted span in the stream, so that the
// estimate the .npub COST section carries is a prediction of the span the
// layer report measures, overlap with the neighbouring layers included.
// It also takes out of each layer's DRAM lower-bound term the store and the
// load of the intermediates convert-npu-to-npuhw kept in LMEM
// (npu.resident_tensors): no command moves them through the DRAM port.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Analysis/StreamTiming.h"
#include "dialects/NPUHW/Transforms/Passes.h"

#include "dialects/NPU/IR/NPUCost.h"
#include "target/npu/NPUTarget.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

namespace kiln::npuhw {
#define GEN_PASS_DEF_NPUHWESTIMATELAYERSPASS
#include "dialects/NPUHW/Transforms/Passes.h.inc"
} // namespace kiln::npuhw

using namespace mlir;
using namespace kiln;
using namespace kiln::npuhw;

namespace {

/// The module attribute with each stream's predicted cycles.
constexpr llvm::StringLiteral kStreamEstimatesAttrName = "npu.stream_estimates";

/// The first start and last end of a layer's engine commands.
struct Span {
  uint64_t start = UINT64_MAX, end = 0;
};

/// One merged npu.layer_costs entry.
struct Entry {
  Attribute loc;
  uint64_t estimate = 0, mac = 0, vec = 0, dram = 0, macs = 0;
  /// Bytes of LMEM-resident tensors its layers store or load.
  uint64_t resident = 0;
  /// The locations whose resident bytes are counted (once each: ops that
  /// share a location share their records).
  llvm::DenseSet<Attribute> counted;
};

/// The resident bytes each layer location stores or loads, from \p stream's
/// npu.resident_tensors.
llvm::DenseMap<Attribute, uint64_t> residentBytes(StreamOp stream) {
  llvm::DenseMap<Attribute, uint64_t> bytes;
  auto records =
      stream->getAttrOfType<ArrayAttr>(npu::kResidentTensorsAttrName);
  if (!records)
    return bytes;
  for (auto record : records.getAsRange<DictionaryAttr>()) {
    auto size = record.getAs<IntegerAttr>("bytes");
    if (!size)
      continue;
    for (StringRef side : {"producer", "consumer"})
      if (Attribute loc = record.get(side))
        bytes[loc] += size.getValue().getZExtValue();
  }
  return bytes;
}

uint64_t field(DictionaryAttr entry, StringRef name) {
  auto value = entry.getAs<IntegerAttr>(name);
  return value ? value.getValue().getZExtValue() : 0;
}

struct NPUHWEstimateLayersPass final
    : kiln::npuhw::impl::NPUHWEstimateLayersPassBase<NPUHWEstimateLayersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder b(module.getContext());
    auto recorded =
        module->getAttrOfType<DictionaryAttr>(npu::kLayerCostsAttrName);
    NamedAttrList functions, totals;
    if (recorded)
      functions.append(recorded.getValue());
    if (auto existing =
            module->getAttrOfType<DictionaryAttr>(kStreamEstimatesAttrName))
      totals.append(existing.getValue());
    for (StreamOp stream : module.getOps<StreamOp>()) {
      CommandOps ops;
      FailureOr<npu::Program> program = exportStream(stream, &ops);
      if (failed(program))
        return signalPassFailure();
      StreamTiming timing = replay(*program, ops);
      totals.set(stream.getSymName(),
                 b.getI64IntegerAttr(static_cast<int64_t>(timing.totalCycles)));
      // Layers by DEBUG tag, as the report groups them; CTRL commands
      // belong to none.
      std::map<uint16_t, Span> spans;
      llvm::DenseMap<Location, uint16_t> tagOf;
      for (size_t i = 0; i < ops.size(); ++i) {
        const npu::Command &c = program->commands[i];
        if (c.engine() == npu::Engine::CTRL || !c.tag)
          continue;
        tagOf.try_emplace(ops[i]->getLoc(), c.tag);
        Span &span = spans[c.tag];
        span.start = std::min(span.start, timing.commands[i].start);
        span.end = std::max(span.end, timing.commands[i].end);
      }
      auto entries = recorded ? recorded.getAs<ArrayAttr>(stream.getSymName())
                              : ArrayAttr();
      llvm::DenseMap<Attribute, uint64_t> resident = residentBytes(stream);
      stream->removeAttr(npu::kResidentTensorsAttrName);
      if (!entries)
        continue;
      npu::TargetConfig config = npu::targetConfigFor(stream);
      functions.set(stream.getSymName(),
                    rewrite(b, entries, tagOf, spans, resident,
                            config.dmaDramBytesPerCycle));
    }
    if (!functions.empty())
      module->setAttr(npu::kLayerCostsAttrName,
                      functions.getDictionary(module.getContext()));
    if (!totals.empty())
      module->setAttr(kStreamEstimatesAttrName,
                      totals.getDictionary(module.getContext()));
  }

  /// The replay of \p program, whose commands are \p ops.
  static StreamTiming replay(const npu::Program &program,
                             const CommandOps &ops) {
    llvm::DenseMap<Operation *, unsigned> index;
    std::vector<TimedCommand> commands;
    for (size_t i = 0; i < ops.size(); ++i) {
      index[ops[i]] = i;
      TimedCommand timed = timedCommand(program.commands[i], program.config);
      for (Value dep : cast<CommandOpInterface>(ops[i]).getDeps())
        if (Operation *producer = dep.getDefiningOp())
          if (auto it = index.find(producer); it != index.end())
            timed.deps.push_back(it->second);
      commands.push_back(std::move(timed));
    }
    return replayStream(commands, program.config);
  }

  /// \p entries with one entry per layer, its estimate the layer's span;
  /// entries whose location no command carries are kept as they are. A
  /// layer's `dram` term loses the cycles of the \p resident bytes its
  /// locations store or load at \p dramBytesPerCycle (rounded down, so
  /// that it stays a lower bound).
  ArrayAttr rewrite(Builder &b, ArrayAttr entries,
                    const llvm::DenseMap<Location, uint16_t> &tagOf,
                    const std::map<uint16_t, Span> &spans,
                    const llvm::DenseMap<Attribute, uint64_t> &resident,
                    uint64_t dramBytesPerCycle) {
    std::vector<Entry> merged;
    std::map<uint16_t, size_t> byTag;
    SmallVector<Attribute> kept;
    for (Attribute attr : entries) {
      auto entry = dyn_cast<DictionaryAttr>(attr);
      auto loc = entry ? entry.getAs<LocationAttr>("loc") : LocationAttr();
      auto tag = loc ? tagOf.find(Location(loc)) : tagOf.end();
      if (tag == tagOf.end()) {
        kept.push_back(attr);
        continue;
      }
      auto [it, fresh] = byTag.try_emplace(tag->second, merged.size());
      if (fresh) {
        const Span &span = spans.at(tag->second);
        merged.push_back({loc, span.end - span.start});
        ++numLayers;
      }
      Entry &m = merged[it->second];
      m.mac += field(entry, "mac");
      m.vec += field(entry, "vec");
      m.dram += field(entry, "dram");
      m.macs += field(entry, "macs");
      if (auto it = resident.find(loc);
          it != resident.end() && m.counted.insert(loc).second)
        m.resident += it->second;
    }
    for (Entry &m : merged)
      m.dram -= std::min(m.dram, m.resident / std::max<uint64_t>(
                                                  dramBytesPerCycle, 1));
    SmallVector<Attribute> out;
    auto i64 = [&](uint64_t v) {
      return b.getI64IntegerAttr(static_cast<int64_t>(v));
    };
    for (const Entry &m : merged)
      out.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("loc", m.loc),
           b.getNamedAttr("estimate", i64(m.estimate)),
           b.getNamedAttr("mac", i64(m.mac)), b.getNamedAttr("vec", i64(m.vec)),
           b.getNamedAttr("dram", i64(m.dram)),
           b.getNamedAttr("macs", i64(m.macs))}));
    out.append(kept.begin(), kept.end());
    return b.getArrayAttr(out);
  }
};

} // namespace
