//===- RaceChecker.h - Happens-before race detection ------------*- C++ -*-===//
//
// Vector clocks per engine and shadow interval maps over LMEM and each DRAM
// region: two accesses to overlapping bytes from different engines, at least
// one a write, with no happens-before between them, are a race naming both
// commands.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_RACECHECKER_H
#define KILN_RUNTIME_NPU_RACECHECKER_H

#include "runtime/npu/Format.h"

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kiln::npu {

/// A vector clock: one epoch per engine.
using VectorClock = std::array<uint32_t, kNumEngines>;
/// Pointwise maximum.
void joinClock(VectorClock &into, const VectorClock &other);

/// One unsynchronised pair of accesses.
struct Race {
  size_t first = 0, second = 0; ///< Command indices, first < second.
  std::string message;
};

/// A contiguous byte range one command touches.
struct Interval {
  int space = 0; ///< -1: LMEM; r >= 0: DRAM region r.
  bool write = false;
  uint64_t lo = 0, hi = 0;
};

/// The exact byte intervals \p command touches (views per vector, DMA per
/// run, merged where contiguous).
std::vector<Interval> commandIntervals(const Command &command);

/// The shadow memory and the race list.
class RaceChecker {
public:
  explicit RaceChecker(const Program &program) : program(program) {}
  /// Records the accesses of command \p index, running on \p engine with
  /// clock \p clock (its epoch for \p engine is clock[engine]).
  void record(size_t index, const VectorClock &clock);
  /// Races found so far, in detection order.
  const std::vector<Race> &races() const { return found; }

private:
  struct Access {
    int64_t cmd = -1;
    uint32_t epoch = 0;
  };
  struct Segment {
    uint64_t end = 0;
    Access write;
    std::array<Access, kNumEngines> reads;
  };
  using Shadow = std::map<uint64_t, Segment>;

  void access(const Interval &interval, size_t index, Engine engine,
              const VectorClock &clock);
  void check(const Access &prior, Engine priorEngine, bool priorWrite,
             size_t index, Engine engine, bool write, const VectorClock &clock,
             const Interval &where);
  void split(Shadow &shadow, uint64_t at);

  const Program &program;
  std::map<int, Shadow> shadows;
  std::vector<Race> found;
  std::set<std::pair<size_t, size_t>> seen;
};

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_RACECHECKER_H
