//===- StreamSyncTest.cpp - Semaphore assignment on graphs ------*- C++ -*-===//
//
// assignSemaphores on small hand-made streams (implied dependencies, more
// than two waits or signals, too few semaphores, forward dependencies), the
// checker catching a broken assignment, and random streams checked by it.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Analysis/StreamSync.h"

#include "gtest/gtest.h"

#include <random>

namespace kiln::npuhw {
namespace {

using npu::Engine;
constexpr Engine IN = Engine::DMA_IN, OUT = Engine::DMA_OUT,
                 MAC = Engine::MAC, VEC = Engine::VEC, CTRL = Engine::CTRL;

SyncAssignment assignChecked(const std::vector<SyncCommand> &cmds,
                             unsigned semaphores = 32) {
  SyncAssignment a = assignSemaphores(cmds, semaphores);
  EXPECT_EQ(a.error, SyncAssignment::Error::None);
  EXPECT_EQ(checkAssignment(cmds, a, semaphores), "");
  return a;
}

TEST(StreamSync, LoadConvRequantStore) {
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {MAC, {0}}, {VEC, {1}}, {OUT, {2}}, {CTRL, {3}}};
  SyncAssignment a = assignChecked(cmds);
  EXPECT_EQ(a.semaphoresUsed, 3u);
  EXPECT_EQ(a.commands[0].signals, std::vector<uint8_t>{0});
  EXPECT_EQ(a.commands[1].waits, std::vector<uint8_t>{0});
  EXPECT_EQ(a.commands[1].signals, std::vector<uint8_t>{1});
  EXPECT_EQ(a.commands[2].waits, std::vector<uint8_t>{1});
  EXPECT_EQ(a.commands[3].waits, std::vector<uint8_t>{2});
  EXPECT_TRUE(a.commands[4].waits.empty()); // END is a fence.
  EXPECT_TRUE(a.fencesBefore.empty());
}

TEST(StreamSync, SameEngineAndTransitiveDependenciesAreImplied) {
  // 2 depends on 0 on its own engine; 3 (VEC) depends on 1 (MAC) and on
  // 0 (DMA_IN), and 1 already waited on 0.
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {MAC, {0}}, {IN, {0}}, {VEC, {0, 1}}};
  SyncAssignment a = assignChecked(cmds);
  EXPECT_TRUE(a.commands[2].waits.empty());
  EXPECT_EQ(a.commands[3].waits.size(), 1u); // Only on MAC.
  EXPECT_EQ(a.waitsRealised, 2u);
}

TEST(StreamSync, OneSemaphorePerEnginePairInOrder) {
  // Double-buffered: loads 0, 2 and convs 1, 3; each conv waits on its load
  // through the same (DMA_IN, MAC) semaphore, in order.
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {MAC, {0}}, {IN, {}}, {MAC, {2}}};
  SyncAssignment a = assignChecked(cmds);
  EXPECT_EQ(a.semaphoresUsed, 1u);
  EXPECT_EQ(a.commands[1].waits, a.commands[3].waits);
}

TEST(StreamSync, ThreeNeedsCoveredByALaterProducer) {
  // 4 (VEC) needs DMA_IN 0, DMA_OUT 1 and MAC 2; MAC 3 already waited on
  // both others, so one wait on 3 covers everything.
  std::vector<SyncCommand> cmds = {{IN, {}},     {OUT, {}},       {MAC, {}},
                                   {MAC, {0, 1}}, {VEC, {0, 1, 2}}};
  SyncAssignment a = assignChecked(cmds);
  EXPECT_EQ(a.commands[4].waits.size(), 1u);
  EXPECT_EQ(a.commands[3].signals.size(), 1u);
  EXPECT_EQ(a.waitsPromoted, 1u);
  EXPECT_TRUE(a.fencesBefore.empty());
}

TEST(StreamSync, ThreeIndependentNeedsGetAFence) {
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {OUT, {}}, {MAC, {}}, {VEC, {0, 1, 2}}, {IN, {3}}};
  SyncAssignment a = assignChecked(cmds);
  EXPECT_EQ(a.fencesBefore, std::vector<unsigned>{3});
  EXPECT_TRUE(a.commands[3].waits.empty());
  EXPECT_EQ(a.commands[4].waits.size(), 1u);
}

TEST(StreamSync, ThirdSignalMovesToALaterProducer) {
  // Load 0 is needed by MAC 1, VEC 2 and DMA_OUT 4; load 3 comes after it on
  // DMA_IN, so the store waits on 3's signal instead.
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {MAC, {0}}, {VEC, {0}}, {IN, {}}, {OUT, {0}}};
  SyncAssignment a = assignChecked(cmds);
  EXPECT_EQ(a.commands[0].signals.size(), 2u);
  EXPECT_EQ(a.commands[3].signals.size(), 1u);
  EXPECT_EQ(a.waitsPromoted, 1u);
  EXPECT_TRUE(a.fencesBefore.empty());
}

