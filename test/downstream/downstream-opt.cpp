//===- downstream-opt.cpp - a tool built on installed Kiln ------*- C++ -*-===//
//
// Registers a single Kiln pass and the two dialects it needs.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  kiln::registerKilnVerifyLLVMContractPass();
  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::LLVM::LLVMDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Kiln downstream test tool\n", registry));
}
