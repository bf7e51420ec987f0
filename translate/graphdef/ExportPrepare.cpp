//===- ExportPrepare.cpp - functional tf into the exporter's form -*- C++ -*-===//
//
// What kiln-tf-graph-pipeline gives (functional tf: plain function bodies,
// control flow as tf.IfRegion / CaseRegion / WhileRegion) has no GraphDef
// form as it is. Before export, a copy of the module is brought back to the
// form the importer writes: each region op becomes tf.If / Case / While
// calling new private functions that hold its regions (values the regions
// use from above become extra arguments; a loop carries them through), and
// each function whose body is plain tf operations becomes a tf_executor.graph
// with one island per operation, side-effecting operations ordered by
// control edges.
//
//===----------------------------------------------------------------------===//

#include "translate/graphdef/Exporter.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::graphdef::detail;

namespace {

//===----------------------------------------------------------------------===//
// Region control flow to functional control flow
//===----------------------------------------------------------------------===//

class Outliner {
public:
  explicit Outliner(ModuleOp module) : module(module), symbols(module) {}

  LogicalResult run();

private:
  /// A function name from the op's node name (or its kind) and `suffix`,
  /// made of characters every TensorFlow function name may hold.
  std::string baseName(Operation *op, StringRef kind, StringRef suffix);

  /// Moves `region` (one block ending in tf.Yield) into a new private
  /// function: its block arguments, then `captures`, as arguments; the
  /// yielded values, then (with `returnCaptures`, for a loop body) the
  /// captures passed through, as results.
  func::FuncOp outline(Region &region, ArrayRef<Value> captures,
                       bool returnCaptures, StringRef name, Location loc);

  /// Creates the functional op `opName` in place of `op` and erases it.
  void replace(Operation *op, StringRef opName, ValueRange operands,
               TypeRange types, ArrayRef<NamedAttribute> attrs,
               unsigned numResults);

  ModuleOp module;
  SymbolTable symbols;
};

std::string Outliner::baseName(Operation *op, StringRef kind,
                               StringRef suffix) {
  std::string base;
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc);
      fused && !fused.getLocations().empty())
    loc = fused.getLocations().back();
  if (auto name = dyn_cast<NameLoc>(loc))
    base = name.getName().str();
  if (base.empty()) {
    auto parent = op->getParentOfType<func::FuncOp>();
    base = (parent.getSymName() + "_" + kind).str();
  }
  for (char &c : base)
    if (!llvm::isAlnum(c) && c != '_')
      c = '_';
  return base + "_" + suffix.str();
}

func::FuncOp Outliner::outline(Region &region, ArrayRef<Value> captures,
                               bool returnCaptures, StringRef name,
                               Location loc) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto func =
      func::FuncOp::create(b, loc, name, FunctionType::get(ctx, {}, {}));
  func.setPrivate();
  symbols.insert(func); // renames on a clash
  func.getBody().takeBody(region);
  Block &entry = func.front();
  for (Value capture : captures) {
    BlockArgument arg = entry.addArgument(capture.getType(), loc);
    capture.replaceUsesWithIf(arg, [&](OpOperand &use) {
      return func->isProperAncestor(use.getOwner());
    });
  }
  auto yield = cast<tf::YieldOp>(entry.getTerminator());
  SmallVector<Value> results(yield.getOperands());
  if (returnCaptures)
    for (BlockArgument arg : entry.getArguments().take_back(captures.size()))
      results.push_back(arg);
  b.setInsertionPoint(yield);
  func::ReturnOp::create(b, yield.getLoc(), results);
  yield.erase();
  func.setType(FunctionType::get(ctx, entry.getArgumentTypes(),
                                 ValueRange(results).getTypes()));
  return func;
}

