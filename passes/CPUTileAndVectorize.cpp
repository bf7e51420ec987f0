//===- CPUTileAndVectorize.cpp - register tiles + vectors -------*- C++ -*-===//
//
// Tiles the linalg ops of a function on tensors to register-sized tiles,
// fuses the elementwise consumer of a contraction or convolution into its
// tiles, decomposes 2-D convolutions and pooling into 1-D ones, vectorizes
// every tile, and lowers the resulting vector.contract ops to FMAs.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/CPUHoistAccumulators.h"
#include "passes/CPUTiling.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/IR/IRMapping.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUTILEANDVECTORIZEPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using kiln::fusibleConsumer;
using kiln::isHeavyOp;

namespace {

/// Marks the tile loops this pass creates until they are peeled.
constexpr llvm::StringLiteral kTileLoopAttr = "__kiln_cpu_tile_loop__";

/// The largest iteration space (in elements) that is vectorized as one piece.
/// Every tile this pass makes fits; an op it could not tile is left alone
/// rather than turned into one huge vector.
constexpr int64_t kMaxVectorElements = 1 << 15;

/// Tile sizes of one op: the first level tiles parallel loops (the output
/// tile, into which producers and the consumer are fused), the second level
/// tiles reduction loops of the tiled op. Zero means "not tiled".
struct TileSizes {
  SmallVector<int64_t> parallel;
  SmallVector<int64_t> reduction;
};

/// Register tile sizes from the pass options.
struct RegisterTile {
  int64_t vectorWidth, m, n, k;
};

//===----------------------------------------------------------------------===//
// Choosing tile sizes
//===----------------------------------------------------------------------===//

/// Whether `op` is one of the convolutions or poolings in NHWC layout that
/// upstream decomposes to 1-D ops after OH and KH are tiled to 1. The loops
/// are (n, oh, ow, c-or-f, kh, kw[, c]).
bool isDecomposableWindowOp(Operation *op) {
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
             linalg::PoolingNhwcMaxOp, linalg::PoolingNhwcSumOp,
             linalg::PoolingNhwcMinOp, linalg::PoolingNhwcMaxUnsignedOp,
             linalg::PoolingNhwcMinUnsignedOp>(op);
}

/// Whether `op` is a contraction this pass tiles to a register tile.
bool isTiledContraction(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op))
    return false;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  return succeeded(dims) && !dims->m.empty() && !dims->n.empty() &&
         !dims->k.empty();
}


/// The K tile of narrower outputs than the register tile.
constexpr int64_t kNarrowTileK = 16;

/// The reduction tile of a contraction or convolution whose output has `n`
/// columns (channels): `tile.k` when every N tile is whole (`n` a multiple
/// of `tile.n`), else at least kNarrowTileK. Measured on this project's
/// AVX-512 host (docs/performance.md): a K tile of 4 beats 16 on whole
/// 8 x 32 tiles (the 16 x 32 weight tile of K = 16 spills registers), but
/// made a 1x1 convolution to 24 channels 2.6x slower (its narrow tiles
/// become shuffles per K step). kiln-cpu-pack-weights splits a constant
/// filter's channels into whole panels and a last partial one, so only the
/// partial panel keeps the longer K tile.
int64_t reductionTile(int64_t n, const RegisterTile &tile) {
  if (ShapedType::isDynamic(n) || n % tile.n != 0)
    return std::max(tile.k, kNarrowTileK);
  return tile.k;
}

/// Tile sizes of a contraction: the innermost M and N dims to the register
/// tile, the innermost K dim to `tile.k`, every other dim to 1.
TileSizes contractionTileSizes(linalg::LinalgOp op, const RegisterTile &tile) {
  unsigned numLoops = op.getNumLoops();
  TileSizes sizes{SmallVector<int64_t>(numLoops, 0),
                  SmallVector<int64_t>(numLoops, 0)};
  linalg::ContractionDimensions dims = *linalg::inferContractionDims(op);
  for (unsigned d : dims.batch)
    sizes.parallel[d] = 1;
  for (unsigned d : dims.m)
    sizes.parallel[d] = 1;
  for (unsigned d : dims.n)
    sizes.parallel[d] = 1;
  for (unsigned d : dims.k)
    sizes.reduction[d] = 1;
  sizes.parallel[dims.m.back()] = tile.m;
  sizes.parallel[dims.n.back()] = kiln::contractionTileN(
      op.getStaticLoopRanges()[dims.m.back()], tile.m, tile.n);
  sizes.reduction[dims.k.back()] =
      reductionTile(op.getStaticLoopRanges()[dims.n.back()], tile);
  return sizes;
}

