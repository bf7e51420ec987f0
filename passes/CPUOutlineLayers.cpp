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
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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
/// constants and allocas left between them) into a new function `name`
/// placed before their function, and leaves a call of it after the last of
/// them. The function's arguments are the values the ops use from outside
/// (constants are cloned in instead), its results the values of `ops` used
/// after them. Every step visits only the moved ops and the uses of their
/// results: the upstream outlining utility scans all uses of each captured
/// value, which for the buffers every layer uses made outlining thousands
/// of layers quadratic.
static func::FuncOp outlineOps(OpBuilder &builder, ArrayRef<Operation *> ops,
                               StringRef name) {
  MLIRContext *ctx = builder.getContext();
  Location loc = ops.front()->getLoc();
  Block *parent = ops.front()->getBlock();
  auto parentFunc = ops.front()->getParentOfType<func::FuncOp>();
  llvm::SmallPtrSet<Operation *, 32> moved(ops.begin(), ops.end());
  SmallVector<Value> escaping;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !moved.contains(parent->findAncestorOpInBlock(*user));
          }))
        escaping.push_back(result);

  builder.setInsertionPoint(parentFunc);
  auto func = func::FuncOp::create(builder, loc, name,
                                   FunctionType::get(ctx, {}, {}));
  Block *entry = func.addEntryBlock();
  Block::iterator callPoint = std::next(ops.back()->getIterator());
  for (Operation *op : ops)
    op->moveBefore(entry, entry->end());

  // Values from outside become arguments, constants clones.
  DenseMap<Value, Value> replacement;
  SmallVector<Value> arguments;
  OpBuilder inside = OpBuilder::atBlockBegin(entry);
  auto isOutside = [&](Value value) {
    if (Operation *def = value.getDefiningOp())
      return !func->isProperAncestor(def);
    return !func->isAncestor(
        cast<BlockArgument>(value).getOwner()->getParentOp());
  };
  func.walk([&](Operation *op) {
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      auto [it, inserted] = replacement.try_emplace(value, value);
      if (inserted && isOutside(value)) {
        Operation *def = value.getDefiningOp();
        if (def && def->hasTrait<OpTrait::ConstantLike>()) {
          it->second = inside.clone(*def)->getResult(0);
        } else {
          arguments.push_back(value);
          it->second = entry->addArgument(value.getType(), value.getLoc());
        }
      }
      if (it->second != value)
        operand.set(it->second);
    }
  });
  OpBuilder end = OpBuilder::atBlockEnd(entry);
  func::ReturnOp::create(end, loc, escaping);
  func.setFunctionType(FunctionType::get(
      ctx, ValueRange(arguments).getTypes(), ValueRange(escaping).getTypes()));

  builder.setInsertionPoint(parent, callPoint);
  auto call = func::CallOp::create(builder, loc, func, arguments);
  for (auto [value, result] : llvm::zip(escaping, call.getResults()))
    value.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !func->isProperAncestor(use.getOwner());
    });
  return func;
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
  // The symbol table learns its name for the uniqueness checks that follow
  // (the function is in the module already and stays where it is).
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
    OpBuilder builder(&getContext());

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
        finishOutlined(
            outlineOps(builder, op, freshName(func, "layer", index)), symbols);
      }

      // What is left between the layers (whole small tensors computed by
      // unrolled vector ops, small loops, the calls above) is outlined in
      // chunks, so that no function of the module stays large.
      if (chunkOps <= 0 || !func.getBody().hasOneBlock())
        continue;
      index = 0;
      for (ArrayRef<Operation *> chunk :
           straightLineChunks(func.getBody().front(), chunkOps, minLayerOps)) {
        finishOutlined(
            outlineOps(builder, chunk, freshName(func, "chunk", index)),
            symbols);
      }
    }
  }
};

} // namespace
