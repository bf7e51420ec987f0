//===- KernelsTest.cpp - Simulator vs independent reference -----*- C++ -*-===//
//
// Every compute command on hand-built streams (DMA in, compute, DMA out),
// compared bit for bit with the tensor-level reference over random shapes,
// strides, paddings, zero points and scales (fixed seeds).
//
//===----------------------------------------------------------------------===//

#include "runtime/npu/Packing.h"
#include "runtime/npu/Reference.h"
#include "unittests/runtime/npu/TestUtil.h"

#include "absl/strings/str_cat.h"

#include <cmath>

namespace kiln::npu::test {
namespace {

constexpr uint32_t kIn2Offset = 128 * 1024, kOutOffset = 256 * 1024;

int randInt(std::mt19937 &rng, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

/// fp16 values: mostly moderate normals, sometimes specials and denormals.
std::vector<uint16_t> randomF16(std::mt19937 &rng, size_t n,
                                bool specials = true) {
  static const uint16_t kSpecial[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff,
                                      0x0400, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
                                      0x3c00, 0x3c01, 0x7e00};
  std::vector<uint16_t> v(n);
  for (auto &x : v) {
    int pick = randInt(rng, 0, 99);
    if (specials && pick < 3)
      x = kSpecial[randInt(rng, 0, std::size(kSpecial) - 1)];
    else
      x = static_cast<uint16_t>((randInt(rng, 0, 1) << 15) |
                                (randInt(rng, 9, 19) << 10) |
                                randInt(rng, 0, 1023));
  }
  return v;
}

/// Bitwise float equality where any NaN equals any NaN.
bool sameFloat(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  uint32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  return x == y;
}

std::string windowString(const ref::Window &w) {
  return absl::StrCat("k", w.kh, "x", w.kw, " s", w.sy, "x", w.sx, " d", w.dy,
                      "x", w.dx, " pad", w.pt, ",", w.pb, ",", w.pl, ",", w.pr);
}

ref::Window randomWindow(std::mt19937 &rng, bool dilation) {
  ref::Window w;
  w.kh = randInt(rng, 1, 4);
  w.kw = randInt(rng, 1, 4);
  w.sy = randInt(rng, 1, 3);
  w.sx = randInt(rng, 1, 3);
  w.dy = dilation ? randInt(rng, 1, 2) : 1;
  w.dx = dilation ? randInt(rng, 1, 2) : 1;
  w.pt = randInt(rng, 0, 2);
  w.pb = randInt(rng, 0, 2);
  w.pl = randInt(rng, 0, 2);
  w.pr = randInt(rng, 0, 2);
  return w;
}

void setWindow(Command &c, const ref::Window &w) {
  c.kh = w.kh;
  c.kw = w.kw;
  c.sy = w.sy;
  c.sx = w.sx;
  c.dy = w.dy;
  c.dx = w.dx;
  c.pt = w.pt;
  c.pb = w.pb;
  c.pl = w.pl;
  c.pr = w.pr;
}

unsigned blocks(unsigned c) { return (c + 15) / 16; }

//===----------------------------------------------------------------------===//
// MAC
//===----------------------------------------------------------------------===//

TEST(NPUKernels, ConvInt8MatchesReference) {
  std::mt19937 rng(1234);
  int checked = 0;
  for (int iter = 0; iter < 240; ++iter) {
    int h = randInt(rng, 1, 9), w = randInt(rng, 1, 9);
    int cin = randInt(rng, 1, 40), cout = randInt(rng, 1, 40);
    ref::Window win = randomWindow(rng, true);
    int oh = win.outH(h), ow = win.outW(w);
    if (!win.fits(h, w) || oh < 1 || ow < 1)
      continue;
    int zp = randInt(rng, -128, 127);
    bool accumulate = iter % 3 == 0;
    uint32_t pattern = rng();
    auto in = randomI8(rng, size_t(h) * w * cin);
    auto weights = randomI8(rng, size_t(win.kh) * win.kw * cin * cout);
    auto packed =
        packConvWeights(bytesOf(weights), win.kh, win.kw, cin, cout, 1);
    TestStream s;
    uint32_t inOff = s.addInput(bytesOf(in));
    uint32_t wOff = s.addConst(packed);
    uint32_t act = lmem(LmemRegion::ACT), wgt = lmem(LmemRegion::WGT),
             acc = lmem(LmemRegion::ACC);
    s.push(loadTensor(2, inOff, act, h, w, cin, 1, uint8_t(zp)));
    s.push(loadBytes(0, wOff, wgt, packed.size()));
    if (accumulate) {
      Command fill = makeCommand(Opcode::DMA_FILL);
      fill.dst = acc;
      fill.bytes = oh * ow * blocks(cout) * 64;
      fill.pattern = pattern;
      s.push(fill);
    }
    s.fence();
    Command conv = makeCommand(Opcode::MAC_CONV);
    conv.in = ViewDesc::dense(act, DType::I8, w, h, blocks(cin));
    conv.out = ViewDesc::dense(acc, DType::I32, ow, oh, blocks(cout));
    conv.waddr = wgt;
    conv.inZp = zp;
    conv.flags = accumulate ? flags::kAccumulate : 0;
    setWindow(conv, win);
    s.push(conv);
    s.fence();
    uint32_t outOff = s.addOutput(size_t(oh) * ow * cout * 4);
    s.push(storeTensor(acc, oh, ow, cout, 4, 3, outOff));
    auto got = valuesOf<int32_t>(runStream(s), outOff, size_t(oh) * ow * cout);
    auto want = ref::convInt8(in, h, w, cin, weights, cout, win, zp);
    if (accumulate)
      for (auto &v : want)
        v = static_cast<int32_t>(uint32_t(v) + pattern);
    ASSERT_EQ(got, want) << "iter " << iter << " " << h << "x" << w << "x"
                         << cin << "->" << cout << " " << windowString(win)
                         << " zp " << zp;
    ++checked;
  }
  EXPECT_GT(checked, 120);
}

TEST(NPUKernels, MatmulAsPointwiseConvMatchesReference) {
  std::mt19937 rng(77);
  for (int iter = 0; iter < 10; ++iter) {
    int m = randInt(rng, 1, 50), k = randInt(rng, 1, 70),
        n = randInt(rng, 1, 50);
    int zp = randInt(rng, -20, 20);
    auto a = randomI8(rng, size_t(m) * k), b = randomI8(rng, size_t(k) * n);
    auto packed = packConvWeights(bytesOf(b), 1, 1, k, n, 1);
    TestStream s;
    uint32_t act = lmem(LmemRegion::ACT), wgt = lmem(LmemRegion::WGT),
             acc = lmem(LmemRegion::ACC);
    s.push(loadTensor(2, s.addInput(bytesOf(a)), act, 1, m, k, 1, uint8_t(zp)));
    s.push(loadBytes(0, s.addConst(packed), wgt, packed.size()));
    s.fence();
    Command conv = makeCommand(Opcode::MAC_CONV);
    conv.in = ViewDesc::dense(act, DType::I8, m, 1, blocks(k));
    conv.out = ViewDesc::dense(acc, DType::I32, m, 1, blocks(n));
    conv.waddr = wgt;
    conv.inZp = zp;
    setWindow(conv, ref::Window());
    s.push(conv);
    s.fence();
    uint32_t outOff = s.addOutput(size_t(m) * n * 4);
    s.push(storeTensor(acc, 1, m, n, 4, 3, outOff));
    auto got = valuesOf<int32_t>(runStream(s), outOff, size_t(m) * n);
    ASSERT_EQ(got, ref::matmulInt8(a, b, m, k, n, zp)) << "iter " << iter;
  }
}

TEST(NPUKernels, ConvF16MatchesReference) {
  std::mt19937 rng(99);
  for (int iter = 0; iter < 64; ++iter) {
    int h = randInt(rng, 1, 6), w = randInt(rng, 1, 6);
    int cin = 16 * randInt(rng, 1, 2), cout = randInt(rng, 1, 33);
    ref::Window win = randomWindow(rng, true);
    int oh = win.outH(h), ow = win.outW(w);
    if (!win.fits(h, w) || oh < 1 || ow < 1)
      continue;
    auto in = randomF16(rng, size_t(h) * w * cin);
    auto weights = randomF16(rng, size_t(win.kh) * win.kw * cin * cout);
    auto packed =
        packConvWeights(bytesOf(weights), win.kh, win.kw, cin, cout, 2);
    TestStream s;
    uint32_t act = lmem(LmemRegion::ACT), wgt = lmem(LmemRegion::WGT),
             acc = lmem(LmemRegion::ACC);
    s.push(loadTensor(2, s.addInput(bytesOf(in)), act, h, w, cin, 2));
    s.push(loadBytes(0, s.addConst(packed), wgt, packed.size()));
    s.fence();
    Command conv = makeCommand(Opcode::MAC_CONV);
    conv.flags = flags::kFp16;
    conv.in = ViewDesc::dense(act, DType::F16, w, h, blocks(cin));
    conv.out = ViewDesc::dense(acc, DType::F32, ow, oh, blocks(cout));
    conv.waddr = wgt;
    setWindow(conv, win);
    s.push(conv);
    s.fence();
    uint32_t outOff = s.addOutput(size_t(oh) * ow * cout * 4);
    s.push(storeTensor(acc, oh, ow, cout, 4, 3, outOff));
    auto got = valuesOf<float>(runStream(s), outOff, size_t(oh) * ow * cout);
    auto want = ref::convF16(in, h, w, cin, weights, cout, win);
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_TRUE(sameFloat(got[i], want[i]))
          << "iter " << iter << " element " << i << ": " << got[i] << " vs "
          << want[i] << " " << windowString(win);
  }
}

TEST(NPUKernels, DepthwiseMatchesReference) {
  std::mt19937 rng(4242);
  for (int iter = 0; iter < 120; ++iter) {
    bool fp16 = iter % 3 == 2;
    int h = randInt(rng, 1, 9), w = randInt(rng, 1, 9);
    int c = fp16 ? 16 * randInt(rng, 1, 2) : randInt(rng, 1, 40);
    ref::Window win = randomWindow(rng, true);
    int oh = win.outH(h), ow = win.outW(w);
    if (!win.fits(h, w) || oh < 1 || ow < 1)
      continue;
    int zp = fp16 ? 0 : randInt(rng, -128, 127);
    unsigned esize = fp16 ? 2 : 1;
    std::vector<int8_t> in8, w8;
    std::vector<uint16_t> in16, w16;
    std::vector<uint8_t> inBytes, wBytes;
    if (fp16) {
      in16 = randomF16(rng, size_t(h) * w * c);
      w16 = randomF16(rng, size_t(win.kh) * win.kw * c);
      inBytes = bytesOf(in16);
      wBytes = bytesOf(w16);
    } else {
      in8 = randomI8(rng, size_t(h) * w * c);
      w8 = randomI8(rng, size_t(win.kh) * win.kw * c);
      inBytes = bytesOf(in8);
      wBytes = bytesOf(w8);
    }
    auto packed = packDepthwiseWeights(wBytes, win.kh, win.kw, c, esize);
    TestStream s;
    uint32_t act = lmem(LmemRegion::ACT), wgt = lmem(LmemRegion::WGT),
             acc = lmem(LmemRegion::ACC);
    s.push(
        loadTensor(2, s.addInput(inBytes), act, h, w, c, esize, uint8_t(zp)));
    s.push(loadBytes(0, s.addConst(packed), wgt, packed.size()));
    s.fence();
    Command conv = makeCommand(Opcode::MAC_DWCONV);
    conv.flags = fp16 ? flags::kFp16 : 0;
    conv.in =
        ViewDesc::dense(act, fp16 ? DType::F16 : DType::I8, w, h, blocks(c));
    conv.out =
        ViewDesc::dense(acc, fp16 ? DType::F32 : DType::I32, ow, oh, blocks(c));
    conv.waddr = wgt;
    conv.inZp = zp;
    setWindow(conv, win);
    s.push(conv);
    s.fence();
    uint32_t outOff = s.addOutput(size_t(oh) * ow * c * 4);
    s.push(storeTensor(acc, oh, ow, c, 4, 3, outOff));
    auto out = runStream(s);
    if (fp16) {
      auto got = valuesOf<float>(out, outOff, size_t(oh) * ow * c);
      auto want = ref::depthwiseF16(in16, h, w, c, w16, win);
      for (size_t i = 0; i < got.size(); ++i)
        ASSERT_TRUE(sameFloat(got[i], want[i])) << "iter " << iter;
    } else {
      auto got = valuesOf<int32_t>(out, outOff, size_t(oh) * ow * c);
      ASSERT_EQ(got, ref::depthwiseInt8(in8, h, w, c, w8, win, zp))
          << "iter " << iter << " " << windowString(win);
    }
  }
}

//===----------------------------------------------------------------------===//
// VEC
//===----------------------------------------------------------------------===//

TEST(NPUKernels, RequantMatchesReference) {
  std::mt19937 rng(5150);
  for (int iter = 0; iter < 96; ++iter) {
    int h = randInt(rng, 1, 6), w = randInt(rng, 1, 6), c = randInt(rng, 1, 40);
    bool perTensor = iter % 4 == 1, doubleRound = iter % 2,
         useLut = iter % 3 == 0;
    std::vector<int32_t> accv(size_t(h) * w * c);
    for (auto &v : accv)
      v = static_cast<int32_t>(rng());
    if (iter % 2)
      for (auto &v : accv)
        v >>= randInt(rng, 8, 24); // Realistic magnitudes too.
    std::vector<ChannelRecord> recs(perTensor ? 1 : c);
    for (auto &r : recs) {
      r.bias = static_cast<int32_t>(rng()) >> randInt(rng, 4, 20);
      r.multiplier = randInt(rng, 1 << 30, INT32_MAX);
      r.shift = randInt(rng, 2, 62);
    }
    int outZp = randInt(rng, -128, 127);
    int lo = randInt(rng, -128, 0), hi = randInt(rng, lo, 127);
    std::vector<int8_t> lut = randomI8(rng, 256);
    TestStream s;
    uint32_t acc = lmem(LmemRegion::ACC), param = lmem(LmemRegion::PARAM),
             act = lmem(LmemRegion::ACT);
    s.push(loadTensor(2, s.addInput(bytesOf(accv)), acc, h, w, c, 4));
    auto packedRecs = packChannelRecords(recs, !perTensor);
    s.push(loadBytes(0, s.addConst(packedRecs), param, packedRecs.size()));
    uint32_t lutAddr = param + 32 * 1024;
    s.push(loadBytes(0, s.addConst(bytesOf(lut)), lutAddr, 256));
    s.fence();
    Command rq = makeCommand(Opcode::VEC_REQUANT);
    rq.in = ViewDesc::dense(acc, DType::I32, w, h, blocks(c));
    rq.out = ViewDesc::dense(act, DType::I8, w, h, blocks(c));
    rq.paddr = param;
    rq.flags = (perTensor ? flags::kPerTensor : 0) |
               (doubleRound ? flags::kDoubleRound : 0) |
               (useLut ? flags::kLut : 0);
    rq.laddr = useLut ? lutAddr : 0;
    rq.outZp = outZp;
    rq.minV = lo;
    rq.maxV = hi;
    s.push(rq);
    s.fence();
    uint32_t outOff = s.addOutput(size_t(h) * w * c);
    s.push(storeTensor(act, h, w, c, 1, 3, outOff));
    auto got = valuesOf<int8_t>(runStream(s), outOff, size_t(h) * w * c);
    std::vector<int32_t> bias(c), mult(c), shift(c);
    for (int ch = 0; ch < c; ++ch) {
      const ChannelRecord &r = recs[perTensor ? 0 : ch];
      bias[ch] = r.bias;
      mult[ch] = r.multiplier;
      shift[ch] = r.shift;
    }
    ASSERT_EQ(got, ref::requant(accv, c, bias, mult, shift, doubleRound, outZp,
                                lo, hi, useLut ? &lut : nullptr))
        << "iter " << iter;
  }
}

/// Runs one VEC command reading a dense input (and optional in2) from ACT and
/// writing a dense output to ACT; returns the stored output bytes.
std::vector<uint8_t> runVec(Command cmd, const std::vector<uint8_t> &in,
                            DType inType, unsigned h, unsigned w, unsigned c,
                            DType outType, unsigned oh, unsigned ow,
                            const std::vector<uint8_t> *in2 = nullptr,
                            unsigned h2 = 0, unsigned w2 = 0,
                            const std::vector<uint8_t> *param = nullptr) {
  TestStream s;
  uint32_t act = lmem(LmemRegion::ACT), prm = lmem(LmemRegion::PARAM);
  unsigned ein = dtypeSize(inType), eout = dtypeSize(outType);
  s.push(loadTensor(2, s.addInput(in), act, h, w, c, ein));
  cmd.in = ViewDesc::dense(act, inType, w, h, blocks(c));
  if (in2) {
    s.push(loadTensor(2, s.addInput(*in2), act + kIn2Offset, h2, w2, c, ein));
    cmd.in2 = ViewDesc::dense(act + kIn2Offset, inType, w2, h2, blocks(c));
  }
  if (param) {
    s.push(loadBytes(0, s.addConst(*param), prm, param->size()));
    if (cmd.opcode == Opcode::VEC_UNARY)
      cmd.laddr = prm;
    else
      cmd.paddr = prm;
  }
  s.fence();
  cmd.out = ViewDesc::dense(act + kOutOffset, outType, ow, oh, blocks(c));
  s.push(cmd);
  s.fence();
  uint32_t outOff = s.addOutput(size_t(oh) * ow * c * eout);
  s.push(storeTensor(act + kOutOffset, oh, ow, c, eout, 3, outOff));
  auto out = runStream(s);
  if (out.size() < outOff + size_t(oh) * ow * c * eout)
    return {};
  return std::vector<uint8_t>(
      out.begin() + outOff, out.begin() + outOff + size_t(oh) * ow * c * eout);
}

TEST(NPUKernels, EltwiseInt8MatchesReference) {
  std::mt19937 rng(31337);
  for (int iter = 0; iter < 150; ++iter) {
    EltOp op = static_cast<EltOp>(iter % 5);
    Broadcast bc = static_cast<Broadcast>((iter / 5) % 3);
    int h = randInt(rng, 1, 5), w = randInt(rng, 1, 5), c = randInt(rng, 1, 35);
    size_t n = size_t(h) * w * c;
    auto a = randomI8(rng, n);
    EltwiseParams p;
    p.in1Zp = randInt(rng, -128, 127);
    p.in2Zp = randInt(rng, -128, 127);
    p.outZp = randInt(rng, -128, 127);
    p.leftShift = op == EltOp::MUL ? 0 : 20;
    p.in1Mult = randInt(rng, 1 << 30, INT32_MAX);
    p.in1Shift = randInt(rng, -8, 0);
    p.in2Mult = randInt(rng, 1 << 30, INT32_MAX);
    p.in2Shift = randInt(rng, -8, 0);
    p.outMult = randInt(rng, 1 << 30, INT32_MAX);
    p.outShift =
        op == EltOp::MUL ? randInt(rng, -12, -4) : randInt(rng, -24, -16);
    p.min = randInt(rng, -128, 0);
    p.max = randInt(rng, p.min, 127);
    std::vector<int8_t> b(n), in2;
    unsigned h2 = h, w2 = w;
    if (bc == Broadcast::SCALAR) {
      p.scalar = randInt(rng, -128, 127);
      std::fill(b.begin(), b.end(), int8_t(p.scalar));
    } else if (bc == Broadcast::CHANNEL) {
      in2 = randomI8(rng, c);
      h2 = w2 = 1;
      for (size_t i = 0; i < n; ++i)
        b[i] = in2[i % c];
    } else {
      in2 = randomI8(rng, n);
      b = in2;
    }
    Command cmd = makeCommand(Opcode::VEC_ELTWISE);
    cmd.op = static_cast<uint8_t>(op);
    cmd.bcast = static_cast<uint8_t>(bc);
    auto params = packEltwiseParams(p);
    auto in2Bytes = bytesOf(in2);
    auto got =
        runVec(cmd, bytesOf(a), DType::I8, h, w, c, DType::I8, h, w,
               bc == Broadcast::SCALAR ? nullptr : &in2Bytes, h2, w2, &params);
    ref::EltParams rp{p.in1Zp,   p.in2Zp,    p.outZp,   p.leftShift,
                      p.in1Mult, p.in1Shift, p.in2Mult, p.in2Shift,
                      p.outMult, p.outShift, p.min,     p.max};
    auto want = ref::eltwiseInt8(a, b, static_cast<ref::Elt>(iter % 5), rp);
    ASSERT_EQ(valuesOf<int8_t>(got, 0, n), want)
        << "iter " << iter << " op " << int(op) << " bcast " << int(bc);
  }
}

TEST(NPUKernels, EltwiseF16MatchesReference) {
  std::mt19937 rng(2718);
  for (int iter = 0; iter < 40; ++iter) {
    int h = randInt(rng, 1, 4), w = randInt(rng, 1, 4), c = randInt(rng, 1, 33);
    size_t n = size_t(h) * w * c;
    auto a = randomF16(rng, n), b = randomF16(rng, n);
    Command cmd = makeCommand(Opcode::VEC_ELTWISE);
    cmd.op = iter % 5;
    auto params = packEltwiseParams(EltwiseParams());
    auto bBytes = bytesOf(b);
    auto got = runVec(cmd, bytesOf(a), DType::F16, h, w, c, DType::F16, h, w,
                      &bBytes, h, w, &params);
    ASSERT_EQ(valuesOf<uint16_t>(got, 0, n),
              ref::eltwiseF16(a, b, static_cast<ref::Elt>(iter % 5)))
        << "iter " << iter;
  }
}

TEST(NPUKernels, PoolMatchesReference) {
  std::mt19937 rng(8080);
  for (int iter = 0; iter < 144; ++iter) {
    bool fp16 = iter % 2;
    PoolOp op = static_cast<PoolOp>((iter / 2) % 3);
    int h = randInt(rng, 1, 9), w = randInt(rng, 1, 9), c = randInt(rng, 1, 33);
    ref::Window win = randomWindow(rng, false);
    int oh = win.outH(h), ow = win.outW(w);
    if (!win.fits(h, w) || oh < 1 || ow < 1)
      continue;
    Command cmd = makeCommand(Opcode::VEC_POOL);
    setWindow(cmd, win);
    cmd.dy = cmd.dx = 0; // Not fields of VEC_POOL.
    cmd.op = static_cast<uint8_t>(op);
    int lo = randInt(rng, -128, -60), hi = randInt(rng, 60, 127);
    if (!fp16 && op != PoolOp::SUM) {
      cmd.minV = lo;
      cmd.maxV = hi;
    }
    size_t on = size_t(oh) * ow * c;
    if (fp16) {
      auto in = randomF16(rng, size_t(h) * w * c, /*specials=*/iter % 4 == 1);
      DType out = op == PoolOp::SUM ? DType::F32 : DType::F16;
      auto got = runVec(cmd, bytesOf(in), DType::F16, h, w, c, out, oh, ow);
      auto want = ref::poolF16(in, h, w, c, win, static_cast<ref::Pool>(op));
      for (size_t i = 0; i < on; ++i) {
        float g = op == PoolOp::SUM
                      ? valuesOf<float>(got, i * 4, 1)[0]
                      : ref::halfToFloat(valuesOf<uint16_t>(got, i * 2, 1)[0]);
        ASSERT_TRUE(sameFloat(g, want[i]))
            << "iter " << iter << " element " << i << " " << windowString(win);
      }
    } else {
      auto in = randomI8(rng, size_t(h) * w * c);
      DType out = op == PoolOp::SUM ? DType::I32 : DType::I8;
      auto got = runVec(cmd, bytesOf(in), DType::I8, h, w, c, out, oh, ow);
      auto want =
          ref::poolInt8(in, h, w, c, win, static_cast<ref::Pool>(op), lo, hi);
      std::vector<int32_t> gotv(on);
      for (size_t i = 0; i < on; ++i)
        gotv[i] = op == PoolOp::SUM ? valuesOf<int32_t>(got, i * 4, 1)[0]
                                    : valuesOf<int8_t>(got, i, 1)[0];
      ASSERT_EQ(gotv, want) << "iter " << iter << " " << windowString(win);
    }
  }
}

TEST(NPUKernels, UnaryRescaleAndLutMatchReference) {
  std::mt19937 rng(6060);
  for (int iter = 0; iter < 48; ++iter) {
    int h = randInt(rng, 1, 4), w = randInt(rng, 1, 4), c = randInt(rng, 1, 33);
    size_t n = size_t(h) * w * c;
    bool fromI32 = iter % 2;
    Command cmd = makeCommand(Opcode::VEC_UNARY);
    cmd.op = static_cast<uint8_t>(UnaryOp::RESCALE);
    cmd.mult = randInt(rng, 1 << 30, INT32_MAX);
    cmd.shift = randInt(rng, fromI32 ? 20 : 28, fromI32 ? 40 : 34);
    cmd.inZp = fromI32 ? 0 : randInt(rng, -128, 127);
    cmd.outZp = randInt(rng, -128, 127);
    cmd.minV = randInt(rng, -128, 0);
    cmd.maxV = randInt(rng, cmd.minV, 127);
    cmd.flags = iter % 3 ? flags::kDoubleRound : 0;
    std::vector<int32_t> wide(n);
    std::vector<uint8_t> inBytes;
    if (fromI32) {
      for (auto &v : wide)
        v = static_cast<int32_t>(rng()) >> 8;
      inBytes = bytesOf(wide);
    } else {
      auto narrow = randomI8(rng, n);
      for (size_t i = 0; i < n; ++i)
        wide[i] = narrow[i];
      inBytes = bytesOf(narrow);
    }
    auto got = runVec(cmd, inBytes, fromI32 ? DType::I32 : DType::I8, h, w, c,
                      DType::I8, h, w);
    ASSERT_EQ(valuesOf<int8_t>(got, 0, n),
              ref::rescaleInt8(wide, cmd.inZp, cmd.mult, cmd.shift,
                               cmd.flags & flags::kDoubleRound, cmd.outZp,
                               cmd.minV, cmd.maxV))
        << "iter " << iter;
  }
  // LUT: out = table[x + 128].
  auto in = randomI8(rng, 3 * 5 * 20);
  auto table = randomI8(rng, 256);
  Command lut = makeCommand(Opcode::VEC_UNARY);
  lut.op = static_cast<uint8_t>(UnaryOp::LUT);
  auto tableBytes = bytesOf(table);
  auto got = runVec(lut, bytesOf(in), DType::I8, 3, 5, 20, DType::I8, 3, 5,
                    nullptr, 0, 0, &tableBytes);
  for (size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(int8_t(got[i]), table[in[i] + 128]) << i;
}

TEST(NPUKernels, UnaryConvertAbsNegClamp) {
  std::mt19937 rng(1111);
  const int h = 2, w = 3, c = 20;
  const size_t n = size_t(h) * w * c;
  // i8 abs/neg saturate; clamp uses min/max.
  auto in = randomI8(rng, n);
  in[0] = -128;
  for (UnaryOp op : {UnaryOp::ABS, UnaryOp::NEG, UnaryOp::CLAMP}) {
    Command cmd = makeCommand(Opcode::VEC_UNARY);
    cmd.op = static_cast<uint8_t>(op);
    cmd.minV = -50;
    cmd.maxV = 70;
    auto got = runVec(cmd, bytesOf(in), DType::I8, h, w, c, DType::I8, h, w);
    for (size_t i = 0; i < n; ++i) {
      int x = in[i];
      int want = op == UnaryOp::ABS   ? std::min(127, std::abs(x))
                 : op == UnaryOp::NEG ? std::min(127, -x)
                                      : std::clamp(x, -50, 70);
      ASSERT_EQ(int8_t(got[i]), want) << "op " << int(op) << " x " << x;
    }
  }
  // Conversions between every pair of dtypes.
  auto f16 = randomF16(rng, n);
  std::vector<int32_t> i32(n);
  for (auto &v : i32)
    v = static_cast<int32_t>(rng()) >> randInt(rng, 0, 20);
  std::vector<float> f32(n);
  for (size_t i = 0; i < n; ++i)
    f32[i] = ref::halfToFloat(f16[i]) * 1000.5f;
  f32[1] = 65520.0f; // Rounds to infinity in fp16.
  f32[2] = 65519.0f; // Rounds to 65504.
  f32[3] = 3e9f;     // Saturates in i32.
  f32[4] = 2.5f;     // Ties to even: 2.
  for (int from = 0; from < kNumDTypes; ++from)
    for (int to = 0; to < kNumDTypes; ++to) {
      DType df = DType(from), dt = DType(to);
      std::vector<uint8_t> inBytes = df == DType::I8    ? bytesOf(in)
                                     : df == DType::I32 ? bytesOf(i32)
                                     : df == DType::F16 ? bytesOf(f16)
                                                        : bytesOf(f32);
      Command cmd = makeCommand(Opcode::VEC_UNARY);
      cmd.op = static_cast<uint8_t>(UnaryOp::CONVERT);
      auto got = runVec(cmd, inBytes, df, h, w, c, dt, h, w);
      for (size_t i = 0; i < n; ++i) {
        // Independent expectation: through double.
        double x = df == DType::I8    ? double(in[i])
                   : df == DType::I32 ? double(i32[i])
                   : df == DType::F16 ? double(ref::halfToFloat(f16[i]))
                                      : double(f32[i]);
        bool isInt = dt == DType::I8 || dt == DType::I32;
        bool fromInt = df == DType::I8 || df == DType::I32;
        if (isInt) {
          double lo = dt == DType::I8 ? -128 : -2147483648.0;
          double hi = dt == DType::I8 ? 127 : 2147483647.0;
          double r = std::isnan(x) ? 0 : std::nearbyint(x);
          r = std::min(std::max(r, lo), hi);
          int64_t g = dt == DType::I8 ? valuesOf<int8_t>(got, i, 1)[0]
                                      : valuesOf<int32_t>(got, i * 4, 1)[0];
          ASSERT_EQ(g, int64_t(r))
              << dtypeName(df) << "->" << dtypeName(dt) << " x=" << x;
        } else {
          float asF32 = fromInt ? static_cast<float>(x) : float(x);
          if (dt == DType::F16) {
            ASSERT_EQ(valuesOf<uint16_t>(got, i * 2, 1)[0],
                      ref::floatToHalf(asF32))
                << dtypeName(df) << "->f16 x=" << x;
          } else {
            ASSERT_TRUE(sameFloat(valuesOf<float>(got, i * 4, 1)[0], asF32))
                << dtypeName(df) << "->f32 x=" << x;
          }
        }
      }
    }
}

//===----------------------------------------------------------------------===//
// DMA
//===----------------------------------------------------------------------===//

TEST(NPUKernels, DmaStridedCopyPaddingFillAndLmemSource) {
  std::mt19937 rng(555);
  std::vector<uint8_t> src(4096);
  for (auto &b : src)
    b = static_cast<uint8_t>(rng());
  TestStream s;
  uint32_t inOff = s.addInput(src);
  uint32_t act = lmem(LmemRegion::ACT);
  // 3-D gather: runs of 5 bytes, padded to 16 with 0xAB.
  Command load = makeCommand(Opcode::DMA_LOAD);
  load.region = 2;
  load.src = inOff + 3;
  load.dst = act;
  load.srcRun = 5;
  load.dstRun = 16;
  load.pad = 0xab;
  load.n[0] = 4;
  load.n[1] = 3;
  load.n[2] = 2;
  load.srcStride[0] = 7;
  load.srcStride[1] = 50;
  load.srcStride[2] = 400;
  load.dstStride[0] = 16;
  load.dstStride[1] = 64;
  load.dstStride[2] = 192;
  s.push(load);
  Command fill = makeCommand(Opcode::DMA_FILL);
  fill.dst = act + 1024;
  fill.bytes = 64;
  fill.pattern = 0x11223344;
  s.push(fill);
  s.fence();
  // LMEM -> LMEM copy of the gathered block.
  Command copy = makeCommand(Opcode::DMA_LOAD);
  copy.flags = flags::kLmemSource;
  copy.src = act;
  copy.dst = act + 2048;
  copy.srcRun = copy.dstRun = 384;
  copy.n[0] = copy.n[1] = copy.n[2] = 1;
  s.push(copy);
  s.fence();
  uint32_t outOff = s.addOutput(384 + 64);
  Command store = makeCommand(Opcode::DMA_STORE);
  store.region = 3;
  store.src = act + 2048;
  store.dst = outOff;
  store.srcRun = 384;
  store.n[0] = store.n[1] = store.n[2] = 1;
  s.push(store);
  Command store2 = store;
  store2.src = act + 1024;
  store2.dst = outOff + 384;
  store2.srcRun = 64;
  s.push(store2);
  auto out = runStream(s);
  ASSERT_GE(out.size(), outOff + 448u);
  for (int i2 = 0; i2 < 2; ++i2)
    for (int i1 = 0; i1 < 3; ++i1)
      for (int i0 = 0; i0 < 4; ++i0)
        for (int b = 0; b < 16; ++b) {
          uint8_t want =
              b < 5 ? src[3 + i2 * 400 + i1 * 50 + i0 * 7 + b] : 0xab;
          ASSERT_EQ(out[outOff + i2 * 192 + i1 * 64 + i0 * 16 + b], want);
        }
  for (int i = 0; i < 64; i += 4)
    EXPECT_EQ(valuesOf<uint32_t>(out, outOff + 384 + i, 1)[0], 0x11223344u);
}

} // namespace
} // namespace kiln::npu::test