/// Tile sizes of an NHWC convolution or pooling: N, OH and KH to 1 (so that
/// the tile decomposes to a 1-D op), OW to `tile.m`, output channels to
/// `tile.n`, input channels to `tile.k`; KW stays whole when static.
TileSizes windowTileSizes(linalg::LinalgOp op, const RegisterTile &tile) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t kw = ShapedType::isDynamic(ranges[5]) ? 1 : 0;
  if (isa<linalg::Conv2DNhwcHwcfOp>(op))
    return {{1, 1, tile.m, tile.n, 0, 0, 0},
            {0, 0, 0, 0, 1, kw, reductionTile(ranges[3], tile)}};
  return {{1, 1, tile.m, tile.n, 0, 0}, {0, 0, 0, 0, 1, kw}};
}

/// The loop that walks the innermost dim of `value` through `map`, if that
/// dim is a plain loop index.
std::optional<unsigned> innermostLoop(AffineMap map) {
  if (map.getNumResults() == 0)
    return std::nullopt;
  if (auto dim = dyn_cast<AffineDimExpr>(map.getResults().back()))
    return dim.getPosition();
  return std::nullopt;
}

/// Tile sizes of any other op: every loop to 1 except the loop over the
/// innermost output dim (and, for reductions, the loop over the innermost
/// dim of the first input when it is a reduction), tiled to the vector width.
TileSizes genericTileSizes(linalg::LinalgOp op, const RegisterTile &tile) {
  unsigned numLoops = op.getNumLoops();
  TileSizes sizes{SmallVector<int64_t>(numLoops, 0),
                  SmallVector<int64_t>(numLoops, 0)};
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0; d < numLoops; ++d) {
    if (linalg::isParallelIterator(iterators[d]))
      sizes.parallel[d] = 1;
    else
      sizes.reduction[d] = 1;
  }
  if (op.getNumDpsInits() > 0) {
    std::optional<unsigned> inner =
        innermostLoop(op.getMatchingIndexingMap(op.getDpsInitOperand(0)));
    if (inner && linalg::isParallelIterator(iterators[*inner]))
      sizes.parallel[*inner] = tile.vectorWidth;
  }
  if (op.getNumDpsInputs() > 0 && op.getNumReductionLoops() > 0) {
    std::optional<unsigned> inner =
        innermostLoop(op.getMatchingIndexingMap(op.getDpsInputOperand(0)));
    if (inner && linalg::isReductionIterator(iterators[*inner]))
      sizes.reduction[*inner] = tile.vectorWidth;
  }
  return sizes;
}

TileSizes chooseTileSizes(linalg::LinalgOp op, const RegisterTile &tile) {
  if (isDecomposableWindowOp(op))
    return windowTileSizes(op, tile);
  if (isTiledContraction(op))
    return contractionTileSizes(op, tile);
  return genericTileSizes(op, tile);
}

//===----------------------------------------------------------------------===//
// Tiling and fusion
//===----------------------------------------------------------------------===//

/// Whether `op` lies inside a tile loop made by this pass.
bool isInsideTile(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->hasAttr(kTileLoopAttr))
      return true;
  return false;
}

void markTileLoops(ArrayRef<LoopLikeOpInterface> loops) {
  for (LoopLikeOpInterface loop : loops)
    loop->setAttr(kTileLoopAttr, UnitAttr::get(loop->getContext()));
}

/// Tiles the reduction loops of `op` (already inside its output tile).
LogicalResult tileReductions(RewriterBase &rewriter, linalg::LinalgOp op,
                             ArrayRef<int64_t> sizes) {
  if (llvm::all_of(sizes, [](int64_t s) { return s == 0; }))
    return success();
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  markTileLoops(tiled->loops);
  rewriter.replaceOp(op, tiled->replacements);
  return success();
}

