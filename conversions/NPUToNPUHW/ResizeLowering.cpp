//===- ResizeLowering.cpp - npu up-sampling to DMA and MAC_DWCONV -*- C++ -*-=//
//
// npu.resize_nearest: per band of input rows (all channels), one DMA_LOAD
// and `sy` DMA_STOREs, each writing one of the band's replicated output
// rows with every pixel repeated `sx` times (source stride 0); the DRAM runs
// of a store are contiguous, so each output row is one burst segment.
//
// npu.resize_bilinear (2x, half-pixel centres): per band of R input rows,
// one DMA_LOAD of the rows it reads (the halo above and below) into the
// interior of an (R+2) x (W+2) buffer, LMEM-to-LMEM copies that repeat the
// image's border rows and columns, then per group of channel blocks four
// MAC_DWCONV with 2x2 kernels (one per output phase (a, b), weights
// {1, 3} x {1, 3} / 16 in their order) whose output views interleave with
// strides 2 in the accumulators, one VEC (int8: VEC_REQUANT with the
// per-tensor record of input scale / (16 output scale); fp16: VEC_UNARY
// CONVERT) into the band's output buffer, and one DMA_STORE per band.
// Buffers alternate between two allocs per stage; tokens carry the data and
// write-after-read dependencies, so DMA overlaps MAC and VEC.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/ResizeLowering.h"
#include "conversions/NPUToNPUHW/LoweringUtils.h"

#include "dialects/NPU/IR/NPUOps.h"
#include "runtime/npu/Verifier.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"

#include <algorithm>

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

