//===- NPUOps.cpp - npu operations ------------------------------*- C++ -*-===//
//
// Verifiers of the npu operations.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace kiln::npu;

#define GET_OP_CLASSES
#include "dialects/NPU/IR/NPUOps.cpp.inc"
