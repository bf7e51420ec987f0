//===- NPUCostSchedule.cpp - predicted cycles of lowered npu ops -*- C++ -*-===//
//
// The estimate of NPUCostOpInterface: a model of the command schedule that
// convert-npu-to-npuhw emits for an op (docs/npu-lowering.md) - its tiling
// into bands and channel groups, double buffers, one DMA command per load
// and store paying setup, burst-rounded transfer on the shared DRAM port and
// the DRAM latency, MAC and VEC commands paying setup, pipeline latency,
// channel padding to 16-lane blocks and the fp16 rate - replayed in stream
// order on four in-order engines. It does not model LMEM port stalls, the
// fetch unit or FIFO depths, and it decides the tiling with its own copy of
// the lowering's rules (the dialect cannot see the conversion).
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUCost.h"
#include "dialects/NPU/IR/NPUPacking.h"

#include "llvm/ADT/ArrayRef.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

using namespace kiln::npu;

namespace {
uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
int64_t blocksOf(int64_t channels) { return (channels + 15) / 16; }

/// The rows a DRAM offset of whole rows of \p rowBytes bytes must be a
/// multiple of to stay 16-byte aligned (what the lowering keeps).
int64_t rowAlignment(int64_t rowBytes) {
  return 16 / std::gcd<int64_t>(rowBytes, 16);
}

/// Image rows [first, last] output rows [y0, y0 + rows) read.
int64_t bandImageRows(int64_t h, int64_t kh, int64_t sy, int64_t dy,
                      int64_t pt, int64_t y0, int64_t rows) {
  int64_t first = std::max<int64_t>(y0 * sy - pt, 0);
  int64_t last = std::min(h - 1, (y0 + rows - 1) * sy - pt + dy * (kh - 1));
  return std::max<int64_t>(last - first + 1, 0);
}

/// A command of the replay, by its index; 0 is a command that ended at 0
/// ("no dependency").
using Id = size_t;

/// The commands of one op in stream order, each on its engine with its
/// dependencies, then scheduled as the simulator runs them: each engine
/// in order, a command starting when its engine is free and its
/// dependencies have ended, the earliest-ready command first (so the DRAM
/// port is granted first come, first served).
class Replay {
public:
  explicit Replay(const TargetConfig &c) : c(c) { cmds.push_back({}); }

  /// A DRAM transfer of \p bytes (contiguous runs of \p run bytes when
  /// given) on DMA_IN (\p in) or DMA_OUT.
  Id dram(bool in, uint64_t bytes, llvm::ArrayRef<Id> deps, uint64_t run = 0) {
    const uint64_t burst = c.dmaBurstBytes;
    uint64_t moved = run && run < bytes
                         ? ceilDiv(bytes, run) * ceilDiv(run, burst) * burst
                         : ceilDiv(bytes, burst) * burst;
    return add(in ? 0 : 1, 0, ceilDiv(moved, c.dmaDramBytesPerCycle), deps);
  }
  /// An LMEM-to-LMEM copy on DMA_IN.
  Id lmem(uint64_t bytes, llvm::ArrayRef<Id> deps) {
    return add(0, c.dmaSetupCycles + ceilDiv(bytes, c.dmaLmemBytesPerCycle), 0,
               deps);
  }
  Id mac(uint64_t cycles, llvm::ArrayRef<Id> deps) {
    return add(2, c.macSetupCycles + c.macPipelineLatency + cycles, 0, deps);
  }
  Id vec(uint64_t cycles, llvm::ArrayRef<Id> deps) {
    return add(3, c.vecSetupCycles + cycles, 0, deps);
  }

