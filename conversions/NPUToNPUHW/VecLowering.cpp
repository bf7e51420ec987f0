//===- VecLowering.cpp - npu element-wise ops to VEC commands ---*- C++ -*-===//
//
// An element-wise op sees its tensors as a sequence of positions of `lanes`
// elements each, viewed in LMEM as [1][positions][cb][16]:
//
// - flat: 16 elements per position, cb = 1, whatever the rank; the tensor's
//   bytes load and store as one contiguous run per band, and the lanes past
//   the last element are padding. Used by every unary op and by binary ops
//   with TENSOR or SCALAR broadcast, which do not care about channels.
// - channels: the last dimension C per position, padded to cb = ceil(C/16)
//   blocks by the DMA (runs of C elements into 16*cb-lane slots). Used by
//   CHANNEL broadcast, whose `in2` is the 1x1xcb vector of rhs.
//
// A band is as many positions as two buffers of each streamed operand and
// of the output fit in LMEM.ACT (after the broadcast vector). Per band: a
// DMA_LOAD of each streamed operand, the VEC command, one DMA_STORE; two
// buffers per stage used alternately, with tokens for the data and the
// write-after-read dependencies, so DMA overlaps VEC. Parameter blocks,
// tables and broadcast vectors load once.
//
//===----------------------------------------------------------------------===//

#include "conversions/NPUToNPUHW/VecLowering.h"
#include "conversions/NPUToNPUHW/LoweringUtils.h"

#include "dialects/NPU/IR/NPUOps.h"
#include "runtime/npu/Arith.h"
#include "runtime/npu/Packing.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <string>

using namespace mlir;
using namespace kiln;
using namespace kiln::npu_to_npuhw;
using npuhw::LmemRegion;

namespace {
/// The element type of \p type in LMEM: a quantised type's storage type.
Type storageType(Type type) {
  Type element = cast<ShapedType>(type).getElementType();
  if (auto q = dyn_cast<quant::QuantizedType>(element))
    return IntegerType::get(type.getContext(),
                            q.getStorageTypeIntegralWidth());
  return element;
}

quant::UniformQuantizedType uniform(Type type) {
  return dyn_cast<quant::UniformQuantizedType>(
      cast<ShapedType>(type).getElementType());
}

/// How a tensor is cut into positions (see the file comment).
struct Layout {
  bool flat = true;
  int64_t elements = 0, lanes = 16, cb = 1, positions = 0;

  static Layout flatOf(int64_t elements) {
    Layout l;
    l.elements = elements;
    l.positions = (elements + 15) / 16;
    return l;
  }
  static Layout channelsOf(int64_t elements, int64_t channels) {
    Layout l;
    l.flat = false;
    l.elements = elements;
    l.lanes = channels;
    l.cb = (channels + 15) / 16;
    l.positions = elements / channels;
    return l;
  }
  /// Elements of positions [p0, p0 + n) that exist.
  int64_t valid(int64_t p0, int64_t n) const {
    return std::min(elements - p0 * lanes, n * lanes);
  }
};

/// One streamed tensor of an op: where it is and its element type.
struct Stream {
  DramPlace place;
  Type element;
  int64_t size; ///< Bytes per element.
};

/// The band loop shared by both op families.
class VecEmitter {
public:
  VecEmitter(Operation *op, OpLowering &lowering)
      : op(op), lowering(lowering), e(lowering.builder, lowering.loc) {}

  /// A streamed operand of \p op.
  Stream operand(unsigned index) {
    Value v = op->getOperand(index);
    return {placeOperand(op, index, lowering), storageType(v.getType()),
            elementBytes(v.getType())};
  }
  Stream result() {
    Value v = op->getResult(0);
    return {lowering.results[0], storageType(v.getType()),
            elementBytes(v.getType())};
  }

  /// Loads \p bytes of r0 at \p offset into a new \p region buffer.
  std::pair<Value, Value> loadConstant(ArrayRef<uint8_t> bytes,
                                       LmemRegion region) {
    uint64_t offset = lowering.constants.append(bytes);
    int64_t size = bytes.size();
    Value buffer = e.alloc({size}, e.b.getI8Type(), region);
    Value token = e.loadBytes(e.dram(kConstRegion, offset, size), buffer,
                              size, lowering.after);
    return {buffer, token};
  }

