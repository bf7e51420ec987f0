//===- HostCall.cpp - Run an NPU segment from compiled host code -*- C++ -*-===//
//
// A process-wide cache of simulators keyed by the address of a stream's
// bytes (a constant global of the compiled code); an entry keeps a copy of
// the bytes and is rebuilt when the bytes at that address change (a new
// JIT-compiled module may reuse an address).
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/HostCall.h"

#include "runtime/npu/Simulator.h"

#include "absl/strings/str_cat.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::npu {
namespace {

/// One stream: its bytes, its simulator and what it measured.
struct Segment {
  std::vector<uint8_t> bytes;
  std::optional<Simulator> simulator;
  SegmentStats stats;
  size_t order = 0;
  std::mutex mutex;
};

/// The cache, the statistics and the recorded failure.
struct State {
  std::mutex mutex;
  std::unordered_map<const uint8_t *, std::unique_ptr<Segment>> segments;
  size_t nextOrder = 0;
  std::optional<std::string> error;
};

State &state() {
  static State *instance = new State();
  return *instance;
}

/// The calling thread's first failure since it cleared it.
thread_local std::optional<std::string> threadError;

/// Records `message` for the process and for the calling thread, each
/// unless a failure is already recorded there.
void recordError(const std::string &message) {
  if (!threadError)
    threadError = message;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (!s.error)
    s.error = message;
}

/// The segment of `npub`, (re)built when new or when its bytes changed.
Segment *findSegment(const char *name, const uint8_t *npub, int64_t size) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::unique_ptr<Segment> &slot = s.segments[npub];
  if (!slot || slot->bytes.size() != static_cast<size_t>(size) ||
      std::memcmp(slot->bytes.data(), npub, size) != 0) {
    slot = std::make_unique<Segment>();
    slot->bytes.assign(npub, npub + size);
    slot->stats.name = name;
    slot->order = s.nextOrder++;
  }
  return slot.get();
}

/// Runs one call; the failure's message, without the segment's name.
absl::Status runSegment(Segment &segment, const KilnNpuBuffer *inputs,
                        int64_t numInputs, const KilnNpuBuffer *outputs,
                        int64_t numOutputs) {
  if (!segment.simulator) {
    absl::StatusOr<Simulator> simulator = Simulator::load(segment.bytes);
    if (!simulator.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("cannot load its stream: ", simulator.status().message()));
    segment.simulator.emplace(std::move(*simulator));
  }
  Simulator &sim = *segment.simulator;
  std::vector<const IoDecl *> ins, outs;
  for (const IoDecl &io : sim.program().io)
    (io.isOutput ? outs : ins).push_back(&io);
  if (static_cast<int64_t>(ins.size()) != numInputs ||
      static_cast<int64_t>(outs.size()) != numOutputs)
    return absl::InvalidArgumentError(absl::StrCat(
        "the stream declares ", ins.size(), " inputs and ", outs.size(),
        " outputs; the call passes ", numInputs, " and ", numOutputs));
  for (int64_t i = 0; i < numInputs; ++i) {
    const IoDecl &io = *ins[i];
    if (static_cast<int64_t>(io.byteSize()) != inputs[i].bytes)
      return absl::InvalidArgumentError(
          absl::StrCat("input ", i, " '", io.name, "' has ", inputs[i].bytes,
                       " bytes; the stream declares ", io.byteSize()));
    absl::Status status = sim.setInput(
        io.name, absl::MakeConstSpan(static_cast<const uint8_t *>(inputs[i].data),
                                     inputs[i].bytes));
    if (!status.ok())
      return status;
  }
  for (int64_t i = 0; i < numOutputs; ++i)
    if (static_cast<int64_t>(outs[i]->byteSize()) != outputs[i].bytes)
      return absl::InvalidArgumentError(absl::StrCat(
          "output ", i, " '", outs[i]->name, "' has ", outputs[i].bytes,
          " bytes; the stream declares ", outs[i]->byteSize()));
  absl::StatusOr<RunResult> result = sim.run();
  if (!result.ok())
    return result.status();
  for (int64_t i = 0; i < numOutputs; ++i) {
    absl::StatusOr<std::vector<uint8_t>> bytes = sim.getOutput(outs[i]->name);
    if (!bytes.ok())
      return bytes.status();
    std::memcpy(outputs[i].data, bytes->data(), bytes->size());
  }
  SegmentStats &stats = segment.stats;
  ++stats.calls;
  stats.cycles = result->stats.totalCycles;
  stats.macUtilisation = result->stats.macUtilisation;
  stats.microseconds = result->stats.microseconds;
  return absl::OkStatus();
}

} // namespace

std::vector<SegmentStats> segmentStats() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  std::vector<const Segment *> ordered;
  for (const auto &[address, segment] : s.segments)
    ordered.push_back(segment.get());
  std::sort(ordered.begin(), ordered.end(),
            [](const Segment *a, const Segment *b) { return a->order < b->order; });
  std::vector<SegmentStats> stats;
  for (const Segment *segment : ordered)
    stats.push_back(segment->stats);
  return stats;
}

void resetSegments() {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.segments.clear();
  s.nextOrder = 0;
  s.error.reset();
  threadError.reset();
}

} // namespace kiln::npu

using namespace kiln::npu;

extern "C" int32_t kiln_npu_run(const char *segment, const uint8_t *npub,
                                int64_t npubBytes, const KilnNpuBuffer *inputs,
                                int64_t numInputs, const KilnNpuBuffer *outputs,
                                int64_t numOutputs) {
  const char *name = segment ? segment : "?";
  absl::Status status;
  if (!npub || npubBytes <= 0 || numInputs < 0 || numOutputs < 0 ||
      (numInputs && !inputs) || (numOutputs && !outputs)) {
    status = absl::InvalidArgumentError("malformed call (no stream bytes or "
                                        "buffers)");
  } else {
    Segment *entry = findSegment(name, npub, npubBytes);
    std::lock_guard<std::mutex> lock(entry->mutex);
    status = runSegment(*entry, inputs, numInputs, outputs, numOutputs);
  }
  if (status.ok())
    return 0;
  recordError(absl::StrCat("NPU segment '", name, "': ", status.message()));
  for (int64_t i = 0; outputs && i < numOutputs; ++i)
    if (outputs[i].data && outputs[i].bytes > 0)
      std::memset(outputs[i].data, 0xFF, outputs[i].bytes);
  return 1;
}

extern "C" const char *kiln_npu_error(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.error ? s.error->c_str() : nullptr;
}

extern "C" void kiln_npu_clear_error(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.error.reset();
}

extern "C" const char *kiln_npu_thread_error(void) {
  return threadError ? threadError->c_str() : nullptr;
}

extern "C" void kiln_npu_clear_thread_error(void) { threadError.reset(); }
