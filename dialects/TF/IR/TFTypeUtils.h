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
/// (they must be tensors of one element type): their shared rank with the
/// dimensions kept where they agree, `?` elsewhere; unranked when the ranks
/// differ. What a loop value must be typed to hold both its initial value
/// and what the loop body yields.
mlir::Type joinTensorTypes(mlir::Type a, mlir::Type b);

} // namespace kiln::tf

#endif // KILN_DIALECTS_TF_IR_TFTYPEUTILS_H
