//===- CPUHoistAccumulators.h - accumulators in registers ------*- C++ -*-===//
//
// A step of kiln-cpu-tile-and-vectorize, kept in its own file.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_CPUHOISTACCUMULATORS_H
#define KILN_PASSES_CPUHOISTACCUMULATORS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {

/// Moves the reads and writes of every loop-carried accumulator tile in
/// `func` out of their scf.for loops, innermost first: each loop then
/// carries the tile as a vector, which stays in registers. A tile is a
/// vector.transfer_read of the loop's tensor iteration argument and a
/// vector.transfer_write of the same vector type at the same indices (all
/// defined outside the loop, no mask) that the loop yields.
void hoistAccumulatorTiles(mlir::RewriterBase &rewriter,
                           mlir::func::FuncOp func);

} // namespace kiln

#endif // KILN_PASSES_CPUHOISTACCUMULATORS_H