  /// Positions per band: two buffers of every streamed tensor and of the
  /// output in what ACT has left after \p fixedAct bytes; fails with an
  /// error naming the sizes.
  FailureOr<int64_t> bandPositions(const Layout &l, ArrayRef<Stream> streams,
                                   int64_t fixedAct) {
    int64_t perPosition = 0;
    for (const Stream &s : streams)
      perPosition += 2 * l.cb * 16 * s.size;
    int64_t act = lowering.config.regionSize(npu::LmemRegion::ACT);
    int64_t n = std::min<int64_t>({l.positions, (act - fixedAct) / perPosition,
                                   kMaxPositions});
    if (n < 1) {
      op->emitOpError() << "does not fit LMEM: two buffers of one position ("
                        << perPosition << " bytes for " << l.cb
                        << " channel block(s)) and " << fixedAct
                        << " bytes of broadcast operand exceed LMEM.ACT ("
                        << act << " bytes, 'lmem.act_kib')";
      return failure();
    }
    return n;
  }

  /// The DMA_LOAD of positions [p0, p0 + n) of \p s into \p buffer.
  Value load(const Layout &l, const Stream &s, int64_t p0, int64_t n,
             Value buffer, ArrayRef<Value> deps) {
    int64_t slot = l.cb * 16 * s.size;
    if (l.flat) {
      int64_t bytes = l.valid(p0, n) * s.size;
      return e.command("npuhw.dma_load",
                       {e.dram(s.place.region, s.place.offset +
                                                   p0 * l.lanes * s.size,
                               bytes),
                        buffer},
                       deps,
                       {{"src_run", bytes},
                        {"dst_run", n * slot},
                        {"n0", 1},
                        {"n1", 1},
                        {"n2", 1}});
    }
    int64_t run = l.lanes * s.size;
    return e.command(
        "npuhw.dma_load",
        {e.dram(s.place.region, s.place.offset + p0 * run, n * run), buffer},
        deps,
        {{"src_run", run},
         {"dst_run", slot},
         {"n0", n},
         {"n1", 1},
         {"n2", 1},
         {"src_s0", run},
         {"dst_s0", slot}});
  }

  /// The DMA_STORE of positions [p0, p0 + n) from \p buffer to \p s.
  Value store(const Layout &l, const Stream &s, int64_t p0, int64_t n,
              Value buffer, Value dep) {
    int64_t slot = l.cb * 16 * s.size;
    if (l.flat) {
      int64_t bytes = l.valid(p0, n) * s.size;
      return e.command(
          "npuhw.dma_store",
          {buffer, e.dram(s.place.region,
                          s.place.offset + p0 * l.lanes * s.size, bytes)},
          {dep}, {{"src_run", bytes}, {"n0", 1}, {"n1", 1}, {"n2", 1}});
    }
    int64_t run = l.lanes * s.size;
    return e.command(
        "npuhw.dma_store",
        {buffer, e.dram(s.place.region, s.place.offset + p0 * run, n * run)},
        {dep},
        {{"src_run", run},
         {"n0", n},
         {"n1", 1},
         {"n2", 1},
         {"src_s0", slot},
         {"dst_s0", run}});
  }

