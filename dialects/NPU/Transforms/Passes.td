//===- Passes.td - npu passes ------------------------------*- tablegen -*-===//
//
// Passes over the tensor-level npu dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_TRANSFORMS_PASSES_TD
#define KILN_DIALECTS_NPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass, Option

def NPUReportCostPass : Pass<"npu-report-cost"> {
  let summary = "Report the static cost estimate of every npu operation";
  let description = [{
    Emits one remark per npu operation, at its location, with the operation's
    cost estimate on its target (the closest `npu.target`, else the
    `"default"` preset): the useful MACs, the cycles of its MAC, VEC and
    DRAM work at the target's peak rates (`docs/npu-isa.md` §8), which of
    them bounds it, and the estimate, their maximum. The estimate is a lower
    bound of the run time: command setup, pipeline and DRAM latency, burst
    rounding, tiling halos and waits only add to it.

    ```
    model.mlir:12:8: remark: npu.conv2d: 1327104 MACs; cycles MAC 5184,
      VEC 1024, DRAM 1808; bound MAC; estimate >= 5184 cycles
    ```

    With `table=markdown` or `table=csv` it also writes a table with one row
    per operation (op, location, MACs, the three cycle figures, bound,
    estimate) and a total row to `table-file` (`-`, the default, is
    standard output). The IR is not changed.
  }];
  let options = [
    Option<"table", "table", "std::string", /*default=*/"\"none\"",
           "Also write a table: none, markdown or csv">,
    Option<"tableFile", "table-file", "std::string", /*default=*/"\"-\"",
           "Where the table goes ('-' for standard output)">,
  ];
  let statistics = [
    Statistic<"numOps", "num-ops", "npu operations reported">,
  ];
}

#endif // KILN_DIALECTS_NPU_TRANSFORMS_PASSES_TD
