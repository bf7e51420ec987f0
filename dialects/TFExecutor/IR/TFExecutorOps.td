//===- TFExecutorOps.td - tf_executor operations -----------*- tablegen -*-===//
//
// The executor graph, islands and TF1 control-flow nodes. Operand and result
// layouts are TensorFlow's, so the generic forms TensorFlow prints parse.
// Every node lists its control inputs after its data inputs.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFEXECUTOR_IR_TFEXECUTOROPS_TD
#define KILN_DIALECTS_TFEXECUTOR_IR_TFEXECUTOROPS_TD

include "dialects/TFExecutor/IR/TFExecutorDialect.td"
include "mlir/IR/OpBase.td"                       // Variadic, Region
include "mlir/IR/BuiltinAttributes.td"            // StrAttr, I64Attr
include "mlir/Interfaces/SideEffectInterfaces.td" // MemoryEffects
include "mlir/IR/RegionKindInterface.td"          // (not used: SSACFG)

def TFExecutor_Control
    : Type<CPred<"::llvm::isa<::kiln::tf_executor::ControlType>($_self)">,
           "control", "::kiln::tf_executor::ControlType">,
      BuildableType<"::kiln::tf_executor::ControlType::get($_builder.getContext())">;
def TFExecutor_Token : Type<CPred<"::llvm::isa<::kiln::tf_executor::TokenType>($_self)">,
                            "token", "::kiln::tf_executor::TokenType">;

// Nodes carry their own attributes (device, T, ...) as discardable attributes.

//===----------------------------------------------------------------------===//
// Graph and fetch
//===----------------------------------------------------------------------===//

def TFExecutor_GraphOp : TFExecutor_Op<"graph",
    [SingleBlockImplicitTerminator<"FetchOp">]> {
  let summary = "a TensorFlow dataflow graph";
  let description = [{
    The region holds executor nodes only and ends in `tf_executor.fetch`,
    whose non-control operands are the graph's results; trailing control
    operands of the fetch are the graph's control outputs.

    ```mlir
    %r = tf_executor.graph {
      %out, %ctl = tf_executor.island wraps "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
      tf_executor.fetch %out : tensor<f32>
    }
    ```
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The graph's block.
    ::mlir::Block &getBlock() { return getBody().front(); }
    /// The terminating fetch.
    FetchOp getFetch();
  }];
}

def TFExecutor_FetchOp : TFExecutor_Op<"fetch",
    [Terminator, HasParent<"GraphOp">, Pure]> {
  let summary = "the results of a tf_executor.graph";
  let description = [{
    ```mlir
    tf_executor.fetch %a, %ctl : tensor<f32>, !tf_executor.control
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$fetches);
  let builders = [OpBuilder<(ins), [{ }]>];
  let assemblyFormat = "($fetches^ `:` type($fetches))? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Island and yield
//===----------------------------------------------------------------------===//

def TFExecutor_IslandOp : TFExecutor_Op<"island",
    [HasParent<"GraphOp">, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a node that runs a block of tf operations";
  let description = [{
    Runs its region once all control inputs are ready; its data results are
    the operands of the terminating `tf_executor.yield`, followed by a
    control result. An island that wraps a single operation whose results
    are yielded unchanged prints in the short `wraps` form when the island,
    the operation and the yield share one location:

    ```mlir
    %out, %ctl = tf_executor.island(%c) wraps "tf.Identity"(%x) : (tensor<f32>) -> tensor<f32>
    %o:2, %ctl2 = tf_executor.island {
      %a = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
      tf_executor.yield %a, %x : tensor<f32>, tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<TFExecutor_Control>:$controlInputs);
  let results = (outs Variadic<AnyType>:$outputs, TFExecutor_Control:$control);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The island's block.
    ::mlir::Block &getBlock() { return getBody().front(); }
    /// The terminating yield.
    YieldOp getYield();
    /// True if the body is one operation whose results are yielded, in
    /// order, unchanged.
    bool wrapsSingleOp();
  }];
}

