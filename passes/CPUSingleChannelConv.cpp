//===- CPUSingleChannelConv.cpp - one-output-channel convs ------*- C++ -*-===//
//
// Part of kiln-cpu-depthwise: a statically shaped f32
// linalg.conv_2d_nhwc_hwcf with a single output channel (a segmentation
// model's last layer) has no output channels to vectorize over, and
// kiln-cpu-tile-and-vectorize turns it into scalar FMAs. Here it becomes
// loops over output rows and tiles of `tile-w` output pixels whose
// accumulators are vectors of `lanes` input channels: every filter tap is
// one vector FMA per pixel, and at the end each pixel's accumulator is
// summed across its lanes (a tree of shuffles and adds). The sums of a
// tile, a vector along W, get the accumulator's initial value and the
// elementwise consumer (bias, sigmoid, ...) and are stored once.
//
//===----------------------------------------------------------------------===//

#include "passes/CPUSingleChannelConv.h"

#include "passes/CPUTiling.h"
#include "passes/CPUVectorKernels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace {

/// A convolution this file rewrites and what it reads.
struct SingleChannelConv {
  linalg::Conv2DNhwcHwcfOp conv;
  Value input, filter;
  /// The constant the accumulator is filled with, if it is a linalg.fill of
  /// one; else the accumulator's initial tensor is read.
  TypedAttr initValue;
  /// The elementwise consumer applied to the sums (may be null).
  linalg::GenericOp consumer;
  /// The tensor the loops write: the consumer's init, or the accumulator's.
  Value dest;
  int64_t n, c, kh, kw, oh, ow, sh, sw;
};

/// Whether `consumer` can run on vectors of output pixels along W: a
/// lane-wise body (kiln::hasLanewiseBody), and inputs other than `result`
/// indexed by loops without W (read once per tile and broadcast: a bias) or
/// by all four loops in order (read along W).
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
    bool alongW = llvm::is_contained(map.getResults(),
                                     getAffineDimExpr(2, map.getContext()));
    if (alongW && !map.isIdentity())
      return false;
  }
  return true;
}

/// `conv` as this file rewrites it, if it can.
std::optional<SingleChannelConv> match(linalg::Conv2DNhwcHwcfOp conv) {
  if (!conv.hasPureTensorSemantics())
    return std::nullopt;
  Value input = conv.getDpsInputOperand(0)->get();
  Value filter = conv.getDpsInputOperand(1)->get();
  Value init = conv.getDpsInitOperand(0)->get();
  if (!kiln::isStaticF32Tensor(input.getType()) ||
      !kiln::isStaticF32Tensor(filter.getType()) ||
      !kiln::isStaticF32Tensor(init.getType()) ||
      !llvm::all_of(conv.getDilations(),
                    [](const APInt &d) { return d == 1; }))
    return std::nullopt;
  ArrayRef<int64_t> f = cast<RankedTensorType>(filter.getType()).getShape();
  ArrayRef<int64_t> out = cast<RankedTensorType>(init.getType()).getShape();
  ArrayRef<int64_t> in = cast<RankedTensorType>(input.getType()).getShape();
  if (f[3] != 1 || llvm::is_contained(out, 0) || in[3] == 0)
    return std::nullopt;
  SingleChannelConv sc{};
  sc.conv = conv;
  sc.input = input;
  sc.filter = filter;
  sc.n = out[0], sc.oh = out[1], sc.ow = out[2], sc.c = in[3];
  sc.kh = f[0], sc.kw = f[1];
  auto strides = llvm::to_vector(conv.getStrides().getValues<int64_t>());
  sc.sh = strides[0], sc.sw = strides[1];
  sc.dest = init;
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    Attribute value;
    if (matchPattern(fill.getDpsInputOperand(0)->get(), m_Constant(&value)) &&
        isa<FloatAttr>(value)) {
      sc.initValue = cast<TypedAttr>(value);
      sc.dest = fill.getDpsInitOperand(0)->get();
    }
  }
  if (auto consumer = dyn_cast_or_null<linalg::GenericOp>(
          kiln::fusibleConsumer(conv).getOperation())) {
    if (isVectorizableConsumer(consumer, conv->getResult(0))) {
      sc.consumer = consumer;
      sc.dest = consumer.getDpsInitOperand(0)->get();
    }
  }
  return sc;
}

