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
    /// The semaphore of wait \p i (0 or 1), or nullopt for none.
    std::optional<unsigned> getWait(unsigned i) {
      return ::kiln::npuhw::getSemaphoreField($_op, i ? "wait1" : "wait0");
    }
    /// The semaphore of signal \p i (0 or 1), or nullopt for none.
    std::optional<unsigned> getSignal(unsigned i) {
      return ::kiln::npuhw::getSemaphoreField($_op, i ? "signal1" : "signal0");
    }
    /// Sets (or, with nullopt, clears) wait \p i.
    void setWait(unsigned i, std::optional<unsigned> id) {
      ::kiln::npuhw::setSemaphoreField($_op, i ? "wait1" : "wait0", id);
    }
    /// Sets (or, with nullopt, clears) signal \p i.
    void setSignal(unsigned i, std::optional<unsigned> id) {
      ::kiln::npuhw::setSemaphoreField($_op, i ? "signal1" : "signal0", id);
    }
  }];
  let verify = [{ return ::kiln::npuhw::verifySemaphoreFields($_op); }];
}

#endif // KILN_DIALECTS_NPUHW_IR_NPUHWINTERFACES_TD
