//===- ConvLowering.cpp - npu convolutions to npuhw commands ----*- C++ -*-===//
//
// Per band of output rows: one input load (halo rows included, the image
// border padded by the MAC padding fields, channels padded to 16 with the
// input zero point), then per output-channel group an optional weight load,
// the MAC into ACC and the requantisation into the band's output buffer; one
// store per band. fp16 layers (docs/npu-lowering.md, "fp16 layers") preload
// each group's accumulators with the f32 biases (an LMEM-to-LMEM DMA_LOAD
// that repeats the bias vector kept in ACT over every pixel), accumulate the
// MAC onto them, and convert to f16 (VEC_UNARY CONVERT, then CLAMP in place)
// instead of requantising. Every stage has two buffers used alternately; the
// tokens carry the read-after-write and write-after-read dependencies between
// the stages, so DMA overlaps MAC and VEC once npuhw-assign-semaphores has
// turned them into waits.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/ConvLowering.h"
#include "conversions/NPUToNPUHW/LoweringUtils.h"


#include <algorithm>
#include <cstring>
#include <numeric>

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;
using npu::LmemRegion;

namespace {
/// Sizes derived from a layer and a band height.
struct Geometry {
  int64_t cib, cob, blockWeights, allWeights;
  /// Bytes of ACT holding the f32 bias vector (fp16 with a bias), else 0.
  int64_t biasBytes;
  /// The last output block's weights in DRAM: rows of 16 output lanes
  /// (16 per 16x16 block, or one per depthwise tap) keep only the lastCols
  /// = cout % 16 lanes that exist (0: the block is whole), the DMA pads
  /// them back to 16 in WGT. lastBlockDram is that block's DRAM bytes.
  int64_t lastCols, rowsPerRun, runGroups, lastBlockDram;
  explicit Geometry(const ConvLayer &l) {
    const int64_t es = l.elementBytes();
    cib = (l.cin + 15) / 16;
    cob = (l.cout + 15) / 16;
    blockWeights = (l.depthwise ? l.kh * l.kw * 16 : l.kh * l.kw * cib * 256) *
                   es;
    allWeights = blockWeights * cob;
    biasBytes = l.fp16 && !l.biasF32.empty() ? cob * 64 : 0;
    lastCols = l.compactLastBlock ? l.cout % 16 : 0;
    rowsPerRun = l.depthwise ? l.kh * l.kw : 16;
    runGroups = l.depthwise ? 1 : l.kh * l.kw * cib;
    lastBlockDram =
        lastCols ? rowsPerRun * runGroups * lastCols * es : blockWeights;
  }
};

/// The rows a DRAM offset of whole rows of \p rowBytes bytes must be a
/// multiple of to be 16-byte aligned (npuhw.view requires aligned DRAM
/// views, although the ISA does not).
int64_t rowAlignment(int64_t rowBytes) {
  return 16 / std::gcd<int64_t>(rowBytes, 16);
}

/// The rows of the layer's window.
RowWindow rowWindow(const ConvLayer &l) { return {l.kh, l.sy, l.dy, l.pt}; }

/// Input rows an output band of \p rows rows reads, capped at the image,
/// plus the leading rows an input load may add to start aligned (not for a
/// packed input, whose pieces start anywhere in a row).
int64_t inputRows(const ConvLayer &l, int64_t rows) {
  return bandInputRows(rowWindow(l), l.h, rows) +
         (l.packed() ? 0 : rowAlignment(l.w * l.cin * l.elementBytes()) - 1);
}

/// The input rows of output rows [y0, y0 + rows) and their padding.
BandRows convBandRows(const ConvLayer &l, int64_t y0, int64_t rows) {
  return npu_to_npuhw::bandRows(rowWindow(l), l.h, y0, rows);
}

/// The first input rows of the band of output rows from \p y0 (\p rows)
/// that the band of \p R rows before it, in the same image, loaded too
/// (its halo): they are copied from that band's input buffer instead of
/// read from DRAM again when the tiling says so (ConvTiling::copyHalo).
/// None for the first band of an image, a packed
/// input, an input kept in LMEM (resident or in a cascade's ring: no DRAM
/// traffic to save) or rows that are not 16-byte multiples (a load may
/// then start early for alignment).
int64_t haloRows(const ConvLayer &l, const ConvTiling &t,
                 const ConvPlacement &p, int64_t y0, const BandRows &rows) {
  const int64_t R = t.rowsPerBand;
  if (!t.copyHalo || y0 == 0 || l.packed() || p.inputRegion == kResidentRegion ||
      p.inputRegion == kCascadeRegion ||
      rowAlignment(l.w * l.cin * l.elementBytes()) != 1 || !rows.count())
    return 0;
  const BandRows prev = convBandRows(l, y0 - R, R);
  if (!prev.count() || rows.first < prev.first)
    return 0;
  return std::max<int64_t>(0, std::min(prev.last, rows.last) - rows.first + 1);
}
} // namespace

