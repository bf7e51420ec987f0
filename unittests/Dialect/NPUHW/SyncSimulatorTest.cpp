//===- SyncSimulatorTest.cpp - Assigned semaphores, simulated ---*- C++ -*-===//
//
// The double-buffered convolution of runtime/npu/Examples.h with its
// semaphores stripped: dependencies are recomputed from the bytes each
// command touches, assignSemaphores chooses new waits and signals, and the
// simulator runs the result with race checking: no race, no deadlock, the
// same output as the hand-synchronised stream. Dropping one dependency makes
// the race checker fire, so the test can fail.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Analysis/StreamSync.h"
#include "runtime/npu/Examples.h"
#include "runtime/npu/Simulator.h"

#include "gtest/gtest.h"

#include <algorithm>

namespace kiln::npuhw {
namespace {

using namespace kiln::npu;

bool overlap(const Extent &a, const Extent &b) {
  return a.dram == b.dram && (!a.dram || a.region == b.region) &&
         a.lo < b.hi && b.lo < a.hi && (a.write || b.write);
}

/// The stream without semaphores or fences, and the dependencies implied by
/// the bytes its commands touch (read after write, write after read, write
/// after write).
std::pair<std::vector<Command>, std::vector<SyncCommand>>
stripAndDerive(const Program &program) {
  std::vector<Command> cmds;
  for (Command c : program.commands) {
    if (c.opcode == Opcode::NOP)
      continue;
    c.wait[0] = c.wait[1] = c.signal[0] = c.signal[1] = kNoSemaphore;
    cmds.push_back(c);
  }
  std::vector<SyncCommand> graph(cmds.size());
  for (unsigned i = 0; i < cmds.size(); ++i) {
    graph[i].engine = cmds[i].engine();
    std::vector<Extent> mine = commandExtents(cmds[i]);
    for (unsigned j = 0; j < i; ++j) {
      bool dep = false;
      for (const Extent &b : commandExtents(cmds[j]))
        for (const Extent &a : mine)
          dep |= overlap(a, b);
      if (dep)
        graph[i].deps.push_back(j);
    }
  }
  return {cmds, graph};
}

/// Writes \p assignment into \p cmds (fences become NOPs).
std::vector<Command> applyAssignment(const std::vector<Command> &cmds,
                           const SyncAssignment &assignment) {
  std::vector<Command> out;
  size_t fence = 0;
  for (unsigned i = 0; i < cmds.size(); ++i) {
    while (fence < assignment.fencesBefore.size() &&
           assignment.fencesBefore[fence] == i) {
      out.push_back(Command());
      ++fence;
    }
    Command c = cmds[i];
    const SyncIds &ids = assignment.commands[i];
    for (size_t k = 0; k < ids.waits.size(); ++k)
      c.wait[k] = ids.waits[k];
    for (size_t k = 0; k < ids.signals.size(); ++k)
      c.signal[k] = ids.signals[k];
    out.push_back(c);
  }
  return out;
}

absl::StatusOr<RunResult> run(const ConvExample &ex, const Program &program,
                              std::vector<uint8_t> &y) {
  absl::StatusOr<Simulator> sim = Simulator::create(program);
  if (!sim.ok())
    return sim.status();
  if (absl::Status s = sim->setInput("x", ex.input); !s.ok())
    return s;
  RunOptions options;
  options.raceCheck = true;
  absl::StatusOr<RunResult> result = sim->run(options);
  if (result.ok())
    y = *sim->getOutput("y");
  return result;
}

ConvExampleOptions smallExample(bool doubleBuffer = true) {
  ConvExampleOptions o;
  o.doubleBuffer = doubleBuffer;
  o.h = 8;
  o.w = 8;
  o.cin = 32;
  o.cout = 32;
  o.rowsPerTile = 2;
  return o;
}

/// (semaphores, double-buffered): the single-buffered example reuses one
/// buffer per stage, so every tile also depends on the previous one.
class SyncOnSimulator
    : public ::testing::TestWithParam<std::tuple<unsigned, bool>> {};

TEST_P(SyncOnSimulator, AssignedStreamRunsWithoutRaces) {
  auto [semaphores, doubleBuffer] = GetParam();
  ConvExample ex = buildConvExample(smallExample(doubleBuffer));
  std::vector<uint8_t> expected;
  ASSERT_TRUE(run(ex, ex.program, expected).ok());

  auto [cmds, graph] = stripAndDerive(ex.program);
  SyncAssignment a = assignSemaphores(graph, semaphores);
  ASSERT_EQ(a.error, SyncAssignment::Error::None);
  ASSERT_EQ(checkAssignment(graph, a, semaphores), "");
  Program p = ex.program;
  p.config.semaphores = semaphores;
  p.commands = applyAssignment(cmds, a);
  std::vector<uint8_t> y;
  absl::StatusOr<RunResult> r = run(ex, p, y); // Verifier: stream rule.
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->races.empty()) << r->races.front().message;
  EXPECT_EQ(y, expected);
  // The tiles still overlap: no fence was needed.
  EXPECT_TRUE(a.fencesBefore.empty());
}

INSTANTIATE_TEST_SUITE_P(Streams, SyncOnSimulator,
                         ::testing::Combine(::testing::Values(32u, 4u),
                                            ::testing::Bool()));

TEST(SyncOnSimulatorNegative, DroppingADependencyIsARace) {
  ConvExample ex = buildConvExample(smallExample());
  auto [cmds, graph] = stripAndDerive(ex.program);
  // The second tile's convolution no longer waits for its input tile (the
  // double-buffered example has no NOP, so its indices are unchanged).
  unsigned load = ex.loads[1], conv = ex.convs[1];
  auto &deps = graph[conv].deps;
  ASSERT_NE(std::find(deps.begin(), deps.end(), load), deps.end());
  deps.erase(std::remove(deps.begin(), deps.end(), load), deps.end());
  SyncAssignment a = assignSemaphores(graph, 32);
  ASSERT_EQ(a.error, SyncAssignment::Error::None);
  Program p = ex.program;
  p.commands = applyAssignment(cmds, a);
  std::vector<uint8_t> y;
  absl::StatusOr<RunResult> r = run(ex, p, y);
  ASSERT_TRUE(r.ok()) << r.status();
  bool named = false;
  for (const Race &race : r->races)
    named |= race.first == load && race.second == conv;
  EXPECT_TRUE(named) << r->races.size() << " races";
}

} // namespace
} // namespace kiln::npuhw
