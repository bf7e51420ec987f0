//===- ShapeUtils.h - helpers shared by the shape op families ---*- C++ -*-===//
//
// Helpers of the lowerings of the ops that move data without computing on
// it (Reshape.cpp, Concat.cpp, Slice.cpp, Gather.cpp, SpaceBatch.cpp,
// Constants.cpp): sizes as OpFoldResults, constant operands, run-time
// checks, index-driven generics, transposes and paddings.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_TFTOLINALG_SHAPEUTILS_H
#define KILN_CONVERSIONS_TFTOLINALG_SHAPEUTILS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LLVM.h"

namespace kiln::shape {

/// The ranked tensor type of `value`, or null.
mlir::RankedTensorType getRankedType(mlir::Value value);

/// The size of dimension `dim` of `value`: a constant when static, else a
/// tensor.dim.
mlir::OpFoldResult getDimSize(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value value, int64_t dim);

/// The single integer of a constant scalar (or one-element) tensor.
mlir::FailureOr<int64_t> getConstantScalar(mlir::Value value);

/// The sizes of `value`: constants where static, tensor.dim ops elsewhere.
llvm::SmallVector<mlir::OpFoldResult>
getSizes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// An index value for `ofr`.
mlir::Value toIndexValue(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::OpFoldResult ofr);

/// The sizes of `value` as its type gives them: constants where static,
/// unfolded tensor.dim ops elsewhere (so that a size known only through
/// folding stays dynamic, as the types of ops built from it expect).
llvm::SmallVector<mlir::OpFoldResult>
getTypeSizes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// A cf.assert that the i1 `cond` holds at run time, failing with `message`.
void createRuntimeCheck(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value cond, const llvm::Twine &message);

/// `value` / `divisor` for an index `value` that must be a multiple of the
/// positive `divisor`: folded when static, otherwise arith.divui after a
/// run-time check (failing with `message`) that the remainder is zero.
mlir::OpFoldResult createExactDiv(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::OpFoldResult value, int64_t divisor,
                                  const llvm::Twine &message);

/// An all-parallel linalg.generic with no inputs over a fresh tensor of
/// `sizes`, whose body computes each element from the loop indices.
mlir::Value createIndexGeneric(
    mlir::OpBuilder &b, mlir::Location loc,
    llvm::ArrayRef<mlir::OpFoldResult> sizes, mlir::Type elementType,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   llvm::ArrayRef<mlir::Value>)>
        body);

/// The element of the integer tensor `values` at `position`, as an index.
mlir::Value extractIndex(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value values, llvm::ArrayRef<int64_t> position);

/// The runtime axis `axis` (an integer tensor of one element) as an index
/// in [0, rank): axis + rank when negative. An axis still out of range
/// (TensorFlow reports an error) reads as rank - 1, so that code selecting
/// on it always takes one of the valid cases.
mlir::Value normalizeRuntimeAxis(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value axis, int64_t rank);

/// An scf.index_switch on the index `key` with one case per entry of
/// `keys`, the last of which is also the default (a key matching none).
/// `buildCase(b, loc, i)` builds the result for keys[i] inside its region;
/// it is cast to `resultType` and yielded. Lowers an op whose result shape
/// depends on a runtime axis or axes: each case is the op with those axes
/// constant.
mlir::Value createKeySwitch(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value key,
    llvm::ArrayRef<int64_t> keys, mlir::RankedTensorType resultType,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location, size_t)>
        buildCase);

/// A linalg.transpose of `input` by `perm` into a fresh tensor.
mlir::Value createTranspose(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value input, llvm::ArrayRef<int64_t> perm);

/// The constant [rank, 2] paddings of a pad as low and high lists, or a
/// reported failure (naming the operand `name`).
mlir::LogicalResult getPaddings(mlir::Operation *op, mlir::Value paddings,
                                int64_t rank,
                                llvm::SmallVectorImpl<int64_t> &low,
                                llvm::SmallVectorImpl<int64_t> &high,
                                llvm::StringRef name = "paddings");

} // namespace kiln::shape

#endif // KILN_CONVERSIONS_TFTOLINALG_SHAPEUTILS_H
