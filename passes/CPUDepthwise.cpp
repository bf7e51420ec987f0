//===- CPUDepthwise.cpp - depthwise convolutions as register tiles -*- C++ -*-===//
//
// kiln-cpu-depthwise: rewrites a statically shaped f32
// linalg.depthwise_conv_2d_nhwc_hwc (with the zero tensor.pad of SAME
// padding before it and the elementwise consumer after it) into loops over
// output rows, blocks of `lanes` channels and tiles of `tile-w` output pixels
// whose bodies are vector FMAs on registers: the filter packed at compile
// time into channel blocks, the padding handled by loop bounds instead of a
// padded copy of the input, and the consumer (bias, ReLU, ReLU6, ...)
// applied to the accumulators before the one store of each output vector.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/CPUSingleChannelConv.h"
#include "passes/CPUVectorKernels.h"
#include "passes/CPUTiling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

#include <map>

namespace kiln {
#define GEN_PASS_DEF_KILNCPUDEPTHWISEPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

/// A depthwise convolution this pass rewrites and what it reads.
struct Depthwise {
  linalg::DepthwiseConv2DNhwcHwcOp conv;
  /// The unpadded NHWC input and the zero padding before it in H and W.
  Value input;
  int64_t padTop = 0, padLeft = 0;
  /// The [KH, KW, C] filter and, when it is a constant, its values.
  Value filter;
  DenseElementsAttr filterValues;
  /// The constant the accumulator is filled with, if it is a linalg.fill of
  /// one; else the accumulator's initial tensor is read.
  TypedAttr initValue;
  /// The elementwise consumer applied to the accumulators (may be null).
  linalg::GenericOp consumer;
  /// The tensor the loops write: the consumer's init, or the accumulator's.
  Value dest;
  int64_t n, h, w, c, kh, kw, oh, ow, sh, sw;
};

/// Whether `consumer` can run on vectors along channels: a lane-wise body
/// (kiln::hasLanewiseBody) and each input other than `result` indexed by
/// loops, the channel loop (3) if at all as its innermost dim.
bool isVectorizableConsumer(linalg::GenericOp consumer, Value result) {
  if (!kiln::hasLanewiseBody(consumer))
    return false;
  for (OpOperand *operand : consumer.getDpsInputOperands()) {
    if (operand->get() == result)
      continue;
    AffineMap map = consumer.getMatchingIndexingMap(operand);
    auto type = dyn_cast<RankedTensorType>(operand->get().getType());
    if (!type || !type.hasStaticShape() || !map.isProjectedPermutation() ||
        !consumer.getMatchingBlockArgument(operand).getType().isIntOrFloat())
      return false;
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (cast<AffineDimExpr>(expr).getPosition() == 3 &&
          i + 1 != map.getNumResults())
        return false;
  }
  return true;
}

/// The depthwise convolution `conv` as this pass rewrites it, if it can.
std::optional<Depthwise> match(linalg::DepthwiseConv2DNhwcHwcOp conv) {
  if (!conv.hasPureTensorSemantics())
    return std::nullopt;
  Value padded = conv.getDpsInputOperand(0)->get();
  Value filter = conv.getDpsInputOperand(1)->get();
  Value init = conv.getDpsInitOperand(0)->get();
  if (!kiln::isStaticF32Tensor(padded.getType()) || !kiln::isStaticF32Tensor(filter.getType()) ||
      !kiln::isStaticF32Tensor(init.getType()))
    return std::nullopt;
  if (!llvm::all_of(conv.getDilations(),
                    [](const APInt &d) { return d == 1; }))
    return std::nullopt;
  Depthwise dw{};
  dw.conv = conv;
  dw.input = padded;
  if (auto pad = padded.getDefiningOp<tensor::PadOp>()) {
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    Value value = pad.getConstantPaddingValue();
    if (kiln::isStaticF32Tensor(pad.getSourceType()) && value &&
        matchPattern(value, m_AnyZeroFloat()) &&
        !ShapedType::isDynamicShape(low) &&
        !ShapedType::isDynamicShape(high) && low[0] == 0 && high[0] == 0 &&
        low[3] == 0 && high[3] == 0 &&
        llvm::all_of(low, [](int64_t v) { return v >= 0; }) &&
        llvm::all_of(high, [](int64_t v) { return v >= 0; })) {
      dw.input = pad.getSource();
      dw.padTop = low[1];
      dw.padLeft = low[2];
    }
  }
  ArrayRef<int64_t> in = cast<RankedTensorType>(dw.input.getType()).getShape();
  ArrayRef<int64_t> f = cast<RankedTensorType>(filter.getType()).getShape();
  ArrayRef<int64_t> out = cast<RankedTensorType>(init.getType()).getShape();
  dw.n = in[0], dw.h = in[1], dw.w = in[2], dw.c = in[3];
  dw.kh = f[0], dw.kw = f[1], dw.oh = out[1], dw.ow = out[2];
  auto strides = llvm::to_vector(conv.getStrides().getValues<int64_t>());
  dw.sh = strides[0], dw.sw = strides[1];
  if (dw.c == 0 || dw.oh == 0 || dw.ow == 0 || dw.n == 0)
    return std::nullopt;

  dw.filter = filter;
  if (auto constant = filter.getDefiningOp<arith::ConstantOp>())
    if (auto values = dyn_cast<DenseElementsAttr>(constant.getValue());
        values && !values.isSplat())
      dw.filterValues = values;

  dw.dest = init;
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    Attribute value;
    if (matchPattern(fill.getDpsInputOperand(0)->get(), m_Constant(&value)) &&
        isa<FloatAttr>(value)) {
      dw.initValue = cast<TypedAttr>(value);
      dw.dest = fill.getDpsInitOperand(0)->get();
    }
  }
  if (auto consumer = dyn_cast_or_null<linalg::GenericOp>(
          kiln::fusibleConsumer(conv).getOperation())) {
    if (isVectorizableConsumer(consumer, conv->getResult(0))) {
      dw.consumer = consumer;
      dw.dest = consumer.getDpsInitOperand(0)->get();
    }
  }
  return dw;
}

