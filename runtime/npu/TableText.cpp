//===- TableText.cpp - cells of the reports' CSV and Markdown tables ------===//
//
// See TableText.h.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/TableText.h"

std::string kiln::npu::csvField(std::string_view text) {
  if (text.find_first_of(",\"\n") == std::string_view::npos)
    return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"')
      quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string kiln::npu::markdownCell(std::string_view text) {
  std::string cell;
  for (char c : text) {
    if (c == '|')
      cell += "\\|";
    else if (c == '\n')
      cell += ' ';
    else
      cell += c;
  }
  return cell;
}
