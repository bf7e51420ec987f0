//===- Verifier.h - Static checks of NPU-v1 command streams -----*- C++ -*-===//
//
// The static verifier: field ranges, bounds, alignment, reserved bytes,
// memory-region access rules per engine, END placement and the in-order
// semaphore coverage rule. Errors name the command index and the field.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_VERIFIER_H
#define KILN_RUNTIME_NPU_VERIFIER_H

#include "runtime/npu/Format.h"

#include "absl/status/status.h"

#include <string>
#include <vector>

namespace kiln::npu {

/// True if \p engine may read (\p write false) or write LMEM \p region.
bool lmemAccessAllowed(Engine engine, LmemRegion region, bool write);

/// The LMEM region holding byte \p addr, or false if outside LMEM.
bool lmemRegionOf(const TargetConfig &config, uint64_t addr,
                  LmemRegion &region);

/// A byte range one command reads or writes.
struct Extent {
  bool dram = false;  ///< DRAM region \c region, else LMEM.
  uint8_t region = 0; ///< DRAM region number.
  bool write = false;
  uint64_t lo = 0, hi = 0; ///< [lo, hi): DRAM offsets or LMEM addresses.
  const char *field = "";  ///< The field that names the operand.
};

/// The bounding byte ranges of every operand of \p command (one per operand;
/// an operand's bytes lie within its extent). PARAM records, tables and
/// weights are included.
std::vector<Extent> commandExtents(const Command &command);

/// Per-command work limits (docs/npu-isa.md, "Limits"): DMA runs, MACs,
/// VEC element operations.
inline constexpr uint64_t kMaxRuns = uint64_t(1) << 24;
inline constexpr uint64_t kMaxMacs = uint64_t(1) << 34;
inline constexpr uint64_t kMaxVecWork = uint64_t(1) << 30;

/// Options of the verifier.
struct VerifyOptions {
  /// Check the in-order semaphore coverage rule. Tests that exercise the
  /// simulator's deadlock detection turn it off.
  bool semaphoreRule = true;
};

/// Checks one command (fields, bounds, alignment, access rules) against the
/// target and the declared DRAM regions.
absl::Status verifyCommand(const Program &program, size_t index);

/// Checks the whole program: reserved bytes, every command, END placement,
/// the semaphore rule.
absl::Status verifyProgram(const Program &program,
                           const VerifyOptions &options = {});

/// Checks that every byte of a 64-byte command not covered by a field of its
/// opcode is zero.
absl::Status checkReservedBytes(const uint8_t *bytes, size_t index);

/// "command 12 (MAC_CONV): " — the prefix of every per-command message.
std::string commandPrefix(const Command &command, size_t index);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_VERIFIER_H
