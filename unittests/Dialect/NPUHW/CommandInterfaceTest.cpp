//===- CommandInterfaceTest.cpp - npuhw CommandOpInterface ------*- C++ -*-===//
//
// The interface that passes over command streams use: opcode and engine,
// dependencies, the produced token, and the semaphore fields.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPUHW/IR/NPUHWOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln;

namespace {

constexpr const char *kStream = R"mlir(
module attributes {npu.target = #npu.target<"default">} {
  npuhw.stream @s {
    %a = npuhw.view : memref<64xi8, strided<[1]>, #npuhw.lmem<acc>>
    %f = npuhw.dma_fill dst(%a : memref<64xi8, strided<[1]>, #npuhw.lmem<acc>>) {signal0 = 3}
    %n = npuhw.nop after(%f) {wait0 = 3}
    npuhw.end after(%n)
  }
}
)mlir";

class CommandInterface : public ::testing::Test {
protected:
  CommandInterface() {
    context.loadDialect<npuhw::NPUHWDialect>();
    module = parseSourceString<ModuleOp>(kStream, &context);
  }
  /// The commands of the stream, in stream order.
  SmallVector<npuhw::CommandOpInterface> commands() {
    SmallVector<npuhw::CommandOpInterface> out;
    module->walk([&](npuhw::CommandOpInterface op) { out.push_back(op); });
    return out;
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(CommandInterface, OpcodesEnginesAndTokens) {
  ASSERT_TRUE(module);
  auto ops = commands();
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].getOpcode(), npu::Opcode::DMA_FILL);
  EXPECT_EQ(ops[0].getEngine(), npu::Engine::DMA_IN);
  EXPECT_EQ(ops[1].getOpcode(), npu::Opcode::NOP);
  EXPECT_EQ(ops[1].getEngine(), npu::Engine::CTRL);
  ASSERT_EQ(ops[1].getDeps().size(), 1u);
  EXPECT_EQ(ops[1].getDeps()[0], ops[0].getCommandToken());
  EXPECT_EQ(ops[2].getOpcode(), npu::Opcode::END);
  EXPECT_FALSE(ops[2].getCommandToken());
}

TEST_F(CommandInterface, SemaphoreFields) {
  ASSERT_TRUE(module);
  auto ops = commands();
  EXPECT_EQ(ops[0].getSignal(0), 3u);
  EXPECT_EQ(ops[0].getSignal(1), std::nullopt);
  EXPECT_EQ(ops[1].getWait(0), 3u);
  ops[1].setWait(0, std::nullopt);
  ops[1].setWait(1, 5);
  ops[0].setSignal(1, 5);
  EXPECT_EQ(ops[1].getWait(0), std::nullopt);
  EXPECT_EQ(ops[1].getWait(1), 5u);
  EXPECT_EQ(ops[0].getSignal(1), 5u);
  EXPECT_TRUE(succeeded(verify(*module)));
  // A semaphore beyond the target's count fails verification.
  ops[2].setWait(0, 40);
  ScopedDiagnosticHandler silence(&context, [](Diagnostic &) {
    return success();
  });
  EXPECT_TRUE(failed(verify(*module)));
}

} // namespace