  /// Schedules the commands; returns the span from the first start to the
  /// last end.
  uint64_t span() {
    std::vector<size_t> queue[4];
    for (Id i = 1; i < cmds.size(); ++i)
      queue[cmds[i].engine].push_back(i);
    size_t head[4] = {};
    uint64_t free[4] = {}, port = 0, first = UINT64_MAX, last = 0;
    for (size_t left = cmds.size() - 1; left; --left) {
      int best = -1;
      uint64_t bestReady = UINT64_MAX;
      for (int e = 0; e < 4; ++e) {
        if (head[e] == queue[e].size())
          continue;
        const Cmd &cmd = cmds[queue[e][head[e]]];
        uint64_t ready = free[e];
        bool known = true;
        for (Id d : cmd.deps) {
          known &= cmds[d].done;
          ready = std::max(ready, cmds[d].end);
        }
        if (known && ready < bestReady) {
          best = e;
          bestReady = ready;
        }
      }
      if (best < 0)
        break; // Cannot happen: dependencies point to earlier commands.
      Cmd &cmd = cmds[queue[best][head[best]++]];
      cmd.done = true;
      if (cmd.xfer) {
        uint64_t portStart = std::max(bestReady + c.dmaSetupCycles, port);
        port = portStart + cmd.xfer;
        cmd.end = port + c.dmaDramLatency;
      } else {
        cmd.end = bestReady + cmd.cycles;
      }
      free[best] = cmd.end;
      first = std::min(first, bestReady);
      last = std::max(last, cmd.end);
    }
    return last > first ? last - first : 0;
  }

private:
  struct Cmd {
    int engine = 0;             ///< 0 DMA_IN, 1 DMA_OUT, 2 MAC, 3 VEC.
    uint64_t cycles = 0;        ///< Busy cycles (not DRAM transfers).
    uint64_t xfer = 0;          ///< DRAM port cycles of a DRAM transfer.
    std::vector<Id> deps;
    uint64_t end = 0;
    bool done = true;
  };

  Id add(int engine, uint64_t cycles, uint64_t xfer, llvm::ArrayRef<Id> deps) {
    Cmd cmd;
    cmd.engine = engine;
    cmd.cycles = cycles;
    cmd.xfer = xfer;
    cmd.deps.assign(deps.begin(), deps.end());
    cmd.done = false;
    cmds.push_back(std::move(cmd));
    return cmds.size() - 1;
  }

  const TargetConfig &c;
  std::vector<Cmd> cmds;
};
} // namespace

