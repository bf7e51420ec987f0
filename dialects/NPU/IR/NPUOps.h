//===- NPUOps.h - npu operations --------------------------------*- C++ -*-===//
//
// The operation classes of the npu dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUOPS_H
#define KILN_DIALECTS_NPU_IR_NPUOPS_H

#include "dialects/NPU/IR/NPUDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "dialects/NPU/IR/NPUOps.h.inc"

#endif // KILN_DIALECTS_NPU_IR_NPUOPS_H
