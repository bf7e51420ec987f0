//===- Trace.cpp - Chrome trace-event JSON of a simulator run ---*- C++ -*-===//
//
// Trace writing with nlohmann::json.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Trace.h"

#include "runtime/npu/LayerReport.h"
#include "runtime/npu/Simulator.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace kiln::npu {

namespace {
nlohmann::ordered_json events(const Program &program,
                              const std::vector<CommandTiming> &timings,
                              size_t count, const TraceOptions &options) {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  auto thread = [&](int tid, const std::string &name) {
    nlohmann::ordered_json meta;
    meta["name"] = "thread_name";
    meta["ph"] = "M";
    meta["pid"] = options.pid;
    meta["tid"] = tid;
    meta["args"]["name"] = name;
    events.push_back(meta);
  };
  for (int e = 0; e < kNumEngines; ++e)
    thread(e, engineName(static_cast<Engine>(e)));
  thread(kLayerTrack, "layers");
  nlohmann::ordered_json proc;
  proc["name"] = "process_name";
  proc["ph"] = "M";
  proc["pid"] = options.pid;
  proc["args"]["name"] = options.processName;
  events.push_back(proc);
  const double usPerCycle = 1.0 / program.config.clockMHz;
  // Per tag: the first start and last end of its engine commands, in the
  // order of first appearance.
  std::map<uint16_t, std::pair<uint64_t, uint64_t>> spans;
  std::vector<uint16_t> order;
  for (size_t i = 0; i < count && i < timings.size(); ++i) {
    const Command &c = program.commands[i];
    const CommandTiming &t = timings[i];
    const std::string layer = layerName(program, c.tag);
    nlohmann::ordered_json ev;
    ev["name"] = c.engine() == Engine::CTRL ? opcodeName(c.opcode) : layer;
    ev["cat"] = engineName(c.engine());
    ev["ph"] = c.engine() == Engine::CTRL ? "i" : "X";
    ev["ts"] = options.startMicros + t.start * usPerCycle;
    if (c.engine() != Engine::CTRL)
      ev["dur"] = (t.end - t.start) * usPerCycle;
    else
      ev["s"] = "t";
    ev["pid"] = options.pid;
    ev["tid"] = static_cast<int>(c.engine());
    nlohmann::ordered_json args;
    args["index"] = i;
    args["command"] = opcodeName(c.opcode);
    args["tag"] = c.tag;
    args["dispatch_cycle"] = t.dispatch;
    args["start_cycle"] = t.start;
    args["end_cycle"] = t.end;
    if (const DebugEntry *d = program.findDebug(c.tag); d && c.tag) {
      args["op"] = d->opName;
      args["loc"] = d->location;
    }
    ev["args"] = args;
    events.push_back(ev);
    if (c.engine() == Engine::CTRL)
      continue;
    auto [it, fresh] = spans.try_emplace(c.tag, t.start, t.end);
    if (fresh)
      order.push_back(c.tag);
    it->second.first = std::min(it->second.first, t.start);
    it->second.second = std::max(it->second.second, t.end);
  }
  for (uint16_t tag : order) {
    auto [start, end] = spans[tag];
    nlohmann::ordered_json ev;
    ev["name"] = layerName(program, tag);
    ev["cat"] = "layer";
    ev["ph"] = "X";
    ev["ts"] = options.startMicros + start * usPerCycle;
    ev["dur"] = (end - start) * usPerCycle;
    ev["pid"] = options.pid;
    ev["tid"] = kLayerTrack;
    nlohmann::ordered_json args;
    args["tag"] = tag;
    if (const DebugEntry *d = program.findDebug(tag); d && tag)
      args["op"] = d->opName;
    args["cycles"] = end - start;
    if (const LayerCost *cost = program.findCost(tag)) {
      args["estimate"] = cost->estimate;
      args["lower_bound"] = cost->lowerBound();
    }
    ev["args"] = args;
    events.push_back(ev);
  }
  return events;
}
} // namespace

std::string chromeTraceEvents(const Program &program,
                              const std::vector<CommandTiming> &timings,
                              size_t count, const TraceOptions &options) {
  return events(program, timings, count, options).dump(1);
}

std::string chromeTraceJson(const Program &program,
                            const std::vector<CommandTiming> &timings,
                            size_t count) {
  nlohmann::ordered_json root;
  root["traceEvents"] = events(program, timings, count, TraceOptions());
  root["displayTimeUnit"] = "ns";
  return root.dump(1) + "\n";
}

} // namespace kiln::npu
