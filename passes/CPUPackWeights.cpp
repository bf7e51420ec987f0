//===- CPUPackWeights.cpp - constant weights in register panels -*- C++ -*-===//
//
// Packs the constant filter of a convolution (and the constant right-hand
// side of a matmul) into panels of `tile-n` output channels, each panel one
// contiguous block, and tiles the op (with its elementwise consumer) over
// those panels, so that the register tiles kiln-cpu-tile-and-vectorize makes
// inside read their weights from one panel instead of rows spread over the
// whole filter.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "passes/CPUTiling.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cstring>

namespace kiln {
#define GEN_PASS_DEF_KILNCPUPACKWEIGHTSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// A heavy op whose weights are a constant this pass packs.
struct Candidate {
  linalg::LinalgOp op;
  /// The operand holding the weights: the filter [KH, KW, C, F] of a
  /// convolution, the right-hand side [K, N] of a matmul.
  unsigned weightsOperand;
  /// The constant's values.
  DenseElementsAttr weights;
  /// Whether `op` is a linalg.conv_2d_nhwc_hwcf (else a linalg.matmul).
  bool conv;
  /// Output channels of one panel: the register tile's N.
  int64_t panel;
};

/// The weights of `op` when they are a non-splat constant of static shape
/// with elements of whole bytes, and `op` is a statically shaped
/// conv_2d_nhwc_hwcf or a matmul with the default (untransposed) maps.
std::optional<Candidate> matchCandidate(linalg::LinalgOp op, int64_t tileM,
                                       int64_t tileN) {
  if (!op.hasPureTensorSemantics() || op.hasDynamicShape())
    return std::nullopt;
  Candidate candidate{op, 1, {}, false, tileN};
  if (isa<linalg::Conv2DNhwcHwcfOp>(op)) {
    candidate.conv = true;
  } else if (auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation())) {
    MLIRContext *ctx = op->getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    SmallVector<AffineMap> maps = matmul.getIndexingMapsArray();
    if (maps[0] != AffineMap::get(3, 0, {m, k}, ctx) ||
        maps[1] != AffineMap::get(3, 0, {k, n}, ctx) ||
        maps[2] != AffineMap::get(3, 0, {m, n}, ctx))
      return std::nullopt;
    // The register tile kiln-cpu-tile-and-vectorize gives this matmul.
    candidate.panel =
        kiln::contractionTileN(op.getStaticLoopRanges()[0], tileM, tileN);
  } else {
    return std::nullopt;
  }
  Value weights = op->getOperand(candidate.weightsOperand);
  auto constant = weights.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return std::nullopt;
  auto values = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!values || values.isSplat() || !values.getElementType().isIntOrFloat() ||
      values.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  // Fewer output channels than one panel: nothing to gain.
  if (values.getType().getShape().back() < candidate.panel)
    return std::nullopt;
  candidate.weights = values;
  return candidate;
}

/// Whether the panels of `candidate` should be the outermost loop: when the
/// whole filter does not fit `cacheBytes`, walking it once per output row
/// (the order without packing) streams it from memory again and again,
/// while a panel stays cached for all rows.
bool panelsOutermost(const Candidate &candidate, int64_t cacheBytes) {
  if (!candidate.conv)
    return true;
  ShapedType type = candidate.weights.getType();
  int64_t bytes =
      type.getNumElements() * (type.getElementTypeBitWidth() / 8);
  return bytes > cacheBytes;
}

/// Replaces the weights of `tiled` (the tile of `candidate` in a panel loop:
/// a slice of the constant at output channel offset `offset`) by the slice
/// of panel offset / tileN of `packed`, rank-reduced to the same type.
LogicalResult readPanel(RewriterBase &rewriter, linalg::LinalgOp tiled,
                        const Candidate &candidate, Value packed) {
  int64_t tileN = candidate.panel;
  OpOperand &operand = tiled->getOpOperand(candidate.weightsOperand);
  auto slice = operand.get().getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice)
    return failure();
  auto type = cast<RankedTensorType>(candidate.weights.getType());
  int64_t rank = type.getRank();
  // Only the output channels are sliced: every other dim is whole.
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
  for (int64_t d = 0; d + 1 < rank; ++d) {
    std::optional<int64_t> offset = getConstantIntValue(offsets[d]);
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    if (!slice.hasUnitStride() || offset != 0 || size != type.getDimSize(d))
      return failure();
  }
  rewriter.setInsertionPoint(slice);
  Location loc = slice.getLoc();
  AffineExpr channel = rewriter.getAffineDimExpr(0);
  OpFoldResult panel = affine::makeComposedFoldedAffineApply(
      rewriter, loc, channel.floorDiv(tileN), {offsets.back()});
  SmallVector<OpFoldResult> packedOffsets{panel};
  SmallVector<OpFoldResult> packedSizes{rewriter.getIndexAttr(1)};
  for (int64_t d = 0; d + 1 < rank; ++d) {
    packedOffsets.push_back(rewriter.getIndexAttr(0));
    packedSizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
  }
  packedOffsets.push_back(rewriter.getIndexAttr(0));
  packedSizes.push_back(sizes.back());
  SmallVector<OpFoldResult> strides(rank + 1, rewriter.getIndexAttr(1));
  Value panelSlice = tensor::ExtractSliceOp::create(
      rewriter, loc, slice.getResultType(), packed, packedOffsets, packedSizes,
      strides);
  rewriter.modifyOpInPlace(tiled, [&] { operand.set(panelSlice); });
  return success();
}