/// Builds the loops of one convolution.
class Emitter : public kiln::KernelBuilder {
public:
  Emitter(OpBuilder &b, Location loc, SingleChannelConv sc, Value filter,
          int64_t lanes, int64_t tileW)
      : KernelBuilder(b, loc), sc(sc), filter(filter), lanes(lanes), tileW(tileW),
        laneType(VectorType::get({lanes}, b.getF32Type())) {
    zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  }

  /// The loops; returns the tensor they wrote.
  Value emit() {
    return loop(0, sc.n, sc.dest, [&](Value n, Value dest) {
      return loop(0, sc.oh, dest, [&](Value oh, Value dest) {
        int64_t tiles = sc.ow / tileW, rest = sc.ow % tileW;
        dest = loop(0, tiles, dest, [&](Value tile, Value dest) {
          return emitTile(n, oh, linear(tile, tileW, 0), tileW, dest);
        });
        if (rest)
          dest = emitTile(n, oh, index(tiles * tileW), rest, dest);
        return dest;
      });
    });
  }

private:

  /// The FMAs of one channel block (from `channel`, partial when C ends
  /// inside it: the lanes past C read zeros) for filter row `kh`.
  void accumulate(Value ih, Value kh, Value firstColumn, Value channel,
                  bool partial, SmallVectorImpl<Value> &accs, Value n) {
    for (int64_t kw = 0; kw < sc.kw; ++kw) {
      Value tap = vector::TransferReadOp::create(
          b, loc, laneType, filter, ValueRange{kh, index(kw), channel}, zero,
          ArrayRef<bool>{!partial});
      for (size_t t = 0; t < accs.size(); ++t) {
        Value input = vector::TransferReadOp::create(
            b, loc, laneType, sc.input,
            ValueRange{n, ih, linear(firstColumn, 1, t * sc.sw + kw), channel},
            zero, ArrayRef<bool>{!partial});
        accs[t] = vector::FMAOp::create(b, loc, input, tap, accs[t]);
      }
    }
  }

