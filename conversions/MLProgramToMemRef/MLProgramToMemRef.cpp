//===- MLProgramToMemRef.cpp - model state as memref globals ----*- C++ -*-===//
//
// convert-ml-program-to-memref: ml_program globals, loads and stores to
// memref globals with explicit copies, before one-shot bufferization.
//
//===----------------------------------------------------------------------===//

#include "conversions/Passes.h"

#include "mlir/Dialect/MLProgram/IR/MLProgram.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTMLPROGRAMTOMEMREFPASS
#include "conversions/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct ConvertMLProgramToMemRefPass final
    : kiln::impl::ConvertMLProgramToMemRefPassBase<
          ConvertMLProgramToMemRefPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    // Globals first: their memref types are what the accesses need.
    llvm::StringMap<MemRefType> types;
    bool broken = false;
    for (auto global :
         llvm::make_early_inc_range(module.getOps<ml_program::GlobalOp>())) {
      auto tensorType = dyn_cast<RankedTensorType>(global.getType());
      if (!tensorType || !tensorType.hasStaticShape()) {
        global.emitOpError("global @")
            << global.getSymName() << " of type " << global.getType()
            << " has no static tensor shape; model state needs one";
        broken = true;
        continue;
      }
      auto memrefType =
          MemRefType::get(tensorType.getShape(), tensorType.getElementType());
      OpBuilder b(global);
      // A variable nobody initializes starts at zero: reading it is then
      // defined, and the same on every platform.
      Attribute initial = global.getValueAttr();
      if (!initial || isa<UnitAttr>(initial))
        initial = DenseElementsAttr::get(
            tensorType, b.getZeroAttr(tensorType.getElementType()));
      // Bufferization turns a constant into an existing memref.global of the
      // same type, initial value and alignment (64 in Kiln's pipeline),
      // without asking whether that global is constant: a zero constant of a
      // variable's shape would read the variable. Mutable globals therefore
      // get another alignment (a wider one, which still suits the header).
      auto memrefGlobal = memref::GlobalOp::create(
          b, global.getLoc(), global.getSymNameAttr(),
          b.getStringAttr("private"), TypeAttr::get(memrefType), initial,
          global.getIsMutable() ? UnitAttr() : UnitAttr::get(context),
          b.getI64IntegerAttr(global.getIsMutable() ? 128 : 64));
      // The variable's name, for the C header of a compiled model.
      memrefGlobal->setAttr("kiln.variable", global.getSymNameAttr());
      types[global.getSymName()] = memrefType;
      global.erase();
    }
    if (broken)
      return signalPassFailure();

    WalkResult walk = module.walk([&](Operation *op) -> WalkResult {
      auto buffer = [&](OpBuilder &b, SymbolRefAttr symbol) -> Value {
        auto it = types.find(symbol.getLeafReference());
        if (it == types.end())
          return nullptr;
        return memref::GetGlobalOp::create(
            b, op->getLoc(), it->second,
            FlatSymbolRefAttr::get(symbol.getLeafReference()));
      };
      OpBuilder b(op);
      if (auto load = dyn_cast<ml_program::GlobalLoadOp>(op)) {
        Value global = buffer(b, load.getGlobal());
        if (!global)
          return load.emitOpError("loads from unknown global ")
                 << load.getGlobal();
        auto type = cast<MemRefType>(global.getType());
        Value copy = memref::AllocOp::create(b, load.getLoc(), type,
                                             b.getI64IntegerAttr(64));
        memref::CopyOp::create(b, load.getLoc(), global, copy);
        Value tensor = bufferization::ToTensorOp::create(
            b, load.getLoc(), load.getType(), copy, /*restrict=*/true,
            /*writable=*/true);
        load.replaceAllUsesWith(tensor);
        load.erase();
        return WalkResult::skip();
      }
      if (auto load = dyn_cast<ml_program::GlobalLoadConstOp>(op)) {
        Value global = buffer(b, load.getGlobal());
        if (!global)
          return load.emitOpError("loads from unknown global ")
                 << load.getGlobal();
        Value tensor = bufferization::ToTensorOp::create(
            b, load.getLoc(), load.getType(), global, /*restrict=*/true,
            /*writable=*/false);
        load.replaceAllUsesWith(tensor);
        load.erase();
        return WalkResult::skip();
      }
      if (auto store = dyn_cast<ml_program::GlobalStoreOp>(op)) {
        Value global = buffer(b, store.getGlobal());
        if (!global)
          return store.emitOpError("stores to unknown global ")
                 << store.getGlobal();
        bufferization::MaterializeInDestinationOp::create(
            b, store.getLoc(), TypeRange(), store.getValue(), global,
            /*restrict=*/true, /*writable=*/true);
        store.erase();
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