std::vector<uint8_t> npu_to_npuhw::packF16ConvWeights(
    const std::vector<uint8_t> &hwio, int64_t kh, int64_t kw, int64_t cin,
    int64_t cout) {
  std::vector<uint8_t> packed =
      npu::packConvWeights(hwio, kh, kw, cin, cout, /*esize=*/2);
  if (cin % 16 == 0)
    return packed;
  const int64_t cib = (cin + 15) / 16, cob = (cout + 15) / 16;
  // Blocks [cob][kh][kw][cib][16 ci][16 co]; the last input block's rows
  // ci >= cin % 16 are padding.
  for (int64_t block = cib - 1; block < cob * kh * kw * cib; block += cib)
    for (int64_t ci = cin % 16; ci < 16; ++ci)
      for (int64_t co = 0; co < 16; ++co)
        packed[(block * 256 + ci * 16 + co) * 2 + 1] = 0x80;
  return packed;
}

void npu_to_npuhw::chooseCompactWeights(ConvLayer &l,
                                        const npu::TargetConfig &config) {
  l.compactLastBlock =
      npu::compactWeightSaving(config, Geometry(l).blockWeights, l.cout) > 0;
}

std::vector<uint8_t> npu_to_npuhw::dramWeights(const ConvLayer &l) {
  Geometry g(l);
  if (!g.lastCols)
    return l.packedWeights;
  const int64_t es = l.elementBytes(), row = 16 * es;
  const int64_t base = (g.cob - 1) * g.blockWeights;
  std::vector<uint8_t> bytes(l.packedWeights.begin(),
                             l.packedWeights.begin() + base);
  for (int64_t r = 0; r < g.rowsPerRun * g.runGroups; ++r) {
    auto first = l.packedWeights.begin() + base + r * row;
    bytes.insert(bytes.end(), first, first + g.lastCols * es);
  }
  return bytes;
}

std::vector<uint8_t> npu_to_npuhw::packLayerParams(const ConvLayer &l) {
  if (!l.fp16)
    return npu::packChannelRecords(l.records);
  std::vector<uint8_t> bytes;
  if (l.biasF32.empty())
    return bytes;
  bytes.assign(Geometry(l).cob * 64, 0);
  std::memcpy(bytes.data(), l.biasF32.data(), l.biasF32.size() * 4);
  return bytes;
}

void npu_to_npuhw::packWeights(ConvLayer &l) {
  if (l.depthwise)
    l.packedWeights = npu::packDepthwiseWeights(l.hwio, l.kh, l.kw, l.cout,
                                                l.elementBytes());
  else if (l.fp16)
    l.packedWeights = packF16ConvWeights(l.hwio, l.kh, l.kw, l.cin, l.cout);
  else
    l.packedWeights =
        npu::packConvWeights(l.hwio, l.kh, l.kw, l.cin, l.cout, 1);
}

