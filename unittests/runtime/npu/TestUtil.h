//===- TestUtil.h - Hand-built NPU-v1 streams for tests ---------*- C++ -*-===//
//
// A small builder for test streams: constants in r0, inputs in r2, outputs
// in r3, DMA helpers for dense NHWC tensors, and a runner.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_UNITTESTS_RUNTIME_NPU_TESTUTIL_H
#define KILN_UNITTESTS_RUNTIME_NPU_TESTUTIL_H

#include "runtime/npu/Simulator.h"

#include "gtest/gtest.h"

#include <cstring>
#include <random>

namespace kiln::npu::test {

/// Base address of an LMEM region in the default configuration.
inline uint32_t lmem(LmemRegion r, uint32_t offset = 0) {
  return TargetConfig().regionBase(r) + offset;
}

/// A command with only its opcode and semaphores set.
inline Command makeCommand(Opcode op) {
  Command c;
  c.opcode = op;
  return c;
}

/// DMA_LOAD of a dense [h][w][c] tensor (esize bytes per element) from DRAM
/// into a channel-padded LMEM view, padding lanes with \p pad.
inline Command loadTensor(uint8_t region, uint32_t dramOffset, uint32_t dst,
                          unsigned h, unsigned w, unsigned c, unsigned esize,
                          uint8_t pad = 0) {
  Command cmd = makeCommand(Opcode::DMA_LOAD);
  unsigned cb = (c + 15) / 16;
  cmd.region = region;
  cmd.pad = pad;
  cmd.src = dramOffset;
  cmd.dst = dst;
  cmd.srcRun = c * esize;
  cmd.dstRun = cb * 16 * esize;
  cmd.n[0] = w;
  cmd.n[1] = h;
  cmd.n[2] = 1;
  cmd.srcStride[0] = c * esize;
  cmd.srcStride[1] = w * c * esize;
  cmd.dstStride[0] = cb * 16 * esize;
  cmd.dstStride[1] = w * cb * 16 * esize;
  return cmd;
}

/// DMA_STORE of a dense channel-padded LMEM tensor to a dense DRAM tensor.
inline Command storeTensor(uint32_t src, unsigned h, unsigned w, unsigned c,
                           unsigned esize, uint8_t region,
                           uint32_t dramOffset) {
  Command cmd = makeCommand(Opcode::DMA_STORE);
  unsigned cb = (c + 15) / 16;
  cmd.region = region;
  cmd.src = src;
  cmd.dst = dramOffset;
  cmd.srcRun = c * esize;
  cmd.n[0] = w;
  cmd.n[1] = h;
  cmd.n[2] = 1;
  cmd.srcStride[0] = cb * 16 * esize;
  cmd.srcStride[1] = w * cb * 16 * esize;
  cmd.dstStride[0] = c * esize;
  cmd.dstStride[1] = w * c * esize;
  return cmd;
}

/// DMA_LOAD of \p bytes contiguous bytes.
inline Command loadBytes(uint8_t region, uint32_t dramOffset, uint32_t dst,
                         uint32_t bytes) {
  Command cmd = makeCommand(Opcode::DMA_LOAD);
  cmd.region = region;
  cmd.src = dramOffset;
  cmd.dst = dst;
  cmd.srcRun = bytes;
  cmd.dstRun = (bytes + 15) / 16 * 16;
  cmd.n[0] = cmd.n[1] = cmd.n[2] = 1;
  return cmd;
}

/// A stream under construction.
struct TestStream {
  TargetConfig config;
  std::vector<uint8_t> consts, input;
  uint64_t outputSize = 0;
  std::vector<Command> cmds;

  static uint32_t append(std::vector<uint8_t> &to,
                         const std::vector<uint8_t> &bytes) {
    while (to.size() % 64)
      to.push_back(0);
    uint32_t at = static_cast<uint32_t>(to.size());
    to.insert(to.end(), bytes.begin(), bytes.end());
    return at;
  }
  uint32_t addConst(const std::vector<uint8_t> &bytes) {
    return append(consts, bytes);
  }
  uint32_t addInput(const std::vector<uint8_t> &bytes) {
    return append(input, bytes);
  }
  uint32_t addOutput(uint64_t size) {
    outputSize = (outputSize + 63) / 64 * 64;
    uint32_t at = static_cast<uint32_t>(outputSize);
    outputSize += size;
    return at;
  }
  Command &push(const Command &c) {
    cmds.push_back(c);
    return cmds.back();
  }
  /// A NOP fence: every later command starts after every earlier one.
  void fence() { push(makeCommand(Opcode::NOP)); }

  Program program(bool withEnd = true) const {
    Program p;
    p.config = config;
    p.commands = cmds;
    if (withEnd)
      p.commands.push_back(makeCommand(Opcode::END));
    if (!consts.empty()) {
      p.constants = consts;
      p.regions.push_back({0, RegionKind::CONST, consts.size()});
    }
    p.regions.push_back(
        {2, RegionKind::INPUT, std::max<uint64_t>(input.size(), 64)});
    p.regions.push_back(
        {3, RegionKind::OUTPUT, std::max<uint64_t>(outputSize, 64)});
    return p;
  }
};

/// Runs \p stream (race checking on) and returns the r3 contents.
inline std::vector<uint8_t> runStream(const TestStream &stream,
                                      RunResult *result = nullptr) {
  absl::StatusOr<Simulator> sim = Simulator::create(stream.program());
  EXPECT_TRUE(sim.ok()) << sim.status();
  if (!sim.ok())
    return {};
  std::vector<uint8_t> in = stream.input;
  in.resize(std::max<size_t>(in.size(), 64));
  EXPECT_TRUE(sim->bindRegion(2, in).ok());
  RunOptions options;
  options.raceCheck = true;
  absl::StatusOr<RunResult> run = sim->run(options);
  EXPECT_TRUE(run.ok()) << run.status();
  if (!run.ok())
    return {};
  for (const Race &race : run->races)
    ADD_FAILURE() << race.message;
  if (result)
    *result = *run;
  auto out = sim->region(3);
  return std::vector<uint8_t>(out.begin(), out.end());
}

/// Raw bytes of a vector of trivially copyable values.
template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &v) {
  std::vector<uint8_t> out(v.size() * sizeof(T));
  if (!v.empty())
    std::memcpy(out.data(), v.data(), out.size());
  return out;
}

/// Values of type T read from \p bytes at \p offset.
template <typename T>
std::vector<T> valuesOf(const std::vector<uint8_t> &bytes, size_t offset,
                        size_t count) {
  std::vector<T> out(count);
  if (offset + count * sizeof(T) <= bytes.size() && count)
    std::memcpy(out.data(), bytes.data() + offset, count * sizeof(T));
  return out;
}

/// Random int8 values in [lo, hi].
inline std::vector<int8_t> randomI8(std::mt19937 &rng, size_t n, int lo = -128,
                                    int hi = 127) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(n);
  for (auto &x : v)
    x = static_cast<int8_t>(d(rng));
  return v;
}

} // namespace kiln::npu::test

#endif // KILN_UNITTESTS_RUNTIME_NPU_TESTUTIL_H
