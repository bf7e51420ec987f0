//===- LayerReport.cpp - Per-layer figures of a simulator run ---*- C++ -*-===//
//
// Grouping by debug tag, and the Markdown and CSV writers.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/LayerReport.h"

#include "runtime/npu/MacCount.h"
#include "runtime/npu/Simulator.h"
#include "runtime/npu/TableText.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace kiln::npu {

std::string layerName(const Program &program, uint16_t tag) {
  const DebugEntry *entry = tag ? program.findDebug(tag) : nullptr;
  if (!entry)
    return tag ? absl::StrCat("tag ", tag) : "(untagged)";
  if (!entry->location.empty())
    return entry->location;
  return entry->opName.empty() ? absl::StrCat("tag ", tag) : entry->opName;
}

double LayerReport::utilisation(const LayerRow &row) const {
  if (!row.cycles())
    return 0;
  return double(row.usefulMacs) /
         (double(row.cycles()) * double(macRows) * double(macCols));
}

double LayerReport::measuredOverBound() const {
  return lowerBoundSum ? double(totalCycles) / double(lowerBoundSum) : 0;
}

namespace {
/// |estimate - measured| <= 15% of measured.
bool within15(uint64_t estimate, uint64_t measured) {
  uint64_t diff = estimate > measured ? estimate - measured : measured - estimate;
  return 100 * diff <= 15 * measured;
}
} // namespace

absl::StatusOr<LayerReport> buildLayerReport(const Program &program,
                                             const RunResult &result) {
  const size_t n = program.commands.size();
  if (result.timings.size() != n ||
      (!result.usefulMacs.empty() && result.usefulMacs.size() != n))
    return absl::InvalidArgumentError(absl::StrCat(
        "the run has ", result.timings.size(), " command timings, the program ",
        n, " commands"));
  LayerReport report;
  report.totalCycles = result.stats.totalCycles;
  report.usefulMacs = result.stats.usefulMacs;
  report.usefulMacsCounted = result.stats.usefulMacsCounted;
  report.macRows = program.config.macRows;
  report.macCols = program.config.macCols;
  std::map<uint16_t, size_t> index; // tag -> row
  for (size_t i = 0; i < n; ++i) {
    const Command &c = program.commands[i];
    if (c.engine() == Engine::CTRL)
      continue;
    const CommandTiming &t = result.timings[i];
    auto [it, fresh] = index.try_emplace(c.tag, report.layers.size());
    if (fresh) {
      LayerRow row;
      row.tag = c.tag;
      row.name = layerName(program, c.tag);
      if (const DebugEntry *d = c.tag ? program.findDebug(c.tag) : nullptr)
        row.op = d->opName;
      row.start = t.start;
      row.end = t.end;
      if (const LayerCost *cost = c.tag ? program.findCost(c.tag) : nullptr) {
        row.hasCost = true;
        row.cost = *cost;
      }
      report.layers.push_back(std::move(row));
    }
    LayerRow &row = report.layers[it->second];
    ++row.commands;
    row.start = std::min(row.start, t.start);
    row.end = std::max(row.end, t.end);
    row.occupied[static_cast<int>(c.engine())] += t.end - t.start;
    row.paddedMacs += commandPaddedMacs(c);
    if (!result.usefulMacs.empty())
      row.usefulMacs += result.usefulMacs[i];
  }
  for (const LayerRow &row : report.layers) {
    if (!row.hasCost)
      continue;
    ++report.layersWithCost;
    report.estimateSum += row.cost.estimate;
    report.lowerBoundSum += row.cost.lowerBound();
    report.spanSum += row.cycles();
    if (within15(row.cost.estimate, row.cycles()))
      ++report.layersWithin15;
  }
  return report;
}

//===----------------------------------------------------------------------===//
// Writers
//===----------------------------------------------------------------------===//