//===----------------------------------------------------------------------===//
// Small input channels
//===----------------------------------------------------------------------===//
//
// A convolution over C input channels fills C of the 16 lanes of every input
// block, so the array does 16 / C times the useful work. Packed, packed
// pixel ox of input row iy holds the window X[iy][sx*ox .. sx*ox + kw) of
// output column ox, kw * C lanes, and the layer becomes the kh x 1
// convolution (stride sy, the same rows and padding) of the packed image of
// ow pixels, with the weights re-packed to match: kh * ceil(kw*C/16) weight
// blocks per output block instead of kh * kw.
//
// The pieces load the windows from DRAM exactly, without a lane of real
// data facing a zero weight (fp16 would turn an infinite input into NaN and
// a -0.0 sum into +0.0): LMEM addresses and strides are whole 16-byte
// units, so every run starts a 16-byte chunk of its pixel, and DRAM runs
// cost whole 64-byte bursts unless each begins where the previous ended.
// So each piece reads the rows contiguously:
// - sx divides kw: one piece per phase u < kw/sx, whose runs are whole
//   windows of the output columns u, u + kw/sx, ... (windows of those
//   columns tile the row);
// - otherwise pieces of sx columns (chunk k holds window columns
//   [k*sx, k*sx + sx)) and a last one of r = kw mod sx columns that
//   reads the sx/r runs of each stride in turn into the same lanes
//   (dst_s0 = 0), the last one, its own, staying.
// A window column right of the image is padding: a piece whose columns all
// lie there is not loaded for that output column, and the buffers hold
// the pad value from one DMA_FILL each. Left padding, horizontal dilation
// and pieces across the image's right edge are not packed.

namespace {
int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The pieces of \p l's packed input and the lanes they fill, or none.
std::vector<PackPiece> planPieces(const ConvLayer &l, int64_t &lanes) {
  npu::PackWidth width;
  width.depthwise = l.depthwise;
  width.kw = l.kw;
  width.sx = l.sx;
  width.dx = l.dx;
  width.pl = l.pl;
  width.w = l.w;
  width.ow = l.ow;
  width.cin = l.cin;
  width.elementBytes = l.elementBytes();
  return npu::planSmallChannelPieces(width, lanes);
}

/// A rough span of \p l's stream as \p t tiles it: the busiest of the MAC
/// (every command), DMA_IN (setup, DRAM latency and transfer of every load;
/// LMEM-to-LMEM copies of a resident input) and the DRAM port (the
/// transfers of the loads and of the stores).
int64_t roughCycles(const ConvLayer &l, const ConvTiling &t,
                    const npu::TargetConfig &c, bool residentInput) {
  Geometry g(l);
  const int64_t es = l.elementBytes(), f = l.fp16 ? 2 : 1;
  const int64_t latency = c.dmaSetupCycles + c.dmaDramLatency,
                bw = c.dmaDramBytesPerCycle;
  const int64_t groups = ceilDiv(g.cob, t.blocksPerGroup);
  int64_t mac = 0, dma = 0, port = 0;
  auto load = [&](int64_t bytes) {
    dma += latency + ceilDiv(bytes, bw);
    port += ceilDiv(bytes, bw);
  };
  if (!t.streamWeights)
    load(g.allWeights - g.blockWeights + g.lastBlockDram);
  for (int64_t img = 0; img < l.n; ++img)
    for (int64_t y0 = 0; y0 < l.oh; y0 += t.rowsPerBand) {
      const int64_t rb = std::min(t.rowsPerBand, l.oh - y0);
      const int64_t rows = convBandRows(l, y0, rb).count();
      if (l.packed()) {
        for (const PackPiece &p : l.pieces)
          if (p.count)
            load(rows * l.srcW * l.srcC * es);
      } else if (residentInput) {
        dma += c.dmaSetupCycles +
               ceilDiv(rows * l.w * g.cib * 16 * es, c.dmaLmemBytesPerCycle);
      } else {
        load(rows * l.w * l.cin * es);
      }
      for (int64_t gi = 0; gi < groups; ++gi) {
        const int64_t gn = std::min(t.blocksPerGroup,
                                    g.cob - gi * t.blocksPerGroup);
        if (t.streamWeights)
          load(gn * g.blockWeights);
        mac += c.macSetupCycles + c.macPipelineLatency +
               f * l.kh * l.kw * g.cib * gn *
                   std::max<int64_t>(rb * l.ow, c.macWeightLoadCycles);
      }
      port += ceilDiv(rb * l.ow * l.cout * es, bw);
    }
  // Packed, a resident input goes through DRAM: its producer stores it.
  if (l.packed() && residentInput)
    port += ceilDiv(l.n * l.h * l.srcW * l.srcC * es, bw);
  return std::max({mac, dma, port});
}
} // namespace