  /// The band loop: \p inputs are streamed through two buffers each, the
  /// VEC command is built by \p vec from the band's input views, output
  /// view and dependencies; returns the stores.
  FailureOr<SmallVector<Value>>
  run(const Layout &l, ArrayRef<Stream> inputs, int64_t fixedAct,
      llvm::function_ref<Value(ArrayRef<Value>, Value, ArrayRef<Value>)> vec) {
    Stream out = result();
    SmallVector<Stream> all(inputs);
    all.push_back(out);
    FailureOr<int64_t> band = bandPositions(l, all, fixedAct);
    if (failed(band))
      return failure();
    const int64_t n = *band;
    SmallVector<std::array<Value, 2>> inBuf(inputs.size());
    std::array<Value, 2> outBuf;
    for (int i = 0; i < 2; ++i) {
      for (auto [k, s] : llvm::enumerate(inputs))
        inBuf[k][i] = e.alloc({1, n, l.cb, 16}, s.element, LmemRegion::act);
      outBuf[i] = e.alloc({1, n, l.cb, 16}, out.element, LmemRegion::act);
    }
    Value lastVec[2], lastStore[2];
    SmallVector<Value> stores;
    for (int64_t p0 = 0, b = 0; p0 < l.positions; p0 += n, ++b) {
      const int64_t bi = b % 2, np = std::min(n, l.positions - p0);
      SmallVector<Value> views, deps;
      for (auto [k, s] : llvm::enumerate(inputs)) {
        Value view = e.slice(inBuf[k][bi], {0, 0, 0, 0}, {1, np, l.cb, 16});
        SmallVector<Value> loadDeps(lowering.after);
        loadDeps.push_back(lastVec[bi]);
        deps.push_back(load(l, s, p0, np, view, loadDeps));
        views.push_back(view);
      }
      Value outView = e.slice(outBuf[bi], {0, 0, 0, 0}, {1, np, l.cb, 16});
      deps.push_back(lastStore[bi]);
      lastVec[bi] = vec(views, outView, deps);
      lastStore[bi] = store(l, out, p0, np, outView, lastVec[bi]);
      stores.push_back(lastStore[bi]);
    }
    return stores;
  }

  /// Views are at most 65535 positions wide (the u16 'w' field).
  static constexpr int64_t kMaxPositions = 65535;

  Operation *op;
  OpLowering &lowering;
  CommandEmitter e;
};

/// The parameter multiplier of \p real with its exponent as MBQM's shift,
/// or an error on \p op naming \p what.
LogicalResult eltwiseMultiplier(Operation *op, double real, const char *what,
                                int32_t &mult, int32_t &shift) {
  std::optional<npu::QuantizedMultiplier> q = npu::quantizeMultiplier(real);
  if (!q || q->exponent < -31 || q->exponent > 30)
    return op->emitOpError() << what << " " << real
                             << " is not representable with a shift in "
                                "[-31, 30]";
  mult = q->multiplier;
  shift = q->exponent;
  return success();
}

/// The int8 parameter block of an add/sub/mul/minimum/maximum (TFLite's
/// integer kernels: add and sub rescale both inputs to twice the larger
/// input scale with 20 bits of headroom, then the sum to the output scale;
/// mul rescales the product of the offset inputs).
LogicalResult int8Params(Operation *op, npu::EltwiseParams &p) {
  auto q1 = uniform(op->getOperand(0).getType()),
       q2 = uniform(op->getOperand(1).getType()),
       qo = uniform(op->getResult(0).getType());
  p.in1Zp = q1.getZeroPoint();
  p.in2Zp = q2.getZeroPoint();
  p.outZp = qo.getZeroPoint();
  if (auto a = op->getAttrOfType<IntegerAttr>("clamp_min"))
    p.min = a.getInt();
  if (auto a = op->getAttrOfType<IntegerAttr>("clamp_max"))
    p.max = a.getInt();
  if (isa<npu::AddOp, npu::SubOp>(op)) {
    double twiceMax = 2 * std::max(q1.getScale(), q2.getScale());
    p.leftShift = 20;
    return success(
        succeeded(eltwiseMultiplier(op, q1.getScale() / twiceMax,
                                    "lhs multiplier", p.in1Mult,
                                    p.in1Shift)) &&
        succeeded(eltwiseMultiplier(op, q2.getScale() / twiceMax,
                                    "rhs multiplier", p.in2Mult,
                                    p.in2Shift)) &&
        succeeded(eltwiseMultiplier(
            op, twiceMax / (double(1 << 20) * qo.getScale()),
            "output multiplier", p.outMult, p.outShift)));
  }
  if (isa<npu::MulOp>(op))
    return eltwiseMultiplier(op,
                             q1.getScale() * q2.getScale() / qo.getScale(),
                             "output multiplier", p.outMult, p.outShift);
  return success();
}

/// The static shape of \p v as a Layout-friendly element count.
int64_t elementsOf(Value v) {
  return cast<ShapedType>(v.getType()).getNumElements();
}
} // namespace