namespace {
/// The input of a packed layer (NPUPacking.h): its pieces and the DRAM
/// rows they read.
struct PackedInput {
  llvm::ArrayRef<PackPiece> pieces;
  int64_t srcW = 0, srcC = 0, srcSx = 1;
};

/// convScheduleCycles, with the input loaded by the pieces of \p packed
/// when it has any.
uint64_t scheduleConv(const TargetConfig &c, const ConvShape &l,
                      const PackedInput &packed) {
  const int64_t es = l.fp16 ? 2 : 1, f = l.fp16 ? 2 : 1;
  const int64_t cib = blocksOf(l.cin), cob = blocksOf(l.cout);
  const int64_t blockWeights =
      (l.depthwise ? l.kh * l.kw * 16 : l.kh * l.kw * cib * 256) * es;
  const int64_t allWeights = blockWeights * cob;
  // DRAM keeps only the existing lanes of a partial last output block
  // (ConvLowering's dramWeights) when that pays: this many bytes fewer,
  // loaded by a second command.
  const int64_t partialSaving = compactWeightSaving(c, blockWeights, l.cout);
  const int64_t biasBytes = l.fp16 && l.bias ? cob * 64 : 0;
  const int64_t act = c.regionSize(LmemRegion::ACT),
                wgt = c.regionSize(LmemRegion::WGT),
                accSize = c.regionSize(LmemRegion::ACC);
  // The tiling (ConvLowering's chooseTiling): the tallest band whose double
  // buffers fit ACT and ACC, then as many output blocks as ACC holds.
  // A packed input's pieces start anywhere in a row: no alignment rows.
  const bool isPacked = !packed.pieces.empty();
  auto inputRows = [&](int64_t r) {
    return std::min(l.h, (r - 1) * l.sy + l.dy * (l.kh - 1) + 1) +
           (isPacked ? 0 : rowAlignment(l.w * l.cin * es) - 1);
  };
  auto actBytes = [&](int64_t r) {
    return 2 * es * (inputRows(r) * l.w * cib * 16 + r * l.ow * cob * 16) +
           biasBytes;
  };
  auto accGroups = [&](int64_t r) { return accSize / (2 * r * l.ow * 64); };
  const int64_t step = rowAlignment(l.ow * l.cout * es);
  int64_t rows = 1;
  for (int64_t r = l.oh; r >= 1; --r)
    if ((r % step == 0 || r == l.oh) && actBytes(r) <= act &&
        accGroups(r) >= 1) {
      rows = r;
      break;
    }
  const bool stream = allWeights > wgt;
  const int64_t weightBuffers = stream && 2 * blockWeights > wgt ? 1 : 2;
  int64_t blocks = std::min(cob, accGroups(rows));
  if (stream)
    blocks = std::min(blocks, wgt / (weightBuffers * blockWeights));
  blocks = std::max<int64_t>(blocks, 1);
  const int64_t groups = ceilDiv(cob, blocks);
  // Halo rows are copied from the previous band's buffer when the layer's
  // DRAM traffic, halos read again, outlasts its MAC work (ConvLowering's
  // chooseTiling).
  int64_t inputBytes = 0, bands = 0;
  for (int64_t y0 = 0; y0 < l.oh; y0 += rows, ++bands)
    inputBytes += bandImageRows(l.h, l.kh, l.sy, l.dy, l.pt, y0,
                                std::min(rows, l.oh - y0)) *
                  l.w * l.cin * es;
  const int64_t pixels = l.n * l.oh * l.ow;
  const int64_t dramBytes = l.n * (inputBytes + l.oh * l.ow * l.cout * es) +
                            allWeights * (stream ? l.n * bands : 1);
  const uint64_t macWork =
      l.depthwise
          ? f * ceilDiv(pixels * 16 * cob * l.kh * l.kw,
                        uint64_t(c.macRows) * c.macCols / 8)
          : f * l.kh * l.kw * ceilDiv(16 * cib, c.macRows) *
                ceilDiv(16 * cob, c.macCols) * pixels;
  const bool copyHalo =
      !isPacked && uint64_t(dramBytes) > macWork * c.dmaDramBytesPerCycle;

  Replay s(c);
  // Loads the weights of output blocks [b0, b0 + n): the compact last
  // block by a second load after the whole ones.
  auto loadWeights = [&](int64_t b0, int64_t n, llvm::ArrayRef<Id> deps) {
    if (!partialSaving || b0 + n < cob)
      return s.dram(true, n * blockWeights, deps);
    Id whole = n > 1 ? s.dram(true, (n - 1) * blockWeights, deps) : 0;
    return s.dram(true, blockWeights - partialSaving,
                  whole ? llvm::ArrayRef<Id>(whole) : deps);
  };
  Id params = 0, biases = 0, weights = 0;
  if (!l.fp16)
    params = s.dram(true, cob * 256, 0);
  else if (biasBytes)
    biases = s.dram(true, biasBytes, 0);
  if (!stream)
    weights = loadWeights(0, cob, {});
  Id macOnIn[2] = {}, vecOnAcc[2] = {}, storeOnOut[2] = {}, macOnWgt[2] = {};
  // The previous band's input (the source of the halo copy).
  Id inPrev = 0;
  // Both input buffers of a packed layer start as the pad value.
  if (isPacked && piecesSkipColumns(packed.pieces, l.ow))
    for (int i = 0; i < 2; ++i)
      s.lmem(inputRows(rows) * l.w * cib * 16 * es, {});
  int64_t band = 0, unit = 0, weightLoad = 0;
  for (int64_t img = 0; img < l.n; ++img)
    for (int64_t y0 = 0; y0 < l.oh; y0 += rows, ++band) {
      const int64_t rb = std::min(rows, l.oh - y0);
      const int64_t n1 = bandImageRows(l.h, l.kh, l.sy, l.dy, l.pt, y0, rb);
      Id in = 0;
      if (isPacked) {
        // One load per piece: per image row, one contiguous run from the
        // piece's first column to its last.
        const int64_t pix = packed.srcC * es;
        for (const PackPiece &p : packed.pieces)
          if (p.count) {
            const int64_t span = (p.count - 1) * p.period * packed.srcSx * pix +
                                 p.repeat * p.cols * pix;
            in = s.dram(true, n1 * span, {macOnIn[band % 2]}, span);
          }
      } else {
        // The halo rows the band before it in this image loaded are copied
        // from its buffer; only the new rows come from DRAM (ConvLowering's
        // haloRows: whole 16-byte rows only).
        int64_t halo = 0;
        if (copyHalo && y0 > 0 && rowAlignment(l.w * l.cin * es) == 1) {
          const int64_t first = std::max<int64_t>(y0 * l.sy - l.pt, 0),
                        prevFirst =
                            std::max<int64_t>((y0 - rows) * l.sy - l.pt, 0),
                        prevLast = std::min(
                            l.h - 1, (y0 - 1) * l.sy - l.pt + l.dy * (l.kh - 1));
          if (n1 && first >= prevFirst)
            halo = std::clamp<int64_t>(prevLast - first + 1, 0, n1);
        }
        if (halo)
          in = s.lmem(halo * l.w * cib * 16 * es, {macOnIn[band % 2], inPrev});
        if (halo < n1 || !halo)
          in = s.dram(true, (n1 - halo) * l.w * l.cin * es,
                      {macOnIn[band % 2]});
      }
      inPrev = in;
      Id requant = 0;
      for (int64_t gi = 0; gi < groups; ++gi, ++unit) {
        const int64_t gn = std::min(blocks, cob - gi * blocks);
        Id ready = weights;
        int64_t wi = weightLoad % weightBuffers;
        if (stream)
          ready = loadWeights(gi * blocks, gn, {macOnWgt[wi]});
        Id accFree = vecOnAcc[unit % 2];
        if (biasBytes)
          accFree = s.lmem(rb * l.ow * gn * 64, {biases, accFree});
        const uint64_t pixels = rb * l.ow;
        uint64_t work =
            l.depthwise
                ? ceilDiv(pixels * 16 * gn * l.kh * l.kw,
                          uint64_t(c.macRows) * c.macCols / 8)
                : l.kh * l.kw * ceilDiv(16 * cib, c.macRows) *
                      ceilDiv(16 * gn, c.macCols) *
                      std::max<uint64_t>(pixels, c.macWeightLoadCycles);
        Id mac = s.mac(f * work, {in, ready, accFree});
        macOnIn[band % 2] = mac;
        if (stream) {
          macOnWgt[wi] = mac;
          ++weightLoad;
        }
        Id outFree = gi == 0 ? storeOnOut[band % 2] : 0;
        uint64_t vecWork = ceilDiv(pixels * 16 * gn, c.vecLanes);
        requant = s.vec(vecWork, {mac, outFree, params});
        vecOnAcc[unit % 2] = requant;
        if (l.fp16 && l.clamp)
          requant = s.vec(vecWork, {requant});
      }
      storeOnOut[band % 2] =
          s.dram(false, rb * l.ow * l.cout * es, {requant});
    }
  return s.span();
}
} // namespace