bool npu_to_npuhw::packSmallChannels(ConvLayer &l,
                                     const npu::TargetConfig &config,
                                     const TilingLimits &limits,
                                     bool residentInput) {
  int64_t lanes = 0;
  std::vector<PackPiece> pieces = planPieces(l, lanes);
  if (pieces.empty())
    return false;
  const int64_t es = l.elementBytes(), c = l.cin;
  ConvLayer p = l;
  p.pieces = pieces;
  p.srcW = l.w;
  p.srcC = l.cin;
  p.srcSx = l.sx;
  p.w = l.ow;
  p.cin = lanes;
  p.kw = p.sx = p.dx = 1;
  p.pl = p.pr = 0;
  // HWIO [kh][1][lanes][cout]: lane piece.lane + j*C + ci faces window
  // column piece.col + j; every other lane a zero weight (fp16 -0.0, as
  // packF16ConvWeights gives padding lanes).
  p.hwio.assign(l.kh * lanes * l.cout * es, 0);
  if (l.fp16)
    for (size_t i = 1; i < p.hwio.size(); i += 2)
      p.hwio[i] = 0x80;
  for (const PackPiece &piece : pieces)
    for (int64_t ky = 0; ky < l.kh; ++ky)
      for (int64_t j = 0; j < piece.cols; ++j)
        for (int64_t ci = 0; ci < c; ++ci) {
          const int64_t kx = piece.col + j, lane = piece.lane + j * c + ci;
          std::memcpy(&p.hwio[((ky * lanes + lane) * l.cout) * es],
                      &l.hwio[(((ky * l.kw + kx) * c + ci) * l.cout) * es],
                      l.cout * es);
        }
  packWeights(p);
  ConvTiling plain, packed;
  std::string why;
  if (!chooseTiling(l, config, limits, plain, why) ||
      !chooseTiling(p, config, limits, packed, why) ||
      roughCycles(p, packed, config, residentInput) >=
          roughCycles(l, plain, config, residentInput))
    return false;
  l = std::move(p);
  return true;
}