namespace {

/// An NHWC input [n][h][w][c] with \p es bytes per element.
struct Image {
  int64_t n = 1, h = 1, w = 1, c = 1, es = 1;
  bool fp16 = false;
  int64_t blocks() const { return (c + 15) / 16; }
  /// Bytes of one pixel in LMEM (channels padded to whole blocks).
  int64_t slot() const { return blocks() * 16 * es; }
};

Image readImage(Value input) {
  auto type = cast<ShapedType>(input.getType());
  Image im;
  im.n = type.getDimSize(0);
  im.h = type.getDimSize(1);
  im.w = type.getDimSize(2);
  im.c = type.getDimSize(3);
  im.es = elementBytes(type);
  im.fp16 = type.getElementType().isF16();
  return im;
}

//===----------------------------------------------------------------------===//
// Nearest
//===----------------------------------------------------------------------===//

FailureOr<SmallVector<Value>> lowerNearest(npu::ResizeNearestOp op,
                                           OpLowering &lowering) {
  const Image im = readImage(op.getInput());
  const int64_t sy = op.getScale()[0], sx = op.getScale()[1];
  const int64_t act = lowering.config.regionSize(npu::LmemRegion::ACT);
  const int64_t slot = im.slot(), ow = im.w * sx;
  // Two input buffers of R rows fit ACT; a store moves sx * w * R runs.
  int64_t rows = std::min<int64_t>(im.h, act / (2 * im.w * slot));
  rows = std::min<int64_t>(rows, npu::kMaxRuns / (uint64_t(im.w) * sx));
  if (lowering.limits.maxRowsPerBand)
    rows = std::min(rows, lowering.limits.maxRowsPerBand);
  if (rows < 1)
    return op.emitOpError() << "does not fit LMEM: two buffers of one input "
                               "row ("
                            << 2 * im.w * slot << " bytes) exceed LMEM.ACT ("
                            << act << " bytes)";
  DramPlace input = placeOperand(op, 0, lowering);
  DramPlace output = lowering.results[0];
  CommandEmitter e(lowering.builder, lowering.loc);
  Type element = im.fp16 ? e.f16 : e.i8;
  Value buffers[2];
  for (Value &buffer : buffers)
    buffer = e.alloc({rows, im.w, im.blocks(), 16}, element,
                     npuhw::LmemRegion::act);
  const int64_t pixel = im.c * im.es;
  Value lastStore[2];
  SmallVector<Value> stores;
  int64_t band = 0;
  for (int64_t img = 0; img < im.n; ++img) {
    for (int64_t y0 = 0; y0 < im.h; y0 += rows, ++band) {
      const int64_t bi = band % 2, rb = std::min(rows, im.h - y0);
      Value view =
          e.slice(buffers[bi], {0, 0, 0, 0}, {rb, im.w, im.blocks(), 16});
      Value src = e.dram(input.region,
                         input.offset + (img * im.h + y0) * im.w * pixel,
                         rb * im.w * pixel);
      SmallVector<Value> deps(lowering.after);
      deps.push_back(lastStore[bi]);
      Value load = e.command("npuhw.dma_load", {src, view}, deps,
                             {{"src_run", pixel},
                              {"dst_run", slot},
                              {"n0", im.w},
                              {"n1", rb},
                              {"n2", 1},
                              {"src_s0", pixel},
                              {"src_s1", im.w * pixel},
                              {"dst_s0", slot},
                              {"dst_s1", im.w * slot}});
      // Output row sy*y + a of every input row y of the band: each pixel
      // sx times (source stride 0), then the next pixel, then the next row.
      for (int64_t a = 0; a < sy; ++a) {
        int64_t row = (img * im.h + y0) * sy + a;
        Value dst = e.dram(output.region, output.offset + row * ow * pixel,
                           ((rb - 1) * sy + 1) * ow * pixel);
        Value store = e.command("npuhw.dma_store", {view, dst}, {load},
                                {{"src_run", pixel},
                                 {"n0", sx},
                                 {"n1", im.w},
                                 {"n2", rb},
                                 {"src_s1", slot},
                                 {"src_s2", im.w * slot},
                                 {"dst_s0", pixel},
                                 {"dst_s1", sx * pixel},
                                 {"dst_s2", sy * ow * pixel}});
        lastStore[bi] = store;
        stores.push_back(store);
      }
    }
  }
  return stores;
}

//===----------------------------------------------------------------------===//
// Bilinear
//===----------------------------------------------------------------------===//

/// Spare rows after a band buffer of \p rows interior rows, so that a DMA
/// operand starting at column 1 spans the strided runs of every row (a
/// memref operand's span is its element count until LMEM is allocated).
int64_t spareRows(int64_t rows, int64_t w) { return (rows + w) / (w + 1); }

/// Rows of the border-replicated band buffer.
int64_t borderRows(int64_t rows, int64_t w) {
  return rows + 2 + spareRows(rows, w);
}

/// The weights of output phase \p phase = 2a + b, tap (ky, kx), out of 16.
int64_t phaseWeight(int64_t phase, int64_t ky, int64_t kx) {
  int64_t a = phase / 2, b = phase % 2;
  int64_t wy = (a == 0) == (ky == 0) ? 1 : 3;
  int64_t wx = (b == 0) == (kx == 0) ? 1 : 3;
  return wy * wx;
}

/// fp16 bits of 1/16, 3/16 and 9/16.
uint16_t halfOfSixteenths(int64_t weight) {
  return weight == 1 ? 0x2c00 : weight == 3 ? 0x3200 : 0x3880;
}

} // namespace

