//===- InlineCalls.h - inlining a GraphDef's function calls -----*- C++ -*-===//
//
// Private to translate/savedmodel: a TF2 SavedModel's graph computes each
// signature as a call of a concrete function (StatefulPartitionedCall,
// PartitionedCall, or a node whose op is the function), which calls others
// in turn, passing variables' handles down. Kiln's graph pipeline reads
// variables only where their handle comes straight from a VarHandleOp, so
// the importer inlines the calls into the graph first.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_SAVEDMODEL_INLINECALLS_H
#define KILN_TRANSLATE_SAVEDMODEL_INLINECALLS_H

#include "translate/proto/graph.pb.h"
#include "translate/proto/op_def.pb.h"

#include "llvm/Support/raw_ostream.h"

namespace kiln::savedmodel {

/// Replaces every call of a library function in `graph`'s nodes by the
/// function's body: body node `n` of call `c` becomes `c/n`, waiting for
/// the call's control inputs; `c` itself becomes an IdentityN of the
/// function's results (waiting for its control returns), so `c:k` and `^c`
/// keep their meaning. Calls in inlined bodies are inlined in turn.
/// Output arguments are numbered with `ops` (else Kiln's own OpDefs).
/// Generic functions, unknown ops and recursion are reported to `errors`.
bool inlineFunctionCalls(tensorflow::GraphDef &graph,
                         const tensorflow::OpList &ops,
                         llvm::raw_ostream &errors);

} // namespace kiln::savedmodel

#endif // KILN_TRANSLATE_SAVEDMODEL_INLINECALLS_H
