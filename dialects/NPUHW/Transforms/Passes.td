//===- Passes.td - npuhw passes ----------------------------*- tablegen -*-===//
//
// Passes on npuhw command streams.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPUHW_TRANSFORMS_PASSES_TD
#define KILN_DIALECTS_NPUHW_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass

def NPUHWVerifyStreamPass
    : Pass<"npuhw-verify-stream", "::kiln::npuhw::StreamOp"> {
  let summary = "Check a stream with the runtime's verifier before "
                "serialization";
  let description = [{
    Converts the stream into the runtime's `Program` exactly as
    `--npuhw-to-npub` does and runs the loader's verifier
    (`kiln::npu::verifyProgram`) on it: field ranges, window shapes,
    region bounds and access rights, END placement, and the stream rule of
    `docs/npu-isa.md` §4 (every wait covered by an earlier signal). A stream
    that breaks a rule is a compile error on the op of the offending
    command, naming the field, rather than a load failure or a simulator
    deadlock:

    ```
    error: 'npuhw.nop' op command 1 (NOP): field 'wait0' waits on semaphore 1 with no earlier uncovered signal
    ```

    Errors that belong to no command (IO declarations, the target) are
    reported on the stream.
  }];
}

#endif // KILN_DIALECTS_NPUHW_TRANSFORMS_PASSES_TD
