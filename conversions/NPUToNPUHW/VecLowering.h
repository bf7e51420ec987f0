//===- VecLowering.h - npu element-wise ops to VEC commands -----*- C++ -*-===//
//
// The emitters of the element-wise binary ops (npu.add, sub, mul, minimum,
// maximum -> VEC_ELTWISE) and the unary ops (npu.rescale, table, clamp,
// convert -> VEC_UNARY). Internal to convert-npu-to-npuhw.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_NPUTONPUHW_VECLOWERING_H
#define KILN_CONVERSIONS_NPUTONPUHW_VECLOWERING_H

#include "conversions/NPUToNPUHW/Lowering.h"

namespace kiln::npu_to_npuhw {

/// Emits npu.add, npu.sub, npu.mul, npu.minimum or npu.maximum (an
/// OpEmitter): VEC_ELTWISE over bands of the tensor, with TENSOR, CHANNEL
/// or SCALAR broadcast of `rhs` and the int8 parameter block of TFLite's
/// integer kernels.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerEltwise(mlir::Operation *op, OpLowering &lowering);

/// Emits npu.rescale, npu.table, npu.clamp or npu.convert (an OpEmitter):
/// VEC_UNARY RESCALE, LUT, CLAMP or CONVERT over bands of the tensor.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
lowerUnary(mlir::Operation *op, OpLowering &lowering);

} // namespace kiln::npu_to_npuhw

#endif // KILN_CONVERSIONS_NPUTONPUHW_VECLOWERING_H
