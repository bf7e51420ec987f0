//===- TiledConv.cpp - Hand-built tiled convolution streams -----*- C++ -*-===//
//
// Per band of output rows: one input load (halo rows included, the image
// border padded by the MAC padding fields), then per output-channel group an
// optional weight load, MAC, requantisation into the band's output buffer;
// one store per band. Double buffering pairs a full and a free semaphore
// with each buffer of each stage.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/TiledConv.h"

#include "runtime/npu/Examples.h"
#include "runtime/npu/Reference.h"

#include "absl/strings/str_cat.h"

#include <algorithm>
#include <cstring>
#include <random>

namespace kiln::npu {

namespace {
Command make(Opcode op) {
  Command c;
  c.opcode = op;
  return c;
}

uint64_t align256(uint64_t v) { return (v + 255) & ~uint64_t(255); }

/// A strided int8 view of \p cb channel blocks starting at \p addr inside a
/// dense [h][w][totalCb*16] buffer.
ViewDesc sliceView(uint32_t addr, DType dtype, unsigned w, unsigned h,
                   unsigned cb, unsigned totalCb) {
  ViewDesc v = ViewDesc::dense(addr, dtype, w, h, cb);
  unsigned unit = dtypeSize(dtype);
  v.sw = static_cast<uint16_t>(totalCb * unit);
  v.sh = static_cast<uint16_t>(uint64_t(w) * totalCb * unit);
  return v;
}

// Semaphores: constant weights, parameters, then a pair (one per buffer)
// for each full/free edge of the pipeline.
constexpr uint8_t kWeights = 0, kParams = 1, kInFull = 2, kInFree = 4,
                  kWgtFull = 6, kWgtFree = 8, kAccFull = 10, kAccFree = 12,
                  kOutFull = 14, kOutFree = 16, kSemaphoresUsed = 18;
} // namespace

const char *convKindName(ConvKind kind) {
  switch (kind) {
  case ConvKind::Dense3x3:
    return "conv3x3";
  case ConvKind::Dense1x1:
    return "conv1x1";
  case ConvKind::Depthwise3x3:
    return "dwconv3x3";
  }
  return "?";
}

bool parseConvKind(const std::string &name, ConvKind &kind) {
  for (ConvKind k :
       {ConvKind::Dense3x3, ConvKind::Dense1x1, ConvKind::Depthwise3x3})
    if (name == convKindName(k)) {
      kind = k;
      return true;
    }
  return false;
}

absl::StatusOr<TiledConv> buildTiledConv(const TiledConvOptions &o) {
  const bool dw = o.kind == ConvKind::Depthwise3x3;
  const unsigned k = o.kind == ConvKind::Dense1x1 ? 1 : 3, pad = k / 2;
  const TargetConfig &cfg = o.config;
  if (absl::Status s = cfg.validate(); !s.ok())
    return s;
  if (!o.h || !o.w || !o.cin || !o.cout)
    return absl::InvalidArgumentError("every dimension must be positive");
  if (dw && o.cin != o.cout)
    return absl::InvalidArgumentError(absl::StrCat(
        "a depthwise convolution needs cout == cin, got ", o.cout, " and ",
        o.cin));
  if (cfg.semaphores < kSemaphoresUsed)
    return absl::InvalidArgumentError(absl::StrCat(
        "the stream needs ", int(kSemaphoresUsed),
        " semaphores, the target has ", cfg.semaphores));
  const unsigned cib = (o.cin + 15) / 16, cob = (o.cout + 15) / 16;
  if (uint64_t(o.w) * std::max(cib, cob) > 65535 || o.h > 65535)
    return absl::InvalidArgumentError(
        absl::StrCat("a ", o.w, "-pixel row of ", std::max(o.cin, o.cout),
                     " channels exceeds the view stride fields"));
  const bool db = o.schedule == Schedule::DoubleBuffered;
  const unsigned nbuf = db ? 2 : 1;
  const uint64_t actSize = cfg.regionSize(LmemRegion::ACT),
                 wgtSize = cfg.regionSize(LmemRegion::WGT),
                 accSize = cfg.regionSize(LmemRegion::ACC),
                 prmSize = cfg.regionSize(LmemRegion::PARAM);
  const uint64_t inRow = uint64_t(o.w) * cib * 16,
                 outRow = uint64_t(o.w) * cob * 16;
  // Weight bytes per output channel block.
  const uint64_t blockWeights =
      dw ? uint64_t(k) * k * 16 : uint64_t(k) * k * cib * 256;
  const uint64_t allWeights = blockWeights * cob;
  if (uint64_t(cob) * 256 > prmSize)
    return absl::ResourceExhaustedError(absl::StrCat(
        "the ", o.cout, " channel records do not fit LMEM.PARAM"));

  // Tiling: the tallest band that fits ACT with its buffers, then the
  // widest channel group ACC (and WGT, if weights stream) holds.
  auto actBytes = [&](uint64_t rows) {
    return nbuf *
           (align256((rows + 2 * pad) * inRow) + align256(rows * outRow));
  };
  auto accGroups = [&](uint64_t rows) {
    return accSize / (nbuf * rows * o.w * 64);
  };
  unsigned R = o.rowsPerBand;
  if (!R) {
    for (unsigned r = std::min(o.h, 65535u); r >= 1 && !R; --r)
      if (actBytes(r) <= actSize && accGroups(r) >= 1)
        R = r;
  } else {
    R = std::min(R, o.h);
  }
  if (!R || actBytes(R) > actSize || accGroups(R) < 1)
    return absl::ResourceExhaustedError(absl::StrCat(
        "a band of ", std::max(R, 1u), " output row(s) of ", o.w, "x", o.cin,
        " -> ", o.cout, " does not fit LMEM (ACT ", actSize / 1024,
        " KiB, ACC ", accSize / 1024, " KiB, ", nbuf, " buffer(s) per stage)"));
  const bool stream = allWeights > wgtSize;
  uint64_t G = std::min<uint64_t>(cob, accGroups(R));
  if (stream)
    G = std::min<uint64_t>(G, wgtSize / (nbuf * blockWeights));
  if (o.blocksPerGroup)
    G = std::min<uint64_t>(G, o.blocksPerGroup);
  if (G < 1)
    return absl::ResourceExhaustedError(absl::StrCat(
        "the weights of one output channel block (", blockWeights,
        " bytes) do not fit LMEM.WGT with ", nbuf, " buffer(s)"));

  TiledConv t;
  t.rowsPerBand = R;
  t.blocksPerGroup = static_cast<unsigned>(G);
  t.weightsStreamed = stream;
  t.layerMacs = uint64_t(o.h) * o.w * o.cout * k * k * (dw ? 1 : o.cin);

  // Data: random input, nonzero weights, records that keep outputs in range.
  std::mt19937 rng(o.seed);
  std::uniform_int_distribution<int> byte(-128, 127);
  t.x.resize(size_t(o.h) * o.w * o.cin);
  for (auto &v : t.x)
    v = static_cast<int8_t>(byte(rng));
  t.weights.resize(size_t(k) * k * o.cin * (dw ? 1 : o.cout));
  for (auto &v : t.weights) {
    int b = byte(rng);
    v = static_cast<int8_t>(b ? b : 1);
  }
  t.inZp = 3;
  t.outZp = -5;
  uint64_t terms = uint64_t(k) * k * (dw ? 1 : o.cin);
  int width = 0;
  while ((uint64_t(1) << width) <= terms)
    ++width;
  for (unsigned c = 0; c < o.cout; ++c)
    t.records.push_back({static_cast<int32_t>(byte(rng)) * 64,
                         (1 << 30) + static_cast<int32_t>(rng() % (1 << 29)),
                         36 + width / 2});
  t.input.assign(reinterpret_cast<const uint8_t *>(t.x.data()),
                 reinterpret_cast<const uint8_t *>(t.x.data()) + t.x.size());

  std::vector<uint8_t> wbytes(t.weights.size());
  std::memcpy(wbytes.data(), t.weights.data(), wbytes.size());
  std::vector<uint8_t> packedW =
      dw ? packDepthwiseWeights(wbytes, k, k, o.cin, 1)
         : packConvWeights(wbytes, k, k, o.cin, o.cout, 1);
  std::vector<uint8_t> packedP = packChannelRecords(t.records);
  Program &p = t.program;
  p.config = cfg;
  const uint32_t paramOffset = layoutConvProgram(
      p, packedW, packedP, o.h, o.w, o.cin, o.cout, t.inZp, t.outZp);
  p.debug = {{1, convKindName(o.kind), ""},
             {2, "requantize", ""},
             {3, "load x", ""},
             {4, "store y", ""},
             {5, "load weights", ""}};

  const uint32_t act = cfg.regionBase(LmemRegion::ACT),
                 wgt = cfg.regionBase(LmemRegion::WGT),
                 acc = cfg.regionBase(LmemRegion::ACC),
                 prm = cfg.regionBase(LmemRegion::PARAM);
  const uint64_t inBufBytes = align256((R + 2 * pad) * inRow),
                 outBufBytes = align256(R * outRow),
                 accBufBytes = uint64_t(R) * o.w * G * 64,
                 wgtBufBytes = G * blockWeights;
  auto inBuf = [&](unsigned b) { return uint32_t(act + b * inBufBytes); };
  auto outBuf = [&](unsigned b) {
    return uint32_t(act + nbuf * inBufBytes + b * outBufBytes);
  };
  auto accBuf = [&](unsigned b) { return uint32_t(acc + b * accBufBytes); };
  auto wgtBuf = [&](unsigned b) { return uint32_t(wgt + b * wgtBufBytes); };
  auto emit = [&](const Command &c) {
    p.commands.push_back(c);
    if (!db)
      p.commands.push_back(make(Opcode::NOP));
  };
  auto sem = [&](bool cond, unsigned s) {
    return db && cond ? static_cast<uint8_t>(s) : kNoSemaphore;
  };
  auto loadBytes = [&](uint32_t src, uint32_t dst, uint64_t bytes) {
    Command c = make(Opcode::DMA_LOAD);
    c.tag = 5;
    c.region = 0;
    c.src = src;
    c.dst = dst;
    c.srcRun = c.dstRun = static_cast<uint32_t>(bytes);
    c.n[0] = c.n[1] = c.n[2] = 1;
    return c;
  };

  if (!stream) {
    Command lw = loadBytes(0, wgt, packedW.size());
    lw.signal[0] = sem(true, kWeights);
    emit(lw);
  }
  Command lp = loadBytes(paramOffset, prm, packedP.size());
  lp.signal[0] = sem(true, kParams);
  emit(lp);

  const unsigned bands = (o.h + R - 1) / R;
  const unsigned groups = static_cast<unsigned>((cob + G - 1) / G);
  const uint64_t units = uint64_t(bands) * groups;
  uint64_t u = 0, wl = 0; // Unit and weight-load counters.
  for (unsigned i = 0; i < bands; ++i) {
    const unsigned b = i % nbuf, y0 = i * R, rb = std::min(R, o.h - y0);
    int first = int(y0) - int(pad), last = int(y0 + rb - 1 + pad);
    const unsigned pt = first < 0 ? unsigned(-first) : 0,
                   pb = last >= int(o.h) ? unsigned(last - int(o.h) + 1) : 0;
    first = std::max(first, 0);
    last = std::min(last, int(o.h) - 1);
    const unsigned rows = unsigned(last - first + 1);
    const bool lastUse = i + nbuf >= bands; // No later band reuses b.

    Command ld = make(Opcode::DMA_LOAD);
    ld.tag = 3;
    ld.region = 2;
    ld.src = uint32_t(first) * o.w * o.cin;
    ld.dst = inBuf(b);
    ld.pad = static_cast<uint8_t>(t.inZp);
    ld.srcRun = o.cin;
    ld.dstRun = cib * 16;
    ld.n[0] = o.w;
    ld.n[1] = rows;
    ld.n[2] = 1;
    ld.srcStride[0] = o.cin;
    ld.srcStride[1] = o.w * o.cin;
    ld.dstStride[0] = cib * 16;
    ld.dstStride[1] = o.w * cib * 16;
    ld.wait[0] = sem(i >= nbuf, kInFree + b);
    ld.signal[0] = sem(!stream, kInFull + b);
    emit(ld);

    for (unsigned g = 0; g < groups; ++g, ++u) {
      const unsigned ab = u % nbuf, gb0 = g * unsigned(G),
                     gn = std::min<unsigned>(unsigned(G), cob - gb0);
      const unsigned wb = wl % nbuf;
      uint32_t waddr = wgt + uint32_t(gb0 * blockWeights);
      if (stream) {
        Command lw = loadBytes(uint32_t(gb0 * blockWeights), wgtBuf(wb),
                               gn * blockWeights);
        lw.wait[0] = sem(wl >= nbuf, kWgtFree + wb);
        lw.signal[0] = sem(true, kWgtFull + wb);
        emit(lw);
        waddr = wgtBuf(wb);
      }
      Command mac = make(dw ? Opcode::MAC_DWCONV : Opcode::MAC_CONV);
      mac.tag = 1;
      mac.in =
          dw ? sliceView(inBuf(b) + gb0 * 16, DType::I8, o.w, rows, gn, cib)
             : ViewDesc::dense(inBuf(b), DType::I8, o.w, rows, cib);
      mac.out = ViewDesc::dense(accBuf(ab), DType::I32, o.w, rb, gn);
      mac.waddr = waddr;
      mac.kh = mac.kw = k;
      mac.sy = mac.sx = mac.dy = mac.dx = 1;
      mac.pt = pt;
      mac.pb = pb;
      mac.pl = mac.pr = pad;
      mac.inZp = static_cast<int16_t>(t.inZp);
      if (stream) {
        mac.wait[0] = sem(true, kWgtFull + wb);
        mac.signal[1] = sem(wl + nbuf < units, kWgtFree + wb);
        ++wl;
      } else {
        mac.wait[0] = sem(g == 0, kInFull + b);
        mac.signal[1] = sem(g + 1 == groups && !lastUse, kInFree + b);
      }
      mac.wait[1] = u >= nbuf ? sem(true, kAccFree + ab)
                              : sem(u == 0 && !stream, kWeights);
      mac.signal[0] = sem(true, kAccFull + ab);
      emit(mac);

      Command rq = make(Opcode::VEC_REQUANT);
      rq.tag = 2;
      rq.in = mac.out;
      rq.out = sliceView(outBuf(b) + gb0 * 16, DType::I8, o.w, rb, gn, cob);
      rq.paddr = prm + gb0 * 256;
      rq.flags = flags::kDoubleRound;
      rq.outZp = static_cast<int16_t>(t.outZp);
      rq.minV = -128;
      rq.maxV = 127;
      rq.wait[0] = sem(true, kAccFull + ab);
      rq.wait[1] = g == 0 && i >= nbuf ? sem(true, kOutFree + b)
                                       : sem(u == 0, kParams);
      rq.signal[0] = sem(u + nbuf < units, kAccFree + ab);
      rq.signal[1] = sem(g + 1 == groups, kOutFull + b);
      emit(rq);
    }

    Command st = make(Opcode::DMA_STORE);
    st.tag = 4;
    st.region = 3;
    st.src = outBuf(b);
    st.dst = y0 * o.w * o.cout;
    st.srcRun = o.cout;
    st.n[0] = o.w;
    st.n[1] = rb;
    st.n[2] = 1;
    st.srcStride[0] = cob * 16;
    st.srcStride[1] = o.w * cob * 16;
    st.dstStride[0] = o.cout;
    st.dstStride[1] = o.w * o.cout;
    st.wait[0] = sem(true, kOutFull + b);
    st.signal[0] = sem(!lastUse, kOutFree + b);
    st.signal[1] = sem(stream && !lastUse, kInFree + b);
    emit(st);
  }
  if (!db)
    p.commands.pop_back(); // END is a fence of its own.
  p.commands.push_back(make(Opcode::END));
  return t;
}

std::vector<int8_t> tiledConvReference(const TiledConv &t,
                                       const TiledConvOptions &o) {
  const bool dw = o.kind == ConvKind::Depthwise3x3;
  ref::Window win;
  win.kh = win.kw = o.kind == ConvKind::Dense1x1 ? 1 : 3;
  win.pt = win.pb = win.pl = win.pr = win.kh / 2;
  std::vector<int32_t> acc =
      dw ? ref::depthwiseInt8(t.x, o.h, o.w, o.cin, t.weights, win, t.inZp)
         : ref::convInt8(t.x, o.h, o.w, o.cin, t.weights, o.cout, win, t.inZp);
  std::vector<int32_t> bias, mult, shift;
  for (const ChannelRecord &r : t.records) {
    bias.push_back(r.bias);
    mult.push_back(r.multiplier);
    shift.push_back(r.shift);
  }
  return ref::requant(acc, o.cout, bias, mult, shift, true, t.outZp, -128,
                      127);
}

} // namespace kiln::npu
