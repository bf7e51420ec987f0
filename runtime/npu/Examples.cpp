//===- Examples.cpp - Hand-built NPU-v1 example streams ---------*- C++ -*-===//
//
// The double-buffered convolution: DMA_IN loads tile t+1 while MAC computes
// tile t, VEC requantises and DMA_OUT stores behind them.
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Examples.h"

#include <cstring>
#include <random>

namespace kiln::npu {

namespace {
Command make(Opcode op) {
  Command c;
  c.opcode = op;
  return c;
}
} // namespace

uint32_t layoutConvProgram(Program &p,
                           const std::vector<uint8_t> &packedWeights,
                           const std::vector<uint8_t> &packedRecords,
                           unsigned h, unsigned w, unsigned cin, unsigned cout,
                           int inZp, int outZp) {
  p.constants = packedWeights;
  while (p.constants.size() % 64)
    p.constants.push_back(0);
  uint32_t recordOffset = static_cast<uint32_t>(p.constants.size());
  p.constants.insert(p.constants.end(), packedRecords.begin(),
                     packedRecords.end());
  p.regions = {{0, RegionKind::CONST, p.constants.size()},
               {2, RegionKind::INPUT, uint64_t(h) * w * cin},
               {3, RegionKind::OUTPUT, uint64_t(h) * w * cout}};
  IoDecl x;
  x.name = "x";
  x.region = 2;
  x.shape = {1, h, w, cin};
  x.scale = 0.05f;
  x.zeroPoint = inZp;
  IoDecl y = x;
  y.name = "y";
  y.isOutput = true;
  y.region = 3;
  y.shape = {1, h, w, cout};
  y.zeroPoint = outZp;
  p.io = {x, y};
  return recordOffset;
}

ConvExample buildConvExample(const ConvExampleOptions &o) {
  ConvExample ex;
  std::mt19937 rng(o.seed);
  std::uniform_int_distribution<int> byte(-128, 127);
  ex.x.resize(size_t(o.h) * o.w * o.cin);
  for (auto &v : ex.x)
    v = static_cast<int8_t>(byte(rng));
  ex.weights.resize(size_t(9) * o.cin * o.cout);
  for (auto &v : ex.weights)
    v = static_cast<int8_t>(byte(rng));
  ex.inZp = 3;
  ex.outZp = -5;
  for (unsigned c = 0; c < o.cout; ++c)
    ex.records.push_back({static_cast<int32_t>(byte(rng)) * 64,
                          (1 << 30) + static_cast<int32_t>(rng() % (1 << 29)),
                          40});
  ex.input.assign(reinterpret_cast<const uint8_t *>(ex.x.data()),
                  reinterpret_cast<const uint8_t *>(ex.x.data()) + ex.x.size());

  const unsigned cib = (o.cin + 15) / 16, cob = (o.cout + 15) / 16;
  std::vector<uint8_t> wbytes(ex.weights.size());
  std::memcpy(wbytes.data(), ex.weights.data(), wbytes.size());
  std::vector<uint8_t> packedW =
      packConvWeights(wbytes, 3, 3, o.cin, o.cout, 1);
  std::vector<uint8_t> packedP = packChannelRecords(ex.records);
  Program &p = ex.program;
  p.config = o.config;
  uint32_t paramOffset = layoutConvProgram(p, packedW, packedP, o.h, o.w,
                                           o.cin, o.cout, ex.inZp, ex.outZp);
  p.debug = {{1, "conv2d", "example.py:12"},
             {2, "conv2d/requantize", "example.py:12"},
             {3, "load x", ""},
             {4, "store y", ""}};

  const TargetConfig &cfg = p.config;
  const uint32_t act = cfg.regionBase(LmemRegion::ACT),
                 wgt = cfg.regionBase(LmemRegion::WGT),
                 acc = cfg.regionBase(LmemRegion::ACC),
                 prm = cfg.regionBase(LmemRegion::PARAM);
  const unsigned R = o.rowsPerTile, tiles = o.h / R;
  const uint32_t inTileBytes = (R + 2) * o.w * cib * 16;
  const uint32_t accTileBytes = R * o.w * cob * 64;
  const uint32_t outTileBytes = R * o.w * cob * 16;
  const unsigned nbuf = o.doubleBuffer ? 2 : 1;
  auto inBuf = [&](unsigned b) {
    return act + b * ((inTileBytes + 255) & ~255u);
  };
  auto outBuf = [&](unsigned b) {
    return act + 2 * ((inTileBytes + 255) & ~255u) +
           b * ((outTileBytes + 255) & ~255u);
  };
  auto accBuf = [&](unsigned b) { return acc + b * accTileBytes; };
  // Semaphores: weights, parameters, then a pair (one per buffer) for each
  // full/free edge of the pipeline.
  constexpr uint8_t W = 0, P = 1, IN_FULL = 2, IN_FREE = 4, ACC_FULL = 6,
                    ACC_FREE = 8, OUT_FULL = 10, OUT_FREE = 12;

  Command lw = make(Opcode::DMA_LOAD);
  lw.region = 0;
  lw.dst = wgt;
  lw.srcRun = lw.dstRun = static_cast<uint32_t>(packedW.size());
  lw.n[0] = lw.n[1] = lw.n[2] = 1;
  lw.signal[0] = W;
  p.commands.push_back(lw);
  Command lp = lw;
  lp.src = paramOffset;
  lp.dst = prm;
  lp.srcRun = lp.dstRun = static_cast<uint32_t>(packedP.size());
  lp.signal[0] = P;
  p.commands.push_back(lp);

  for (unsigned t = 0; t < tiles; ++t) {
    unsigned b = t % nbuf;
    bool reuse = t >= nbuf;
    int first = int(t * R) - 1, last = int(t * R + R); // Inclusive rows.
    unsigned pt = first < 0 ? 1 : 0, pb = last >= int(o.h) ? 1 : 0;
    if (first < 0)
      first = 0;
    if (last >= int(o.h))
      last = o.h - 1;
    unsigned rows = last - first + 1;

    Command ld = make(Opcode::DMA_LOAD);
    ld.tag = 3;
    ld.region = 2;
    ld.src = first * o.w * o.cin;
    ld.dst = inBuf(b);
    ld.pad = static_cast<uint8_t>(ex.inZp);
    ld.srcRun = o.cin;
    ld.dstRun = cib * 16;
    ld.n[0] = o.w;
    ld.n[1] = rows;
    ld.n[2] = 1;
    ld.srcStride[0] = o.cin;
    ld.srcStride[1] = o.w * o.cin;
    ld.dstStride[0] = cib * 16;
    ld.dstStride[1] = o.w * cib * 16;
    if (o.doubleBuffer) {
      ld.wait[0] = reuse ? uint8_t(IN_FREE + b) : kNoSemaphore;
      ld.signal[0] = IN_FULL + b;
    }
    ex.loads.push_back(p.commands.size());
    p.commands.push_back(ld);

    Command conv = make(Opcode::MAC_CONV);
    conv.tag = 1;
    conv.in = ViewDesc::dense(inBuf(b), DType::I8, o.w, rows, cib);
    conv.out = ViewDesc::dense(accBuf(b), DType::I32, o.w, R, cob);
    conv.waddr = wgt;
    conv.kh = conv.kw = 3;
    conv.sy = conv.sx = conv.dy = conv.dx = 1;
    conv.pt = pt;
    conv.pb = pb;
    conv.pl = conv.pr = 1;
    conv.inZp = ex.inZp;
    if (o.doubleBuffer) {
      conv.wait[0] = IN_FULL + b;
      conv.wait[1] = t == 0 ? W : reuse ? uint8_t(ACC_FREE + b) : kNoSemaphore;
      conv.signal[0] = IN_FREE + b;
      conv.signal[1] = ACC_FULL + b;
    } else {
      conv.wait[0] = t == 0 ? W : kNoSemaphore;
    }
    if (!o.doubleBuffer)
      p.commands.push_back(make(Opcode::NOP));
    ex.convs.push_back(p.commands.size());
    p.commands.push_back(conv);

    Command rq = make(Opcode::VEC_REQUANT);
    rq.tag = 2;
    rq.in = conv.out;
    rq.out = ViewDesc::dense(outBuf(b), DType::I8, o.w, R, cob);
    rq.paddr = prm;
    rq.flags = flags::kDoubleRound;
    rq.outZp = ex.outZp;
    rq.minV = -128;
    rq.maxV = 127;
    if (o.doubleBuffer) {
      rq.wait[0] = ACC_FULL + b;
      rq.wait[1] = t == 0 ? P : reuse ? uint8_t(OUT_FREE + b) : kNoSemaphore;
      rq.signal[0] = ACC_FREE + b;
      rq.signal[1] = OUT_FULL + b;
    } else {
      rq.wait[0] = t == 0 ? P : kNoSemaphore;
      p.commands.push_back(make(Opcode::NOP));
    }
    ex.requants.push_back(p.commands.size());
    p.commands.push_back(rq);

    Command st = make(Opcode::DMA_STORE);
    st.tag = 4;
    st.region = 3;
    st.src = outBuf(b);
    st.dst = t * R * o.w * o.cout;
    st.srcRun = o.cout;
    st.n[0] = o.w;
    st.n[1] = R;
    st.n[2] = 1;
    st.srcStride[0] = cob * 16;
    st.srcStride[1] = o.w * cob * 16;
    st.dstStride[0] = o.cout;
    st.dstStride[1] = o.w * o.cout;
    if (o.doubleBuffer) {
      st.wait[0] = OUT_FULL + b;
      st.signal[0] = OUT_FREE + b;
    } else {
      p.commands.push_back(make(Opcode::NOP));
    }
    ex.stores.push_back(p.commands.size());
    p.commands.push_back(st);
    if (!o.doubleBuffer)
      p.commands.push_back(make(Opcode::NOP));
  }
  p.commands.push_back(make(Opcode::END));
  return ex;
}

} // namespace kiln::npu