/// Tiles `heavy` (or its elementwise consumer, with `heavy` fused in) to its
/// output tile, fusing the `linalg.fill` that initializes its accumulator,
/// then tiles its reduction loops.
LogicalResult tileHeavyOp(RewriterBase &rewriter, linalg::LinalgOp heavy,
                          const RegisterTile &tile, bool fuseConsumer) {
  TileSizes sizes = chooseTileSizes(heavy, tile);
  linalg::LinalgOp root = heavy;
  SmallVector<int64_t> rootSizes = sizes.parallel;
  if (linalg::LinalgOp consumer = fuseConsumer ? fusibleConsumer(heavy)
                                               : linalg::LinalgOp()) {
    root = consumer;
    AffineMap outputMap =
        heavy.getIndexingMapMatchingResult(heavy->getResult(0));
    rootSizes.clear();
    for (AffineExpr expr : outputMap.getResults())
      rootSizes.push_back(
          sizes.parallel[cast<AffineDimExpr>(expr).getPosition()]);
  }

  Operation *heavyOp = heavy.getOperation();
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      kiln::tileAndFuseHeavyOp(rewriter, heavy, root, rootSizes);
  if (failed(tiled))
    return failure();
  markTileLoops(tiled->loops);
  for (OpResult result : root->getResults())
    if (Value replacement = tiled->replacements.lookup(result))
      rewriter.replaceAllUsesWith(result, replacement);

  // The tile of the heavy op: the op of its kind among the tiled ones.
  linalg::LinalgOp tiledHeavy;
  for (Operation *op : tiled->tiledAndFusedOps)
    if (op->getName() == heavyOp->getName())
      tiledHeavy = cast<linalg::LinalgOp>(op);
  if (root->use_empty())
    rewriter.eraseOp(root);
  if (root != heavy && heavyOp->use_empty())
    rewriter.eraseOp(heavyOp);
  if (!tiledHeavy)
    return success();
  return tileReductions(rewriter, tiledHeavy, sizes.reduction);
}

/// Tiles an op that is not heavy: the parallel level, then the reduction
/// level of the tile.
LogicalResult tileOtherOp(RewriterBase &rewriter, linalg::LinalgOp op,
                          const RegisterTile &tile) {
  TileSizes sizes = chooseTileSizes(op, tile);
  scf::SCFTilingOptions options;
  options.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), sizes.parallel));
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(tiled))
    return failure();
  markTileLoops(tiled->loops);
  rewriter.replaceOp(op, tiled->replacements);
  auto tiledOp = dyn_cast<linalg::LinalgOp>(tiled->tiledOps.back());
  if (!tiledOp)
    return success();
  return tileReductions(rewriter, tiledOp, sizes.reduction);
}

/// Whether `op` is a linalg.generic with an input that is a rank-reducing
/// tensor.extract_slice (as tf.Unpack makes). Such ops are neither tiled nor vectorized and become
/// scalar loops: tiled, the slices of the slice merge into operands of the
/// wrong shape; vectorized, folding the slice into the transfer_read and
/// lowering its permutation map gives a vector<3x1> where the op computes a
/// vector<1x3>, i.e. wrong results (MLIR 22; movenet-multipose hit it).
bool readsRankReducingSlice(linalg::LinalgOp op) {
  // Named ops (the 1-D convolutions the decomposition makes read
  // rank-reducing slices of the 2-D tiles) vectorize correctly.
  if (!isa<linalg::GenericOp>(op))
    return false;
  return llvm::any_of(op.getDpsInputs(), [](Value input) {
    auto slice = input.getDefiningOp<tensor::ExtractSliceOp>();
    return slice &&
           slice.getResultType().getRank() < slice.getSourceType().getRank();
  });
}

/// Whether to tile `op`: a linalg op on tensors, with loops, not already
/// inside a tile, not reading a rank-reducing slice.
bool shouldTile(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumLoops() == 0 ||
      isInsideTile(op) || readsRankReducingSlice(op))
    return false;
  return isa<TilingInterface>(op.getOperation());
}

