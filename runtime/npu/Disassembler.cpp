//===- Disassembler.cpp - NPU-v1 command stream text form -------*- C++ -*-===//
//
// Table-driven disassembler and assembler.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Disassembler.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

#include <cerrno>
#include <cstdlib>

namespace kiln::npu {

namespace {
bool isSemaphoreField(absl::string_view name) {
  return absl::StartsWith(name, "wait") || absl::StartsWith(name, "signal");
}
bool isHexField(absl::string_view name) {
  return absl::EndsWith(name, "addr") || name == "src" || name == "dst" ||
         name == "flags" || name == "pattern";
}
const char *regionKindName(RegionKind kind) {
  switch (kind) {
  case RegionKind::CONST:
    return "const";
  case RegionKind::SCRATCH:
    return "scratch";
  case RegionKind::INPUT:
    return "input";
  case RegionKind::OUTPUT:
    return "output";
  case RegionKind::INOUT:
    return "inout";
  }
  return "?";
}
} // namespace

std::string disassembleCommand(const Command &command) {
  std::string out = opcodeName(command.opcode);
  for (const FieldInfo &field : fieldsOf(command.opcode)) {
    int64_t v = field.get(command);
    if (isSemaphoreField(field.name)) {
      if (v == kNoSemaphore)
        continue; // Absent waits and signals are left out.
      absl::StrAppend(&out, " ", field.name, "=", v);
    } else if (absl::EndsWith(field.name, ".dtype") && v < kNumDTypes) {
      absl::StrAppend(&out, " ", field.name, "=", dtypeName(DType(v)));
    } else if (isHexField(field.name)) {
      absl::StrAppend(&out, " ", field.name, "=", absl::StrFormat("0x%x", v));
    } else {
      absl::StrAppend(&out, " ", field.name, "=", v);
    }
  }
  return out;
}

std::string disassembleProgram(const Program &program) {
  std::string out = "# NPU-v1 command stream\n";
  absl::StrAppend(&out, "# target: mac ", program.config.macRows, "x",
                  program.config.macCols, ", LMEM ",
                  program.config.lmemSize() / 1024, " KiB, ",
                  program.config.semaphores, " semaphores\n");
  for (const RegionDecl &r : program.regions)
    absl::StrAppend(&out, "# region r", r.region, " ", regionKindName(r.kind),
                    " ", r.size, " bytes\n");
  for (const IoDecl &io : program.io) {
    absl::StrAppend(&out, "# ", io.isOutput ? "output" : "input", " '", io.name,
                    "' r", io.region, "+", io.offset, " ",
                    dtypeName(DType(io.dtype)), "[");
    for (size_t i = 0; i < io.shape.size(); ++i)
      absl::StrAppend(&out, i ? "x" : "", io.shape[i]);
    absl::StrAppend(&out, "] scale=", io.scale, " zp=", io.zeroPoint, "\n");
  }
  for (size_t i = 0; i < program.commands.size(); ++i) {
    const Command &c = program.commands[i];
    absl::StrAppend(&out, absl::StrFormat("%6d: ", i), disassembleCommand(c));
    if (const DebugEntry *d = program.findDebug(c.tag); d && c.tag)
      absl::StrAppend(&out, "  ; ", d->opName,
                      d->location.empty() ? "" : " at ", d->location);
    out += "\n";
  }
  return out;
}

absl::StatusOr<Command> assembleCommand(absl::string_view line) {
  if (size_t semi = line.find(';'); semi != absl::string_view::npos)
    line = line.substr(0, semi);
  std::vector<absl::string_view> words =
      absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  if (!words.empty() && absl::EndsWith(words[0], ":"))
    words.erase(words.begin());
  if (words.empty())
    return absl::InvalidArgumentError("empty command line");
  Command command;
  bool found = false;
  for (Opcode op : allOpcodes())
    if (words[0] == opcodeName(op)) {
      command.opcode = op;
      found = true;
    }
  if (!found)
    return absl::InvalidArgumentError(
        absl::StrCat("unknown mnemonic '", words[0], "'"));
  absl::Span<const FieldInfo> fields = fieldsOf(command.opcode);
  for (size_t i = 1; i < words.size(); ++i) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(words[i], absl::MaxSplits('=', 1));
    const FieldInfo *field = nullptr;
    for (const FieldInfo &f : fields)
      if (kv.first == f.name)
        field = &f;
    if (!field)
      return absl::InvalidArgumentError(absl::StrCat(
          opcodeName(command.opcode), " has no field '", kv.first, "'"));
    int64_t value = 0;
    bool ok = false;
    if (absl::EndsWith(field->name, ".dtype")) {
      for (int d = 0; d < kNumDTypes; ++d)
        if (kv.second == dtypeName(DType(d))) {
          value = d;
          ok = true;
        }
    }
    if (!ok && kv.second == "-" && isSemaphoreField(field->name)) {
      value = kNoSemaphore;
      ok = true;
    }
    if (!ok) {
      std::string text(kv.second);
      char *end = nullptr;
      errno = 0;
      value = std::strtoll(text.c_str(), &end, 0);
      ok = !text.empty() && end && *end == 0 && errno == 0;
    }
    int64_t lo = field->isSigned ? -(int64_t(1) << (8 * field->size - 1)) : 0;
    int64_t hi = field->isSigned ? (int64_t(1) << (8 * field->size - 1)) - 1
                                 : (int64_t(1) << (8 * field->size)) - 1;
    if (!ok || value < lo || value > hi)
      return absl::InvalidArgumentError(absl::StrCat(
          "field '", field->name, "': bad value '", kv.second, "'"));
    field->set(command, value);
  }
  return command;
}

absl::StatusOr<std::vector<Command>> assemble(absl::string_view text) {
  std::vector<Command> commands;
  int lineNo = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++lineNo;
    absl::string_view stripped = absl::StripAsciiWhitespace(line);
    if (stripped.empty() || stripped[0] == '#' || stripped[0] == ';')
      continue;
    absl::StatusOr<Command> command = assembleCommand(stripped);
    if (!command.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("line ", lineNo, ": ", command.status().message()));
    commands.push_back(*command);
  }
  return commands;
}

} // namespace kiln::npu
