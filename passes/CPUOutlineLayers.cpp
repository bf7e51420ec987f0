//===- CPUOutlineLayers.cpp - one function per layer ------------*- C++ -*-===//
//
// kiln-cpu-outline-layers: moves each top-level loop nest of a large function
// into a private, non-inlined function, and what is left between them into
// functions of bounded size, so that the passes after it and LLVM's
// optimizer and code generator work one layer (or chunk) at a time.
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
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// Whether `op` allocates on the stack frame of its function (an alloca):
/// such an op stays where it is, since its buffer must outlive the call it
/// would otherwise be moved into.
static bool allocatesInScope(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect()) &&
           e.getResource() == SideEffects::AutomaticAllocationScopeResource::get();
  });
}

/// Moves `ops` (consecutive operations of one block, in order, apart from
/// constants and allocas left between them) into the single block of a new
/// `scf.execute_region` placed after the last of them, outlines that region
/// into `name`, and leaves a call in its place. The values of `ops` used
/// after them become the function's results. Returns the new function.
static FailureOr<func::FuncOp> outlineOps(IRRewriter &rewriter,
                                          ArrayRef<Operation *> ops,
                                          StringRef name) {
  Location loc = ops.front()->getLoc();
  Block *parent = ops.front()->getBlock();
  llvm::SmallPtrSet<Operation *, 32> moved(ops.begin(), ops.end());
  SmallVector<Value> escaping;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !moved.contains(parent->findAncestorOpInBlock(*user));
          }))
        escaping.push_back(result);

  rewriter.setInsertionPointAfter(ops.back());
  auto region =
      scf::ExecuteRegionOp::create(rewriter, loc, ValueRange(escaping).getTypes());
  Block *body = rewriter.createBlock(&region.getRegion());
  for (Operation *op : ops)
    rewriter.moveOpBefore(op, body, body->end());
  rewriter.setInsertionPointToEnd(body);
  scf::YieldOp::create(rewriter, loc, escaping);
  for (auto [value, result] : llvm::zip(escaping, region.getResults()))
    rewriter.replaceUsesWithIf(value, result, [&](OpOperand &use) {
      return !region->isProperAncestor(use.getOwner());
    });

  // Constants the outlined code uses become its own, not arguments of the
  // call.
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

/// The runs of `block` left after its layers are outlined, each cut into
/// chunks of at most `chunkOps` operations (nested ones included): every
/// operation but terminators, constants (cloned into the chunks that use
/// them) and allocas (which stay, and end a chunk whose values size them).
/// Chunks of fewer than `minOps` operations are left out.
static SmallVector<SmallVector<Operation *>>
straightLineChunks(Block &block, int64_t chunkOps, int64_t minOps) {
  SmallVector<SmallVector<Operation *>> chunks;
  SmallVector<Operation *> chunk;
  llvm::SmallPtrSet<Operation *, 32> inChunk;
  int64_t size = 0;
  auto close = [&] {
    if (!chunk.empty() && size >= minOps)
      chunks.push_back(chunk);
    chunk.clear();
    inChunk.clear();
    size = 0;
  };
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      break;
    if (op.hasTrait<OpTrait::ConstantLike>())
      continue;
    if (allocatesInScope(&op)) {
      if (llvm::any_of(op.getOperands(), [&](Value operand) {
            return inChunk.contains(operand.getDefiningOp());
          }))
        close();
      continue;
    }
    chunk.push_back(&op);
    inChunk.insert(&op);
    size += countOps(&op);
    if (size >= chunkOps)
      close();
  }
  close();
  return chunks;
}

/// Gives `func`, just created by outlining, a name no symbol of the module
/// has, internal linkage and `noinline`.
static void finishOutlined(func::FuncOp func, SymbolTable &symbols) {
  MLIRContext *ctx = func.getContext();
  // outlineSingleBlockRegion inserts the function before its parent; the
  // symbol table learns its name for the uniqueness checks that follow.
  symbols.remove(func);
  symbols.insert(func);
  func.setPrivate();
  func->setAttr("llvm.linkage",
                LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  func->setAttr("passthrough",
                ArrayAttr::get(ctx, {StringAttr::get(ctx, "noinline")}));
}

struct KilnCPUOutlineLayersPass final
    : kiln::impl::KilnCPUOutlineLayersPassBase<KilnCPUOutlineLayersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());

    // A name no symbol of the module has: <function>_<kind><N>.
    auto freshName = [&](func::FuncOp func, StringRef kind, unsigned &index) {
      std::string name;
      do
        name = (func.getSymName() + "_" + kind + Twine(index++)).str();
      while (symbols.lookup(name));
      return name;
    };

    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isDeclaration() || countOps(func) < minOps)
        continue;
      // A function that is one loop nest (a layer outlined before) keeps it.
      if (func.getBody().hasOneBlock() &&
          llvm::count_if(func.getBody().front(), [](Operation &op) {
            return !op.hasTrait<OpTrait::ConstantLike>() &&
                   !op.hasTrait<OpTrait::IsTerminator>();
          }) <= 1)
        continue;
      SmallVector<Operation *> layers;
      for (Block &block : func.getBody())
        for (Operation &op : block)
          if (op.getNumRegions() > 0 && countOps(&op) >= minLayerOps)
            layers.push_back(&op);

      unsigned index = 0;
      for (Operation *op : layers) {
        FailureOr<func::FuncOp> outlined =
            outlineOps(rewriter, op, freshName(func, "layer", index));
        if (failed(outlined)) {
          op->emitOpError("could not be outlined into its own function");
          return signalPassFailure();
        }
        finishOutlined(*outlined, symbols);
      }

      // What is left between the layers (whole small tensors computed by
      // unrolled vector ops, small loops, the calls above) is outlined in
      // chunks, so that no function of the module stays large.
      if (chunkOps <= 0 || !func.getBody().hasOneBlock())
        continue;
      index = 0;
      for (ArrayRef<Operation *> chunk :
           straightLineChunks(func.getBody().front(), chunkOps, minLayerOps)) {
        Operation *first = chunk.front();
        FailureOr<func::FuncOp> outlined =
            outlineOps(rewriter, chunk, freshName(func, "chunk", index));
        if (failed(outlined)) {
          first->emitOpError("could not be outlined with the ")
              << chunk.size() - 1 << " operations after it";
          return signalPassFailure();
        }
        finishOutlined(*outlined, symbols);
      }
    }
  }
};

} // namespace
