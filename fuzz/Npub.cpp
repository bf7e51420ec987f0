//===- Npub.cpp - fuzz the .npub loader and verifier ----------------------===//
//
// Input: a .npub file. It is read (header, CRC, sections, command decoding),
// verified as kiln-npu-sim and the NPU runtime verify it before running, and
// a program that reads is disassembled.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Disassembler.h"
#include "runtime/npu/Format.h"
#include "runtime/npu/Verifier.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  absl::StatusOr<kiln::npu::Program> program =
      kiln::npu::readProgram(absl::MakeConstSpan(data, size));
  if (!program.ok())
    return 0;
  absl::Status verified = kiln::npu::verifyProgram(*program);
  (void)verified;
  std::string text = kiln::npu::disassembleProgram(*program);
  (void)text;
  return 0;
}
