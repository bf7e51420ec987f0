//===- ProgramRoundTripTest.cpp - runtime Program <-> npuhw -----*- C++ -*-===//
//
// Programs built by the runtime come back from npuhw with every field of
// every command, and the reader's errors surface as diagnostics.
//
//===----------------------------------------------------------------------===//

#include "target/npu/NPUTarget.h"

#include "runtime/npu/Examples.h"
#include "runtime/npu/Verifier.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln;

namespace {

/// Imports \p program, verifies the module and exports it again.
npu::Program roundTrip(const npu::Program &program, MLIRContext &context) {
  OwningOpRef<ModuleOp> module = npuhw::importProgram(program, &context);
  EXPECT_TRUE(module);
  EXPECT_TRUE(succeeded(verify(*module)));
  auto stream = *module->getOps<npuhw::StreamOp>().begin();
  FailureOr<npu::Program> back = npuhw::exportStream(stream);
  EXPECT_TRUE(succeeded(back));
  return succeeded(back) ? *back : npu::Program();
}

void expectSamePrograms(const npu::Program &a, const npu::Program &b) {
  ASSERT_EQ(a.commands.size(), b.commands.size());
  for (size_t i = 0; i < a.commands.size(); ++i)
    EXPECT_TRUE(npu::sameFields(a.commands[i], b.commands[i]))
        << "command " << i;
  EXPECT_EQ(a.constants, b.constants);
  EXPECT_EQ(a.config.toJson(), b.config.toJson());
  EXPECT_EQ(npu::writeProgram(a), npu::writeProgram(b));
}

TEST(ProgramRoundTrip, DoubleBufferedExample) {
  MLIRContext context;
  npu::ConvExample example = npu::buildConvExample();
  expectSamePrograms(example.program, roundTrip(example.program, context));
}

TEST(ProgramRoundTrip, FencedExampleOnAnotherTarget) {
  // One buffer and NOP fences, on a target with a bigger MAC array and
  // fewer semaphores: the target comes back as overrides of the closest
  // preset.
  MLIRContext context;
  npu::ConvExampleOptions options;
  options.doubleBuffer = false;
  npu::ConvExample example = npu::buildConvExample(options);
  ASSERT_TRUE(example.program.config.set("mac.rows", 32).ok());
  ASSERT_TRUE(example.program.config.set("semaphores", 16).ok());
  npu::Program back = roundTrip(example.program, context);
  expectSamePrograms(example.program, back);
  EXPECT_TRUE(npu::verifyProgram(back).ok());
}

TEST(ProgramRoundTrip, ReaderErrorsAreDiagnostics) {
  MLIRContext context;
  std::vector<uint8_t> bytes =
      npu::writeProgram(npu::buildConvExample().program);
  bytes.resize(bytes.size() - 1);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = npuhw::readNpub(
      StringRef(reinterpret_cast<const char *>(bytes.data()), bytes.size()),
      &context);
  EXPECT_FALSE(module);
  EXPECT_NE(message.find("truncated file"), std::string::npos) << message;
}

} // namespace