uint64_t kiln::npu::convScheduleCycles(const TargetConfig &c,
                                       const ConvShape &l) {
  return scheduleConv(c, l, {});
}

uint64_t kiln::npu::packedConvScheduleCycles(const TargetConfig &c,
                                             const ConvShape &packed,
                                             llvm::ArrayRef<PackPiece> pieces,
                                             int64_t srcW, int64_t srcC,
                                             int64_t srcSx) {
  return scheduleConv(c, packed, {pieces, srcW, srcC, srcSx});
}

int64_t kiln::npu::compactWeightSaving(const TargetConfig &c,
                                       int64_t blockWeights, int64_t cout) {
  if (cout % 16 == 0)
    return 0;
  const int64_t saving = blockWeights / 16 * (16 - cout % 16);
  const int64_t extra = c.dmaSetupCycles + c.dmaDramLatency;
  return saving / std::max<int64_t>(c.dmaDramBytesPerCycle, 1) > extra
             ? saving
             : 0;
}

bool kiln::npu::piecesSkipColumns(llvm::ArrayRef<PackPiece> pieces,
                                  int64_t ow) {
  for (const PackPiece &p : pieces)
    if (p.count < static_cast<int64_t>(
                      ceilDiv(std::max<int64_t>(ow - p.phase, 0), p.period)))
      return true;
  return false;
}

