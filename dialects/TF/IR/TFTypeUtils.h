//===- TFTypeUtils.h - tensor type lattice helpers --------------*- C++ -*-===//
//
// Type helpers shared by shape inference and the lowerings of tf control
// flow.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFTYPEUTILS_H
#define KILN_DIALECTS_TF_IR_TFTYPEUTILS_H

#include "mlir/IR/Types.h"

namespace kiln::tf {

/// The most precise tensor type that both `a` and `b` are instances of
/// (they must be tensors of one element type, or of variants, whose
/// subtypes join the same way): their shared rank with the dimensions kept
/// where they agree, `?` elsewhere; unranked when the ranks differ. What a loop
/// value must be typed to hold both its initial value and what the loop body
/// yields.
mlir::Type joinTensorTypes(mlir::Type a, mlir::Type b);

/// Whether element types `a` and `b` may describe one value: equal, or
/// variants (resources) whose subtypes (the tensors a tensor list or a
/// variable holds) have one element type and compatible shapes, or of which
/// one names none.
bool areCompatibleElementTypes(mlir::Type a, mlir::Type b);

/// Whether tensor types `a` and `b` may describe one value: compatible
/// element types (areCompatibleElementTypes) and shapes.
bool areCompatibleTensorTypes(mlir::Type a, mlir::Type b);

} // namespace kiln::tf

#endif // KILN_DIALECTS_TF_IR_TFTYPEUTILS_H
