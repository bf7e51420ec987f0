//===- Disassembler.h - NPU-v1 command stream text form ---------*- C++ -*-===//
//
// The disassembler prints one line per command, every field of its opcode as
// name=value; the assembler parses that text back, so the two round-trip.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_DISASSEMBLER_H
#define KILN_RUNTIME_NPU_DISASSEMBLER_H

#include "runtime/npu/Format.h"

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

#include <string>
#include <vector>

namespace kiln::npu {

/// One command as text: "MAC_CONV flags=0x1 wait0=- ... in.addr=0x100 ...".
std::string disassembleCommand(const Command &command);

/// A whole program: header comments (target, regions, IO) then
/// "    12: <command>  ; <debug op name and location>" lines.
std::string disassembleProgram(const Program &program);

/// Parses one command line (an optional "N:" index prefix and a trailing
/// "; comment" are ignored). Fields not given are zero (waits and signals:
/// none).
absl::StatusOr<Command> assembleCommand(absl::string_view line);

/// Parses every non-empty, non-comment line ('#' or ';' first).
absl::StatusOr<std::vector<Command>> assemble(absl::string_view text);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_DISASSEMBLER_H
