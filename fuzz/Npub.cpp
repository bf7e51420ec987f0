//===- Npub.cpp - fuzz the .npub loader and verifier ----------------------===//
//
// Input: a .npub file, its file size, CRC and target hash made to match
// (NpubRepair.h). It is read (header, sections, command decoding),
// verified as kiln-npu-sim and the NPU runtime verify it before running, and
// a program that reads is disassembled.
//
//===----------------------------------------------------------------------===//

#include "fuzz/NpubRepair.h"
#include "runtime/npu/Disassembler.h"
#include "runtime/npu/Format.h"
#include "runtime/npu/Verifier.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes = kiln::fuzz::repairNpub(data, size);
  absl::StatusOr<kiln::npu::Program> program =
      kiln::npu::readProgram(absl::MakeConstSpan(bytes));
  if (!program.ok())
    return 0;
  absl::Status verified = kiln::npu::verifyProgram(*program);
  (void)verified;
  std::string text = kiln::npu::disassembleProgram(*program);
  (void)text;
  return 0;
}