std::vector<PackPiece>
kiln::npu::planSmallChannelPieces(const PackWidth &l, int64_t &lanes) {
  auto roundUp = [](int64_t v, int64_t m) { return (v + m - 1) / m * m; };
  std::vector<PackPiece> pieces;
  lanes = 0;
  if (l.depthwise || l.kw < 2 || l.dx != 1 || l.pl != 0 || l.cin > 16)
    return pieces;
  // LMEM-side runs start whole 16-byte chunks of a pixel.
  const int64_t chunk = 16 / l.elementBytes, c = l.cin;
  if (l.kw % l.sx == 0) {
    lanes = roundUp(l.kw * c, 16);
    for (int64_t u = 0; u < l.kw / l.sx; ++u)
      pieces.push_back({0, l.kw, 1, u, l.kw / l.sx, 0, lanes, 0});
  } else {
    for (int64_t col = 0; col < l.kw;) {
      const int64_t cols = std::min(l.sx, l.kw - col);
      if (l.sx % cols || col < (l.sx / cols - 1) * cols)
        return {};
      pieces.push_back(
          {col, cols, l.sx / cols, 0, 1, lanes, roundUp(cols * c, chunk), 0});
      lanes += roundUp(cols * c, chunk);
      col += cols;
    }
    lanes = roundUp(lanes, 16);
    pieces.back().lanes = lanes - pieces.back().lane;
  }
  // No gain unless fewer weight blocks face each output pixel.
  if (lanes / 16 >= l.kw * blocksOf(l.cin))
    return {};
  for (PackPiece &p : pieces) {
    for (int64_t ox = p.phase; ox < l.ow; ox += p.period) {
      const int64_t lo = l.sx * ox + p.col;
      if (lo + p.cols <= l.w && p.count == (ox - p.phase) / p.period)
        ++p.count;
      else if (lo < l.w)
        return {}; // across the right edge, or not a prefix
    }
  }
  return pieces;
}

