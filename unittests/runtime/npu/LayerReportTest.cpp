//===- LayerReportTest.cpp - Per-layer reports of simulator runs -*- C++ -*-===//
//
// A hand-built program with hand-written timings (grouping by tag, spans,
// occupancy, the estimate's accuracy, both writers) and a simulated stream
// (the layers' useful MACs add up to the run's).
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/LayerReport.h"
#include "runtime/npu/Examples.h"
#include "runtime/npu/Simulator.h"
#include "runtime/npu/Trace.h"

#include "gtest/gtest.h"

#include <nlohmann/json.hpp>

namespace kiln::npu {
namespace {

Command command(Opcode op, uint16_t tag) {
  Command c;
  c.opcode = op;
  c.tag = tag;
  return c;
}

/// Two layers (a convolution, tag 1, and an add, tag 2), a command without
/// a tag, END; the run's timings written by hand.
struct HandBuilt {
  Program program;
  RunResult result;
  HandBuilt() {
    program.debug = {{1, "npu.conv2d", "model/conv/Relu"},
                     {2, "npu.add", "model/add"}};
    // The convolution's estimate is 10% over its 1000 measured cycles, the
    // add's 50% under its 400.
    program.costs = {{1, 1100, 800, 120, 600, 204800},
                     {2, 200, 0, 150, 180, 0}};
    Command conv = command(Opcode::MAC_CONV, 1);
    conv.in.w = conv.in.h = conv.out.w = conv.out.h = 8;
    conv.in.cb = conv.out.cb = 2;
    conv.kh = conv.kw = 1;
    program.commands = {command(Opcode::DMA_LOAD, 1), conv,
                        command(Opcode::VEC_REQUANT, 1),
                        command(Opcode::DMA_STORE, 1),
                        command(Opcode::DMA_LOAD, 2),
                        command(Opcode::VEC_ELTWISE, 2),
                        command(Opcode::DMA_STORE, 2),
                        command(Opcode::DMA_FILL, 0), command(Opcode::END, 0)};
    result.timings = {{0, 100, 400},   {1, 400, 800},    {2, 800, 900},
                      {3, 900, 1100},  {4, 1100, 1250},  {5, 1250, 1300},
                      {6, 1300, 1500}, {7, 1500, 1510},  {8, 1510, 1510}};
    result.usefulMacs = {0, 8000, 0, 0, 0, 0, 0, 0, 0};
    result.stats.totalCycles = 1510;
    result.stats.usefulMacs = 8000;
    result.stats.usefulMacsCounted = true;
  }
};

TEST(NPULayerReport, GroupsCommandsByTag) {
  HandBuilt h;
  absl::StatusOr<LayerReport> r = buildLayerReport(h.program, h.result);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->layers.size(), 3u);
  const LayerRow &conv = r->layers[0];
  EXPECT_EQ(conv.name, "model/conv/Relu");
  EXPECT_EQ(conv.op, "npu.conv2d");
  EXPECT_EQ(conv.commands, 4u);
  EXPECT_EQ(conv.start, 100u);
  EXPECT_EQ(conv.end, 1100u);
  EXPECT_EQ(conv.cycles(), 1000u);
  EXPECT_EQ(conv.occupied[int(Engine::DMA_IN)], 300u);
  EXPECT_EQ(conv.occupied[int(Engine::MAC)], 400u);
  EXPECT_EQ(conv.occupied[int(Engine::VEC)], 100u);
  EXPECT_EQ(conv.occupied[int(Engine::DMA_OUT)], 200u);
  EXPECT_EQ(conv.usefulMacs, 8000u);
  EXPECT_EQ(conv.paddedMacs, 64u * 32 * 32);
  EXPECT_DOUBLE_EQ(r->utilisation(conv), 8000.0 / (1000.0 * 256));
  ASSERT_TRUE(conv.hasCost);
  EXPECT_EQ(conv.cost.lowerBound(), 800u);
  const LayerRow &add = r->layers[1];
  EXPECT_EQ(add.name, "model/add");
  EXPECT_EQ(add.cycles(), 400u);
  EXPECT_EQ(add.usefulMacs, 0u);
  // The untagged fill is a layer of its own, without figures; END is not a
  // layer.
  EXPECT_EQ(r->layers[2].name, "(untagged)");
  EXPECT_EQ(r->layers[2].commands, 1u);
  EXPECT_FALSE(r->layers[2].hasCost);
  EXPECT_EQ(r->layersWithCost, 2u);
  EXPECT_EQ(r->layersWithin15, 1u);
  EXPECT_EQ(r->estimateSum, 1300u);
  EXPECT_EQ(r->lowerBoundSum, 980u);
  // The measured spans of the layers with an estimate (what the estimates
  // predict), not the run's cycles.
  EXPECT_EQ(r->spanSum, 1400u);
  EXPECT_DOUBLE_EQ(r->measuredOverBound(), 1510.0 / 980.0);
}

TEST(NPULayerReport, MarkdownAndCsv) {
  HandBuilt h;
  absl::StatusOr<LayerReport> r = buildLayerReport(h.program, h.result);
  ASSERT_TRUE(r.ok()) << r.status();
  std::string md = layerReportMarkdown(*r);
  EXPECT_NE(md.find("| layer | op | commands | estimate | lower bound | bound | "
                    "measured | estimate / measured | measured / bound | MAC "
                    "util. |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| model/conv/Relu | npu.conv2d | 4 | 1100 | 800 | MAC | "
                    "1000 | 1.10 | 1.25 | 3.1% |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| model/add | npu.add | 3 | 200 | 180 | DRAM | 400 | "
                    "0.50 | 2.22 | 0.0% |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| (untagged) |  | 1 | | | | 10 | | | 0.0% |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| **total** | | | 1300 | 980 | | 1400 | 0.93 | 1.54 | "
                    "2.1% |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("1 of 2 layers with an estimate are within 15% of their "
                    "measured cycles; measured / lower bound: 1510 / 980 = "
                    "1.54"),
            std::string::npos)
      << md;
  std::string csv = layerReportCsv(*r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "layer,op,commands,start,end,measured,estimate,lower_bound,bound,"
            "mac_cycles,vec_cycles,dram_cycles,useful_macs,padded_macs,"
            "mac_utilisation,dma_in_occupied,dma_out_occupied,mac_occupied,"
            "vec_occupied");
  EXPECT_NE(csv.find("\nmodel/conv/Relu,npu.conv2d,4,100,1100,1000,1100,800,"
                     "MAC,800,120,600,8000,65536,0.0312,300,200,400,100\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\n# total cycles 1510, estimate sum 1300, measured span "
                     "sum 1400, lower bound sum 980\n"),
            std::string::npos)
      << csv;
}

TEST(NPULayerReport, NamesQuotedAndMismatchRejected) {
  HandBuilt h;
  h.program.debug[0].location = "a,\"b\"|c";
  absl::StatusOr<LayerReport> r = buildLayerReport(h.program, h.result);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_NE(layerReportCsv(*r).find("\n\"a,\"\"b\"\"|c\",npu.conv2d,"),
            std::string::npos);
  EXPECT_NE(layerReportMarkdown(*r).find("| a,\"b\"\\|c | npu.conv2d |"),
            std::string::npos);
  // A location-less entry is named by its op.
  h.program.debug[1].location = "";
  EXPECT_EQ(layerName(h.program, 2), "npu.add");
  h.result.timings.pop_back();
  EXPECT_FALSE(buildLayerReport(h.program, h.result).ok());
}

TEST(NPULayerReport, SimulatedStreamAndTrace) {
  ConvExample ex = buildConvExample({16, 16, 32, 32, 4, true, 3});
  absl::StatusOr<Simulator> sim = Simulator::create(ex.program);
  ASSERT_TRUE(sim.ok()) << sim.status();
  ASSERT_TRUE(sim->bindRegion(2, ex.input).ok());
  RunOptions options;
  options.trace = true;
  absl::StatusOr<RunResult> run = sim->run(options);
  ASSERT_TRUE(run.ok()) << run.status();
  absl::StatusOr<LayerReport> r = buildLayerReport(ex.program, *run);
  ASSERT_TRUE(r.ok()) << r.status();
  uint64_t useful = 0, commands = 0;
  for (const LayerRow &row : r->layers) {
    useful += row.usefulMacs;
    commands += row.commands;
    EXPECT_LE(row.end, run->stats.totalCycles);
  }
  EXPECT_EQ(useful, run->stats.usefulMacs);
  EXPECT_GT(useful, 0u);
  EXPECT_EQ(commands + 1, ex.program.commands.size()); // All but END.
  // The trace has one slice per layer on the layers track, named like the
  // report's rows, spanning the same cycles.
  nlohmann::json trace = nlohmann::json::parse(run->traceJson);
  size_t layers = 0;
  for (const auto &ev : trace["traceEvents"]) {
    if (ev["ph"] != "X" || ev["tid"] != kLayerTrack)
      continue;
    const LayerRow &row = r->layers[layers++];
    EXPECT_EQ(ev["name"], row.name);
    EXPECT_EQ(ev["args"]["cycles"], row.cycles());
  }
  EXPECT_EQ(layers, r->layers.size());
}

TEST(NPULayerReport, TraceEventsForAMergedTrace) {
  // kiln-run merges several streams into one trace: each stream's events go
  // to its own process, shifted to where the stream started.
  HandBuilt h;
  TraceOptions options;
  options.pid = 7;
  options.processName = "NPU segment 2";
  options.startMicros = 100;
  nlohmann::json events = nlohmann::json::parse(chromeTraceEvents(
      h.program, h.result.timings, h.program.commands.size(), options));
  ASSERT_TRUE(events.is_array());
  size_t slices = 0, layers = 0;
  for (const auto &ev : events) {
    EXPECT_EQ(ev["pid"], 7);
    if (ev["ph"] == "M" && ev["name"] == "process_name")
      EXPECT_EQ(ev["args"]["name"], "NPU segment 2");
    if (ev["ph"] != "X")
      continue;
    EXPECT_GE(double(ev["ts"]), 100.0);
    if (ev["tid"] == kLayerTrack) {
      ++layers;
      continue;
    }
    ++slices;
    // The first command (DMA_LOAD of the conv, start cycle 100) at
    // 100 us + 100 cycles at 1000 MHz.
    if (ev["args"]["index"] == 0) {
      EXPECT_DOUBLE_EQ(double(ev["ts"]), 100.1);
      EXPECT_EQ(ev["name"], "model/conv/Relu");
      EXPECT_EQ(ev["args"]["command"], "DMA_LOAD");
    }
  }
  EXPECT_EQ(slices, 8u); // Every engine command; END is an instant event.
  EXPECT_EQ(layers, 3u); // conv, add, the untagged fill.
}

} // namespace
} // namespace kiln::npu