FailureOr<SmallVector<Value>>
npu_to_npuhw::lowerEltwise(Operation *op, OpLowering &lowering) {
  VecEmitter v(op, lowering);
  auto lhsType = cast<ShapedType>(op->getOperand(0).getType());
  auto rhsType = cast<ShapedType>(op->getOperand(1).getType());
  bool f16 = lhsType.getElementType().isF16();
  npuhw::Broadcast bcast =
      rhsType.getShape() == lhsType.getShape() ? npuhw::Broadcast::tensor
      : rhsType.getNumElements() == 1          ? npuhw::Broadcast::scalar
                                               : npuhw::Broadcast::channel;
  npu::EltwiseParams params;
  if (!f16 && failed(int8Params(op, params)))
    return failure();
  DenseElementsAttr scalar;
  if (bcast == npuhw::Broadcast::scalar)
    if ((scalar = constantElements(op->getOperand(1)))) {
      std::vector<uint8_t> bytes = rawBytes(scalar);
      params.scalar = f16 ? int32_t(bytes[0] | bytes[1] << 8)
                          : int32_t(static_cast<int8_t>(bytes[0]));
    }
  auto [paramBuf, paramsLoaded] =
      v.loadConstant(npu::packEltwiseParams(params), LmemRegion::param);
  SmallVector<Value> fixed = {paramsLoaded};
  // A scalar known only at run time: its bytes are copied over word 12 of
  // the block in PARAM (the low byte, or the low half for fp16).
  if (bcast == npuhw::Broadcast::scalar && !scalar) {
    Stream s = v.operand(1);
    Value word = v.e.slice(paramBuf, {48}, {s.size});
    SmallVector<Value> deps(lowering.after);
    deps.push_back(paramsLoaded);
    fixed.push_back(v.e.loadBytes(v.e.dram(s.place.region, s.place.offset,
                                           s.size),
                                  word, s.size, deps));
  }
  int64_t elements = elementsOf(op->getOperand(0));
  Layout layout = bcast == npuhw::Broadcast::channel
                      ? Layout::channelsOf(elements, lhsType.getShape().back())
                      : Layout::flatOf(elements);
  SmallVector<Stream> inputs = {v.operand(0)};
  if (bcast == npuhw::Broadcast::tensor)
    inputs.push_back(v.operand(1));
  Value channelVec;
  int64_t fixedAct = 0;
  if (bcast == npuhw::Broadcast::channel) {
    Stream s = v.operand(1);
    fixedAct = layout.cb * 16 * s.size;
    channelVec = v.e.alloc({1, 1, layout.cb, 16}, s.element, LmemRegion::act);
    fixed.push_back(v.load(Layout::channelsOf(layout.lanes, layout.lanes), s,
                           0, 1, channelVec, lowering.after));
  }
  npuhw::EltwiseOp kind =
      TypeSwitch<Operation *, npuhw::EltwiseOp>(op)
          .Case([](npu::AddOp) { return npuhw::EltwiseOp::add; })
          .Case([](npu::SubOp) { return npuhw::EltwiseOp::sub; })
          .Case([](npu::MulOp) { return npuhw::EltwiseOp::mul; })
          .Case([](npu::MinimumOp) { return npuhw::EltwiseOp::min; })
          .Default([](Operation *) { return npuhw::EltwiseOp::max; });
  MLIRContext *ctx = op->getContext();
  SmallVector<NamedAttribute> attrs = {
      NamedAttribute(StringAttr::get(ctx, "op"),
                     npuhw::EltwiseOpAttr::get(ctx, kind)),
      NamedAttribute(StringAttr::get(ctx, "bcast"),
                     npuhw::BroadcastAttr::get(ctx, bcast))};
  return v.run(layout, inputs, fixedAct,
               [&](ArrayRef<Value> ins, Value out, ArrayRef<Value> deps) {
                 SmallVector<Value> operands = {ins[0]};
                 if (bcast != npuhw::Broadcast::scalar)
                   operands.push_back(ins.size() > 1 ? ins[1] : channelVec);
                 operands.append({paramBuf, out});
                 SmallVector<Value> all(deps);
                 all.append(fixed);
                 return v.e.command(
                     "npuhw.vec_eltwise", operands, all, {}, {},
                     {1, bcast == npuhw::Broadcast::scalar ? 0 : 1, 1, 1},
                     attrs);
               });
}

