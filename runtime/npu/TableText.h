//===- TableText.h - cells of the reports' CSV and Markdown tables -*- C++ -*-===//
//
// The NPU reports (placement, cost, per-layer) write the same two table
// formats; these make one cell of either safe to print.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_TABLETEXT_H
#define KILN_RUNTIME_NPU_TABLETEXT_H

#include <string>
#include <string_view>

namespace kiln::npu {

/// \p text as one CSV field: quoted (inner quotes doubled) when it holds a
/// comma, a quote or a newline, else as it is.
std::string csvField(std::string_view text);

/// \p text as one Markdown table cell: pipes escaped, newlines as spaces.
std::string markdownCell(std::string_view text);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_TABLETEXT_H
