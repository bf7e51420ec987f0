//===- LayerTable.cpp - Cycle-model figures of reference layers -*- C++ -*-===//
//
// One row per (layer, configuration, schedule): cycles, useful and padded
// MAC utilisation, the share of the depthwise peak, and each engine's busy
// and stall percentages.
//
//===----------------------------------------------------------------------===//

#include "tools/kiln-npu-sim/LayerTable.h"

#include "runtime/npu/Simulator.h"
#include "runtime/npu/TiledConv.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#include <cstring>

namespace kiln::npu {

absl::StatusOr<std::string> layerTable(bool check) {
  struct Layer {
    ConvKind kind;
    unsigned hw, cin, cout;
    const char *target;
  };
  const Layer layers[] = {
      {ConvKind::Dense3x3, 112, 64, 64, ">= 80%"},
      {ConvKind::Dense3x3, 56, 64, 64, ">= 80%"},
      {ConvKind::Dense3x3, 28, 128, 128, ">= 80%"},
      {ConvKind::Dense3x3, 14, 256, 256, ">= 80%"},
      {ConvKind::Dense1x1, 28, 256, 256, ">= 75%"},
      {ConvKind::Depthwise3x3, 56, 128, 128, ">= 80% of dw peak"},
  };
  std::string out =
      "| layer | config | schedule | tile (rows x blocks) | cycles | useful "
      "util. | padded util. | dw peak | DMA_IN busy/sem/dram | DMA_OUT "
      "busy/sem/dram | MAC busy/sem | VEC busy/sem | LMEM port stall | target "
      "|\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Layer &l : layers)
    for (const char *name : {"default", "realistic"})
      for (Schedule schedule : {Schedule::Fenced, Schedule::DoubleBuffered}) {
        absl::StatusOr<TargetConfig> cfg = TargetConfig::preset(name);
        if (!cfg.ok())
          return cfg.status();
        TiledConvOptions o;
        o.kind = l.kind;
        o.h = o.w = l.hw;
        o.cin = l.cin;
        o.cout = l.cout;
        o.schedule = schedule;
        o.config = *cfg;
        absl::StatusOr<TiledConv> conv = buildTiledConv(o);
        if (!conv.ok())
          return conv.status();
        absl::StatusOr<Simulator> sim = Simulator::create(conv->program);
        if (!sim.ok())
          return sim.status();
        if (absl::Status s = sim->setInput("x", conv->input); !s.ok())
          return s;
        RunOptions options;
        options.raceCheck = true;
        absl::StatusOr<RunResult> r = sim->run(options);
        if (!r.ok())
          return r.status();
        std::string layer = absl::StrCat(convKindName(l.kind), " ", l.hw, "x",
                                         l.hw, "x", l.cin, "->", l.cout);
        if (!r->races.empty())
          return absl::InternalError(
              absl::StrCat(layer, ": ", r->races.front().message));
        if (check) {
          std::vector<int8_t> want = tiledConvReference(*conv, o);
          absl::StatusOr<std::vector<uint8_t>> y = sim->getOutput("y");
          if (!y.ok())
            return y.status();
          if (y->size() != want.size() ||
              std::memcmp(y->data(), want.data(), want.size()))
            return absl::InternalError(
                absl::StrCat(layer, ": the result differs from the reference"));
        }
        const Stats &st = r->stats;
        uint64_t lmemStall = 0;
        for (const EngineStats &es : st.engines)
          lmemStall += es.stallLmem;
        auto pct = [&](uint64_t v) {
          return absl::StrFormat("%.1f", 100.0 * v / st.totalCycles);
        };
        auto eng = [&](Engine e, bool dram) {
          const EngineStats &es = st.engines[int(e)];
          std::string s =
              absl::StrCat(pct(es.busy), "/", pct(es.stallSemaphore));
          if (dram)
            absl::StrAppend(&s, "/", pct(es.stallDram));
          return s;
        };
        absl::StrAppendFormat(
            &out,
            "| %s | %s | %s | %d x %d%s | %d | %.1f%% | %.1f%% | %s | %s | "
            "%s | %s | %s | %d | %s |\n",
            layer, name,
            schedule == Schedule::Fenced ? "fenced" : "double-buffered",
            conv->rowsPerBand, conv->blocksPerGroup,
            conv->weightsStreamed ? " (weights streamed)" : "", st.totalCycles,
            100.0 * st.macUtilisation, 100.0 * st.paddedMacUtilisation,
            st.depthwisePaddedMacs
                ? absl::StrFormat("%.1f%%", 100.0 * st.depthwiseUtilisation)
                : std::string("-"),
            eng(Engine::DMA_IN, true), eng(Engine::DMA_OUT, true),
            eng(Engine::MAC, false), eng(Engine::VEC, false), lmemStall,
            l.target);
      }
  return out;
}

} // namespace kiln::npu
