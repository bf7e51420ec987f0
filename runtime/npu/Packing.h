//===- Packing.h - Weight and parameter packing for NPU-v1 ------*- C++ -*-===//
//
// The layouts the compiler packs constants into (docs/npu-isa.md, "Weights"
// and "Parameters"): 16x16 weight blocks, depthwise weight vectors,
// per-channel records, eltwise parameter blocks. Shared by the compiler's
// serializer, the tests and the tools.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_PACKING_H
#define KILN_RUNTIME_NPU_PACKING_H

#include <cstdint>
#include <vector>

namespace kiln::npu {

/// Packs HWIO weights ([kh][kw][cin][cout], \p esize bytes per element) into
/// blocks [cout/16][kh][kw][cin/16][16 ci][16 co], zero padded.
std::vector<uint8_t> packConvWeights(const std::vector<uint8_t> &hwio,
                                     unsigned kh, unsigned kw, unsigned cin,
                                     unsigned cout, unsigned esize);

/// Packs depthwise weights ([kh][kw][c]) into [c/16][kh][kw][16].
std::vector<uint8_t> packDepthwiseWeights(const std::vector<uint8_t> &hwc,
                                          unsigned kh, unsigned kw,
                                          unsigned channels, unsigned esize);

/// One per-channel requantisation record.
struct ChannelRecord {
  int32_t bias = 0, multiplier = 0, shift = 0;
};
/// Packs records as {s32 bias, s32 multiplier, s32 shift, s32 0}, padded
/// with {0, 0, 2, 0} records to a whole number of 16 channels when
/// \p padTo16.
std::vector<uint8_t> packChannelRecords(const std::vector<ChannelRecord> &recs,
                                        bool padTo16 = true);

/// The VEC_ELTWISE parameter block (16 x s32, 64 bytes).
struct EltwiseParams {
  int32_t in1Zp = 0, in2Zp = 0, outZp = 0, leftShift = 0;
  int32_t in1Mult = 0, in1Shift = 0, in2Mult = 0, in2Shift = 0;
  int32_t outMult = 0, outShift = 0, min = -128, max = 127;
  int32_t scalar = 0; ///< SCALAR broadcast: int8 value or fp16 bits.
};
/// The 64 bytes of \p params.
std::vector<uint8_t> packEltwiseParams(const EltwiseParams &params);

} // namespace kiln::npu

#endif // KILN_RUNTIME_NPU_PACKING_H