FailureOr<SmallVector<Value>> npu_to_npuhw::lowerUnary(Operation *op,
                                                       OpLowering &lowering) {
  VecEmitter v(op, lowering);
  SmallVector<std::pair<StringRef, int64_t>> fields;
  SmallVector<StringRef> units;
  Value table, tableLoaded;
  npuhw::UnaryOp kind = npuhw::UnaryOp::convert;
  Type inType = op->getOperand(0).getType();
  if (auto rescale = dyn_cast<npu::RescaleOp>(op)) {
    kind = npuhw::UnaryOp::rescale;
    auto in = uniform(inType), out = uniform(op->getResult(0).getType());
    std::optional<npu::QuantizedMultiplier> q =
        npu::quantizeMultiplier(in.getScale() / out.getScale());
    if (!q || 31 - q->exponent < 2 || 31 - q->exponent > 62)
      return op->emitOpError() << "multiplier (input scale / output scale) "
                                  "is not representable with a shift in "
                                  "[2, 62]";
    int64_t lo = -128, hi = 127;
    if (auto a = rescale.getClampMinAttr())
      lo = a.getInt();
    if (auto a = rescale.getClampMaxAttr())
      hi = a.getInt();
    // An int32 input has zero point 0 (the npu verifier checks it).
    fields = {{"mult", q->multiplier}, {"shift", 31 - q->exponent},
              {"in_zp", in.getZeroPoint()}, {"out_zp", out.getZeroPoint()},
              {"min", lo}, {"max", hi}};
    // TFLite's requantisation (MultiplyByQuantizedMultiplier) rounds twice,
    // as the convolutions' VEC_REQUANT does.
    units = {"double_round"};
  } else if (auto lut = dyn_cast<npu::TableOp>(op)) {
    kind = npuhw::UnaryOp::lut;
    ArrayRef<int8_t> entries = lut.getTable();
    std::vector<uint8_t> bytes(entries.begin(), entries.end());
    std::tie(table, tableLoaded) = v.loadConstant(bytes, LmemRegion::param);
  } else if (auto clamp = dyn_cast<npu::ClampOp>(op)) {
    kind = npuhw::UnaryOp::clamp;
    auto bound = [&](Attribute a) -> int64_t {
      if (auto f = dyn_cast<FloatAttr>(a))
        return static_cast<int16_t>(
            npu::f32ToF16(static_cast<float>(f.getValueAsDouble())));
      return cast<IntegerAttr>(a).getInt();
    };
    fields = {{"min", bound(clamp.getMin())}, {"max", bound(clamp.getMax())}};
  }
  MLIRContext *ctx = op->getContext();
  SmallVector<NamedAttribute> attrs = {NamedAttribute(
      StringAttr::get(ctx, "op"), npuhw::UnaryOpAttr::get(ctx, kind))};
  return v.run(Layout::flatOf(elementsOf(op->getOperand(0))), {v.operand(0)},
               0, [&](ArrayRef<Value> ins, Value out, ArrayRef<Value> deps) {
                 SmallVector<Value> operands = {ins[0]};
                 if (table)
                   operands.push_back(table);
                 operands.push_back(out);
                 SmallVector<Value> all(deps);
                 all.push_back(tableLoaded);
                 return v.e.command("npuhw.vec_unary", operands, all, fields,
                                    units, {1, table ? 1 : 0, 1}, attrs);
               });
}
