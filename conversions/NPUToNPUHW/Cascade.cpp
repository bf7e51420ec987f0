//===- Cascade.cpp - row bands of one op feeding the next in ACT ---------===//
//
// Which intermediates cascade (planCascades), and the rewrite of their
// pseudo-region accesses into rolling line buffers in ACT with the
// consumer's commands interleaved into the producer's (makeCascades).
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/Cascade.h"

#include "conversions/NPUToNPUHW/Lowering.h"
#include "conversions/NPUToNPUHW/LoweringUtils.h"
#include "conversions/NPUToNPUHW/Resident.h"

#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/NPUHW/IR/NPUHWDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <array>
#include <numeric>

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;

namespace {
int64_t field(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : 0;
}

void setField(Operation *op, StringRef name, int64_t value) {
  if (value)
    op->setAttr(name, IntegerAttr::get(IntegerType::get(op->getContext(), 64),
                                       value));
  else
    op->removeAttr(name);
}

/// The window and tile sizes of a convolution that planning needs.
struct ConvShape {
  int64_t h = 0, w = 0, cin = 0, ow = 0, cout = 0, kh = 1, sy = 1, dy = 1,
          es = 1, biasBytes = 0;
  /// Bytes of the packed weights (all output blocks), as WGT holds them.
  int64_t weights = 0;
  /// Input rows of a band of \p r output rows (halo included, capped at the
  /// image) plus the rows a load may start early to be 16-byte aligned.
  int64_t inputRows(int64_t r) const {
    int64_t rows = std::min(h, (r - 1) * sy + dy * (kh - 1) + 1);
    return rows + 16 / std::gcd<int64_t>(w * cin * es, 16) - 1;
  }
  /// ACT bytes of double-buffered input and output bands of \p r rows (as
  /// chooseTiling counts them).
  int64_t act(int64_t r) const {
    return 2 * es *
               (inputRows(r) * w * ((cin + 15) / 16 * 16) +
                r * ow * ((cout + 15) / 16 * 16)) +
           biasBytes;
  }
};

std::optional<ConvShape> convShape(Operation *op) {
  auto fill = [](auto conv) {
    ConvShape s;
    auto in = cast<ShapedType>(conv.getInput().getType());
    auto out = cast<ShapedType>(conv.getOutput().getType());
    s.h = in.getDimSize(1);
    s.w = in.getDimSize(2);
    s.cin = in.getDimSize(3);
    s.ow = out.getDimSize(2);
    s.cout = out.getDimSize(3);
    auto wt = cast<ShapedType>(conv.getWeight().getType());
    s.kh = wt.getDimSize(0);
    s.sy = conv.getStride()[0];
    s.dy = conv.getDilation()[0];
    s.es = elementBytes(in);
    if (s.es == 2 && conv.getBias())
      s.biasBytes = (s.cout + 15) / 16 * 64;
    const int64_t cob = (s.cout + 15) / 16, cib = (s.cin + 15) / 16;
    s.weights = wt.getRank() == 3
                    ? wt.getDimSize(0) * wt.getDimSize(1) * 16 * s.es * cob
                    : wt.getDimSize(0) * wt.getDimSize(1) * cib * 256 * s.es *
                          cob;
    return s;
  };
  if (auto conv = dyn_cast<npu::Conv2DOp>(op))
    return fill(conv);
  if (auto conv = dyn_cast<npu::DepthwiseConv2DOp>(op))
    return fill(conv);
  return std::nullopt;
}

/// The byte range of \p value within the pseudo region kCascadeRegion, if
/// it is a view of it.
std::optional<std::pair<int64_t, int64_t>> cascadeView(Value value) {
  auto view = value.getDefiningOp<npuhw::ViewOp>();
  if (!view)
    return std::nullopt;
  auto type = cast<MemRefType>(view.getType());
  auto space = dyn_cast_or_null<npuhw::DramSpaceAttr>(type.getMemorySpace());
  if (!space || space.getRegion() != kCascadeRegion)
    return std::nullopt;
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  (void)type.getStridesAndOffset(strides, offset);
  return std::make_pair(offset, type.getNumElements());
}

/// True if \p op is a DMA_STORE into an LMEM-kept tensor (resident or
/// cascaded, before their rewrite).
bool storesToLmemTensor(Operation *op) {
  auto store = dyn_cast<npuhw::DmaStoreOp>(op);
  if (!store)
    return false;
  auto space = dyn_cast_or_null<npuhw::DramSpaceAttr>(
      cast<MemRefType>(store.getDst().getType()).getMemorySpace());
  return space && (space.getRegion() == kResidentRegion ||
                   space.getRegion() == kCascadeRegion);
}

std::optional<int64_t> tagOf(Operation *op) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(kCascadeOpAttr))
    return attr.getInt();
  return std::nullopt;
}

