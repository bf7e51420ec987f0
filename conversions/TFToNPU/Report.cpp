//===- Report.cpp - the NPU placement report --------------------*- C++ -*-===//
//
// The table of every tf op with its placement and, for CPU ops, the
// reason: Markdown or CSV, followed by a summary (Vela's CPU-fallback list).
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToNPU/TFToNPU.h"

#include "dialects/TF/IR/TFNodeName.h"
#include "runtime/npu/TableText.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/MapVector.h"

#include <map>

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_to_npu;
using kiln::npu::csvField;
using kiln::npu::markdownCell;

std::string tf_to_npu::nodeName(Location loc) {
  return kiln::tf::nodeName(loc).str();
}

void tf_to_npu::writeReport(raw_ostream &os, ArrayRef<ReportRow> rows,
                            bool markdown) {
  static constexpr const char *columns[] = {
      "node", "op", "function", "placement", "segment", "reason kind",
      "reason"};
  if (markdown) {
    os << "|";
    for (const char *column : columns)
      os << " " << column << " |";
    os << "\n|---|---|---|---|---|---|---|\n";
  } else {
    os << "node,op,function,placement,segment,reason_kind,reason\n";
  }
  size_t npuOps = 0;
  llvm::MapVector<StringRef, size_t> segments;
  llvm::MapVector<StringRef, size_t> cpuByKind;
  // Per op type: how many on the NPU and on the CPU.
  std::map<std::string, std::pair<size_t, size_t>> byOp;
  for (const ReportRow &row : rows) {
    bool npu = row.placement.onNPU();
    std::string fields[] = {row.node,
                            row.op,
                            row.function,
                            npu ? "NPU" : "CPU",
                            row.segment,
                            reasonKindName(row.placement.kind).str(),
                            row.placement.reason};
    if (markdown) {
      os << "|";
      for (const std::string &field : fields)
        os << " " << markdownCell(field) << " |";
      os << "\n";
    } else {
      for (auto [index, field] : llvm::enumerate(fields))
        os << (index ? "," : "") << csvField(field);
      os << "\n";
    }
    (npu ? byOp[row.op].first : byOp[row.op].second) += 1;
    if (npu) {
      ++npuOps;
      ++segments[row.segment];
    } else {
      ++cpuByKind[reasonKindName(row.placement.kind)];
    }
  }
  // The summary: for CSV as comment lines a reader can skip.
  StringRef prefix = markdown ? "" : "# ";
  os << (markdown ? "\n" : "") << prefix << npuOps << " of " << rows.size()
     << " tf ops on the NPU in " << segments.size() << " segment"
     << (segments.size() == 1 ? "" : "s") << ", " << rows.size() - npuOps
     << " on the CPU";
  if (!cpuByKind.empty()) {
    os << " (";
    for (auto [index, entry] : llvm::enumerate(cpuByKind))
      os << (index ? ", " : "") << entry.first << ": " << entry.second;
    os << ")";
  }
  os << "\n";
  if (markdown)
    os << "\n";
  for (const auto &[op, counts] : byOp)
    os << prefix << (markdown ? "- " : "") << op << ": " << counts.first
       << " NPU, " << counts.second << " CPU\n";
}
