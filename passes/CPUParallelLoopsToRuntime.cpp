//===- CPUParallelLoopsToRuntime.cpp - scf.forall to pool calls -*- C++ -*-===//
//
// kiln-cpu-parallel-loops-to-runtime: each scf.forall on buffers becomes a
// call to kiln_cpu_parallel_for (runtime/cpu/threads/ThreadPool.h) with an
// outlined body. The body, `@<func>_parallel<k>(ctx, begin, end)`, runs the
// forall's iterations [begin, end) (linearized, row-major); the values it
// reads from around the forall travel in a struct on the caller's stack that
// `ctx` points to, in their LLVM form (memref descriptors, i64 for index),
// converted with unrealized casts that reconcile once the module is in the
// llvm dialect. The runtime function is declared extern_weak: when the
// program does not link the runtime its address is null and the caller runs
// the body over all iterations itself, so the object still needs only the C
// library.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUPARALLELLOOPSTORUNTIMEPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

constexpr llvm::StringLiteral kParallelFor = "kiln_cpu_parallel_for";

/// Casts `value` to `type` unless it already has it.
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return UnrealizedConversionCastOp::create(b, loc, type, value).getResult(0);
}

struct KilnCPUParallelLoopsToRuntimePass final
    : kiln::impl::KilnCPUParallelLoopsToRuntimePassBase<
          KilnCPUParallelLoopsToRuntimePass> {
  using Base::Base;

  /// The extern_weak declaration of the runtime's entry point.
  LLVM::LLVMFuncOp declareRuntime(ModuleOp module) {
    if (auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(kParallelFor))
      return func;
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    MLIRContext *ctx = module.getContext();
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    auto type = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(ctx), {ptr, ptr, IntegerType::get(ctx, 64)});
    auto func = LLVM::LLVMFuncOp::create(b, module.getLoc(), kParallelFor,
                                         type, LLVM::Linkage::ExternWeak);
    return func;
  }

  LogicalResult outline(scf::ForallOp forall, func::FuncOp parent,
                        unsigned index, LLVMTypeConverter &converter,
                        LLVM::LLVMFuncOp runtime) {
    if (forall.getNumResults() != 0)
      return forall.emitOpError("has results ")
             << forall.getNumResults()
             << " left after bufferization; only loops on buffers can run "
                "on the thread pool";
    MLIRContext *ctx = forall.getContext();
    Location loc = forall.getLoc();
    auto i64 = IntegerType::get(ctx, 64);
    auto ptr = LLVM::LLVMPointerType::get(ctx);

    // Constants are rebuilt in the body; other values from around the loop
    // travel in the context struct.
    SetVector<Value> above;
    getUsedValuesDefinedAbove(forall.getRegion(), above);
    SmallVector<Value> captures;
    SmallVector<Operation *> constants;
    for (Value value : above) {
      Operation *def = value.getDefiningOp();
      if (def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
          def->hasTrait<OpTrait::ConstantLike>())
        constants.push_back(def);
      else
        captures.push_back(value);
    }
    SmallVector<Type> fields;
    for (Value value : captures) {
      Type type = converter.convertType(value.getType());
      if (!type)
        return forall.emitOpError("reads ")
               << value << " whose type has no LLVM form";
      fields.push_back(type);
    }
    auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);

    // The body: @<parent>_parallel<k>(ctx, begin, end).
    OpBuilder b(parent);
    b.setInsertionPointAfter(parent);
    auto bodyType = b.getFunctionType({ptr, i64, i64}, {});
    auto body = func::FuncOp::create(
        b, loc, (parent.getSymName() + "_parallel" + Twine(index)).str(),
        bodyType);
    body.setPrivate();
    // Internal in the object, so that two models' bodies never clash.
    body->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
    Block *entry = body.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping mapping;
    for (Operation *constant : constants)
      b.clone(*constant, mapping);
    if (!captures.empty()) {
      Value packed =
          LLVM::LoadOp::create(b, loc, structType, entry->getArgument(0));
      for (auto [i, value] : llvm::enumerate(captures)) {
        Value field = LLVM::ExtractValueOp::create(
            b, loc, packed, ArrayRef<int64_t>{int64_t(i)});
        mapping.map(value, castTo(b, loc, field, value.getType()));
      }
    }
    Value begin = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                             entry->getArgument(1));
    Value end = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                           entry->getArgument(2));
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto loop = scf::ForOp::create(b, loc, begin, end, one);
    func::ReturnOp::create(b, loc);

    // Each linear iteration j as the forall's induction variables,
    // row-major: iv_k = lb_k + (j / inner_k mod trips_k) * step_k.
    SmallVector<OpFoldResult> lbs = forall.getMixedLowerBound();
    SmallVector<OpFoldResult> ubs = forall.getMixedUpperBound();
    SmallVector<OpFoldResult> steps = forall.getMixedStep();
    int64_t count = 1;
    SmallVector<int64_t> lbValues, stepValues, trips;
    for (auto [lb, ub, step] : llvm::zip(lbs, ubs, steps)) {
      std::optional<int64_t> l = getConstantIntValue(lb);
      std::optional<int64_t> u = getConstantIntValue(ub);
      std::optional<int64_t> s = getConstantIntValue(step);
      if (!l || !u || !s || *s <= 0)
        return forall.emitOpError(
            "has a bound or step that is not a positive constant");
      int64_t n = *u > *l ? (*u - *l + *s - 1) / *s : 0;
      lbValues.push_back(*l);
      stepValues.push_back(*s);
      trips.push_back(n);
      count *= n;
    }
    b.setInsertionPointToStart(loop.getBody());
    Value linear = loop.getInductionVar();
    for (int64_t k = trips.size(); k-- > 0;) {
      Value trip = arith::ConstantIndexOp::create(b, loc, trips[k]);
      Value position =
          k == 0 ? linear
                 : arith::RemUIOp::create(b, loc, linear, trip).getResult();
      Value scaled = arith::MulIOp::create(
          b, loc, position, arith::ConstantIndexOp::create(b, loc, stepValues[k]));
      Value iv = arith::AddIOp::create(
          b, loc, scaled, arith::ConstantIndexOp::create(b, loc, lbValues[k]));
      mapping.map(forall.getInductionVars()[k], iv);
      if (k > 0)
        linear = arith::DivUIOp::create(b, loc, linear, trip);
    }
    for (Operation &op : forall.getBody()->without_terminator())
      b.clone(op, mapping);
    // Stack buffers of an iteration (kiln-cpu-parallel-temporaries) at the
    // function's entry, so each thread's call reserves them once.
    SmallVector<memref::AllocaOp> allocas;
    body.walk([&](memref::AllocaOp alloca) {
      if (alloca->getNumOperands() == 0 && alloca->getBlock() != entry)
        allocas.push_back(alloca);
    });
    for (memref::AllocaOp alloca : allocas)
      alloca->moveBefore(entry, entry->begin());

    // The call site: the context struct on the stack (reserved at the
    // function's entry, filled here), then the pool or, without the
    // runtime, the body over every iteration.
    Block &parentEntry = parent.getBody().front();
    b.setInsertionPointToStart(&parentEntry);
    Value ctxPtr;
    if (!captures.empty()) {
      Value size = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
      ctxPtr = LLVM::AllocaOp::create(b, loc, ptr, structType, size);
    } else {
      ctxPtr = LLVM::ZeroOp::create(b, loc, ptr);
    }
    b.setInsertionPoint(forall);
    if (!captures.empty()) {
      Value packed = LLVM::PoisonOp::create(b, loc, structType);
      for (auto [i, value] : llvm::enumerate(captures))
        packed = LLVM::InsertValueOp::create(
            b, loc, packed, castTo(b, loc, value, fields[i]),
            ArrayRef<int64_t>{int64_t(i)});
      LLVM::StoreOp::create(b, loc, packed, ctxPtr);
    }
    Value bodyRef = func::ConstantOp::create(b, loc, bodyType,
                                             SymbolRefAttr::get(body));
    Value bodyPtr = castTo(b, loc, bodyRef, ptr);
    Value total = arith::ConstantIntOp::create(b, loc, i64, count);
    Value runtimePtr = LLVM::AddressOfOp::create(b, loc, runtime);
    Value null = LLVM::ZeroOp::create(b, loc, ptr);
    Value linked = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne,
                                        runtimePtr, null);
    auto branch = scf::IfOp::create(b, loc, linked, /*withElseRegion=*/true);
    b.setInsertionPointToStart(branch.thenBlock());
    LLVM::CallOp::create(b, loc, runtime, ValueRange{bodyPtr, ctxPtr, total});
    b.setInsertionPointToStart(branch.elseBlock());
    Value zero = arith::ConstantIntOp::create(b, loc, i64, 0);
    func::CallOp::create(b, loc, body, ValueRange{ctxPtr, zero, total});
    forall.erase();
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    LLVMTypeConverter converter(&getContext());
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      SmallVector<scf::ForallOp> loops;
      // Outermost loops only: one nested in another runs inside its body.
      func.walk<WalkOrder::PreOrder>([&](scf::ForallOp forall) {
        loops.push_back(forall);
        return WalkResult::skip();
      });
      if (loops.empty())
        continue;
      LLVM::LLVMFuncOp runtime = declareRuntime(module);
      for (auto [i, forall] : llvm::enumerate(loops)) {
        if (failed(outline(forall, func, i, converter, runtime)))
          return signalPassFailure();
        ++numOutlined;
      }
    }
  }
};

} // namespace
