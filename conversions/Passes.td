//===- Passes.td - Kiln conversion passes ------------------*- tablegen -*-===//
//
// Every conversion between dialects, declared in one place.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_PASSES_TD
#define KILN_CONVERSIONS_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass

def ConvertTFControlFlowToSCFPass
    : Pass<"convert-tf-control-flow-to-scf", "::mlir::func::FuncOp"> {
  let summary = "Lower tf.IfRegion, tf.WhileRegion and tf.CaseRegion to scf";
  let description = [{
    tf.IfRegion becomes scf.if, tf.WhileRegion scf.while (no trip count
    needed) and tf.CaseRegion scf.index_switch (an out-of-range index runs
    the last branch, as TensorFlow's Case does). A condition tensor is read
    with tensor.extract; an integer or float scalar counts as true when it
    is non-zero, as in TensorFlow. Where a region yields a more or less
    precise type than the scf op carries, tensor.cast bridges them.

    A condition that is not a scalar (TensorFlow's "non-empty tensor is
    true") is reported, naming the op.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // KILN_CONVERSIONS_PASSES_TD
