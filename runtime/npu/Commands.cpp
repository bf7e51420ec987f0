//===- Commands.cpp - NPU-v1 command encoding -------------------*- C++ -*-===//
//
// The field table of every opcode and the table-driven encoder and decoder.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Commands.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#include <type_traits>

namespace kiln::npu {

const char *engineName(Engine engine) {
  switch (engine) {
  case Engine::CTRL:
    return "CTRL";
  case Engine::DMA_IN:
    return "DMA_IN";
  case Engine::DMA_OUT:
    return "DMA_OUT";
  case Engine::MAC:
    return "MAC";
  case Engine::VEC:
    return "VEC";
  }
  return "?";
}

namespace {
constexpr Opcode kOpcodes[] = {
    Opcode::NOP,        Opcode::END,         Opcode::DMA_LOAD,
    Opcode::DMA_FILL,   Opcode::DMA_STORE,   Opcode::MAC_CONV,
    Opcode::MAC_DWCONV, Opcode::VEC_REQUANT, Opcode::VEC_ELTWISE,
    Opcode::VEC_UNARY,  Opcode::VEC_POOL,
};
} // namespace

absl::Span<const Opcode> allOpcodes() { return kOpcodes; }

bool isValidOpcode(uint8_t byte) {
  for (Opcode op : kOpcodes)
    if (static_cast<uint8_t>(op) == byte)
      return true;
  return false;
}

const char *opcodeName(Opcode opcode) {
  switch (opcode) {
  case Opcode::NOP:
    return "NOP";
  case Opcode::END:
    return "END";
  case Opcode::DMA_LOAD:
    return "DMA_LOAD";
  case Opcode::DMA_FILL:
    return "DMA_FILL";
  case Opcode::DMA_STORE:
    return "DMA_STORE";
  case Opcode::MAC_CONV:
    return "MAC_CONV";
  case Opcode::MAC_DWCONV:
    return "MAC_DWCONV";
  case Opcode::VEC_REQUANT:
    return "VEC_REQUANT";
  case Opcode::VEC_ELTWISE:
    return "VEC_ELTWISE";
  case Opcode::VEC_UNARY:
    return "VEC_UNARY";
  case Opcode::VEC_POOL:
    return "VEC_POOL";
  }
  return "UNKNOWN";
}

unsigned dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::I8:
    return 1;
  case DType::F16:
    return 2;
  case DType::I32:
  case DType::F32:
    return 4;
  }
  return 1;
}

const char *dtypeName(DType dtype) {
  switch (dtype) {
  case DType::I8:
    return "i8";
  case DType::I32:
    return "i32";
  case DType::F16:
    return "f16";
  case DType::F32:
    return "f32";
  }
  return "?";
}

ViewDesc ViewDesc::dense(uint32_t addr, DType dtype, unsigned w, unsigned h,
                         unsigned cb) {
  ViewDesc v;
  v.addr = addr;
  v.dtype = static_cast<uint8_t>(dtype);
  v.w = w;
  v.h = h;
  v.cb = cb;
  v.sc = dtypeSize(dtype);
  v.sw = cb * v.sc;
  v.sh = w * v.sw;
  return v;
}

uint64_t ViewDesc::end() const {
  if (!w || !h || !cb)
    return addr;
  return vectorAddr(h - 1, w - 1, cb - 1) + vectorBytes();
}

//===----------------------------------------------------------------------===//
// Field tables
//===----------------------------------------------------------------------===//

#define KILN_F(NAME, OFF, SIZE, SIGNED, MEMBER)                                \
  FieldInfo {                                                                  \
    NAME, OFF, SIZE, SIGNED,                                                   \
        [](const Command &c) -> int64_t { return c.MEMBER; },                  \
        [](Command &c, int64_t v) {                                            \
          c.MEMBER =                                                           \
              static_cast<std::remove_reference_t<decltype(c.MEMBER)>>(v);     \
        }                                                                      \
  }
#define KILN_HEADER                                                            \
  KILN_F("flags", 1, 1, false, flags), KILN_F("wait0", 2, 1, false, wait[0]),  \
      KILN_F("wait1", 3, 1, false, wait[1]),                                   \
      KILN_F("signal0", 4, 1, false, signal[0]),                               \
      KILN_F("signal1", 5, 1, false, signal[1]),                               \
      KILN_F("tag", 6, 2, false, tag)
