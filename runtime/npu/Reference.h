//===- Reference.h - Independent tensor-level reference ---------*- C++ -*-===//
//
// A tensor-level reference of the NPU-v1 arithmetic on dense NHWC tensors,
// written separately from the simulator's per-command kernels (it shares no
// code with Kernels.cpp or Arith.cpp: its own fp16 conversion, rescaling and
// rounding), so the tests can check the simulator bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_NPU_REFERENCE_H
#define KILN_RUNTIME_NPU_REFERENCE_H

#include <cstdint>
#include <vector>

namespace kiln::npu::ref {

/// fp16 bits -> float, computed with ldexp.
float halfToFloat(uint16_t h);
/// float -> fp16 bits, round to nearest even via frexp and nearbyint; NaN ->
/// 0x7e00.
uint16_t floatToHalf(float f);

/// TOSA apply_scale_32 (with int32 saturation of the result).
int32_t applyScale32(int32_t value, int32_t multiplier, int32_t shift,
                     bool doubleRound);
/// TFLite MultiplyByQuantizedMultiplier.
int32_t multiplyByQuantizedMultiplier(int32_t x, int32_t multiplier,
                                      int32_t shift);

/// A 2-D window: kernel, stride, dilation, padding (top, bottom, left,
/// right).
struct Window {
  int kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1;
  int pt = 0, pb = 0, pl = 0, pr = 0;
  /// Output height/width for an input of \p h x \p w.
  int outH(int h) const { return (h + pt + pb - dy * (kh - 1) - 1) / sy + 1; }
  int outW(int w) const { return (w + pl + pr - dx * (kw - 1) - 1) / sx + 1; }
  /// True if the dilated window fits in the padded \p h x \p w input.
  bool fits(int h, int w) const {
    return h + pt + pb - dy * (kh - 1) >= 1 && w + pl + pr - dx * (kw - 1) >= 1;
  }
};

/// int8 convolution: in [h][w][cin], weights HWIO [kh][kw][cin][cout];
/// int32 [oh][ow][cout] of sum (x - inZp) * w, wrapping.
std::vector<int32_t> convInt8(const std::vector<int8_t> &in, int h, int w,
                              int cin, const std::vector<int8_t> &weights,
                              int cout, const Window &win, int inZp);
/// fp16 convolution: products in fp32, sequential fp32 sum over (ky, kx,
/// cin), padded taps contribute 0 * w; \p init is the starting accumulator
/// per output (empty: +0).
std::vector<float> convF16(const std::vector<uint16_t> &in, int h, int w,
                           int cin, const std::vector<uint16_t> &weights,
                           int cout, const Window &win,
                           const std::vector<float> &init = {});
/// int8 depthwise convolution, weights [kh][kw][c].
std::vector<int32_t> depthwiseInt8(const std::vector<int8_t> &in, int h, int w,
                                   int c, const std::vector<int8_t> &weights,
                                   const Window &win, int inZp);
/// fp16 depthwise convolution.
std::vector<float> depthwiseF16(const std::vector<uint16_t> &in, int h, int w,
                                int c, const std::vector<uint16_t> &weights,
                                const Window &win);
/// int8 matrix product: a [m][k], b [k][n]; int32 [m][n] of sum (a - aZp) * b.
std::vector<int32_t> matmulInt8(const std::vector<int8_t> &a,
                                const std::vector<int8_t> &b, int m, int k,
                                int n, int aZp);

/// Requantisation of int32 [..][c]: clamp(apply_scale_32(acc + bias[c],
/// mult[c], shift[c]) + outZp, lo, hi), then lut[v + 128] if \p lut is set.
std::vector<int8_t> requant(const std::vector<int32_t> &acc, int c,
                            const std::vector<int32_t> &bias,
                            const std::vector<int32_t> &mult,
                            const std::vector<int32_t> &shift, bool doubleRound,
                            int outZp, int lo, int hi,
                            const std::vector<int8_t> *lut = nullptr);

/// Quantised eltwise parameters (TFLite's integer add/sub/mul structure).
struct EltParams {
  int in1Zp = 0, in2Zp = 0, outZp = 0, leftShift = 0;
  int32_t in1Mult = 0, in1Shift = 0, in2Mult = 0, in2Shift = 0;
  int32_t outMult = 0, outShift = 0, lo = -128, hi = 127;
};
/// Reference operation codes (ADD, SUB, MUL, MIN, MAX).
enum class Elt { Add, Sub, Mul, Min, Max };
/// Element-wise on equally sized int8 arrays.
std::vector<int8_t> eltwiseInt8(const std::vector<int8_t> &a,
                                const std::vector<int8_t> &b, Elt op,
                                const EltParams &p);
/// Element-wise on fp16 arrays (fp32 op, rounded to fp16).
std::vector<uint16_t> eltwiseF16(const std::vector<uint16_t> &a,
                                 const std::vector<uint16_t> &b, Elt op);

/// Pooling operations.
enum class Pool { Max, Avg, Sum };
/// int8 pooling over valid positions: MAX/AVG clamp to [lo, hi] (AVG rounds
/// half away from zero); SUM is the raw int32 sum.
std::vector<int32_t> poolInt8(const std::vector<int8_t> &in, int h, int w,
                              int c, const Window &win, Pool op, int lo,
                              int hi);
/// fp16 pooling: MAX and AVG as fp16 bits widened to float (fp16 values),
/// SUM as an fp32 value.
std::vector<float> poolF16(const std::vector<uint16_t> &in, int h, int w, int c,
                           const Window &win, Pool op);

/// int8 rescale: clamp(apply_scale_32(x - inZp) + outZp, lo, hi).
std::vector<int8_t> rescaleInt8(const std::vector<int32_t> &in, int inZp,
                                int32_t mult, int32_t shift, bool doubleRound,
                                int outZp, int lo, int hi);

/// Table lookup of stored int8 values: table[v + 128] (256 entries).
std::vector<int8_t> lookupInt8(const std::vector<int8_t> &in,
                               const std::vector<int8_t> &table);
/// Integer clamp of i8 or i32 values to [lo, hi].
std::vector<int32_t> clampInt(const std::vector<int32_t> &in, int32_t lo,
                              int32_t hi);
/// fp16 clamp with fp16-bit bounds: in fp32, x < lo gives lo and x > hi
/// gives hi (a NaN passes), then rounded to fp16.
std::vector<uint16_t> clampF16(const std::vector<uint16_t> &in, uint16_t lo,
                               uint16_t hi);

/// Nearest-neighbour up-sampling of [h][w][c] elements of \p esize bytes by
/// the integer factors \p sy and \p sx: out[y][x] = in[y / sy][x / sx].
std::vector<uint8_t> resizeNearest(const std::vector<uint8_t> &in, int h,
                                   int w, int c, int esize, int sy, int sx);
/// The int32 sums of 2x bilinear up-sampling with half-pixel centres of
/// int8 [h][w][c]: output (2i + a, 2j + b) is the sum over the 2x2 taps
/// (ky, kx) of wy[ky] * wx[kx] * (x - inZp), rows i - 1 + a + ky and
/// columns j - 1 + b + kx clamped to the image, wy = {1, 3} for a = 0 and
/// {3, 1} for a = 1 (the same for columns): 16 times the interpolated value.
std::vector<int32_t> resizeBilinear2xInt8(const std::vector<int8_t> &in,
                                          int h, int w, int c, int inZp);
/// The fp32 values of 2x bilinear up-sampling with half-pixel centres of
/// fp16 [h][w][c]: the same taps in the same order, each product
/// x * (wy * wx / 16) and each sum a separate fp32 operation from +0.0
/// (round them to fp16 for the op's result).
std::vector<float> resizeBilinear2xF16(const std::vector<uint16_t> &in, int h,
                                       int w, int c);

/// Element types of convert().
enum class DataType { I8, I32, F16, F32 };
/// Bytes of one element of \p type.
unsigned dataTypeSize(DataType type);
/// Element-wise conversion of little-endian \p in from \p from to \p to:
/// int -> int saturates; int -> float goes through fp32 (rounding to
/// nearest even), then fp16; float -> int rounds to nearest even and
/// saturates, NaN -> 0; fp16 <-> fp32 through this file's fp16 conversion.
std::vector<uint8_t> convert(const std::vector<uint8_t> &in, DataType from,
                             DataType to);

} // namespace kiln::npu::ref

#endif // KILN_RUNTIME_NPU_REFERENCE_H
