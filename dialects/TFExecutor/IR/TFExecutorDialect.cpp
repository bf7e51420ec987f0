//===- TFExecutorDialect.cpp - the tf_executor dialect ----------*- C++ -*-===//
//
// Registration of the tf_executor types and operations.
//
//===----------------------------------------------------------------------===//

#include "dialects/TFExecutor/IR/TFExecutor.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::tf_executor;

#include "dialects/TFExecutor/IR/TFExecutorDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/TFExecutor/IR/TFExecutorTypes.cpp.inc"

void TFExecutorDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/TFExecutor/IR/TFExecutorTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/TFExecutor/IR/TFExecutorOps.cpp.inc"
      >();
}
