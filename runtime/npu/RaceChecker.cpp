//===- RaceChecker.cpp - Happens-before race detection ----------*- C++ -*-===//
//
// Shadow interval maps with the last write and the last read per engine of
// every byte range.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/RaceChecker.h"

#include "runtime/npu/Verifier.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace kiln::npu {

void joinClock(VectorClock &into, const VectorClock &other) {
  for (int i = 0; i < kNumEngines; ++i)
    into[i] = std::max(into[i], other[i]);
}

namespace {
/// Operands with more pieces than this are tracked by their bounding range
/// (conservative: it can only add reports, for unusually shaped accesses).
constexpr uint64_t kMaxPieces = 1 << 16;

/// Appends [lo, hi) to \p out, merging with the previous interval when they
/// touch or overlap.
void add(std::vector<Interval> &out, int space, bool write, uint64_t lo,
         uint64_t hi) {
  if (!out.empty() && out.back().space == space && out.back().write == write &&
      lo >= out.back().lo && lo <= out.back().hi) {
    out.back().hi = std::max(out.back().hi, hi);
    return;
  }
  out.push_back({space, write, lo, hi});
}

void addView(std::vector<Interval> &out, const ViewDesc &v, bool write) {
  if (uint64_t(v.w) * v.h * v.cb > kMaxPieces) {
    add(out, -1, write, v.addr, v.end());
    return;
  }
  for (unsigned y = 0; y < v.h; ++y)
    for (unsigned x = 0; x < v.w; ++x)
      for (unsigned b = 0; b < v.cb; ++b) {
        uint64_t lo = v.vectorAddr(y, x, b);
        add(out, -1, write, lo, lo + v.vectorBytes());
      }
}

void addRuns(std::vector<Interval> &out, int space, bool write, uint64_t base,
             const uint16_t n[3], const uint32_t stride[3], uint64_t run) {
  if (uint64_t(n[0]) * n[1] * n[2] > kMaxPieces) {
    uint64_t hi = base + run;
    for (int i = 0; i < 3; ++i)
      hi += uint64_t(n[i] ? n[i] - 1 : 0) * stride[i];
    add(out, space, write, base, hi);
    return;
  }
  for (uint64_t i2 = 0; i2 < n[2]; ++i2)
    for (uint64_t i1 = 0; i1 < n[1]; ++i1)
      for (uint64_t i0 = 0; i0 < n[0]; ++i0) {
        uint64_t lo = base + i2 * stride[2] + i1 * stride[1] + i0 * stride[0];
        add(out, space, write, lo, lo + run);
      }
}
} // namespace

std::vector<Interval> commandIntervals(const Command &c) {
  std::vector<Interval> out;
  switch (c.opcode) {
  case Opcode::DMA_LOAD:
    addRuns(out, (c.flags & flags::kLmemSource) ? -1 : c.region, false, c.src,
            c.n, c.srcStride, c.srcRun);
    addRuns(out, -1, true, c.dst, c.n, c.dstStride, c.dstRun);
    return out;
  case Opcode::DMA_STORE:
    addRuns(out, -1, false, c.src, c.n, c.srcStride, c.srcRun);
    addRuns(out, c.region, true, c.dst, c.n, c.dstStride, c.srcRun);
    return out;
  default:
    break;
  }
  for (const Extent &e : commandExtents(c)) {
    std::string field = e.field;
    if (field == "in.addr")
      addView(out, c.in, false);
    else if (field == "in2.addr")
      addView(out, c.in2, false);
    else if (field == "out.addr")
      addView(out, c.out, e.write);
    else
      add(out, e.dram ? e.region : -1, e.write, e.lo, e.hi);
  }
  return out;
}

void RaceChecker::split(Shadow &shadow, uint64_t at) {
  auto it = shadow.upper_bound(at);
  if (it == shadow.begin())
    return;
  --it;
  if (it->first < at && it->second.end > at) {
    Segment tail = it->second;
    it->second.end = at;
    shadow.emplace(at, tail);
  }
}

void RaceChecker::check(const Access &prior, Engine priorEngine,
                        bool priorWrite, size_t index, Engine engine,
                        bool write, const VectorClock &clock,
                        const Interval &where) {
  if (prior.cmd < 0 || (!write && !priorWrite) || priorEngine == engine)
    return;
  if (prior.epoch <= clock[static_cast<int>(priorEngine)])
    return; // Happens-before.
  size_t a = static_cast<size_t>(prior.cmd), b = index;
  if (!seen.insert({std::min(a, b), std::max(a, b)}).second)
    return;
  const Command &ca = program.commands[a], &cb = program.commands[b];
  std::string space;
  if (where.space < 0) {
    LmemRegion r;
    space = lmemRegionOf(program.config, where.lo, r)
                ? absl::StrCat("LMEM.", lmemRegionName(r))
                : "LMEM";
  } else {
    space = absl::StrCat("DRAM r", where.space);
  }
  Race race;
  race.first = std::min(a, b);
  race.second = std::max(a, b);
  race.message = absl::StrFormat(
      "race on %s [0x%x, 0x%x): command %d (%s on %s) %s and command %d (%s "
      "on %s) %s with no synchronisation between them",
      space, where.lo, where.hi, a, opcodeName(ca.opcode),
      engineName(priorEngine), priorWrite ? "writes" : "reads", b,
      opcodeName(cb.opcode), engineName(engine), write ? "writes" : "reads");
  found.push_back(std::move(race));
}

void RaceChecker::access(const Interval &iv, size_t index, Engine engine,
                         const VectorClock &clock) {
  Shadow &shadow = shadows[iv.space];
  split(shadow, iv.lo);
  split(shadow, iv.hi);
  Access self{static_cast<int64_t>(index), clock[static_cast<int>(engine)]};
  uint64_t cursor = iv.lo;
  auto it = shadow.lower_bound(iv.lo);
  while (cursor < iv.hi) {
    if (it == shadow.end() || it->first > cursor) {
      // A gap: never accessed before.
      uint64_t gapEnd = it == shadow.end() ? iv.hi : std::min(iv.hi, it->first);
      Segment seg;
      seg.end = gapEnd;
      if (iv.write)
        seg.write = self;
      else
        seg.reads[static_cast<int>(engine)] = self;
      it = std::next(shadow.emplace(cursor, seg).first);
      cursor = gapEnd;
      continue;
    }
    Segment &seg = it->second;
    Interval where{iv.space, iv.write, it->first, seg.end};
    if (seg.write.cmd >= 0)
      check(seg.write, program.commands[seg.write.cmd].engine(), true, index,
            engine, iv.write, clock, where);
    if (iv.write)
      for (int e = 0; e < kNumEngines; ++e)
        check(seg.reads[e], static_cast<Engine>(e), false, index, engine, true,
              clock, where);
    if (iv.write) {
      seg.write = self;
      seg.reads.fill(Access{});
    } else {
      seg.reads[static_cast<int>(engine)] = self;
    }
    cursor = seg.end;
    ++it;
  }
}

void RaceChecker::record(size_t index, const VectorClock &clock) {
  Engine engine = program.commands[index].engine();
  for (const Interval &iv : commandIntervals(program.commands[index]))
    if (iv.hi > iv.lo)
      access(iv, index, engine, clock);
}

} // namespace kiln::npu
