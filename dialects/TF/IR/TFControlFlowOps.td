//===- TFControlFlowOps.td - region-based tf control flow --*- tablegen -*-===//
//
// The structured forms of TensorFlow's control flow, as in TensorFlow's own
// tf dialect: tf.IfRegion, tf.WhileRegion and tf.CaseRegion hold their
// branches and loop bodies as regions ending in tf.Yield, instead of calling
// functions. They print in generic form, like every tf op.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_IR_TFCONTROLFLOWOPS_TD
#define KILN_DIALECTS_TF_IR_TFCONTROLFLOWOPS_TD

include "dialects/TF/IR/TFOpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td" // RegionBranchOpInterface
include "mlir/IR/RegionKindInterface.td"

def TF_YieldOp : TF_Op<"Yield", [Pure, ReturnLike, Terminator,
    ParentOneOf<["IfRegionOp", "WhileRegionOp", "CaseRegionOp"]>]> {
  let summary = "Ends a region of a tf region control-flow op";
  let description = [{
    Yields the values of an IfRegion or CaseRegion branch, the predicate of a
    WhileRegion's `cond` region, or the next loop values of its `body`.

    ```mlir
    "tf.Yield"(%x) : (tensor<f32>) -> ()
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
}

def TF_IfRegionOp : TF_Op<"IfRegion", [
    NoRegionArguments, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Runs one of two regions depending on a condition";
  let description = [{
    `cond` is converted to a boolean as TensorFlow does (a non-zero scalar is
    true); the chosen region's tf.Yield gives the results.

    ```mlir
    %r = "tf.IfRegion"(%c) ({
      "tf.Yield"(%a) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%b) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
    ```
  }];
  let arguments = (ins TF_Tensor:$cond, BoolAttr:$is_stateless);
  let results = (outs Variadic<TF_Tensor>:$output);
  let regions = (region SizedRegion<1>:$then_branch,
                        SizedRegion<1>:$else_branch);
  let hasVerifier = 1;
}

def TF_CaseRegionOp : TF_Op<"CaseRegion", [
    NoRegionArguments, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Runs the region selected by an index";
  let description = [{
    Runs region `branch_index`, or the last region when the index is out of
    range, as TensorFlow's Case does.

    ```mlir
    %r = "tf.CaseRegion"(%i) ({
      "tf.Yield"(%a) : (tensor<f32>) -> ()
    }, {
      "tf.Yield"(%b) : (tensor<f32>) -> ()
    }) {is_stateless = true} : (tensor<i32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins TF_Int32Tensor:$branch_index, BoolAttr:$is_stateless);
  let results = (outs Variadic<TF_Tensor>:$output);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let hasVerifier = 1;
}

def TF_WhileRegionOp : TF_Op<"WhileRegion", [
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Repeats a body while a condition holds";
  let description = [{
    The loop values start as `input`. Each iteration runs `cond` on them
    (its tf.Yield gives a boolean scalar); when it is true, `body` computes
    the next values (its tf.Yield), otherwise the loop ends with the current
    values as results. Both regions take the loop values as block
    arguments. No maximum trip count is needed.

    ```mlir
    %r = "tf.WhileRegion"(%x) ({
    ^bb0(%i: tensor<i32>):
      %p = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "tf.Yield"(%p) : (tensor<i1>) -> ()
    }, {
    ^bb0(%i: tensor<i32>):
      %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "tf.Yield"(%j) : (tensor<i32>) -> ()
    }) {is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>) -> tensor<i32>
    ```
  }];
  let arguments = (ins Variadic<TF_Tensor>:$input,
                       DefaultValuedOptionalAttr<I64Attr, "10">:$parallel_iterations,
                       BoolAttr:$is_stateless,
                       UnitAttr:$shape_invariant);
  let results = (outs Variadic<TF_Tensor>:$output);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasVerifier = 1;
}

#endif // KILN_DIALECTS_TF_IR_TFCONTROLFLOWOPS_TD
