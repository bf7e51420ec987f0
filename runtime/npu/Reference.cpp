//===- Reference.cpp - Independent tensor-level reference -------*- C++ -*-===//
//
// Straightforward loops over dense tensors. Deliberately shares no helpers
// with the kernels: fp16 conversion uses ldexp/frexp, rescaling uses 128-bit
// products, rounding division uses magnitudes.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Reference.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

namespace kiln::npu::ref {

float halfToFloat(uint16_t h) {
  int sign = (h >> 15) ? -1 : 1;
  int exp = (h >> 10) & 31;
  int mant = h & 1023;
  if (exp == 31) {
    if (mant == 0)
      return sign * std::numeric_limits<float>::infinity();
    return std::numeric_limits<float>::quiet_NaN();
  }
  double mag = exp == 0 ? std::ldexp(double(mant), -24)
                        : std::ldexp(double(1024 + mant), exp - 25);
  return static_cast<float>(sign * mag);
}

uint16_t floatToHalf(float f) {
  if (std::isnan(f))
    return 0x7e00;
  uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  double a = std::fabs(double(f));
  if (std::isinf(a))
    return sign | 0x7c00;
  if (a < std::ldexp(1.0, -14)) {
    // Denormal range: units of 2^-24, ties to even (nearbyint's default).
    double q = std::nearbyint(std::ldexp(a, 24));
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(q));
  }
  int e;
  double m = std::frexp(a, &e);                 // a = m * 2^e, m in [0.5, 1).
  double q = std::nearbyint(std::ldexp(m, 11)); // 1024..2048.
  if (q == 2048) {
    q = 1024;
    ++e;
  }
  int biased = e - 1 + 15;
  if (biased >= 31)
    return sign | 0x7c00;
  return static_cast<uint16_t>(sign | (biased << 10) | (int(q) - 1024));
}

int32_t applyScale32(int32_t value, int32_t multiplier, int32_t shift,
                     bool doubleRound) {
  __int128 product = static_cast<__int128>(value) * multiplier;
  __int128 round = static_cast<__int128>(1) << (shift - 1);
  if (doubleRound && shift > 31)
    round += value >= 0 ? (__int128(1) << 30) : -(__int128(1) << 30);
  __int128 r = (product + round) >> shift;
  if (r > std::numeric_limits<int32_t>::max())
    return std::numeric_limits<int32_t>::max();
  if (r < std::numeric_limits<int32_t>::min())
    return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(r);
}

int32_t multiplyByQuantizedMultiplier(int32_t x, int32_t multiplier,
                                      int32_t shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  int32_t a = static_cast<int32_t>(static_cast<uint32_t>(x) << left);
  int64_t high;
  if (a == std::numeric_limits<int32_t>::min() && a == multiplier) {
    high = std::numeric_limits<int32_t>::max();
  } else {
    int64_t ab = int64_t(a) * multiplier;
    int64_t nudge = ab >= 0 ? (int64_t(1) << 30) : 1 - (int64_t(1) << 30);
    high = (ab + nudge) / (int64_t(1) << 31);
  }
  if (right == 0)
    return static_cast<int32_t>(high);
  int64_t d = int64_t(1) << right;
  int64_t mag = (std::llabs(high) + d / 2) / d;
  return static_cast<int32_t>(high < 0 ? -mag : mag);
}

namespace {
int tap(int o, int k, int stride, int dil, int pad, int size) {
  int i = o * stride - pad + k * dil;
  return (i < 0 || i >= size) ? -1 : i;
}
int32_t wrap(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(v & 0xffffffffll));
}
} // namespace

std::vector<int32_t> convInt8(const std::vector<int8_t> &in, int h, int w,
                              int cin, const std::vector<int8_t> &weights,
                              int cout, const Window &win, int inZp) {
  int oh = win.outH(h), ow = win.outW(w);
  std::vector<int32_t> out(size_t(oh) * ow * cout);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox)
      for (int co = 0; co < cout; ++co) {
        int64_t sum = 0;
        for (int ky = 0; ky < win.kh; ++ky)
          for (int kx = 0; kx < win.kw; ++kx) {
            int iy = tap(oy, ky, win.sy, win.dy, win.pt, h);
            int ix = tap(ox, kx, win.sx, win.dx, win.pl, w);
            if (iy < 0 || ix < 0)
              continue; // Reads the zero point: contributes nothing.
            for (int ci = 0; ci < cin; ++ci)
              sum +=
                  int64_t(in[(size_t(iy) * w + ix) * cin + ci] - inZp) *
                  weights[((size_t(ky) * win.kw + kx) * cin + ci) * cout + co];
          }
        out[(size_t(oy) * ow + ox) * cout + co] = wrap(sum);
      }
  return out;
}

