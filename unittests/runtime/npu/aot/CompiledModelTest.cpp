//===- CompiledModelTest.cpp - a model compiled for the NPU -----*- C++ -*-===//
//
// Links the object kiln-compile --target=npu wrote at build time (through
// kiln_add_compiled_model(... TARGET npu), which brings in KilnNPURuntime)
// next to the same model compiled for the CPU, and calls both through their
// generated headers: the NPU object's segments run on the simulator and
// agree with the CPU object within fp16's precision; the C API clears the
// calling thread's NPU failure at each run, so an earlier failure is not
// reported by a later, good run.
//
//===----------------------------------------------------------------------===//

#include "conv_cpu_model.h"
#include "conv_npu_model.h"

#include "runtime/npu/HostCall.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

/// Deterministic inputs in [0, 1).
void fill(float *data, int64_t count, uint32_t seed) {
  uint32_t state = seed;
  for (int64_t i = 0; i < count; ++i) {
    state = state * 1664525u + 1013904223u;
    data[i] = static_cast<float>(state >> 8) / static_cast<float>(1u << 24);
  }
}

TEST(NPUCompiledModel, MatchesTheCPUObjectWithinFP16) {
  kiln::npu::resetSegments();
  kiln_test::ConvCPU cpu;
  kiln_test::ConvNPU npu;
  ASSERT_EQ(cpu.feed_count(0), npu.feed_count(0));
  fill(cpu.feed_x_data(), cpu.feed_count(0), 7);
  fill(npu.feed_x_data(), npu.feed_count(0), 7);
  ASSERT_TRUE(cpu.Run());
  ASSERT_TRUE(npu.Run()) << kiln_test::ConvNPU::npu_error();
  EXPECT_EQ(kiln_test::ConvNPU::npu_error(), nullptr);
  ASSERT_EQ(cpu.fetch_count(0), npu.fetch_count(0));
  double scale = 0, error = 0;
  for (int64_t i = 0; i < cpu.fetch_count(0); ++i) {
    scale = std::max(scale, std::fabs(double(cpu.fetch_y_data()[i])));
    error = std::max(error, std::fabs(double(cpu.fetch_y_data()[i]) -
                                      npu.fetch_y_data()[i]));
  }
  ASSERT_GT(scale, 0.0);
  EXPECT_LE(error, 1e-2 * scale) << "scale " << scale;

  // The object's segments ran on the simulator.
  std::vector<kiln::npu::SegmentStats> stats = kiln::npu::segmentStats();
  ASSERT_EQ(stats.size(), 2u);
  for (const kiln::npu::SegmentStats &segment : stats) {
    EXPECT_GE(segment.calls, 1u) << segment.name;
    EXPECT_GT(segment.cycles, 0u) << segment.name;
  }
}

TEST(NPUCompiledModel, ARunForgetsAnEarlierFailureOfTheThread) {
  // A failure on this thread before the run: a stream that does not load.
  std::vector<uint8_t> garbage(64, 7);
  float y = 0;
  KilnNpuBuffer out{&y, sizeof y};
  ASSERT_EQ(kiln_npu_run("npu_garbage", garbage.data(), garbage.size(),
                         nullptr, 0, &out, 1),
            1);
  ASSERT_NE(conv_npu_npu_error(), nullptr);

  std::vector<float> x(1 * 8 * 8 * 16);
  fill(x.data(), x.size(), 3);
  conv_npu_tensor feeds[1] = {{x.data(), nullptr, {1, 8, 8, 16}}};
  conv_npu_tensor fetches[1];
  ASSERT_EQ(conv_npu_run(feeds, fetches), 0) << conv_npu_npu_error();
  EXPECT_EQ(conv_npu_npu_error(), nullptr);
  const float *result = static_cast<const float *>(fetches[0].data);
  EXPECT_FALSE(std::isnan(result[0]));
  conv_npu_free_fetches(fetches);
  kiln_npu_clear_error();

  // A bad feed shape is still reported as before, not as an NPU failure.
  feeds[0].shape[3] = 15;
  EXPECT_EQ(conv_npu_run(feeds, fetches), 1);
}

} // namespace