#define KILN_VIEW(P, OFF, M)                                                   \
  KILN_F(P ".addr", OFF, 3, false, M.addr),                                    \
      KILN_F(P ".dtype", OFF + 3, 1, false, M.dtype),                          \
      KILN_F(P ".w", OFF + 4, 2, false, M.w),                                  \
      KILN_F(P ".h", OFF + 6, 2, false, M.h),                                  \
      KILN_F(P ".cb", OFF + 8, 2, false, M.cb),                                \
      KILN_F(P ".sw", OFF + 10, 2, false, M.sw),                               \
      KILN_F(P ".sh", OFF + 12, 2, false, M.sh),                               \
      KILN_F(P ".sc", OFF + 14, 2, false, M.sc)
#define KILN_WINDOW(OFF)                                                       \
  KILN_F("kh", OFF, 1, false, kh), KILN_F("kw", OFF + 1, 1, false, kw),        \
      KILN_F("sy", OFF + 2, 1, false, sy), KILN_F("sx", OFF + 3, 1, false, sx)
#define KILN_PADS(OFF)                                                         \
  KILN_F("pt", OFF, 1, false, pt), KILN_F("pb", OFF + 1, 1, false, pb),        \
      KILN_F("pl", OFF + 2, 1, false, pl), KILN_F("pr", OFF + 3, 1, false, pr)

namespace {
const FieldInfo kCtrlFields[] = {KILN_HEADER};

const FieldInfo kLoadFields[] = {
    KILN_HEADER,
    KILN_F("region", 8, 1, false, region),
    KILN_F("pad", 9, 1, false, pad),
    KILN_F("src", 12, 4, false, src),
    KILN_F("dst", 16, 4, false, dst),
    KILN_F("src_run", 20, 4, false, srcRun),
    KILN_F("dst_run", 24, 4, false, dstRun),
    KILN_F("n0", 28, 2, false, n[0]),
    KILN_F("n1", 30, 2, false, n[1]),
    KILN_F("n2", 32, 2, false, n[2]),
    KILN_F("src_s0", 36, 4, false, srcStride[0]),
    KILN_F("src_s1", 40, 4, false, srcStride[1]),
    KILN_F("src_s2", 44, 4, false, srcStride[2]),
    KILN_F("dst_s0", 48, 4, false, dstStride[0]),
    KILN_F("dst_s1", 52, 4, false, dstStride[1]),
    KILN_F("dst_s2", 56, 4, false, dstStride[2]),
};

const FieldInfo kStoreFields[] = {
    KILN_HEADER,
    KILN_F("region", 8, 1, false, region),
    KILN_F("src", 12, 4, false, src),
    KILN_F("dst", 16, 4, false, dst),
    KILN_F("src_run", 20, 4, false, srcRun),
    KILN_F("n0", 28, 2, false, n[0]),
    KILN_F("n1", 30, 2, false, n[1]),
    KILN_F("n2", 32, 2, false, n[2]),
    KILN_F("src_s0", 36, 4, false, srcStride[0]),
    KILN_F("src_s1", 40, 4, false, srcStride[1]),
    KILN_F("src_s2", 44, 4, false, srcStride[2]),
    KILN_F("dst_s0", 48, 4, false, dstStride[0]),
    KILN_F("dst_s1", 52, 4, false, dstStride[1]),
    KILN_F("dst_s2", 56, 4, false, dstStride[2]),
};

const FieldInfo kFillFields[] = {
    KILN_HEADER,
    KILN_F("dst", 12, 4, false, dst),
    KILN_F("bytes", 16, 4, false, bytes),
    KILN_F("pattern", 20, 4, false, pattern),
};

const FieldInfo kConvFields[] = {
    KILN_HEADER,
    KILN_VIEW("in", 8, in),
    KILN_VIEW("out", 24, out),
    KILN_F("waddr", 40, 4, false, waddr),
    KILN_WINDOW(44),
    KILN_F("dy", 48, 1, false, dy),
    KILN_F("dx", 49, 1, false, dx),
    KILN_PADS(50),
    KILN_F("in_zp", 54, 2, true, inZp),
};

const FieldInfo kRequantFields[] = {
    KILN_HEADER,
    KILN_VIEW("in", 8, in),
    KILN_VIEW("out", 24, out),
    KILN_F("paddr", 40, 4, false, paddr),
    KILN_F("laddr", 44, 4, false, laddr),
    KILN_F("out_zp", 48, 2, true, outZp),
    KILN_F("min", 50, 2, true, minV),
    KILN_F("max", 52, 2, true, maxV),
};

const FieldInfo kEltwiseFields[] = {
    KILN_HEADER,
    KILN_VIEW("in", 8, in),
    KILN_VIEW("in2", 24, in2),
    KILN_VIEW("out", 40, out),
    KILN_F("paddr", 56, 4, false, paddr),
    KILN_F("op", 60, 1, false, op),
    KILN_F("bcast", 61, 1, false, bcast),
};

const FieldInfo kUnaryFields[] = {
    KILN_HEADER,
    KILN_VIEW("in", 8, in),
    KILN_VIEW("out", 24, out),
    KILN_F("op", 40, 1, false, op),
    KILN_F("laddr", 44, 4, false, laddr),
    KILN_F("mult", 48, 4, true, mult),
    KILN_F("shift", 52, 1, false, shift),
    KILN_F("in_zp", 54, 2, true, inZp),
    KILN_F("out_zp", 56, 2, true, outZp),
    KILN_F("min", 58, 2, true, minV),
    KILN_F("max", 60, 2, true, maxV),
};

const FieldInfo kPoolFields[] = {
    KILN_HEADER,
    KILN_VIEW("in", 8, in),
    KILN_VIEW("out", 24, out),
    KILN_WINDOW(40),
    KILN_PADS(44),
    KILN_F("op", 48, 1, false, op),
    KILN_F("min", 50, 2, true, minV),
    KILN_F("max", 52, 2, true, maxV),
};
} // namespace

