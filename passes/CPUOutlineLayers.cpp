//===- CPUOutlineLayers.cpp - one function per layer ------------*- C++ -*-===//
//
// kiln-cpu-outline-layers: moves each top-level loop nest of a large function
// into a private, non-inlined function, so that the passes after it and
// LLVM's optimizer and code generator work one layer at a time.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUOUTLINELAYERSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// The number of operations nested in `op`, itself included.
static int64_t countOps(Operation *op) {
  int64_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

/// Moves `op` into the single block of a new `scf.execute_region` that takes
/// its place, outlines that region into `name`, and leaves a call in place
/// of `op`. Returns the new function.
static FailureOr<func::FuncOp> outlineOp(IRRewriter &rewriter, Operation *op,
                                         StringRef name) {
  Location loc = op->getLoc();
  rewriter.setInsertionPoint(op);
  auto region =
      scf::ExecuteRegionOp::create(rewriter, loc, op->getResultTypes());
  rewriter.replaceAllUsesWith(op->getResults(), region.getResults());
  Block *body = rewriter.createBlock(&region.getRegion());
  rewriter.moveOpBefore(op, body, body->end());
  rewriter.setInsertionPointToEnd(body);
  scf::YieldOp::create(rewriter, loc, op->getResults());

  // Constants the layer uses become its own, not arguments of the call.
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(region.getRegion(), captured);
  rewriter.setInsertionPointToStart(body);
  for (Value value : captured) {
    Operation *def = value.getDefiningOp();
    if (!def || !def->hasTrait<OpTrait::ConstantLike>())
      continue;
    Operation *copy = rewriter.clone(*def);
    replaceAllUsesInRegionWith(value, copy->getResult(0), region.getRegion());
  }

  func::CallOp call;
  FailureOr<func::FuncOp> outlined =
      outlineSingleBlockRegion(rewriter, loc, region.getRegion(), name, &call);
  if (failed(outlined))
    return failure();

  // The region now holds the call and the yield: put the call in its place.
  rewriter.moveOpBefore(call, region);
  rewriter.replaceOp(region, call.getResults());
  return outlined;
}

struct KilnCPUOutlineLayersPass final
    : kiln::impl::KilnCPUOutlineLayersPassBase<KilnCPUOutlineLayersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    MLIRContext *ctx = &getContext();
    IRRewriter rewriter(ctx);
    auto internal =
        LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal);
    auto noinline = rewriter.getArrayAttr({rewriter.getStringAttr("noinline")});

    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isDeclaration() || countOps(func) < minOps)
        continue;
      SmallVector<Operation *> layers;
      for (Block &block : func.getBody())
        for (Operation &op : block)
          if (op.getNumRegions() > 0 && countOps(&op) >= minLayerOps)
            layers.push_back(&op);

      unsigned index = 0;
      for (Operation *op : layers) {
        // A name no symbol of the module has.
        std::string name;
        do
          name = (func.getSymName() + "_layer" + Twine(index++)).str();
        while (symbols.lookup(name));
        FailureOr<func::FuncOp> outlined = outlineOp(rewriter, op, name);
        if (failed(outlined)) {
          op->emitOpError("could not be outlined into its own function");
          return signalPassFailure();
        }
        // outlineSingleBlockRegion inserts the function before its parent;
        // the symbol table learns its name for the uniqueness check above.
        symbols.remove(*outlined);
        symbols.insert(*outlined);
        outlined->setPrivate();
        (*outlined)->setAttr("llvm.linkage", internal);
        (*outlined)->setAttr("passthrough", noinline);
      }
    }
  }
};

} // namespace
