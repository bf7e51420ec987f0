//===- TFNodeName.cpp - the TensorFlow node an op came from -----*- C++ -*-===//
//
// See TFNodeName.h.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFNodeName.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

StringRef kiln::tf::nodeName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc)) {
    StringRef text = name.getName().getValue();
    if (!text.empty() && !text.ends_with(":"))
      return text;
    return nodeName(name.getChildLoc());
  }
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      if (StringRef name = nodeName(inner); !name.empty())
        return name;
    return "";
  }
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return nodeName(call.getCallee());
  return "";
}
