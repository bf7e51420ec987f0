//===- Passes.td - Kiln conversion passes ------------------*- tablegen -*-===//
//
// Every conversion between dialects, declared in one place.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_PASSES_TD
#define KILN_CONVERSIONS_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass

def ConvertTFControlFlowToSCFPass
    : Pass<"convert-tf-control-flow-to-scf", "::mlir::func::FuncOp"> {
  let summary = "Lower tf.IfRegion, tf.WhileRegion and tf.CaseRegion to scf";
  let description = [{
    tf.IfRegion becomes scf.if, tf.WhileRegion scf.while (no trip count
    needed) and tf.CaseRegion scf.index_switch (an out-of-range index runs
    the last branch, as TensorFlow's Case does). A condition tensor is read
    with tensor.extract; an integer or float scalar counts as true when it
    is non-zero, as in TensorFlow. Where a region yields a more or less
    precise type than the scf op carries, tensor.cast bridges them.

    A condition that is not a scalar (TensorFlow's "non-empty tensor is
    true") is reported, naming the op.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertTFToLinalgPass
    : Pass<"convert-tf-to-linalg", "::mlir::func::FuncOp"> {
  let summary = "Lower tf ops to linalg, tensor, arith and math on tensors";
  let description = [{
    The CPU path's entry: every `tf` op in a function becomes linalg named
    ops where they exist (`linalg.matmul`, `linalg.batch_matmul`,
    `linalg.conv_2d_nhwc_hwcf`, `linalg.depthwise_conv_2d_nhwc_hwc`,
    `linalg.pooling_*`), `linalg.generic` for elementwise ops and
    reductions, `tensor` ops for shape manipulation and `math` for
    transcendental functions, with TensorFlow's semantics (SAME/VALID
    padding, broadcasting, integer division and rounding, NaN handling).
    `tf.Const` becomes `arith.constant`.

    Before converting, every `tf` op with no lowering is reported at once,
    each naming the op and its node (the location), and the pass fails: a
    user sees the whole list, not the first failure. Run
    `convert-tf-control-flow-to-scf` first; region control flow is not
    lowered here.

    ```mlir
    %0 = "tf.AddV2"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    // becomes
    %e = tensor.empty() : tensor<4xf32>
    %0 = linalg.generic {...} ins(%x, %y : ...) outs(%e : ...) {
      ^bb0(%a: f32, %b: f32, %out: f32):
        %s = arith.addf %a, %b : f32
        linalg.yield %s : f32
    } -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

def ConvertMLProgramToMemRefPass
    : Pass<"convert-ml-program-to-memref", "::mlir::ModuleOp"> {
  let summary = "Lower ml_program globals to memref globals with copy semantics";
  let description = [{
    Model state (TensorFlow variables after `tf-resource-variables-to-globals`)
    must persist across calls and keep value semantics: a load returns the
    value at the time of the load, even if a later store in the same call
    changes the variable. Upstream's bufferization of `ml_program` does not
    keep that (in MLIR 22 a loaded value aliases the global's buffer, and a
    store of a value that is also returned copies an uninitialized buffer),
    so Kiln lowers the state itself, on tensors, before one-shot
    bufferization:

    - `ml_program.global` becomes a private `memref.global` (constant when
      immutable) with the same initial value, or zeros when it has none,
      tagged `kiln.variable` with its name;
    - `ml_program.global_load` copies the global's buffer into a new buffer
      (`memref.alloc` + `memref.copy`) and reads it as a tensor;
    - `ml_program.global_load_const` reads the global's buffer directly;
    - `ml_program.global_store` writes the stored tensor into the global's
      buffer (`bufferization.materialize_in_destination`).

    Globals must have a static shape; others are reported by name.

    ```mlir
    ml_program.global private mutable @v(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
    %0 = ml_program.global_load @v : tensor<2xf32>
    ml_program.global_store @v = %1 : tensor<2xf32>
    // becomes
    memref.global "private" @v : memref<2xf32> = dense<0.0> {kiln.variable = "v"}
    %m = memref.get_global @v : memref<2xf32>
    %a = memref.alloc() : memref<2xf32>
    memref.copy %m, %a : memref<2xf32> to memref<2xf32>
    %0 = bufferization.to_tensor %a restrict writable : memref<2xf32> to tensor<2xf32>
    %m2 = memref.get_global @v : memref<2xf32>
    bufferization.materialize_in_destination %1 in restrict writable %m2 : (tensor<2xf32>, memref<2xf32>) -> ()
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def ConvertNPUToNPUHWPass
    : Pass<"convert-npu-to-npuhw", "::mlir::ModuleOp"> {
  let summary = "Lower functions of npu ops to npuhw.streams";
  let description = [{
    Each function whose body is a sequence of npu ops (any dataflow: several
    arguments and results, intermediates read more than once; constants
    through `quant.scast`) becomes an `npuhw.stream` of the same name. Ops
    lowered: int8 and fp16 `npu.conv2d`, `npu.depthwise_conv2d` and
    `npu.fully_connected` (a 1x1 convolution of a 1 x M x K image);
    `npu.max_pool2d`, `npu.avg_pool2d` and `npu.sum_pool2d` (int8 and
    fp16); `npu.add`, `sub`, `mul`, `minimum`, `maximum` (int8 and fp16);
    `npu.rescale`, `npu.table`, `npu.clamp` and `npu.convert`.

    - DRAM plan: r2 holds the arguments and r3 the results, r1 (scratch)
      the intermediates, first fit with reuse once a tensor's last reader
      has run; every tensor at a 16-byte aligned offset. r0 holds the
      constants each op appends at 64-byte aligned offsets: packed
      weights and `{bias, multiplier, shift, 0}` records of the
      convolutions, eltwise parameter blocks, tables, constant operands.
      `npuhw.io` declarations are named from `tf.entry_function`, else
      `argN`/`resultN`.
    - Convolutions: per output-row band (input halo rows, border padding by
      the MAC padding fields, channels padded to 16 with the input zero
      point) a DMA_LOAD; per output channel group a weight DMA_LOAD when
      weights are streamed, MAC_CONV (MAC_DWCONV) into ACC, VEC_REQUANT
      (TOSA's double rounding) into ACT; per band a DMA_STORE. The tallest
      band, then the widest group, whose two buffers per stage fit LMEM;
      weights once when they fit WGT, else streamed per group. Input loads
      and stores keep their DRAM addresses 16-byte aligned (loads start up
      to 15 rows early, bands are a multiple of the aligning rows; a batch
      whose output images are not a multiple of 16 bytes is rejected).
    - fp16: r0 holds the f16 weights (2 bytes per element in the same block
      layouts) and the f32 biases; each group's accumulators are preloaded
      with the biases by an LMEM-to-LMEM DMA_LOAD from ACT, MAC_CONV
      (MAC_DWCONV) accumulates onto them in f32, VEC_UNARY CONVERT rounds
      to f16 and VEC_UNARY CLAMP applies the clamp rounded to fp16 (see the
      op descriptions of npu.conv2d).
    - Pooling: per output-row band (input halo rows, border padding by
      VEC_POOL's padding fields) and group of channel blocks a DMA_LOAD,
      a VEC_POOL (a DMA_FILL with the empty window's value when the band's
      windows lie entirely in the padding) and a DMA_STORE, with two input
      and two output buffers in ACT; the group width loads the fewest input
      rows, then the widest, and the band is the tallest that fits. No
      constants of its own; `npu.sum_pool2d` writes i32 (int8) or f32
      (fp16); DRAM views at any offset (the alignment above is the
      convolutions').
    - Element-wise ops: the tensor as positions of 16 elements (flat) or,
      for a CHANNEL broadcast, of its channels padded to 16-lane blocks;
      bands of as many positions as two buffers of each streamed operand
      and of the output fit in ACT; per band DMA_LOADs, one VEC_ELTWISE or
      VEC_UNARY, one DMA_STORE. int8 add/sub/mul carry TFLite's rescaling
      in the parameter block; a scalar argument is copied over the block's
      scalar word; RESCALE rounds twice as TFLite's requantisation does.
    - Buffers are `npuhw.alloc`s, two per stage used alternately;
      `!npuhw.token`s carry the data and write-after-read dependencies, so
      DMA overlaps MAC and VEC.
    - Ops overlap: each op tiles to an LMEM budget, half of every region
      when that costs little time (else what the op before leaves), with
      odd ops' buffers `from_top`, so consecutive ops can run at the same
      time; an op's loads wait for the stores of the op two back (whose
      LMEM it reuses) and, per command, for the last earlier store that
      wrote a byte they read; a store waits for the last earlier load of a
      byte it overwrites. An op that tiles much worse within a budget takes
      all of LMEM and runs after its neighbours (`overlap-ops=false`: every
      op).
    - LMEM-resident intermediates (`lmem-resident`, on by default): an
      intermediate that only the next op reads and that takes at most half
      of ACT stays in an ACT buffer: the producer's stores into it become
      LMEM-to-LMEM DMA_LOADs and the consumer loads it from LMEM, so it
      never crosses the DRAM port. The ops that may run while it lives
      tile to ACT without its bytes; a tensor whose accesses break an LMEM
      rule (alignment, a store from a region other than ACT), beside which
      a neighbour no longer tiles, or whose buffers `npuhw-allocate-lmem`
      cannot place, goes through DRAM instead.
    - Cascading (`cascade`, on by default): an intermediate between two
      convolutions (dense or depthwise) that only the next op reads and
      that does not stay whole in ACT lives in a rolling line buffer of
      rows in ACT. The two ops (or three, joined by two such tensors) are
      emitted with a common band height and shares of LMEM beside the
      rings; the producer copies its output bands into the ring, the
      consumer loads its input bands (halo rows included) from it, and its
      commands are interleaved with the producer's so that each band runs
      as soon as its rows exist. A replay of DMA_IN's order checks that no
      load reads a slot overwritten or not yet written; a tensor that fails
      it, or beside which the group does not tile, goes through DRAM. A
      group is also refused when an op's weights would not stay whole in
      its share of WGT (they would be loaded again for every short band),
      and kept only when it pays off: its interleaved time (the longest of
      the summed MAC, VEC and DRAM cycles, plus 1/16) must be below the
      ops' times emitted alone (docs/npu-lowering.md, "Cascading").

    The pass options bound the band height and the channel group of the
    convolutions and pooling ops (for tests); the bands still respect the
    alignment above.

    Run `npuhw-allocate-lmem` and `npuhw-assign-semaphores` afterwards
    (`kiln-npu-to-npuhw-pipeline`).
  }];
  let options = [
    Option<"maxRowsPerBand", "max-rows-per-band", "unsigned", /*default=*/"0",
           "Upper bound on the output rows of a band (0: as LMEM allows)">,
    Option<"maxBlocksPerGroup", "max-blocks-per-group", "unsigned",
           /*default=*/"0",
           "Upper bound on the 16-channel output blocks of a group (0: as "
           "LMEM allows)">,
    Option<"overlapOps", "overlap-ops", "bool", /*default=*/"true",
           "Let consecutive ops run at the same time (false: each op uses "
           "all of LMEM and runs after the previous one)">,
    Option<"lmemResident", "lmem-resident", "bool", /*default=*/"true",
           "Keep in ACT an intermediate that only the next op reads and "
           "that fits beside its neighbours (false: every intermediate "
           "goes through DRAM)">,
    Option<"cascade", "cascade", "bool", /*default=*/"true",
           "Keep in a rolling line buffer in ACT an intermediate between "
           "two convolutions that only the next op reads and that is too "
           "large to stay whole, interleaving the two ops' bands (false: "
           "it goes through DRAM)">];
  let dependentDialects = ["::kiln::npuhw::NPUHWDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ConvertTFToNPUPass : Pass<"convert-tf-to-npu", "::mlir::ModuleOp"> {
  let summary = "Partition tf functions into fp16 NPU segments and CPU ops";
  let description = [{
    Decides for every `tf` op of every function whether NPU-v1 can run it
    under the function's `#npu.target` (the closest `npu.target` attribute,
    else the preset of the `target` option), converts the ops it can run to
    `npu` ops in fp16, groups them into segments, and outlines each segment
    into a private `func.func` that the CPU function calls.

    **Decision.** An op is placed on the NPU when it is one of Conv2D,
    DepthwiseConv2dNative, MatMul, BiasAdd, Add, AddV2, Sub, Mul, Minimum,
    Maximum, Square, Relu, Relu6, MaxPool, AvgPool or Mean over H and W (with
    `keep_dims`), with static f32 tensors, NHWC layout, constant weights,
    broadcasts the VEC engine has, and when the `npu` op built for it passes
    that op's verifier on the target: the limits are the verifiers' own
    (8-bit window fields, LMEM fit of the smallest tile, ...), and a CPU op's
    reason quotes the verifier. Everything else stays on the CPU with its
    reason: the op (no npu equivalent), the dtype, the shape, an attribute,
    an operand (weights that are not constants) or a limit. Ops inside
    regions (`tf.WhileRegion`, ...) stay on the CPU.

    **Segments.** Connected NPU ops are grouped greedily in program order; a
    group is only extended when it stays convex, so no segment both feeds and
    reads a CPU op (or another segment), and the CPU function can call it
    once. Each segment becomes `func.func private @npu_<node>` (the first
    TensorFlow node name of the segment, without the prefix all of the
    function's nodes share), with the target in `npu.target` and its nodes in
    `kiln.npu_nodes`. Its arguments and results are the f32 values crossing
    the boundary, converted with `npu.convert` to f16 and back; constants are
    copied in as f16 `arith.constant`s. Inside, a bias (BiasAdd or Add of a
    constant per-channel vector) and a following Relu/Relu6 fold into the
    convolution or fully connected layer before them.

    ```mlir
    %y = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]}
        : (tensor<1x8x8x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x8x8x16xf32>
    %z = "tf.Relu"(%y) : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    // becomes
    %z = call @npu_conv(%x) : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    func.func private @npu_conv(%a: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
        attributes {kiln.npu_nodes = ["conv", "relu"], npu.target = #npu.target<"default">} {
      %h = npu.convert %a : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf16>
      %w = arith.constant dense<...> : tensor<3x3x16x16xf16>
      %c = npu.conv2d %h, %w {clamp_min = 0.0 : f32, ...} : ...
      %r = npu.convert %c : (tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf32>
      return %r : tensor<1x8x8x16xf32>
    }
    ```

    **Report.** With `remarks`, every tf op gets a remark at its location:
    `NPU (@segment)` or `CPU: <reason>`. With `report=markdown` or
    `report=csv`, a table of every tf op but constants (node, op, placement,
    segment, reason kind, reason) and a summary go to `report-file` (`-`
    for standard output). `analyze-only` writes the report and leaves the
    IR unchanged.

    **int8.** With `precision=int8` and `calibration-file` (the observed
    ranges, see `observe-npu-ranges`), the segments are int8 as TFLite's
    post-training quantisation makes them: per-channel symmetric weights
    (scale max|w|/127), i32 biases at input scale × weight scale, per-tensor
    activations from the calibrated [min, max] widened to hold 0 (scale
    (max − min)/255, zero point round(−128 − min/scale)), Relu/Relu6 folded
    into the convolution's clamp, other Relu/Relu6 and Sigmoid/Tanh as
    `npu.table`, pools keeping their input's quantisation, and the f32
    arguments and results quantised and dequantised inside the segment. A
    value without a range is an error naming its node.
  }];
  let options = [
    Option<"targetPreset", "target", "std::string", /*default=*/"\"default\"",
           "Target preset for functions without an npu.target attribute">,
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark with the placement of every tf op">,
    Option<"report", "report", "std::string", /*default=*/"\"none\"",
           "Also write the placement table: none, markdown or csv">,
    Option<"reportFile", "report-file", "std::string", /*default=*/"\"-\"",
           "Where the table goes ('-' for standard output)">,
    Option<"analyzeOnly", "analyze-only", "bool", /*default=*/"false",
           "Only decide and report; do not change the IR">,
    Option<"precision", "precision", "std::string", /*default=*/"\"fp16\"",
           "Number format of the segments: fp16 or int8">,
    Option<"calibrationFile", "calibration-file", "std::string",
           /*default=*/"\"\"",
           "int8: the JSON file of calibrated ranges (kiln-npu-calibrate)">,
  ];
  let statistics = [
    Statistic<"numNPUOps", "num-npu-ops", "tf ops placed on the NPU">,
    Statistic<"numCPUOps", "num-cpu-ops", "tf ops left on the CPU">,
    Statistic<"numSegments", "num-segments", "NPU segments outlined">,
  ];
  let dependentDialects = ["::kiln::npu::NPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::quant::QuantDialect"];
}

def ObserveNPURangesPass : Pass<"observe-npu-ranges", "::mlir::ModuleOp"> {
  let summary = "Return the tensors an int8 NPU partition quantises, for "
                "calibration";
  let description = [{
    Decides the placement of the entry function's tf ops and forms the NPU
    segments as `convert-tf-to-npu precision=int8` does, and appends every
    tensor whose range the int8 segments need (their inputs and the results
    of their ops, but those folded into a convolution and those with a fixed
    quantisation) to the entry's results, each with a `kiln.range_key`
    result attribute naming it as the calibration file does
    (`<node>:<index>`). Running the instrumented entry on sample inputs and
    reducing each extra result to its min and max (`kiln-npu-calibrate`)
    gives the ranges `convert-tf-to-npu` reads.

    ```mlir
    func.func @main(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
      %y = "tf.Relu"(%x) : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> loc("relu")
      return %y : tensor<1x8x8x4xf32>
    }
    // becomes
    func.func @main(%x: tensor<1x8x8x4xf32>) -> (tensor<1x8x8x4xf32>,
        tensor<1x8x8x4xf32> {kiln.range_key = "arg0:0"},
        tensor<1x8x8x4xf32> {kiln.range_key = "relu:0"})
    ```
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The function to instrument">,
    Option<"targetPreset", "target", "std::string", /*default=*/"\"default\"",
           "Target preset when the function has no npu.target attribute">,
  ];
  let dependentDialects = ["::kiln::npu::NPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // KILN_CONVERSIONS_PASSES_TD
