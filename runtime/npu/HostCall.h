/*===- HostCall.h - Run an NPU segment from compiled host code ---*- C -*-===//
 *
 * The C entry that compiled models call for each NPU segment
 * (kiln-npu-segments-to-host-calls puts the call in the segment's
 * function): the segment's .npub bytes, its inputs and its outputs as
 * contiguous buffers, bound to the stream's IO declarations in order
 * (inputs to the input IOs, outputs to the output IOs). In this build the
 * NPU is the simulator: the first call of a stream parses and verifies it,
 * later calls reuse the simulator. A failure is recorded twice, naming the
 * segment and what failed: for the process (the first one since
 * kiln_npu_clear_error) and for the calling thread (the first one since
 * kiln_npu_clear_thread_error), and the outputs are filled with 0xFF bytes
 * (NaN for f32), because compiled code has no error path yet. kiln-run
 * checks kiln_npu_error() after a run; the C API of a model compiled with
 * kiln-compile --target=npu clears the thread's failure before each run and
 * returns <MODEL>_NPU_FAILED when the run recorded one.
 *
 * Plain C (C++ adds the statistics API below); no MLIR or LLVM.
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_RUNTIME_NPU_HOSTCALL_H
#define KILN_RUNTIME_NPU_HOSTCALL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One buffer of a segment call: C-order data and its size in bytes. */
typedef struct KilnNpuBuffer {
  void *data;
  int64_t bytes;
} KilnNpuBuffer;

/** Runs the stream `npub` (`npubBytes` long) of segment `segment` (a
 * NUL-terminated name for messages and statistics). Returns 0 on success,
 * 1 on failure (see kiln_npu_error). Thread-safe; one stream runs one call
 * at a time. */
int32_t kiln_npu_run(const char *segment, const uint8_t *npub,
                     int64_t npubBytes, const KilnNpuBuffer *inputs,
                     int64_t numInputs, const KilnNpuBuffer *outputs,
                     int64_t numOutputs);

/** The first failure since the last kiln_npu_clear_error, or NULL. The
 * string stays valid until kiln_npu_clear_error. */
const char *kiln_npu_error(void);

/** Forgets the recorded failure. */
void kiln_npu_clear_error(void);

/** The first failure of a call made on the calling thread since that
 * thread's last kiln_npu_clear_thread_error (or its start), or NULL; other
 * threads' calls never show here. The string stays valid until the thread
 * clears it. */
const char *kiln_npu_thread_error(void);

/** Forgets the calling thread's recorded failure (not the process's). */
void kiln_npu_clear_thread_error(void);

#ifdef __cplusplus
} /* extern "C" */

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::npu {

/// What the simulator measured for one segment, over its calls.
struct SegmentStats {
  std::string name;
  uint64_t calls = 0;
  /// Cycles and useful-MAC utilisation of the last call.
  uint64_t cycles = 0;
  double macUtilisation = 0;
  /// Microseconds of the last call at the configured clock.
  double microseconds = 0;
};

/// The segments run so far, in the order of their first call.
std::vector<SegmentStats> segmentStats();

/// Drops every cached stream, its statistics, the recorded failure and the
/// calling thread's.
void resetSegments();

} // namespace kiln::npu
#endif

#endif /* KILN_RUNTIME_NPU_HOSTCALL_H */
