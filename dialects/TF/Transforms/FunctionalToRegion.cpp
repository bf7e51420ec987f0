//===- FunctionalToRegion.cpp - tf.If/While/Case to regions -----*- C++ -*-===//
//
// tf-functional-to-region-control-flow: tf.If/While/Case calling functions
// become tf.IfRegion/WhileRegion/CaseRegion holding the functions' bodies.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/Transforms/Passes.h"

#include "dialects/TFExecutor/IR/TFExecutor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace kiln::tf {
#define GEN_PASS_DEF_TFFUNCTIONALTOREGIONCONTROLFLOWPASS
#include "dialects/TF/Transforms/Passes.h.inc"
} // namespace kiln::tf

using namespace mlir;
using namespace kiln;

namespace {

/// Nesting depth past which copying bodies is taken as recursion.
constexpr unsigned kMaxDepth = 64;

class Converter {
public:
  explicit Converter(ModuleOp module) : symbols(module) {}

  /// The callee named by `attrName` of `op`, checked to be functional.
  FailureOr<func::FuncOp> callee(Operation *op, Attribute ref) {
    auto symbol = dyn_cast_or_null<FlatSymbolRefAttr>(ref);
    auto func = symbol ? symbols.lookup<func::FuncOp>(symbol.getValue())
                       : func::FuncOp();
    if (!func)
      return op->emitOpError("calls ")
             << ref << ", which is not a function of the module";
    if (func == op->getParentOfType<func::FuncOp>())
      return op->emitOpError("calls @")
             << func.getName() << " recursively; recursion has no region form";
    if (func.isExternal() || !llvm::hasSingleElement(func.getBody()))
      return op->emitOpError("calls @")
             << func.getName() << ", which is not a single-block function";
    bool hasGraph = false;
    func.walk([&](tf_executor::GraphOp) { hasGraph = true; });
    if (hasGraph)
      return op->emitOpError("calls @")
             << func.getName()
             << ", which still holds a tf_executor.graph; run "
                "tf-executor-to-functional first";
    return func;
  }

  /// Copies `func`'s body into the single block of `region` (created here),
  /// with `arguments` for its arguments (or the region's own block
  /// arguments when `asBlockArguments`), ending in tf.Yield.
  void inlineBody(func::FuncOp func, Region &region, ValueRange arguments,
                  bool asBlockArguments, Location loc) {
    Block *block = new Block();
    region.push_back(block);
    IRMapping mapping;
    for (auto [index, arg] : llvm::enumerate(func.getArguments())) {
      Value replacement =
          asBlockArguments ? block->addArgument(arguments[index].getType(), loc)
                           : arguments[index];
      mapping.map(arg, replacement);
    }
    OpBuilder b = OpBuilder::atBlockEnd(block);
    for (Operation &op : func.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        SmallVector<Value> values;
        for (Value v : ret.getOperands())
          values.push_back(mapping.lookupOrDefault(v));
        tf::YieldOp::create(b, ret.getLoc(), values);
        continue;
      }
      b.clone(op, mapping);
    }
  }

  LogicalResult convertIf(Operation *op, bool stateless) {
    auto thenFunc = callee(op, op->getAttr("then_branch"));
    auto elseFunc = callee(op, op->getAttr("else_branch"));
    if (failed(thenFunc) || failed(elseFunc))
      return failure();
    OpBuilder b(op);
    ValueRange inputs = op->getOperands().drop_front();
    auto region = tf::IfRegionOp::create(b, op->getLoc(), op->getResultTypes(),
                                         op->getOperand(0), stateless);
    inlineBody(*thenFunc, region.getThenBranch(), inputs, false, op->getLoc());
    inlineBody(*elseFunc, region.getElseBranch(), inputs, false, op->getLoc());
    return finish(op, region);
  }

  LogicalResult convertCase(Operation *op, bool stateless) {
    auto branches = dyn_cast_or_null<ArrayAttr>(op->getAttr("branches"));
    if (!branches || branches.empty())
      return op->emitOpError("has no branches");
    SmallVector<func::FuncOp> funcs;
    for (Attribute ref : branches) {
      auto func = callee(op, ref);
      if (failed(func))
        return failure();
      funcs.push_back(*func);
    }
    OpBuilder b(op);
    ValueRange inputs = op->getOperands().drop_front();
    auto region =
        tf::CaseRegionOp::create(b, op->getLoc(), op->getResultTypes(),
                                 op->getOperand(0), stateless, funcs.size());
    for (auto [func, branch] : llvm::zip(funcs, region.getBranches()))
      inlineBody(func, branch, inputs, false, op->getLoc());
    return finish(op, region);
  }

  LogicalResult convertWhile(Operation *op, bool stateless) {
    auto condFunc = callee(op, op->getAttr("cond"));
    auto bodyFunc = callee(op, op->getAttr("body"));
    if (failed(condFunc) || failed(bodyFunc))
      return failure();
    if (condFunc->getNumResults() != 1)
      return op->emitOpError("cond @")
             << condFunc->getName() << " returns " << condFunc->getNumResults()
             << " values, expected one boolean";
    OpBuilder b(op);
    auto iterations = op->getAttrOfType<IntegerAttr>("parallel_iterations");
    auto region = tf::WhileRegionOp::create(
        b, op->getLoc(), op->getResultTypes(), op->getOperands(),
        iterations ? iterations.getInt() : 10, stateless,
        op->hasAttr("shape_invariant"));
    inlineBody(*condFunc, region.getCond(), op->getOperands(), true,
               op->getLoc());
    inlineBody(*bodyFunc, region.getBody(), op->getOperands(), true,
               op->getLoc());
    return finish(op, region);
  }

  /// Replaces `op` by `region`, keeping discardable attributes (device, ...).
  LogicalResult finish(Operation *op, Operation *region) {
    for (NamedAttribute attr : op->getDiscardableAttrs())
      region->setAttr(attr.getName(), attr.getValue());
    op->replaceAllUsesWith(region);
    op->erase();
    return success();
  }

  /// Converts every functional control-flow op under `root`, including those
  /// the copied bodies bring in.
  LogicalResult run(Operation *root) {
    for (unsigned depth = 0; depth < kMaxDepth; ++depth) {
      SmallVector<Operation *> work;
      root->walk([&](Operation *op) {
        StringRef name = op->getName().getStringRef();
        if (llvm::is_contained({"tf.If", "tf.StatelessIf", "tf.While",
                                "tf.StatelessWhile", "tf.Case",
                                "tf.StatelessCase"},
                               name))
          work.push_back(op);
      });
      if (work.empty())
        return success();
      for (Operation *op : work) {
        StringRef name = op->getName().getStringRef();
        auto flag = op->getAttrOfType<BoolAttr>("is_stateless");
        bool stateless =
            name.contains("Stateless") || (flag && flag.getValue());
        LogicalResult result = name.ends_with("If") ? convertIf(op, stateless)
                               : name.ends_with("While")
                                   ? convertWhile(op, stateless)
                                   : convertCase(op, stateless);
        if (failed(result))
          return failure();
      }
    }
    return root->emitError("control flow nested more than ")
           << kMaxDepth << " levels deep; are the functions recursive?";
  }

private:
  SymbolTable symbols;
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct TFFunctionalToRegionControlFlowPass final
    : kiln::tf::impl::TFFunctionalToRegionControlFlowPassBase<
          TFFunctionalToRegionControlFlowPass> {
  using Base::Base;

  void runOnOperation() override {
    Converter converter(getOperation());
    if (failed(converter.run(getOperation())))
      signalPassFailure();
  }
};

} // namespace
