//===- NPUOps.td - npu operations --------------------------*- tablegen -*-===//
//
// Tensor-level operations of NPU-v1.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUOPS_TD
#define KILN_DIALECTS_NPU_IR_NPUOPS_TD

include "dialects/NPU/IR/NPUDialect.td" // NPU_Op
include "dialects/NPU/IR/NPUAttrs.td"   // NPU_TargetAttr

#endif // KILN_DIALECTS_NPU_IR_NPUOPS_TD
