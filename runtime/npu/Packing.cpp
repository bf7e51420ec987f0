//===- Packing.cpp - Weight and parameter packing for NPU-v1 ----*- C++ -*-===//
//
// Block packing of weights and parameter records.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Packing.h"

#include <cstring>

namespace kiln::npu {

std::vector<uint8_t> packConvWeights(const std::vector<uint8_t> &hwio,
                                     unsigned kh, unsigned kw, unsigned cin,
                                     unsigned cout, unsigned esize) {
  unsigned cib = (cin + 15) / 16, cob = (cout + 15) / 16;
  std::vector<uint8_t> out(size_t(cob) * kh * kw * cib * 256 * esize, 0);
  for (unsigned ky = 0; ky < kh; ++ky)
    for (unsigned kx = 0; kx < kw; ++kx)
      for (unsigned ci = 0; ci < cin; ++ci)
        for (unsigned co = 0; co < cout; ++co) {
          size_t src = (((size_t(ky) * kw + kx) * cin + ci) * cout + co);
          size_t block =
              ((size_t(co / 16) * kh + ky) * kw + kx) * cib + ci / 16;
          size_t dst = block * 256 + (ci % 16) * 16 + co % 16;
          std::memcpy(&out[dst * esize], &hwio[src * esize], esize);
        }
  return out;
}

std::vector<uint8_t> packDepthwiseWeights(const std::vector<uint8_t> &hwc,
                                          unsigned kh, unsigned kw,
                                          unsigned channels, unsigned esize) {
  unsigned cb = (channels + 15) / 16;
  std::vector<uint8_t> out(size_t(cb) * kh * kw * 16 * esize, 0);
  for (unsigned ky = 0; ky < kh; ++ky)
    for (unsigned kx = 0; kx < kw; ++kx)
      for (unsigned c = 0; c < channels; ++c) {
        size_t src = (size_t(ky) * kw + kx) * channels + c;
        size_t dst = ((size_t(c / 16) * kh + ky) * kw + kx) * 16 + c % 16;
        std::memcpy(&out[dst * esize], &hwc[src * esize], esize);
      }
  return out;
}

std::vector<uint8_t> packChannelRecords(const std::vector<ChannelRecord> &recs,
                                        bool padTo16) {
  size_t n = padTo16 ? (recs.size() + 15) / 16 * 16 : recs.size();
  std::vector<uint8_t> out(n * 16, 0);
  for (size_t i = recs.size(); i < n; ++i) {
    int32_t pad[4] = {0, 0, 2, 0}; // A valid record that maps to zero.
    std::memcpy(&out[i * 16], pad, 16);
  }
  for (size_t i = 0; i < recs.size(); ++i) {
    int32_t rec[4] = {recs[i].bias, recs[i].multiplier, recs[i].shift, 0};
    std::memcpy(&out[i * 16], rec, 16);
  }
  return out;
}

std::vector<uint8_t> packEltwiseParams(const EltwiseParams &p) {
  int32_t words[16] = {p.in1Zp,   p.in2Zp,    p.outZp,   p.leftShift,
                       p.in1Mult, p.in1Shift, p.in2Mult, p.in2Shift,
                       p.outMult, p.outShift, p.min,     p.max,
                       p.scalar,  0,          0,         0};
  std::vector<uint8_t> out(64);
  std::memcpy(out.data(), words, 64);
  return out;
}

} // namespace kiln::npu
