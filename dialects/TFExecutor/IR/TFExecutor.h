//===- TFExecutor.h - the tf_executor dialect -------------------*- C++ -*-===//
//
// Include this to use tf_executor operations and types.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFEXECUTOR_IR_TFEXECUTOR_H
#define KILN_DIALECTS_TFEXECUTOR_IR_TFEXECUTOR_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/TFExecutor/IR/TFExecutorDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/TFExecutor/IR/TFExecutorTypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/TFExecutor/IR/TFExecutorOps.h.inc"

#endif // KILN_DIALECTS_TFEXECUTOR_IR_TFEXECUTOR_H
