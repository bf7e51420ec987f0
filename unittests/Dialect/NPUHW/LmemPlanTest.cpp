//===- LmemPlanTest.cpp - Liveness-based LMEM placement ---------*- C++ -*-===//
//
// planLmem on small streams: reuse after the last access when the
// dependencies order it, none when engines may run concurrently, alignment,
// read-first buffers, and the high-water mark.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Analysis/LmemPlan.h"

#include "gtest/gtest.h"

namespace kiln::npuhw {
namespace {

using npu::Engine;
constexpr Engine IN = Engine::DMA_IN, OUT = Engine::DMA_OUT,
                 MAC = Engine::MAC, VEC = Engine::VEC, CTRL = Engine::CTRL;

TEST(LmemPlan, ReusesBytesOfADeadBuffer) {
  // load A; B = f(A) on VEC; C = g(B) on VEC; store C. A is dead once 1
  // has read it, and 2 depends on 1, so C may take A's bytes.
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {VEC, {0}}, {VEC, {1}}, {OUT, {2}}};
  std::vector<LmemBuffer> bufs = {
      {256, {0, 1}, false}, {128, {1, 2}, false}, {200, {2, 3}, false}};
  LmemPlan plan = planLmem(cmds, bufs);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 256, 0}));
  EXPECT_EQ(plan.peak, 384u);
}

TEST(LmemPlan, ConcurrentAccessesDoNotShare) {
  // The store of A (DMA_OUT) and the load of C (DMA_IN) have no dependency:
  // they may run at the same time, so C must not overwrite A.
  std::vector<SyncCommand> cmds = {{IN, {}}, {OUT, {0}}, {IN, {}}};
  std::vector<LmemBuffer> bufs = {{64, {0, 1}, false}, {64, {2}, false}};
  LmemPlan plan = planLmem(cmds, bufs);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 64}));
  // With the write-after-read dependency the bytes are shared.
  cmds[2].deps = {1};
  EXPECT_EQ(planLmem(cmds, bufs).offsets, (std::vector<uint64_t>{0, 0}));
}

TEST(LmemPlan, FencesOrderEverything) {
  std::vector<SyncCommand> cmds = {{IN, {}}, {OUT, {0}}, {CTRL, {}}, {IN, {}}};
  std::vector<LmemBuffer> bufs = {{64, {0, 1}, false}, {64, {3}, false}};
  EXPECT_EQ(planLmem(cmds, bufs).offsets, (std::vector<uint64_t>{0, 0}));
}

TEST(LmemPlan, SameCommandBuffersConflict) {
  std::vector<SyncCommand> cmds = {{MAC, {}}};
  std::vector<LmemBuffer> bufs = {{16, {0}, false}, {16, {0}, false}};
  EXPECT_EQ(planLmem(cmds, bufs).offsets, (std::vector<uint64_t>{0, 16}));
}

TEST(LmemPlan, SixteenByteAlignment) {
  std::vector<SyncCommand> cmds = {{IN, {}}, {IN, {}}, {MAC, {0, 1}}};
  std::vector<LmemBuffer> bufs = {{20, {0, 2}, false}, {3, {1, 2}, false}};
  LmemPlan plan = planLmem(cmds, bufs);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 32}));
  EXPECT_EQ(plan.peak, 48u);
}

TEST(LmemPlan, ReadFirstBufferKeepsItsOwnBytes) {
  // C's first access reads it (it relies on LMEM starting at zero), so it
  // may not land on A's bytes even though A is dead.
  std::vector<SyncCommand> cmds = {{IN, {}}, {VEC, {0}}, {VEC, {1}}};
  std::vector<LmemBuffer> bufs = {{64, {0, 1}, false}, {64, {2}, true}};
  EXPECT_EQ(planLmem(cmds, bufs).offsets, (std::vector<uint64_t>{0, 64}));
}

TEST(LmemPlan, FirstFitFillsAHole) {
  // A and B live together; A dies; C (small) fits in A's hole below B.
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {IN, {}}, {VEC, {0, 1}}, {VEC, {2}}, {OUT, {3}}};
  std::vector<LmemBuffer> bufs = {
      {96, {0, 2}, false}, {64, {1, 4}, false}, {80, {3, 4}, false}};
  LmemPlan plan = planLmem(cmds, bufs);
  EXPECT_EQ(plan.offsets, (std::vector<uint64_t>{0, 96, 0}));
  EXPECT_EQ(plan.peak, 160u);
}

} // namespace
} // namespace kiln::npuhw
