//===- PipelinesTest.cpp - build*Pipeline from C++ --------------*- C++ -*-===//
//
// The pipelines as a downstream user drives them: built from C++ through the
// same build function kiln-opt registers, run on parsed IR.
//
//===----------------------------------------------------------------------===//

#include "passes/Pipelines.h"
#include "passes/InitKiln.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;

namespace {

class PipelinesTest : public ::testing::Test {
protected:
  PipelinesTest() {
    DialectRegistry registry;
    kiln::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }

  OwningOpRef<ModuleOp> parse(const char *source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  MLIRContext context;
};

constexpr const char *kScaleAndAdd = R"mlir(
  func.func @scale_add(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
    %init = tensor.empty() : tensor<8xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                          affine_map<(i) -> (i)>,
                                          affine_map<(i) -> (i)>],
                         iterator_types = ["parallel"]}
        ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%init : tensor<8xf32>) {
    ^bb0(%a: f32, %b: f32, %out: f32):
      %c2 = arith.constant 2.0 : f32
      %m = arith.mulf %a, %c2 : f32
      %s = arith.addf %m, %b : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
)mlir";

TEST_F(PipelinesTest, LinalgToLLVMLeavesOnlyLLVMOps) {
  OwningOpRef<ModuleOp> module = parse(kScaleAndAdd);
  ASSERT_TRUE(module);
  PassManager pm(&context);
  kiln::buildLinalgToLLVMPipeline(pm, kiln::LinalgToLLVMPipelineOptions());
  ASSERT_TRUE(succeeded(pm.run(*module)));

  std::vector<std::string> nonLLVM;
  module->walk([&](Operation *op) {
    if (!isa<ModuleOp>(op) && !isa<LLVM::LLVMDialect>(op->getDialect()))
      nonLLVM.push_back(op->getName().getStringRef().str());
  });
  EXPECT_TRUE(nonLLVM.empty()) << "first left over: " << nonLLVM.front();
  EXPECT_TRUE(module->lookupSymbol<LLVM::LLVMFuncOp>("scale_add"));
}

TEST_F(PipelinesTest, ContractPassReportsEveryIllegalOp) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    llvm.func @f() -> i32 {
      %0 = arith.constant 1 : i32
      %1 = arith.addi %0, %0 : i32
      llvm.return %1 : i32
    }
  )mlir");
  ASSERT_TRUE(module);
  std::vector<std::string> messages;
  ScopedDiagnosticHandler collect(&context, [&](Diagnostic &diag) {
    messages.push_back(diag.str());
    return success();
  });
  PassManager pm(&context);
  pm.addPass(kiln::createKilnVerifyLLVMContractPass());
  EXPECT_TRUE(failed(pm.run(*module)));
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_NE(messages[0].find("'arith.constant'"), std::string::npos);
  EXPECT_NE(messages[1].find("'arith.addi'"), std::string::npos);
}

TEST_F(PipelinesTest, ContractPassAcceptsExtraDialects) {
  OwningOpRef<ModuleOp> module = parse(R"mlir(
    llvm.func @f() -> i32 {
      %0 = arith.constant 1 : i32
      llvm.return %0 : i32
    }
  )mlir");
  ASSERT_TRUE(module);
  kiln::KilnVerifyLLVMContractPassOptions options;
  options.extraLegalDialects.push_back("arith");
  PassManager pm(&context);
  pm.addPass(kiln::createKilnVerifyLLVMContractPass(options));
  EXPECT_TRUE(succeeded(pm.run(*module)));
}

} // namespace
