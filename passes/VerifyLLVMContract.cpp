//===- VerifyLLVMContract.cpp - the LLVM-dialect boundary -------*- C++ -*-===//
//
// Checks that only llvm.* operations remain before LLVM IR translation.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/StringSet.h"

namespace kiln {
#define GEN_PASS_DEF_KILNVERIFYLLVMCONTRACTPASS
#include "passes/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct KilnVerifyLLVMContractPass final
    : kiln::impl::KilnVerifyLLVMContractPassBase<KilnVerifyLLVMContractPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringSet<> legal;
    legal.insert(LLVM::LLVMDialect::getDialectNamespace());
    for (const std::string &name : extraLegalDialects)
      legal.insert(name);

    bool broken = false;
    module->walk([&](Operation *op) {
      if (op == module.getOperation() || isa<ModuleOp>(op))
        return;
      StringRef dialect = op->getName().getDialectNamespace();
      if (legal.contains(dialect))
        return;
      broken = true;
      op->emitError() << "'" << op->getName()
                      << "' is not in the llvm dialect; every operation must "
                         "be lowered before LLVM IR translation";
    });
    if (broken)
      signalPassFailure();
  }
};

} // namespace
