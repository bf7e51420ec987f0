//===- FormatTest.cpp - .npub container reading and writing -----*- C++ -*-===//
//
// Round trips and every class of bad input: magic, version, CRC, unknown
// sections, truncation, corrupted bytes, nonzero reserved bytes.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Format.h"
#include "runtime/npu/Examples.h"
#include "runtime/npu/Simulator.h"
#include "runtime/npu/Verifier.h"

#include "gtest/gtest.h"

#include <random>

namespace kiln::npu {
namespace {

void put32(std::vector<uint8_t> &b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + i] = uint8_t(v >> (8 * i));
}
uint32_t get32(const std::vector<uint8_t> &b, size_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | uint32_t(b[at + 3]) << 24;
}
/// Recomputes the body CRC after an edit.
void refreshCrc(std::vector<uint8_t> &b) {
  put32(b, 36, crc32Of(absl::MakeConstSpan(b).subspan(kHeaderBytes)));
}
/// The section-table entry index of \p type.
size_t sectionEntry(const std::vector<uint8_t> &b, SectionType type) {
  uint32_t count = get32(b, 32);
  for (uint32_t i = 0; i < count; ++i)
    if (get32(b, kHeaderBytes + i * kSectionEntryBytes) ==
        static_cast<uint32_t>(type))
      return kHeaderBytes + i * kSectionEntryBytes;
  ADD_FAILURE() << "no section";
  return 0;
}

std::string errorOf(const std::vector<uint8_t> &bytes) {
  absl::StatusOr<Program> p = readProgram(bytes);
  return p.ok() ? "" : std::string(p.status().message());
}

TEST(NPUFormat, RoundTripsEverySection) {
  ConvExample ex = buildConvExample({8, 8, 16, 16, 4, true, 5});
  std::vector<uint8_t> bytes = writeProgram(ex.program);
  absl::StatusOr<Program> p = readProgram(bytes);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->commands.size(), ex.program.commands.size());
  for (size_t i = 0; i < p->commands.size(); ++i)
    EXPECT_TRUE(sameFields(p->commands[i], ex.program.commands[i])) << i;
  EXPECT_EQ(p->constants, ex.program.constants);
  ASSERT_EQ(p->regions.size(), 3u);
  EXPECT_EQ(p->regions[2].size, ex.program.regions[2].size);
  ASSERT_EQ(p->io.size(), 2u);
  EXPECT_EQ(p->io[1].name, "y");
  EXPECT_TRUE(p->io[1].isOutput);
  EXPECT_EQ(p->io[1].shape, ex.program.io[1].shape);
  EXPECT_EQ(p->io[0].zeroPoint, 3);
  EXPECT_FLOAT_EQ(p->io[0].scale, 0.05f);
  ASSERT_EQ(p->debug.size(), 4u);
  EXPECT_EQ(p->debug[0].location, "example.py:12");
  EXPECT_EQ(p->targetJson, TargetConfig().toJson());
  EXPECT_TRUE(verifyProgram(*p).ok()) << verifyProgram(*p);
  // Writing the read program gives the same bytes.
  EXPECT_EQ(writeProgram(*p), bytes);
}

TEST(NPUFormat, RejectsBadHeaders) {
  std::vector<uint8_t> good =
      writeProgram(buildConvExample({8, 8, 16, 16, 4, true, 1}).program);
  auto bad = good;
  bad[0] = 'X';
  EXPECT_EQ(errorOf(bad), "bad magic: expected 'NPUB'");
  bad = good;
  bad[4] = 2;
  EXPECT_EQ(errorOf(bad), "unsupported format version 2.1: this reader "
                          "supports major version 1");
  bad = good;
  bad[6] = 7; // A newer minor version is accepted.
  EXPECT_EQ(errorOf(bad), "");
  bad = good;
  bad[200] ^= 0x40;
  EXPECT_NE(errorOf(bad).find("CRC mismatch"), std::string::npos);
  bad = good;
  bad[50] = 1;
  EXPECT_EQ(errorOf(bad), "header: reserved byte 50 is not zero");
  bad = good;
  bad[40] ^= 1;
  EXPECT_EQ(errorOf(bad),
            "header: field 'target_hash' does not match the TARGET section");
  bad = good;
  bad.push_back(0);
  EXPECT_NE(errorOf(bad).find("header says"), std::string::npos);
}

