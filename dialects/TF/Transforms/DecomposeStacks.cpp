//===- DecomposeStacks.cpp - TF1 stacks to tensors --------------*- C++ -*-===//
//
// The stacks of tf-decompose-tensor-arrays. TF1 while-loop gradients push
// the forward loop's intermediate values on stacks (tf.StackV2, usually with
// max_size -1) and pop them in the backward loop. A stack has no flow value:
// its order is the program's. Each stack therefore becomes two values
// threaded through the function in block order, as TensorFlow's XLA bridge
// threads its state: the buffer (max_size elements stacked) and the count of
// elements pushed. A push writes element `count` and increments it, a pop
// decrements it and reads that element, and every tf.WhileRegion that
// pushes or pops a stack carries both values as extra loop values.
//
// The buffer needs a size. `max_size` gives it when it is not -1; otherwise
// each push is counted once per iteration of the loops around it, and a loop
// is bounded by its counter: a `cond` that requires `tf.Less(i, n)` (alone or
// in a tf.LogicalAnd) of a loop value `i` that starts at a constant and that
// the body increments by one, with `n` a constant. TF1 `while_loop` builds
// that counter for `maximum_iterations`, which `dynamic_rnn` always passes
// (the number of time steps).
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/TensorArrayDecomposition.h"

#include "dialects/TF/Transforms/ConstantBuilders.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

namespace kiln::tf::tensor_arrays {
namespace {

/// What is known of one stack.
struct StackInfo {
  /// The shape and type of one element (static).
  RankedTensorType element;
  /// The number of elements the buffer holds.
  int64_t maxSize = 0;
};

/// The values that hold one stack's state at a point of the program.
struct StackState {
  Value buffer;
  Value count;
};

using StateMap = llvm::MapVector<Operation *, StackState>;

/// The integer a constant scalar `value` holds.
std::optional<int64_t> getConstantInt(Value value) {
  DenseIntElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || attr.getNumElements() != 1)
    return std::nullopt;
  return (*attr.begin()).getSExtValue();
}

/// The number of iterations `loop` runs at most, when its condition
/// requires a counter below a constant.
std::optional<int64_t> getTripBound(tf::WhileRegionOp loop) {
  Block &cond = loop.getCond().front();
  Block &body = loop.getBody().front();
  Operation *condYield = cond.getTerminator();
  Operation *bodyYield = body.getTerminator();
  if (condYield->getNumOperands() != 1)
    return std::nullopt;
  SmallVector<Value> conjuncts{condYield->getOperand(0)};
  std::optional<int64_t> bound;
  while (!conjuncts.empty()) {
    Value value = conjuncts.pop_back_val();
    if (auto both = value.getDefiningOp<tf::LogicalAndOp>()) {
      conjuncts.push_back(both.getX());
      conjuncts.push_back(both.getY());
      continue;
    }
    auto less = value.getDefiningOp<tf::LessOp>();
    if (!less)
      continue;
    auto counter = dyn_cast<BlockArgument>(less.getX());
    std::optional<int64_t> limit = getConstantInt(less.getY());
    if (!counter || counter.getOwner() != &cond || !limit)
      continue;
    unsigned index = counter.getArgNumber();
    std::optional<int64_t> start = getConstantInt(loop.getInput()[index]);
    auto next = bodyYield->getOperand(index).getDefiningOp<tf::AddV2Op>();
    if (!start || !next)
      continue;
    Value step = next.getY();
    if (next.getX() != body.getArgument(index)) {
      if (next.getY() != body.getArgument(index))
        continue;
      step = next.getX();
    }
    if (getConstantInt(step) != 1)
      continue;
    int64_t trips = std::max<int64_t>(*limit - *start, 0);
    bound = bound ? std::min(*bound, trips) : trips;
  }
  return bound;
}

/// The stack a handle names: a tf.StackV2, possibly through tf.Identity ops.
tf::StackV2Op getStack(Value handle) {
  while (auto identity = handle.getDefiningOp<tf::IdentityOp>())
    handle = identity.getInput();
  return handle.getDefiningOp<tf::StackV2Op>();
}

/// The handle operand of a stack op, or null for other ops.
Value getStackHandle(Operation *op) {
  if (isa<tf::StackPushV2Op, tf::StackPopV2Op, tf::StackCloseV2Op>(op))
    return op->getOperand(0);
  return {};
}

class StackDecomposition {
public:
  /// Finds every stack of `func`, its element type and its size.
  LogicalResult analyse(func::FuncOp func);
  /// Rewrites the stack ops of `block` and of the regions nested in it, in
  /// order; `state` holds the stacks' current values.
  LogicalResult rewriteBlock(Block &block, StateMap &state);
  /// Erases the tf.StackV2 ops once nothing uses them.
  LogicalResult eraseCreators();

private:
  LogicalResult analyseStack(tf::StackV2Op stack);
  LogicalResult rewriteWhile(tf::WhileRegionOp op, StateMap &state);
  /// The stacks whose ops are nested in `op`'s regions.
  llvm::SetVector<Operation *> getStacksWithin(Operation *op);

