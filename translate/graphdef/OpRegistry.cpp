//===- OpRegistry.cpp - TensorFlow op signatures for import ----*- C++ -*-===//
//
// Parses the embedded OpList once, on first use.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/OpRegistry.h"

#include "google/protobuf/text_format.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"

#include "translate/graphdef/OpDefs.inc"

using namespace kiln;

namespace {
struct Registry {
  Registry() {
    if (!google::protobuf::TextFormat::ParseFromString(kOpDefsText, &ops))
      llvm::report_fatal_error("the embedded op_defs.pbtxt does not parse");
    for (const tensorflow::OpDef &op : ops.op())
      byName[op.name()] = &op;
  }
  tensorflow::OpList ops;
  llvm::StringMap<const tensorflow::OpDef *> byName;
};

const Registry &registry() {
  static const Registry instance;
  return instance;
}
} // namespace

const tensorflow::OpDef *graphdef::lookupOpDef(llvm::StringRef opType) {
  return registry().byName.lookup(opType);
}

const tensorflow::OpList &graphdef::getOpList() { return registry().ops; }