/// Tiles `candidate` (through its fused consumer) over panels of output
/// channels, reads its weights from `packed`, and peels the last partial
/// panel.
LogicalResult tileOverPanels(RewriterBase &rewriter, const Candidate &candidate,
                             Value packed, int64_t cacheBytes) {
  int64_t tileN = candidate.panel;
  linalg::LinalgOp heavy = candidate.op;
  // Output dims: conv [N, OH, OW, F], matmul [M, N].
  SmallVector<int64_t> sizes;
  if (candidate.conv)
    sizes = panelsOutermost(candidate, cacheBytes)
                ? SmallVector<int64_t>{0, 0, 0, tileN}
                : SmallVector<int64_t>{1, 1, 0, tileN};
  else
    sizes = {0, tileN};
  linalg::LinalgOp root = heavy;
  if (linalg::LinalgOp consumer = kiln::fusibleConsumer(heavy))
    root = consumer;

  Operation *heavyOp = heavy.getOperation();
  FailureOr<scf::SCFTileAndFuseResult> tiled =
      kiln::tileAndFuseHeavyOp(rewriter, heavy, root, sizes);
  if (failed(tiled) || tiled->loops.empty())
    return failure();
  linalg::LinalgOp tiledHeavy;
  for (Operation *op : tiled->tiledAndFusedOps)
    if (op->getName() == heavyOp->getName())
      tiledHeavy = cast<linalg::LinalgOp>(op);
  // Without a panel slice to replace, the tile still reads the unpacked
  // constant: the same values, only not contiguous.
  if (tiledHeavy)
    (void)readPanel(rewriter, tiledHeavy, candidate, packed);
  for (OpResult result : root->getResults())
    if (Value replacement = tiled->replacements.lookup(result))
      rewriter.replaceAllUsesWith(result, replacement);
  if (root->use_empty())
    rewriter.eraseOp(root);
  if (root != heavy && heavyOp->use_empty())
    rewriter.eraseOp(heavyOp);

  // The panel loop is the innermost loop made here; a last partial panel
  // becomes its own iteration with static sizes.
  auto panels = dyn_cast<scf::ForOp>(tiled->loops.back().getOperation());
  int64_t channels = candidate.weights.getType().getShape().back();
  if (panels && channels % tileN != 0) {
    scf::ForOp partial;
    rewriter.setInsertionPoint(panels);
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, panels, partial);
  }
  return success();
}

struct KilnCPUPackWeightsPass final
    : kiln::impl::KilnCPUPackWeightsPassBase<KilnCPUPackWeightsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    if (tileM <= 0 || tileN <= 0) {
      func.emitError()
          << "kiln-cpu-pack-weights: tile-m and tile-n must be positive";
      return signalPassFailure();
    }
    SmallVector<Candidate> candidates;
    func.walk([&](linalg::LinalgOp op) {
      if (std::optional<Candidate> candidate =
              matchCandidate(op, tileM, tileN))
        candidates.push_back(*candidate);
    });
    if (candidates.empty())
      return;

    IRRewriter rewriter(ctx);
    // One packed constant per constant, shared by the ops that read it,
    // placed where the original is.
    llvm::DenseMap<std::pair<Value, int64_t>, Value> packedOf;
    for (const Candidate &candidate : candidates) {
      Value weights = candidate.op->getOperand(candidate.weightsOperand);
      Value &packed = packedOf[{weights, candidate.panel}];
      if (!packed) {
        rewriter.setInsertionPointAfterValue(weights);
        packed = arith::ConstantOp::create(
            rewriter, weights.getLoc(),
            kiln::packPanels(candidate.weights, candidate.panel));
      }
      (void)tileOverPanels(rewriter, candidate, packed, cacheBytes);
    }

    // Static sizes for the peeled panels and folded panel offsets, before
    // kiln-cpu-tile-and-vectorize chooses the register tiles inside.
    RewritePatternSet patterns(ctx);
    for (Dialect *dialect : ctx->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (RegisteredOperationName op : ctx->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, ctx);
    (void)applyPatternsGreedily(func, std::move(patterns));
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Shared with kiln-cpu-depthwise (CPUTiling.h)
//===----------------------------------------------------------------------===//

DenseElementsAttr kiln::packPanels(DenseElementsAttr weights, int64_t tileN) {
  ShapedType type = weights.getType();
  ArrayRef<int64_t> shape = type.getShape();
  int64_t channels = shape.back();
  int64_t rows = type.getNumElements() / channels;
  int64_t panels = llvm::divideCeil(channels, tileN);
  size_t bytes = type.getElementTypeBitWidth() / 8;
  ArrayRef<char> source = weights.getRawData();
  std::vector<char> packed(panels * rows * tileN * bytes, 0);
  for (int64_t row = 0; row < rows; ++row)
    for (int64_t panel = 0; panel < panels; ++panel) {
      int64_t first = panel * tileN;
      int64_t count = std::min(tileN, channels - first);
      std::memcpy(packed.data() + ((panel * rows + row) * tileN) * bytes,
                  source.data() + (row * channels + first) * bytes,
                  count * bytes);
    }
  SmallVector<int64_t> packedShape{panels};
  packedShape.append(shape.begin(), shape.end() - 1);
  packedShape.push_back(tileN);
  return DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get(packedShape, type.getElementType()), packed);
}
