//===- PoolLowering.cpp - npu pooling to VEC_POOL commands ------*- C++ -*-===//
//
// Per band of output rows and group of channel blocks: one DMA_LOAD of the
// band's input rows (the halo shared with the neighbouring bands included,
// channels padded to whole blocks), one VEC_POOL whose padding fields are
// the image border's padding that falls in this band, one DMA_STORE. Input
// and output buffers alternate between two allocs each (one each when two do
// not fit ACT); the tokens carry the read-after-write and write-after-read
// dependencies, so the load of the next unit and the store of the previous
// one overlap the pooling. In a
// function of several ops the first command of each unit also waits for the
// op's `after` tokens.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/PoolLowering.h"
#include "conversions/NPUToNPUHW/LoweringUtils.h"

#include "dialects/NPU/IR/NPUOps.h"
#include "runtime/npu/Verifier.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

namespace {
/// The rows of the layer's window (pooling has no dilation).
RowWindow rowWindow(const PoolLayer &l) { return {l.kh, l.sy, 1, l.pt}; }

int64_t channelBlocks(const PoolLayer &l) { return (l.c + 15) / 16; }

/// Bytes of LMEM.ACT that \p buffers input and output buffers each of a
/// band of \p rows output rows and \p blocks channel blocks take.
int64_t actBytes(const PoolLayer &l, int64_t rows, int64_t blocks,
                 int64_t buffers = 2) {
  int64_t in = bandInputRows(rowWindow(l), l.h, rows) * l.w * blocks * 16 *
               l.inBytes();
  int64_t out = rows * l.ow * blocks * 16 * l.outBytes();
  return buffers * (in + out);
}

/// Whether one VEC_POOL and its DMAs over such a band stay within the
/// ISA's work limits (docs/npu-isa.md §10).
bool withinWorkLimits(const PoolLayer &l, int64_t rows, int64_t blocks) {
  uint64_t work = uint64_t(rows) * l.ow * blocks * 16 * l.kh * l.kw;
  uint64_t runs = uint64_t(bandInputRows(rowWindow(l), l.h, rows)) * l.w;
  return work <= npu::kMaxVecWork && runs <= npu::kMaxRuns &&
         uint64_t(rows) * l.ow <= npu::kMaxRuns;
}

/// The image rows that bands of \p rows output rows load in all.
int64_t loadedRows(const PoolLayer &l, int64_t rows) {
  int64_t total = 0;
  for (int64_t y0 = 0; y0 < l.oh; y0 += rows)
    total +=
        bandRows(rowWindow(l), l.h, y0, std::min(rows, l.oh - y0)).count();
  return total;
}

/// The 32-bit DMA_FILL pattern of an output whose windows hold no image
/// position (docs/npu-isa.md §6, VEC_POOL): int8 MAX -128 and AVG 0, both
/// clamped; fp16 MAX -inf; everything else zero.
uint32_t emptyWindowPattern(const PoolLayer &l) {
  if (l.kind == PoolKind::Sum)
    return 0;
  if (l.fp16)
    return l.kind == PoolKind::Max ? 0xfc00fc00u : 0;
  int64_t v = l.kind == PoolKind::Max ? -128 : 0;
  v = std::min(std::max(v, l.clampMin), l.clampMax);
  return uint32_t(uint8_t(v)) * 0x01010101u;
}
} // namespace

bool npu_to_npuhw::choosePoolTiling(const PoolLayer &l,
                                    const npu::TargetConfig &config,
                                    const TilingLimits &limits, PoolTiling &t,
                                    std::string &why) {
  const int64_t actSize = config.regionSize(npu::LmemRegion::ACT);
  const int64_t cb = channelBlocks(l);
  int64_t topBlocks = cb, topRows = l.oh;
  if (limits.maxBlocksPerGroup)
    topBlocks = std::min(topBlocks, limits.maxBlocksPerGroup);
  if (limits.maxRowsPerBand)
    topRows = std::min(topRows, limits.maxRowsPerBand);
  // Per group width, the tallest band that fits; keep the width that loads
  // the fewest input rows (the halo is loaded again by every band), the
  // widest on ties (longer DMA runs, fewer commands). Double buffers when
  // any tile fits them; single buffers only when none does.
  for (int64_t buffers = 2; buffers >= 1; --buffers) {
    auto fits = [&](int64_t rows, int64_t blocks) {
      return actBytes(l, rows, blocks, buffers) <= actSize &&
             withinWorkLimits(l, rows, blocks);
    };
    int64_t bestLoaded = std::numeric_limits<int64_t>::max();
    for (int64_t blocks = topBlocks; blocks >= 1; --blocks) {
      for (int64_t rows = topRows; rows >= 1; --rows) {
        if (!fits(rows, blocks))
          continue;
        int64_t loaded = loadedRows(l, rows);
        if (loaded < bestLoaded) {
          bestLoaded = loaded;
          t.rowsPerBand = rows;
          t.blocksPerGroup = blocks;
          t.buffers = buffers;
        }
        break;
      }
    }
    if (bestLoaded != std::numeric_limits<int64_t>::max())
      return true;
  }
  why = "one input and one output buffer of 1 output row and 1 channel "
        "block (" +
        std::to_string(actBytes(l, 1, 1, 1)) +
        " bytes) exceed LMEM.ACT (" + std::to_string(actSize) + " bytes)";
  if (!withinWorkLimits(l, 1, 1))
    why = "one output row of one channel block exceeds the VEC_POOL work "
          "limit";
  return false;
}