/// One access of a ring, for the replay: rows [first, first + rows).
struct RingAccess {
  int64_t first, rows;
  bool write;
};
} // namespace

bool npu_to_npuhw::cascadable(Value value, unsigned producer,
                              ArrayRef<Operation *> ops,
                              Operation *terminator) {
  if (!onlyReadByNext(value, producer, ops, terminator))
    return false;
  Operation *consumer = ops[producer + 1];
  if (!convShape(ops[producer]) || !convShape(consumer) ||
      stripCasts(consumer->getOperand(0)) != value)
    return false;
  auto type = cast<ShapedType>(value.getType());
  return type.getRank() == 4 &&
         type.getDimSize(2) * type.getDimSize(3) * elementBytes(type) % 16 ==
             0;
}

void npu_to_npuhw::planCascades(ArrayRef<Operation *> ops,
                                ArrayRef<CascadedTensor> candidates,
                                const npu::TargetConfig &config,
                                ArrayRef<uint64_t> reservedAct,
                                int64_t maxRows,
                                SmallVectorImpl<CascadedTensor> &tensors,
                                SmallVectorImpl<CascadeGroup> &groups) {
  using npu::LmemRegion;
  auto kib = [](uint64_t bytes) { return bytes / 1024 * 1024; };
  // Tries the group of \p count tensors from candidates[i].
  auto tryGroup = [&](size_t i, size_t count) {
    SmallVector<CascadedTensor> ts(candidates.slice(i, count));
    unsigned first = ts.front().producer, last = ts.back().producer + 1;
    const uint64_t g = last - first + 1;
    SmallVector<ConvShape> shapes;
    for (unsigned k = first; k <= last; ++k)
      shapes.push_back(*convShape(ops[k]));
    uint64_t act = config.regionSize(LmemRegion::ACT), reserved = 0;
    for (unsigned k = first; k <= last; ++k)
      reserved = std::max(reserved, reservedAct[k]);
    act -= std::min(act, reserved);
    const uint64_t acc = kib(config.regionSize(LmemRegion::ACC) / g),
                   prm = kib(config.regionSize(LmemRegion::PARAM) / g),
                   wgt = config.regionSize(LmemRegion::WGT) / g;
    // Every op's weights stay whole in its share of WGT: streamed weights
    // would be loaded from DRAM again for every (short) band of the group,
    // more traffic than the cascaded tensor saves.
    for (const ConvShape &s : shapes)
      if (static_cast<uint64_t>(s.weights) > wgt)
        return false;
    int64_t top = 16;
    if (maxRows)
      top = std::min(top, maxRows);
    for (int64_t r = top; r >= 1; --r) {
      uint64_t rings = 0, needs = 0;
      bool fits = true;
      for (CascadedTensor &t : ts) {
        const ConvShape &c = shapes[t.producer + 1 - first];
        t.ringRows = std::min(t.rows, r + c.inputRows(r) + 1);
        rings += t.ringBytes();
      }
      for (const ConvShape &s : shapes) {
        needs += s.act(r);
        fits &= static_cast<uint64_t>(2 * r * s.ow * 64) <= acc &&
                (s.es == 2 ||
                 static_cast<uint64_t>((s.cout + 15) / 16 * 256) <= prm);
      }
      if (!fits || rings + needs > act)
        continue;
      CascadeGroup group{first, last, r, {}};
      const uint64_t slack = (act - rings - needs) / g;
      for (const ConvShape &s : shapes) {
        group.act.push_back(s.act(r) + slack);
        fits &= kib(group.act.back()) >= static_cast<uint64_t>(s.act(r));
      }
      if (!fits)
        continue;
      tensors.append(ts);
      groups.push_back(std::move(group));
      return true;
    }
    return false;
  };
  // An op belongs to one group: a tensor produced by the last op of a
  // group starts none.
  std::optional<unsigned> taken;
  for (size_t i = 0; i < candidates.size();) {
    if (taken && candidates[i].producer <= *taken) {
      ++i;
      continue;
    }
    bool pair = i + 1 < candidates.size() &&
                candidates[i + 1].producer == candidates[i].producer + 1;
    if (pair && tryGroup(i, 2)) {
      taken = groups.back().last;
      i += 2;
      continue;
    }
    if (tryGroup(i, 1))
      taken = groups.back().last;
    ++i;
  }
}

