//===- Passes.td - npu passes ------------------------------*- tablegen -*-===//
//
// Passes over the tensor-level npu dialect.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_NPU_TRANSFORMS_PASSES_TD
#define KILN_DIALECTS_NPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass, Option

def NPUReportCostPass : Pass<"npu-report-cost", "::mlir::ModuleOp"> {
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
    model.mlir:15:8: remark: npu.conv2d: 4718592 MACs; cycles MAC 18432,
      VEC 1024, DRAM 2752; bound MAC; estimate >= 18432 cycles
    ```

    The figures (`NPUCostOpInterface`, `dialects/NPU/IR/NPUCost.h`):
    - MACs: the op's multiply-accumulates over real channels (window
      positions in the padding included, as the hardware does them).
    - MAC cycles: convolutions and fully connected layers (a 1×1
      convolution of M pixels) as MAC_CONV, per image
      `f · kh · kw · ⌈16·cb_in/rows⌉ · ⌈16·cb_out/cols⌉ · max(pixels,
      mac.weight_load_cycles)`; depthwise as MAC_DWCONV,
      `f · ⌈padded MACs / (rows·cols/8)⌉`; f = 2 for fp16.
    - VEC cycles: `⌈pixels · 16·cb · window / vec.lanes⌉` per pass over the
      output (window = kh·kw for pooling, else 1). int8 MAC ops take one
      VEC_REQUANT pass; fp16 MAC ops one conversion pass plus one for the
      bias and one for the clamp when present; every other op one pass.
    - DRAM bytes: every operand and the result once at their element size;
      int8 MAC ops move 16-byte per-channel records instead of the bias,
      element-wise ops a 64-byte parameter block, tables 256 bytes. DRAM
      cycles: bytes / `dma.dram_bytes_per_cycle`.

    With `table=markdown` or `table=csv` it also writes a table with one row
    per operation (op, location, MACs, the three cycle figures, bound,
    estimate) and a total row to `table-file` (`-`, the default, is
    standard output). It runs on a module, so one table covers every
    function. The IR is not changed.
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
