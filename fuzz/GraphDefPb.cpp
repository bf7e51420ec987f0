//===- GraphDefPb.cpp - fuzz the binary GraphDef importer -----------------===//
//
// Input: a binary GraphDef (tensorflow.GraphDef wire format).
//
//===----------------------------------------------------------------------===//

#include "fuzz/FuzzGraphDef.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return kiln::fuzz::importGraphDefInput(data, size, "pb");
}
