//===- OpRegistry.h - TensorFlow op signatures for import ------*- C++ -*-===//
//
// The OpDefs of the op types Kiln knows (translate/graphdef/op_defs.pbtxt,
// embedded in the library): how many outputs a node has and of which types,
// which inputs are lists, and the attribute defaults.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_GRAPHDEF_OPREGISTRY_H
#define KILN_TRANSLATE_GRAPHDEF_OPREGISTRY_H

#include "translate/proto/op_def.pb.h"

#include "llvm/ADT/StringRef.h"

namespace kiln::graphdef {

/// The OpDef of `opType`, or null when Kiln does not know it.
const tensorflow::OpDef *lookupOpDef(llvm::StringRef opType);

/// Every known OpDef, sorted by name.
const tensorflow::OpList &getOpList();

} // namespace kiln::graphdef

#endif // KILN_TRANSLATE_GRAPHDEF_OPREGISTRY_H