std::vector<float> convF16(const std::vector<uint16_t> &in, int h, int w,
                           int cin, const std::vector<uint16_t> &weights,
                           int cout, const Window &win,
                           const std::vector<float> &init) {
  int oh = win.outH(h), ow = win.outW(w);
  std::vector<float> out(size_t(oh) * ow * cout);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox)
      for (int co = 0; co < cout; ++co) {
        size_t o = (size_t(oy) * ow + ox) * cout + co;
        volatile float acc = init.empty() ? 0.0f : init[o];
        for (int ky = 0; ky < win.kh; ++ky)
          for (int kx = 0; kx < win.kw; ++kx) {
            int iy = tap(oy, ky, win.sy, win.dy, win.pt, h);
            int ix = tap(ox, kx, win.sx, win.dx, win.pl, w);
            for (int ci = 0; ci < cin; ++ci) {
              float x = (iy < 0 || ix < 0)
                            ? 0.0f
                            : halfToFloat(in[(size_t(iy) * w + ix) * cin + ci]);
              float wv = halfToFloat(
                  weights[((size_t(ky) * win.kw + kx) * cin + ci) * cout + co]);
              volatile float product = x * wv;
              acc = acc + product;
            }
          }
        out[o] = acc;
      }
  return out;
}

std::vector<int32_t> depthwiseInt8(const std::vector<int8_t> &in, int h, int w,
                                   int c, const std::vector<int8_t> &weights,
                                   const Window &win, int inZp) {
  int oh = win.outH(h), ow = win.outW(w);
  std::vector<int32_t> out(size_t(oh) * ow * c);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox)
      for (int ch = 0; ch < c; ++ch) {
        int64_t sum = 0;
        for (int ky = 0; ky < win.kh; ++ky)
          for (int kx = 0; kx < win.kw; ++kx) {
            int iy = tap(oy, ky, win.sy, win.dy, win.pt, h);
            int ix = tap(ox, kx, win.sx, win.dx, win.pl, w);
            if (iy >= 0 && ix >= 0)
              sum += int64_t(in[(size_t(iy) * w + ix) * c + ch] - inZp) *
                     weights[(size_t(ky) * win.kw + kx) * c + ch];
          }
        out[(size_t(oy) * ow + ox) * c + ch] = wrap(sum);
      }
  return out;
}

std::vector<float> depthwiseF16(const std::vector<uint16_t> &in, int h, int w,
                                int c, const std::vector<uint16_t> &weights,
                                const Window &win) {
  int oh = win.outH(h), ow = win.outW(w);
  std::vector<float> out(size_t(oh) * ow * c);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox)
      for (int ch = 0; ch < c; ++ch) {
        volatile float acc = 0.0f;
        for (int ky = 0; ky < win.kh; ++ky)
          for (int kx = 0; kx < win.kw; ++kx) {
            int iy = tap(oy, ky, win.sy, win.dy, win.pt, h);
            int ix = tap(ox, kx, win.sx, win.dx, win.pl, w);
            float x = (iy < 0 || ix < 0)
                          ? 0.0f
                          : halfToFloat(in[(size_t(iy) * w + ix) * c + ch]);
            volatile float product =
                x * halfToFloat(weights[(size_t(ky) * win.kw + kx) * c + ch]);
            acc = acc + product;
          }
        out[(size_t(oy) * ow + ox) * c + ch] = acc;
      }
  return out;
}

