//===- Commands.h - NPU-v1 commands and their encoding ----------*- C++ -*-===//
//
// The 64-byte commands of the NPU-v1 command stream: opcodes, engines, data
// types, the decoded command, and a table of named fields per opcode that
// drives the encoder, the decoder, the reserved-byte check, the disassembler
// and the assembler. The layout is specified in docs/npu-isa.md.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_COMMANDS_H
#define KILN_RUNTIME_NPU_COMMANDS_H

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npu {

/// Size of one encoded command in bytes.
inline constexpr size_t kCommandBytes = 64;
/// Semaphore id meaning "no wait" / "no signal".
inline constexpr uint8_t kNoSemaphore = 0xff;

/// The engines; the high nibble of an opcode.
enum class Engine : uint8_t {
  CTRL = 0,
  DMA_IN = 1,
  DMA_OUT = 2,
  MAC = 3,
  VEC = 4
};
/// Number of engines.
inline constexpr int kNumEngines = 5;
/// Returns "CTRL", "DMA_IN", ...
const char *engineName(Engine engine);

/// Opcodes: (engine << 4) | index.
enum class Opcode : uint8_t {
  NOP = 0x00,
  END = 0x01,
  DMA_LOAD = 0x10,
  DMA_FILL = 0x11,
  DMA_STORE = 0x20,
  MAC_CONV = 0x30,
  MAC_DWCONV = 0x31,
  VEC_REQUANT = 0x40,
  VEC_ELTWISE = 0x41,
  VEC_UNARY = 0x42,
  VEC_POOL = 0x43,
};
/// Every opcode, in table order.
absl::Span<const Opcode> allOpcodes();
/// True if \p byte is a defined opcode.
bool isValidOpcode(uint8_t byte);
/// Mnemonic ("MAC_CONV"), or "UNKNOWN".
const char *opcodeName(Opcode opcode);
/// The engine that executes \p opcode.
inline Engine engineOf(Opcode opcode) {
  return static_cast<Engine>(static_cast<uint8_t>(opcode) >> 4);
}

/// Element types of LMEM views.
enum class DType : uint8_t { I8 = 0, I32 = 1, F16 = 2, F32 = 3 };
/// Number of dtypes.
inline constexpr int kNumDTypes = 4;
/// Size of one element in bytes.
unsigned dtypeSize(DType dtype);
/// "i8", "i32", "f16", "f32".
const char *dtypeName(DType dtype);

/// Header flag bits (byte 1), per opcode.
namespace flags {
inline constexpr uint8_t kLmemSource = 1;  ///< DMA_LOAD: src is LMEM.
inline constexpr uint8_t kAccumulate = 1;  ///< MAC_*: add to the output.
inline constexpr uint8_t kFp16 = 2;        ///< MAC_*: fp16 mode.
inline constexpr uint8_t kPerTensor = 1;   ///< VEC_REQUANT: one record.
inline constexpr uint8_t kDoubleRound = 2; ///< VEC_REQUANT, VEC_UNARY.
inline constexpr uint8_t kLut = 4;         ///< VEC_REQUANT: table lookup.
} // namespace flags

/// VEC_ELTWISE operations.
enum class EltOp : uint8_t { ADD = 0, SUB = 1, MUL = 2, MIN = 3, MAX = 4 };
/// VEC_ELTWISE second-operand broadcast.
enum class Broadcast : uint8_t { TENSOR = 0, SCALAR = 1, CHANNEL = 2 };
/// VEC_UNARY operations.
enum class UnaryOp : uint8_t {
  CONVERT = 0,
  ABS = 1,
  NEG = 2,
  CLAMP = 3,
  RESCALE = 4,
  LUT = 5
};
/// VEC_POOL operations.
enum class PoolOp : uint8_t { MAX = 0, AVG = 1, SUM = 2 };

/// A feature-map view in LMEM: 16 bytes in a command. Element (y, x, c) is at
/// addr + 16 * (y * sh + x * sw + (c / 16) * sc) + (c % 16) * dtypeSize.
struct ViewDesc {
  uint32_t addr = 0; ///< 24-bit byte address, 16-byte aligned.
  uint8_t dtype = 0; ///< A DType.
  uint16_t w = 0, h = 0, cb = 0;
  uint16_t sw = 0, sh = 0, sc = 0; ///< Strides in 16-byte units.
  /// Dense [h][w][cb*16] view at \p addr.
  static ViewDesc dense(uint32_t addr, DType dtype, unsigned w, unsigned h,
                        unsigned cb);
  /// Bytes of one 16-lane vector.
  unsigned vectorBytes() const { return 16 * dtypeSize(DType(dtype)); }
  /// Byte address of the 16-lane vector (y, x, block).
  uint64_t vectorAddr(unsigned y, unsigned x, unsigned block) const {
    return addr +
           16ull * (uint64_t(y) * sh + uint64_t(x) * sw + uint64_t(block) * sc);
  }
  /// One past the highest byte the view touches.
  uint64_t end() const;
};

/// A decoded command. Only the fields of its opcode are meaningful; the field
/// table says which ones those are.
struct Command {
  Opcode opcode = Opcode::NOP;
  uint8_t flags = 0;
  uint8_t wait[2] = {kNoSemaphore, kNoSemaphore};
  uint8_t signal[2] = {kNoSemaphore, kNoSemaphore};
  uint16_t tag = 0;

  ViewDesc in, in2, out;
  /// MAC: weights; VEC: per-channel records or parameter block.
  uint32_t waddr = 0, paddr = 0;
  /// VEC: lookup table.
  uint32_t laddr = 0;

  // DMA.
  uint8_t region = 0, pad = 0;
  uint32_t src = 0, dst = 0, srcRun = 0, dstRun = 0;
  uint16_t n[3] = {0, 0, 0};
  uint32_t srcStride[3] = {0, 0, 0}, dstStride[3] = {0, 0, 0};
  uint32_t bytes = 0, pattern = 0;

  // Windows and arithmetic.
  uint8_t kh = 0, kw = 0, sy = 0, sx = 0, dy = 0, dx = 0;
  uint8_t pt = 0, pb = 0, pl = 0, pr = 0;
  int16_t inZp = 0, outZp = 0, minV = 0, maxV = 0;
  int32_t mult = 0;
  uint8_t shift = 0;
  uint8_t op = 0, bcast = 0;

  /// The engine that runs this command.
  Engine engine() const { return engineOf(opcode); }
};

/// One named field of an opcode's layout.
struct FieldInfo {
  const char *name; ///< "in.addr", "kh", "wait0"...
  uint8_t offset;   ///< Byte offset in the 64-byte command.
  uint8_t size;     ///< 1, 2, 3 or 4 bytes, little-endian.
  bool isSigned;
  int64_t (*get)(const Command &);
  void (*set)(Command &, int64_t);
};

/// The fields of \p opcode, header fields first (opcode byte excluded).
absl::Span<const FieldInfo> fieldsOf(Opcode opcode);

/// Encodes \p command into 64 bytes; reserved bytes are zero.
std::array<uint8_t, kCommandBytes> encode(const Command &command);
/// Appends the encoding of every command to a byte vector.
std::vector<uint8_t> encodeStream(absl::Span<const Command> commands);
/// Decodes 64 bytes. Fails only on an unknown opcode; field values are
/// checked by the verifier.
absl::StatusOr<Command> decode(const uint8_t *bytes, size_t index);
/// Field-by-field equality over the fields of the opcode.
bool sameFields(const Command &a, const Command &b);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_COMMANDS_H