bool npu_to_npuhw::chooseBilinearTiling(int64_t h, int64_t w, int64_t c,
                                        int64_t es,
                                        const npu::TargetConfig &config,
                                        const TilingLimits &limits,
                                        BilinearTiling &t, std::string &why) {
  using npu::LmemRegion;
  const int64_t blocks = (c + 15) / 16, slot = blocks * 16 * es;
  const int64_t act = config.regionSize(LmemRegion::ACT);
  const int64_t acc = config.regionSize(LmemRegion::ACC);
  const int64_t wgt = config.regionSize(LmemRegion::WGT);
  auto actBytes = [&](int64_t rows) {
    return 2 * (borderRows(rows, w) * (w + 2) * slot + 4 * rows * w * slot);
  };
  auto accBlocks = [&](int64_t rows) { return acc / (2 * 4 * rows * w * 64); };
  int64_t top = h;
  if (limits.maxRowsPerBand)
    top = std::min(top, limits.maxRowsPerBand);
  for (int64_t rows = top; rows >= 1; --rows) {
    uint64_t runs = uint64_t(4) * rows * w;
    if (actBytes(rows) > act || accBlocks(rows) < 1 || runs > npu::kMaxRuns ||
        runs * 16 * blocks > npu::kMaxVecWork)
      continue;
    int64_t g = std::min({blocks, accBlocks(rows), wgt / (4 * 64 * es)});
    if (limits.maxBlocksPerGroup)
      g = std::min(g, limits.maxBlocksPerGroup);
    g = std::min<int64_t>(g, npu::kMaxVecWork / (runs * 16));
    if (g < 1)
      continue;
    t.rowsPerBand = rows;
    t.blocksPerGroup = g;
    return true;
  }
  why = "two buffers of a band of one input row with its border and its "
        "output (" +
        std::to_string(actBytes(1)) + " bytes of LMEM.ACT, " +
        std::to_string(act) + " available) or two accumulator buffers of "
        "one channel block (" +
        std::to_string(2 * 4 * w * 64) + " bytes of LMEM.ACC, " +
        std::to_string(acc) + " available) do not fit";
  return false;
}