/// Whether `op` iterates over nothing: one of its loops has the static
/// size 0 (a reduction over an empty axis, a matmul with K = 0, an empty
/// output). Tiling such an op crashes upstream (MLIR 22,
/// linalg::computeTileSizes), and there is nothing to tile.
bool hasEmptyIterationSpace(linalg::LinalgOp op) {
  return llvm::is_contained(op.getStaticLoopRanges(), 0);
}

/// Replaces every linalg op on tensors that iterates over nothing by its
/// inits: its body never runs, so each result is the matching init (the
/// neutral element a reduction over an empty axis starts from, the zero of
/// a matmul with K = 0, or an empty tensor).
void foldEmptyIterationSpaces(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<linalg::LinalgOp> empty;
  func.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && op->getNumResults() > 0 &&
        hasEmptyIterationSpace(op))
      empty.push_back(op);
  });
  for (linalg::LinalgOp op : empty) {
    SmallVector<Value> inits = llvm::to_vector(op.getDpsInits());
    if (inits.size() != op->getNumResults() ||
        llvm::any_of(llvm::zip(inits, op->getResultTypes()), [](auto pair) {
          return std::get<0>(pair).getType() != std::get<1>(pair);
        }))
      continue;
    rewriter.replaceOp(op, inits);
  }
}

//===----------------------------------------------------------------------===//
// Peeling
//===----------------------------------------------------------------------===//

/// Peels every tile loop whose step may not divide its trip count, so that
/// the main loop sees static tiles; the peeled last iteration keeps the
/// partial tile. Removes the marks.
void peelTileLoops(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<scf::ForOp> worklist;
  func.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    if (loop->hasAttr(kTileLoopAttr))
      worklist.push_back(loop);
  });
  while (!worklist.empty()) {
    scf::ForOp loop = worklist.pop_back_val();
    loop->removeAttr(kTileLoopAttr);
    scf::ForOp partial;
    rewriter.setInsertionPoint(loop);
    if (failed(scf::peelForLoopAndSimplifyBounds(rewriter, loop, partial)) ||
        !partial)
      continue;
    partial->removeAttr(kTileLoopAttr);
    partial.walk([&](scf::ForOp nested) {
      if (nested != partial && nested->hasAttr(kTileLoopAttr))
        worklist.push_back(nested);
    });
  }
  // Loops that were never peeled (single iteration, or already divisible)
  // keep no mark either.
  func.walk([](scf::ForOp loop) { loop->removeAttr(kTileLoopAttr); });
}

//===----------------------------------------------------------------------===//
// Vectorization
//===----------------------------------------------------------------------===//

/// Upper bounds of the loop ranges of `op` (static sizes, or constant bounds
/// of dynamic ones such as `affine.min` tile sizes); failure if a loop has
/// none or the tile is too large for one vector.
FailureOr<SmallVector<int64_t>> vectorSizes(linalg::LinalgOp op) {
  SmallVector<int64_t> sizes = op.getStaticLoopRanges();
  int64_t elements = 1;
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    if (ShapedType::isDynamic(size)) {
      Value operand;
      unsigned operandDim;
      if (failed(op.mapIterationSpaceDimToOperandDim(dim, operand,
                                                     operandDim)))
        return failure();
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, {operand, operandDim},
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(bound) || *bound <= 0)
        return failure();
      size = *bound;
    }
    elements *= size;
    if (elements > kMaxVectorElements)
      return failure();
  }
  return sizes;
}

/// Whether an operand or result of `op` has i1 elements. Such ops stay
/// scalar loops: a memref of i1 holds one byte per element, but LLVM loads
/// and stores a vector<N x i1> as packed bits, so a vectorized access to a
/// boolean buffer reads the wrong elements (MLIR 22).
bool hasBooleanOperand(linalg::LinalgOp op) {
  auto isBoolean = [](Type type) {
    return getElementTypeOrSelf(type).isInteger(1);
  };
  return llvm::any_of(op->getOperandTypes(), isBoolean) ||
         llvm::any_of(op->getResultTypes(), isBoolean);
}