std::vector<int32_t> matmulInt8(const std::vector<int8_t> &a,
                                const std::vector<int8_t> &b, int m, int k,
                                int n, int aZp) {
  std::vector<int32_t> out(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      int64_t sum = 0;
      for (int p = 0; p < k; ++p)
        sum += int64_t(a[size_t(i) * k + p] - aZp) * b[size_t(p) * n + j];
      out[size_t(i) * n + j] = wrap(sum);
    }
  return out;
}

std::vector<int8_t> requant(const std::vector<int32_t> &acc, int c,
                            const std::vector<int32_t> &bias,
                            const std::vector<int32_t> &mult,
                            const std::vector<int32_t> &shift, bool doubleRound,
                            int outZp, int lo, int hi,
                            const std::vector<int8_t> *lut) {
  std::vector<int8_t> out(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    int ch = static_cast<int>(i % c);
    int64_t v = int64_t(applyScale32(wrap(int64_t(acc[i]) + bias[ch]), mult[ch],
                                     shift[ch], doubleRound)) +
                outZp;
    v = std::min<int64_t>(std::max<int64_t>(v, lo), hi);
    out[i] = lut ? (*lut)[v + 128] : static_cast<int8_t>(v);
  }
  return out;
}

std::vector<int8_t> eltwiseInt8(const std::vector<int8_t> &a,
                                const std::vector<int8_t> &b, Elt op,
                                const EltParams &p) {
  std::vector<int8_t> out(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    int32_t raw;
    if (op == Elt::Add || op == Elt::Sub) {
      int32_t x1 = wrap(int64_t(a[i] - p.in1Zp) << p.leftShift);
      int32_t x2 = wrap(int64_t(b[i] - p.in2Zp) << p.leftShift);
      int32_t s1 = multiplyByQuantizedMultiplier(x1, p.in1Mult, p.in1Shift);
      int32_t s2 = multiplyByQuantizedMultiplier(x2, p.in2Mult, p.in2Shift);
      int32_t sum = wrap(op == Elt::Add ? int64_t(s1) + s2 : int64_t(s1) - s2);
      raw = wrap(
          int64_t(multiplyByQuantizedMultiplier(sum, p.outMult, p.outShift)) +
          p.outZp);
    } else if (op == Elt::Mul) {
      int32_t prod = wrap(int64_t(a[i] - p.in1Zp) * (b[i] - p.in2Zp));
      raw = wrap(
          int64_t(multiplyByQuantizedMultiplier(prod, p.outMult, p.outShift)) +
          p.outZp);
    } else {
      raw = op == Elt::Min ? std::min(a[i], b[i]) : std::max(a[i], b[i]);
    }
    int64_t v = std::min<int64_t>(std::max<int64_t>(raw, p.lo), p.hi);
    out[i] =
        static_cast<int8_t>(std::min<int64_t>(std::max<int64_t>(v, -128), 127));
  }
  return out;
}

std::vector<uint16_t> eltwiseF16(const std::vector<uint16_t> &a,
                                 const std::vector<uint16_t> &b, Elt op) {
  std::vector<uint16_t> out(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    volatile float x = halfToFloat(a[i]), y = halfToFloat(b[i]);
    volatile float r;
    switch (op) {
    case Elt::Add:
      r = x + y;
      break;
    case Elt::Sub:
      r = x - y;
      break;
    case Elt::Mul:
      r = x * y;
      break;
    case Elt::Min:
      r = y < x ? y : x;
      break;
    case Elt::Max:
      r = y > x ? y : x;
      break;
    }
    out[i] = floatToHalf(r);
  }
  return out;
}

std::vector<int32_t> poolInt8(const std::vector<int8_t> &in, int h, int w,
                              int c, const Window &win, Pool op, int lo,
                              int hi) {
  int oh = win.outH(h), ow = win.outW(w);
  std::vector<int32_t> out(size_t(oh) * ow * c);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox)
      for (int ch = 0; ch < c; ++ch) {
        int64_t sum = 0;
        int best = -128, count = 0;
        for (int ky = 0; ky < win.kh; ++ky)
          for (int kx = 0; kx < win.kw; ++kx) {
            int iy = tap(oy, ky, win.sy, 1, win.pt, h);
            int ix = tap(ox, kx, win.sx, 1, win.pl, w);
            if (iy < 0 || ix < 0)
              continue;
            int v = in[(size_t(iy) * w + ix) * c + ch];
            sum += v;
            best = count ? std::max(best, v) : v;
            ++count;
          }
        int64_t r;
        if (op == Pool::Sum)
          r = sum;
        else if (op == Pool::Max)
          r = best;
        else
          r = count ? static_cast<int64_t>(std::round(double(sum) / count)) : 0;
        if (op != Pool::Sum)
          r = std::min<int64_t>(std::max<int64_t>(r, lo), hi);
        out[(size_t(oy) * ow + ox) * c + ch] = static_cast<int32_t>(r);
      }
  return out;
}

