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
    it does; the cycles its useful MACs, its VEC work and its DRAM traffic
    need at the target's peak rates (`docs/npu-cycle-model.md`), whose largest is
    a *lower bound* of its run time; and the *estimate*, a prediction of the
    cycles its lowered commands take, from a model of the lowering's
    schedule (tiling, DMA setup, bursts and DRAM latency per transfer, MAC
    and VEC setup, channel padding, the fp16 rate).
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
