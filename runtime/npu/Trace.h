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

/// The trace of the first \p count commands of \p program with \p timings
/// (cycles; timestamps are written in microseconds at the configured clock).
std::string chromeTraceJson(const Program &program,
                            const std::vector<CommandTiming> &timings,
                            size_t count);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_TRACE_H
