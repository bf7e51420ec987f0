//===- CPUTiling.h - what the CPU tiling passes share -----------*- C++ -*-===//
//
// The choice of heavy ops and of their fused consumer, made the same way by
// kiln-cpu-pack-weights and kiln-cpu-tile-and-vectorize.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_CPUTILING_H
#define KILN_PASSES_CPUTILING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"

namespace kiln {

/// Whether `op` is a heavy op: a 2-D NHWC convolution or pooling, or a
/// contraction with M, N and K dims; it gets a register tile and may take an
/// elementwise consumer into its tiles.
bool isHeavyOp(mlir::linalg::LinalgOp op);

/// The elementwise op that should be tiled together with `heavy`: the only
/// user of its only result, all loops parallel, reading the result with an
/// identity map and producing a value of the same shape; null if none.
mlir::linalg::LinalgOp fusibleConsumer(mlir::linalg::LinalgOp heavy);

/// Tiles `root` (`heavy` or its fused consumer) by `sizes` (one per loop of
/// `root`) and fuses into its tiles `heavy` and the fills that initialise its
/// accumulators, nothing else; the insertion point is set before `root`.
mlir::FailureOr<mlir::scf::SCFTileAndFuseResult>
tileAndFuseHeavyOp(mlir::RewriterBase &rewriter, mlir::linalg::LinalgOp heavy,
                   mlir::linalg::LinalgOp root,
                   llvm::ArrayRef<int64_t> sizes);

/// The register tile of a contraction's N dim when its M dim has `m`
/// iterations (dynamic: ShapedType::kDynamic): `tileN`, widened when M is
/// shorter than `tileM` (a batch-1 matrix-vector product) so that the tile
/// keeps several independent accumulators instead of one chain of FMAs
/// waiting on each other, up to 4 x `tileN`.
int64_t contractionTileN(int64_t m, int64_t tileM, int64_t tileN);

/// `weights` of shape [..., F] as [ceil(F / tileN), ..., tileN]: panel p
/// holds channels p * tileN to p * tileN + tileN - 1 of every leading index,
/// in the leading indices' order; channels past F are zero. The elements
/// must be whole bytes.
mlir::DenseElementsAttr packPanels(mlir::DenseElementsAttr weights,
                                   int64_t tileN);

} // namespace kiln

#endif // KILN_PASSES_CPUTILING_H
