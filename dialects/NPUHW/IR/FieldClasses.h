//===- FieldClasses.h - How npuhw represents each command field -*- C++ -*-===//
//
// Sorts every field of the runtime's per-opcode field table
// (kiln::npu::fieldsOf) into the form the npuhw dialect gives it: a header
// attribute, a memref operand, a flag, an integer attribute or an enum
// attribute. The build-time generator (gen/GenNPUHWFields.cpp) writes the
// ODS arguments of every command op from this classification, and the
// npuhw <-> .npub translation reads and writes fields through it, so the
// dialect, the translation and the runtime's encoder share one table. Plain
// C++17 without MLIR, like the runtime it extends.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_IR_FIELDCLASSES_H
#define KILN_DIALECTS_NPUHW_IR_FIELDCLASSES_H

#include "runtime/npu/Commands.h"

#include <cstdint>
#include <cstring>

namespace kiln::npuhw::fields {

/// What a runtime field becomes in the npuhw dialect.
enum class FieldClass {
  /// Byte 1, split into FlagBits.
  Flags,
  /// `wait0`, `wait1`, `signal0`, `signal1`: optional integer attributes.
  Semaphore,
  /// `tag`: the op's location, through the DEBUG section.
  Tag,
  /// `in.*`, `in2.*`, `out.*`: a feature-map view operand.
  View,
  /// An address, region or size taken from a memref operand.
  Operand,
  /// An integer attribute named like the field.
  Integer,
  /// An enum attribute named like the field.
  Enum,
  /// Not classified: the generator fails the build.
  Unknown,
};

/// One defined flag bit of one opcode.
struct FlagBit {
  npu::Opcode opcode;
  uint8_t mask;
  /// The unit attribute that sets the bit, or null when operands imply it.
  const char *attr;
  /// What implies the bit when \c attr is null (documentation only).
  const char *derivedFrom;
};

/// Every defined flag bit (docs/npu-isa.md §5).
inline constexpr FlagBit kFlagBits[] = {
    {npu::Opcode::DMA_LOAD, npu::flags::kLmemSource, nullptr,
     "an LMEM source memref"},
    {npu::Opcode::MAC_CONV, npu::flags::kAccumulate, "accumulate", nullptr},
    {npu::Opcode::MAC_CONV, npu::flags::kFp16, nullptr, "an f16 input"},
    {npu::Opcode::MAC_DWCONV, npu::flags::kAccumulate, "accumulate", nullptr},
    {npu::Opcode::MAC_DWCONV, npu::flags::kFp16, nullptr, "an f16 input"},
    {npu::Opcode::VEC_REQUANT, npu::flags::kPerTensor, "per_tensor", nullptr},
    {npu::Opcode::VEC_REQUANT, npu::flags::kDoubleRound, "double_round",
     nullptr},
    {npu::Opcode::VEC_REQUANT, npu::flags::kLut, nullptr, "a table operand"},
    {npu::Opcode::VEC_UNARY, npu::flags::kDoubleRound, "double_round",
     nullptr},
};

/// Fields whose value comes from a memref operand (an LMEM address, a DRAM
/// region or offset, a fill size).
inline constexpr const char *kOperandFields[] = {
    "waddr", "paddr", "laddr", "region", "src", "dst", "bytes"};

/// Fields that are plain integer attributes of the same name.
inline constexpr const char *kIntegerFields[] = {
    "pad",    "src_run", "dst_run", "n0",     "n1",     "n2",
    "src_s0", "src_s1",  "src_s2",  "dst_s0", "dst_s1", "dst_s2",
    "pattern", "kh",     "kw",      "sy",     "sx",     "dy",
    "dx",     "pt",      "pb",      "pl",     "pr",     "in_zp",
    "out_zp", "min",     "max",     "mult",   "shift"};

/// An enum-valued field: its ODS attribute def and C++ attribute class.
struct EnumField {
  npu::Opcode opcode;
  const char *field;
  const char *odsAttr;
};

/// The enum-valued fields.
inline constexpr EnumField kEnumFields[] = {
    {npu::Opcode::VEC_ELTWISE, "op", "NPUHW_EltwiseOpAttr"},
    {npu::Opcode::VEC_ELTWISE, "bcast", "NPUHW_BroadcastAttr"},
    {npu::Opcode::VEC_UNARY, "op", "NPUHW_UnaryOpAttr"},
    {npu::Opcode::VEC_POOL, "op", "NPUHW_PoolOpAttr"},
};

/// True if \p name starts with \p prefix.
inline bool startsWith(const char *name, const char *prefix) {
  return std::strncmp(name, prefix, std::strlen(prefix)) == 0;
}

/// The enum field entry of (\p opcode, \p name), or null.
inline const EnumField *findEnumField(npu::Opcode opcode, const char *name) {
  for (const EnumField &e : kEnumFields)
    if (e.opcode == opcode && std::strcmp(e.field, name) == 0)
      return &e;
  return nullptr;
}

/// How the dialect represents field \p name of \p opcode.
inline FieldClass classify(npu::Opcode opcode, const char *name) {
  if (std::strcmp(name, "flags") == 0)
    return FieldClass::Flags;
  if (std::strcmp(name, "tag") == 0)
    return FieldClass::Tag;
  for (const char *s : {"wait0", "wait1", "signal0", "signal1"})
    if (std::strcmp(name, s) == 0)
      return FieldClass::Semaphore;
  for (const char *view : {"in.", "in2.", "out."})
    if (startsWith(name, view))
      return FieldClass::View;
  for (const char *f : kOperandFields)
    if (std::strcmp(name, f) == 0)
      return FieldClass::Operand;
  if (findEnumField(opcode, name))
    return FieldClass::Enum;
  for (const char *f : kIntegerFields)
    if (std::strcmp(name, f) == 0)
      return FieldClass::Integer;
  return FieldClass::Unknown;
}

/// The smallest and largest value of a field of \p size bytes.
inline int64_t fieldMin(const npu::FieldInfo &f) {
  return f.isSigned ? -(int64_t(1) << (8 * f.size - 1)) : 0;
}
inline int64_t fieldMax(const npu::FieldInfo &f) {
  return f.isSigned ? (int64_t(1) << (8 * f.size - 1)) - 1
                    : (int64_t(1) << (8 * f.size)) - 1;
}

} // namespace kiln::npuhw::fields

#endif // KILN_DIALECTS_NPUHW_IR_FIELDCLASSES_H