uint64_t kiln::npu::poolScheduleCycles(const TargetConfig &c,
                                       const PoolShape &l) {
  const int64_t cb = blocksOf(l.c);
  const int64_t act = c.regionSize(LmemRegion::ACT);
  auto inputRows = [&](int64_t r) {
    return std::min(l.h, (r - 1) * l.sy + l.kh);
  };
  auto actBytes = [&](int64_t r, int64_t g, int64_t buffers) {
    return buffers * (inputRows(r) * l.w * g * 16 * l.inBytes +
                      r * l.ow * g * 16 * l.outBytes);
  };
  auto loaded = [&](int64_t r) {
    int64_t total = 0;
    for (int64_t y0 = 0; y0 < l.oh; y0 += r)
      total += bandImageRows(l.h, l.kh, l.sy, 1, l.pt, y0,
                             std::min(r, l.oh - y0));
    return total;
  };
  // PoolLowering's choosePoolTiling: per group width the tallest band that
  // fits; the width that loads the fewest rows, the widest on ties; double
  // buffers when any tile fits them, else single buffers.
  int64_t rows = 1, blocks = 1, best = INT64_MAX, buffers = 1;
  for (int64_t nb = 2; nb >= 1 && best == INT64_MAX; --nb)
    for (int64_t g = cb; g >= 1; --g)
      for (int64_t r = l.oh; r >= 1; --r) {
        if (actBytes(r, g, nb) > act)
          continue;
        if (loaded(r) < best) {
          best = loaded(r);
          rows = r;
          blocks = g;
          buffers = nb;
        }
        break;
      }
  Replay s(c);
  Id poolOnIn[2] = {}, storeOnOut[2] = {};
  int64_t unit = 0;
  const int64_t groups = ceilDiv(cb, blocks);
  for (int64_t img = 0; img < l.n; ++img)
    for (int64_t y0 = 0; y0 < l.oh; y0 += rows)
      for (int64_t gi = 0; gi < groups; ++gi, ++unit) {
        const int64_t rb = std::min(rows, l.oh - y0);
        const int64_t gc = std::min(blocks * 16, l.c - gi * blocks * 16);
        const int64_t gb = blocksOf(gc);
        const int64_t n1 = bandImageRows(l.h, l.kh, l.sy, 1, l.pt, y0, rb);
        // Whole pixels are contiguous; a group of some channels is one run
        // per pixel.
        uint64_t inRun = groups == 1 ? 0 : gc * l.inBytes;
        uint64_t outRun = groups == 1 ? 0 : gc * l.outBytes;
        const int64_t bi = unit % buffers;
        Id in = s.dram(true, n1 * l.w * gc * l.inBytes, {poolOnIn[bi]}, inRun);
        Id pool = s.vec(ceilDiv(rb * l.ow * 16 * gb, c.vecLanes) * l.kh * l.kw,
                        {in, storeOnOut[bi]});
        poolOnIn[bi] = pool;
        storeOnOut[bi] =
            s.dram(false, rb * l.ow * gc * l.outBytes, {pool}, outRun);
      }
  return s.span();
}

uint64_t kiln::npu::vecScheduleCycles(const TargetConfig &c,
                                      const VecShape &l) {
  const int64_t act = c.regionSize(LmemRegion::ACT);
  const int64_t lanes = l.channels ? l.channels : 16;
  const int64_t cb = l.channels ? blocksOf(l.channels) : 1;
  const int64_t positions =
      l.channels ? l.elements / l.channels : ceilDiv(l.elements, 16);
  int64_t perPosition = 2 * cb * 16 * l.outBytes;
  for (int64_t size : l.inBytes)
    perPosition += 2 * cb * 16 * size;
  int64_t bcast = l.channels && l.broadcastBytes ? cb * 16 * l.broadcastBytes
                                                  : 0;
  const int64_t n = std::max<int64_t>(
      1, std::min<int64_t>({positions, (act - bcast) / perPosition, 65535}));
  Replay s(c);
  std::vector<Id> fixed;
  for (uint64_t bytes : l.fixedLoads)
    fixed.push_back(s.dram(true, bytes, {}));
  Id vecOnIn[2] = {}, storeOnOut[2] = {};
  for (int64_t p0 = 0, b = 0; p0 < positions; p0 += n, ++b) {
    const int64_t np = std::min(n, positions - p0);
    const int64_t elements =
        std::min<int64_t>(np * lanes, l.elements - p0 * lanes);
    std::vector<Id> ready(fixed);
    // The DRAM side of every band is contiguous (the channel layout pads
    // only in LMEM).
    for (int64_t size : l.inBytes)
      ready.push_back(s.dram(true, elements * size, {vecOnIn[b % 2]}));
    ready.push_back(storeOnOut[b % 2]);
    Id v = s.vec(ceilDiv(np * cb * 16, c.vecLanes), ready);
    vecOnIn[b % 2] = v;
    storeOnOut[b % 2] = s.dram(false, elements * l.outBytes, {v});
  }
  return s.span();
}
