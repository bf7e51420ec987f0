//===- FieldClassesTest.cpp - the npuhw field classification ----*- C++ -*-===//
//
// The classification the npuhw dialect is generated from covers the
// runtime's field table exactly: every field has a class, every listed
// integer field and flag exists.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/IR/FieldClasses.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace kiln;
using namespace kiln::npuhw::fields;

namespace {

TEST(FieldClasses, EveryRuntimeFieldIsClassified) {
  for (npu::Opcode opcode : npu::allOpcodes())
    for (const npu::FieldInfo &f : npu::fieldsOf(opcode))
      EXPECT_NE(classify(opcode, f.name), FieldClass::Unknown)
          << npu::opcodeName(opcode) << " field " << f.name;
}

TEST(FieldClasses, UnknownNamesAreNotClassified) {
  EXPECT_EQ(classify(npu::Opcode::MAC_CONV, "bias"), FieldClass::Unknown);
  // An enum field of one opcode is not one of another.
  EXPECT_EQ(classify(npu::Opcode::VEC_POOL, "bcast"), FieldClass::Unknown);
}

TEST(FieldClasses, EveryListedIntegerFieldExists) {
  std::set<std::string> used;
  for (npu::Opcode opcode : npu::allOpcodes())
    for (const npu::FieldInfo &f : npu::fieldsOf(opcode))
      used.insert(f.name);
  for (const char *name : kIntegerFields)
    EXPECT_TRUE(used.count(name)) << name;
  for (const char *name : kOperandFields)
    EXPECT_TRUE(used.count(name)) << name;
}

TEST(FieldClasses, FlagBitsAreDistinctPerOpcode) {
  for (npu::Opcode opcode : npu::allOpcodes()) {
    uint8_t seen = 0;
    for (const FlagBit &bit : kFlagBits) {
      if (bit.opcode != opcode)
        continue;
      EXPECT_EQ(seen & bit.mask, 0) << npu::opcodeName(opcode);
      EXPECT_TRUE(bit.attr || bit.derivedFrom);
      seen |= bit.mask;
    }
  }
}

TEST(FieldClasses, RangesFollowSizeAndSign) {
  npu::FieldInfo s16{"in_zp", 54, 2, true, nullptr, nullptr};
  EXPECT_EQ(fieldMin(s16), -32768);
  EXPECT_EQ(fieldMax(s16), 32767);
  npu::FieldInfo u32{"src_run", 20, 4, false, nullptr, nullptr};
  EXPECT_EQ(fieldMin(u32), 0);
  EXPECT_EQ(fieldMax(u32), 4294967295);
}

} // namespace