//===----------------------------------------------------------------------===//
// Emitting
//===----------------------------------------------------------------------===//

/// Builds the loops of one depthwise convolution.
class Emitter : public kiln::KernelBuilder {
public:
  Emitter(OpBuilder &b, Location loc, Depthwise dw, int64_t lanes,
          int64_t tileW, Value packed)
      : KernelBuilder(b, loc), dw(dw), lanes(lanes), tileW(tileW), packed(packed),
        vectorType(VectorType::get({lanes}, b.getF32Type())) {
    zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  }

  /// The loops; returns the tensor they wrote.
  Value emit() {
    Value dest = dw.dest;
    int64_t fullBlocks = dw.c / lanes;
    bool partialBlock = dw.c % lanes != 0;
    return loop(0, dw.n, dest, [&](Value n, Value dest) {
      return loop(0, dw.oh, dest, [&](Value oh, Value dest) {
        // The filter rows that fall inside the input for this output row.
        Value top = linear(oh, -dw.sh, dw.padTop);
        Value khLo = arith::MaxSIOp::create(b, loc, top, index(0));
        Value khHi = arith::MinSIOp::create(
            b, loc, linear(oh, -dw.sh, dw.h + dw.padTop), index(dw.kh));
        RowContext row{n, oh, khLo, khHi};
        dest = loop(0, fullBlocks, dest, [&](Value block, Value dest) {
          return emitRow(row, block, dest, /*partial=*/false);
        });
        if (partialBlock)
          dest = emitRow(row, index(fullBlocks), dest, /*partial=*/true);
        return dest;
      });
    });
  }

private:
  struct RowContext {
    Value n, oh, khLo, khHi;
  };


  /// One output row of one channel block: the interior tiles, where every
  /// filter column reads inside the input, in a loop; then the columns at
  /// the borders, each tap outside the input left out at compile time.
  Value emitRow(const RowContext &row, Value block, Value dest, bool partial) {
    Value channel = linear(block, lanes, 0);
    // Interior: ow * sw - padLeft >= 0 and ow * sw - padLeft + KW <= W.
    int64_t lo = std::min<int64_t>(llvm::divideCeil(dw.padLeft, dw.sw), dw.ow);
    int64_t hi = dw.w + dw.padLeft - dw.kw < 0
                     ? 0
                     : std::min((dw.w + dw.padLeft - dw.kw) / dw.sw + 1,
                                dw.ow);
    if (hi < lo)
      hi = lo;
    int64_t tiles = (hi - lo) / tileW;
    int64_t rest = (hi - lo) % tileW;
    dest = loop(0, tiles, dest, [&](Value tile, Value dest) {
      return emitTile(row, block, channel, linear(tile, tileW, lo),
                      std::nullopt, tileW, dest, partial);
    });
    if (rest)
      dest = emitTile(row, block, channel, index(lo + tiles * tileW),
                      std::nullopt, rest, dest, partial);
    for (auto [first, end] : {std::pair{int64_t(0), lo}, std::pair{hi, dw.ow}})
      for (int64_t start = first; start < end; start += tileW) {
        int64_t count = std::min(tileW, end - start);
        dest = emitTile(row, block, channel, index(start), start, count, dest,
                        partial);
      }
    return dest;
  }

