//===- TFNodeName.h - the TensorFlow node an op came from -------*- C++ -*-===//
//
// Kiln's importers give every op the NameLoc of its TensorFlow node.
// TensorFlow's own converter fuses the op type in front of it
// (`fused["Conv2D:", "model/conv"]`), and inlining wraps it in call sites;
// diagnostics and reports that name a node read it through all of these.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFNODENAME_H
#define KILN_DIALECTS_TF_IR_TFNODENAME_H

#include "mlir/IR/Location.h"
#include "llvm/ADT/StringRef.h"

namespace kiln::tf {

/// The TensorFlow node name \p loc carries: its first NameLoc, searched
/// through fused and call-site locations and a NameLoc's child, skipping
/// the `<op type>:` names TensorFlow's converter puts first. "" if none.
llvm::StringRef nodeName(mlir::Location loc);

} // namespace kiln::tf

#endif // KILN_DIALECTS_TF_IR_TFNODENAME_H
