//===- Passes.td - Kiln cross-dialect passes ---------------*- tablegen -*-===//
//
// Passes that span dialects or mark a stage boundary (contract verifiers,
// partitioning, cleanup). Passes that touch one dialect live beside it in
// dialects/<D>/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_PASSES_TD
#define KILN_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass, Option, ListOption, Statistic

def KilnVerifyLLVMContractPass
    : Pass<"kiln-verify-llvm-contract", "::mlir::ModuleOp"> {
  let summary = "Check that a module is ready for LLVM IR translation";
  let description = [{
    The boundary check at the end of every pipeline that lowers to the LLVM
    dialect. It fails if any operation other than `builtin.module` is left
    outside the `llvm` dialect (plus the dialects named in
    `extra-legal-dialects`), and reports every such operation with its name
    and location, so a user sees the whole list at once rather than the first
    failure of `mlir-translate --mlir-to-llvmir`.

    ```mlir
    // kiln-opt --kiln-verify-llvm-contract
    module {
      llvm.func @f() {
        // error: 'arith.constant' is not in the llvm dialect ...
        %0 = arith.constant 0 : i32
        llvm.return
      }
    }
    ```

    `builtin.unrealized_conversion_cast` is reported like any other operation:
    one left over means two lowerings disagree on a type.
  }];
  let options = [
    ListOption<"extraLegalDialects", "extra-legal-dialects", "std::string",
               "Dialects accepted besides llvm (e.g. omp for OpenMP)">,
  ];
}

#endif // KILN_PASSES_PASSES_TD
