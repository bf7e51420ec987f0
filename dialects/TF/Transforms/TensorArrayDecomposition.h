//===- TensorArrayDecomposition.h - TF1 tensor arrays to tensors -*- C++ -*-===//
//
// The state of tf-decompose-tensor-arrays for one function: what is known of
// each tensor array and which values carry a buffer in place of a flow. The
// per-op rewrites are in TensorArrayOps.cpp, the helpers they share in
// TensorArrayAnalysis.cpp, the walk over blocks and regions in
// DecomposeTensorArrays.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TF_TRANSFORMS_TENSORARRAYDECOMPOSITION_H
#define KILN_DIALECTS_TF_TRANSFORMS_TENSORARRAYDECOMPOSITION_H

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace kiln::tf::tensor_arrays {

using namespace mlir;

/// True if `a` and `b` compute the same value: the same SSA value, or
/// results of side-effect-free ops of the same kind and attributes on
/// operands that compute the same values (up to `depth` ops back). Graphs
/// compute an array's size and the range that covers it from separate
/// Shape ops of the same tensor.
bool computeSameValue(Value a, Value b, unsigned depth = 6);

/// True if `indices` is tf.Range(0, n, 1) with `n` the first dimension of
/// `value` (a constant, or tf.StridedSlice(tf.Shape(value))[0]): the
/// indices TensorArray.unstack(value) scatters.
bool isUnstackOf(Value indices, Value value);

/// Replaces `old` by `replacement`. Ops of the tf dialect take the new type
/// (shape inference refines what follows); other users (a function's
/// return) keep the old type through a tf.Identity.
void replaceValue(Value old, Value replacement);

/// Merges what `type` says of an element's shape into `known`; fails on a
/// rank or dimension that contradicts it.
LogicalResult mergeElement(RankedTensorType &known, Type type);

/// `type` without its first dimension, if it is ranked with one.
Type dropFirst(Type type);

/// The [N, 1, ..., 1] iota of `rank` dims counting the elements of
/// `buffer` (type i32), N its first dimension.
Value createIota(OpBuilder &builder, Location loc, Value buffer, int64_t rank);

/// Rewrites the TF1 stacks of `func` (tf.StackV2 and its push, pop and close
/// ops) into a buffer and a count threaded through the function and its
/// loops (DecomposeStacks.cpp). Fails, naming the node, on a stack whose
/// size cannot be bounded or whose handle escapes.
LogicalResult decomposeStacks(func::FuncOp func);

/// What is known of one tensor array.
struct ArrayInfo {
  /// The shape of one element, possibly with dynamic dimensions; null while
  /// unknown.
  RankedTensorType element;
  /// The number of elements, the tf.TensorArrayV3 operand.
  Value size;
  /// The number of elements when `size` is a constant.
  std::optional<int64_t> staticSize;
  /// The tf.TensorArrayV3 that made the array (for a gradient array, the
  /// forward array's).
  tf::TensorArrayV3Op creator;
  /// A gradient array (tf.TensorArrayGradV3): writes and scatters add to
  /// the elements, which start as zeros.
  bool accumulates = false;
  /// For a gradient array: the zeros its first TensorArrayGradV3 made.
  Value zeros;
};

/// Rewrites the tensor arrays of one function.
class ArrayDecomposition {
public:
  /// Decomposes the tensor-array ops in `block` and the regions nested in
  /// it, in order.
  LogicalResult decomposeBlock(Block &block);
  /// Erases the tf.TensorArrayV3 ops once nothing uses them.
  LogicalResult eraseCreators();

private:
  LogicalResult decomposeCreate(tf::TensorArrayV3Op op);
  LogicalResult decomposeWrite(tf::TensorArrayWriteV3Op op);
  LogicalResult decomposeRead(tf::TensorArrayReadV3Op op);
  LogicalResult decomposeGather(tf::TensorArrayGatherV3Op op);
  LogicalResult decomposeScatter(tf::TensorArrayScatterV3Op op);
  LogicalResult decomposeSize(tf::TensorArraySizeV3Op op);
  LogicalResult decomposeConcat(tf::TensorArrayConcatV3Op op);
  LogicalResult decomposeSplit(tf::TensorArraySplitV3Op op);
  LogicalResult decomposeGrad(tf::TensorArrayGradV3Op op);
  LogicalResult decomposeWhile(tf::WhileRegionOp op);
  LogicalResult decomposeRegionResults(Operation *op);

  /// The array `handle` names, or an error on `user`.
  FailureOr<ArrayInfo *> getArray(Operation *user, Value handle);
  /// The type of the buffer the flow `flow` now is, or an error on `user`.
  FailureOr<TensorType> getAnyBuffer(Operation *user, Value flow);
  /// As getAnyBuffer, and an error if the buffer is not ranked.
  FailureOr<RankedTensorType> getBuffer(Operation *user, Value flow);
  /// True if `indices` is 0, 1, ..., N-1 for array `array`.
  bool coversAll(const ArrayInfo &array, Value indices);

  DenseMap<Value, ArrayInfo> arrays;
  /// The gradient arrays made so far, by forward array and source.
  DenseMap<std::pair<Operation *, StringRef>, Value> gradients;
  /// The values that carry a gradient array's buffer. TensorFlow orders a
  /// gradient array's first scatter or write through the forward array's
  /// flow (TensorArray.grad returns an identity of it), so an accumulating
  /// op whose flow carries no gradient buffer starts from the zeros.
  DenseSet<Value> gradientFlows;
  /// The buffer an accumulating write or scatter adds to.
  Value getGradientBase(const ArrayInfo &array, Value flow) {
    return gradientFlows.contains(flow) ? flow : array.zeros;
  }
  /// The values that now carry a buffer in place of a flow.
  DenseSet<Value> flows;
};

} // namespace kiln::tf::tensor_arrays

#endif // KILN_DIALECTS_TF_TRANSFORMS_TENSORARRAYDECOMPOSITION_H