/// Vectorizes every linalg op small enough to be vectors:
/// static tiles directly, partial tiles with masks where upstream allows.
void vectorizeTiles(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<linalg::LinalgOp> candidates;
  func.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() && !hasBooleanOperand(op) &&
        !readsRankReducingSlice(op))
      candidates.push_back(op);
  });
  for (linalg::LinalgOp op : candidates) {
    FailureOr<SmallVector<int64_t>> sizes = vectorSizes(op);
    if (failed(sizes))
      continue;
    // Static tiles need no vector sizes; partial ones are masked to their
    // upper bounds (none of them scalable).
    SmallVector<int64_t> masked;
    if (op.hasDynamicShape())
      masked = *sizes;
    SmallVector<bool> scalable(masked.size(), false);
    // tensor.extract in a body (gathers: resize, embedding lookups) becomes
    // vector.gather, or a plain load where the indices are contiguous.
    if (failed(linalg::vectorizeOpPrecondition(op, masked, scalable,
                                               /*vectorizeNDExtract=*/true)))
      continue;
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::VectorizationResult> result = linalg::vectorize(
        rewriter, op, masked, scalable,
        /*vectorizeNDExtract=*/true, /*flatten1DDepthwiseConv=*/false,
        /*assumeDynamicDimsMatchVecSizes=*/false,
        /*createNamedContraction=*/true);
    if (failed(result))
      continue;
    if (result->replacements.empty())
      rewriter.eraseOp(op);
    else
      rewriter.replaceOp(op, result->replacements);
  }
}

/// Whether `value` comes from a vector.transfer_read padded with zero (masked
/// or not), through casts and layout changes that keep zeros zero.
bool isZeroPaddedRead(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto mask = dyn_cast<vector::MaskOp>(def))
      def = mask.getMaskableOp();
    if (auto read = dyn_cast_or_null<vector::TransferReadOp>(def))
      return matchPattern(read.getPadding(), m_AnyZeroFloat()) ||
             matchPattern(read.getPadding(), m_Zero());
    if (!isa<arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncFOp,
             arith::SIToFPOp, arith::UIToFPOp, vector::TransposeOp,
             vector::BroadcastOp, vector::ShapeCastOp>(def) ||
        def->getNumOperands() != 1)
      return false;
    value = def->getOperand(0);
  }
  return false;
}

/// Drops the mask of a masked vector.contract (a partial contraction tile)
/// when its operands were read with zero padding: the lanes past the tile
/// then add zero products, the lanes inside compute what the mask would,
/// and the masked write of the result drops the rest. The unmasked contract
/// lowers to plain FMAs instead of a select per element.
void unmaskContractions(RewriterBase &rewriter, func::FuncOp func) {
  SmallVector<vector::MaskOp> masks;
  func.walk([&](vector::MaskOp mask) {
    auto contract =
        dyn_cast_or_null<vector::ContractionOp>(mask.getMaskableOp());
    if (contract && !mask.hasPassthru() &&
        contract.getKind() == vector::CombiningKind::ADD &&
        isZeroPaddedRead(contract.getLhs()) &&
        isZeroPaddedRead(contract.getRhs()))
      masks.push_back(mask);
  });
  for (vector::MaskOp mask : masks) {
    rewriter.setInsertionPoint(mask);
    Operation *contract = rewriter.clone(*mask.getMaskableOp());
    rewriter.replaceOp(mask, contract->getResults());
  }
}


//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Gives a loop-carried tensor the static type of its initial value. The
/// reduction loop of a tile is made while the tile's sizes are still
/// `affine.min` values, so it carries `tensor<1x1x?x?xf32>`; peeling makes
/// the tile static and leaves `tensor.cast %acc : tensor<1x1x8x32xf32> to
/// tensor<1x1x?x?xf32>` as the loop's initial value. Upstream's folder of the
/// same shape (scf.for canonicalization) only fires when the loop's result
/// has one use, which the peeled last reduction step breaks; the result then
/// stays dynamic, the fused consumer reading it is vectorized with masks, and
/// the transfer_read inside its vector.mask is later forwarded from the
/// tile's unmasked transfer_write into a vector.insert, which vector.mask
/// rejects (EfficientNetB0, MLIR 22). This folds the cast whatever the uses
/// of the result; they read a cast of the static result.
struct StaticLoopCarriedTile final : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &init : loop.getInitArgsMutable()) {
      auto cast = init.get().getDefiningOp<tensor::CastOp>();
      if (!cast || cast.getSource().getType() == cast.getType() ||
          !tensor::preservesStaticInformation(cast.getType(),
                                              cast.getSource().getType()))
        continue;
      rewriter.replaceOp(
          loop, scf::replaceAndCastForOpIterArg(
                    rewriter, loop, init, cast.getSource(),
                    [](OpBuilder &b, Location loc, Type type, Value source) {
                      return tensor::CastOp::create(b, loc, type, source)
                          .getResult();
                    }));
      return success();
    }
    return rewriter.notifyMatchFailure(loop, "no init widened by a cast");
  }
};

