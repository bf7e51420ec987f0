//===- PassesTest.cpp - npuhw transforms on IR built in memory --*- C++ -*-===//
//
// What lit cannot reach: a stream out of dependency order (the parser's
// dominance check rejects it, so the test builds it by moving an op).
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "dialects/NPUHW/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

namespace kiln::npuhw {
namespace {

using namespace mlir;

constexpr const char *kStream = R"mlir(
npuhw.stream @s {
  %a = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>
  %b = npuhw.view : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>
  %f = npuhw.dma_fill dst(%a : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) {pattern = 0}
  %u = npuhw.vec_unary clamp in(%a : memref<4x4x1x16xi8, strided<[64, 16, 16, 1]>, #npuhw.lmem<act>>) out(%b : memref<4x4x1x16xi8, strided<[64, 16, 16, 1], offset: 256>, #npuhw.lmem<act>>) after(%f) {min = -128, max = 127}
  npuhw.end
}
)mlir";

TEST(NPUHWAssignSemaphores, DependencyOnALaterCommandIsAnError) {
  MLIRContext ctx;
  ctx.loadDialect<NPUHWDialect, npu::NPUDialect, memref::MemRefDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kStream, &ctx);
  ASSERT_TRUE(module);
  StreamOp stream = *module->getOps<StreamOp>().begin();
  Operation *fill = nullptr, *unary = nullptr;
  stream.walk([&](Operation *op) {
    if (isa<DmaFillOp>(op))
      fill = op;
    if (isa<VecUnaryOp>(op))
      unary = op;
  });
  ASSERT_TRUE(fill && unary);
  unary->moveBefore(fill); // Now it uses a token defined after it.

  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  PassManager pm(&ctx);
  pm.enableVerifier(false);
  pm.addNestedPass<StreamOp>(createNPUHWAssignSemaphoresPass());
  EXPECT_TRUE(failed(pm.run(*module)));
  EXPECT_EQ(message, "'npuhw.vec_unary' op depends on command 1 "
                     "('npuhw.dma_fill'), which comes later in the stream: "
                     "the stream is not in dependency order");
}

} // namespace
} // namespace kiln::npuhw
