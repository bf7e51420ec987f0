//===- DecomposeTensorArrays.cpp - TF1 tensor arrays to tensors -*- C++ -*-===//
//
// tf-decompose-tensor-arrays: a TF1 tensor array (tf.TensorArrayV3 and the
// ops on its handle) becomes a tensor holding its elements stacked, the
// "buffer". TF1 graphs order every access to an array through its flow
// value: each write returns a new flow, each read takes one, and loops carry
// the flow as a loop value while the handle is a loop constant. The buffer
// therefore takes the place of the flow: writes compute a new buffer, reads
// slice the one they are given, and the flow's loop values, branch results
// and identities take the buffer's type.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "dialects/TF/Transforms/TensorArrayDecomposition.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/TypeSwitch.h"

namespace kiln::tf {
#define GEN_PASS_DEF_TFDECOMPOSETENSORARRAYSPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;

namespace kiln::tf::tensor_arrays {

LogicalResult ArrayDecomposition::decomposeWhile(tf::WhileRegionOp op) {
  // A flow carried by the loop takes its buffer's type in both regions and
  // in the results; the body must yield the same type back.
  SmallVector<unsigned> carried;
  for (auto [i, input] : llvm::enumerate(op.getInput())) {
    if (!flows.contains(input))
      continue;
    op.getCond().getArgument(i).setType(input.getType());
    op.getBody().getArgument(i).setType(input.getType());
    op.getResult(i).setType(input.getType());
    flows.insert(op.getCond().getArgument(i));
    flows.insert(op.getBody().getArgument(i));
    flows.insert(op.getResult(i));
    if (gradientFlows.contains(input)) {
      gradientFlows.insert(op.getBody().getArgument(i));
      gradientFlows.insert(op.getResult(i));
    }
    carried.push_back(i);
  }
  if (failed(decomposeBlock(op.getCond().front())) ||
      failed(decomposeBlock(op.getBody().front())))
    return failure();
  Operation *yield = op.getBody().front().getTerminator();
  for (unsigned i : carried)
    if (yield->getOperand(i).getType() != op.getInput()[i].getType())
      return op.emitOpError()
             << "cannot be decomposed: tensor array flow #" << i
             << " starts as " << op.getInput()[i].getType()
             << " but the body yields " << yield->getOperand(i).getType();
  return success();
}

LogicalResult ArrayDecomposition::decomposeRegionResults(Operation *op) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (failed(decomposeBlock(block)))
        return failure();
  for (OpResult result : op->getResults()) {
    // A result carries a flow when some region yields one there.
    Type type;
    bool carriesFlow = false, agree = true;
    for (Region &region : op->getRegions()) {
      if (region.empty())
        continue;
      Operation *terminator = region.front().getTerminator();
      if (!terminator || terminator->getNumOperands() != op->getNumResults())
        return success();
      Value yielded = terminator->getOperand(result.getResultNumber());
      carriesFlow |= flows.contains(yielded);
      agree &= !type || yielded.getType() == type;
      type = yielded.getType();
    }
    if (!carriesFlow)
      continue;
    if (!agree)
      return op->emitOpError()
             << "cannot be decomposed: its regions yield tensor array flows "
                "of different types as result #"
             << result.getResultNumber();
    result.setType(type);
    flows.insert(result);
  }
  return success();
}

LogicalResult ArrayDecomposition::decomposeBlock(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](tf::TensorArrayV3Op op) { return decomposeCreate(op); })
            .Case([&](tf::TensorArrayWriteV3Op op) {
              return decomposeWrite(op);
            })
            .Case([&](tf::TensorArrayReadV3Op op) { return decomposeRead(op); })
            .Case([&](tf::TensorArrayGatherV3Op op) {
              return decomposeGather(op);
            })
            .Case([&](tf::TensorArrayScatterV3Op op) {
              return decomposeScatter(op);
            })
            .Case([&](tf::TensorArraySizeV3Op op) { return decomposeSize(op); })
            .Case([&](tf::TensorArrayConcatV3Op op) {
              return decomposeConcat(op);
            })
            .Case([&](tf::TensorArraySplitV3Op op) {
              return decomposeSplit(op);
            })
            .Case([&](tf::TensorArrayGradV3Op op) { return decomposeGrad(op); })
            .Case([&](tf::TensorArrayCloseV3Op op) -> LogicalResult {
              if (failed(getArray(op, op.getHandle())))
                return failure();
              op.erase();
              return success();
            })
            .Case([&](tf::WhileRegionOp op) { return decomposeWhile(op); })
            .Case([&](tf::IdentityOp op) -> LogicalResult {
              // The identity of a flow is its buffer.
              if (flows.contains(op.getInput())) {
                op.getOutput().replaceAllUsesWith(op.getInput());
                op.erase();
              }
              return success();
            })
            .Default([&](Operation *op) -> LogicalResult {
              if (op->getNumRegions() != 0)
                return decomposeRegionResults(op);
              return success();
            });
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult ArrayDecomposition::eraseCreators() {
  // Gradient arrays first: they use their forward array's handle.
  SmallVector<tf::TensorArrayGradV3Op> grads;
  for (auto &[handle, info] : arrays)
    if (auto grad = handle.getDefiningOp<tf::TensorArrayGradV3Op>())
      grads.push_back(grad);
  for (tf::TensorArrayGradV3Op grad : grads) {
    if (!grad->use_empty()) {
      InFlightDiagnostic diag =
          (*grad->getUsers().begin())->emitOpError()
          << "uses a gradient tensor array, which cannot be decomposed here";
      diag.attachNote(grad.getLoc()) << "the gradient array is made here";
      return failure();
    }
    grad.erase();
  }
  for (auto &[handle, info] : arrays) {
    tf::TensorArrayV3Op op = info.creator;
    if (handle != op.getHandle())
      continue;
    if (!op->use_empty()) {
      InFlightDiagnostic diag =
          (*op->getUsers().begin())->emitOpError()
          << "uses a tensor array, which cannot be decomposed here";
      diag.attachNote(op.getLoc()) << "the tensor array is made here";
      return failure();
    }
    op.erase();
  }
  arrays.clear();
  return success();
}

} // namespace kiln::tf::tensor_arrays

namespace {

using kiln::tf::tensor_arrays::ArrayDecomposition;

struct TFDecomposeTensorArraysPass final
    : tf::impl::TFDecomposeTensorArraysPassBase<TFDecomposeTensorArraysPass> {
  void runOnOperation() override {
    bool ok = true;
    getOperation().walk([&](func::FuncOp func) {
      if (func.isExternal())
        return;
      ArrayDecomposition decomposition;
      // Arrays first: a backward loop may keep the forward loop's flows on
      // stacks, which then hold the buffers.
      if (failed(decomposition.decomposeBlock(func.front())) ||
          failed(decomposition.eraseCreators()) ||
          failed(kiln::tf::tensor_arrays::decomposeStacks(func)))
        ok = false;
    });
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