std::optional<unsigned>
npu_to_npuhw::makeCascades(Block &block, ArrayRef<CascadedTensor> tensors,
                           DenseMap<Value, Value> &replaced) {
  auto tagWith = [&](Value value, Attribute tag) {
    if (Operation *def = value.getDefiningOp(); def && tag)
      def->setAttr(kCascadeOpAttr, tag);
  };
  for (auto [ti, t] : llvm::enumerate(tensors)) {
    Operation *start = nullptr;
    for (Operation &op : block)
      if (tagOf(&op) == static_cast<int64_t>(t.producer)) {
        start = &op;
        break;
      }
    if (!start)
      return ti;
    OpBuilder rb(start);
    CommandEmitter re(rb, start->getLoc());
    Value ring = re.alloc({t.ringBytes()}, re.i8, npuhw::LmemRegion::act);
    const int64_t N = t.ringRows, rowBytes = t.rowBytes(),
                  ringRow = t.ringRowBytes(), es = t.elementBytes,
                  padded = ((t.channels + 15) / 16 * 16) * es;

    // The accesses, in block order.
    SmallVector<Operation *> accesses;
    for (Operation &op : block) {
      std::optional<std::pair<int64_t, int64_t>> range;
      if (auto load = dyn_cast<npuhw::DmaLoadOp>(&op))
        range = cascadeView(load.getSrc());
      else if (auto store = dyn_cast<npuhw::DmaStoreOp>(&op))
        range = cascadeView(store.getDst());
      if (range && range->first >= static_cast<int64_t>(t.offset) &&
          range->first < static_cast<int64_t>(t.offset + t.bytes))
        accesses.push_back(&op);
    }
    DenseMap<Operation *, RingAccess> ringOps;
    for (Operation *x : accesses) {
      const bool write = isa<npuhw::DmaStoreOp>(x);
      Value pseudo = x->getOperand(write ? 1 : 0),
            other = x->getOperand(write ? 0 : 1);
      auto [offset, bytes] = *cascadeView(pseudo);
      const int64_t within = offset - static_cast<int64_t>(t.offset);
      const StringRef s0 = write ? "dst_s0" : "src_s0",
                      s1 = write ? "dst_s1" : "src_s1";
      if (within % rowBytes || bytes % rowBytes)
        return ti;
      const int64_t first = within / rowBytes, n = bytes / rowBytes;
      auto otherType = cast<MemRefType>(other.getType());
      auto otherSpace =
          dyn_cast<npuhw::LmemRegionAttr>(otherType.getMemorySpace());
      if (n > N || field(x, "n2") > 1 ||
          std::max<int64_t>(field(x, "n1"), 1) != n ||
          (n > 1 && field(x, s1) != rowBytes) ||
          (field(x, "n0") > 1 && field(x, s0) != t.channels * es) ||
          otherType.getRank() < 1 || otherType.getDimSize(0) != n ||
          !otherSpace ||
          (write && otherSpace.getValue() != npuhw::LmemRegion::act))
        return ti;
      // A copy waits for its band's VEC: behind it on DMA_IN every later
      // command would wait too. It moves down to just before the next store
      // into an LMEM tensor or the first use of its token (as Resident.cpp
      // moves its copies).
      Operation *before = nullptr;
      if (write)
        for (Operation *next = x->getNextNode(); next && !before;
             next = next->getNextNode())
          if (llvm::is_contained(next->getOperands(), x->getResult(0)) ||
              storesToLmemTensor(next))
            before = next;
      Attribute tag = x->getAttr(kCascadeOpAttr);
      OpBuilder b(x);
      CommandEmitter e(b, x->getLoc());
      SmallVector<Operation *> pieces;
      const int64_t slot = first % N, head = std::min(n, N - slot);
      const std::array<std::array<int64_t, 3>, 2> parts = {
          {{0, head, slot}, {head, n - head, 0}}};
      for (auto [skip, rows, at] : parts) {
        if (!rows)
          continue;
        Value ringView = e.slice(ring, {at * ringRow}, {rows * ringRow});
        SmallVector<int64_t> offsets(otherType.getRank(), 0),
            sizes(otherType.getShape());
        offsets[0] = skip;
        sizes[0] = rows;
        Value otherView = e.slice(other, offsets, sizes);
        tagWith(ringView, tag);
        tagWith(otherView, tag);
        OperationState state(x->getLoc(), "npuhw.dma_load");
        if (write)
          state.addOperands({otherView, ringView});
        else
          state.addOperands({ringView, otherView});
        state.addOperands(x->getOperands().drop_front(2));
        state.addAttributes(x->getAttrs());
        state.addTypes(x->getResult(0).getType());
        Operation *piece = b.create(state);
        setField(piece, "n1", rows);
        if (field(x, s0))
          setField(piece, s0, padded);
        setField(piece, s1, rows > 1 ? ringRow : 0);
        if (write)
          setField(piece, "dst_run", field(x, "src_run"));
        pieces.push_back(piece);
        ringOps[piece] = {first + skip, rows, write};
      }
      if (write)
        for (Operation *piece : pieces) {
          if (before)
            piece->moveBefore(before);
          else
            piece->moveBefore(&block, block.end());
        }
      Value token = pieces.back()->getResult(0);
      x->getResult(0).replaceAllUsesWith(token);
      replaced[x->getResult(0)] = token;
      x->erase();
      if (pseudo.use_empty())
        pseudo.getDefiningOp()->erase();
    }

    // The consumer's commands move up, each just after the last definition
    // of its operands (and after the consumer command before it), but not
    // before the producer's first command.
    const int64_t consumerTag = t.producer + 1;
    SmallVector<Operation *> consumer;
    for (Operation &op : block)
      if (tagOf(&op) == consumerTag)
        consumer.push_back(&op);
    Operation *cursor = nullptr;
    for (Operation *x : consumer) {
      Operation *after = cursor;
      for (Value operand : x->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && def->getBlock() == &block &&
            (!after || after->isBeforeInBlock(def)))
          after = def;
      if (!after || after->isBeforeInBlock(start))
        x->moveBefore(start);
      else
        x->moveAfter(after);
      cursor = x;
    }

    // Replay DMA_IN's order (every ring access is an LMEM-to-LMEM DMA_LOAD
    // on that in-order engine): each load must find in each slot the row
    // it reads, written and not yet overwritten.
    SmallVector<int64_t> slots(N, -1);
    for (Operation &op : block) {
      auto it = ringOps.find(&op);
      if (it == ringOps.end())
        continue;
      const RingAccess &a = it->second;
      for (int64_t r = a.first; r < a.first + a.rows; ++r) {
        if (a.write)
          slots[r % N] = r;
        else if (slots[r % N] != r)
          return ti;
      }
    }
  }
  for (Operation &op : block)
    op.removeAttr(kCascadeOpAttr);
  return std::nullopt;
}