def TFExecutor_YieldOp : TFExecutor_Op<"yield",
    [Terminator, HasParent<"IslandOp">, Pure]> {
  let summary = "the data results of a tf_executor.island";
  let description = [{
    ```mlir
    tf_executor.yield %a, %b : tensor<f32>, tensor<i32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$fetches);
  let builders = [OpBuilder<(ins), [{ }]>];
  let assemblyFormat = "($fetches^ `:` type($fetches))? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TF1 control flow
//===----------------------------------------------------------------------===//

def TFExecutor_SwitchOp : TFExecutor_Op<"Switch", [HasParent<"GraphOp">]> {
  let summary = "forwards data to one of two outputs by a predicate";
  let description = [{
    Forwards `data` to `falseOutput` when `predicate` is false and to
    `trueOutput` when it is true; the other output is dead. Results are
    false first, then true, as in TensorFlow. The short form `: T` means the
    data and both outputs have type T and the predicate is `tensor<i1>`.

    ```mlir
    %false, %true, %ctl = tf_executor.Switch %data, %pred : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$data, AnyType:$predicate,
                       Variadic<TFExecutor_Control>:$controlInputs);
  let results = (outs AnyType:$falseOutput, AnyType:$trueOutput,
                      TFExecutor_Control:$control);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TFExecutor_SwitchNOp : TFExecutor_Op<"_SwitchN", [HasParent<"GraphOp">]> {
  let summary = "forwards data to one of N outputs by an index";
  let description = [{
    Forwards `data` to output number `index` (an int32 scalar); the others
    are dead. Control inputs are listed in parentheses.

    ```mlir
    %o:3, %ctl = tf_executor._SwitchN %data, %index of 3 (%c) : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$data, AnyType:$index,
                       Variadic<TFExecutor_Control>:$controlInputs,
                       I64Attr:$num_outs);
  let results = (outs Variadic<AnyType>:$outputs, TFExecutor_Control:$control);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TFExecutor_MergeOp : TFExecutor_Op<"Merge", [HasParent<"GraphOp">]> {
  let summary = "forwards the first of its inputs to become available";
  let description = [{
    Forwards the first live data input and its index. The short form `: T`
    means two data inputs and the output of type T (control inputs follow
    the two data inputs); any other arity or typing uses the functional form.

    ```mlir
    %v, %idx, %ctl = tf_executor.Merge %a, %b : tensor<f32>
    %v, %idx, %ctl = tf_executor.Merge %a : (tensor<2xf32>) -> (tensor<?xf32>, tensor<i32>, !tf_executor.control)
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputs_and_control);
  let results = (outs AnyType:$output, AnyType:$value_index,
                      TFExecutor_Control:$control);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The data inputs (the operands before the first control operand).
    ::mlir::OperandRange getDataInputs();
  }];
}

def TFExecutor_EnterOp : TFExecutor_Op<"Enter", [HasParent<"GraphOp">]> {
  let summary = "makes a value available to a loop frame";
  let description = [{
    Forwards `data` into the frame named `frame_name`; `is_constant` makes
    it available to every iteration, and `parallel_iterations` bounds how
    many iterations run at once (10 when not printed).

    ```mlir
    %v, %ctl = tf_executor.Enter %x frame "while/" parallel_iterations 32 constant : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$data,
                       Variadic<TFExecutor_Control>:$controlInputs,
                       StrAttr:$frame_name,
                       DefaultValuedAttr<I64Attr, "10">:$parallel_iterations,
                       DefaultValuedAttr<BoolAttr, "false">:$is_constant);
  let results = (outs AnyType:$output, TFExecutor_Control:$control);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TFExecutor_ExitOp : TFExecutor_Op<"Exit", [HasParent<"GraphOp">]> {
  let summary = "makes a value of a loop frame available to its parent";
  let description = [{
    ```mlir
    %v, %ctl = tf_executor.Exit %x : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$data,
                       Variadic<TFExecutor_Control>:$controlInputs);
  let results = (outs AnyType:$output, TFExecutor_Control:$control);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TFExecutor_LoopCondOp : TFExecutor_Op<"LoopCond", [HasParent<"GraphOp">]> {
  let summary = "the predicate of a loop frame";
  let description = [{
    Forwards a boolean scalar that decides whether the loop runs again.

    ```mlir
    %p, %ctl = tf_executor.LoopCond %cond : tensor<i1>
    ```
  }];
  let arguments = (ins AnyType:$input,
                       Variadic<TFExecutor_Control>:$controlInputs);
  let results = (outs AnyType:$output, TFExecutor_Control:$control);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TFExecutor_NextIterationSourceOp
    : TFExecutor_Op<"NextIteration.Source", [HasParent<"GraphOp">]> {
  let summary = "the value a loop carries into its next iteration";
  let description = [{
    TensorFlow's NextIteration node, split in two so the back edge of a loop
    does not form an SSA cycle: the source produces the value at the top of
    the iteration and a token that names its sink.

    ```mlir
    %v, %token, %ctl = tf_executor.NextIteration.Source : tensor<f32>
    tf_executor.NextIteration.Sink [%token] %next : tensor<f32>
    ```
  }];
  let results = (outs AnyType:$output, TFExecutor_Token:$token,
                      TFExecutor_Control:$control);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The sink that consumes this source's token, if any.
    NextIterationSinkOp getSink();
  }];
}

def TFExecutor_NextIterationSinkOp
    : TFExecutor_Op<"NextIteration.Sink", [HasParent<"GraphOp">]> {
  let summary = "the end of a loop back edge";
  let description = [{
    Feeds `input` to the NextIteration.Source whose token it takes.
  }];
  let arguments = (ins TFExecutor_Token:$token, AnyType:$input,
                       Variadic<TFExecutor_Control>:$controlInputs);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TFExecutor_ControlTriggerOp
    : TFExecutor_Op<"ControlTrigger", [HasParent<"GraphOp">]> {
  let summary = "a control node that runs even if its inputs are dead";
  let description = [{
    ```mlir
    %ctl = tf_executor.ControlTrigger %c1, %c2
    ```
  }];
  let arguments = (ins Variadic<TFExecutor_Control>:$controlInputs);
  let results = (outs TFExecutor_Control:$control);
  let assemblyFormat = "$controlInputs attr-dict";
}

#endif // KILN_DIALECTS_TFEXECUTOR_IR_TFEXECUTOROPS_TD
