//===- VerifyStream.cpp - npuhw-verify-stream -------------------*- C++ -*-===//
//
// Runs the runtime's verifier on the Program a stream serializes to, and
// reports a failure on the op of the command it names.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/Transforms/Passes.h"

#include "target/npu/NPUTarget.h"

#include "runtime/npu/Verifier.h"

namespace kiln::npuhw {
#define GEN_PASS_DEF_NPUHWVERIFYSTREAMPASS
#include "dialects/NPUHW/Transforms/Passes.h.inc"
} // namespace kiln::npuhw

using namespace mlir;
using namespace kiln;
using namespace kiln::npuhw;

namespace {

/// The command index N of a runtime message "command N (...)...", if any.
std::optional<size_t> commandIndex(StringRef message) {
  if (!message.consume_front("command "))
    return std::nullopt;
  size_t index;
  if (message.consumeInteger(10, index))
    return std::nullopt;
  return index;
}

struct NPUHWVerifyStreamPass final
    : kiln::npuhw::impl::NPUHWVerifyStreamPassBase<NPUHWVerifyStreamPass> {
  using Base::Base;
  void runOnOperation() override {
    StreamOp stream = getOperation();
    CommandOps ops;
    FailureOr<npu::Program> program = exportStream(stream, &ops);
    if (failed(program))
      return signalPassFailure();
    absl::Status status = npu::verifyProgram(*program);
    if (status.ok()) {
      markAllAnalysesPreserved();
      return;
    }
    StringRef message(status.message().data(), status.message().size());
    std::optional<size_t> index = commandIndex(message);
    if (index && *index < ops.size())
      ops[*index]->emitOpError(message);
    else
      stream.emitOpError(message);
    signalPassFailure();
  }
};

} // namespace
