//===- Format.h - The .npub container format --------------------*- C++ -*-===//
//
// Reader and writer of the .npub container (docs/npu-isa.md, "Container
// format"): a 64-byte header, a section table, and the COMMANDS, CONST,
// REGIONS, IO, DEBUG and TARGET sections. The reader takes a byte buffer and
// bounds-checks every length, so a fuzzer can drive it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_FORMAT_H
#define KILN_RUNTIME_NPU_FORMAT_H

#include "runtime/npu/Commands.h"
#include "runtime/npu/Config.h"

#include "absl/status/statusor.h"
#include "absl/types/span.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npu {

/// Format version written by this library; readers accept any minor of the
/// same major.
inline constexpr uint16_t kFormatMajor = 1;
inline constexpr uint16_t kFormatMinor = 1;
/// Size of the file header.
inline constexpr size_t kHeaderBytes = 64;
/// Size of one section-table entry.
inline constexpr size_t kSectionEntryBytes = 32;

/// Section types.
enum class SectionType : uint32_t {
  COMMANDS = 1,
  CONST = 2,
  REGIONS = 3,
  IO = 4,
  DEBUG = 5,
  TARGET = 6,
  COST = 7, ///< Since 1.1.
};
/// Section-table flag: a reader that does not know the type must reject.
inline constexpr uint32_t kSectionRequired = 1;

/// What a DRAM region holds.
enum class RegionKind : uint8_t {
  CONST = 0,
  SCRATCH = 1,
  INPUT = 2,
  OUTPUT = 3,
  INOUT = 4
};

/// A declared DRAM region: the runtime binds at least \c size bytes to it.
struct RegionDecl {
  uint8_t region = 0;
  RegionKind kind = RegionKind::SCRATCH;
  uint64_t size = 0;
};

/// Layout codes of IO tensors in DRAM.
enum class IoLayout : uint8_t { NHWC = 0, NHWC_C16 = 1 };

/// A model input or output tensor in DRAM.
struct IoDecl {
  std::string name;
  bool isOutput = false;
  uint8_t region = 2;
  uint8_t dtype = 0; ///< A DType.
  IoLayout layout = IoLayout::NHWC;
  uint32_t offset = 0;
  std::vector<uint32_t> shape;
  float scale = 1.0f;
  int32_t zeroPoint = 0;
  /// Bytes of the tensor in DRAM in its layout.
  uint64_t byteSize() const;
};

/// Maps a command tag to the operation it came from.
struct DebugEntry {
  uint16_t tag = 0;
  std::string opName;
  std::string location;
};

/// The compiler's cost figures of one layer (the commands with one debug
/// tag), from the optional COST section (format 1.1, docs/npu-isa.md §7).
struct LayerCost {
  uint16_t tag = 0;
  /// The compile-time prediction of the layer's cycles.
  uint64_t estimate = 0;
  /// The lower bound's terms: useful MACs at the layer's peak (dense or
  /// depthwise, fp16 at half rate), VEC work at vec.lanes per cycle, and the
  /// bytes of its tensors moved once at dma.dram_bytes_per_cycle.
  uint64_t macCycles = 0, vecCycles = 0, dramCycles = 0;
  /// Multiply-accumulates the layer needs (padding excluded).
  uint64_t usefulMacs = 0;
  /// The largest of the three terms.
  uint64_t lowerBound() const;
  /// "MAC", "VEC" or "DRAM": the term that sets lowerBound() (MAC, then VEC
  /// on ties).
  const char *boundBy() const;
};

/// The contents of a .npub file.
struct Program {
  TargetConfig config;
  std::string targetJson; ///< The TARGET section verbatim.
  std::vector<Command> commands;
  /// The COMMANDS section verbatim when read from a file (the verifier checks
  /// its reserved bytes); empty for programs built in memory.
  std::vector<uint8_t> commandBytes;
  std::vector<uint8_t> constants; ///< Bound as r0.
  std::vector<RegionDecl> regions;
  std::vector<IoDecl> io;
  std::vector<DebugEntry> debug;
  /// Per-tag cost figures (COST section); empty when the file has none.
  std::vector<LayerCost> costs;
  /// The declaration of DRAM \p region, or null.
  const RegionDecl *findRegion(unsigned region) const;
  /// The debug entry of \p tag, or null.
  const DebugEntry *findDebug(uint16_t tag) const;
  /// The cost figures of \p tag, or null.
  const LayerCost *findCost(uint16_t tag) const;
};

/// Serialises \p program (TARGET from config.toJson() when targetJson is
/// empty).
std::vector<uint8_t> writeProgram(const Program &program);

/// Parses a .npub buffer: header, CRC, sections, command decoding. Does not
/// run the verifier (see Verifier.h).
absl::StatusOr<Program> readProgram(absl::Span<const uint8_t> bytes);

/// CRC-32 (ISO-HDLC, zlib's crc32) of \p bytes.
uint32_t crc32Of(absl::Span<const uint8_t> bytes);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_FORMAT_H