absl::Span<const FieldInfo> fieldsOf(Opcode opcode) {
  switch (opcode) {
  case Opcode::NOP:
  case Opcode::END:
    return kCtrlFields;
  case Opcode::DMA_LOAD:
    return kLoadFields;
  case Opcode::DMA_FILL:
    return kFillFields;
  case Opcode::DMA_STORE:
    return kStoreFields;
  case Opcode::MAC_CONV:
  case Opcode::MAC_DWCONV:
    return kConvFields;
  case Opcode::VEC_REQUANT:
    return kRequantFields;
  case Opcode::VEC_ELTWISE:
    return kEltwiseFields;
  case Opcode::VEC_UNARY:
    return kUnaryFields;
  case Opcode::VEC_POOL:
    return kPoolFields;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Encoder and decoder
//===----------------------------------------------------------------------===//

std::array<uint8_t, kCommandBytes> encode(const Command &command) {
  std::array<uint8_t, kCommandBytes> bytes{};
  bytes[0] = static_cast<uint8_t>(command.opcode);
  for (const FieldInfo &field : fieldsOf(command.opcode)) {
    uint64_t value = static_cast<uint64_t>(field.get(command));
    for (unsigned i = 0; i < field.size; ++i)
      bytes[field.offset + i] = static_cast<uint8_t>(value >> (8 * i));
  }
  return bytes;
}

std::vector<uint8_t> encodeStream(absl::Span<const Command> commands) {
  std::vector<uint8_t> out;
  out.reserve(commands.size() * kCommandBytes);
  for (const Command &command : commands) {
    auto bytes = encode(command);
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

absl::StatusOr<Command> decode(const uint8_t *bytes, size_t index) {
  if (!isValidOpcode(bytes[0]))
    return absl::InvalidArgumentError(absl::StrFormat(
        "command %d: field 'opcode' 0x%02x is not a defined opcode", index,
        bytes[0]));
  Command command;
  command.opcode = static_cast<Opcode>(bytes[0]);
  for (const FieldInfo &field : fieldsOf(command.opcode)) {
    uint64_t value = 0;
    for (unsigned i = 0; i < field.size; ++i)
      value |= uint64_t(bytes[field.offset + i]) << (8 * i);
    int64_t v = static_cast<int64_t>(value);
    if (field.isSigned && field.size < 8 && (value >> (8 * field.size - 1)) & 1)
      v -= int64_t(1) << (8 * field.size);
    field.set(command, v);
  }
  return command;
}

bool sameFields(const Command &a, const Command &b) {
  if (a.opcode != b.opcode)
    return false;
  for (const FieldInfo &field : fieldsOf(a.opcode))
    if (field.get(a) != field.get(b))
      return false;
  return true;
}

} // namespace kiln::npu
