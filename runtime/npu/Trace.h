//===- Trace.h - Chrome trace-event JSON of a simulator run -----*- C++ -*-===//
//
// Writes the timings of a run in the Chrome trace-event format (an object
// with "traceEvents"), which Perfetto's UI and chrome://tracing open: one
// track per engine, one complete ("X") event per command.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_TRACE_H
#define KILN_RUNTIME_NPU_TRACE_H

#include "runtime/npu/Format.h"

#include <string>
#include <vector>

namespace kiln::npu {

struct CommandTiming;

/// Where a stream's events go in a trace that may hold several streams.
struct TraceOptions {
  /// The process of the stream's tracks, and its name.
  int pid = 1;
  std::string processName = "NPU-v1";
  /// Added to every timestamp (microseconds): where the stream started.
  double startMicros = 0;
};

/// The track (tid) of the per-layer spans; engines use their numbers.
inline constexpr int kLayerTrack = kNumEngines;

/// The events of the first \p count commands of \p program with \p timings
/// (cycles; timestamps in microseconds at the configured clock), as the text
/// of a JSON array, for callers that merge several streams into one trace.
std::string chromeTraceEvents(const Program &program,
                              const std::vector<CommandTiming> &timings,
                              size_t count, const TraceOptions &options = {});

/// The whole trace document of one stream (chromeTraceEvents in an object
/// with "traceEvents").
std::string chromeTraceJson(const Program &program,
                            const std::vector<CommandTiming> &timings,
                            size_t count);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_TRACE_H
