//===- NPUHWInterfaces.td - npuhw op interfaces ------------*- tablegen -*-===//
//
// The interface every command op implements.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_IR_NPUHWINTERFACES_TD
#define KILN_DIALECTS_NPUHW_IR_NPUHWINTERFACES_TD

include "mlir/IR/OpBase.td" // OpInterface

def NPUHW_CommandOpInterface : OpInterface<"CommandOpInterface"> {
  let cppNamespace = "::kiln::npuhw";
  let description = [{
    An operation that is one NPU-v1 command: its opcode (and so its
    engine), the tokens it depends on, the token it produces, and its
    semaphore fields.
  }];
  let methods = [
    InterfaceMethod<"The command's opcode", "::kiln::npu::Opcode",
      "getOpcode", (ins), "", [{ return ConcreteOp::kOpcode; }]>,
    InterfaceMethod<"The tokens this command depends on",
      "::mlir::OperandRange", "getDeps">,
    InterfaceMethod<"The dependencies as a mutable range",
      "::mlir::MutableOperandRange", "getDepsMutable">,
    InterfaceMethod<"The token this command produces (null for end)",
      "::mlir::Value", "getCommandToken", (ins), "", [{
        return $_op->getNumResults() ? $_op->getResult(0) : ::mlir::Value();
      }]>,
  ];
  let extraSharedClassDeclaration = [{
    /// The engine that runs this command.
    ::kiln::npu::Engine getEngine() {
      return ::kiln::npu::engineOf($_op.getOpcode());
    }
  }];
}

#endif // KILN_DIALECTS_NPUHW_IR_NPUHWINTERFACES_TD