SmallVector<Value> npu_to_npuhw::emitPoolCommands(OpBuilder &builder,
                                                  Location loc,
                                                  const PoolLayer &l,
                                                  const PoolTiling &t,
                                                  const PoolPlacement &p) {
  using npuhw::LmemRegion;
  CommandEmitter e(builder, loc);
  const int64_t R = t.rowsPerBand, G = t.blocksPerGroup, cb = channelBlocks(l);
  const int64_t inB = l.inBytes(), outB = l.outBytes();
  Type inType = l.fp16 ? e.f16 : e.i8;
  Type outType = l.kind != PoolKind::Sum ? inType : l.fp16 ? e.f32 : e.i32;
  const int64_t inRowsMax = bandInputRows(rowWindow(l), l.h, R);
  const int64_t buffers = t.buffers;
  Value inBuf[2], outBuf[2];
  for (int64_t i = 0; i < buffers; ++i) {
    inBuf[i] = e.alloc({inRowsMax, l.w, G, 16}, inType, LmemRegion::act);
    outBuf[i] = e.alloc({R, l.ow, G, 16}, outType, LmemRegion::act);
  }
  auto op = npuhw::PoolOpAttr::get(e.ctx, l.kind == PoolKind::Max
                                              ? npuhw::PoolOp::max
                                          : l.kind == PoolKind::Avg
                                              ? npuhw::PoolOp::avg
                                              : npuhw::PoolOp::sum);
  // VEC_POOL clamps int8 MAX and AVG only; its other forms need 0, 0.
  const bool clamps = !l.fp16 && l.kind != PoolKind::Sum;
  const int64_t lo = clamps ? l.clampMin : 0, hi = clamps ? l.clampMax : 0;

  // The last command that read each buffer, for write-after-read edges.
  Value lastPoolOnIn[2], lastStoreOnOut[2];
  SmallVector<Value> stores;
  int64_t unit = 0;
  for (int64_t img = 0; img < l.n; ++img) {
    for (int64_t y0 = 0; y0 < l.oh; y0 += R) {
      const int64_t rb = std::min(R, l.oh - y0);
      BandRows rows = bandRows(rowWindow(l), l.h, y0, rb);
      const int64_t n1 = rows.count();
      for (int64_t gb0 = 0; gb0 < cb; gb0 += G, ++unit) {
        const int64_t bi = unit % buffers, gn = std::min(G, cb - gb0);
        const int64_t c0 = gb0 * 16, gc = std::min(l.c - c0, gn * 16);
        Value out = e.slice(outBuf[bi], {0, 0, 0, 0}, {rb, l.ow, gn, 16});
        Value dst = e.dram(
            p.outputRegion,
            p.outputOffset + ((img * l.oh + y0) * l.ow * l.c + c0) * outB,
            ((rb - 1) * l.ow * l.c + (l.ow - 1) * l.c + gc) * outB);
        auto store = [&](Value after) {
          Value s = e.command("npuhw.dma_store", {out, dst}, {after},
                              {{"src_run", gc * outB},
                               {"n0", l.ow},
                               {"n1", rb},
                               {"n2", 1},
                               {"src_s0", G * 16 * outB},
                               {"src_s1", l.ow * G * 16 * outB},
                               {"dst_s0", l.c * outB},
                               {"dst_s1", l.ow * l.c * outB}});
          lastStoreOnOut[bi] = s;
          stores.push_back(s);
        };
        if (n1 == 0) {
          // Every window of the band lies in the padding (padding at least
          // the kernel): VEC_POOL needs an input row, so fill the output
          // with the value of an empty window instead.
          SmallVector<Value> fillDeps(p.after);
          fillDeps.push_back(lastStoreOnOut[bi]);
          Value fill = e.command("npuhw.dma_fill", {outBuf[bi]}, fillDeps,
                                 {{"pattern", emptyWindowPattern(l)}});
          store(fill);
          continue;
        }
        // The band's input rows of this group's channels, each pixel's
        // `gc` channels into a slot of `gn` blocks (the rest is padding).
        Value in = e.slice(inBuf[bi], {0, 0, 0, 0}, {n1, l.w, gn, 16});
        Value src = e.dram(
            p.inputRegion,
            p.inputOffset + ((img * l.h + rows.first) * l.w * l.c + c0) * inB,
            ((n1 - 1) * l.w * l.c + (l.w - 1) * l.c + gc) * inB);
        SmallVector<Value> loadDeps(p.after);
        loadDeps.push_back(lastPoolOnIn[bi]);
        Value loaded = e.command("npuhw.dma_load", {src, in}, loadDeps,
                                 {{"src_run", gc * inB},
                                  {"dst_run", gn * 16 * inB},
                                  {"n0", l.w},
                                  {"n1", n1},
                                  {"n2", 1},
                                  {"src_s0", l.c * inB},
                                  {"src_s1", l.w * l.c * inB},
                                  {"dst_s0", G * 16 * inB},
                                  {"dst_s1", l.w * G * 16 * inB}});
        Value pool = e.command("npuhw.vec_pool", {in, out},
                               {loaded, lastStoreOnOut[bi]},
                               {{"kh", l.kh},
                                {"kw", l.kw},
                                {"sy", l.sy},
                                {"sx", l.sx},
                                {"pt", rows.padTop},
                                {"pb", rows.padBottom},
                                {"pl", l.pl},
                                {"pr", l.pr},
                                {"min", lo},
                                {"max", hi}});
        pool.getDefiningOp()->setAttr("op", op);
        lastPoolOnIn[bi] = pool;
        store(pool);
      }
    }
  }
  return stores;
}

