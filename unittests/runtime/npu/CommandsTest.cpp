//===- CommandsTest.cpp - Encoding, disassembly, verification ---*- C++ -*-===//
//
// Encoder -> decoder and encoder -> disassembler -> assembler give the same
// commands for every opcode; the verifier names the command and the field.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Disassembler.h"
#include "runtime/npu/Verifier.h"
#include "unittests/runtime/npu/TestUtil.h"

#include "absl/strings/str_format.h"

#include <random>

namespace kiln::npu::test {
namespace {

/// A command of \p op with every field random within its width.
Command randomCommand(Opcode op, std::mt19937 &rng) {
  Command c;
  c.opcode = op;
  for (const FieldInfo &f : fieldsOf(op)) {
    uint64_t bits =
        (uint64_t(rng()) << 32 | rng()) & ((uint64_t(1) << (8 * f.size)) - 1);
    int64_t v = static_cast<int64_t>(bits);
    if (f.isSigned && (bits >> (8 * f.size - 1)))
      v -= int64_t(1) << (8 * f.size);
    f.set(c, v);
  }
  return c;
}

TEST(NPUCommands, EncodeDecodeDisassembleAssembleEveryOpcode) {
  std::mt19937 rng(2024);
  for (Opcode op : allOpcodes())
    for (int iter = 0; iter < 200; ++iter) {
      Command c = randomCommand(op, rng);
      if (iter == 0) // Absent semaphores are printed as nothing.
        c.wait[0] = c.wait[1] = c.signal[0] = c.signal[1] = kNoSemaphore;
      auto bytes = encode(c);
      EXPECT_EQ(bytes[0], static_cast<uint8_t>(op));
      EXPECT_TRUE(checkReservedBytes(bytes.data(), 0).ok());
      absl::StatusOr<Command> back = decode(bytes.data(), 0);
      ASSERT_TRUE(back.ok());
      ASSERT_TRUE(sameFields(*back, c)) << opcodeName(op);
      std::string text = disassembleCommand(c);
      absl::StatusOr<Command> parsed = assembleCommand(text);
      ASSERT_TRUE(parsed.ok()) << parsed.status() << "\n" << text;
      ASSERT_TRUE(sameFields(*parsed, c)) << text;
      ASSERT_EQ(encode(*parsed), bytes) << text;
    }
}

TEST(NPUCommands, SpecExampleEncoding) {
  // The worked example of docs/npu-isa.md, section 5.
  Command c = makeCommand(Opcode::MAC_CONV);
  c.flags = flags::kAccumulate;
  c.wait[0] = 2;
  c.signal[0] = 4;
  c.tag = 7;
  c.in = ViewDesc::dense(0x100, DType::I8, 8, 8, 2);
  c.out = ViewDesc::dense(0xc0000, DType::I32, 8, 8, 2);
  c.waddr = 0x80000;
  c.kh = c.kw = 3;
  c.sy = c.sx = c.dy = c.dx = 1;
  c.pt = c.pb = c.pl = c.pr = 1;
  c.inZp = -5;
  std::string hex;
  for (uint8_t b : encode(c))
    hex += absl::StrFormat("%02x", b);
  EXPECT_EQ(hex, "300102ff04ff0700"
                 "0001000008000800020002001000"
                 "0100"
                 "00000c0108000800020008004000"
                 "0400"
                 "0000080003030101010101010101"
                 "fbff"
                 "0000000000000000");
  EXPECT_EQ(disassembleCommand(c),
            "MAC_CONV flags=0x1 wait0=2 signal0=4 tag=7 in.addr=0x100 "
            "in.dtype=i8 in.w=8 in.h=8 in.cb=2 in.sw=2 in.sh=16 in.sc=1 "
            "out.addr=0xc0000 out.dtype=i32 out.w=8 out.h=8 out.cb=2 "
            "out.sw=8 out.sh=64 out.sc=4 waddr=0x80000 kh=3 kw=3 sy=1 sx=1 "
            "dy=1 dx=1 pt=1 pb=1 pl=1 pr=1 in_zp=-5");
}

TEST(NPUCommands, FieldTablesDoNotOverlap) {
  for (Opcode op : allOpcodes()) {
    bool used[kCommandBytes] = {true};
    for (const FieldInfo &f : fieldsOf(op)) {
      ASSERT_LE(f.offset + f.size, int(kCommandBytes)) << f.name;
      for (int i = 0; i < f.size; ++i) {
        ASSERT_FALSE(used[f.offset + i])
            << opcodeName(op) << " field " << f.name << " overlaps";
        used[f.offset + i] = true;
      }
    }
    EXPECT_EQ(engineOf(op), static_cast<Engine>(uint8_t(op) >> 4));
  }
}

TEST(NPUCommands, ProgramDisassemblyRoundTrips) {
  TestStream s;
  s.push(loadBytes(2, s.addInput(std::vector<uint8_t>(256, 1)),
                   lmem(LmemRegion::ACT), 256))
      .signal[0] = 3;
  Command pool = makeCommand(Opcode::VEC_POOL);
  pool.wait[0] = 3;
  pool.in = ViewDesc::dense(lmem(LmemRegion::ACT), DType::I8, 4, 4, 1);
  pool.out = ViewDesc::dense(lmem(LmemRegion::ACT, 4096), DType::I8, 2, 2, 1);
  pool.kh = pool.kw = pool.sy = pool.sx = 2;
  pool.minV = -128;
  pool.maxV = 127;
  pool.tag = 9;
  s.push(pool);
  Program p = s.program();
  p.debug = {{9, "max_pool", "m.py:3"}};
  ASSERT_TRUE(verifyProgram(p).ok()) << verifyProgram(p);
  std::string text = disassembleProgram(p);
  EXPECT_NE(text.find("; max_pool at m.py:3"), std::string::npos) << text;
  EXPECT_NE(text.find("in.dtype=i8"), std::string::npos) << text;
  absl::StatusOr<std::vector<Command>> back = assemble(text);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), p.commands.size());
  for (size_t i = 0; i < back->size(); ++i)
    EXPECT_TRUE(sameFields((*back)[i], p.commands[i])) << i;
  EXPECT_FALSE(assemble("FOO x=1").ok());
  EXPECT_EQ(assemble("NOP bogus=1").status().message(),
            "line 1: NOP has no field 'bogus'");
  EXPECT_EQ(assemble("MAC_CONV kh=300").status().message(),
            "line 1: field 'kh': bad value '300'");
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

/// A valid one-conv stream; tests break one field.
TestStream convStream() {
  TestStream s;
  Command conv = makeCommand(Opcode::MAC_CONV);
  conv.in = ViewDesc::dense(lmem(LmemRegion::ACT), DType::I8, 8, 8, 2);
  conv.out = ViewDesc::dense(lmem(LmemRegion::ACC), DType::I32, 8, 8, 2);
  conv.waddr = lmem(LmemRegion::WGT);
  conv.kh = conv.kw = 3;
  conv.sy = conv.sx = conv.dy = conv.dx = 1;
  conv.pt = conv.pb = conv.pl = conv.pr = 1;
  s.push(conv);
  return s;
}

std::string verifyError(const TestStream &s) {
  return std::string(verifyProgram(s.program()).message());
}

TEST(NPUVerifier, AcceptsValidStream) {
  EXPECT_EQ(verifyError(convStream()), "");
}

TEST(NPUVerifier, NamesCommandAndField) {
  TestStream s = convStream();
  s.cmds[0].in.addr = 0x7fff0;
  EXPECT_EQ(verifyError(s), "command 0 (MAC_CONV): field 'in.addr' 0x7fff0 + "
                            "2048 bytes exceeds LMEM.ACT (512 KiB)");
  s = convStream();
  s.cmds[0].in.addr = 8;
  EXPECT_EQ(verifyError(s), "command 0 (MAC_CONV): field 'in.addr' 0x8 is not "
                            "16-byte aligned");
  s = convStream();
  s.cmds[0].out.addr = lmem(LmemRegion::ACT, 65536);
  EXPECT_EQ(verifyError(s), "command 0 (MAC_CONV): field 'out.addr': engine "
                            "MAC may not write LMEM.ACT");
  s = convStream();
  s.cmds[0].in.addr = 0xff0000;
  EXPECT_EQ(verifyError(s), "command 0 (MAC_CONV): field 'in.addr' 0xff0000 "
                            "is outside LMEM (960 KiB)");
  s = convStream();
  s.cmds[0].out.h = 7;
  EXPECT_EQ(verifyError(s), "command 0 (MAC_CONV): field 'out.h' 7 does not "
                            "match the window (8 expected)");
  s = convStream();
  s.cmds[0].in.dtype = 7;
  EXPECT_EQ(verifyError(s), "command 0 (MAC_CONV): field 'in.dtype' 7 is not "
                            "one of {i8}");
  s = convStream();
  s.cmds[0].flags = 0x80;
  EXPECT_EQ(verifyError(s), "command 0 (MAC_CONV): field 'flags' 0x80 sets "
                            "undefined bits 0x80");
  s = convStream();
  s.cmds[0].signal[1] = 40;
  EXPECT_EQ(verifyError(s), "command 0 (MAC_CONV): field 'signal1' semaphore "
                            "40 does not exist (target has 32)");
  s = convStream();
  s.cmds[0].waddr = lmem(LmemRegion::WGT, 256 * 1024 - 256);
  EXPECT_EQ(verifyError(s), "command 0 (MAC_CONV): field 'waddr' 0xbff00 + "
                            "9216 bytes exceeds LMEM.WGT (256 KiB)");
}

TEST(NPUVerifier, DmaBoundsAndRegions) {
  TestStream s;
  s.addInput(std::vector<uint8_t>(100));
  s.push(loadBytes(2, 64, lmem(LmemRegion::ACT), 64));
  EXPECT_EQ(verifyError(s), "command 0 (DMA_LOAD): field 'src' 0x40 + 64 "
                            "bytes exceeds DRAM region r2 (100 bytes)");
  s.cmds[0] = loadBytes(5, 0, lmem(LmemRegion::ACT), 64);
  EXPECT_EQ(verifyError(s), "command 0 (DMA_LOAD): field 'region' r5 is not "
                            "declared in the REGIONS section");
  s.cmds[0] = loadBytes(2, 0, lmem(LmemRegion::ACT) + 4, 64);
  EXPECT_EQ(verifyError(s), "command 0 (DMA_LOAD): field 'dst' 0x4 is not "
                            "16-byte aligned");
  s.consts.resize(64);
  s.cmds[0] = storeTensor(lmem(LmemRegion::ACT), 1, 1, 16, 1, 0, 0);
  EXPECT_EQ(verifyError(s), "command 0 (DMA_STORE): field 'region': r0 holds "
                            "constants and may not be written");
  s.cmds[0] = storeTensor(lmem(LmemRegion::WGT), 1, 1, 16, 1, 3, 0);
  EXPECT_EQ(verifyError(s), "command 0 (DMA_STORE): field 'src': engine "
                            "DMA_OUT may not read LMEM.WGT");
  s.cmds[0] = loadBytes(2, 0, lmem(LmemRegion::ACT), 16);
  s.cmds[0].n[0] = s.cmds[0].n[1] = s.cmds[0].n[2] = 65535;
  s.cmds[0].srcStride[0] = s.cmds[0].srcStride[1] = s.cmds[0].srcStride[2] = 0;
  s.cmds[0].dstStride[0] = s.cmds[0].dstStride[1] = s.cmds[0].dstStride[2] = 0;
  EXPECT_EQ(verifyError(s), "command 0 (DMA_LOAD): fields 'n0 n1 n2': "
                            "281462092005375 runs exceed the limit of "
                            "16777216 per command");
}

TEST(NPUVerifier, StreamRules) {
  TestStream s;
  Command nop = makeCommand(Opcode::NOP);
  nop.signal[0] = 1;
  s.push(nop);
  Command wait = makeCommand(Opcode::NOP);
  wait.wait[0] = 1;
  s.push(wait);
  EXPECT_EQ(verifyError(s), "");
  // A second wait on the same signal is not covered.
  s.push(wait);
  EXPECT_EQ(verifyError(s), "command 2 (NOP): field 'wait0' waits on "
                            "semaphore 1 with no earlier uncovered signal");
  // A wait covered only by a later signal.
  TestStream later;
  later.push(wait);
  later.push(nop);
  EXPECT_EQ(verifyError(later), "command 0 (NOP): field 'wait0' waits on "
                                "semaphore 1 with no earlier uncovered signal");
  // No END: the stream would never finish.
  EXPECT_EQ(std::string(verifyProgram(later.program(false)).message()),
            "the stream does not end with END (2 commands): it would never "
            "finish");
  TestStream early;
  early.push(makeCommand(Opcode::END));
  EXPECT_EQ(verifyError(early), "command 0 (END): END must be the last "
                                "command");
}

} // namespace
} // namespace kiln::npu::test
