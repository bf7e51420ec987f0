//===- HostCallTest.cpp - kiln_npu_run, the host's NPU entry ----*- C++ -*-===//
//
// A small example convolution run through the C entry compiled models call:
// outputs equal a direct simulator run, the stream is cached per address and
// rebuilt when its bytes change, statistics are kept per segment, and every
// failure is recorded with the segment's name and leaves NaN bytes behind,
// for the process and for the calling thread only (what the C API of a model
// compiled with kiln-compile --target=npu reports to its caller).
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/HostCall.h"

#include "runtime/npu/Examples.h"
#include "runtime/npu/Simulator.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace kiln::npu {
namespace {

/// A small example stream, serialized, and its direct simulator output.
struct Fixture {
  std::vector<uint8_t> npub, input, expected;
};

Fixture makeFixture(uint32_t seed) {
  ConvExampleOptions options;
  options.h = options.w = 8;
  options.cin = options.cout = 16;
  options.seed = seed;
  ConvExample example = buildConvExample(options);
  Fixture f;
  f.npub = writeProgram(example.program);
  f.input = example.input;
  absl::StatusOr<Simulator> sim = Simulator::load(f.npub);
  EXPECT_TRUE(sim.ok()) << sim.status();
  EXPECT_TRUE(sim->setInput("x", f.input).ok());
  EXPECT_TRUE(sim->run().ok());
  f.expected = *sim->getOutput("y");
  return f;
}

class HostCallTest : public ::testing::Test {
protected:
  void SetUp() override { resetSegments(); }
  void TearDown() override { resetSegments(); }
};

TEST_F(HostCallTest, RunsTheStreamAndKeepsStatistics) {
  Fixture f = makeFixture(1);
  std::vector<uint8_t> y(f.expected.size(), 0);
  KilnNpuBuffer in{f.input.data(), static_cast<int64_t>(f.input.size())};
  KilnNpuBuffer out{y.data(), static_cast<int64_t>(y.size())};
  for (int call = 0; call < 2; ++call) {
    ASSERT_EQ(kiln_npu_run("npu_conv", f.npub.data(), f.npub.size(), &in, 1,
                           &out, 1),
              0)
        << kiln_npu_error();
    EXPECT_EQ(y, f.expected);
  }
  EXPECT_EQ(kiln_npu_error(), nullptr);
  std::vector<SegmentStats> stats = segmentStats();
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].name, "npu_conv");
  EXPECT_EQ(stats[0].calls, 2u);
  EXPECT_GT(stats[0].cycles, 0u);
  EXPECT_GT(stats[0].macUtilisation, 0.0);
}

TEST_F(HostCallTest, RebuildsWhenTheBytesAtAnAddressChange) {
  Fixture a = makeFixture(1), b = makeFixture(2);
  ASSERT_EQ(a.npub.size(), b.npub.size());
  ASSERT_NE(a.expected, b.expected);
  std::vector<uint8_t> bytes = a.npub, y(a.expected.size());
  KilnNpuBuffer out{y.data(), static_cast<int64_t>(y.size())};
  KilnNpuBuffer inA{a.input.data(), static_cast<int64_t>(a.input.size())};
  ASSERT_EQ(kiln_npu_run("s", bytes.data(), bytes.size(), &inA, 1, &out, 1), 0);
  EXPECT_EQ(y, a.expected);
  std::memcpy(bytes.data(), b.npub.data(), bytes.size());
  KilnNpuBuffer inB{b.input.data(), static_cast<int64_t>(b.input.size())};
  ASSERT_EQ(kiln_npu_run("s", bytes.data(), bytes.size(), &inB, 1, &out, 1), 0);
  EXPECT_EQ(y, b.expected);
}