  /// `count` output pixels from column `start` of row `oh`.
  Value emitTile(Value n, Value oh, Value start, int64_t count, Value dest) {
    SmallVector<Value> accs(
        count, arith::ConstantOp::create(b, loc, b.getZeroAttr(laneType)));
    int64_t fullBlocks = sc.c / lanes;
    bool partialBlock = sc.c % lanes != 0;
    Value firstColumn = linear(start, sc.sw, 0);
    auto khLoop = scf::ForOp::create(
        b, loc, index(0), index(sc.kh), index(1), accs,
        [&](OpBuilder &nested, Location, Value kh, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(nested.getInsertionBlock());
          Value ih = arith::AddIOp::create(b, loc, kh, linear(oh, sc.sh, 0));
          SmallVector<Value> next(args.begin(), args.end());
          if (fullBlocks == 1) {
            accumulate(ih, kh, firstColumn, index(0), false, next, n);
          } else if (fullBlocks > 1) {
            auto blocks = scf::ForOp::create(
                b, loc, index(0), index(fullBlocks), index(1), next,
                [&](OpBuilder &inner, Location, Value block,
                    ValueRange blockArgs) {
                  OpBuilder::InsertionGuard guard(b);
                  b.setInsertionPointToStart(inner.getInsertionBlock());
                  SmallVector<Value> accsIn(blockArgs.begin(),
                                            blockArgs.end());
                  accumulate(ih, kh, firstColumn, linear(block, lanes, 0),
                             false, accsIn, n);
                  scf::YieldOp::create(b, loc, accsIn);
                });
            next.assign(blocks.getResults().begin(), blocks.getResults().end());
          }
          if (partialBlock)
            accumulate(ih, kh, firstColumn, index(fullBlocks * lanes), true,
                       next, n);
          scf::YieldOp::create(b, loc, next);
        });

    VectorType rowType = VectorType::get({count}, b.getF32Type());
    Value row = sumLanes(SmallVector<Value>(khLoop.getResults()));
    SmallVector<Value> indices{n, oh, start, index(0)};
    Value initial;
    if (sc.initValue) {
      if (!matchPattern(sc.initValue, m_AnyZeroFloat()))
        initial = arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(
                rowType, ArrayRef<Attribute>(Attribute(sc.initValue))));
    } else {
      // The accumulator's initial tensor: the loops' own destination (still
      // unwritten at this point) when it is the convolution's.
      Value init = sc.consumer ? sc.conv.getDpsInitOperand(0)->get() : dest;
      initial = readAlongW(init, indices, count);
    }
    if (initial)
      row = arith::AddFOp::create(b, loc, initial, row);
    if (sc.consumer)
      row = applyConsumer(row, indices, count);
    return vector::TransferWriteOp::create(b, loc, row, dest, indices,
                                           alongW(), ArrayRef<bool>{true})
        .getResult();
  }

  /// Each accumulator's sum across its lanes (in any order), as one vector
  /// of `accs.size()` sums. When that count and `lanes` are powers of two
  /// and the count is at most `lanes`, a tree of shuffles and adds: each
  /// vector holds groups of partial sums of some pixels; two vectors of g
  /// groups merge into one of 2g groups half as long (the first halves of
  /// every group added to the second halves), and the last vector's groups
  /// are halved in place until each is one lane. Otherwise one
  /// `vector.reduction` (reassoc) per pixel.
  Value sumLanes(SmallVector<Value> accs) {
    int64_t count = accs.size();
    if (!llvm::isPowerOf2_64(count) || !llvm::isPowerOf2_64(lanes) ||
        count > lanes) {
      SmallVector<Value> sums;
      for (Value acc : accs)
        sums.push_back(vector::ReductionOp::create(
            b, loc, vector::CombiningKind::ADD, acc,
            arith::FastMathFlags::reassoc));
      return vector::FromElementsOp::create(
          b, loc, VectorType::get({count}, b.getF32Type()), sums);
    }
    // `halves(first, second, groups)`: of two vectors of `groups` groups
    // (the second may be the first), the lanes of the first (or second)
    // half of every group, the first vector's groups first.
    auto halves = [&](Value first, Value second, int64_t groups, bool upper) {
      int64_t width = cast<VectorType>(first.getType()).getNumElements();
      int64_t size = width / groups;
      SmallVector<int64_t> mask;
      for (int64_t source : {int64_t(0), width})
        for (int64_t g = 0; g < groups; ++g)
          for (int64_t i = 0; i < size / 2; ++i)
            mask.push_back(source + g * size + (upper ? size / 2 : 0) + i);
      if (first == second)
        mask.resize(mask.size() / 2);
      return vector::ShuffleOp::create(b, loc, first, second, mask)
          .getResult();
    };
    auto fold = [&](Value first, Value second, int64_t groups) -> Value {
      return arith::AddFOp::create(b, loc, halves(first, second, groups, false),
                                   halves(first, second, groups, true));
    };
    int64_t groups = 1;
    while (accs.size() > 1) {
      SmallVector<Value> merged;
      for (size_t i = 0; i < accs.size(); i += 2)
        merged.push_back(fold(accs[i], accs[i + 1], groups));
      accs = std::move(merged);
      groups *= 2;
    }
    Value sums = accs.front();
    while (cast<VectorType>(sums.getType()).getNumElements() > count)
      sums = fold(sums, sums, count);
    return sums;
  }

  /// The map of a 4-D NHWC tensor to a vector along W.
  AffineMap alongW() {
    return AffineMap::get(4, 0, getAffineDimExpr(2, b.getContext()),
                          b.getContext());
  }

  /// `count` elements of NHWC `tensor` from `indices` along W.
  Value readAlongW(Value tensor, ArrayRef<Value> indices, int64_t count) {
    Type element = cast<RankedTensorType>(tensor.getType()).getElementType();
    Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
    return vector::TransferReadOp::create(
        b, loc, VectorType::get({count}, element), tensor, indices, padding,
        alongW(), ArrayRef<bool>{true});
  }

  /// The consumer's body on the sums `row` at `indices` (n, oh, first ow,
  /// 0): each other input read along W or broadcast, each body op cloned
  /// with vector types.
  Value applyConsumer(Value row, ArrayRef<Value> indices, int64_t count) {
    auto splat = [&](Value scalar) { return broadcast(scalar, count); };
    linalg::GenericOp consumer = sc.consumer;
    IRMapping map;
    for (OpOperand *operand : consumer.getDpsInputOperands()) {
      BlockArgument arg = consumer.getMatchingBlockArgument(operand);
      if (operand->get() == sc.conv->getResult(0)) {
        map.map(arg, row);
        continue;
      }
      AffineMap indexing = consumer.getMatchingIndexingMap(operand);
      if (indexing.isIdentity()) {
        map.map(arg, readAlongW(operand->get(), indices, count));
        continue;
      }
      SmallVector<Value> at;
      for (AffineExpr expr : indexing.getResults())
        at.push_back(indices[cast<AffineDimExpr>(expr).getPosition()]);
      map.map(arg,
              splat(tensor::ExtractOp::create(b, loc, operand->get(), at)));
    }
    return cloneBodyOnVectors(consumer, map, count);
  }

  SingleChannelConv sc;
  Value filter;
  int64_t lanes, tileW;
  VectorType laneType;
  Value zero;
};

