//===- Kernels.h - Functional execution of NPU-v1 commands ------*- C++ -*-===//
//
// The simulator's per-command kernels: each command's effect on LMEM and
// DRAM, bit-exact as docs/npu-isa.md specifies. The independent tensor-level
// reference (Reference.h) computes the same arithmetic without these.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_KERNELS_H
#define KILN_RUNTIME_NPU_KERNELS_H

#include "runtime/npu/Commands.h"
#include "runtime/npu/Config.h"

#include "absl/status/status.h"

#include <cstdint>
#include <vector>

/// The instruction sets dotProduct4 is compiled for, chosen at load time.
#define KILN_NPU_DOT_CLONES                                                    \
  __attribute__((target_clones("arch=skylake-avx512", "avx2", "default")))

namespace kiln::npu {

/// The simulated memories: LMEM (one 24-bit space) and the bound DRAM regions
/// (an empty vector is an unbound region).
struct Memory {
  std::vector<uint8_t> lmem;
  std::vector<std::vector<uint8_t>> dram;
};

/// Executes \p command (the index is for messages) on \p memory. Commands
/// are assumed verified; DRAM accesses are still checked against the bound
/// region sizes, and data-dependent parameters (per-channel shifts, eltwise
/// parameter blocks) are range-checked, so bad data is an error, not a crash.
absl::Status executeCommand(const Command &command, size_t index,
                            const TargetConfig &config, Memory &memory);

/// The int8 convolution inner product: out[j] = sum_k x[k] * w[j*K + k] for
/// j < 4, wrapping int32. Exposed for the benchmark's scalar comparison.
/// Cloned per instruction set; clang needs the clones named on the first
/// declaration, before any call.
KILN_NPU_DOT_CLONES void dotProduct4(const int16_t *x, const int16_t *w,
                                     size_t k, int32_t *out);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_KERNELS_H
