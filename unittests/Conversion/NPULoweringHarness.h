//===- NPULoweringHarness.h - compile npu text, run it, compare -*- C++ -*-===//
//
// A GoogleTest fixture for the end-to-end tests of convert-npu-to-npuhw:
// parse a module of npu functions from MLIR text, run
// kiln-npu-to-npuhw-pipeline, export the stream as --npuhw-to-npub does,
// run it on the simulator with race checking and hand back the named
// outputs. Also the helpers the tests share to write MLIR text.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_UNITTESTS_CONVERSION_NPULOWERINGHARNESS_H
#define KILN_UNITTESTS_CONVERSION_NPULOWERINGHARNESS_H

#include "dialects/NPU/IR/NPUDialect.h"
#include "dialects/NPUHW/IR/NPUHWOps.h"
#include "dialects/NPUHW/Transforms/Passes.h"
#include "passes/Pipelines.h"
#include "runtime/npu/Simulator.h"
#include "target/npu/NPUTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace kiln::testing {

/// The number of random cases per test: KILN_NPU_LOWERING_CASES when set,
/// else \p fallback.
inline int loweringCases(int fallback) {
  if (const char *env = std::getenv("KILN_NPU_LOWERING_CASES"))
    return std::atoi(env);
  return fallback;
}

/// A double printed so that it parses back to the same value.
inline std::string exactNumber(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17e", v);
  return buf;
}

/// `0x...` hex of raw bytes, as dense<"0x..."> takes them.
inline std::string hexBytes(const std::vector<uint8_t> &bytes) {
  static const char *digits = "0123456789ABCDEF";
  std::string s = "0x";
  for (uint8_t b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

/// The fixture: an MLIR context with the dialects the npu text uses.
class NPULoweringTest : public ::testing::Test {
protected:
  NPULoweringTest() {
    mlir::DialectRegistry registry;
    registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                    mlir::quant::QuantDialect, mlir::memref::MemRefDialect,
                    npu::NPUDialect, npuhw::NPUHWDialect>();
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// Compiles \p text through the pipeline into \p program; returns the
  /// diagnostics on failure, "" on success.
  std::string compile(const std::string &text, npu::Program &program,
                      const NPUToNPUHWPipelineOptions &options = {}) {
    std::string diagnostics;
    mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
      diagnostics += d.str() + "\n";
      return mlir::success();
    });
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
    if (!module)
      return "parse: " + diagnostics;
    mlir::PassManager pm(&ctx);
    buildNPUToNPUHWPipeline(pm, options);
    if (failed(pm.run(*module)))
      return "pipeline: " + diagnostics;
    auto streams = module->getOps<npuhw::StreamOp>();
    if (std::distance(streams.begin(), streams.end()) != 1)
      return "expected one stream";
    mlir::FailureOr<npu::Program> exported =
        npuhw::exportStream(*streams.begin());
    if (failed(exported))
      return "export: " + diagnostics;
    program = std::move(*exported);
    return "";
  }

  /// Compiles \p text with \p options, binds \p inputs by name, runs with
  /// race checking and reads \p outputNames. Failures (including races) are
  /// test failures; returns false after one.
  bool run(const std::string &text,
           const std::vector<std::pair<std::string, std::vector<uint8_t>>>
               &inputs,
           const std::vector<std::string> &outputNames,
           std::vector<std::vector<uint8_t>> &outputs,
           const NPUToNPUHWPipelineOptions &options = {}) {
    npu::Program program;
    std::string error = compile(text, program, options);
    EXPECT_EQ(error, "") << text;
    if (!error.empty())
      return false;
    absl::StatusOr<npu::Simulator> sim =
        npu::Simulator::create(std::move(program));
    EXPECT_TRUE(sim.ok()) << sim.status();
    if (!sim.ok())
      return false;
    for (const auto &[name, bytes] : inputs) {
      absl::Status set = sim->setInput(name, bytes);
      EXPECT_TRUE(set.ok()) << set;
      if (!set.ok())
        return false;
    }
    npu::RunOptions runOptions;
    runOptions.raceCheck = true;
    absl::StatusOr<npu::RunResult> result = sim->run(runOptions);
    EXPECT_TRUE(result.ok()) << result.status() << "\n" << text;
    if (!result.ok())
      return false;
    EXPECT_TRUE(result->races.empty())
        << result->races.size() << " unsynchronised access pairs";
    outputs.clear();
    for (const std::string &name : outputNames) {
      absl::StatusOr<std::vector<uint8_t>> y = sim->getOutput(name);
      EXPECT_TRUE(y.ok()) << y.status();
      if (!y.ok())
        return false;
      outputs.push_back(std::move(*y));
    }
    return result->races.empty();
  }

  /// Allocates and synchronises the stream of \p module (lowered by
  /// convert-npu-to-npuhw alone), verifies it when \p verify, and runs it on
  /// \p x ("arg0") with race checking: the output ("result0") and the
  /// number of races.
  void allocateAndRun(mlir::ModuleOp module, const std::vector<uint8_t> &x,
                      std::vector<uint8_t> &y, size_t &races, bool verify) {
    mlir::PassManager pm(&ctx);
    mlir::OpPassManager &s = pm.nest<npuhw::StreamOp>();
    s.addPass(npuhw::createNPUHWAllocateLmemPass());
    s.addPass(npuhw::createNPUHWAssignSemaphoresPass());
    if (verify)
      s.addPass(npuhw::createNPUHWVerifyStreamPass());
    ASSERT_TRUE(succeeded(pm.run(module)));
    mlir::FailureOr<npu::Program> program =
        npuhw::exportStream(*module.getOps<npuhw::StreamOp>().begin());
    ASSERT_TRUE(succeeded(program));
    uint64_t cycles = 0;
    simulate(std::move(*program), x, y, cycles, races);
  }

  /// Runs \p program on \p x ("arg0") with race checking: the output
  /// ("result0"), the cycles and the number of races.
  void simulate(npu::Program program, const std::vector<uint8_t> &x,
                std::vector<uint8_t> &y, uint64_t &cycles, size_t &races) {
    absl::StatusOr<npu::Simulator> sim =
        npu::Simulator::create(std::move(program));
    ASSERT_TRUE(sim.ok()) << sim.status();
    ASSERT_TRUE(sim->setInput("arg0", x).ok());
    npu::RunOptions runOptions;
    runOptions.raceCheck = true;
    absl::StatusOr<npu::RunResult> result = sim->run(runOptions);
    ASSERT_TRUE(result.ok()) << result.status();
    races = result->races.size();
    cycles = result->stats.totalCycles;
    absl::StatusOr<std::vector<uint8_t>> out = sim->getOutput("result0");
    ASSERT_TRUE(out.ok()) << out.status();
    y = *out;
  }

  mlir::MLIRContext ctx;
};

} // namespace kiln::testing

#endif // KILN_UNITTESTS_CONVERSION_NPULOWERINGHARNESS_H