TEST_F(HostCallTest, RecordsTheFirstFailureByName) {
  Fixture f = makeFixture(1);
  std::vector<uint8_t> y(f.expected.size(), 0);
  KilnNpuBuffer in{f.input.data(), static_cast<int64_t>(f.input.size()) - 1};
  KilnNpuBuffer out{y.data(), static_cast<int64_t>(y.size())};
  EXPECT_EQ(kiln_npu_run("npu_first", f.npub.data(), f.npub.size(), &in, 1,
                         &out, 1),
            1);
  ASSERT_NE(kiln_npu_error(), nullptr);
  EXPECT_EQ(std::string(kiln_npu_error()),
            "NPU segment 'npu_first': input 0 'x' has " +
                std::to_string(f.input.size() - 1) +
                " bytes; the stream declares " +
                std::to_string(f.input.size()));
  // The outputs are 0xFF bytes (NaN as f32), not stale values.
  EXPECT_EQ(y, std::vector<uint8_t>(y.size(), 0xFF));

  // A later failure does not replace the first.
  std::vector<uint8_t> garbage(64, 7);
  EXPECT_EQ(kiln_npu_run("npu_second", garbage.data(), garbage.size(), &in, 1,
                         &out, 1),
            1);
  EXPECT_NE(std::string(kiln_npu_error()).find("npu_first"),
            std::string::npos);
  kiln_npu_clear_error();
  EXPECT_EQ(kiln_npu_run("npu_second", garbage.data(), garbage.size(), &in, 1,
                         &out, 1),
            1);
  EXPECT_NE(std::string(kiln_npu_error())
                .find("NPU segment 'npu_second': cannot load its stream"),
            std::string::npos)
      << kiln_npu_error();
}

TEST_F(HostCallTest, ChecksTheNumberOfBuffers) {
  Fixture f = makeFixture(1);
  std::vector<uint8_t> y(f.expected.size());
  KilnNpuBuffer in{f.input.data(), static_cast<int64_t>(f.input.size())};
  KilnNpuBuffer out[2] = {{y.data(), static_cast<int64_t>(y.size())},
                          {y.data(), static_cast<int64_t>(y.size())}};
  EXPECT_EQ(kiln_npu_run("s", f.npub.data(), f.npub.size(), &in, 1, out, 2),
            1);
  EXPECT_EQ(std::string(kiln_npu_error()),
            "NPU segment 's': the stream declares 1 inputs and 1 outputs; the "
            "call passes 1 and 2");
}

TEST_F(HostCallTest, RecordsTheFirstFailureOfTheCallingThread) {
  Fixture f = makeFixture(1);
  std::vector<uint8_t> y(f.expected.size());
  KilnNpuBuffer in{f.input.data(), static_cast<int64_t>(f.input.size())};
  KilnNpuBuffer out{y.data(), static_cast<int64_t>(y.size())};
  // A corrupted stream (one byte of its body flipped: the CRC fails).
  std::vector<uint8_t> corrupted = f.npub;
  corrupted.back() ^= 0x5A;

  // Another thread's failure shows in the process's record, not in this
  // thread's.
  std::string other;
  std::thread([&] {
    EXPECT_EQ(kiln_npu_run("npu_other", corrupted.data(), corrupted.size(),
                           &in, 1, &out, 1),
              1);
    ASSERT_NE(kiln_npu_thread_error(), nullptr);
    other = kiln_npu_thread_error();
  }).join();
  EXPECT_NE(other.find("NPU segment 'npu_other': cannot load its stream"),
            std::string::npos)
      << other;
  EXPECT_EQ(kiln_npu_thread_error(), nullptr);
  ASSERT_NE(kiln_npu_error(), nullptr);

  // This thread's first failure is kept until it clears it; a good call
  // after it does not clear it, and the good stream still runs.
  EXPECT_EQ(kiln_npu_run("npu_bad", corrupted.data(), corrupted.size(), &in,
                         1, &out, 1),
            1);
  EXPECT_EQ(kiln_npu_run("npu_good", f.npub.data(), f.npub.size(), &in, 1,
                         &out, 1),
            0);
  EXPECT_EQ(y, f.expected);
  ASSERT_NE(kiln_npu_thread_error(), nullptr);
  EXPECT_NE(std::string(kiln_npu_thread_error()).find("'npu_bad'"),
            std::string::npos)
      << kiln_npu_thread_error();

  // Clearing the thread's record leaves the process's, and the reverse.
  kiln_npu_clear_thread_error();
  EXPECT_EQ(kiln_npu_thread_error(), nullptr);
  ASSERT_NE(kiln_npu_error(), nullptr);
  EXPECT_NE(std::string(kiln_npu_error()).find("'npu_other'"),
            std::string::npos);
  EXPECT_EQ(kiln_npu_run("npu_bad", corrupted.data(), corrupted.size(), &in,
                         1, &out, 1),
            1);
  kiln_npu_clear_error();
  EXPECT_EQ(kiln_npu_error(), nullptr);
  EXPECT_NE(kiln_npu_thread_error(), nullptr);
}

} // namespace
} // namespace kiln::npu
