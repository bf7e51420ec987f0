//===- Kernels.cpp - Functional execution of NPU-v1 commands ----*- C++ -*-===//
//
// Per-command kernels. The int8 convolution is an im2col over one output
// pixel followed by 4-wide int16 dot products that the compiler vectorises
// (function multiversioning picks AVX-512/AVX2 at run time). fp16 work keeps
// the specified accumulation order and is vectorised across output lanes
// only.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Kernels.h"

#include "runtime/npu/Arith.h"
#include "runtime/npu/Verifier.h"

#include "absl/strings/str_cat.h"

#include <cmath>
#include <cstring>

namespace kiln::npu {

namespace {

template <typename T> T load(const uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <typename T> void store(uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof v);
}

/// Addresses element (y, x, c) of a view in LMEM.
struct ViewAccess {
  uint8_t *base;
  const ViewDesc &v;
  unsigned esize;
  ViewAccess(Memory &m, const ViewDesc &view)
      : base(m.lmem.data()), v(view), esize(dtypeSize(DType(view.dtype))) {}
  uint8_t *at(unsigned y, unsigned x, unsigned c) const {
    return base + v.vectorAddr(y, x, c / 16) + (c % 16) * esize;
  }
};

absl::Status error(const Command &c, size_t index, const std::string &msg) {
  return absl::InvalidArgumentError(commandPrefix(c, index) + msg);
}

//===----------------------------------------------------------------------===//
// DMA
//===----------------------------------------------------------------------===//

absl::Status checkDram(const Command &c, size_t index, Memory &m,
                       const Extent &e) {
  if (e.region >= m.dram.size() || m.dram[e.region].empty())
    return error(c, index,
                 absl::StrCat("DRAM region r", e.region, " is not bound"));
  if (e.hi > m.dram[e.region].size())
    return error(c, index,
                 absl::StrCat("field '", e.field, "' ", e.lo, " + ",
                              e.hi - e.lo, " bytes exceeds bound DRAM region r",
                              e.region, " (", m.dram[e.region].size(),
                              " bytes)"));
  return absl::OkStatus();
}

absl::Status runDma(const Command &c, size_t index, Memory &m) {
  for (const Extent &e : commandExtents(c))
    if (e.dram)
      if (absl::Status s = checkDram(c, index, m, e); !s.ok())
        return s;
  uint8_t *lmem = m.lmem.data();
  if (c.opcode == Opcode::DMA_FILL) {
    for (uint32_t i = 0; i < c.bytes; i += 4)
      store<uint32_t>(lmem + c.dst + i, c.pattern);
    return absl::OkStatus();
  }
  bool load = c.opcode == Opcode::DMA_LOAD;
  const uint8_t *src =
      load ? ((c.flags & flags::kLmemSource) ? lmem : m.dram[c.region].data())
           : lmem;
  uint8_t *dst = load ? lmem : m.dram[c.region].data();
  uint32_t dstRun = load ? c.dstRun : c.srcRun;
  for (uint64_t i2 = 0; i2 < c.n[2]; ++i2)
    for (uint64_t i1 = 0; i1 < c.n[1]; ++i1)
      for (uint64_t i0 = 0; i0 < c.n[0]; ++i0) {
        uint64_t s = c.src + i2 * c.srcStride[2] + i1 * c.srcStride[1] +
                     i0 * c.srcStride[0];
        uint64_t d = c.dst + i2 * c.dstStride[2] + i1 * c.dstStride[1] +
                     i0 * c.dstStride[0];
        std::memmove(dst + d, src + s, c.srcRun);
        if (dstRun > c.srcRun)
          std::memset(dst + d + c.srcRun, c.pad, dstRun - c.srcRun);
      }
  return absl::OkStatus();
}

//===----------------------------------------------------------------------===//
// MAC
//===----------------------------------------------------------------------===//

/// Input row/column of output coordinate \p o and tap \p k, or -1 if padded.
inline int64_t tapCoord(unsigned o, unsigned k, unsigned stride, unsigned dil,
                        unsigned padBefore, unsigned size) {
  int64_t i = int64_t(o) * stride - padBefore + int64_t(k) * dil;
  return (i < 0 || i >= size) ? -1 : i;
}

void convInt8(const Command &c, Memory &m) {
  ViewAccess in(m, c.in), out(m, c.out);
  const unsigned cin = c.in.cb * 16, cout = c.out.cb * 16;
  const size_t taps = size_t(c.kh) * c.kw;
  const size_t kdim = taps * cin;
  const bool dw = c.opcode == Opcode::MAC_DWCONV;
  const uint8_t *wbase = m.lmem.data() + c.waddr;
  const bool accumulate = c.flags & flags::kAccumulate;
  std::vector<int32_t> result(size_t(c.out.h) * c.out.w * cout);

  if (dw) {
    std::vector<int32_t> acc(cout);
    for (unsigned oy = 0; oy < c.out.h; ++oy)
      for (unsigned ox = 0; ox < c.out.w; ++ox) {
        std::fill(acc.begin(), acc.end(), 0);
        for (unsigned ky = 0; ky < c.kh; ++ky) {
          int64_t iy = tapCoord(oy, ky, c.sy, c.dy, c.pt, c.in.h);
          if (iy < 0)
            continue;
          for (unsigned kx = 0; kx < c.kw; ++kx) {
            int64_t ix = tapCoord(ox, kx, c.sx, c.dx, c.pl, c.in.w);
            if (ix < 0)
              continue;
            for (unsigned cb = 0; cb < c.in.cb; ++cb) {
              const int8_t *x =
                  reinterpret_cast<const int8_t *>(in.at(iy, ix, cb * 16));
              const int8_t *w = reinterpret_cast<const int8_t *>(
                  wbase + ((size_t(cb) * c.kh + ky) * c.kw + kx) * 16);
              for (int l = 0; l < 16; ++l)
                acc[cb * 16 + l] += (int32_t(x[l]) - c.inZp) * w[l];
            }
          }
        }
        std::copy(acc.begin(), acc.end(),
                  result.begin() + (size_t(oy) * c.out.w + ox) * cout);
      }
  } else {
    // Weights to [cout][ky][kx][cin] int16 rows.
    std::vector<int16_t> wt(size_t(cout) * kdim);
    for (unsigned cob = 0; cob < c.out.cb; ++cob)
      for (size_t t = 0; t < taps; ++t)
        for (unsigned cib = 0; cib < c.in.cb; ++cib) {
          const int8_t *blk = reinterpret_cast<const int8_t *>(
              wbase + ((cob * taps + t) * c.in.cb + cib) * 256);
          for (unsigned ci = 0; ci < 16; ++ci)
            for (unsigned co = 0; co < 16; ++co)
              wt[(size_t(cob) * 16 + co) * kdim + t * cin + cib * 16 + ci] =
                  blk[ci * 16 + co];
        }
    std::vector<int16_t> xcol(kdim);
    for (unsigned oy = 0; oy < c.out.h; ++oy)
      for (unsigned ox = 0; ox < c.out.w; ++ox) {
        int16_t *xp = xcol.data();
        for (unsigned ky = 0; ky < c.kh; ++ky) {
          int64_t iy = tapCoord(oy, ky, c.sy, c.dy, c.pt, c.in.h);
          for (unsigned kx = 0; kx < c.kw; ++kx, xp += cin) {
            int64_t ix = tapCoord(ox, kx, c.sx, c.dx, c.pl, c.in.w);
            if (iy < 0 || ix < 0) {
              std::memset(xp, 0, cin * sizeof(int16_t));
              continue;
            }
            for (unsigned cib = 0; cib < c.in.cb; ++cib) {
              const int8_t *x =
                  reinterpret_cast<const int8_t *>(in.at(iy, ix, cib * 16));
              for (int l = 0; l < 16; ++l)
                xp[cib * 16 + l] = static_cast<int16_t>(x[l] - c.inZp);
            }
          }
        }
        int32_t *dst = result.data() + (size_t(oy) * c.out.w + ox) * cout;
        for (unsigned co = 0; co < cout; co += 4)
          dotProduct4(xcol.data(), wt.data() + size_t(co) * kdim, kdim,
                      dst + co);
      }
  }
  for (unsigned oy = 0; oy < c.out.h; ++oy)
    for (unsigned ox = 0; ox < c.out.w; ++ox)
      for (unsigned co = 0; co < cout; ++co) {
        uint8_t *p = out.at(oy, ox, co);
        int32_t v = result[(size_t(oy) * c.out.w + ox) * cout + co];
        if (accumulate)
          v = wrapAdd(load<int32_t>(p), v);
        store<int32_t>(p, v);
      }
}

void convFp16(const Command &c, Memory &m) {
  ViewAccess in(m, c.in), out(m, c.out);
  const unsigned cout = c.out.cb * 16;
  const bool dw = c.opcode == Opcode::MAC_DWCONV;
  const uint8_t *wbase = m.lmem.data() + c.waddr;
  const size_t taps = size_t(c.kh) * c.kw;
  std::vector<float> result(size_t(c.out.h) * c.out.w * cout);
  // Pre-convert weights once.
  size_t wcount = dw ? size_t(c.in.cb) * taps * 16
                     : size_t(c.out.cb) * taps * c.in.cb * 256;
  std::vector<float> wf(wcount);
  for (size_t i = 0; i < wcount; ++i)
    wf[i] = f16ToF32(load<uint16_t>(wbase + 2 * i));
  const bool accumulate = c.flags & flags::kAccumulate;
  float x[16];
  for (unsigned oy = 0; oy < c.out.h; ++oy)
    for (unsigned ox = 0; ox < c.out.w; ++ox)
      for (unsigned cob = 0; cob < c.out.cb; ++cob) {
        float acc[16];
        for (int l = 0; l < 16; ++l)
          acc[l] = accumulate
                       ? bitsFloat(load<uint32_t>(out.at(oy, ox, cob * 16 + l)))
                       : 0.0f;
        for (unsigned ky = 0; ky < c.kh; ++ky) {
          int64_t iy = tapCoord(oy, ky, c.sy, c.dy, c.pt, c.in.h);
          for (unsigned kx = 0; kx < c.kw; ++kx) {
            int64_t ix = tapCoord(ox, kx, c.sx, c.dx, c.pl, c.in.w);
            size_t t = size_t(ky) * c.kw + kx;
            if (dw) {
              for (int l = 0; l < 16; ++l)
                x[l] =
                    (iy < 0 || ix < 0)
                        ? 0.0f
                        : f16ToF32(load<uint16_t>(in.at(iy, ix, cob * 16 + l)));
              const float *w = &wf[(size_t(cob) * taps + t) * 16];
              for (int l = 0; l < 16; ++l)
                acc[l] = acc[l] + x[l] * w[l];
              continue;
            }
            for (unsigned cib = 0; cib < c.in.cb; ++cib) {
              for (int l = 0; l < 16; ++l)
                x[l] =
                    (iy < 0 || ix < 0)
                        ? 0.0f
                        : f16ToF32(load<uint16_t>(in.at(iy, ix, cib * 16 + l)));
              const float *blk =
                  &wf[((size_t(cob) * taps + t) * c.in.cb + cib) * 256];
              for (int ci = 0; ci < 16; ++ci) {
                float xv = x[ci];
                const float *w = blk + ci * 16;
                for (int co = 0; co < 16; ++co)
                  acc[co] = acc[co] + xv * w[co];
              }
            }
          }
        }
        for (int l = 0; l < 16; ++l)
          result[(size_t(oy) * c.out.w + ox) * cout + cob * 16 + l] = acc[l];
      }
  for (unsigned oy = 0; oy < c.out.h; ++oy)
    for (unsigned ox = 0; ox < c.out.w; ++ox)
      for (unsigned co = 0; co < cout; ++co)
        store<uint32_t>(
            out.at(oy, ox, co),
            floatBits(result[(size_t(oy) * c.out.w + ox) * cout + co]));
}

//===----------------------------------------------------------------------===//
// VEC
//===----------------------------------------------------------------------===//

/// A generic element value: integers exact in int64, floats as float.
struct Elem {
  int64_t i = 0;
  float f = 0;
};

Elem readElem(const uint8_t *p, DType d) {
  Elem e;
  switch (d) {
  case DType::I8:
    e.i = static_cast<int8_t>(*p);
    break;
  case DType::I32:
    e.i = load<int32_t>(p);
    break;
  case DType::F16:
    e.f = f16ToF32(load<uint16_t>(p));
    break;
  case DType::F32:
    e.f = bitsFloat(load<uint32_t>(p));
    break;
  }
  return e;
}

void writeElem(uint8_t *p, DType d, Elem e) {
  switch (d) {
  case DType::I8:
    *p = static_cast<uint8_t>(static_cast<int8_t>(e.i));
    break;
  case DType::I32:
    store<int32_t>(p, static_cast<int32_t>(e.i));
    break;
  case DType::F16:
    store<uint16_t>(p, f32ToF16(e.f));
    break;
  case DType::F32:
    store<uint32_t>(p, floatBits(e.f));
    break;
  }
}

bool isFloat(DType d) { return d == DType::F16 || d == DType::F32; }

/// Converts between any two dtypes as VEC_UNARY CONVERT specifies.
Elem convertElem(Elem e, DType from, DType to) {
  Elem r;
  if (!isFloat(from) && !isFloat(to)) {
    r.i = to == DType::I8 ? clampI64(e.i, -128, 127) : e.i;
  } else if (!isFloat(from)) {
    r.f = static_cast<float>(static_cast<int32_t>(e.i)); // RNE.
  } else if (!isFloat(to)) {
    int32_t v = f32ToI32Sat(e.f);
    r.i = to == DType::I8 ? clampI64(v, -128, 127) : v;
  } else {
    r.f = e.f; // f16 -> f32 exact; f32 -> f16 rounds in writeElem.
  }
  return r;
}

/// Output buffer of a VEC command: written to LMEM after all reads.
struct OutBuf {
  std::vector<uint8_t> bytes;
  const ViewDesc &v;
  unsigned esize;
  explicit OutBuf(const ViewDesc &view)
      : bytes(size_t(view.h) * view.w * view.cb * 16 *
              dtypeSize(DType(view.dtype))),
        v(view), esize(dtypeSize(DType(view.dtype))) {}
  uint8_t *at(unsigned y, unsigned x, unsigned c) {
    return bytes.data() + ((size_t(y) * v.w + x) * v.cb * 16 + c) * esize;
  }
  void flush(Memory &m) {
    for (unsigned y = 0; y < v.h; ++y)
      for (unsigned x = 0; x < v.w; ++x)
        for (unsigned b = 0; b < v.cb; ++b)
          std::memcpy(m.lmem.data() + v.vectorAddr(y, x, b), at(y, x, b * 16),
                      16 * esize);
  }
};

absl::Status requant(const Command &c, size_t index, Memory &m) {
  ViewAccess in(m, c.in);
  OutBuf out(c.out);
  const uint8_t *param = m.lmem.data() + c.paddr;
  const uint8_t *lut = m.lmem.data() + c.laddr;
  unsigned channels = c.in.cb * 16;
  for (unsigned ch = 0; ch < channels; ++ch) {
    const uint8_t *rec = param + ((c.flags & flags::kPerTensor) ? 0 : ch) * 16;
    int32_t bias = load<int32_t>(rec), mult = load<int32_t>(rec + 4),
            shift = load<int32_t>(rec + 8);
    if (mult < 0 || shift < 2 || shift > 62)
      return error(c, index,
                   absl::StrCat("channel ", ch, ": record multiplier ", mult,
                                " / shift ", shift,
                                " outside [0, 2^31) / [2, 62]"));
    for (unsigned y = 0; y < c.in.h; ++y)
      for (unsigned x = 0; x < c.in.w; ++x) {
        int32_t acc = load<int32_t>(in.at(y, x, ch));
        int64_t r = int64_t(applyScale32(wrapAdd(acc, bias), mult, shift,
                                         c.flags & flags::kDoubleRound)) +
                    c.outZp;
        r = clampI64(r, c.minV, c.maxV);
        if (c.flags & flags::kLut)
          r = static_cast<int8_t>(lut[r + 128]);
        *out.at(y, x, ch) = static_cast<uint8_t>(r);
      }
  }
  out.flush(m);
  return absl::OkStatus();
}

absl::Status eltwise(const Command &c, size_t index, Memory &m) {
  ViewAccess a(m, c.in), b(m, c.in2);
  OutBuf out(c.out);
  int32_t p[16];
  std::memcpy(p, m.lmem.data() + c.paddr, 64);
  DType d = DType(c.in.dtype);
  EltOp op = static_cast<EltOp>(c.op);
  Broadcast bc = static_cast<Broadcast>(c.bcast);
  if (d == DType::I8) {
    bool shiftsOk = p[3] >= 0 && p[3] <= 30;
    for (int i : {5, 7, 9})
      shiftsOk &= p[i] >= -31 && p[i] <= 30;
    if (!shiftsOk)
      return error(c, index,
                   "parameter block: 'left_shift' outside [0, 30] or a "
                   "shift outside [-31, 30]");
  }
  for (unsigned y = 0; y < c.out.h; ++y)
    for (unsigned x = 0; x < c.out.w; ++x)
      for (unsigned ch = 0; ch < c.out.cb * 16u; ++ch) {
        Elem ea = readElem(a.at(y, x, ch), d), eb;
        if (bc == Broadcast::SCALAR)
          eb = d == DType::I8 ? Elem{int8_t(p[12]), 0}
                              : Elem{0, f16ToF32(uint16_t(p[12]))};
        else if (bc == Broadcast::CHANNEL)
          eb = readElem(b.at(0, 0, ch), d);
        else
          eb = readElem(b.at(y, x, ch), d);
        Elem r;
        if (d == DType::F16) {
          switch (op) {
          case EltOp::ADD:
            r.f = ea.f + eb.f;
            break;
          case EltOp::SUB:
            r.f = ea.f - eb.f;
            break;
          case EltOp::MUL:
            r.f = ea.f * eb.f;
            break;
          case EltOp::MIN:
            r.f = eb.f < ea.f ? eb.f : ea.f;
            break;
          case EltOp::MAX:
            r.f = eb.f > ea.f ? eb.f : ea.f;
            break;
          }
        } else {
          int32_t x1 = int32_t(ea.i), x2 = int32_t(eb.i);
          int32_t raw = 0;
          switch (op) {
          case EltOp::ADD:
          case EltOp::SUB: {
            int32_t s1 = multiplyByQuantizedMultiplier(
                int32_t(uint32_t(x1 - p[0]) << p[3]), p[4], p[5]);
            int32_t s2 = multiplyByQuantizedMultiplier(
                int32_t(uint32_t(x2 - p[1]) << p[3]), p[6], p[7]);
            raw = op == EltOp::ADD ? wrapAdd(s1, s2) : wrapAdd(s1, -s2);
            raw = wrapAdd(multiplyByQuantizedMultiplier(raw, p[8], p[9]), p[2]);
            break;
          }
          case EltOp::MUL:
            raw = wrapAdd(multiplyByQuantizedMultiplier(
                              (x1 - p[0]) * (x2 - p[1]), p[8], p[9]),
                          p[2]);
            break;
          case EltOp::MIN:
            raw = x1 < x2 ? x1 : x2;
            break;
          case EltOp::MAX:
            raw = x1 > x2 ? x1 : x2;
            break;
          }
          r.i = clampI64(clampI64(raw, p[10], p[11]), -128, 127);
        }
        writeElem(out.at(y, x, ch), d, r);
      }
  out.flush(m);
  return absl::OkStatus();
}

absl::Status unary(const Command &c, size_t index, Memory &m) {
  ViewAccess in(m, c.in);
  OutBuf out(c.out);
  DType di = DType(c.in.dtype), dout = DType(c.out.dtype);
  UnaryOp op = static_cast<UnaryOp>(c.op);
  const uint8_t *lut = m.lmem.data() + c.laddr;
  for (unsigned y = 0; y < c.in.h; ++y)
    for (unsigned x = 0; x < c.in.w; ++x)
      for (unsigned ch = 0; ch < c.in.cb * 16u; ++ch) {
        Elem e = readElem(in.at(y, x, ch), di), r;
        switch (op) {
        case UnaryOp::CONVERT:
          r = convertElem(e, di, dout);
          break;
        case UnaryOp::ABS:
        case UnaryOp::NEG:
          if (isFloat(di)) {
            uint32_t bits = floatBits(e.f);
            bits = op == UnaryOp::ABS ? (bits & 0x7fffffffu)
                                      : (bits ^ 0x80000000u);
            r.f = bitsFloat(bits);
          } else {
            int64_t v = op == UnaryOp::ABS ? (e.i < 0 ? -e.i : e.i) : -e.i;
            r.i = di == DType::I8 ? clampI64(v, -128, 127)
                                  : clampI64(v, INT32_MIN, INT32_MAX);
          }
          break;
        case UnaryOp::CLAMP:
          if (isFloat(di)) {
            float lo = f16ToF32(uint16_t(c.minV)),
                  hi = f16ToF32(uint16_t(c.maxV));
            r.f = e.f;
            if (r.f < lo)
              r.f = lo;
            if (r.f > hi)
              r.f = hi;
          } else {
            r.i = clampI64(e.i, c.minV, c.maxV);
          }
          break;
        case UnaryOp::RESCALE: {
          int32_t v = di == DType::I8 ? int32_t(e.i - c.inZp) : int32_t(e.i);
          int64_t s = int64_t(applyScale32(v, c.mult, c.shift,
                                           c.flags & flags::kDoubleRound)) +
                      c.outZp;
          r.i = clampI64(s, c.minV, c.maxV);
          break;
        }
        case UnaryOp::LUT:
          r.i = static_cast<int8_t>(lut[e.i + 128]);
          break;
        }
        writeElem(out.at(y, x, ch), dout, r);
      }
  out.flush(m);
  return absl::OkStatus();
}

void pool(const Command &c, Memory &m) {
  ViewAccess in(m, c.in);
  OutBuf out(c.out);
  DType di = DType(c.in.dtype), dout = DType(c.out.dtype);
  PoolOp op = static_cast<PoolOp>(c.op);
  for (unsigned oy = 0; oy < c.out.h; ++oy)
    for (unsigned ox = 0; ox < c.out.w; ++ox)
      for (unsigned ch = 0; ch < c.out.cb * 16u; ++ch) {
        int64_t isum = 0, imax = -128;
        float fsum = 0.0f, fmax = -INFINITY;
        int32_t count = 0;
        for (unsigned ky = 0; ky < c.kh; ++ky) {
          int64_t iy = tapCoord(oy, ky, c.sy, 1, c.pt, c.in.h);
          if (iy < 0)
            continue;
          for (unsigned kx = 0; kx < c.kw; ++kx) {
            int64_t ix = tapCoord(ox, kx, c.sx, 1, c.pl, c.in.w);
            if (ix < 0)
              continue;
            Elem e = readElem(in.at(iy, ix, ch), di);
            if (di == DType::I8) {
              isum += e.i;
              imax = count == 0 ? e.i : (e.i > imax ? e.i : imax);
            } else {
              fsum = fsum + e.f;
              fmax = count == 0 ? e.f : (e.f > fmax ? e.f : fmax);
            }
            ++count;
          }
        }
        Elem r;
        if (di == DType::I8) {
          if (op == PoolOp::SUM)
            r.i = isum;
          else
            r.i = clampI64(
                op == PoolOp::MAX
                    ? imax
                    : (count ? roundedAverage(int32_t(isum), count) : 0),
                c.minV, c.maxV);
        } else {
          r.f = op == PoolOp::MAX ? fmax
                : op == PoolOp::SUM
                    ? fsum
                    : (count ? fsum / static_cast<float>(count) : 0.0f);
        }
        writeElem(out.at(oy, ox, ch), dout, r);
      }
  out.flush(m);
}

} // namespace

KILN_NPU_DOT_CLONES void
dotProduct4(const int16_t *x, const int16_t *w, size_t k, int32_t *out) {
  const int16_t *__restrict w0 = w;
  const int16_t *__restrict w1 = w + k;
  const int16_t *__restrict w2 = w + 2 * k;
  const int16_t *__restrict w3 = w + 3 * k;
  int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (size_t i = 0; i < k; ++i) {
    int32_t xv = x[i];
    s0 += xv * w0[i];
    s1 += xv * w1[i];
    s2 += xv * w2[i];
    s3 += xv * w3[i];
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
}

absl::Status executeCommand(const Command &c, size_t index,
                            const TargetConfig &config, Memory &m) {
  (void)config;
  switch (c.opcode) {
  case Opcode::NOP:
  case Opcode::END:
    return absl::OkStatus();
  case Opcode::DMA_LOAD:
  case Opcode::DMA_FILL:
  case Opcode::DMA_STORE:
    return runDma(c, index, m);
  case Opcode::MAC_CONV:
  case Opcode::MAC_DWCONV:
    if (c.flags & flags::kFp16)
      convFp16(c, m);
    else
      convInt8(c, m);
    return absl::OkStatus();
  case Opcode::VEC_REQUANT:
    return requant(c, index, m);
  case Opcode::VEC_ELTWISE:
    return eltwise(c, index, m);
  case Opcode::VEC_UNARY:
    return unary(c, index, m);
  case Opcode::VEC_POOL:
    pool(c, m);
    return absl::OkStatus();
  }
  return absl::OkStatus();
}

} // namespace kiln::npu