void Outliner::replace(Operation *op, StringRef opName, ValueRange operands,
                       TypeRange types, ArrayRef<NamedAttribute> attrs,
                       unsigned numResults) {
  OpBuilder b(op);
  OperationState state(op->getLoc(), opName);
  state.addOperands(operands);
  state.addTypes(types);
  state.addAttributes(attrs);
  // Attributes that describe the operand and result types are derived
  // again from the new op's types (a loop now carries its captures too).
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (!llvm::is_contained({"T", "Tin", "Tout", "Tcond", "output_shapes",
                             "_output_shapes", "_num_original_outputs"},
                            attr.getName().strref()))
      state.addAttribute(attr.getName(), attr.getValue());
  Operation *functional = b.create(state);
  op->replaceAllUsesWith(functional->getResults().take_front(numResults));
  op->erase();
}

LogicalResult Outliner::run() {
  // Innermost first: an outer region then captures what the inner op uses.
  SmallVector<Operation *> work;
  module.walk<WalkOrder::PostOrder>([&](Operation *op) {
    if (isa<tf::IfRegionOp, tf::CaseRegionOp, tf::WhileRegionOp>(op))
      work.push_back(op);
  });
  MLIRContext *ctx = module.getContext();
  auto symbol = [&](func::FuncOp f) {
    return FlatSymbolRefAttr::get(ctx, f.getSymName());
  };
  for (Operation *op : work) {
    Location loc = op->getLoc();
    llvm::SetVector<Value> captureSet;
    for (Region &region : op->getRegions())
      getUsedValuesDefinedAbove(region, captureSet);
    SmallVector<Value> captures(captureSet.begin(), captureSet.end());
    auto stateless = op->getAttrOfType<BoolAttr>("is_stateless");
    NamedAttribute statelessAttr(
        StringAttr::get(ctx, "is_stateless"),
        stateless ? stateless : BoolAttr::get(ctx, false));

    if (auto ifOp = dyn_cast<tf::IfRegionOp>(op)) {
      func::FuncOp thenFunc =
          outline(ifOp.getThenBranch(), captures, false,
                  baseName(op, "if", "then"), loc);
      func::FuncOp elseFunc =
          outline(ifOp.getElseBranch(), captures, false,
                  baseName(op, "if", "else"), loc);
      SmallVector<Value> operands{ifOp.getCond()};
      llvm::append_range(operands, captures);
      replace(op, "tf.If", operands, op->getResultTypes(),
              {NamedAttribute(StringAttr::get(ctx, "then_branch"),
                              symbol(thenFunc)),
               NamedAttribute(StringAttr::get(ctx, "else_branch"),
                              symbol(elseFunc)),
               statelessAttr},
              op->getNumResults());
      continue;
    }
    if (auto caseOp = dyn_cast<tf::CaseRegionOp>(op)) {
      SmallVector<Attribute> branches;
      for (auto [i, region] : llvm::enumerate(caseOp.getBranches()))
        branches.push_back(symbol(
            outline(region, captures, false,
                    baseName(op, "case", "branch" + std::to_string(i)), loc)));
      SmallVector<Value> operands{caseOp.getBranchIndex()};
      llvm::append_range(operands, captures);
      replace(op, "tf.Case", operands, op->getResultTypes(),
              {NamedAttribute(StringAttr::get(ctx, "branches"),
                              ArrayAttr::get(ctx, branches)),
               statelessAttr},
              op->getNumResults());
      continue;
    }
    auto whileOp = cast<tf::WhileRegionOp>(op);
    // Values used from above become loop values that the body passes on.
    func::FuncOp cond = outline(whileOp.getCond(), captures, false,
                                baseName(op, "while", "cond"), loc);
    func::FuncOp body = outline(whileOp.getBody(), captures, true,
                                baseName(op, "while", "body"), loc);
    SmallVector<Value> operands(whileOp.getInput());
    llvm::append_range(operands, captures);
    SmallVector<Type> types(op->getResultTypes());
    for (Value capture : captures)
      types.push_back(capture.getType());
    SmallVector<NamedAttribute> attrs{
        NamedAttribute(StringAttr::get(ctx, "cond"), symbol(cond)),
        NamedAttribute(StringAttr::get(ctx, "body"), symbol(body)),
        statelessAttr};
    if (IntegerAttr iterations = whileOp.getParallelIterationsAttr())
      attrs.push_back(NamedAttribute(
          StringAttr::get(ctx, "parallel_iterations"), iterations));
    if (whileOp.getShapeInvariant())
      attrs.push_back(NamedAttribute(StringAttr::get(ctx, "shape_invariant"),
                                     UnitAttr::get(ctx)));
    replace(op, "tf.While", operands, types, attrs, op->getNumResults());
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Functional bodies to tf_executor graphs
//===----------------------------------------------------------------------===//

/// Whether `func`'s body is plain operations ending in func.return, with no
/// tf_executor.graph: the form kiln-tf-graph-pipeline gives.
bool isFunctional(func::FuncOp func) {
  if (func.isExternal() || !llvm::hasSingleElement(func.getBody()))
    return false;
  Block &body = func.front();
  if (!isa<func::ReturnOp>(body.getTerminator()))
    return false;
  return llvm::none_of(body, [](Operation &op) {
    return isa<tfe::GraphOp>(op);
  });
}

/// Wraps each operation of `func`'s body in an island of one graph; each
/// operation that is not free of side effects waits for the previous one,
/// and a function's last such operation is fetched as its control output.
void wrapInGraph(func::FuncOp func) {
  MLIRContext *ctx = func.getContext();
  Block &body = func.front();
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);

  OpBuilder b(ret);
  OperationState graphState(func.getLoc(), tfe::GraphOp::getOperationName());
  graphState.addTypes(ret.getOperandTypes());
  Region *graphRegion = graphState.addRegion();
  Block *graphBlock = new Block();
  graphRegion->push_back(graphBlock);
  Operation *graph = b.create(graphState);

  OpBuilder g = OpBuilder::atBlockEnd(graphBlock);
  Value lastEffect;
  for (Operation *op : ops) {
    OperationState islandState(op->getLoc(),
                               tfe::IslandOp::getOperationName());
    auto stateless = op->getAttrOfType<BoolAttr>("is_stateless");
    bool hasEffects =
        !isMemoryEffectFree(op) && !(stateless && stateless.getValue());
    if (hasEffects && lastEffect)
      islandState.addOperands(lastEffect);
    islandState.addTypes(op->getResultTypes());
    islandState.addTypes(tfe::ControlType::get(ctx));
    Region *region = islandState.addRegion();
    Block *block = new Block();
    region->push_back(block);
    auto island = cast<tfe::IslandOp>(g.create(islandState));
    op->moveBefore(block, block->end());
    OpBuilder y = OpBuilder::atBlockEnd(block);
    tfe::YieldOp::create(y, op->getLoc(), op->getResults());
    for (auto [result, output] :
         llvm::zip(op->getResults(), island.getOutputs()))
      result.replaceUsesWithIf(output, [&](OpOperand &use) {
        return !island->isAncestor(use.getOwner());
      });
    if (hasEffects)
      lastEffect = island.getControl();
  }
  SmallVector<Value> fetches(ret.getOperands());
  if (lastEffect && func.getSymName() != "main")
    fetches.push_back(lastEffect);
  tfe::FetchOp::create(g, ret.getLoc(), fetches);
  ret->setOperands(graph->getResults());
}

} // namespace

bool kiln::graphdef::detail::needsPreparation(ModuleOp module) {
  bool needed = false;
  module.walk([&](Operation *op) {
    if (isa<tf::IfRegionOp, tf::CaseRegionOp, tf::WhileRegionOp>(op))
      needed = true;
    else if (auto func = dyn_cast<func::FuncOp>(op))
      needed |= isFunctional(func);
    return needed ? WalkResult::interrupt() : WalkResult::advance();
  });
  return needed;
}

LogicalResult kiln::graphdef::detail::prepareForExport(ModuleOp module) {
  // A module of functional tf need not have loaded tf_executor.
  module.getContext()->getOrLoadDialect<tfe::TFExecutorDialect>();
  if (failed(Outliner(module).run()))
    return failure();
  for (auto func : module.getOps<func::FuncOp>())
    if (isFunctional(func))
      wrapInGraph(func);
  return success();
}
