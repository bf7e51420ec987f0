//===- kiln-npu-sim.cpp - Run NPU-v1 command streams ------------*- C++ -*-===//
//
// Loads a .npub file, binds its inputs from files, runs it on the NPU-v1
// simulator, prints statistics, writes outputs and a Chrome trace. Also
// disassembles, verifies, and writes an example stream.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Disassembler.h"
#include "runtime/npu/Examples.h"
#include "runtime/npu/LayerReport.h"
#include "runtime/npu/Simulator.h"
#include "runtime/npu/TiledConv.h"
#include "tools/kiln-npu-sim/LayerTable.h"

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

ABSL_FLAG(std::vector<std::string>, input, {},
          "Input bindings NAME=FILE (raw bytes in the tensor's DRAM layout), "
          "comma separated (a repeated flag replaces the list). Unbound inputs "
          "are zero.");
ABSL_FLAG(std::vector<std::string>, output, {},
          "Output bindings NAME=FILE: write the tensor's bytes after the run.");
ABSL_FLAG(std::string, trace, "",
          "Write a Chrome trace-event JSON file (open it in ui.perfetto.dev "
          "or chrome://tracing).");
ABSL_FLAG(std::string, layer_report, "",
          "Print a per-layer table after the statistics: 'markdown' or "
          "'csv'. A layer is the commands of one DEBUG tag (one npu op, "
          "named after its TensorFlow node); its measured cycles run from "
          "its first command's start to its last command's end, beside the "
          "compiler's estimate and lower bound (COST section) and its "
          "useful-MAC utilisation.");
ABSL_FLAG(std::string, layer_report_file, "",
          "With --layer_report: write the table to this file instead.");
ABSL_FLAG(bool, race_check, true,
          "Check for unsynchronised accesses (vector clocks); races make the "
          "run fail.");
ABSL_FLAG(bool, stats, true, "Print the run statistics.");
ABSL_FLAG(bool, disassemble, false,
          "Print the disassembly of the stream and exit.");
ABSL_FLAG(bool, verify_only, false, "Load and verify, then exit.");
ABSL_FLAG(bool, semaphore_rule, true,
          "Enforce the static semaphore coverage rule when loading (turn off "
          "to watch a bad stream deadlock in the simulator).");
ABSL_FLAG(bool, timing_only, false,
          "Run the cycle model without executing commands.");
ABSL_FLAG(uint64_t, max_cycles, uint64_t(1) << 40,
          "Fail a run that has not ended by this cycle.");
ABSL_FLAG(std::string, example, "",
          "Write an example stream (a double-buffered int8 3x3 convolution, "
          "32x32x64 -> 32x32x64) to this file and exit.");
ABSL_FLAG(std::string, example_input, "",
          "With --example: also write the example's input 'x' to this file.");
ABSL_FLAG(std::string, config, "default",
          "With --example: the target configuration the stream is built for: "
          "'default', 'realistic' (DRAM 4 bytes/cycle, 500 cycles latency, "
          "ACT 256 KiB) or a JSON file of docs/npu-isa.md section 2.");
ABSL_FLAG(std::string, example_conv, "",
          "With --example: write a tiled int8 SAME convolution instead, "
          "KIND:HxWxCINxCOUT with KIND conv3x3, conv1x1 or dwconv3x3 (e.g. "
          "conv3x3:112x112x64x64), tiled into output-row bands with halos for "
          "--config.");
ABSL_FLAG(std::string, example_schedule, "double",
          "With --example_conv: 'double' (double-buffered, DMA overlaps MAC "
          "and VEC) or 'fenced' (a NOP after every command).");
ABSL_FLAG(bool, layer_table, false,
          "Build, run and check the six reference layers (hand-built tiled "
          "streams) fenced and double-buffered in the default and realistic "
          "configurations, print a Markdown table and exit.");

namespace {
using namespace kiln::npu;

bool readFile(const std::string &path, std::vector<uint8_t> &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  out.assign(std::istreambuf_iterator<char>(in),
             std::istreambuf_iterator<char>());
  return true;
}

bool writeFile(const std::string &path, const void *data, size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char *>(data), std::streamsize(size));
  return bool(out);
}

int fail(const std::string &message) {
  std::cerr << "kiln-npu-sim: error: " << message << "\n";
  return 1;
}

