//===- LayerReport.h - Per-layer figures of a simulator run -----*- C++ -*-===//
//
// Groups the commands of a run by their debug tag (one tag per npu op, named
// after its TensorFlow node by the DEBUG section) and reports, per layer, the
// measured cycles, the engines' occupancy and the useful MACs next to the
// compiler's estimate and lower bound from the COST section; as Markdown or
// CSV. No MLIR: kiln-npu-sim and kiln-run call it on a Program and the
// RunResult of its run.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_LAYERREPORT_H
#define KILN_RUNTIME_NPU_LAYERREPORT_H

#include "runtime/npu/Format.h"

#include "absl/status/statusor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npu {

struct RunResult;

/// One layer: the engine commands (CTRL excluded) that carry one tag.
struct LayerRow {
  uint16_t tag = 0;
  /// The TensorFlow node: the DEBUG entry's location, else its op name,
  /// else "(untagged)" for tag 0.
  std::string name;
  /// The npu op of the DEBUG entry ("" when unknown).
  std::string op;
  size_t commands = 0;
  /// The measured span: from the start of the layer's first command to the
  /// end of its last (port stalls included). With ops that overlap, spans of
  /// neighbouring layers overlap and their sum exceeds the run's cycles.
  uint64_t start = 0, end = 0;
  /// Cycles each engine was occupied by the layer's commands (start to end
  /// of each command, port stalls included).
  uint64_t occupied[kNumEngines] = {};
  /// MACs of the layer's MAC commands: useful (0 in a timing-only run) and
  /// padded to whole channel blocks.
  uint64_t usefulMacs = 0, paddedMacs = 0;
  /// The compiler's figures, when the program has a COST entry for the tag.
  bool hasCost = false;
  LayerCost cost;

  /// end - start.
  uint64_t cycles() const { return end - start; }
};

/// The layers of one run, in the order of their first command.
struct LayerReport {
  std::vector<LayerRow> layers;
  /// The run's total cycles (END), its useful MACs, and whether they were
  /// counted (functional run).
  uint64_t totalCycles = 0, usefulMacs = 0;
  bool usefulMacsCounted = false;
  /// The MAC array, for utilisation figures.
  unsigned macRows = 16, macCols = 16;
  /// Sums over the layers with a COST entry: estimates, lower bounds and
  /// measured spans (with overlapping layers spanSum exceeds totalCycles; it
  /// is what estimateSum predicts).
  uint64_t estimateSum = 0, lowerBoundSum = 0, spanSum = 0;
  size_t layersWithCost = 0;
  /// Layers whose estimate is within 15% of their measured cycles.
  size_t layersWithin15 = 0;

  /// Useful MACs of \p row over its cycles times the array size.
  double utilisation(const LayerRow &row) const;
  /// totalCycles / lowerBoundSum (0 without costs).
  double measuredOverBound() const;
};

/// Builds the report of \p program's run \p result (timings and per-command
/// useful MACs of Simulator::run). Fails when \p result does not belong to
/// \p program (a different number of commands).
absl::StatusOr<LayerReport> buildLayerReport(const Program &program,
                                             const RunResult &result);

/// The name a layer's slices and rows carry for \p tag (LayerRow::name).
std::string layerName(const Program &program, uint16_t tag);

/// A Markdown table, one row per layer, then a summary row (estimates and
/// measured spans added up, the run's cycles over the bounds' sum) and a line
/// with the estimate's accuracy.
std::string layerReportMarkdown(const LayerReport &report);
/// The same figures as CSV with a header line; the summary as `#` lines.
std::string layerReportCsv(const LayerReport &report);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_LAYERREPORT_H
