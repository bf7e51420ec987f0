//===- CPUVectorKernels.h - hand-built vector kernels' helpers --*- C++ -*-===//
//
// What the kernels kiln-cpu-depthwise builds by hand (depthwise convolutions
// and convolutions with one output channel) share: the test of the tensors
// they take, the test and the vector form of the elementwise consumer they
// fuse, and the index arithmetic and loops they emit.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_CPUVECTORKERNELS_H
#define KILN_PASSES_CPUVECTORKERNELS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace kiln {

/// Whether `type` is a statically shaped f32 tensor.
bool isStaticF32Tensor(mlir::Type type);

/// Whether every op of `consumer`'s body can be applied to vectors lane by
/// lane: arith and math ops without regions on scalars, constants, and a
/// body that neither reads its output nor yields more than one value. (How
/// its inputs may be indexed is each kernel's own rule.)
bool hasLanewiseBody(mlir::linalg::GenericOp consumer);

/// Emits the index arithmetic and the loops of a hand-built kernel at the
/// builder's insertion point; the kernels' emitters derive from it.
class KernelBuilder {
public:
  KernelBuilder(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

protected:
  /// An index constant.
  mlir::Value index(int64_t value);

  /// x * scale + offset, folded when `x` is a constant.
  mlir::Value linear(mlir::Value x, int64_t scale, int64_t offset);

  /// scf.for from `lo` to `hi` carrying `dest` through `body`; the body
  /// itself when the loop has one iteration, nothing when none.
  mlir::Value loop(int64_t lo, int64_t hi, mlir::Value dest,
                   llvm::function_ref<mlir::Value(mlir::Value, mlir::Value)>
                       body);

  /// `scalar` broadcast to a vector of `width` lanes.
  mlir::Value broadcast(mlir::Value scalar, int64_t width);

  /// `consumer`'s body cloned on vectors of `width` lanes; `map` holds the
  /// vector of each of its input block arguments. Constants and scalars
  /// from above the body are broadcast. Returns the yielded vector.
  mlir::Value cloneBodyOnVectors(mlir::linalg::GenericOp consumer,
                                 mlir::IRMapping &map, int64_t width);

  mlir::OpBuilder &b;
  mlir::Location loc;
};

} // namespace kiln

#endif // KILN_PASSES_CPUVECTORKERNELS_H
