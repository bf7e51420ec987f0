//===- LmemPlan.cpp - Liveness-based LMEM placement ----------------------===//
//
// Happens-before comes from dependencyClocks(): a command's start clock says,
// per engine, how many of that engine's commands are known to have completed
// when it starts, through its dependencies (transitively), the in-order
// engines and fences. Access a happens-before access b exactly when a's
// ordinal on its engine is at most b's start clock for that engine. For
// buffers A and B this reduces to: for every engine E, the last access of A
// on E is within the pointwise minimum of the start clocks of B's accesses.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Analysis/LmemPlan.h"

#include <algorithm>
#include <numeric>

namespace kiln::npuhw {

namespace {

constexpr unsigned kEngines = npu::kNumEngines;

/// The summary of one buffer's accesses that ordering needs.
struct Summary {
  bool accessed = false;
  /// Per engine, the highest ordinal of an access (0: none).
  EngineClock last{};
  /// Pointwise minimum of the start clocks of the accesses.
  EngineClock earliestStart{};
  unsigned firstIndex = 0;
};

Summary summarize(const std::vector<SyncCommand> &commands,
                  const std::vector<EngineClock> &clocks,
                  const std::vector<uint32_t> &ordinals,
                  const LmemBuffer &buffer) {
  Summary s;
  s.earliestStart.fill(UINT32_MAX);
  s.firstIndex = UINT32_MAX;
  for (unsigned a : buffer.accesses) {
    s.accessed = true;
    unsigned e = static_cast<unsigned>(commands[a].engine);
    s.last[e] = std::max(s.last[e], ordinals[a]);
    for (unsigned k = 0; k < kEngines; ++k)
      s.earliestStart[k] = std::min(s.earliestStart[k], clocks[a][k]);
    s.firstIndex = std::min(s.firstIndex, a);
  }
  return s;
}

bool before(const Summary &a, const Summary &b) {
  for (unsigned e = 0; e < kEngines; ++e)
    if (a.last[e] > b.earliestStart[e])
      return false;
  return true;
}

} // namespace

bool accessesOrdered(const std::vector<SyncCommand> &commands,
                     const std::vector<EngineClock> &clocks,
                     const std::vector<uint32_t> &ordinals,
                     const LmemBuffer &first, const LmemBuffer &second) {
  return before(summarize(commands, clocks, ordinals, first),
                summarize(commands, clocks, ordinals, second));
}

LmemPlan planLmem(const std::vector<SyncCommand> &commands,
                  const std::vector<LmemBuffer> &buffers, uint64_t alignment,
                  uint64_t top) {
  std::vector<EngineClock> clocks = dependencyClocks(commands);
  std::vector<uint32_t> ordinals = engineOrdinals(commands);
  std::vector<Summary> sums;
  for (const LmemBuffer &b : buffers)
    sums.push_back(summarize(commands, clocks, ordinals, b));
  auto alignUp = [&](uint64_t v) {
    return (v + alignment - 1) / alignment * alignment;
  };
  auto conflict = [&](unsigned i, unsigned j) {
    const Summary &a = sums[i], &b = sums[j];
    if (!a.accessed || !b.accessed)
      return false;
    bool ab = before(a, b), ba = before(b, a);
    if (ab && !buffers[j].readFirst)
      return false;
    if (ba && !buffers[i].readFirst)
      return false;
    return true;
  };

  LmemPlan plan;
  plan.offsets.assign(buffers.size(), 0);
  plan.order.resize(buffers.size());
  std::iota(plan.order.begin(), plan.order.end(), 0u);
  std::stable_sort(plan.order.begin(), plan.order.end(),
                   [&](unsigned a, unsigned b) {
                     if (sums[a].firstIndex != sums[b].firstIndex)
                       return sums[a].firstIndex < sums[b].firstIndex;
                     return buffers[a].size > buffers[b].size;
                   });
  std::vector<unsigned> placed;
  for (unsigned i : plan.order) {
    uint64_t size = alignUp(std::max<uint64_t>(buffers[i].size, 1));
    std::vector<std::pair<uint64_t, uint64_t>> busy;
    for (unsigned j : placed)
      if (conflict(i, j))
        busy.push_back({plan.offsets[j],
                        plan.offsets[j] +
                            alignUp(std::max<uint64_t>(buffers[j].size, 1))});
    std::sort(busy.begin(), busy.end());
    uint64_t at = 0;
    bool placedHigh = false;
    if (buffers[i].fromTop) {
      // Highest fit: the window [end - size, end) moves below the lowest
      // busy interval it overlaps (any gap between those is too small).
      uint64_t end = top / alignment * alignment;
      while (end >= size && !placedHigh) {
        uint64_t lo = end - size, lowest = UINT64_MAX;
        for (auto [blo, bhi] : busy)
          if (blo < end && lo < bhi)
            lowest = std::min(lowest, blo);
        if (lowest == UINT64_MAX) {
          at = lo;
          placedHigh = true;
        } else {
          end = lowest / alignment * alignment;
        }
      }
    }
    if (!placedHigh) {
      at = 0;
      for (auto [lo, hi] : busy) {
        if (at + size <= lo)
          break;
        at = std::max(at, alignUp(hi));
      }
    }
    plan.offsets[i] = at;
    plan.peak = std::max(plan.peak, at + size);
    placed.push_back(i);
  }
  return plan;
}

} // namespace kiln::npuhw
