//===- TFOps.cpp - tf operation definitions ---------------------*- C++ -*-===//
//
// The generated operation definitions, and their registration.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFShapeInference.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace kiln::tf;

#define GET_OP_CLASSES
#include "dialects/TF/IR/TFOps.cpp.inc"

void TFDialect::registerOps() {
  addOperations<
#define GET_OP_LIST
#include "dialects/TF/IR/TFOps.cpp.inc"
      >();
}
