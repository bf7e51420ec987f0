//===- MacCount.cpp - Useful and padded MACs of NPU-v1 commands -*- C++ -*-===//
//
// Useful MACs need the command's operands: the liveness of each input
// channel over the input view and the zero pattern of the weights it reads.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/MacCount.h"

#include <vector>

namespace kiln::npu {

uint64_t commandPaddedMacs(const Command &c) {
  uint64_t pixels = uint64_t(c.out.w) * c.out.h;
  if (c.opcode == Opcode::MAC_CONV)
    return pixels * c.out.cb * 16 * c.in.cb * 16 * c.kh * c.kw;
  if (c.opcode == Opcode::MAC_DWCONV)
    return pixels * c.out.cb * 16 * c.kh * c.kw;
  return 0;
}

uint64_t depthwiseMacsPerCycle(const TargetConfig &cfg) {
  uint64_t rate = uint64_t(cfg.macRows) * cfg.macCols / 8;
  return rate ? rate : 1;
}

namespace {
/// Whether each of the 16*in.cb input channels of \p c is live.
std::vector<bool> liveChannels(const Command &c,
                               absl::Span<const uint8_t> lmem) {
  const bool fp16 = c.flags & flags::kFp16;
  const unsigned esize = fp16 ? 2 : 1;
  const unsigned channels = c.in.cb * 16u;
  std::vector<bool> live(channels, false);
  unsigned remaining = channels;
  for (unsigned cb = 0; cb < c.in.cb; ++cb)
    for (unsigned y = 0; y < c.in.h; ++y)
      for (unsigned x = 0; x < c.in.w; ++x) {
        uint64_t at = c.in.vectorAddr(y, x, cb);
        if (at + 16 * esize > lmem.size())
          return live; // Verified streams never get here.
        for (unsigned l = 0; l < 16; ++l) {
          unsigned ch = cb * 16 + l;
          if (live[ch])
            continue;
          bool isLive;
          if (fp16) {
            uint16_t bits =
                uint16_t(lmem[at + 2 * l] | lmem[at + 2 * l + 1] << 8);
            isLive = (bits & 0x7fff) != 0;
          } else {
            isLive = int(int8_t(lmem[at + l])) != c.inZp;
          }
          if (isLive) {
            live[ch] = true;
            if (--remaining == 0)
              return live;
          }
        }
      }
  return live;
}

bool nonzeroWeight(absl::Span<const uint8_t> lmem, uint64_t at, bool fp16) {
  if (fp16)
    return at + 1 < lmem.size() && ((lmem[at] | lmem[at + 1] << 8) & 0x7fff);
  return at < lmem.size() && lmem[at] != 0;
}
} // namespace

uint64_t commandUsefulMacs(const Command &c, absl::Span<const uint8_t> lmem) {
  if (c.opcode != Opcode::MAC_CONV && c.opcode != Opcode::MAC_DWCONV)
    return 0;
  const bool fp16 = c.flags & flags::kFp16;
  const uint64_t esize = fp16 ? 2 : 1;
  const uint64_t pixels = uint64_t(c.out.w) * c.out.h;
  const uint64_t taps = uint64_t(c.kh) * c.kw;
  std::vector<bool> live = liveChannels(c, lmem);
  uint64_t weights = 0;
  if (c.opcode == Opcode::MAC_DWCONV) {
    // [cb][kh][kw][16 lanes].
    for (unsigned cb = 0; cb < c.in.cb; ++cb)
      for (uint64_t t = 0; t < taps; ++t)
        for (unsigned l = 0; l < 16; ++l)
          weights += live[cb * 16 + l] &&
                     nonzeroWeight(lmem,
                                   c.waddr + ((cb * taps + t) * 16 + l) * esize,
                                   fp16);
    return pixels * weights;
  }
  // [cout-block][kh][kw][cin-block][16 ci][16 co].
  for (uint64_t cob = 0; cob < c.out.cb; ++cob)
    for (uint64_t t = 0; t < taps; ++t)
      for (uint64_t cib = 0; cib < c.in.cb; ++cib) {
        uint64_t block =
            c.waddr + ((cob * taps + t) * c.in.cb + cib) * 256 * esize;
        for (unsigned ci = 0; ci < 16; ++ci) {
          if (!live[cib * 16 + ci])
            continue;
          for (unsigned co = 0; co < 16; ++co)
            weights +=
                nonzeroWeight(lmem, block + (ci * 16 + co) * esize, fp16);
        }
      }
  return pixels * weights;
}

} // namespace kiln::npu