TEST(StreamSync, ThirdSignalWithNoLaterProducerGetsAFence) {
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {MAC, {0}}, {VEC, {0}}, {OUT, {0}}};
  SyncAssignment a = assignChecked(cmds);
  EXPECT_EQ(a.fencesBefore, std::vector<unsigned>{3});
  EXPECT_TRUE(a.commands[3].waits.empty());
}

TEST(StreamSync, FewSemaphoresShareOnePerProducer) {
  // Pairs (IN,MAC), (IN,VEC), (MAC,VEC), (VEC,OUT): four; with three
  // semaphores the scheme falls back to one per producer engine.
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {MAC, {0}}, {IN, {}}, {VEC, {1, 2}}, {OUT, {3}}};
  EXPECT_EQ(assignChecked(cmds, 32).semaphoresUsed, 4u);
  SyncAssignment a = assignChecked(cmds, 3);
  EXPECT_EQ(a.scheme, SemaphoreScheme::PerProducer);
  EXPECT_EQ(a.semaphoresUsed, 3u);
}

TEST(StreamSync, SharedSemaphorePromotesOutOfOrderNeeds) {
  // One semaphore for DMA_IN: VEC 3 waits (in stream order) before MAC 4,
  // but MAC 4 needs the earlier load 0: it takes a second token of load 2.
  std::vector<SyncCommand> cmds = {
      {IN, {}}, {OUT, {}}, {IN, {}}, {VEC, {2}}, {MAC, {0, 1}}};
  SyncAssignment a = assignChecked(cmds, 2);
  EXPECT_EQ(a.scheme, SemaphoreScheme::PerProducer);
  EXPECT_EQ(a.commands[2].signals.size(), 2u);
  EXPECT_TRUE(a.commands[0].signals.empty());
  EXPECT_EQ(a.waitsPromoted, 1u);
}

TEST(StreamSync, TooFewSemaphores) {
  std::vector<SyncCommand> cmds = {{IN, {}}, {MAC, {0}}, {VEC, {1}}};
  SyncAssignment a = assignSemaphores(cmds, 1);
  EXPECT_EQ(a.error, SyncAssignment::Error::TooManySemaphores);
  EXPECT_EQ(a.semaphoresNeeded, 2u);
}

TEST(StreamSync, ForwardDependency) {
  std::vector<SyncCommand> cmds = {{IN, {}}, {MAC, {2}}, {VEC, {}}};
  SyncAssignment a = assignSemaphores(cmds, 32);
  EXPECT_EQ(a.error, SyncAssignment::Error::ForwardDependency);
  EXPECT_EQ(a.errorCommand, 1u);
  EXPECT_EQ(a.errorDep, 2u);
}

TEST(StreamSync, CheckerCatchesAMissingWait) {
  std::vector<SyncCommand> cmds = {{IN, {}}, {MAC, {0}}, {VEC, {1}}};
  SyncAssignment a = assignChecked(cmds);
  SyncAssignment broken = a;
  broken.commands[2].waits.clear();
  broken.commands[2].producers.clear();
  broken.commands[1].signals.clear();
  EXPECT_EQ(checkAssignment(cmds, broken, 32),
            "command 2 may start before command 1 completes");
  SyncAssignment crossed = a; // Two producers on one semaphore.
  crossed.commands[1].signals = {0};
  crossed.commands[2].waits = {0};
  EXPECT_NE(checkAssignment(cmds, crossed, 32), "");
}

TEST(StreamSync, RandomStreamsCheckOut) {
  std::mt19937 rng(7);
  const Engine engines[] = {IN, OUT, MAC, VEC, IN, MAC, VEC, CTRL};
  unsigned fences = 0, shared = 0, tooFew = 0;
  for (int iter = 0; iter < 400; ++iter) {
    std::vector<SyncCommand> cmds;
    unsigned n = 5 + rng() % 40;
    for (unsigned i = 0; i < n; ++i) {
      SyncCommand c;
      c.engine = engines[rng() % (i ? 8 : 7)];
      unsigned deps = i ? rng() % 4 : 0;
      for (unsigned d = 0; d < deps; ++d)
        c.deps.push_back(rng() % i);
      cmds.push_back(c);
    }
    for (unsigned semaphores : {32u, 4u, 3u, 2u}) {
      SyncAssignment a = assignSemaphores(cmds, semaphores);
      if (a.error == SyncAssignment::Error::TooManySemaphores) {
        EXPECT_GT(a.semaphoresNeeded, semaphores);
        ++tooFew;
        continue;
      }
      ASSERT_EQ(a.error, SyncAssignment::Error::None);
      ASSERT_EQ(checkAssignment(cmds, a, semaphores), "")
          << "iteration " << iter << ", " << semaphores << " semaphores";
      fences += a.fencesBefore.size();
      shared += a.scheme == SemaphoreScheme::PerProducer;
    }
  }
  // Both fallbacks and the error were exercised.
  EXPECT_GT(fences, 0u);
  EXPECT_GT(shared, 0u);
  EXPECT_GT(tooFew, 0u);
}

} // namespace
} // namespace kiln::npuhw