absl::StatusOr<TargetConfig> exampleConfig() {
  std::string name = absl::GetFlag(FLAGS_config);
  for (const std::string &preset : TargetConfig::presetNames())
    if (name == preset)
      return TargetConfig::preset(name);
  std::vector<uint8_t> text;
  if (!readFile(name, text))
    return absl::NotFoundError(absl::StrCat(
        "--config=", name, ": not a preset (",
        absl::StrJoin(TargetConfig::presetNames(), ", "),
        ") and not a readable file"));
  absl::StatusOr<TargetConfig> cfg = TargetConfig::fromJson(
      absl::string_view(reinterpret_cast<const char *>(text.data()),
                        text.size()));
  if (!cfg.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(name, ": ", cfg.status().message()));
  return cfg;
}

/// Parses KIND:HxWxCINxCOUT into \p o.
bool parseConvSpec(const std::string &spec, TiledConvOptions &o) {
  std::vector<std::string> parts = absl::StrSplit(spec, ':');
  if (parts.size() != 2 || !parseConvKind(parts[0], o.kind))
    return false;
  std::vector<std::string> dims = absl::StrSplit(parts[1], 'x');
  unsigned v[4];
  if (dims.size() != 4)
    return false;
  for (int i = 0; i < 4; ++i)
    if (!absl::SimpleAtoi(dims[i], &v[i]))
      return false;
  o.h = v[0];
  o.w = v[1];
  o.cin = v[2];
  o.cout = v[3];
  return true;
}

int writeExample() {
  absl::StatusOr<TargetConfig> cfg = exampleConfig();
  if (!cfg.ok())
    return fail(std::string(cfg.status().message()));
  Program program;
  std::vector<uint8_t> input;
  if (std::string spec = absl::GetFlag(FLAGS_example_conv); !spec.empty()) {
    TiledConvOptions o;
    if (!parseConvSpec(spec, o))
      return fail("--example_conv=" + spec +
                  ": expected KIND:HxWxCINxCOUT (KIND conv3x3, conv1x1, "
                  "dwconv3x3)");
    std::string schedule = absl::GetFlag(FLAGS_example_schedule);
    if (schedule != "double" && schedule != "fenced")
      return fail("--example_schedule=" + schedule +
                  ": expected 'double' or 'fenced'");
    o.schedule = schedule == "double" ? Schedule::DoubleBuffered
                                      : Schedule::Fenced;
    o.config = *cfg;
    absl::StatusOr<TiledConv> conv = buildTiledConv(o);
    if (!conv.ok())
      return fail(std::string(conv.status().message()));
    program = std::move(conv->program);
    input = std::move(conv->input);
  } else {
    ConvExampleOptions o;
    o.config = *cfg;
    ConvExample ex = buildConvExample(o);
    program = std::move(ex.program);
    input = std::move(ex.input);
  }
  std::vector<uint8_t> bytes = writeProgram(program);
  if (!writeFile(absl::GetFlag(FLAGS_example), bytes.data(), bytes.size()))
    return fail("cannot write " + absl::GetFlag(FLAGS_example));
  if (!absl::GetFlag(FLAGS_example_input).empty() &&
      !writeFile(absl::GetFlag(FLAGS_example_input), input.data(),
                 input.size()))
    return fail("cannot write " + absl::GetFlag(FLAGS_example_input));
  std::cout << "wrote " << absl::GetFlag(FLAGS_example) << " ("
            << program.commands.size() << " commands, " << bytes.size()
            << " bytes)\n";
  return 0;
}
} // namespace

