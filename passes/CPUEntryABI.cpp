//===- CPUEntryABI.cpp - a compiled model's entry symbol --------*- C++ -*-===//
//
// kiln-cpu-entry-abi: names the entry function, gives it MLIR's C interface
// and gives every other symbol internal linkage.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace kiln {
#define GEN_PASS_DEF_KILNCPUENTRYABIPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnCPUEntryABIPass final
    : kiln::impl::KilnCPUEntryABIPassBase<KilnCPUEntryABIPass> {
  using Base::Base;

  /// Finds entry function `name`, renames it `symbol` (unless empty or
  /// the same) and gives it its C interface; null after an error.
  func::FuncOp exportEntry(ModuleOp module, StringRef name,
                           StringRef newName) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func || func.isDeclaration()) {
      std::string names;
      for (auto f : module.getOps<func::FuncOp>())
        if (!f.isDeclaration())
          names += (names.empty() ? "@" : ", @") + f.getSymName().str();
      module.emitError("no function named '")
          << name << "' to compile as the entry; the module defines "
          << (names.empty() ? std::string("no function") : names);
      return {};
    }
    if (!newName.empty() && newName != name) {
      if (Operation *clash = module.lookupSymbol(newName)) {
        clash->emitError("symbol '")
            << newName << "' is already taken; cannot rename '" << name
            << "' to it";
        return {};
      }
      if (failed(SymbolTable::replaceAllSymbolUses(
              func, StringAttr::get(&getContext(), newName), module)))
        return {};
      func.setSymName(newName);
    }
    func.setPublic();
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(&getContext()));
    return func;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // One entry, or several that share the model's variables: entry `e`
    // becomes `<symbol>_e`.
    SmallVector<Operation *> exported;
    if (entries.empty()) {
      func::FuncOp func = exportEntry(module, entry, symbol);
      if (!func)
        return signalPassFailure();
      exported.push_back(func);
    } else {
      if (symbol.empty()) {
        module.emitError("several entries need a symbol to prefix them with");
        return signalPassFailure();
      }
      // Every entry is found before any is renamed, so that a missing one
      // is reported with the module's own names.
      for (const std::string &name : entries) {
        auto func = module.lookupSymbol<func::FuncOp>(name);
        if (!func || func.isDeclaration()) {
          exportEntry(module, name, "");
          return signalPassFailure();
        }
      }
      for (const std::string &name : entries) {
        func::FuncOp func = exportEntry(module, name, symbol + "_" + name);
        if (!func)
          return signalPassFailure();
        exported.push_back(func);
      }
    }

    // Variables (mutable memref globals) are the model's state: the program
    // may read and initialize them, so they stay public, under the model's
    // prefix. Everything else is an implementation detail of this model.
    // External declarations (runtime functions) stay public: they are
    // resolved at link time.
    StringRef prefix = symbol.empty() ? StringRef(entry) : StringRef(symbol);
    SymbolTable symbols(module);
    for (Operation &op :
         llvm::make_early_inc_range(module.getBody()->getOperations())) {
      auto symbolOp = dyn_cast<SymbolOpInterface>(&op);
      if (!symbolOp || llvm::is_contained(exported, &op) ||
          symbolOp.isDeclaration())
        continue;
      auto global = dyn_cast<memref::GlobalOp>(op);
      if (!global || global.getConstant()) {
        symbolOp.setVisibility(SymbolTable::Visibility::Private);
        continue;
      }
      std::string name = (prefix + "_var_" + global.getSymName()).str();
      for (char &c : name)
        if (!llvm::isAlnum(c) && c != '_')
          c = '_';
      if (failed(symbols.rename(global, StringAttr::get(&getContext(), name))))
        return signalPassFailure();
      global.setPublic();
    }
  }
};

} // namespace
