//===- VerifyLLVMContract.cpp - the LLVM-dialect boundary -------*- C++ -*-===//
//
// Checks that only llvm.* operations remain before LLVM IR translation, and
// that calls leave the module only for the C library and libm.
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

/// The C library functions lowered code may call: allocation, block copies,
/// and what cf.assert's lowering calls on failure (puts, abort).
constexpr llvm::StringLiteral kCLibraryFunctions[] = {
    "malloc", "calloc", "realloc", "free", "aligned_alloc",
    "posix_memalign", "memcpy", "memmove", "memset", "memcmp", "abort",
    "exit", "puts", "printf", "putchar",
};

/// The libm functions, by their double names; each has an `f` variant.
constexpr llvm::StringLiteral kLibmFunctions[] = {
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt",
    "ceil", "copysign", "cos", "cosh", "erf", "erfc", "exp", "exp2",
    "expm1", "fabs", "floor", "fma", "fmax", "fmin", "fmod", "frexp",
    "hypot", "ldexp", "lgamma", "log", "log10", "log1p", "log2", "modf",
    "nearbyint", "pow", "remainder", "rint", "round", "roundeven", "sin",
    "sincos", "sinh", "sqrt", "tan", "tanh", "tgamma", "trunc",
};

/// The functions a compiled model may call outside itself.
llvm::StringSet<> getAllowedExternalFunctions(ArrayRef<std::string> extra) {
  llvm::StringSet<> allowed;
  for (llvm::StringLiteral name : kCLibraryFunctions)
    allowed.insert(name);
  for (llvm::StringLiteral name : kLibmFunctions) {
    allowed.insert(name);
    allowed.insert((name + "f").str());
  }
  for (const std::string &name : extra)
    allowed.insert(name);
  return allowed;
}

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

    // The object links against the C library and libm only: a call to a
    // function declared here but defined nowhere else is a missing symbol.
    llvm::StringSet<> allowed =
        getAllowedExternalFunctions(extraExternalFunctions);
    SymbolTableCollection symbols;
    module->walk([&](LLVM::CallOp call) {
      FlatSymbolRefAttr callee = call.getCalleeAttr();
      if (!callee)
        return; // An indirect call through a pointer the module computed.
      auto func = symbols.lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(
          call, callee.getAttr());
      if (!func || !func.isExternal() || allowed.contains(callee.getValue()))
        return;
      // Kiln's CPU thread runtime, referenced weakly: null (and not
      // called) when the program does not link it.
      if (callee.getValue() == "kiln_cpu_parallel_for" &&
          func.getLinkage() == LLVM::Linkage::ExternWeak)
        return;
      broken = true;
      call.emitOpError("calls external function ")
          << callee
          << ", which is neither in the C library nor in libm; a compiled "
             "model links against those only (name the function in "
             "extra-external-functions if the program provides it)";
    });
    if (broken)
      signalPassFailure();
  }
};

} // namespace
