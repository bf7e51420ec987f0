//===- RegistrationTest.cpp - Kiln's registration points --------*- C++ -*-===//
//
// What kiln-opt relies on: the registry parses upstream IR, and the pass and
// pipeline registries know Kiln's entries by their command-line names.
//
//===----------------------------------------------------------------------===//

#include "passes/InitKiln.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassRegistry.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

class RegistrationTest : public ::testing::Test {
protected:
  RegistrationTest() {
    DialectRegistry registry;
    kiln::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
  }
  MLIRContext context;
};

TEST_F(RegistrationTest, ParsesUpstreamDialects) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %init = tensor.empty() : tensor<4xf32>
      %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
                      outs(%init : tensor<4xf32>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    }
  )mlir",
                                                             &context);
  ASSERT_TRUE(module);
  EXPECT_TRUE(succeeded(verify(*module)));
  int adds = 0;
  module->walk([&](Operation *op) {
    if (op->getName().getStringRef() == "linalg.add")
      ++adds;
  });
  EXPECT_EQ(adds, 1);
}

TEST_F(RegistrationTest, RejectsUnregisteredDialect) {
  // Unknown dialects stay errors in kiln-opt (no allowUnregisteredDialects).
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      "\"nosuchdialect.op\"() : () -> ()", &context);
  EXPECT_FALSE(module);
}

TEST(PassRegistryTest, KnowsKilnAndUpstreamPasses) {
  kiln::registerAllPasses();
  EXPECT_NE(PassInfo::lookup("kiln-verify-llvm-contract"), nullptr);
  EXPECT_NE(PassInfo::lookup("one-shot-bufferize"), nullptr);
  EXPECT_NE(PassInfo::lookup("convert-linalg-to-loops"), nullptr);
  EXPECT_NE(PassPipelineInfo::lookup("kiln-linalg-to-llvm-pipeline"), nullptr);
  EXPECT_EQ(PassInfo::lookup("kiln-no-such-pass"), nullptr);
}

} // namespace