/// Rewrites `sc`; the loops replace the consumer's (or the convolution's)
/// result.
void rewrite(RewriterBase &rewriter, SingleChannelConv sc, int64_t lanes,
             int64_t tileW) {
  Operation *root = sc.consumer ? sc.consumer.getOperation()
                                : sc.conv.getOperation();
  Location loc = sc.conv.getLoc();
  rewriter.setInsertionPoint(root);
  // [KH, KW, C, 1] as [KH, KW, C]: the taps of a channel block contiguous.
  Value filter = tensor::CollapseShapeOp::create(
      rewriter, loc, sc.filter,
      SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
  Operation *fill = sc.conv.getDpsInitOperand(0)->get().getDefiningOp();
  Emitter emitter(rewriter, loc, sc, filter, lanes, tileW);
  Value result = emitter.emit();
  rewriter.replaceOp(root, result);
  SmallVector<Operation *> dead;
  if (root != sc.conv.getOperation())
    dead.push_back(sc.conv);
  if (isa_and_nonnull<linalg::FillOp>(fill))
    dead.push_back(fill);
  for (Operation *op : dead)
    if (op->use_empty())
      rewriter.eraseOp(op);
}

} // namespace

void kiln::rewriteSingleChannelConvs(mlir::func::FuncOp func, int64_t lanes,
                                     int64_t tileW) {
  SmallVector<linalg::Conv2DNhwcHwcfOp> convs;
  func.walk([&](linalg::Conv2DNhwcHwcfOp conv) { convs.push_back(conv); });
  IRRewriter rewriter(func.getContext());
  for (linalg::Conv2DNhwcHwcfOp conv : convs)
    if (std::optional<SingleChannelConv> sc = match(conv))
      rewrite(rewriter, *sc, lanes, tileW);
}