bool npu_to_npuhw::chooseTiling(const ConvLayer &l,
                                const npu::TargetConfig &config,
                                const TilingLimits &limits, ConvTiling &t,
                                std::string &why) {
  Geometry g(l);
  const int64_t actSize = config.regionSize(LmemRegion::ACT),
                wgtSize = config.regionSize(LmemRegion::WGT),
                accSize = config.regionSize(LmemRegion::ACC),
                prmSize = config.regionSize(LmemRegion::PARAM);
  const int64_t es = l.elementBytes();
  if (!l.fp16 && g.cob * 256 > prmSize) {
    why = "the records of " + std::to_string(l.cout) +
          " output channels need " + std::to_string(g.cob * 256) +
          " bytes of LMEM.PARAM (" + std::to_string(prmSize) + ")";
    return false;
  }
  auto actBytes = [&](int64_t r) {
    return 2 * es *
               (inputRows(l, r) * l.w * g.cib * 16 + r * l.ow * g.cob * 16) +
           g.biasBytes;
  };
  auto accGroups = [&](int64_t r) { return accSize / (2 * r * l.ow * 64); };
  // Every band must read at least one image row.
  auto bandsRead = [&](int64_t r) {
    for (int64_t y0 = 0; y0 < l.oh; y0 += r) {
      BandRows b = convBandRows(l, y0, std::min(r, l.oh - y0));
      if (b.last < b.first)
        return false;
    }
    return true;
  };
  // Every band's store must start 16-byte aligned in DRAM: bands are a
  // multiple of `step` rows (or the whole image), and images must be too.
  const int64_t step = rowAlignment(l.ow * l.cout * es);
  if (l.n > 1 && (l.oh * l.ow * l.cout * es) % 16) {
    why = "an output image of " + std::to_string(l.oh * l.ow * l.cout * es) +
          " bytes leaves the next image's stores unaligned in DRAM";
    return false;
  }
  int64_t top = l.oh;
  if (limits.maxRowsPerBand)
    top = std::min(top, std::max(limits.maxRowsPerBand, step));
  int64_t rows = 0;
  for (int64_t r = top; r >= 1 && !rows; --r)
    if ((r % step == 0 || r == l.oh) && actBytes(r) <= actSize &&
        accGroups(r) >= 1 && bandsRead(r))
      rows = r;
  if (!rows) {
    int64_t r = std::min(step, l.oh);
    if (!bandsRead(r))
      why = "an output row reads only padding";
    else
      why = "two buffers of " + std::to_string(r) + " output row(s) (" +
            std::to_string(actBytes(r)) + " bytes of LMEM.ACT, " +
            std::to_string(2 * r * l.ow * 64) +
            " bytes of LMEM.ACC) exceed the target's " +
            std::to_string(actSize) + " and " + std::to_string(accSize);
    return false;
  }
  t.rowsPerBand = rows;
  t.streamWeights = g.allWeights > wgtSize;
  int64_t blocks = std::min(g.cob, accGroups(rows));
  if (t.streamWeights) {
    // One buffer (each load waits for the MAC before it) when two buffers
    // of one output block's weights do not fit.
    if (2 * g.blockWeights > wgtSize)
      t.weightBuffers = 1;
    blocks = std::min(blocks, wgtSize / (t.weightBuffers * g.blockWeights));
  }
  if (limits.maxBlocksPerGroup)
    blocks = std::min(blocks, limits.maxBlocksPerGroup);
  if (blocks < 1) {
    why = "the weights of one output channel block (" +
          std::to_string(g.blockWeights) + " bytes) exceed LMEM.WGT (" +
          std::to_string(wgtSize) + ")";
    return false;
  }
  t.blocksPerGroup = blocks;
  // Halo copies pay when the layer waits on DRAM: its traffic with every
  // band's halo rows read again outlasts its MAC work. A MAC-bound layer
  // keeps its loads (a copy inside ACT takes the whole ACT port for its
  // cycles, which the MAC then waits for).
  int64_t inputBytes = 0, bands = 0;
  for (int64_t y0 = 0; y0 < l.oh; y0 += rows, ++bands)
    inputBytes += convBandRows(l, y0, std::min(rows, l.oh - y0)).count() *
                  l.w * l.cin * es;
  const int64_t dram =
      l.n * (inputBytes + l.oh * l.ow * l.cout * es) +
      g.allWeights * (t.streamWeights ? l.n * bands : 1);
  const int64_t f = l.fp16 ? 2 : 1, pixels = l.n * l.oh * l.ow;
  const int64_t mac =
      l.depthwise
          ? f * ((pixels * 16 * g.cob * l.kh * l.kw +
                  config.macRows * config.macCols / 8 - 1) /
                 (config.macRows * config.macCols / 8))
          : f * l.kh * l.kw * ((16 * g.cib + config.macRows - 1) /
                               config.macRows) *
                ((16 * g.cob + config.macCols - 1) / config.macCols) * pixels;
  t.copyHalo = dram > mac * static_cast<int64_t>(config.dmaDramBytesPerCycle);
  return true;
}


