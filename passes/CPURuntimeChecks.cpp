//===- CPURuntimeChecks.cpp - run-time checks as a status -------*- C++ -*-===//
//
// kiln-cpu-runtime-checks: moves the cf.assert ops at the top level of each
// entry into `<entry>_check`, a function of the entry's arguments that
// returns 0 or 1 + the index of the first failing check, and records the
// checks' messages in the module attribute `kiln.runtime_checks`.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialects/TF/IR/TFNodeName.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include "llvm/ADT/SetVector.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPURUNTIMECHECKSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// The attribute of the module that lists each entry's check messages.
constexpr llvm::StringLiteral kChecksAttr = "kiln.runtime_checks";

/// Whether `func` is an entry: public, defined, with a C interface.
bool isEntry(func::FuncOp func) {
  return func.isPublic() && !func.isDeclaration() &&
         func->hasAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName());
}

/// Collects into `slice` (in block order) the ops of `body` that compute
/// `cond` from `body`'s arguments, if they only read sizes and scalars:
/// pure ops without regions whose results are not shaped, and whose shaped
/// operands are arguments of `body` read by tensor.dim, memref.dim or
/// tensor.rank. False if some op does not qualify.
bool collectSlice(Value cond, Block &body,
                  llvm::SetVector<Operation *> &slice) {
  SmallVector<Value> worklist = {cond};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() != &body)
        return false;
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (!seen.insert(def).second)
      continue;
    if (def->getBlock() != &body || def->getNumRegions() != 0 ||
        !isPure(def) ||
        llvm::any_of(def->getResultTypes(), llvm::IsaPred<ShapedType>))
      return false;
    bool readsSizes = isa<tensor::DimOp, memref::DimOp, tensor::RankOp>(def);
    for (Value operand : def->getOperands()) {
      if (isa<ShapedType>(operand.getType()) &&
          (!readsSizes || !isa<BlockArgument>(operand)))
        return false;
      worklist.push_back(operand);
    }
  }
  // Block order is an order in which every op follows its operands.
  SmallVector<Operation *> ordered(seen.begin(), seen.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  slice.insert(ordered.begin(), ordered.end());
  return true;
}

/// The message of `check` followed by the TensorFlow node it came from.
std::string describe(cf::AssertOp check) {
  std::string message = check.getMsg().str();
  StringRef node = kiln::tf::nodeName(check.getLoc());
  if (!node.empty())
    message += " (TensorFlow node '" + node.str() + "')";
  return message;
}

/// Resolves the sizes of computed tensors in `func` to its arguments' where
/// the ops allow (tensor.pad, tensor.empty, ...), so that the checks read
/// only the arguments' sizes.
LogicalResult resolveSizes(func::FuncOp func) {
  RewritePatternSet patterns(func.getContext());
  memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
  tensor::DimOp::getCanonicalizationPatterns(patterns, func.getContext());
  return applyPatternsGreedily(func, std::move(patterns));
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnCPURuntimeChecksPass final
    : kiln::impl::KilnCPURuntimeChecksPassBase<KilnCPURuntimeChecksPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<NamedAttribute> recorded;
    if (auto old = module->getAttrOfType<DictionaryAttr>(kChecksAttr))
      recorded.assign(old.begin(), old.end());
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (!isEntry(func))
        continue;
      FailureOr<ArrayAttr> messages = moveChecks(module, func);
      if (failed(messages))
        return signalPassFailure();
      if (*messages)
        recorded.push_back(
            NamedAttribute(func.getSymNameAttr(), *messages));
    }
    if (!recorded.empty())
      module->setAttr(kChecksAttr,
                      DictionaryAttr::get(&getContext(), recorded));
  }

  /// Moves the checks of `entry` into `<entry>_check`; returns their
  /// messages, or null when there was no check to move.
  FailureOr<ArrayAttr> moveChecks(ModuleOp module, func::FuncOp entry) {
    bool hasChecks = false;
    entry.walk([&](cf::AssertOp) { hasChecks = true; });
    if (!hasChecks)
      return ArrayAttr();
    if (failed(resolveSizes(entry))) {
      entry.emitError("kiln-cpu-runtime-checks: cannot resolve the sizes the "
                      "checks of @")
          << entry.getSymName() << " read";
      return failure();
    }

    Block &body = entry.getBody().front();
    SmallVector<std::pair<cf::AssertOp, llvm::SetVector<Operation *>>> moved;
    bool failedAny = false;
    entry.walk([&](cf::AssertOp check) {
      llvm::SetVector<Operation *> slice;
      if (check->getBlock() == &body &&
          collectSlice(check.getArg(), body, slice)) {
        moved.emplace_back(check, std::move(slice));
        return;
      }
      InFlightDiagnostic diag =
          strict ? check.emitError() : check.emitWarning();
      diag << "run-time check '" << describe(check)
           << "' depends on values computed during the run; it cannot be "
              "checked before the run and ";
      if (strict) {
        diag << "would abort the program";
        failedAny = true;
      } else {
        diag << "aborts the program if it fails";
      }
    });
    if (failedAny)
      return failure();
    if (moved.empty())
      return ArrayAttr();

    std::string name = (entry.getSymName() + "_check").str();
    if (Operation *clash = module.lookupSymbol(name)) {
      clash->emitError("symbol '")
          << name << "' is taken; kiln-cpu-runtime-checks needs it for the "
          << "checks of @" << entry.getSymName();
      return failure();
    }
    OpBuilder builder(entry);
    builder.setInsertionPointAfter(entry);
    Location loc = entry.getLoc();
    Type i32 = builder.getI32Type();
    auto checkFunc = func::FuncOp::create(
        builder, loc, name,
        builder.getFunctionType(entry.getArgumentTypes(), {i32}));
    checkFunc->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                       builder.getUnitAttr());
    Block *checkBody = checkFunc.addEntryBlock();
    IRMapping mapping;
    mapping.map(body.getArguments(), checkBody->getArguments());

    // Each check inside the scf.if of the one before: a later condition is
    // only computed once the earlier ones hold.
    builder.setInsertionPointToStart(checkBody);
    SmallVector<scf::IfOp> ifs;
    SmallVector<Attribute> messages;
    for (auto [index, entryAndSlice] : llvm::enumerate(moved)) {
      auto &[check, slice] = entryAndSlice;
      for (Operation *op : slice)
        if (!mapping.contains(op->getResult(0)))
          builder.clone(*op, mapping);
      auto ifOp = scf::IfOp::create(builder, check.getLoc(), TypeRange{i32},
                                    mapping.lookup(check.getArg()),
                                    /*withElseRegion=*/true);
      builder.setInsertionPointToStart(&ifOp.getElseRegion().front());
      Value failed = arith::ConstantIntOp::create(builder, check.getLoc(),
                                                  i32, index + 1);
      scf::YieldOp::create(builder, check.getLoc(), failed);
      ifs.push_back(ifOp);
      messages.push_back(builder.getStringAttr(describe(check)));
      // The next check goes where this one holds.
      builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    }
    Value status = arith::ConstantIntOp::create(builder, loc, i32, 0);
    for (scf::IfOp ifOp : llvm::reverse(ifs)) {
      scf::YieldOp::create(builder, loc, status);
      status = ifOp.getResult(0);
      builder.setInsertionPointAfter(ifOp);
    }
    func::ReturnOp::create(builder, loc, status);

    for (auto &[check, slice] : moved)
      check.erase();
    numChecks += moved.size();
    return builder.getArrayAttr(messages);
  }
};

} // namespace
