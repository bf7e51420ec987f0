//===- NpubRepair.h - make a mutated .npub pass its checksums ---*- C++ -*-===//
//
// A mutation of a .npub almost always breaks its CRC-32, file size or
// target hash, and the reader stops there, so the fuzzer would spend its
// time on three comparisons that test/malformed/npub already covers. The
// .npub harnesses therefore rewrite those header fields to match the input
// before reading it, which takes the fuzzer into the section table, the
// sections, the command decoding, the verifier and the simulator.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FUZZ_NPUBREPAIR_H
#define KILN_FUZZ_NPUBREPAIR_H

#include "runtime/npu/Config.h"
#include "runtime/npu/Format.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kiln::fuzz {

/// `data` with the header's file size (offset 16), target hash (40, when
/// the section table and a TARGET section lie inside the input) and CRC-32
/// of the body (36) recomputed; shorter inputs than a header are returned
/// as they are.
inline std::vector<uint8_t> repairNpub(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  if (size < npu::kHeaderBytes)
    return bytes;
  auto get = [&](size_t at, int width) {
    uint64_t value = 0;
    for (int i = width - 1; i >= 0; --i)
      value = (value << 8) | bytes[at + i];
    return value;
  };
  auto put = [&](size_t at, int width, uint64_t value) {
    for (int i = 0; i < width; ++i)
      bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
  };
  put(16, 8, size);
  uint64_t table = get(24, 8), count = get(32, 4);
  if (table >= npu::kHeaderBytes && table <= size &&
      count <= (size - table) / npu::kSectionEntryBytes) {
    for (uint64_t i = 0; i < count; ++i) {
      size_t at = table + i * npu::kSectionEntryBytes;
      uint64_t offset = get(at + 8, 8), length = get(at + 16, 8);
      if (get(at, 4) == static_cast<uint32_t>(npu::SectionType::TARGET) &&
          offset <= size && length <= size - offset) {
        put(40, 8, npu::fnv1a64(bytes.data() + offset, length));
        break;
      }
    }
  }
  put(36, 4,
      npu::crc32Of(absl::MakeConstSpan(bytes).subspan(npu::kHeaderBytes)));
  return bytes;
}

} // namespace kiln::fuzz

#endif // KILN_FUZZ_NPUBREPAIR_H
