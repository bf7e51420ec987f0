//===- TFToSCF.h - tf region control flow to scf ----------------*- C++ -*-===//
//
// convert-tf-control-flow-to-scf.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_TFTOSCF_TFTOSCF_H
#define KILN_CONVERSIONS_TFTOSCF_TFTOSCF_H

#include "conversions/Passes.h"

namespace kiln {

/// Lowers every tf.IfRegion, tf.WhileRegion and tf.CaseRegion nested in
/// `root` to scf, innermost first. Reports (and fails on) conditions it
/// cannot read.
mlir::LogicalResult lowerTFControlFlowToSCF(mlir::Operation *root);

} // namespace kiln

#endif // KILN_CONVERSIONS_TFTOSCF_TFTOSCF_H
