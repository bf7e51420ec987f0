//===- ConstantBuilders.h - tf.Const builders of the tf passes -*- C++ -*-===//
//
// Small constants that the tensor-list and tensor-array rewrites build.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_TRANSFORMS_CONSTANTBUILDERS_H
#define KILN_DIALECTS_TF_TRANSFORMS_CONSTANTBUILDERS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace kiln::tf {

/// A rank-0 tf.Const of type tensor<`type`> holding `value`.
mlir::Value createScalar(mlir::OpBuilder &builder, mlir::Location loc,
                         mlir::IntegerType type, int64_t value);

/// A 1-D i32 tf.Const holding `values`.
mlir::Value createVector(mlir::OpBuilder &builder, mlir::Location loc,
                         llvm::ArrayRef<int32_t> values);

/// The zero of `type` (false for i1), or null for types without one here.
mlir::TypedAttr getZero(mlir::Type type);

} // namespace kiln::tf

#endif // KILN_DIALECTS_TF_TRANSFORMS_CONSTANTBUILDERS_H