int main(int argc, char **argv) {
  absl::SetProgramUsageMessage(
      "runs an NPU-v1 command stream (.npub) on the simulator.\n\n"
      "  kiln-npu-sim model.npub --input=x=x.bin --output=y=y.bin "
      "--trace=t.json\n"
      "  kiln-npu-sim model.npub --layer_report=markdown --trace=t.json\n"
      "  kiln-npu-sim model.npub --disassemble\n"
      "  kiln-npu-sim --example=conv.npub --example_input=x.bin\n"
      "  kiln-npu-sim --example=l.npub --example_conv=conv3x3:112x112x64x64 "
      "--config=realistic\n"
      "  kiln-npu-sim --layer_table\n\n"
      "Prints cycles, per-engine busy and stall figures, DRAM traffic and "
      "MAC utilisation (useful MACs, and padded MACs beside). Exit status: "
      "0 success, 1 load/verify/run error "
      "(deadlocks included), 2 races found.");
  std::vector<char *> positional = absl::ParseCommandLine(argc, argv);
  if (absl::GetFlag(FLAGS_layer_table)) {
    absl::StatusOr<std::string> table = layerTable(/*check=*/true);
    if (!table.ok())
      return fail(std::string(table.status().message()));
    std::cout << *table;
    return 0;
  }
  if (!absl::GetFlag(FLAGS_example).empty())
    return writeExample();
  if (positional.size() != 2)
    return fail("expected exactly one .npub file (see --help)");
  std::string path = positional[1];
  std::vector<uint8_t> bytes;
  if (!readFile(path, bytes))
    return fail("cannot read " + path);

  if (absl::GetFlag(FLAGS_disassemble)) {
    absl::StatusOr<Program> program = readProgram(bytes);
    if (!program.ok())
      return fail(absl::StrCat(path, ": ", program.status().message()));
    std::cout << disassembleProgram(*program);
    absl::Status verified = verifyProgram(*program);
    if (!verified.ok())
      std::cout << "# verifier: " << verified.message() << "\n";
    return verified.ok() ? 0 : 1;
  }

  const std::string reportFormat = absl::GetFlag(FLAGS_layer_report);
  if (!reportFormat.empty() && reportFormat != "markdown" &&
      reportFormat != "csv")
    return fail("--layer_report=" + reportFormat +
                ": expected 'markdown' or 'csv'");
  VerifyOptions verify;
  verify.semaphoreRule = absl::GetFlag(FLAGS_semaphore_rule);
  absl::StatusOr<Simulator> sim = Simulator::load(bytes, verify);
  if (!sim.ok())
    return fail(absl::StrCat(path, ": ", sim.status().message()));
  if (absl::GetFlag(FLAGS_verify_only)) {
    std::cout << path << ": OK (" << sim->program().commands.size()
              << " commands)\n";
    return 0;
  }
  for (const std::string &binding : absl::GetFlag(FLAGS_input)) {
    std::pair<std::string, std::string> kv =
        absl::StrSplit(binding, absl::MaxSplits('=', 1));
    std::vector<uint8_t> data;
    if (!readFile(kv.second, data))
      return fail("cannot read " + kv.second);
    if (absl::Status s = sim->setInput(kv.first, data); !s.ok())
      return fail(std::string(s.message()));
  }

  RunOptions options;
  options.raceCheck = absl::GetFlag(FLAGS_race_check);
  options.trace = !absl::GetFlag(FLAGS_trace).empty();
  options.functional = !absl::GetFlag(FLAGS_timing_only);
  options.maxCycles = absl::GetFlag(FLAGS_max_cycles);
  absl::StatusOr<RunResult> result = sim->run(options);
  if (!result.ok())
    return fail(std::string(result.status().message()));
  if (absl::GetFlag(FLAGS_stats))
    std::cout << result->stats.toString();
  if (!reportFormat.empty()) {
    absl::StatusOr<LayerReport> report =
        buildLayerReport(sim->program(), *result);
    if (!report.ok())
      return fail(std::string(report.status().message()));
    std::string table = reportFormat == "csv" ? layerReportCsv(*report)
                                              : layerReportMarkdown(*report);
    std::string file = absl::GetFlag(FLAGS_layer_report_file);
    if (file.empty())
      std::cout << (absl::GetFlag(FLAGS_stats) ? "\n" : "") << table;
    else if (!writeFile(file, table.data(), table.size()))
      return fail("cannot write " + file);
  }
  if (options.trace &&
      !writeFile(absl::GetFlag(FLAGS_trace), result->traceJson.data(),
                 result->traceJson.size()))
    return fail("cannot write " + absl::GetFlag(FLAGS_trace));
  for (const std::string &binding : absl::GetFlag(FLAGS_output)) {
    std::pair<std::string, std::string> kv =
        absl::StrSplit(binding, absl::MaxSplits('=', 1));
    absl::StatusOr<std::vector<uint8_t>> data = sim->getOutput(kv.first);
    if (!data.ok())
      return fail(std::string(data.status().message()));
    if (!writeFile(kv.second, data->data(), data->size()))
      return fail("cannot write " + kv.second);
  }
  for (const Race &race : result->races)
    std::cerr << "kiln-npu-sim: " << race.message << "\n";
  return result->races.empty() ? 0 : 2;
}