  /// The filter vector of tap (kh, kw) for the channel block.
  Value readTap(Value block, Value channel, Value kh, int64_t kw,
                bool partial) {
    if (packed)
      return vector::TransferReadOp::create(
          b, loc, vectorType, packed, ValueRange{block, kh, index(kw), index(0)},
          zero, ArrayRef<bool>{true});
    return vector::TransferReadOp::create(b, loc, vectorType, dw.filter,
                                          ValueRange{kh, index(kw), channel},
                                          zero, ArrayRef<bool>{!partial});
  }

  /// `count` output pixels from column `start` (static when `staticStart`
  /// is set: then taps outside the input are left out), accumulated over
  /// the row's valid filter rows, then the consumer, then one store each.
  Value emitTile(const RowContext &row, Value block, Value channel,
                 Value start, std::optional<int64_t> staticStart,
                 int64_t count, Value dest, bool partial) {
    SmallVector<Value> accs;
    for (int64_t t = 0; t < count; ++t) {
      if (dw.initValue) {
        accs.push_back(arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(vectorType,
                                   ArrayRef<Attribute>(Attribute(dw.initValue)))));
        continue;
      }
      // The accumulator's initial tensor: the loops' own destination
      // (still unwritten at this point) when it is the convolution's.
      Value initial = dw.consumer ? dw.conv.getDpsInitOperand(0)->get() : dest;
      accs.push_back(vector::TransferReadOp::create(
          b, loc, vectorType, initial,
          ValueRange{row.n, row.oh, linear(start, 1, t), channel}, zero,
          ArrayRef<bool>{!partial}));
    }
    auto khLoop = scf::ForOp::create(
        b, loc, row.khLo, row.khHi, index(1), accs,
        [&](OpBuilder &nested, Location, Value kh, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(nested.getInsertionBlock());
          SmallVector<Value> next(args.begin(), args.end());
          Value ih = arith::AddIOp::create(
              b, loc, kh, linear(row.oh, dw.sh, -dw.padTop));
          Value firstColumn = linear(start, dw.sw, -dw.padLeft);
          std::map<int64_t, Value> inputs;
          for (int64_t kw = 0; kw < dw.kw; ++kw) {
            Value tap;
            for (int64_t t = 0; t < count; ++t) {
              int64_t offset = t * dw.sw + kw;
              if (staticStart) {
                int64_t iw = (*staticStart + t) * dw.sw + kw - dw.padLeft;
                if (iw < 0 || iw >= dw.w)
                  continue;
              }
              if (!tap)
                tap = readTap(block, channel, kh, kw, partial);
              Value &input = inputs[offset];
              if (!input)
                input = vector::TransferReadOp::create(
                    b, loc, vectorType, dw.input,
                    ValueRange{row.n, ih, linear(firstColumn, 1, offset),
                               channel},
                    zero, ArrayRef<bool>{!partial});
              next[t] = vector::FMAOp::create(b, loc, input, tap, next[t]);
            }
          }
          scf::YieldOp::create(b, loc, next);
        });
    for (int64_t t = 0; t < count; ++t) {
      Value column = linear(start, 1, t);
      SmallVector<Value> indices{row.n, row.oh, column, channel};
      Value result = khLoop.getResult(t);
      if (dw.consumer)
        result = applyConsumer(result, indices, partial);
      dest = vector::TransferWriteOp::create(b, loc, result, dest, indices,
                                             ArrayRef<bool>{!partial})
                 .getResult();
    }
    return dest;
  }

  /// A scalar as a vector of all lanes.
  Value splat(Value scalar) { return broadcast(scalar, lanes); }

  /// The consumer's body on the vector `acc` of the convolution's output
  /// at `indices` (n, oh, ow, first channel): each other input read at the
  /// same point (a vector along channels, or one element broadcast), each
  /// body op cloned with vector types.
  Value applyConsumer(Value acc, ArrayRef<Value> indices, bool partial) {
    linalg::GenericOp consumer = dw.consumer;
    IRMapping map;
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      BlockArgument arg = consumer.getMatchingBlockArgument(operand);
      if (operand->get() == dw.conv->getResult(0)) {
        map.map(arg, acc);
        continue;
      }
      AffineMap indexing = consumer.getMatchingIndexingMap(operand);
      SmallVector<Value> at;
      bool alongChannels = false;
      for (AffineExpr expr : indexing.getResults()) {
        unsigned dim = cast<AffineDimExpr>(expr).getPosition();
        at.push_back(indices[dim]);
        alongChannels |= dim == 3;
      }
      Type element = arg.getType();
      if (alongChannels) {
        Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
        map.map(arg, vector::TransferReadOp::create(
                         b, loc, VectorType::get({lanes}, element),
                         operand->get(), at, padding,
                         ArrayRef<bool>{!partial}));
      } else {
        map.map(arg, splat(tensor::ExtractOp::create(b, loc, operand->get(),
                                                     at)));
      }
    }
    return cloneBodyOnVectors(consumer, map, lanes);
  }

  Depthwise dw;
  int64_t lanes, tileW;
  Value packed;
  VectorType vectorType;
  Value zero;
};