std::vector<float> poolF16(const std::vector<uint16_t> &in, int h, int w, int c,
                           const Window &win, Pool op) {
  int oh = win.outH(h), ow = win.outW(w);
  std::vector<float> out(size_t(oh) * ow * c);
  for (int oy = 0; oy < oh; ++oy)
    for (int ox = 0; ox < ow; ++ox)
      for (int ch = 0; ch < c; ++ch) {
        volatile float sum = 0.0f;
        float best = -std::numeric_limits<float>::infinity();
        int count = 0;
        for (int ky = 0; ky < win.kh; ++ky)
          for (int kx = 0; kx < win.kw; ++kx) {
            int iy = tap(oy, ky, win.sy, 1, win.pt, h);
            int ix = tap(ox, kx, win.sx, 1, win.pl, w);
            if (iy < 0 || ix < 0)
              continue;
            float v = halfToFloat(in[(size_t(iy) * w + ix) * c + ch]);
            sum = sum + v;
            best = count == 0 ? v : (v > best ? v : best);
            ++count;
          }
        float r;
        if (op == Pool::Sum) {
          r = sum;
        } else {
          volatile float avg = count ? sum / static_cast<float>(count) : 0.0f;
          r = halfToFloat(floatToHalf(op == Pool::Max ? best : avg));
        }
        out[(size_t(oy) * ow + ox) * c + ch] = r;
      }
  return out;
}

std::vector<int8_t> rescaleInt8(const std::vector<int32_t> &in, int inZp,
                                int32_t mult, int32_t shift, bool doubleRound,
                                int outZp, int lo, int hi) {
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t v = int64_t(applyScale32(wrap(int64_t(in[i]) - inZp), mult, shift,
                                     doubleRound)) +
                outZp;
    out[i] =
        static_cast<int8_t>(std::min<int64_t>(std::max<int64_t>(v, lo), hi));
  }
  return out;
}

std::vector<int8_t> lookupInt8(const std::vector<int8_t> &in,
                               const std::vector<int8_t> &table) {
  std::vector<int8_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i)
    out[i] = table.at(size_t(int(in[i]) + 128));
  return out;
}

std::vector<int32_t> clampInt(const std::vector<int32_t> &in, int32_t lo,
                              int32_t hi) {
  std::vector<int32_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i)
    out[i] = in[i] < lo ? lo : in[i] > hi ? hi : in[i];
  return out;
}

std::vector<uint16_t> clampF16(const std::vector<uint16_t> &in, uint16_t lo,
                               uint16_t hi) {
  const float l = halfToFloat(lo), h = halfToFloat(hi);
  std::vector<uint16_t> out(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    float r = halfToFloat(in[i]);
    if (r < l)
      r = l;
    if (r > h)
      r = h;
    out[i] = floatToHalf(r);
  }
  return out;
}

unsigned dataTypeSize(DataType type) {
  switch (type) {
  case DataType::I8:
    return 1;
  case DataType::F16:
    return 2;
  default:
    return 4;
  }
}