//===----------------------------------------------------------------------===//
// Pattern sets
//===----------------------------------------------------------------------===//

/// All canonicalization patterns of the loaded dialects and ops, plus the
/// folding of tile sizes and slices that peeling makes static.
void populateCleanupPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  for (Dialect *dialect : ctx->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : ctx->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, ctx);
  tensor::populateMergeConsecutiveInsertExtractSlicePatterns(patterns);
  patterns.add<StaticLoopCarriedTile>(ctx);
}

/// Vector-level rewrites done on tensors: contractions to FMAs, transfers
/// with permutations to plain ones, masks folded into the masked ops.
void populateVectorLoweringPatterns(RewritePatternSet &patterns) {
  vector::populateVectorReductionToContractPatterns(patterns);
  vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
  vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
  vector::populateVectorContractLoweringPatterns(
      patterns, vector::VectorContractLowering::OuterProduct);
  vector::populateVectorOuterProductLoweringPatterns(patterns);
  vector::populateVectorMultiReductionLoweringPatterns(
      patterns, vector::VectorMultiReductionLowering::InnerParallel);
  vector::populateVectorTransposeLoweringPatterns(
      patterns, vector::VectorTransposeLowering::Shuffle1D);
  vector::populateVectorBroadcastLoweringPatterns(patterns);
  vector::populateVectorShapeCastLoweringPatterns(patterns);
  vector::TransferReadOp::getCanonicalizationPatterns(patterns,
                                                      patterns.getContext());
  vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                       patterns.getContext());
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnCPUTileAndVectorizePass final
    : kiln::impl::KilnCPUTileAndVectorizePassBase<
          KilnCPUTileAndVectorizePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    if (vectorWidth <= 0 || tileM <= 0 || tileN <= 0 || tileK <= 0) {
      func.emitError() << "kiln-cpu-tile-and-vectorize: tile sizes and the "
                          "vector width must be positive";
      return signalPassFailure();
    }
    RegisterTile tile{vectorWidth, tileM, tileN, tileK};
    IRRewriter rewriter(ctx);

    // 0. Ops that iterate over nothing are their inits.
    foldEmptyIterationSpaces(rewriter, func);

    // 1. Heavy ops first, each with its elementwise consumer.
    SmallVector<linalg::LinalgOp> heavy;
    func.walk([&](linalg::LinalgOp op) {
      if (shouldTile(op) && isHeavyOp(op))
        heavy.push_back(op);
    });
    // An op that cannot be tiled stays whole and becomes loops later.
    for (linalg::LinalgOp op : heavy)
      (void)tileHeavyOp(rewriter, op, tile, fuseConsumers);
    eraseDeadOps(func);

    // 2. Every other linalg op outside the tiles.
    SmallVector<linalg::LinalgOp> others;
    func.walk([&](linalg::LinalgOp op) {
      if (shouldTile(op))
        others.push_back(op);
    });
    for (linalg::LinalgOp op : others)
      (void)tileOtherOp(rewriter, op, tile);

    // 3. Static main tiles, partial last tiles.
    peelTileLoops(rewriter, func);
    FrozenRewritePatternSet cleanup = [&] {
      RewritePatternSet patterns(ctx);
      populateCleanupPatterns(patterns);
      return FrozenRewritePatternSet(std::move(patterns));
    }();
    (void)applyPatternsGreedily(func, cleanup);

    // 4. 2-D convolutions and pooling with OH = KH = 1 to 1-D ones.
    {
      RewritePatternSet patterns(ctx);
      linalg::populateDecomposeConvolutionPatterns(patterns);
      populateCleanupPatterns(patterns);
      (void)applyPatternsGreedily(func, std::move(patterns));
    }

    // 5. Vectors, accumulators out of the reduction loops, FMAs.
    vectorizeTiles(rewriter, func);
    unmaskContractions(rewriter, func);
    {
      // Slices of the tiles fold into the transfers, so each tile is read
      // and written in place (no rank-reducing slice for bufferization to
      // copy).
      RewritePatternSet patterns(ctx);
      populateCleanupPatterns(patterns);
      tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
      (void)applyPatternsGreedily(func, std::move(patterns));
    }
    kiln::hoistAccumulatorTiles(rewriter, func);
    {
      RewritePatternSet patterns(ctx);
      populateVectorLoweringPatterns(patterns);
      // Loop-carried tiles whose values moved into vectors are dropped.
      scf::ForOp::getCanonicalizationPatterns(patterns, ctx);
      (void)applyPatternsGreedily(func, std::move(patterns));
    }
  }

  /// Erases linalg ops left without uses by fusion (their tiles replaced
  /// them), so that they are not tiled again.
  void eraseDeadOps(func::FuncOp func) {
    func.walk<WalkOrder::PostOrder, ReverseIterator>([&](Operation *op) {
      if (isa<linalg::LinalgOp, tensor::EmptyOp>(op) && isOpTriviallyDead(op))
        op->erase();
    });
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Shared with kiln-cpu-pack-weights (CPUTiling.h)
//===----------------------------------------------------------------------===//

bool kiln::isHeavyOp(linalg::LinalgOp op) {
  return isDecomposableWindowOp(op) || isTiledContraction(op);
}

linalg::LinalgOp kiln::fusibleConsumer(linalg::LinalgOp heavy) {
  if (heavy->getNumResults() != 1 || !heavy->getResult(0).hasOneUse())
    return nullptr;
  OpOperand &use = *heavy->getResult(0).getUses().begin();
  auto consumer = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!consumer || !consumer.hasPureTensorSemantics() ||
      consumer.getNumLoops() != consumer.getNumParallelLoops() ||
      consumer.getNumDpsInits() != 1 || isHeavyOp(consumer))
    return nullptr;
  auto resultType = cast<ShapedType>(heavy->getResult(0).getType());
  if (!consumer.getMatchingIndexingMap(&use).isIdentity() ||
      !consumer.getMatchingIndexingMap(consumer.getDpsInitOperand(0))
           .isIdentity() ||
      consumer->getResult(0).getType() != resultType)
    return nullptr;
  // The heavy op's output map sends each of the consumer's loops to a loop
  // of the heavy op; it must be a projected permutation to be followed.
  if (!heavy.getIndexingMapMatchingResult(heavy->getResult(0))
           .isProjectedPermutation())
    return nullptr;
  return consumer;
}

FailureOr<scf::SCFTileAndFuseResult>
kiln::tileAndFuseHeavyOp(RewriterBase &rewriter, linalg::LinalgOp heavy,
                         linalg::LinalgOp root, ArrayRef<int64_t> sizes) {
  Operation *heavyOp = heavy.getOperation();
  scf::SCFTileAndFuseOptions options;
  options.tilingOptions.setTileSizes(
      getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  options.setFusionControlFn(
      [heavyOp](tensor::ExtractSliceOp, OpResult producer, bool)
          -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *op = producer.getOwner();
        if (op == heavyOp || isa<linalg::FillOp>(op))
          return scf::SCFTileAndFuseOptions::ControlFnResult{};
        return std::nullopt;
      });
  rewriter.setInsertionPoint(root);
  return scf::tileConsumerAndFuseProducersUsingSCF(
      rewriter, cast<TilingInterface>(root.getOperation()), options);
}

int64_t kiln::contractionTileN(int64_t m, int64_t tileM, int64_t tileN) {
  if (ShapedType::isDynamic(m) || m <= 0 || m >= tileM)
    return tileN;
  return tileN * std::min<int64_t>(tileM / m, 4);
}
