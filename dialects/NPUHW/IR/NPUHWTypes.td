//===- NPUHWTypes.td - !npuhw.* types ----------------------*- tablegen -*-===//
//
// The dependency token between commands.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_IR_NPUHWTYPES_TD
#define KILN_DIALECTS_NPUHW_IR_NPUHWTYPES_TD

include "dialects/NPUHW/IR/NPUHWDialect.td" // NPUHW_Dialect
include "mlir/IR/AttrTypeBase.td"          // TypeDef

def NPUHW_Token : TypeDef<NPUHW_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "A dependency on a command";
  let description = [{
    Every command but `npuhw.end` returns a token; a command that takes it
    as a dependency must not start before the producer completes.
    `npuhw-assign-semaphores` turns tokens into the `wait`/`signal`
    semaphore fields that the hardware sees, and the `.npub` importer
    rebuilds them from those fields.
  }];
}

#endif // KILN_DIALECTS_NPUHW_IR_NPUHWTYPES_TD