TEST(NPUFormat, UnknownSections) {
  std::vector<uint8_t> good =
      writeProgram(buildConvExample({8, 8, 16, 16, 4, true, 1}).program);
  // An unknown optional section is skipped.
  auto bytes = good;
  size_t entry = sectionEntry(bytes, SectionType::DEBUG);
  put32(bytes, entry, 99);
  refreshCrc(bytes);
  absl::StatusOr<Program> p = readProgram(bytes);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->debug.empty());
  // An unknown required section is rejected.
  put32(bytes, entry + 4, kSectionRequired);
  refreshCrc(bytes);
  EXPECT_EQ(errorOf(bytes),
            "section " +
                std::to_string((entry - kHeaderBytes) / kSectionEntryBytes) +
                ": unknown required section type 99");
  // A section past the end of the file.
  bytes = good;
  entry = sectionEntry(bytes, SectionType::CONST);
  put32(bytes, entry + 16, 1u << 30);
  refreshCrc(bytes);
  EXPECT_NE(errorOf(bytes).find("exceeds the file"), std::string::npos);
}

TEST(NPUFormat, CostSectionRoundTripsAndIsChecked) {
  Program program = buildConvExample({8, 8, 16, 16, 4, true, 1}).program;
  program.costs = {{1, 5000, 4096, 300, 2000, 1048576},
                   {2, 700, 0, 650, 120, 0}};
  std::vector<uint8_t> good = writeProgram(program);
  EXPECT_EQ(good[6], 1); // Format 1.1.
  absl::StatusOr<Program> p = readProgram(good);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->costs.size(), 2u);
  EXPECT_EQ(p->costs[0].estimate, 5000u);
  EXPECT_EQ(p->costs[0].lowerBound(), 4096u);
  EXPECT_STREQ(p->costs[0].boundBy(), "MAC");
  EXPECT_EQ(p->costs[1].usefulMacs, 0u);
  EXPECT_STREQ(p->costs[1].boundBy(), "VEC");
  ASSERT_NE(p->findCost(2), nullptr);
  EXPECT_EQ(p->findCost(3), nullptr);
  EXPECT_EQ(writeProgram(*p), good);
  // A reader of 1.0 skips the section: as an unknown optional one.
  auto bytes = good;
  size_t entry = sectionEntry(bytes, SectionType::COST);
  put32(bytes, entry, 99);
  refreshCrc(bytes);
  p = readProgram(bytes);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->costs.empty());
  // A program without costs writes no COST section.
  program.costs.clear();
  p = readProgram(writeProgram(program));
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->costs.empty());
  // Malformed: a count that does not match, a tag without a DEBUG entry,
  // a repeated tag, a nonzero reserved byte.
  auto costAt = [&](const std::vector<uint8_t> &b) {
    return size_t(get32(b, sectionEntry(b, SectionType::COST) + 8));
  };
  bytes = good;
  put32(bytes, costAt(bytes), 3);
  refreshCrc(bytes);
  EXPECT_EQ(errorOf(bytes), "COST section: 3 entries of 48 bytes do not "
                            "match its 104 bytes");
  bytes = good;
  bytes[costAt(bytes) + 8 + 48] = 9;
  refreshCrc(bytes);
  EXPECT_EQ(errorOf(bytes), "COST section: tag 9 has no DEBUG entry");
  bytes = good;
  bytes[costAt(bytes) + 8 + 48] = 1;
  refreshCrc(bytes);
  EXPECT_EQ(errorOf(bytes), "COST section: entry 1: tag 1 is 0 or repeated");
  bytes = good;
  bytes[costAt(bytes) + 8 + 3] = 1;
  refreshCrc(bytes);
  EXPECT_EQ(errorOf(bytes),
            "COST section: entry 0: reserved bytes are not zero");
}