SmallVector<Value> npu_to_npuhw::emitConvCommands(OpBuilder &builder,
                                                  Location loc,
                                                  const ConvLayer &l,
                                                  const ConvTiling &t,
                                                  const ConvPlacement &p) {
  using npuhw::LmemRegion;
  CommandEmitter e(builder, loc);
  Geometry g(l);
  const int64_t R = t.rowsPerBand, G = t.blocksPerGroup, bw = g.blockWeights;
  const int64_t inRowsMax = inputRows(l, R), es = l.elementBytes();
  Type act = l.fp16 ? e.f16 : e.i8, accType = l.fp16 ? e.f32 : e.i32;

  Value inBuf[2], outBuf[2], accBuf[2], wgtBuf[2], wgtAll;
  for (int i = 0; i < 2; ++i) {
    inBuf[i] = e.alloc({inRowsMax, l.w, g.cib, 16}, act, LmemRegion::act);
    outBuf[i] = e.alloc({R, l.ow, g.cob, 16}, act, LmemRegion::act);
    accBuf[i] = e.alloc({R, l.ow, G, 16}, accType, LmemRegion::acc);
    if (t.streamWeights && i < t.weightBuffers)
      wgtBuf[i] = e.alloc({G * bw}, e.i8, LmemRegion::wgt);
  }
  // int8: the records in PARAM. fp16: the f32 biases in ACT, the source of
  // the accumulator preloads.
  Value params, paramsLoaded, biases, biasesLoaded;
  if (!l.fp16) {
    params = e.alloc({g.cob * 256}, e.i8, LmemRegion::param);
    paramsLoaded = e.loadBytes(e.dram(0, p.recordOffset, g.cob * 256), params,
                               g.cob * 256, p.after);
  } else if (g.biasBytes) {
    biases = e.alloc({g.cob * 16}, e.f32, LmemRegion::act);
    biasesLoaded = e.loadBytes(e.dram(0, p.recordOffset, g.biasBytes), biases,
                               g.biasBytes, p.after);
  }
  // Loads the weights of output blocks [b0, b0 + n) into \p dst: whole
  // blocks as one run, a partial last block (Geometry::lastCols) as rows
  // padded back to 16 lanes by a second DMA_LOAD on the same engine, which
  // completes after the first: its token stands for both.
  auto loadWeights = [&](int64_t b0, int64_t n, Value dst,
                         ArrayRef<Value> deps) {
    const bool partial = g.lastCols && b0 + n == g.cob;
    const int64_t whole = partial ? n - 1 : n;
    Value loaded;
    if (whole)
      loaded = e.loadBytes(
          e.dram(0, p.weightOffset + b0 * bw, whole * bw),
          e.slice(dst, {0}, {whole * bw}), whole * bw, deps);
    if (!partial)
      return loaded;
    const int64_t es = l.elementBytes(), cols = g.lastCols * es;
    return e.command(
        "npuhw.dma_load",
        {e.dram(0, p.weightOffset + (g.cob - 1) * bw, g.lastBlockDram),
         e.slice(dst, {whole * bw}, {bw})},
        deps,
        {{"src_run", cols},
         {"dst_run", 16 * es},
         {"n0", g.rowsPerRun},
         {"n1", g.runGroups},
         {"n2", 1},
         {"src_s0", cols},
         {"src_s1", g.rowsPerRun * cols},
         {"dst_s0", 16 * es},
         {"dst_s1", g.rowsPerRun * 16 * es}});
  };
  Value weightsLoaded;
  if (!t.streamWeights) {
    wgtAll = e.alloc({g.allWeights}, e.i8, LmemRegion::wgt);
    weightsLoaded = loadWeights(0, g.cob, wgtAll, p.after);
  }

  // The last reader or writer of each buffer, for write-after-read edges.
  Value lastMacOnIn[2], lastRequantOnAcc[2], lastStoreOnOut[2],
      lastMacOnWgt[2];
  // The token of the previous band's input (the source of its halo rows).
  Value inLoadedPrev;
  // A packed input whose pieces skip output columns (padding right of the
  // image): both buffers start as the pad value; the pieces never write
  // those lanes. DMA_FILL runs on DMA_IN before the loads.
  if (l.packed() && npu::piecesSkipColumns(l.pieces, l.ow)) {
    const uint32_t pad = l.inZp & 0xff;
    for (int i = 0; i < 2; ++i)
      e.command("npuhw.dma_fill", {inBuf[i]}, p.after,
                {{"pattern", pad * 0x01010101u}});
  }
  SmallVector<Value> stores;
  int64_t band = 0, unit = 0, weightLoad = 0;
  const int64_t groups = (g.cob + G - 1) / G;
  for (int64_t img = 0; img < l.n; ++img) {
    for (int64_t y0 = 0; y0 < l.oh; y0 += R, ++band) {
      const int64_t bi = band % 2, rb = std::min(R, l.oh - y0);
      BandRows rows = convBandRows(l, y0, rb);
      const int64_t n1 = rows.last - rows.first + 1;
      // Start the load up to rowAlignment - 1 rows early (in this image or
      // the one before) so its DRAM address is aligned; the MAC reads from
      // row `lead` of the buffer.
      int64_t row = img * l.h + rows.first, lead = 0;
      while (!l.packed() &&
             (p.inputOffset + (row - lead) * l.w * l.cin * es) % 16)
        ++lead;
      Value inView = e.slice(inBuf[bi], {lead, 0, 0, 0}, {n1, l.w, g.cib, 16});
      SmallVector<Value> inDeps(p.after);
      inDeps.push_back(lastMacOnIn[bi]);
      Value inLoaded;
      if (l.packed()) {
        // One DMA_LOAD per piece, in order on DMA_IN: the last one's token
        // stands for all.
        const int64_t pix = g.cib * 16 * es, srcPix = l.srcC * es;
        for (const PackPiece &pc : l.pieces) {
          if (!pc.count)
            continue;
          const int64_t run = pc.cols * srcPix,
                        s1 = pc.period * l.srcSx * srcPix,
                        s2 = l.srcW * srcPix;
          const int64_t start =
              (row * l.srcW + l.srcSx * pc.phase + pc.col) * srcPix -
              (pc.repeat - 1) * run;
          Value src = e.dram(p.inputRegion, p.inputOffset + start,
                             (n1 - 1) * s2 + (pc.count - 1) * s1 +
                                 pc.repeat * run);
          Value dst = e.slice(inBuf[bi], {0, pc.phase, pc.lane / 16,
                                          pc.lane % 16},
                              {n1, l.w - pc.phase, g.cib - pc.lane / 16,
                               16 - pc.lane % 16});
          inLoaded = e.command("npuhw.dma_load", {src, dst}, inDeps,
                               {{"src_run", run},
                                {"dst_run", pc.lanes * es},
                                {"pad", l.inZp & 0xff},
                                {"n0", pc.repeat},
                                {"n1", pc.count},
                                {"n2", n1},
                                {"src_s0", run},
                                {"src_s1", s1},
                                {"src_s2", s2},
                                {"dst_s1", pc.period * pix},
                                {"dst_s2", l.w * pix}});
        }
      } else {
        // The halo rows the previous band of this image already loaded are
        // copied from its buffer (LMEM to LMEM on DMA_IN, which runs in
        // order: the copy precedes this band's load, and the next load into
        // the other buffer follows it); only the new rows come from DRAM.
        const int64_t halo = haloRows(l, t, p, y0, rows);
        if (halo) {
          const BandRows prev = convBandRows(l, y0 - R, R);
          SmallVector<Value> copyDeps(inDeps);
          copyDeps.push_back(inLoadedPrev);
          inLoaded = e.loadBytes(
              e.slice(inBuf[1 - bi], {rows.first - prev.first, 0, 0, 0},
                      {halo, l.w, g.cib, 16}),
              e.slice(inBuf[bi], {0, 0, 0, 0}, {halo, l.w, g.cib, 16}),
              halo * l.w * g.cib * 16 * es, copyDeps);
        }
        if (halo < n1) {
          const int64_t fresh = lead + n1 - halo;
          Value loaded = e.slice(inBuf[bi], {halo, 0, 0, 0},
                                 {fresh, l.w, g.cib, 16});
          Value src =
              e.dram(p.inputRegion,
                     p.inputOffset + (row + halo - lead) * l.w * l.cin * es,
                     fresh * l.w * l.cin * es);
          // fp16 pads channels with +0.0 (pad byte 0; inZp is 0).
          inLoaded = e.command(
              "npuhw.dma_load", {src, loaded}, inDeps,
              {{"src_run", l.cin * es},
               {"dst_run", g.cib * 16 * es},
               {"pad", l.inZp & 0xff},
               {"n0", l.w},
               {"n1", fresh},
               {"n2", 1},
               {"src_s0", l.cin * es},
               {"src_s1", l.w * l.cin * es},
               {"dst_s0", g.cib * 16 * es},
               {"dst_s1", l.w * g.cib * 16 * es}});
        }
      }
      inLoadedPrev = inLoaded;
      Value requant;
      for (int64_t gi = 0; gi < groups; ++gi, ++unit) {
        const int64_t ai = unit % 2, gb0 = gi * G,
                      gn = std::min(G, g.cob - gb0);
        Value weights, weightsReady = weightsLoaded;
        int64_t wi = weightLoad % t.weightBuffers;
        if (t.streamWeights) {
          weights = e.slice(wgtBuf[wi], {0}, {gn * bw});
          SmallVector<Value> wDeps(p.after);
          wDeps.push_back(lastMacOnWgt[wi]);
          weightsReady = loadWeights(gb0, gn, weights, wDeps);
        } else {
          weights = e.slice(wgtAll, {gb0 * bw}, {gn * bw});
        }
        Value macIn = l.depthwise ? e.slice(inBuf[bi], {lead, 0, gb0, 0},
                                            {n1, l.w, gn, 16})
                                  : inView;
        Value acc = e.slice(accBuf[ai], {0, 0, 0, 0}, {rb, l.ow, gn, 16});
        // fp16 with a bias: every pixel of the accumulators starts as the
        // group's biases (source strides 0), and the MAC accumulates.
        Value preload;
        if (biases)
          preload = e.command("npuhw.dma_load",
                              {e.slice(biases, {gb0 * 16}, {gn * 16}), acc},
                              {biasesLoaded, lastRequantOnAcc[ai]},
                              {{"src_run", gn * 64},
                               {"dst_run", gn * 64},
                               {"n0", l.ow},
                               {"n1", rb},
                               {"n2", 1},
                               {"dst_s0", G * 64},
                               {"dst_s1", l.ow * G * 64}});
        Value mac = e.command(
            l.depthwise ? "npuhw.mac_dwconv" : "npuhw.mac_conv",
            {macIn, weights, acc},
            {inLoaded, weightsReady, preload ? preload : lastRequantOnAcc[ai]},
            {{"kh", l.kh},
             {"kw", l.kw},
             {"sy", l.sy},
             {"sx", l.sx},
             {"dy", l.dy},
             {"dx", l.dx},
             {"pt", rows.padTop},
             {"pb", rows.padBottom},
             {"pl", l.pl},
             {"pr", l.pr},
             {"in_zp", l.inZp}},
            preload ? ArrayRef<StringRef>{"accumulate"}
                    : ArrayRef<StringRef>{});
        lastMacOnIn[bi] = mac;
        if (t.streamWeights) {
          lastMacOnWgt[wi] = mac;
          ++weightLoad;
        }
        Value out = e.slice(outBuf[bi], {0, 0, gb0, 0}, {rb, l.ow, gn, 16});
        Value outFree = gi == 0 ? lastStoreOnOut[bi] : Value();
        if (l.fp16) {
          // f32 -> f16 (round to nearest even), then the clamp in place with
          // the bounds as fp16 bit patterns.
          requant = e.unary(npuhw::UnaryOp::convert, acc, out, {mac, outFree},
                            {});
          lastRequantOnAcc[ai] = requant;
          if (l.hasClamp)
            requant = e.unary(npuhw::UnaryOp::clamp, out, out, {requant},
                              {{"min", static_cast<int16_t>(l.clampMinF16)},
                               {"max", static_cast<int16_t>(l.clampMaxF16)}});
          continue;
        }
        Value records = e.slice(params, {gb0 * 256}, {gn * 256});
        requant = e.command(
            "npuhw.vec_requant", {acc, records, out},
            {mac, paramsLoaded, outFree},
            {{"out_zp", l.outZp}, {"min", l.clampMin}, {"max", l.clampMax}},
            {"double_round"}, {1, 1, 0, 1});
        lastRequantOnAcc[ai] = requant;
      }
      Value result = e.slice(outBuf[bi], {0, 0, 0, 0}, {rb, l.ow, g.cob, 16});
      Value dst = e.dram(p.outputRegion,
                         p.outputOffset +
                             (img * l.oh + y0) * l.ow * l.cout * es,
                         rb * l.ow * l.cout * es);
      Value store = e.command("npuhw.dma_store", {result, dst}, {requant},
                              {{"src_run", l.cout * es},
                               {"n0", l.ow},
                               {"n1", rb},
                               {"n2", 1},
                               {"src_s0", g.cob * 16 * es},
                               {"src_s1", l.ow * g.cob * 16 * es},
                               {"dst_s0", l.cout * es},
                               {"dst_s1", l.ow * l.cout * es}});
      lastStoreOnOut[bi] = store;
      stores.push_back(store);
    }
  }
  return stores;
}
