//===- CPUCallerBuffers.cpp - an entry that allocates nothing ---*- C++ -*-===//
//
// kiln-cpu-caller-buffers: moves a statically shaped entry's body into
// `<entry>_with_buffers(feeds..., fetches..., arena)`, which writes its
// results into the fetch arguments and places every buffer it used to
// allocate in the arena argument; the entry becomes an allocating wrapper
// around it.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUCALLERBUFFERSPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// Alignment in bytes of the arena and of every buffer placed in it.
constexpr int64_t kAlignment = 64;

int64_t alignTo(int64_t bytes) {
  return (bytes + kAlignment - 1) / kAlignment * kAlignment;
}

/// Bytes of a static buffer of `type` (i1 elements take a byte each), or
/// none if its shape or layout is not static and plain.
std::optional<int64_t> bufferBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  int64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return type.getNumElements() * std::max<int64_t>(1, (bits + 7) / 8);
}

/// Whether `alloc` is an i8 buffer used only as the source of memref.view
/// ops (kiln-cpu-plan-buffers' arena): its views can be rebased.
bool isViewedArena(memref::AllocOp alloc) {
  return alloc.getType().getRank() == 1 &&
         alloc.getType().getElementType().isInteger(8) &&
         llvm::all_of(alloc->getUses(), [](OpOperand &use) {
           auto view = dyn_cast<memref::ViewOp>(use.getOwner());
           return view && view.getSource() == use.get();
         });
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnCPUCallerBuffersPass final
    : kiln::impl::KilnCPUCallerBuffersPassBase<KilnCPUCallerBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<NamedAttribute> arenas;
    for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (!isCandidate(func))
        continue;
      FailureOr<std::pair<int64_t, int64_t>> sizes = split(module, func);
      if (failed(sizes))
        return signalPassFailure();
      if (sizes->first < 0)
        continue;
      Builder b(&getContext());
      arenas.push_back(NamedAttribute(
          func.getSymNameAttr(),
          b.getDenseI64ArrayAttr({sizes->first, sizes->second})));
      ++numEntries;
    }
    if (!arenas.empty())
      module->setAttr("kiln.arena", DictionaryAttr::get(&getContext(), arenas));
  }

  /// A public entry with a C interface and statically shaped memrefs only.
  static bool isCandidate(func::FuncOp func) {
    if (!func.isPublic() || func.isDeclaration() ||
        !func->hasAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName()) ||
        !func.getBody().hasOneBlock())
      return false;
    auto isStatic = [](Type type) {
      auto memref = dyn_cast<MemRefType>(type);
      return memref && bufferBytes(memref).has_value();
    };
    return llvm::all_of(func.getArgumentTypes(), isStatic) &&
           llvm::all_of(func.getResultTypes(), isStatic);
  }

  /// Whether `alloc`'s buffer lives only until the end of the block it is
  /// made in: no alias of it leaves that block (yielded, returned, passed to
  /// a call, turned into a tensor), and every loop around it runs its
  /// iterations one after another. Each execution of the block can then
  /// reuse one place of the arena.
  static bool isBlockLocal(memref::AllocOp alloc) {
    for (Operation *op = alloc->getParentOp(); !isa<func::FuncOp>(op);
         op = op->getParentOp())
      if (!isa<scf::ForOp, scf::IfOp, scf::WhileOp>(op))
        return false;
    Block *block = alloc->getBlock();
    SmallVector<Value> worklist = {alloc.getResult()};
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      for (Operation *user : value.getUsers()) {
        if (!block->findAncestorOpInBlock(*user) ||
            user->hasTrait<OpTrait::IsTerminator>() ||
            isa<CallOpInterface, bufferization::ToTensorOp>(user))
          return false;
        if (isa<ViewLikeOpInterface>(user))
          worklist.append(user->result_begin(), user->result_end());
      }
    }
    return true;
  }

  /// Whether every allocation `func` makes is a statically sized
  /// memref.alloc at the top level of its body or local to a block of a
  /// sequential loop or branch, and no function of the module it calls
  /// allocates.
  static bool canPlaceAllocations(ModuleOp module, func::FuncOp func) {
    Block &body = func.getBody().front();
    WalkResult result = func.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        return bufferBytes(alloc.getType()).has_value() &&
                       (alloc->getBlock() == &body || isBlockLocal(alloc))
                   ? WalkResult::advance()
                   : WalkResult::interrupt();
      if (isa<memref::ReallocOp>(op))
        return WalkResult::interrupt();
      // A callee in the module may allocate; external ones (runtimes) are
      // the caller's business.
      if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
        if (callee && !callee.isDeclaration() &&
            callee.walk([](memref::AllocOp) { return WalkResult::interrupt(); })
                .wasInterrupted())
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return !result.wasInterrupted();
  }

  /// Splits `func` into `<func>_with_buffers` and an allocating wrapper.
  /// Returns the arena's size and the bytes of the buffers in it, or -1 as
  /// the size when `func` allocates in a way the arena cannot take.
  FailureOr<std::pair<int64_t, int64_t>> split(ModuleOp module,
                                               func::FuncOp func) {
    Block &body = func.getBody().front();
    if (!canPlaceAllocations(module, func))
      return std::make_pair<int64_t, int64_t>(-1, 0);
    std::string name = (func.getSymName() + "_with_buffers").str();
    if (Operation *clash = module.lookupSymbol(name)) {
      clash->emitError("symbol '")
          << name << "' is taken; kiln-cpu-caller-buffers needs it for the "
          << "caller-buffers variant of @" << func.getSymName();
      return failure();
    }

    MLIRContext *context = &getContext();
    auto returnOp = cast<func::ReturnOp>(body.getTerminator());
    TypeRange resultTypes = func.getResultTypes();
    unsigned numFeeds = func.getNumArguments();

    // The fetch arguments, then the arena (sized below).
    for (Type type : resultTypes)
      body.addArgument(type, func.getLoc());
    BlockArgument arena = body.addArgument(
        MemRefType::get({ShapedType::kDynamic}, IntegerType::get(context, 8)),
        func.getLoc());

    // Results made by an alloc are written in place; the rest (an input, a
    // constant, a second use of one buffer) are copied.
    OpBuilder builder(context);
    DenseMap<Operation *, Value> written;
    SmallVector<std::pair<Value, BlockArgument>> copies;
    for (auto [index, value] : llvm::enumerate(returnOp.getOperands())) {
      BlockArgument out = body.getArgument(numFeeds + index);
      auto alloc = value.getDefiningOp<memref::AllocOp>();
      if (alloc && alloc.getType() == out.getType() &&
          written.try_emplace(alloc.getOperation(), out).second)
        continue;
      copies.push_back({value, out});
    }
    for (auto [alloc, out] : written)
      alloc->getResult(0).replaceAllUsesExcept(out, returnOp);
    builder.setInsertionPoint(returnOp);
    for (auto [value, out] : copies) {
      Value source = value;
      if (Operation *def = value.getDefiningOp(); def && written.count(def))
        source = written.lookup(def);
      memref::CopyOp::create(builder, returnOp.getLoc(), source, out);
    }
    returnOp->setOperands({});
    for (auto [alloc, out] : written)
      alloc->erase();

    // Every other allocation moves into the arena, each at its own place:
    // the top-level ones (kiln-cpu-plan-buffers' arena among them), then
    // those local to a loop's or branch's block.
    int64_t arenaBytes = 0, bufferSum = 0;
    SmallVector<memref::AllocOp> allocs;
    func.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    for (memref::AllocOp alloc : allocs) {
      int64_t bytes = *bufferBytes(alloc.getType());
      int64_t offset = arenaBytes;
      arenaBytes = alignTo(offset + bytes);
      builder.setInsertionPoint(alloc);
      Location loc = alloc.getLoc();
      if (isViewedArena(alloc)) {
        for (OpOperand &use : llvm::make_early_inc_range(alloc->getUses())) {
          auto view = cast<memref::ViewOp>(use.getOwner());
          if (std::optional<int64_t> viewBytes = bufferBytes(view.getType()))
            bufferSum += *viewBytes;
          builder.setInsertionPoint(view);
          Value base = arith::ConstantIndexOp::create(builder, loc, offset);
          Value shifted = arith::AddIOp::create(builder, loc, base,
                                                view.getByteShift());
          view.getSourceMutable().assign(arena);
          view.getByteShiftMutable().assign(shifted);
        }
      } else {
        bufferSum += bytes;
        Value base = arith::ConstantIndexOp::create(builder, loc, offset);
        Value view = memref::ViewOp::create(builder, loc, alloc.getType(),
                                            arena, base, ValueRange());
        alloc.getResult().replaceAllUsesWith(view);
      }
      alloc.erase();
    }
    auto arenaType =
        MemRefType::get({arenaBytes}, IntegerType::get(context, 8));
    // memref.view takes a static i8 source as well as a dynamic one.
    arena.setType(arenaType);

    // The body becomes <func>_with_buffers.
    builder.setInsertionPoint(func);
    auto withBuffers = func::FuncOp::create(
        builder, func.getLoc(), name,
        FunctionType::get(context, body.getArgumentTypes(), {}));
    withBuffers->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                         builder.getUnitAttr());
    withBuffers.getBody().takeBody(func.getBody());

    // The entry allocates the results and the arena and calls it.
    Block *wrapper = func.addEntryBlock();
    builder.setInsertionPointToStart(wrapper);
    SmallVector<Value> operands(wrapper->getArguments());
    SmallVector<Value> results;
    auto alignment = builder.getI64IntegerAttr(kAlignment);
    for (Type type : resultTypes) {
      Value result = memref::AllocOp::create(builder, func.getLoc(),
                                             cast<MemRefType>(type),
                                             ValueRange(), alignment);
      results.push_back(result);
      operands.push_back(result);
    }
    operands.push_back(memref::AllocOp::create(builder, func.getLoc(),
                                               arenaType, ValueRange(),
                                               alignment));
    func::CallOp::create(builder, func.getLoc(), withBuffers, operands);
    func::ReturnOp::create(builder, func.getLoc(), results);
    return std::make_pair(arenaBytes, bufferSum);
  }
};

} // namespace
