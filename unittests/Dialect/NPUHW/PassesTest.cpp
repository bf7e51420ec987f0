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
  npuhw.region 3 output size 256
  %a = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>
  %y = npuhw.view : memref<256xi8, strided<[1]>, #npuhw.dram<3>>
  %f = npuhw.dma_fill dst(%a : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>)
       {pattern = 0}
  %s = npuhw.dma_store src(%a : memref<256xi8, strided<[1]>, #npuhw.lmem<act>>)
       dst(%y : memref<256xi8, strided<[1]>, #npuhw.dram<3>>) after(%f)
       {n0 = 1, n1 = 1, n2 = 1, src_run = 256}
  npuhw.end
}
)mlir";

TEST(NPUHWAssignSemaphores, DependencyOnALaterCommandIsAnError) {
  MLIRContext ctx;
  ctx.loadDialect<NPUHWDialect, npu::NPUDialect, memref::MemRefDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(kStream, &ctx);
  ASSERT_TRUE(module);
  StreamOp stream = *module->getOps<StreamOp>().begin();
  Operation *fill = nullptr, *store = nullptr;
  stream.walk([&](Operation *op) {
    if (isa<DmaFillOp>(op))
      fill = op;
    if (isa<DmaStoreOp>(op))
      store = op;
  });
  ASSERT_TRUE(fill && store);
  store->moveBefore(fill); // Now it uses a token defined after it.

  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  PassManager pm(&ctx);
  pm.enableVerifier(false);
  pm.addNestedPass<StreamOp>(createNPUHWAssignSemaphoresPass());
  EXPECT_TRUE(failed(pm.run(*module)));
  EXPECT_EQ(message, "'npuhw.dma_store' op depends on command 1 "
                     "('npuhw.dma_fill'), which comes later in the stream: "
                     "the stream is not in dependency order");
}

} // namespace
} // namespace kiln::npuhw