/// Rewrites `dw`; the loops replace the consumer's (or the convolution's)
/// result.
void rewrite(RewriterBase &rewriter, Depthwise dw, int64_t lanes,
             int64_t tileW) {
  Operation *root = dw.consumer ? dw.consumer.getOperation()
                                : dw.conv.getOperation();
  Location loc = dw.conv.getLoc();
  rewriter.setInsertionPoint(root);
  Value packed;
  if (dw.filterValues && dw.filterValues.getElementType().isF32()) {
    DenseElementsAttr panels = kiln::packPanels(dw.filterValues, lanes);
    packed = arith::ConstantOp::create(rewriter, loc, panels);
  }
  Operation *pad = dw.conv.getDpsInputOperand(0)->get().getDefiningOp();
  Operation *fill = dw.conv.getDpsInitOperand(0)->get().getDefiningOp();
  Emitter emitter(rewriter, loc, dw, lanes, tileW, packed);
  Value result = emitter.emit();
  rewriter.replaceOp(root, result);
  // What only the rewritten ops read: the convolution (when the consumer
  // was the root), its fill and its padded input.
  SmallVector<Operation *> dead;
  if (root != dw.conv.getOperation())
    dead.push_back(dw.conv);
  for (Operation *op : {fill, pad})
    if (isa_and_nonnull<linalg::FillOp, tensor::PadOp>(op))
      dead.push_back(op);
  for (Operation *op : dead)
    if (op->use_empty())
      rewriter.eraseOp(op);
}

struct KilnCPUDepthwisePass final
    : kiln::impl::KilnCPUDepthwisePassBase<KilnCPUDepthwisePass> {
  using Base::Base;

  void runOnOperation() override {
    if (lanes <= 0 || tileW <= 0) {
      getOperation().emitError()
          << "kiln-cpu-depthwise: lanes and tile-w must be positive";
      return signalPassFailure();
    }
    // Convolutions with one output channel first: channel vectors summed
    // per pixel (CPUSingleChannelConv.cpp).
    kiln::rewriteSingleChannelConvs(getOperation(), lanes, tileW);
    SmallVector<linalg::DepthwiseConv2DNhwcHwcOp> convs;
    getOperation().walk(
        [&](linalg::DepthwiseConv2DNhwcHwcOp conv) { convs.push_back(conv); });
    // Matched one at a time: a rewrite replaces the consumer whose result
    // the next convolution may read.
    IRRewriter rewriter(&getContext());
    for (linalg::DepthwiseConv2DNhwcHwcOp conv : convs)
      if (std::optional<Depthwise> dw = match(conv))
        rewrite(rewriter, *dw, lanes, tileW);
  }
};

} // namespace
