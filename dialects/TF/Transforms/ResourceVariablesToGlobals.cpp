//===- ResourceVariablesToGlobals.cpp - tf variables to globals -*- C++ -*-===//
//
// tf-resource-variables-to-globals: tf.VarHandleOp variables become
// ml_program globals, their reads and assignments global loads and stores.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "dialects/TFType/IR/TFTypeDialect.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"

namespace kiln::tf {
#define GEN_PASS_DEF_TFRESOURCEVARIABLESTOGLOBALSPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;

namespace {

//===----------------------------------------------------------------------===//
// Analysis
//===----------------------------------------------------------------------===//

/// One resource variable: the handles that name it and its reads and
/// assignments, in program order.
struct Variable {
  std::string name;
  SmallVector<tf::VarHandleOp> handles;
  SmallVector<Operation *> accesses;
  /// The type of the value held, once known.
  TensorType type;
  /// The constant assignment that comes before every other access, if any.
  tf::AssignVariableOp init;
  ElementsAttr initValue;
  /// With several entry functions (kiln-compile --entries), each imported
  /// with the SavedModel's restore: the restores besides `init`, each of
  /// `initValue` and first in its function. Dropped as `init` is.
  SmallVector<Operation *> restores;

  /// Whether `access` sets the initial value (`init` or a restore).
  bool isInitial(Operation *access) {
    return access == init.getOperation() ||
           llvm::is_contained(restores, access);
  }
};

/// The constant value `assign` stores (of the variable's `type`), or null.
ElementsAttr constantValue(tf::AssignVariableOp assign, TensorType type) {
  auto constant = assign.getValue().getDefiningOp<tf::ConstOp>();
  if (!constant || constant.getValue().getType() != type)
    return {};
  return constant.getValue();
}

/// Sets `variable`'s initial value from its SavedModel restores when there
/// are several (one per entry function, kiln-compile --entries): each
/// `_kiln_restore` assignment stores the same constant and dominates every
/// other access of the variable in its function. Returns whether it did.
bool findRestores(Variable &variable, DominanceInfo &dominance) {
  SmallVector<tf::AssignVariableOp> restores;
  for (Operation *access : variable.accesses)
    if (auto assign = dyn_cast<tf::AssignVariableOp>(access))
      if (assign->hasAttr("_kiln_restore"))
        restores.push_back(assign);
  if (restores.size() < 2)
    return false;
  ElementsAttr value = constantValue(restores.front(), variable.type);
  for (tf::AssignVariableOp restore : restores) {
    if (!value || constantValue(restore, variable.type) != value)
      return false;
    auto function = restore->getParentOfType<FunctionOpInterface>();
    for (Operation *access : variable.accesses)
      if (access != restore && function->isAncestor(access) &&
          !dominance.properlyDominates(restore.getOperation(), access))
        return false;
  }
  variable.init = restores.front();
  variable.initValue = value;
  for (tf::AssignVariableOp restore : llvm::drop_begin(restores))
    variable.restores.push_back(restore);
  return true;
}

/// The value type a resource handle type declares, or null.
TensorType getResourceSubtype(Type handleType) {
  auto tensor = dyn_cast<TensorType>(handleType);
  if (!tensor)
    return {};
  auto resource = dyn_cast<tf_type::ResourceType>(tensor.getElementType());
  if (!resource || resource.getSubtypes().size() != 1)
    return {};
  return resource.getSubtypes().front();
}

/// True if values of types `a` and `b` may be the same tensor.
bool areCompatible(TensorType a, TensorType b) {
  return a.getElementType() == b.getElementType() &&
         succeeded(verifyCompatibleShape(a, b));
}

/// The type that knows every dimension either of the compatible `a` and `b`
/// knows.
TensorType meet(TensorType a, TensorType b) {
  if (!a.hasRank())
    return b;
  if (!b.hasRank())
    return a;
  SmallVector<int64_t> dims;
  for (auto [x, y] : llvm::zip(a.getShape(), b.getShape()))
    dims.push_back(ShapedType::isDynamic(x) ? y : x);
  return RankedTensorType::get(dims, a.getElementType());
}

/// The type of the value `access` reads or assigns.
Type getAccessType(Operation *access) {
  if (auto read = dyn_cast<tf::ReadVariableOp>(access))
    return read.getValue().getType();
  return cast<tf::AssignVariableOp>(access).getValue().getType();
}

/// `name` with every character outside [A-Za-z0-9_] replaced by `_`, and a
/// `_` in front of a leading digit; "variable" when empty.
std::string sanitize(StringRef name) {
  if (name.empty())
    return "variable";
  std::string result;
  if (llvm::isDigit(name.front()))
    result.push_back('_');
  for (char c : name)
    result.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  return result;
}

/// Decides whether `op` always runs after `init`: `init` properly dominates
/// it, or `op` is in a private function other than `init`'s whose every
/// reference (a call, a control-flow op naming it) always runs after `init`.
/// Recursion answers no.
class AfterInit {
public:
  AfterInit(ModuleOp module, DominanceInfo &dominance, Operation *init)
      : module(module), dominance(dominance), init(init) {}

