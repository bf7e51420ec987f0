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

//===----------------------------------------------------------------------===//
// Type syntax
//===----------------------------------------------------------------------===//

Type TFExecutorDialect::parseType(DialectAsmParser &parser) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Type type;
  OptionalParseResult result = generatedTypeParser(parser, &mnemonic, type);
  if (!result.has_value()) {
    parser.emitError(loc) << "unknown type `" << mnemonic
                          << "` in dialect `tf_executor`";
    return {};
  }
  if (failed(*result))
    return {};
  // ODS's parser stops after the mnemonic; the rest of the type's body
  // would be ignored.
  if (succeeded(parser.parseOptionalLess())) {
    parser.emitError(loc) << "type " << type << " takes no parameters";
    return {};
  }
  return type;
}

void TFExecutorDialect::printType(Type type, DialectAsmPrinter &printer) const {
  (void)generatedTypePrinter(type, printer);
}