TEST(NPUFormat, EveryTruncationIsRejected) {
  std::vector<uint8_t> good =
      writeProgram(buildConvExample({8, 8, 16, 16, 4, true, 1}).program);
  for (size_t len = 0; len < good.size(); ++len) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + len);
    ASSERT_NE(errorOf(cut), "") << len;
  }
}

TEST(NPUFormat, CorruptedFilesNeverCrash) {
  std::vector<uint8_t> good =
      writeProgram(buildConvExample({8, 8, 16, 16, 4, true, 1}).program);
  std::mt19937 rng(3);
  int loaded = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    auto bytes = good;
    int flips = 1 + rng() % 4;
    for (int f = 0; f < flips; ++f)
      bytes[rng() % bytes.size()] = uint8_t(rng());
    if (iter % 2)
      refreshCrc(bytes); // Get past the CRC to reach the parsers.
    absl::StatusOr<Simulator> sim =
        Simulator::load(bytes, VerifyOptions(), /*maxRegionBytes=*/1 << 20);
    if (sim.ok()) {
      ++loaded;
      for (const IoDecl &io : sim->program().io)
        if (!io.isOutput && io.byteSize() < (1u << 20))
          (void)sim->setInput(io.name, std::vector<uint8_t>(io.byteSize()));
      RunOptions options;
      options.maxCycles = 1u << 24;
      // Execute functionally unless the corruption made the work large.
      uint64_t macs = 0;
      for (const Command &c : sim->program().commands)
        macs += commandPaddedMacs(c);
      options.functional = macs < 10000000;
      (void)sim->run(options); // Must return, whatever it says.
    }
  }
  // Corruptions of constants and of unchecked fields still load and run.
  EXPECT_GT(loaded, 100);
}

TEST(NPUFormat, MutatedFieldsNeverCrash) {
  // Field-level mutations of a valid stream: whatever still verifies must
  // run (or fail cleanly) without touching memory out of bounds.
  ConvExample ex = buildConvExample({8, 8, 16, 32, 4, true, 1});
  std::mt19937 rng(12);
  int ran = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    Program p = ex.program;
    int edits = 1 + rng() % 3;
    for (int e = 0; e < edits; ++e) {
      Command &c = p.commands[rng() % p.commands.size()];
      absl::Span<const FieldInfo> fields = fieldsOf(c.opcode);
      if (fields.empty())
        continue;
      const FieldInfo &f = fields[rng() % fields.size()];
      int64_t v = f.get(c);
      switch (rng() % 4) {
      case 0:
        v = 0;
        break;
      case 1:
        v += int(rng() % 33) - 16;
        break;
      case 2:
        v = rng() % 4;
        break;
      default:
        v = static_cast<int64_t>(rng() & ((uint64_t(1) << (8 * f.size)) - 1));
      }
      f.set(c, v);
    }
    absl::StatusOr<Simulator> sim = Simulator::create(p, VerifyOptions{false});
    if (!sim.ok())
      continue;
    uint64_t macs = 0;
    for (const Command &c : p.commands)
      macs += commandPaddedMacs(c);
    RunOptions options;
    options.raceCheck = true;
    options.maxCycles = 1u << 26;
    options.functional = macs < 20000000;
    (void)sim->run(options);
    ++ran;
  }
  EXPECT_GT(ran, 500);
}

TEST(NPUFormat, ReservedCommandBytesAreRejected) {
  Program program;
  Command nop, end;
  end.opcode = Opcode::END;
  program.commands = {nop, end};
  std::vector<uint8_t> bytes = writeProgram(program);
  size_t commands =
      get32(bytes, sectionEntry(bytes, SectionType::COMMANDS) + 8);
  bytes[commands + 10] = 1;
  refreshCrc(bytes);
  absl::StatusOr<Program> p = readProgram(bytes);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(verifyProgram(*p).message(),
            "command 0 (NOP): reserved byte 10 is 0x01, must be zero");
  // An undefined opcode names the command and the field.
  bytes[commands + 10] = 0;
  bytes[commands + 64] = 0x55;
  refreshCrc(bytes);
  EXPECT_EQ(errorOf(bytes),
            "command 1: field 'opcode' 0x55 is not a defined opcode");
}

} // namespace
} // namespace kiln::npu
