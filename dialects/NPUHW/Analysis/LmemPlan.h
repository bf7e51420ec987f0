//===- LmemPlan.h - Liveness-based LMEM placement ---------------*- C++ -*-===//
//
// The dialect-independent core of `npuhw-allocate-lmem`: given a stream's
// commands (engines and dependencies) and the buffers of one LMEM region
// with the commands that access them, choose a 16-byte-aligned offset for
// each buffer so that two buffers share bytes only when every access of one
// happens-before every access of the other under the stream's dependencies.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_ANALYSIS_LMEMPLAN_H
#define KILN_DIALECTS_NPUHW_ANALYSIS_LMEMPLAN_H

#include "dialects/NPUHW/Analysis/StreamSync.h"

#include <cstdint>
#include <vector>

namespace kiln::npuhw {

/// One buffer to place.
struct LmemBuffer {
  /// Bytes it occupies (rounded up to the alignment when placed).
  uint64_t size = 0;
  /// Stream indices of the commands that read or write it.
  std::vector<unsigned> accesses;
  /// Its first access in stream order reads it before writing it (it expects
  /// the zeros LMEM starts with): it then never shares bytes with a buffer
  /// that lived before it.
  bool readFirst = false;
  /// Place it as high as it fits below the region's end instead of as low
  /// as it fits (a lowering that lets consecutive ops overlap puts their
  /// buffers at opposite ends of the region, so they never collide).
  bool fromTop = false;
};

/// The placement of the buffers of one region.
struct LmemPlan {
  /// Byte offset of each buffer from the region base, in input order.
  std::vector<uint64_t> offsets;
  /// The high-water mark: the highest end offset of any buffer.
  uint64_t peak = 0;
  /// Placement order (indices into the buffers), for diagnostics.
  std::vector<unsigned> order;
};

/// True if every access of \p first happens-before every access of
/// \p second, given the start clocks of dependencyClocks() and the ordinals
/// of engineOrdinals().
bool accessesOrdered(const std::vector<SyncCommand> &commands,
                     const std::vector<EngineClock> &clocks,
                     const std::vector<uint32_t> &ordinals,
                     const LmemBuffer &first, const LmemBuffer &second);

/// Places \p buffers by first fit in order of their first access (larger
/// first on ties): each goes at the lowest \p alignment-aligned offset that
/// overlaps no already placed buffer it conflicts with. Two buffers conflict
/// unless one's accesses are all ordered before the other's (a buffer that
/// is read first also conflicts with every buffer ordered before it).
/// Buffers with no access conflict with nothing. A `fromTop` buffer goes
/// instead at the highest aligned offset that ends at or below \p top and
/// overlaps no conflicting placed buffer (the lowest fit when there is
/// none).
LmemPlan planLmem(const std::vector<SyncCommand> &commands,
                  const std::vector<LmemBuffer> &buffers,
                  uint64_t alignment = 16, uint64_t top = 0);

} // namespace kiln::npuhw

#endif // KILN_DIALECTS_NPUHW_ANALYSIS_LMEMPLAN_H
