//===- NPUHWDialect.td - the npuhw dialect -----------------*- tablegen -*-===//
//
// One operation per NPU-v1 command, on memrefs in NPU memory spaces.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_IR_NPUHWDIALECT_TD
#define KILN_DIALECTS_NPUHW_IR_NPUHWDIALECT_TD

include "mlir/IR/DialectBase.td" // Dialect
include "mlir/IR/OpBase.td"      // Op

def NPUHW_Dialect : Dialect {
  let name = "npuhw";
  let cppNamespace = "::kiln::npuhw";
  let summary = "NPU-v1 command streams: one operation per command";
  let description = [{
    An `npuhw.stream` holds an NPU-v1 command stream as it will be
    serialized into a `.npub` file (`docs/npu-isa.md`): its DRAM region
    declarations, constants and IO tensors, then one operation per command
    in stream order, ending with `npuhw.end`. Command operands are memrefs
    in the NPU memory spaces `#npuhw.lmem<act|wgt|acc|param>` and
    `#npuhw.dram<N>`; an `npuhw.view` result's type is its address. The
    other fields of a command are attributes named as the runtime's field
    table names them (generated from `kiln::npu::fieldsOf`), and
    dependencies between commands are `!npuhw.token` values.

    `kiln-translate --npuhw-to-npub` writes a stream as a `.npub` file and
    `--npub-to-npuhw` reads one back.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::kiln::npu::NPUDialect"];
}

#endif // KILN_DIALECTS_NPUHW_IR_NPUHWDIALECT_TD