  llvm::MapVector<Operation *, StackInfo> stacks;
};

LogicalResult StackDecomposition::analyse(func::FuncOp func) {
  WalkResult result = func.walk([&](tf::StackV2Op stack) {
    return failed(analyseStack(stack)) ? WalkResult::interrupt()
                                       : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult StackDecomposition::analyseStack(tf::StackV2Op stack) {
  StackInfo info;
  Type elementType = stack.getElemType();
  SmallVector<Value> handles{stack.getHandle()};
  SmallVector<tf::StackPushV2Op> pushes;
  while (!handles.empty()) {
    Value handle = handles.pop_back_val();
    for (Operation *user : handle.getUsers()) {
      if (auto identity = dyn_cast<tf::IdentityOp>(user)) {
        handles.push_back(identity.getOutput());
        continue;
      }
      if (auto push = dyn_cast<tf::StackPushV2Op>(user)) {
        pushes.push_back(push);
      } else if (!isa<tf::StackPopV2Op, tf::StackCloseV2Op>(user)) {
        InFlightDiagnostic diag =
            stack.emitOpError()
            << "cannot be decomposed: its handle reaches '" << user->getName()
            << "', which is not a stack push, pop or close";
        diag.attachNote(user->getLoc()) << "the handle is used here";
        return diag;
      }
    }
  }
  // The pushes give the element type; a pop's type may be older (a flow
  // pushed by a backward loop is a buffer now, its pop still a scalar).
  for (tf::StackPushV2Op push : pushes) {
    Type seen = push.getElem().getType();
    if (failed(mergeElement(info.element, seen)))
      return stack.emitOpError()
             << "cannot be decomposed: its elements are given the types "
             << info.element << " and " << seen;
  }
  if (!info.element)
    return stack.emitOpError()
           << "cannot be decomposed: nothing pushed on it gives the shape of "
              "its elements";
  if (!info.element.hasStaticShape())
    return stack.emitOpError()
           << "cannot be decomposed: the shape of its elements is not static "
              "(its pushes give "
           << info.element << ")";
  info.element = RankedTensorType::get(info.element.getShape(), elementType);

  std::optional<int64_t> maxSize = getConstantInt(stack.getMaxSize());
  if (maxSize && *maxSize >= 0) {
    info.maxSize = *maxSize;
  } else {
    // Each push runs once per iteration of every loop around it.
    for (tf::StackPushV2Op push : pushes) {
      int64_t count = 1;
      for (Operation *parent = push->getParentOp();
           parent && parent != stack->getParentOp();
           parent = parent->getParentOp()) {
        auto loop = dyn_cast<tf::WhileRegionOp>(parent);
        if (!loop)
          continue;
        std::optional<int64_t> trips = getTripBound(loop);
        if (!trips) {
          InFlightDiagnostic diag =
              stack.emitOpError()
              << "cannot be decomposed: max_size is not given and the loop "
                 "around one of its pushes has no bound (its cond requires "
                 "no loop counter below a constant)";
          diag.attachNote(loop.getLoc()) << "the unbounded loop";
          diag.attachNote(push.getLoc()) << "the push";
          return diag;
        }
        count *= *trips;
      }
      info.maxSize += count;
    }
  }
  stacks[stack] = info;
  return success();
}

llvm::SetVector<Operation *> StackDecomposition::getStacksWithin(Operation *op) {
  llvm::SetVector<Operation *> within;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *nested) {
      if (Value handle = getStackHandle(nested))
        if (tf::StackV2Op stack = getStack(handle))
          within.insert(stack);
    });
  return within;
}

LogicalResult StackDecomposition::rewriteWhile(tf::WhileRegionOp op,
                                               StateMap &state) {
  llvm::SetVector<Operation *> used = getStacksWithin(op);
  if (used.empty())
    return success();
  for (Operation &nested : op.getCond().front())
    if (getStackHandle(&nested))
      return nested.emitOpError()
             << "cannot be decomposed: a stack op in a loop condition";
  // The loop carries each used stack's buffer and count after its own
  // values.
  SmallVector<Value> inputs(op.getInput());
  SmallVector<Type> types(op->getResultTypes());
  for (Operation *stack : used) {
    auto it = state.find(stack);
    if (it == state.end())
      return op.emitOpError()
             << "cannot be decomposed: it uses a stack made where its state "
                "cannot reach (not in an enclosing block)";
    inputs.append({it->second.buffer, it->second.count});
    types.append({it->second.buffer.getType(), it->second.count.getType()});
  }
  OpBuilder builder(op);
  auto loop = tf::WhileRegionOp::create(builder, op.getLoc(), types, inputs,
                                        op->getAttrs());
  loop.getCond().takeBody(op.getCond());
  loop.getBody().takeBody(op.getBody());
  unsigned first = op.getNumResults();
  StateMap inner = state;
  for (auto [i, stack] : llvm::enumerate(used)) {
    Type bufferType = inputs[first + 2 * i].getType();
    Type countType = inputs[first + 2 * i + 1].getType();
    for (Block *block : {&loop.getCond().front(), &loop.getBody().front()}) {
      block->addArgument(bufferType, op.getLoc());
      block->addArgument(countType, op.getLoc());
    }
    Block &body = loop.getBody().front();
    inner[stack] = {body.getArgument(first + 2 * i),
                    body.getArgument(first + 2 * i + 1)};
  }
  if (failed(rewriteBlock(loop.getBody().front(), inner)))
    return failure();
  Operation *yield = loop.getBody().front().getTerminator();
  SmallVector<Value> yielded(yield->getOperands());
  for (Operation *stack : used)
    yielded.append({inner[stack].buffer, inner[stack].count});
  yield->setOperands(yielded);
  for (auto [i, stack] : llvm::enumerate(used))
    state[stack] = {loop.getResult(first + 2 * i),
                    loop.getResult(first + 2 * i + 1)};
  op.replaceAllUsesWith(loop.getResults().take_front(first));
  op.erase();
  return success();
}

LogicalResult StackDecomposition::rewriteBlock(Block &block, StateMap &state) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    Location loc = op.getLoc();
    if (auto stack = dyn_cast<tf::StackV2Op>(op)) {
      const StackInfo &info = stacks.lookup(stack);
      OpBuilder builder(stack);
      SmallVector<int64_t> shape{info.maxSize};
      llvm::append_range(shape, info.element.getShape());
      auto type = RankedTensorType::get(shape, info.element.getElementType());
      TypedAttr zero = getZero(info.element.getElementType());
      if (!zero)
        return stack.emitOpError()
               << "cannot be decomposed: no zero of element type "
               << info.element.getElementType();
      Value buffer = tf::ConstOp::create(builder, loc, type,
                                         DenseElementsAttr::get(type, zero));
      Value count = createScalar(builder, loc, builder.getI32Type(), 0);
      state[stack] = {buffer, count};
      continue;
    }
    Value handle = getStackHandle(&op);
    if (handle) {
      tf::StackV2Op stack = getStack(handle);
      auto it = stack ? state.find(stack) : state.end();
      if (it == state.end())
        return op.emitOpError()
               << "cannot be decomposed: its handle does not come from a "
                  "tf.StackV2 whose state reaches it";
      StackState &current = it->second;
      OpBuilder builder(&op);
      auto i32 = RankedTensorType::get({}, builder.getI32Type());
      Value one;
      if (!isa<tf::StackCloseV2Op>(op))
        one = createScalar(builder, loc, builder.getI32Type(), 1);
      if (auto push = dyn_cast<tf::StackPushV2Op>(op)) {
        // buffer[count] = elem; count += 1.
        auto bufferType = cast<RankedTensorType>(current.buffer.getType());
        Value iota =
            createIota(builder, loc, current.buffer, bufferType.getRank());
        auto iotaType = cast<RankedTensorType>(iota.getType());
        Value mask = tf::EqualOp::create(builder, loc,
                                         iotaType.clone(builder.getI1Type()),
                                         iota, current.count);
        current.buffer = tf::SelectV2Op::create(builder, loc, bufferType, mask,
                                                push.getElem(), current.buffer);
        current.count =
            tf::AddV2Op::create(builder, loc, i32, current.count, one);
        push.getOutput().replaceAllUsesWith(push.getElem());
      } else if (auto pop = dyn_cast<tf::StackPopV2Op>(op)) {
        // count -= 1; elem = buffer[count].
        current.count = tf::SubOp::create(builder, loc, i32, current.count, one);
        Value zero = createScalar(builder, loc, builder.getI32Type(), 0);
        Value elem = tf::GatherV2Op::create(builder, loc,
                                            stacks.lookup(stack).element,
                                            current.buffer, current.count, zero);
        replaceValue(pop.getElem(), elem);
      }
      op.erase();
      continue;
    }
    if (auto loop = dyn_cast<tf::WhileRegionOp>(op)) {
      if (failed(rewriteWhile(loop, state)))
        return failure();
      continue;
    }
    if (op.getNumRegions() != 0 && !getStacksWithin(&op).empty())
      return op.emitOpError()
             << "cannot be decomposed: it pushes or pops a stack inside its "
                "regions, and only tf.WhileRegion carries a stack's state";
  }
  return success();
}

LogicalResult StackDecomposition::eraseCreators() {
  for (auto &[op, info] : stacks) {
    // Identities of the handle are left without users.
    SmallVector<Operation *> identities;
    for (Operation *user : op->getUsers())
      if (isa<tf::IdentityOp>(user))
        identities.push_back(user);
    while (!identities.empty()) {
      Operation *identity = identities.pop_back_val();
      for (Operation *user : identity->getUsers())
        if (isa<tf::IdentityOp>(user))
          identities.push_back(user);
      if (identity->use_empty())
        identity->erase();
    }
    if (!op->use_empty()) {
      InFlightDiagnostic diag = (*op->getUsers().begin())->emitOpError()
                                << "uses a stack, which cannot be decomposed "
                                   "here";
      diag.attachNote(op->getLoc()) << "the stack is made here";
      return failure();
    }
    op->erase();
  }
  stacks.clear();
  return success();
}

} // namespace

LogicalResult decomposeStacks(func::FuncOp func) {
  StackDecomposition decomposition;
  StateMap state;
  if (failed(decomposition.analyse(func)) ||
      failed(decomposition.rewriteBlock(func.front(), state)))
    return failure();
  return decomposition.eraseCreators();
}

} // namespace kiln::tf::tensor_arrays
