//===- NPUInterfaces.td - npu op interfaces ----------------*- tablegen -*-===//
//
// The cost interface every npu operation implements.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUINTERFACES_TD
#define KILN_DIALECTS_NPU_IR_NPUINTERFACES_TD

include "mlir/IR/OpBase.td" // OpInterface

def NPU_CostOpInterface : OpInterface<"NPUCostOpInterface"> {
  let cppNamespace = "::kiln::npu";
  let description = [{
    A static estimate of what an npu operation costs on a target: the MACs
    it does, and the cycles its MAC, VEC and DRAM work need at the target's
    peak rates (`docs/npu-isa.md` §8). The estimate is the largest of the
    three, a *lower bound* of the operation's run time: setup, pipeline
    latency, DRAM latency, bursts, halos and synchronisation only add to it.
  }];
  let methods = [
    InterfaceMethod<
      "The cost of this operation on `config`",
      "::kiln::npu::CostEstimate", "estimateCost",
      (ins "const ::kiln::npu::TargetConfig &":$config)>,
  ];
  let extraClassDeclaration = [{
    /// The cost on the operation's own target: the closest `npu.target`,
    /// else the "default" preset.
    ::kiln::npu::CostEstimate estimateCostOnTarget() {
      return estimateCost(::kiln::npu::targetConfigFor(getOperation()));
    }
  }];
}

#endif // KILN_DIALECTS_NPU_IR_NPUINTERFACES_TD