std::vector<uint8_t> convert(const std::vector<uint8_t> &in, DataType from,
                             DataType to) {
  const unsigned si = dataTypeSize(from), so = dataTypeSize(to);
  const bool fromFloat = from == DataType::F16 || from == DataType::F32;
  const size_t n = in.size() / si;
  std::vector<uint8_t> out(n * so);
  for (size_t i = 0; i < n; ++i) {
    const uint8_t *p = &in[i * si];
    int64_t iv = 0;
    float fv = 0;
    if (from == DataType::I8) {
      iv = static_cast<int8_t>(p[0]);
    } else if (from == DataType::I32) {
      int32_t v;
      std::memcpy(&v, p, 4);
      iv = v;
    } else if (from == DataType::F16) {
      fv = halfToFloat(uint16_t(p[0] | p[1] << 8));
    } else {
      std::memcpy(&fv, p, 4);
    }
    uint8_t *q = &out[i * so];
    if (to == DataType::I8 || to == DataType::I32) {
      double lo = to == DataType::I8 ? -128.0 : -2147483648.0;
      double hi = to == DataType::I8 ? 127.0 : 2147483647.0;
      double v = fromFloat ? (std::isnan(fv) ? 0.0 : std::nearbyint(double(fv)))
                           : double(iv);
      int32_t r = static_cast<int32_t>(v < lo ? lo : v > hi ? hi : v);
      if (to == DataType::I8)
        q[0] = static_cast<uint8_t>(r);
      else
        std::memcpy(q, &r, 4);
      continue;
    }
    // int -> fp32 is exact in double, then one rounding to float.
    float f = fromFloat ? fv : static_cast<float>(double(iv));
    if (to == DataType::F16) {
      uint16_t h = floatToHalf(f);
      q[0] = uint8_t(h);
      q[1] = uint8_t(h >> 8);
    } else {
      std::memcpy(q, &f, 4);
    }
  }
  return out;
}

std::vector<uint8_t> resizeNearest(const std::vector<uint8_t> &in, int h,
                                   int w, int c, int esize, int sy, int sx) {
  int oh = h * sy, ow = w * sx;
  size_t pixel = size_t(c) * esize;
  std::vector<uint8_t> out(size_t(oh) * ow * pixel);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x)
      std::memcpy(&out[(size_t(y) * ow + x) * pixel],
                  &in[(size_t(y / sy) * w + x / sx) * pixel], pixel);
  return out;
}

namespace {
/// Tap t (0 or 1) of output coordinate \p o of 2x half-pixel bilinear
/// up-sampling over \p n input positions: the clamped input position and
/// its weight out of 4.
std::pair<int, int> bilinearTap(int o, int t, int n) {
  int phase = o % 2, i = o / 2;
  int position = std::min(std::max(i - 1 + phase + t, 0), n - 1);
  int weight = (phase == 0) == (t == 0) ? 1 : 3;
  return {position, weight};
}
} // namespace

std::vector<int32_t> resizeBilinear2xInt8(const std::vector<int8_t> &in,
                                          int h, int w, int c, int inZp) {
  std::vector<int32_t> out(size_t(4) * h * w * c);
  for (int oy = 0; oy < 2 * h; ++oy)
    for (int ox = 0; ox < 2 * w; ++ox)
      for (int ch = 0; ch < c; ++ch) {
        int32_t sum = 0;
        for (int ky = 0; ky < 2; ++ky)
          for (int kx = 0; kx < 2; ++kx) {
            auto [iy, wy] = bilinearTap(oy, ky, h);
            auto [ix, wx] = bilinearTap(ox, kx, w);
            sum += wy * wx * (in[(size_t(iy) * w + ix) * c + ch] - inZp);
          }
        out[(size_t(oy) * 2 * w + ox) * c + ch] = sum;
      }
  return out;
}

std::vector<float> resizeBilinear2xF16(const std::vector<uint16_t> &in, int h,
                                       int w, int c) {
  std::vector<float> out(size_t(4) * h * w * c);
  for (int oy = 0; oy < 2 * h; ++oy)
    for (int ox = 0; ox < 2 * w; ++ox)
      for (int ch = 0; ch < c; ++ch) {
        volatile float acc = 0.0f;
        for (int ky = 0; ky < 2; ++ky)
          for (int kx = 0; kx < 2; ++kx) {
            auto [iy, wy] = bilinearTap(oy, ky, h);
            auto [ix, wx] = bilinearTap(ox, kx, w);
            float x = halfToFloat(in[(size_t(iy) * w + ix) * c + ch]);
            volatile float product = x * (float(wy * wx) / 16.0f);
            acc = acc + product;
          }
        out[(size_t(oy) * 2 * w + ox) * c + ch] = acc;
      }
  return out;
}

} // namespace kiln::npu::ref
