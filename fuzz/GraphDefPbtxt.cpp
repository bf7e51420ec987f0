//===- GraphDefPbtxt.cpp - fuzz the text GraphDef importer ----------------===//
//
// Input: a GraphDef in protobuf text format (.pbtxt).
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzGraphDef.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return kiln::fuzz::importGraphDefInput(data, size, "pbtxt");
}
