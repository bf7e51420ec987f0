//===- Trace.cpp - Chrome trace-event JSON of a simulator run ---*- C++ -*-===//
//
// Trace writing with nlohmann::json.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Trace.h"

#include "runtime/npu/Simulator.h"

#include <nlohmann/json.hpp>

namespace kiln::npu {

std::string chromeTraceJson(const Program &program,
                            const std::vector<CommandTiming> &timings,
                            size_t count) {
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (int e = 0; e < kNumEngines; ++e) {
    nlohmann::ordered_json meta;
    meta["name"] = "thread_name";
    meta["ph"] = "M";
    meta["pid"] = 1;
    meta["tid"] = e;
    meta["args"]["name"] = engineName(static_cast<Engine>(e));
    events.push_back(meta);
  }
  nlohmann::ordered_json proc;
  proc["name"] = "process_name";
  proc["ph"] = "M";
  proc["pid"] = 1;
  proc["args"]["name"] = "NPU-v1";
  events.push_back(proc);
  double usPerCycle = 1.0 / program.config.clockMHz;
  for (size_t i = 0; i < count && i < timings.size(); ++i) {
    const Command &c = program.commands[i];
    const CommandTiming &t = timings[i];
    nlohmann::ordered_json ev;
    ev["name"] = opcodeName(c.opcode);
    ev["cat"] = engineName(c.engine());
    ev["ph"] = c.engine() == Engine::CTRL ? "i" : "X";
    ev["ts"] = t.start * usPerCycle;
    if (c.engine() != Engine::CTRL)
      ev["dur"] = (t.end - t.start) * usPerCycle;
    else
      ev["s"] = "t";
    ev["pid"] = 1;
    ev["tid"] = static_cast<int>(c.engine());
    nlohmann::ordered_json args;
    args["index"] = i;
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
  }
  nlohmann::ordered_json root;
  root["traceEvents"] = events;
  root["displayTimeUnit"] = "ns";
  return root.dump(1) + "\n";
}

} // namespace kiln::npu
