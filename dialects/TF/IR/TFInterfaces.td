//===- TFInterfaces.td - interfaces of tf operations -------*- tablegen -*-===//
//
// The shape-inference interface that tf-shape-inference drives.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFINTERFACES_TD
#define KILN_DIALECTS_TF_IR_TFINTERFACES_TD

include "mlir/IR/OpBase.td" // OpInterface

def TF_ShapeInferenceOpInterface : OpInterface<"ShapeInferenceOpInterface"> {
  let cppNamespace = "::kiln::tf";
  let description = [{
    Refines result types from the current operand types (and the values of
    constant operands). Unlike `InferTypeOpInterface`, the inferred types are
    suggestions: TensorFlow's IR may carry less precise result types than can
    be inferred, and that is not a verification error.
  }];
  let methods = [
    InterfaceMethod<[{
        Computes one refined type per result. A result may keep its current
        type when nothing better is known. Fails (with no IR change) when the
        operand types are inconsistent, after emitting an error naming why.
      }],
      "::mlir::LogicalResult", "inferResultTypes",
      (ins "::llvm::SmallVectorImpl<::mlir::Type> &":$resultTypes)>,
  ];
}

#endif // KILN_DIALECTS_TF_IR_TFINTERFACES_TD
