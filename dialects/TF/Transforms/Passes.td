//===- Passes.td - tf passes -------------------------------*- tablegen -*-===//
//
// Passes over functional tf: shape inference, and the report of what no
// backend lowers.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_TRANSFORMS_PASSES_TD
#define KILN_DIALECTS_TF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td" // Pass, Option

def TFShapeInferencePass : Pass<"tf-shape-inference", "::mlir::ModuleOp"> {
  let summary = "Refine tf result types from operand types and constants";
  let description = [{
    Visits every operation in order and lets each op that implements the
    shape-inference interface refine its result types from its operands'
    types and constant operands (a Reshape's shape, a Sum's axes). Refined
    types flow on: through islands and graphs (their result types follow
    what they yield and fetch), through region control flow (branch results
    join what the branches yield; a loop's values join their initial values
    with what the body yields, so a value whose shape changes between
    iterations gets `?`), and into the function's result types. A
    dimension stays `?` only when nothing determines it. It repeats until
    nothing changes (at most `max-iterations` times).

    Tensor lists carry their element type as the variant's subtype
    (`tensor<!tf_type.variant<tensor<320x320x3xf32>>>`): from the
    `element_shape` operand and the rows of TensorListFromTensor, joined
    with each TensorListSetItem's item; a TensorListReserve whose element
    shape is left open takes the join of the items set into the lists made
    from it (through loops and branches). Loops carry these types like any
    other, and TensorListGetItem and TensorListStack read them back.

    An inferred type that contradicts a static type already in the IR is an
    error naming the operation.

    ```mlir
    %0 = "tf.Reshape"(%x, %shape) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<*xf32>
    // with %shape = dense<[3, 2]> becomes
    %0 = "tf.Reshape"(%x, %shape) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
    ```
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "unsigned", /*default=*/"10",
           "Passes over each function before giving up on a fixpoint">,
  ];
}

def TFFunctionalToRegionControlFlowPass
    : Pass<"tf-functional-to-region-control-flow", "::mlir::ModuleOp"> {
  let summary = "Turn tf.If, tf.While and tf.Case into their region forms";
  let description = [{
    Replaces each functional control-flow op (tf.If, tf.While, tf.Case and
    their Stateless variants) by tf.IfRegion, tf.WhileRegion or
    tf.CaseRegion holding a copy of the called functions' bodies, so later
    passes see the whole computation in one function. Nested control flow in
    the copied bodies is converted too. The functions stay (symbol-dce
    removes those no longer used).

    Callees must already be functional (one block, no tf_executor graph):
    run tf-executor-to-functional first. Recursion through control flow is
    an error naming the op.
  }];
  let dependentDialects = ["::kiln::tf::TFDialect"];
}

def TFDecomposeFusedOpsPass : Pass<"tf-decompose-fused-ops"> {
  let summary = "Decompose fused and TF.js-only ops into basic tf ops";
  let description = [{
    `_FusedConv2D`, `FusedDepthwiseConv2dNative` and `_FusedMatMul` become
    Conv2D / DepthwiseConv2dNative / MatMul followed by BiasAdd or an
    inference-mode batch norm and the fused activation (Relu, Relu6, Elu,
    Sigmoid, Tanh, LeakyRelu, Prelu); `FusedBatchNorm(V2|V3)` with
    `is_training = false` becomes `x * m + (offset - mean * m)` with
    `m = scale * rsqrt(variance + epsilon)` (its batch statistics are the
    given mean and variance); `Prelu(x, alpha)` becomes
    `max(x, 0) + alpha * min(x, 0)`. Each created op carries
    `kiln.fused_from` naming the op it came from, and that op's location,
    so a backend can fuse the group again.

    A fused op whose `fused_ops` list it does not know is reported, naming
    the list.
  }];
}

def TFRefVariablesToResourcesPass : Pass<"tf-ref-variables-to-resources"> {
  let summary = "Turn TF1 reference variables into resource variables";
  let description = [{
    A TF1 variable (`VariableV2`, a tensor of a reference type such as
    `!tf_type.f32ref`) becomes a `tf.VarHandleOp` at the same location (the
    node name) whose `shared_name` is the variable's, else the node name, so
    `tf-resource-variables-to-globals` makes it module state and
    kiln-compile's config may name it as a `variable`. The ops that take its
    reference become their resource counterparts, in place: `Assign`,
    `AssignAdd`, `AssignSub` → `AssignVariableOp`, `AssignAddVariableOp`,
    `AssignSubVariableOp`; `ApplyGradientDescent`, `ApplyAdam` →
    `ResourceApplyGradientDescent`, `ResourceApplyAdam`. Their results (the
    reference again) are rewritten like the variable. Every other op that
    takes the reference as a value (`Identity`, as in `w/read`, or any op a
    reference feeds) reads the variable with a `tf.ReadVariableOp` placed
    just before it, so it sees the value at that point of the program.
  }];
}

def TFDecomposeTrainingOpsPass : Pass<"tf-decompose-training-ops"> {
  let summary = "Decompose the gradient and optimizer ops of training steps";
  let description = [{
    The ops a TF1 training step adds to a model become basic tf ops, in the
    order TensorFlow's CPU kernels compute them:

    - `ReluGrad(g, f)`: `select(f > 0, g, 0)`; `RsqrtGrad(y, dy)`:
      `-0.5 * (dy * y) * (y * y)`;
    - `SoftmaxCrossEntropyWithLogits(x, labels)`: with `s = x - max(x)` and
      `z = sum(exp(s))` per row, `loss = sum(labels * (log(z) - s))` and
      `backprop = exp(s) / z - labels`; `LogSoftmax(x)`: `s - log(z)` along
      the last dimension;
    - `ShapeN`: one `Shape` per operand; `BiasAddGrad`: a `Sum` over every
      dimension but the channel one;
    - `AssignAddVariableOp` / `AssignSubVariableOp`: a read, `AddV2` or
      `Sub`, and an assignment;
    - `ResourceApplyGradientDescent` and `ResourceApplyAdam`: reads of the
      variables (`ReadVariableOp`), the update, and assignments
      (`AssignVariableOp`) in place of the op, so
      `tf-resource-variables-to-globals` makes them module state;
    - `FusedBatchNormV3` with `is_training` and `FusedBatchNormGradV3`
      (NHWC, static shapes, f32): per-channel means and biased variances
      over N, H and W; the reserve spaces carry the batch mean and biased
      variance from the forward op to the gradient, as on TensorFlow's CPU.
      An inference-mode `FusedBatchNormV3` whose reserve spaces a gradient
      reads passes the given mean and variance in their place, so
      `tf-decompose-fused-ops` (which runs next) decomposes it.

    Ops outside these conditions (NCHW, dynamic shapes, integer ReluGrad)
    are left as they are, and the unsupported-op report names them.
  }];
}

def TFResourceVariablesToGlobalsPass
    : Pass<"tf-resource-variables-to-globals", "::mlir::ModuleOp"> {
  let summary = "Turn tf resource variables into ml_program globals";
  let description = [{
    Gives each resource variable module-level state that persists across
    calls. Handles of one `tf.VarHandleOp` `container`/`shared_name` pair
    (or one unnamed `tf.VarHandleOp`) are one variable and become one
    `ml_program.global`, named after `shared_name` (sanitized, made unique)
    and typed by the resource subtype, or by the values assigned and read
    when the subtype is missing. `tf.ReadVariableOp` becomes
    `ml_program.global_load` and `tf.AssignVariableOp` becomes
    `ml_program.global_store`, in place, so program order is kept (all are
    side-effecting). A `tf.Identity` bridges a read or assigned type that
    is compatible with, but not equal to, the global's type.

    Initial value: an assignment of a `tf.Const` that comes before every
    other access of the variable (it dominates the accesses in its function,
    and each other function holding an access is private and referenced
    only from places it dominates) gives the global its initial value.
    Otherwise the global is mutable without an initial value (allowed by
    ml_program: the value is undefined until the first store). The
    initializing assignment is dropped when it is the only assignment;
    otherwise it stays as a store, so a function that runs it again still
    resets the variable. A SavedModel's restore from its checkpoint, which
    the importer marks `_kiln_restore`, is always dropped: it gives the
    initial value and does not run on every call.

    A variable never assigned except by a constant initializer is frozen
    (`freeze-read-only`, on by default): its reads become that `tf.Const`
    and it gets no global. With the option off it becomes an immutable
    global read with `ml_program.global_load_const`.

    Errors name the op: a read or assignment whose handle does not come
    straight from a `tf.VarHandleOp` (through `tf.Identity`, a block or
    function argument, ...), any other use of a handle, types that conflict
    between the subtype and the values, and TF1 reference variables
    (`tf.VariableV2`), which are not converted.

    ```mlir
    %h = "tf.VarHandleOp"() {shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
    "tf.AssignVariableOp"(%h, %x) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
    %r = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
    // becomes
    ml_program.global private mutable @v : tensor<2xf32>
    ml_program.global_store @v = %x : tensor<2xf32>
    %r = ml_program.global_load @v : tensor<2xf32>
    ```
  }];
  let options = [
    Option<"freezeReadOnly", "freeze-read-only", "bool", /*default=*/"true",
           "Replace reads of constant-initialized, never-assigned variables "
           "by the constant">,
  ];
  let statistics = [
    Statistic<"numGlobals", "num-globals", "Globals created">,
    Statistic<"numFrozen", "num-frozen", "Variables frozen to constants">,
  ];
  let dependentDialects = ["::mlir::ml_program::MLProgramDialect",
                           "::kiln::tf::TFDialect"];
}

def TFDecomposeTensorArraysPass
    : Pass<"tf-decompose-tensor-arrays", "::mlir::ModuleOp"> {
  let summary = "Turn TF1 tensor arrays into tensors carried by their flow";
  let description = [{
    A TF1 tensor array of N elements of shape E (`tf.TensorArrayV3` and the
    ops on its handle) becomes the tensor `N x E` of its elements, the
    buffer. TF1 graphs order each access to an array through its flow value
    (each write returns a new flow, each read takes one, loops carry the flow
    while the handle is a loop constant), so the buffer replaces the flow,
    and loop values, branch results and `tf.Identity` ops that carry a flow
    take the buffer's type. With TensorFlow's semantics:

    - `TensorArrayV3(size)`: zeros of `[size] + E` (a `tf.Const`, or
      `tf.Fill` when the size is computed at run time); E is the
      `element_shape` attribute refined by the values written and read and
      the gathers' `element_shape`; no buffer is made when every use of the
      fresh flow is a scatter that overwrites every element (`unstack`);
    - `TensorArrayWriteV3(h, i, x, flow)`: `tf.SelectV2(iota == i, x, buffer)`
      with `iota` of shape `[N, 1, ..., 1]`;
    - `TensorArrayReadV3(h, i, flow)`: `tf.GatherV2(buffer, i, axis 0)`;
    - `TensorArrayGatherV3(h, indices, flow)`: the buffer when `indices` is
      `0..N-1` (`stack`: a constant or `tf.Range(0, size, 1)`), else
      `tf.GatherV2(buffer, indices, axis 0)`;
    - `TensorArrayScatterV3(h, indices, x, flow)`: `x` when `indices` is
      `0..N-1`, or when it is the first write and `indices` is
      `tf.Range(0, dim 0 of x, 1)` (`unstack(x)`: TensorFlow requires N to be
      at least that, and such graphs read only those elements), else each element `i` named by `indices[k] == i` takes row
      `k` of `x` (a one-hot `[N, K]` comparison, `tf.ArgMax`, `tf.GatherV2`
      and `tf.SelectV2`), the others keep their value;
    - `TensorArraySizeV3`: the size; `TensorArrayCloseV3`: nothing;
    - `TensorArrayConcatV3`: the buffer reshaped to `[N * E0] + E[1:]`, and
      lengths `E0` each; `TensorArraySplitV3` with constant, equal lengths:
      the value reshaped to `[N, length] + rest`.

    Gradient arrays (`TensorArrayGradV3(h, flow)`, one per forward array
    and `source`): the first call (after the forward loop, the gradient of
    its stack) makes zeros of the forward array's shape; later calls (in the
    backward loop) return the buffer their flow carries. Writes and scatters
    to a gradient array add to its elements, as TensorFlow aggregates them.

    TF1 stacks (`StackV2` and `StackPushV2`, `StackPopV2`, `StackCloseV2`,
    which TF1 while-loop gradients use to keep the forward loop's values for
    the backward loop) have no flow value: each becomes a buffer of
    `max_size` elements and a count, threaded through the function in block
    order and carried as two extra loop values by every `tf.WhileRegion`
    that pushes or pops it. A push writes element `count` and increments it;
    a pop decrements it and reads that element. With `max_size` -1 (what
    TensorFlow's gradients make) the size is the number of pushes, each
    counted once per iteration of the loops around it; a loop's count is
    bounded by a `cond` that requires `tf.Less(i, n)` (alone or in a
    `tf.LogicalAnd`) of a loop value `i` that starts at a constant and that
    the body increments by one, `n` a constant: the counter TF1 `while_loop`
    builds for `maximum_iterations`, which `dynamic_rnn` always passes. A
    stack whose pushes cannot be bounded so, whose elements have no static
    shape, whose handle reaches another op, or which is used inside another
    region op than `tf.WhileRegion` is an error naming the stack.

    An array that cannot be decomposed is an error naming its node:
    `dynamic_size = true` (no bound on its growth), an element shape that
    stays unknown or not static where a zero buffer is needed, a split into
    unequal lengths, a handle that does not come from a `tf.TensorArrayV3`
    in the same function, a handle or flow that reaches another op (a
    function boundary), or a gradient array first made inside a loop.

    ```mlir
    %h, %flow = "tf.TensorArrayV3"(%five) {dtype = f32, element_shape = #tf_type.shape<2>} : (tensor<i32>) -> (tensor<2x!tf_type.resource>, tensor<f32>)
    %f = "tf.TensorArrayWriteV3"(%h, %i, %x, %flow) : (tensor<2x!tf_type.resource>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
    // becomes
    %buffer = "tf.Const"() {value = dense<0.0> : tensor<5x2xf32>} : () -> tensor<5x2xf32>
    %mask = "tf.Equal"(%iota, %i) : (tensor<5x1xi32>, tensor<i32>) -> tensor<5x1xi1>
    %f = "tf.SelectV2"(%mask, %x, %buffer) : (tensor<5x1xi1>, tensor<2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
    ```
  }];
  let dependentDialects = ["::kiln::tf::TFDialect"];
}

def TFLowerTensorListsPass
    : Pass<"tf-lower-tensor-lists", "::mlir::ModuleOp"> {
  let summary = "Turn tf tensor lists into stacked tensors";
  let description = [{
    A tensor list of N elements of type E, typed
    `tensor<!tf_type.variant<E>>` by tf-shape-inference, becomes the tensor
    `tensor<N x E>` of its elements stacked, and each list op the tf ops that
    compute the same thing on that tensor (TensorFlow's semantics):

    - `TensorListReserve(element_shape, n)`: zeros of `[n] + E` (a
      `tf.Const`, or `tf.Fill` when `n` is not a constant); TensorFlow
      reads an item never set in a reserved list as zeros;
    - `TensorListFromTensor(t)`: `t` itself;
    - `TensorListGetItem(l, i)`: `tf.GatherV2(l, i, axis 0)`;
    - `TensorListSetItem(l, i, x)`: `tf.SelectV2(iota == i, x, l)`, with
      `iota` of shape `[N, 1, ..., 1]` counting the elements;
    - `TensorListStack(l)`: `l`, after checking `num_elements`;
    - `tf.Identity` of a list: the list.

    Lists carried through `tf.WhileRegion` take the type of their initial
    value (block arguments of both regions and results), and lists yielded
    by `tf.IfRegion`/`tf.CaseRegion` the type their branches yield.

    A list whose element type stays unknown (`tensor<!tf_type.variant>`),
    whose element shape is not static at a `TensorListReserve`, or that
    reaches an op not listed here (including a function boundary) is an
    error naming the op.

    ```mlir
    %l = "tf.TensorListReserve"(%shape, %two) : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
    // becomes
    %l = "tf.Const"() {value = dense<0.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
    ```
  }];
  let dependentDialects = ["::kiln::tf::TFDialect"];
}

#endif // KILN_DIALECTS_TF_TRANSFORMS_PASSES_TD