namespace {

FailureOr<SmallVector<Value>> lowerBilinear(npu::ResizeBilinearOp op,
                                            OpLowering &lowering) {
  using npuhw::LmemRegion;
  const Image im = readImage(op.getInput());
  BilinearTiling t;
  std::string why;
  if (!chooseBilinearTiling(im.h, im.w, im.c, im.es, lowering.config,
                            lowering.limits, t, why))
    return op.emitOpError() << "does not fit LMEM: " << why;
  const int64_t R = t.rowsPerBand, G = t.blocksPerGroup, cb = im.blocks();
  const int64_t w = im.w, h = im.h, es = im.es, slot = im.slot();
  const int64_t pixel = im.c * es, eRows = borderRows(R, w);

  // r0: the 2x2 depthwise weights of each phase for G blocks, then (int8)
  // the per-tensor record {0, multiplier, shift, 0}.
  std::vector<uint8_t> weights;
  for (int64_t phase = 0; phase < 4; ++phase)
    for (int64_t block = 0; block < G; ++block)
      for (int64_t ky = 0; ky < 2; ++ky)
        for (int64_t kx = 0; kx < 2; ++kx)
          for (int lane = 0; lane < 16; ++lane) {
            int64_t weight = phaseWeight(phase, ky, kx);
            if (!im.fp16) {
              weights.push_back(static_cast<uint8_t>(weight));
              continue;
            }
            uint16_t bits = halfOfSixteenths(weight);
            weights.push_back(bits & 0xff);
            weights.push_back(bits >> 8);
          }
  const int64_t phaseBytes = G * 64 * es;
  uint64_t weightOffset = lowering.constants.append(weights);
  int64_t inZp = 0, outZp = 0;
  uint64_t recordOffset = 0;
  if (!im.fp16) {
    auto qi = cast<quant::UniformQuantizedType>(
        op.getInput().getType().getElementType());
    auto qo = cast<quant::UniformQuantizedType>(
        op.getOutput().getType().getElementType());
    inZp = qi.getZeroPoint();
    outZp = qo.getZeroPoint();
    // The npu verifier checked that the multiplier is representable.
    npu::QuantizedMultiplier m =
        *npu::quantizeMultiplier(qi.getScale() / (16 * qo.getScale()));
    int32_t record[4] = {0, m.multiplier, 31 - m.exponent, 0};
    std::vector<uint8_t> bytes;
    for (int32_t word : record)
      for (int i = 0; i < 4; ++i)
        bytes.push_back(static_cast<uint8_t>(uint32_t(word) >> (8 * i)));
    recordOffset = lowering.constants.append(bytes);
  }

  DramPlace input = placeOperand(op, 0, lowering);
  DramPlace output = lowering.results[0];
  CommandEmitter e(lowering.builder, lowering.loc);
  Type element = im.fp16 ? e.f16 : e.i8;
  Type accType = im.fp16 ? e.f32 : e.i32;
  Value border[2], out[2], acc[2];
  for (int i = 0; i < 2; ++i) {
    border[i] = e.alloc({eRows, w + 2, cb, 16}, element, LmemRegion::act);
    out[i] = e.alloc({2 * R, 2 * w, cb, 16}, element, LmemRegion::act);
    acc[i] = e.alloc({2 * R, 2 * w, G, 16}, accType, LmemRegion::acc);
  }
  Value wgt = e.alloc({4 * phaseBytes}, e.i8, LmemRegion::wgt);
  Value wgtLoaded = e.loadBytes(e.dram(kConstRegion, weightOffset, 4 * phaseBytes),
                                wgt, 4 * phaseBytes, lowering.after);
  Value params, paramsLoaded;
  if (!im.fp16) {
    params = e.alloc({16}, e.i8, LmemRegion::param);
    paramsLoaded = e.loadBytes(e.dram(kConstRegion, recordOffset, 16), params,
                               16, lowering.after);
  }
  // An LMEM-to-LMEM copy within a band buffer.
  auto copy = [&](Value src, Value dst, ArrayRef<Value> deps,
                  ArrayRef<std::pair<StringRef, int64_t>> fields) {
    return e.command("npuhw.dma_load", {src, dst}, deps, fields);
  };
  // The band buffer from (row, col) to its end, as a DMA operand.
  auto tail = [&](Value buffer, int64_t row, int64_t col) {
    return e.slice(buffer, {row, col, 0, 0}, {eRows - row, w + 2 - col, cb, 16});
  };

  Value lastMacOnBorder[2], lastVecOnAcc[2], lastStoreOnOut[2];
  SmallVector<Value> stores;
  int64_t band = 0, unit = 0;
  for (int64_t img = 0; img < im.n; ++img) {
    for (int64_t y0 = 0; y0 < h; y0 += R, ++band) {
      const int64_t bi = band % 2, rb = std::min(R, h - y0);
      // Image rows [first, last] go to buffer rows from `row`; buffer row
      // r holds image row y0 - 1 + r (clamped).
      const int64_t first = std::max<int64_t>(y0 - 1, 0);
      const int64_t last = std::min(y0 + rb, h - 1);
      const int64_t count = last - first + 1, row = first - (y0 - 1);
      Value src = e.dram(input.region,
                         input.offset + (img * h + first) * w * pixel,
                         count * w * pixel);
      SmallVector<Value> deps(lowering.after);
      deps.push_back(lastMacOnBorder[bi]);
      Value ready = e.command("npuhw.dma_load",
                              {src, tail(border[bi], row, 1)}, deps,
                              {{"src_run", pixel},
                               {"dst_run", slot},
                               {"n0", w},
                               {"n1", count},
                               {"n2", 1},
                               {"src_s0", pixel},
                               {"src_s1", w * pixel},
                               {"dst_s0", slot},
                               {"dst_s1", (w + 2) * slot}});
      SmallVector<Value> filled = {ready};
      auto copyRow = [&](int64_t from, int64_t to) {
        filled.push_back(copy(
            e.slice(border[bi], {from, 1, 0, 0}, {1, w, cb, 16}),
            e.slice(border[bi], {to, 1, 0, 0}, {1, w, cb, 16}), {ready},
            {{"src_run", w * slot},
             {"dst_run", w * slot},
             {"n0", 1},
             {"n1", 1},
             {"n2", 1}}));
      };
      if (y0 == 0)
        copyRow(1, 0); // Image row 0 above itself.
      if (y0 + rb == h)
        copyRow(rb, rb + 1); // Image row h - 1 below itself.
      // Columns 1 and w to columns 0 and w + 1, on every row of the band.
      ready = copy(tail(border[bi], 0, 1), tail(border[bi], 0, 0), filled,
                   {{"src_run", slot},
                    {"dst_run", slot},
                    {"n0", 2},
                    {"n1", rb + 2},
                    {"n2", 1},
                    {"src_s0", (w - 1) * slot},
                    {"src_s1", (w + 2) * slot},
                    {"dst_s0", (w + 1) * slot},
                    {"dst_s1", (w + 2) * slot}});

      Value vec;
      for (int64_t g0 = 0; g0 < cb; g0 += G, ++unit) {
        const int64_t ai = unit % 2, gn = std::min(G, cb - g0);
        Value mac;
        for (int64_t phase = 0; phase < 4; ++phase) {
          const int64_t a = phase / 2, b = phase % 2;
          Value in = e.slice(border[bi], {a, b, g0, 0}, {rb + 1, w + 1, gn, 16});
          Value kernel = e.slice(wgt, {phase * phaseBytes}, {gn * 64 * es});
          Value dst = memref::SubViewOp::create(
              e.b, e.loc, acc[ai], ArrayRef<int64_t>{a, b, 0, 0},
              ArrayRef<int64_t>{rb, w, gn, 16},
              ArrayRef<int64_t>{2, 2, 1, 1});
          mac = e.command("npuhw.mac_dwconv", {in, kernel, dst},
                          {ready, wgtLoaded, lastVecOnAcc[ai]},
                          {{"kh", 2},
                           {"kw", 2},
                           {"sy", 1},
                           {"sx", 1},
                           {"dy", 1},
                           {"dx", 1},
                           {"in_zp", inZp}});
        }
        lastMacOnBorder[bi] = mac;
        Value sums = e.slice(acc[ai], {0, 0, 0, 0}, {2 * rb, 2 * w, gn, 16});
        Value result =
            e.slice(out[bi], {0, 0, g0, 0}, {2 * rb, 2 * w, gn, 16});
        Value outFree = g0 == 0 ? lastStoreOnOut[bi] : Value();
        if (im.fp16)
          vec = e.unary(npuhw::UnaryOp::convert, sums, result, {mac, outFree},
                        {});
        else
          vec = e.command("npuhw.vec_requant", {sums, params, result},
                          {mac, paramsLoaded, outFree},
                          {{"out_zp", outZp}, {"min", -128}, {"max", 127}},
                          {"per_tensor"}, {1, 1, 0, 1});
        lastVecOnAcc[ai] = vec;
      }
      Value result = e.slice(out[bi], {0, 0, 0, 0}, {2 * rb, 2 * w, cb, 16});
      Value dst = e.dram(output.region,
                         output.offset + (img * h + y0) * 4 * w * pixel,
                         4 * rb * w * pixel);
      Value store = e.command("npuhw.dma_store", {result, dst}, {vec},
                              {{"src_run", pixel},
                               {"n0", 2 * w},
                               {"n1", 2 * rb},
                               {"n2", 1},
                               {"src_s0", slot},
                               {"src_s1", 2 * w * slot},
                               {"dst_s0", pixel},
                               {"dst_s1", 2 * w * pixel}});
      lastStoreOnOut[bi] = store;
      stores.push_back(store);
    }
  }
  return stores;
}

} // namespace

FailureOr<SmallVector<Value>> npu_to_npuhw::lowerResize(Operation *op,
                                                       OpLowering &lowering) {
  if (auto nearest = dyn_cast<npu::ResizeNearestOp>(op))
    return lowerNearest(nearest, lowering);
  return lowerBilinear(cast<npu::ResizeBilinearOp>(op), lowering);
}
