//===- MacCount.h - Useful and padded MACs of NPU-v1 commands ---*- C++ -*-===//
//
// The two MAC figures of the cycle model (docs/npu-cycle-model.md): the padded
// count, which is what the array is kept busy with (whole channel blocks),
// and the useful count, the products that can change a result: a nonzero
// weight times an input channel that is not constantly the zero point.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_MACCOUNT_H
#define KILN_RUNTIME_NPU_MACCOUNT_H

#include "runtime/npu/Commands.h"
#include "runtime/npu/Config.h"

#include "absl/types/span.h"

#include <cstdint>

namespace kiln::npu {

/// Multiply-accumulates the array performs for \p command, padding channels
/// included (0 except MAC commands): out pixels x 16*out.cb x 16*in.cb x
/// kh*kw for MAC_CONV, out pixels x 16*cb x kh*kw for MAC_DWCONV.
uint64_t commandPaddedMacs(const Command &command);

/// Useful multiply-accumulates of \p command, read from \p lmem as it is when
/// the command starts: out pixels x the number of weight positions (ky, kx,
/// ci, co) whose weight is nonzero and whose input channel ci is *live*, that
/// is, holds a value other than in_zp (fp16: other than +-0) somewhere in the
/// input view. 0 except MAC commands.
uint64_t commandUsefulMacs(const Command &command,
                           absl::Span<const uint8_t> lmem);

/// MAC_DWCONV throughput in MACs per cycle: rows*cols/8 (one eighth of the
/// dense peak).
uint64_t depthwiseMacsPerCycle(const TargetConfig &config);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_MACCOUNT_H
