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
    cost on its target (the closest `npu.target`, else the `"default"`
    preset): the useful MACs; the cycles of its useful MACs, VEC and DRAM
    work at the target's peak rates (`docs/npu-cycle-model.md`), whose largest
    is the lower bound (and names the bound engine); and the estimate, the
    predicted cycles of the op's lowered command stream.

    ```
    model.mlir:15:8: remark: npu.conv2d: 4718592 MACs; cycles MAC 18432,
      VEC 1024, DRAM 2752; lower bound 18432 (MAC); estimate 21474 cycles
    ```

    The figures (`NPUCostOpInterface`, `dialects/NPU/IR/NPUCost.h`):
    - MACs: the op's multiply-accumulates over real channels (window
      positions in the padding included, as the hardware does them).
    - MAC cycles: the useful MACs at the peak, rows·cols per cycle for
      convolutions and fully connected layers, rows·cols/8 for depthwise,
      half of either in fp16.
    - VEC cycles: `⌈pixels · 16·cb · window / vec.lanes⌉` per pass over the
      output (window = kh·kw for pooling, else 1). int8 MAC ops take one
      VEC_REQUANT pass; fp16 MAC ops one conversion pass plus one for the
      bias and one for the clamp when present; every other op one pass.
    - DRAM bytes: every operand and the result once at their element size;
      int8 MAC ops move 16-byte per-channel records instead of the bias,
      element-wise ops a 64-byte parameter block, tables 256 bytes. DRAM
      cycles: bytes / `dma.dram_bytes_per_cycle`.

    - Estimate: a replay of the commands the lowering emits for the op
      (`NPUCostSchedule.cpp`): its tiling into bands of output rows with
      halos and output-channel groups (the lowering's rules), weights and
      records loaded once or streamed, two buffers per stage, every DMA
      paying `dma.setup_cycles`, its burst-rounded bytes on the shared DRAM
      port and `dma.dram_latency`, every MAC_CONV
      `f · kh · kw · ⌈16·cb_in/rows⌉ · ⌈16·cb_out/cols⌉ · max(pixels,
      mac.weight_load_cycles)` plus setup and pipeline latency (MAC_DWCONV
      its padded MACs at rows·cols/8), every VEC command its lane vectors
      plus setup, on four in-order engines. It leaves out LMEM port stalls
      and the fetch unit.

    With `table=markdown` or `table=csv` it also writes a table with one row
    per operation (op, location, MACs, the three cycle figures, bound,
    lower bound, estimate) and a total row to `table-file` (`-`, the default, is
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

def NPURecordCostsPass : Pass<"npu-record-costs", "::mlir::ModuleOp"> {
  let summary = "Record each npu operation's cost for the .npub COST section";
  let description = [{
    For every function holding npu operations, records their costs
    (`NPUCostOpInterface` on the op's target) in the module attribute
    `npu.layer_costs`: a dictionary with one entry per function, an array
    with one dictionary per operation holding `loc` (the location
    `convert-npu-to-npuhw` gives the operation's commands: a `NameLoc` of
    the op name around the op's location), `estimate`, `mac`, `vec`, `dram`
    (the lower bound's terms) and `macs` (useful MACs). The lowering
    replaces the functions by streams of the same names, and
    `kiln-translate --npuhw-to-npub` writes the entries of its stream into
    the COST section under the DEBUG tag of each location, so the figures
    reach the per-layer report of `kiln-npu-sim --layer_report`.
    `kiln-npu-to-npuhw-pipeline` runs it first.

    ```mlir
    module attributes {npu.layer_costs = {layer = [
        {dram = 2752 : i64, estimate = 21474 : i64,
         loc = loc("npu.conv2d"("m.mlir":3:8)), mac = 18432 : i64,
         macs = 4718592 : i64, vec = 1024 : i64}
      ]}} {
    ```
  }];
  let statistics = [
    Statistic<"numOps", "num-ops", "npu operations recorded">,
  ];
}

#endif // KILN_DIALECTS_NPU_TRANSFORMS_PASSES_TD
