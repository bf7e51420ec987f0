//===- NPUDialect.td - the npu dialect ---------------------*- tablegen -*-===//
//
// Tensor-level operations that NPU-v1 can run, and the target configuration
// attribute that every NPU compilation carries.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_IR_NPUDIALECT_TD
#define KILN_DIALECTS_NPU_IR_NPUDIALECT_TD

include "mlir/IR/DialectBase.td" // Dialect
include "mlir/IR/OpBase.td"      // Op

def NPU_Dialect : Dialect {
  let name = "npu";
  let cppNamespace = "::kiln::npu";
  let summary = "Tensor-level operations of the NPU-v1 accelerator";
  let description = [{
    The operations NPU-v1 can run, on tensors: convolutions, depthwise
    convolutions, fully connected layers, element-wise operations, pooling,
    requantisation, table activations and conversions, in int8 (quantised
    types of the `quant` dialect, as TFLite and TOSA define them) and fp16.
    Each compilation names its hardware with a `#npu.target` attribute; the
    verifiers reject what that hardware cannot do. `convert-npu-to-npuhw`
    lowers these operations to the command-level `npuhw` dialect.

    The dialect's C++ namespace, `kiln::npu`, is shared with the runtime
    library (`runtime/npu`), whose `TargetConfig` the target attribute
    resolves to.
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::quant::QuantDialect"];
}

/// Base class of npu operations.
class NPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<NPU_Dialect, mnemonic, traits>;

#endif // KILN_DIALECTS_NPU_IR_NPUDIALECT_TD