namespace {
/// Fills the window and shapes of a pooling op.
template <typename OpTy>
PoolLayer readPool(OpTy op, PoolKind kind) {
  auto in = cast<ShapedType>(op.getInput().getType());
  auto out = cast<ShapedType>(op.getOutput().getType());
  PoolLayer l;
  l.kind = kind;
  l.fp16 = in.getElementType().isF16();
  l.n = in.getDimSize(0);
  l.h = in.getDimSize(1);
  l.w = in.getDimSize(2);
  l.c = in.getDimSize(3);
  l.oh = out.getDimSize(1);
  l.ow = out.getDimSize(2);
  l.kh = op.getKernel()[0];
  l.kw = op.getKernel()[1];
  l.sy = op.getStride()[0];
  l.sx = op.getStride()[1];
  l.pt = op.getPad()[0];
  l.pb = op.getPad()[1];
  l.pl = op.getPad()[2];
  l.pr = op.getPad()[3];
  // The npu verifier allows clamps on int8 MAX and AVG only.
  if (auto a = op.getClampMinAttr())
    l.clampMin = std::max<int64_t>(-128, a.getInt());
  if (auto a = op.getClampMaxAttr())
    l.clampMax = std::min<int64_t>(127, a.getInt());
  return l;
}
} // namespace

FailureOr<SmallVector<Value>> npu_to_npuhw::lowerPool(Operation *op,
                                                     OpLowering &lowering) {
  PoolLayer layer =
      TypeSwitch<Operation *, PoolLayer>(op)
          .Case([](npu::MaxPool2DOp op) { return readPool(op, PoolKind::Max); })
          .Case([](npu::AvgPool2DOp op) { return readPool(op, PoolKind::Avg); })
          .Case([](npu::SumPool2DOp op) { return readPool(op, PoolKind::Sum); })
          // emitterFor dispatches only the three pooling ops here.
          .Default([](Operation *) { return PoolLayer(); });
  PoolTiling tiling;
  std::string why;
  if (!choosePoolTiling(layer, lowering.config, lowering.limits, tiling, why))
    return op->emitOpError() << "does not fit LMEM: " << why;
  PoolPlacement place;
  DramPlace input = placeOperand(op, 0, lowering);
  place.inputRegion = input.region;
  place.inputOffset = input.offset;
  place.outputRegion = lowering.results[0].region;
  place.outputOffset = lowering.results[0].offset;
  place.after = lowering.after;
  return emitPoolCommands(lowering.builder, lowering.loc, layer, tiling,
                          place);
}