  bool operator()(Operation *op) {
    if (dominance.properlyDominates(init, op))
      return true;
    auto function = op->getParentOfType<FunctionOpInterface>();
    if (!function || function->isAncestor(init) || !function.isPrivate())
      return false;
    auto [it, inserted] = known.try_emplace(function, false);
    if (!inserted)
      return it->second;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(function, module);
    if (!uses)
      return false;
    bool after = true;
    for (const SymbolTable::SymbolUse &use : *uses)
      after = after && (*this)(use.getUser());
    known[function] = after;
    return after;
  }

private:
  ModuleOp module;
  DominanceInfo &dominance;
  Operation *init;
  /// Functions decided so far (false while being decided).
  DenseMap<Operation *, bool> known;
};

/// Forwards the variable handles each tf.WhileRegion carries unchanged:
/// TensorFlow 2's while_v2 passes the variables its body reads as loop
/// values (Keras' RNN layers do), but a handle the body yields as it got it
/// is the loop's input throughout, so its uses in the loop and of the
/// loop's result become uses of the input, and the loop value is dropped.
/// Then every access names its tf.VarHandleOp directly. Inner loops first,
/// so that their forwarded handles reach the outer loop's.
void forwardLoopInvariantHandles(ModuleOp module) {
  SmallVector<tf::WhileRegionOp> loops;
  module.walk([&](tf::WhileRegionOp loop) { loops.push_back(loop); });
  for (tf::WhileRegionOp loop : loops) {
    Block &cond = loop.getCond().front(), &body = loop.getBody().front();
    Operation *yield = body.getTerminator();
    llvm::BitVector drop(loop.getNumOperands());
    for (auto [i, input] : llvm::enumerate(loop.getInput())) {
      if (!isa<tf_type::ResourceType>(getElementTypeOrSelf(input.getType())) ||
          yield->getOperand(i) != body.getArgument(i))
        continue;
      body.getArgument(i).replaceAllUsesWith(input);
      cond.getArgument(i).replaceAllUsesWith(input);
      loop.getResult(i).replaceAllUsesWith(input);
      drop.set(i);
    }
    if (drop.none())
      continue;
    SmallVector<Value> inputs;
    SmallVector<Type> types;
    for (auto [i, input] : llvm::enumerate(loop.getInput()))
      if (!drop.test(i)) {
        inputs.push_back(input);
        types.push_back(loop.getResult(i).getType());
      }
    OpBuilder builder(loop);
    OperationState state(loop.getLoc(), loop->getName());
    state.addOperands(inputs);
    state.addTypes(types);
    state.addAttributes(loop->getAttrs());
    state.addRegion();
    state.addRegion();
    auto kept = cast<tf::WhileRegionOp>(builder.create(state));
    kept.getCond().takeBody(loop.getCond());
    kept.getBody().takeBody(loop.getBody());
    yield->eraseOperands(drop);
    cond.eraseArguments(drop);
    body.eraseArguments(drop);
    unsigned next = 0;
    for (auto [i, result] : llvm::enumerate(loop.getResults()))
      if (!drop.test(i))
        result.replaceAllUsesWith(kept.getResult(next++));
    loop.erase();
  }
}

/// Inserts a tf.Identity to `type` if `value` has another type.
Value castTo(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tf::IdentityOp::create(builder, loc, type, value);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TFResourceVariablesToGlobalsPass final
    : kiln::tf::impl::TFResourceVariablesToGlobalsPassBase<
          TFResourceVariablesToGlobalsPass> {
  using Base::Base;
  void runOnOperation() override;

private:
  /// Groups the handles into variables and collects their accesses.
  LogicalResult collect(ModuleOp module, std::vector<Variable> &variables);
  /// Sets the type of `variable`, or reports a conflict.
  LogicalResult computeType(Variable &variable);
  /// Rewrites the accesses of `variable` and erases its handles.
  void rewrite(ModuleOp module, SymbolTable &symbols, DominanceInfo &dominance,
               Block::iterator &globalPt, Variable &variable);
};

LogicalResult
TFResourceVariablesToGlobalsPass::collect(ModuleOp module,
                                          std::vector<Variable> &variables) {
  bool ok = true;
  module.walk([&](tf::VariableV2Op op) {
    op.emitOpError() << "is a TF1 reference variable ('" << op.getSharedName()
                     << "'), which is not converted; use resource variables";
    ok = false;
  });

  llvm::MapVector<std::pair<StringRef, StringRef>, unsigned> byName;
  DenseMap<Value, unsigned> variableOf;
  module.walk([&](tf::VarHandleOp op) {
    unsigned index = variables.size();
    if (!op.getSharedName().empty()) {
      auto [it, inserted] = byName.try_emplace(
          std::make_pair(op.getContainer(), op.getSharedName()), index);
      index = it->second;
    }
    if (index == variables.size()) {
      variables.emplace_back();
      variables.back().name = op.getSharedName().str();
    }
    variables[index].handles.push_back(op);
    variableOf[op.getResource()] = index;
  });

  module.walk([&](Operation *op) {
    Value resource;
    if (auto read = dyn_cast<tf::ReadVariableOp>(op))
      resource = read.getResource();
    else if (auto assign = dyn_cast<tf::AssignVariableOp>(op))
      resource = assign.getResource();
    else
      return;
    auto it = variableOf.find(resource);
    if (it == variableOf.end()) {
      op->emitOpError() << "accesses a resource whose variable cannot be "
                           "determined: its handle does not come straight "
                           "from a tf.VarHandleOp";
      ok = false;
      return;
    }
    variables[it->second].accesses.push_back(op);
  });

  for (Variable &variable : variables)
    for (tf::VarHandleOp handle : variable.handles)
      for (OpOperand &use : handle.getResource().getUses()) {
        Operation *user = use.getOwner();
        if (isa<tf::ReadVariableOp>(user) ||
            (isa<tf::AssignVariableOp>(user) && use.getOperandNumber() == 0))
          continue;
        user->emitOpError() << "uses the handle of variable '" << variable.name
                            << "' as operand #" << use.getOperandNumber()
                            << "; only tf.ReadVariableOp and "
                               "tf.AssignVariableOp can be converted";
        ok = false;
      }
  return success(ok);
}

LogicalResult
TFResourceVariablesToGlobalsPass::computeType(Variable &variable) {
  TensorType declared;
  for (tf::VarHandleOp handle : variable.handles) {
    TensorType subtype = getResourceSubtype(handle.getResource().getType());
    if (!subtype)
      continue;
    if (declared && declared != subtype)
      return handle.emitOpError()
             << "declares variable '" << variable.name << "' as " << subtype
             << " but another handle declares it as " << declared;
    declared = subtype;
  }

  TensorType type = declared;
  for (Operation *access : variable.accesses) {
    auto accessType = dyn_cast<TensorType>(getAccessType(access));
    if (!accessType)
      return access->emitOpError() << "accesses variable '" << variable.name
                                   << "' with a non-tensor value";
    if (type && !areCompatible(type, accessType))
      return access->emitOpError()
             << (isa<tf::ReadVariableOp>(access) ? "reads " : "assigns ")
             << accessType
             << (isa<tf::ReadVariableOp>(access) ? " from" : " to")
             << " variable '" << variable.name << "' of type " << type;
    if (!declared)
      type = type ? meet(type, accessType) : accessType;
  }
  variable.type = type;
  return success();
}

void TFResourceVariablesToGlobalsPass::rewrite(ModuleOp module,
                                               SymbolTable &symbols,
                                               DominanceInfo &dominance,
                                               Block::iterator &globalPt,
                                               Variable &variable) {
  MLIRContext *context = module.getContext();
  bool assigned = llvm::any_of(variable.accesses, [&](Operation *access) {
    return isa<tf::AssignVariableOp>(access) && !variable.isInitial(access);
  });
  bool frozen = variable.init && !assigned;
  OpBuilder builder(context);

  if (frozen && freezeReadOnly) {
    Value initConstant = variable.init.getValue();
    for (Operation *access : variable.accesses) {
      if (variable.isInitial(access))
        continue;
      auto read = cast<tf::ReadVariableOp>(access);
      builder.setInsertionPoint(read);
      // The initializer's constant where it is visible, a copy elsewhere.
      Value constant = initConstant;
      if (!dominance.properlyDominates(initConstant, read))
        constant = tf::ConstOp::create(builder, read.getLoc(),
                                       variable.initValue.getType(),
                                       variable.initValue);
      read.replaceAllUsesWith(
          castTo(builder, read.getLoc(), constant, read.getType()));
      read.erase();
    }
    variable.init.erase();
    if (initConstant.use_empty())
      initConstant.getDefiningOp()->erase();
    for (Operation *restore : variable.restores) {
      Value value = cast<tf::AssignVariableOp>(restore).getValue();
      restore->erase();
      if (value.use_empty())
        value.getDefiningOp()->erase();
    }
    ++numFrozen;
  } else if (!variable.accesses.empty()) {
    Location loc = variable.handles.front().getLoc();
    auto global = ml_program::GlobalOp::create(
        builder, loc, builder.getStringAttr(sanitize(variable.name)),
        TypeAttr::get(variable.type),
        frozen ? UnitAttr() : builder.getUnitAttr(),
        variable.init ? Attribute(variable.initValue) : Attribute(),
        builder.getStringAttr("private"));
    symbols.insert(global, globalPt);
    globalPt = std::next(Block::iterator(global));
    auto symbol = FlatSymbolRefAttr::get(global.getSymNameAttr());
    ++numGlobals;

    for (Operation *access : variable.accesses) {
      builder.setInsertionPoint(access);
      Location accessLoc = access->getLoc();
      if (auto read = dyn_cast<tf::ReadVariableOp>(access)) {
        Value loaded = frozen ? ml_program::GlobalLoadConstOp::create(
                                    builder, accessLoc, variable.type, symbol)
                                    .getResult()
                              : ml_program::GlobalLoadOp::create(
                                    builder, accessLoc, variable.type, symbol)
                                    .getResult();
        read.replaceAllUsesWith(
            castTo(builder, accessLoc, loaded, read.getType()));
        read.erase();
        continue;
      }
      auto assign = cast<tf::AssignVariableOp>(access);
      // A SavedModel's restore from its checkpoint (marked by the importer)
      // is the initial value, not a store that runs on every call.
      if (!assigned ||
          (variable.isInitial(access) && assign->hasAttr("_kiln_restore"))) {
        // The constant initializer of a read-only variable: the global's
        // initial value holds it.
        assign.erase();
        continue;
      }
      ml_program::GlobalStoreOp::create(
          builder, accessLoc, symbol,
          castTo(builder, accessLoc, assign.getValue(), variable.type));
      assign.erase();
    }
  }

  for (tf::VarHandleOp handle : variable.handles)
    if (handle.getResource().use_empty())
      handle.erase();
}

void TFResourceVariablesToGlobalsPass::runOnOperation() {
  ModuleOp module = getOperation();
  forwardLoopInvariantHandles(module);
  std::vector<Variable> variables;
  bool ok = succeeded(collect(module, variables));
  for (Variable &variable : variables)
    ok = succeeded(computeType(variable)) && ok;
  if (!ok)
    return signalPassFailure();

  // The constant assignment that comes before every other access.
  DominanceInfo dominance(module);
  for (Variable &variable : variables) {
    if (findRestores(variable, dominance))
      continue;
    for (Operation *access : variable.accesses) {
      auto assign = dyn_cast<tf::AssignVariableOp>(access);
      if (!assign)
        continue;
      auto constant = assign.getValue().getDefiningOp<tf::ConstOp>();
      if (!constant || constant.getValue().getType() != variable.type)
        continue;
      AfterInit after(module, dominance, assign);
      if (llvm::all_of(variable.accesses, [&](Operation *other) {
            return other == assign || after(other);
          })) {
        variable.init = assign;
        variable.initValue = constant.getValue();
        break;
      }
    }
  }

  SymbolTable symbols(module);
  Block::iterator globalPt = module.getBody()->begin();
  for (Variable &variable : variables)
    rewrite(module, symbols, dominance, globalPt, variable);
}

} // namespace
