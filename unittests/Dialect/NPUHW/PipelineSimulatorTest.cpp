//===- PipelineSimulatorTest.cpp - Allocated, synchronised streams run ----===//
//
// A tiled stream written with tokens and npuhw.allocs (load a tile, negate
// it on VEC, store it; tile t+2 reuses tile t's buffers once the tokens say
// it may) goes through npuhw-allocate-lmem and npuhw-assign-semaphores, is
// exported to the runtime's Program like --npuhw-to-npub, and runs on the
// simulator with race checking: no race, no deadlock, and the output of the
// same commands run one at a time. Dropping one token before the passes makes
// the race checker name the two commands, so the test can fail.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "dialects/NPUHW/Transforms/Passes.h"
#include "runtime/npu/Simulator.h"
#include "target/npu/NPUTarget.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <sstream>

namespace kiln::npuhw {
namespace {

using namespace mlir;

constexpr int kTiles = 4;
constexpr int kTileBytes = 128; // 2 rows x 4 columns x 16 channels, i8.

/// The stream; with \p dropLoadOfTile1, tile 1's negation does not depend on
/// its load.
std::string tiledStream(bool dropLoadOfTile1) {
  std::ostringstream s;
  const char *fm = "memref<2x4x1x16xi8, #npuhw.lmem<act>>";
  s << "module attributes {npu.target = #npu.target<\"default\">} {\n"
    << "npuhw.stream @tiles {\n"
    << "  npuhw.region 2 input size 512\n"
    << "  npuhw.region 3 output size 512\n"
    << "  npuhw.io input \"x\" region 2 offset 0 i8 [1, 8, 4, 16] nhwc scale "
       "1.0 zp 0\n"
    << "  npuhw.io output \"y\" region 3 offset 0 i8 [1, 8, 4, 16] nhwc "
       "scale 1.0 zp 0\n";
  for (int t = 0; t < kTiles; ++t) {
    s << "  %x" << t << " = npuhw.view : memref<128xi8, strided<[1], offset: "
      << t * kTileBytes << ">, #npuhw.dram<2>>\n"
      << "  %y" << t << " = npuhw.view : memref<128xi8, strided<[1], offset: "
      << t * kTileBytes << ">, #npuhw.dram<3>>\n"
      << "  %a" << t << " = npuhw.alloc : " << fm << "\n"
      << "  %b" << t << " = npuhw.alloc : " << fm << "\n";
  }
  for (int t = 0; t < kTiles; ++t) {
    std::string x = "memref<128xi8, strided<[1], offset: " +
                    std::to_string(t * kTileBytes) + ">, #npuhw.dram<";
    s << "  %l" << t << " = npuhw.dma_load src(%x" << t << " : " << x
      << "2>>) dst(%a" << t << " : " << fm << ")";
    if (t >= 2) // Write after read: tile t-2's negation read %a(t-2).
      s << " after(%u" << t - 2 << ")";
    s << " {n0 = 1, n1 = 1, n2 = 1, src_run = 128, dst_run = 128}\n";
    s << "  %u" << t << " = npuhw.vec_unary neg in(%a" << t << " : " << fm
      << ") out(%b" << t << " : " << fm << ")";
    std::vector<std::string> deps;
    if (!(dropLoadOfTile1 && t == 1))
      deps.push_back("%l" + std::to_string(t));
    if (t >= 2) // Write after read: tile t-2's store read %b(t-2).
      deps.push_back("%s" + std::to_string(t - 2));
    if (!deps.empty()) {
      s << " after(";
      for (size_t i = 0; i < deps.size(); ++i)
        s << (i ? ", " : "") << deps[i];
      s << ")";
    }
    s << " {min = -128, max = 127}\n";
    s << "  %s" << t << " = npuhw.dma_store src(%b" << t << " : " << fm
      << ") dst(%y" << t << " : " << x << "3>>) after(%u" << t
      << ") {n0 = 1, n1 = 1, n2 = 1, src_run = 128}\n";
  }
  s << "  npuhw.end\n}\n}\n";
  return s.str();
}

/// Runs both passes and exports the stream; \p commandOps maps command
/// indices to ops.
FailureOr<npu::Program> compile(MLIRContext &ctx, const std::string &text,
                                OwningOpRef<ModuleOp> &module,
                                CommandOps &commandOps) {
  module = parseSourceString<ModuleOp>(text, &ctx);
  if (!module)
    return failure();
  PassManager pm(&ctx);
  pm.addNestedPass<StreamOp>(createNPUHWAllocateLmemPass());
  pm.addNestedPass<StreamOp>(createNPUHWAssignSemaphoresPass());
  if (failed(pm.run(*module)))
    return failure();
  return exportStream(*module->getOps<StreamOp>().begin(), &commandOps);
}

std::vector<uint8_t> input() {
  std::vector<uint8_t> x(kTiles * kTileBytes);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<uint8_t>(i * 7 + 3);
  return x;
}

absl::StatusOr<npu::RunResult> run(const npu::Program &program,
                                   std::vector<uint8_t> &y) {
  absl::StatusOr<npu::Simulator> sim = npu::Simulator::create(program);
  if (!sim.ok())
    return sim.status();
  if (absl::Status s = sim->setInput("x", input()); !s.ok())
    return s;
  npu::RunOptions options;
  options.raceCheck = true;
  absl::StatusOr<npu::RunResult> result = sim->run(options);
  if (result.ok())
    y = *sim->getOutput("y");
  return result;
}

/// \p program with no semaphores and a NOP after every command: each command
/// runs alone, in stream order.
npu::Program sequential(npu::Program program) {
  std::vector<npu::Command> commands;
  for (npu::Command c : program.commands) {
    c.wait[0] = c.wait[1] = c.signal[0] = c.signal[1] = npu::kNoSemaphore;
    bool end = c.opcode == npu::Opcode::END;
    commands.push_back(c);
    if (!end)
      commands.push_back(npu::Command());
  }
  program.commands = commands;
  return program;
}

class PipelineOnSimulator : public ::testing::Test {
protected:
  PipelineOnSimulator() {
    ctx.loadDialect<NPUHWDialect, npu::NPUDialect, memref::MemRefDialect>();
  }
  MLIRContext ctx;
};

TEST_F(PipelineOnSimulator, AllocatedAndSynchronisedStreamHasNoRace) {
  OwningOpRef<ModuleOp> module;
  CommandOps ops;
  FailureOr<npu::Program> program =
      compile(ctx, tiledStream(false), module, ops);
  ASSERT_TRUE(succeeded(program));
  // Liveness reuse: the eight 128-byte buffers fit in four slots (tile t+2
  // lands on bytes of tile t or of a buffer dead before it).
  uint32_t end = 0;
  for (const npu::Command &c : program->commands) {
    if (c.opcode == npu::Opcode::DMA_LOAD)
      end = std::max(end, c.dst + kTileBytes);
    if (c.opcode == npu::Opcode::DMA_STORE)
      end = std::max(end, c.src + kTileBytes);
  }
  EXPECT_EQ(end, uint32_t(4 * kTileBytes));

  std::vector<uint8_t> y, expected;
  absl::StatusOr<npu::RunResult> r = run(*program, y); // Verifier included.
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->races.empty()) << r->races.front().message;
  absl::StatusOr<npu::RunResult> ref = run(sequential(*program), expected);
  ASSERT_TRUE(ref.ok()) << ref.status();
  EXPECT_EQ(y, expected);
  std::vector<uint8_t> x = input();
  EXPECT_EQ(y[5], static_cast<uint8_t>(-static_cast<int8_t>(x[5])));
}

TEST_F(PipelineOnSimulator, DroppedTokenIsARace) {
  OwningOpRef<ModuleOp> module;
  CommandOps ops;
  FailureOr<npu::Program> program =
      compile(ctx, tiledStream(true), module, ops);
  ASSERT_TRUE(succeeded(program));
  size_t load = 0, neg = 0;
  for (size_t i = 0, loads = 0, negs = 0; i < program->commands.size(); ++i) {
    if (program->commands[i].opcode == npu::Opcode::DMA_LOAD && loads++ == 1)
      load = i;
    if (program->commands[i].opcode == npu::Opcode::VEC_UNARY && negs++ == 1)
      neg = i;
  }
  std::vector<uint8_t> y;
  absl::StatusOr<npu::RunResult> r = run(*program, y);
  ASSERT_TRUE(r.ok()) << r.status();
  bool named = false;
  for (const npu::Race &race : r->races)
    named |= race.first == load && race.second == neg;
  EXPECT_TRUE(named) << r->races.size() << " races";
}

} // namespace
} // namespace kiln::npuhw
