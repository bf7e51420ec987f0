//===- LayerTable.h - Cycle-model figures of reference layers ---*- C++ -*-===//
//
// The table `kiln-npu-sim --layer_table` prints: the six layers the NPU
// compiler's targets name, as hand-built tiled streams, fenced and double
// buffered, in the default and the realistic configuration.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_KILN_NPU_SIM_LAYERTABLE_H
#define KILN_TOOLS_KILN_NPU_SIM_LAYERTABLE_H

#include "absl/status/statusor.h"

#include <string>

namespace kiln::npu {

/// Builds and runs every layer in every configuration and schedule
/// (functional, race checker on, results checked against the reference when
/// \p check is set) and returns a Markdown table.
absl::StatusOr<std::string> layerTable(bool check);

} // namespace kiln::npu

#endif // KILN_TOOLS_KILN_NPU_SIM_LAYERTABLE_H
