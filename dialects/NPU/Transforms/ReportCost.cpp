//===- ReportCost.cpp - npu-report-cost -------------------------*- C++ -*-===//
//
// npu-report-cost: a remark per npu operation with its cost estimate, and
// optionally a Markdown or CSV table of them all.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/Transforms/Passes.h"

#include "runtime/npu/TableText.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln::npu {
#define GEN_PASS_DEF_NPUREPORTCOSTPASS
#include "dialects/NPU/Transforms/Passes.h.inc"
} // namespace kiln::npu

using namespace mlir;
using namespace kiln::npu;

namespace {

/// `file:line:col` of the first file location inside \p loc (through names,
/// fusions and call sites), or the printed location.
std::string locationString(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return locationString(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return locationString(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return locationString(fused.getLocations().front());
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

/// One row of the table.
struct Row {
  std::string op;
  std::string location;
  CostEstimate cost;
};

void writeTable(llvm::raw_ostream &os, ArrayRef<Row> rows, bool markdown) {
  CostEstimate total;
  uint64_t totalBound = 0;
  auto line = [&](StringRef op, StringRef location, const CostEstimate &cost,
                  StringRef bound, uint64_t lowerBound) {
    if (markdown)
      os << "| " << op << " | " << location << " | " << cost.usefulMacs << " | "
         << cost.usefulMacCycles << " | " << cost.vecCycles << " | "
         << cost.dramCycles << " | " << bound << " | " << lowerBound << " | "
         << cost.estimate() << " |\n";
    else
      os << csvField(op) << "," << csvField(location) << "," << cost.usefulMacs
         << "," << cost.usefulMacCycles << "," << cost.vecCycles << ","
         << cost.dramCycles << "," << bound << "," << lowerBound << ","
         << cost.estimate() << "\n";
  };
  if (markdown)
    os << "| op | location | MACs | MAC cycles | VEC cycles | DRAM cycles | "
          "bound | lower bound | estimate |\n"
       << "|---|---|---:|---:|---:|---:|---|---:|---:|\n";
  else
    os << "op,location,macs,mac_cycles,vec_cycles,dram_cycles,bound,"
          "lower_bound,estimate\n";
  for (const Row &row : rows) {
    line(row.op, row.location, row.cost, costBoundName(row.cost.bound()),
         row.cost.lowerBound());
    total.usefulMacs += row.cost.usefulMacs;
    total.usefulMacCycles += row.cost.usefulMacCycles;
    total.vecCycles += row.cost.vecCycles;
    total.dramCycles += row.cost.dramCycles;
    total.cycles += row.cost.estimate();
    totalBound += row.cost.lowerBound();
  }
  line("total", "", total, "", totalBound);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct NPUReportCostPass final
    : kiln::npu::impl::NPUReportCostPassBase<NPUReportCostPass> {
  using Base::Base;

  void runOnOperation() override {
    if (table != "none" && table != "markdown" && table != "csv") {
      getOperation()->emitError()
          << "npu-report-cost: unknown table format '" << table
          << "' (expected none, markdown or csv)";
      return signalPassFailure();
    }
    std::vector<Row> rows;
    getOperation()->walk([&](NPUCostOpInterface op) {
      CostEstimate cost = op.estimateCostOnTarget();
      ++numOps;
      op->emitRemark() << op->getName() << ": " << cost.usefulMacs
                       << " MACs; cycles MAC " << cost.usefulMacCycles
                       << ", VEC " << cost.vecCycles << ", DRAM "
                       << cost.dramCycles << "; lower bound "
                       << cost.lowerBound() << " ("
                       << costBoundName(cost.bound()) << "); estimate "
                       << cost.estimate() << " cycles";
      rows.push_back({op->getName().getStringRef().str(),
                      locationString(op->getLoc()), cost});
    });
    if (table == "none")
      return;
    std::error_code error;
    llvm::raw_fd_ostream os(tableFile, error, llvm::sys::fs::OF_Text);
    if (error) {
      getOperation()->emitError() << "npu-report-cost: cannot write '"
                                  << tableFile << "': " << error.message();
      return signalPassFailure();
    }
    writeTable(os, rows, table == "markdown");
  }
};

} // namespace