namespace {
/// a / b as "1.23" (or "" when b is 0).
std::string ratio(uint64_t a, uint64_t b) {
  return b ? absl::StrFormat("%.2f", double(a) / double(b)) : "";
}

std::string percent(double fraction) {
  return absl::StrFormat("%.1f%%", 100.0 * fraction);
}

std::string summaryLine(const LayerReport &r) {
  return absl::StrFormat(
      "%d of %d layers with an estimate are within 15%% of their measured "
      "cycles; measured / lower bound: %d / %d = %s",
      r.layersWithin15, r.layersWithCost, r.totalCycles, r.lowerBoundSum,
      r.lowerBoundSum ? ratio(r.totalCycles, r.lowerBoundSum) : "n/a");
}
} // namespace

std::string layerReportMarkdown(const LayerReport &r) {
  std::string out =
      "| layer | op | commands | estimate | lower bound | bound | measured | "
      "estimate / measured | measured / bound | MAC util. |\n"
      "|---|---|---:|---:|---:|---|---:|---:|---:|---:|\n";
  for (const LayerRow &row : r.layers) {
    std::string util = r.usefulMacsCounted ? percent(r.utilisation(row)) : "n/a";
    if (row.hasCost)
      absl::StrAppendFormat(
          &out, "| %s | %s | %d | %d | %d | %s | %d | %s | %s | %s |\n",
          markdownCell(row.name), row.op, row.commands, row.cost.estimate,
          row.cost.lowerBound(), row.cost.boundBy(), row.cycles(),
          ratio(row.cost.estimate, row.cycles()),
          ratio(row.cycles(), row.cost.lowerBound()), util);
    else
      absl::StrAppendFormat(&out, "| %s | %s | %d | | | | %d | | | %s |\n",
                            markdownCell(row.name), row.op, row.commands,
                            row.cycles(), util);
  }
  double total = r.totalCycles ? double(r.usefulMacs) /
                                     (double(r.totalCycles) * r.macRows *
                                      r.macCols)
                               : 0;
  // Spans against spans; the bound against the run's cycles.
  absl::StrAppendFormat(
      &out, "| **total** | | | %d | %d | | %d | %s | %s | %s |\n\n",
      r.estimateSum, r.lowerBoundSum, r.spanSum,
      ratio(r.estimateSum, r.spanSum),
      ratio(r.totalCycles, r.lowerBoundSum),
      r.usefulMacsCounted ? percent(total) : "n/a");
  absl::StrAppend(&out, summaryLine(r), "\n");
  return out;
}

std::string layerReportCsv(const LayerReport &r) {
  std::string out =
      "layer,op,commands,start,end,measured,estimate,lower_bound,bound,"
      "mac_cycles,vec_cycles,dram_cycles,useful_macs,padded_macs,"
      "mac_utilisation,dma_in_occupied,dma_out_occupied,mac_occupied,"
      "vec_occupied\n";
  for (const LayerRow &row : r.layers) {
    absl::StrAppendFormat(&out, "%s,%s,%d,%d,%d,%d,", csvField(row.name),
                          csvField(row.op), row.commands, row.start, row.end,
                          row.cycles());
    if (row.hasCost)
      absl::StrAppendFormat(&out, "%d,%d,%s,%d,%d,%d,", row.cost.estimate,
                            row.cost.lowerBound(), row.cost.boundBy(),
                            row.cost.macCycles, row.cost.vecCycles,
                            row.cost.dramCycles);
    else
      out += ",,,,,,";
    if (r.usefulMacsCounted)
      absl::StrAppendFormat(&out, "%d,%d,%.4f,", row.usefulMacs, row.paddedMacs,
                            r.utilisation(row));
    else
      absl::StrAppendFormat(&out, ",%d,,", row.paddedMacs);
    absl::StrAppendFormat(&out, "%d,%d,%d,%d\n",
                          row.occupied[static_cast<int>(Engine::DMA_IN)],
                          row.occupied[static_cast<int>(Engine::DMA_OUT)],
                          row.occupied[static_cast<int>(Engine::MAC)],
                          row.occupied[static_cast<int>(Engine::VEC)]);
  }
  absl::StrAppendFormat(&out, "# total cycles %d, estimate sum %d, measured "
                              "span sum %d, lower bound sum %d\n",
                        r.totalCycles, r.estimateSum, r.spanSum,
                        r.lowerBoundSum);
  absl::StrAppend(&out, "# ", summaryLine(r), "\n");
  return out;
}

} // namespace kiln::npu
