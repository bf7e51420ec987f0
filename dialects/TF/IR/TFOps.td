//===- TFOps.td - tf operations ----------------------------*- tablegen -*-===//
//
// The tf op set: generated definitions (TFGeneratedOps.td, from the op list
// in dialects/TF/utils) on top of the base classes of TFOpBase.td, and the
// hand-written region control-flow ops (TFControlFlowOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFOPS_TD
#define KILN_DIALECTS_TF_IR_TFOPS_TD

include "dialects/TF/IR/TFOpBase.td"
include "dialects/TF/IR/TFGeneratedOps.td"
include "dialects/TF/IR/TFControlFlowOps.td"

#endif // KILN_DIALECTS_TF_IR_TFOPS_TD
