//===- RefVariablesToResources.cpp - TF1 ref variables ----------*- C++ -*-===//
//
// tf-ref-variables-to-resources: TF1 reference variables (VariableV2 and the
// ops that take its reference) become resource variables (VarHandleOp,
// ReadVariableOp, AssignVariableOp and the Resource* updates), so they take
// the path of every other variable to module state.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

#include <array>

namespace kiln::tf {
#define GEN_PASS_DEF_TFREFVARIABLESTORESOURCESPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;

namespace {

/// The value type `refType` (a tensor of a reference element type) refers
/// to, or null.
TensorType getDereferencedType(Type refType) {
  auto tensor = dyn_cast<TensorType>(refType);
  if (!tensor)
    return {};
  Type element = tf_type::getRefElementType(tensor.getElementType());
  if (!element)
    return {};
  return tensor.clone(element);
}

/// The node name of `loc` (the importers' NameLoc), or "".
StringRef nodeName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().getValue();
  return "";
}

class Converter {
public:
  explicit Converter(MLIRContext *ctx) : builder(ctx) {}

  /// Rewrites every use of `ref` (the reference of the variable `handle`)
  /// and erases the ops that produced references. Fails with an error on
  /// an op that takes a reference it cannot rewrite.
  LogicalResult rewriteUses(Value ref, Value handle) {
    for (OpOperand &use : llvm::make_early_inc_range(ref.getUses())) {
      Operation *user = use.getOwner();
      builder.setInsertionPoint(user);
      Location loc = user->getLoc();
      unsigned index = use.getOperandNumber();
      // The ref ops whose operand 0 (ApplyAdam: 0 to 2) is a variable: each
      // becomes its resource counterpart, and its result (the reference of
      // the variable of operand 0) is rewritten like the variable's.
      auto generic = [&](StringRef name, ValueRange operands,
                         ArrayRef<NamedAttribute> attrs = {}) {
        OperationState state(loc, name);
        state.addOperands(operands);
        state.addAttributes(attrs);
        return builder.create(state);
      };
      Operation *replacement = nullptr;
      Value updated = handle;
      if (index == 0) {
        if (auto op = dyn_cast<tf::AssignOp>(user))
          replacement = generic("tf.AssignVariableOp", {handle, op.getValue()});
        else if (auto op = dyn_cast<tf::AssignAddOp>(user))
          replacement =
              generic("tf.AssignAddVariableOp", {handle, op.getValue()});
        else if (auto op = dyn_cast<tf::AssignSubOp>(user))
          replacement =
              generic("tf.AssignSubVariableOp", {handle, op.getValue()});
        else if (auto op = dyn_cast<tf::ApplyGradientDescentOp>(user))
          replacement = generic("tf.ResourceApplyGradientDescent",
                                {handle, op.getAlpha(), op.getDelta()});
      }
      if (auto op = dyn_cast<tf::ApplyAdamOp>(user); op && index < 3) {
        // Var, m and v are three variables: the op is rewritten once all
        // three are resources.
        std::array<Value, 3> &handles = pendingAdam[op];
        handles[index] = handle;
        if (!llvm::all_of(handles, [](Value v) { return bool(v); }))
          continue;
        replacement = generic(
            "tf.ResourceApplyAdam",
            {handles[0], handles[1], handles[2], op.getBeta1Power(),
             op.getBeta2Power(), op.getLr(), op.getBeta1(), op.getBeta2(),
             op.getEpsilon(), op.getGrad()},
            {builder.getNamedAttr("use_nesterov",
                                  builder.getBoolAttr(op.getUseNesterov()))});
        updated = handles[0];
      }
      if (replacement) {
        toErase.push_back(user);
        if (failed(rewriteUses(user->getResult(0), updated)))
          return failure();
        continue;
      }
      // Any other op reads the variable where it runs.
      TensorType type = getDereferencedType(ref.getType());
      if (!type)
        return user->emitOpError("reads a reference of unknown type");
      Value value =
          tf::ReadVariableOp::create(builder, user->getLoc(), type, handle);
      use.set(value);
    }
    return success();
  }

  /// Ops to erase once every use is rewritten (users before producers).
  SmallVector<Operation *> toErase;

private:
  OpBuilder builder;
  llvm::DenseMap<Operation *, std::array<Value, 3>> pendingAdam;
};

struct TFRefVariablesToResourcesPass final
    : kiln::tf::impl::TFRefVariablesToResourcesPassBase<
          TFRefVariablesToResourcesPass> {
  using Base::Base;

  void runOnOperation() override {
    Converter converter(&getContext());
    SmallVector<tf::VariableV2Op> variables;
    getOperation()->walk([&](tf::VariableV2Op op) { variables.push_back(op); });
    for (tf::VariableV2Op variable : variables) {
      TensorType type = getDereferencedType(variable.getRef().getType());
      if (!type) {
        variable.emitOpError("has result type ")
            << variable.getRef().getType()
            << ", not a tensor of a reference type";
        return signalPassFailure();
      }
      OpBuilder builder(variable);
      // One variable per node: the shared name is the node name unless the
      // graph gave one.
      StringRef shared = variable.getSharedName();
      if (shared.empty())
        shared = nodeName(variable.getLoc());
      auto handleType = RankedTensorType::get(
          {}, tf_type::ResourceType::get(&getContext(), {type}));
      OperationState state(variable.getLoc(), "tf.VarHandleOp");
      state.addTypes(handleType);
      state.addAttribute("container", variable.getContainerAttr());
      state.addAttribute("shared_name", builder.getStringAttr(shared));
      Value handle = builder.create(state)->getResult(0);
      if (failed(converter.rewriteUses(variable.getRef(), handle)))
        return signalPassFailure();
      converter.toErase.push_back(variable);
    }
    // The replaced ops only use each other now.
    for (Operation *op : converter.toErase)
      op->dropAllReferences();
    for (Operation *op : converter.toErase)
      if (!op->use_empty()) {
        op->emitOpError("has uses left after its variable became a resource");
        return signalPassFailure();
      }
    for (Operation *op : converter.toErase)
      op->erase();
  }
};

} // namespace
