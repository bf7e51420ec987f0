//===- NPUCostTrackingTest.cpp - estimates against the simulator -*- C++ -*-===//
//
// NPUCostOpInterface's estimate predicts the cycles of the commands
// convert-npu-to-npuhw emits for an op alone: layers of each kind (dense,
// 1x1, depthwise, fully connected, pooling, element-wise) compiled through
// kiln-npu-to-npuhw-pipeline for the realistic target, exported with their
// COST entries, run on the simulator, and compared per layer
// (runtime/npu/LayerReport) with the measured cycles: the op's own estimate
// and the COST entry (npuhw-estimate-layers' replay of the stream) within
// 15%. Then a segment of several ops that overlap: the COST entries (each
// layer's span in the replay) and the stream's estimated cycles against the
// simulator's spans and cycles, within 2%.
//
//===----------------------------------------------------------------------===//

#include "NPULoweringHarness.h"

#include "dialects/NPU/IR/NPUCost.h"
#include "dialects/NPU/IR/NPUOps.h"
#include "runtime/npu/LayerReport.h"

#include "mlir/IR/BuiltinAttributes.h"

namespace kiln {
namespace {

using testing::NPULoweringTest;

/// A function of one fp16 op on the realistic target; \p body defines %y
/// from %x (and constants).
std::string layerModule(const std::string &args, const std::string &result,
                        const std::string &body) {
  return "module attributes {npu.target = #npu.target<\"realistic\">} {\n"
         "  func.func @layer(" + args + ") -> " + result + " {\n" + body +
         "    return %y : " + result + "\n  }\n}\n";
}

struct Case {
  const char *name;
  std::string text;
};

std::vector<Case> cases() {
  return {
      {"conv3x3 56x56x32->32, bias and clamp",
       layerModule(
           "%x: tensor<1x56x56x32xf16>", "tensor<1x56x56x32xf16>",
           "    %w = arith.constant dense<0.5> : tensor<3x3x32x32xf16>\n"
           "    %b = arith.constant dense<0.25> : tensor<32xf16>\n"
           "    %y = npu.conv2d %x, %w, %b {clamp_min = 0.0 : f32, stride = "
           "array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: "
           "1, 1, 1, 1>} : (tensor<1x56x56x32xf16>, tensor<3x3x32x32xf16>, "
           "tensor<32xf16>) -> tensor<1x56x56x32xf16>\n")},
      {"conv1x1 28x28x64->128",
       layerModule(
           "%x: tensor<1x28x28x64xf16>", "tensor<1x28x28x128xf16>",
           "    %w = arith.constant dense<0.5> : tensor<1x1x64x128xf16>\n"
           "    %y = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = "
           "array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : "
           "(tensor<1x28x28x64xf16>, tensor<1x1x64x128xf16>) -> "
           "tensor<1x28x28x128xf16>\n")},
      {"conv3x3 stride 2 64x64x1->32 (one input channel)",
       layerModule(
           "%x: tensor<1x64x64x1xf16>", "tensor<1x31x31x32xf16>",
           "    %w = arith.constant dense<0.5> : tensor<3x3x1x32xf16>\n"
           "    %b = arith.constant dense<0.25> : tensor<32xf16>\n"
           "    %y = npu.conv2d %x, %w, %b {clamp_min = 0.0 : f32, stride = "
           "array<i64: 2, 2>, dilation = array<i64: 1, 1>, pad = array<i64: "
           "0, 0, 0, 0>} : (tensor<1x64x64x1xf16>, tensor<3x3x1x32xf16>, "
           "tensor<32xf16>) -> tensor<1x31x31x32xf16>\n")},
      {"depthwise 3x3 stride 2 112x112x32",
       layerModule(
           "%x: tensor<1x112x112x32xf16>", "tensor<1x56x56x32xf16>",
           "    %w = arith.constant dense<0.5> : tensor<3x3x32xf16>\n"
           "    %y = npu.depthwise_conv2d %x, %w {stride = array<i64: 2, 2>, "
           "dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>} : "
           "(tensor<1x112x112x32xf16>, tensor<3x3x32xf16>) -> "
           "tensor<1x56x56x32xf16>\n")},
      {"fully connected 1024->256",
       layerModule(
           "%x: tensor<1x1024xf16>", "tensor<1x256xf16>",
           "    %w = arith.constant dense<0.5> : tensor<1024x256xf16>\n"
           "    %y = npu.fully_connected %x, %w : (tensor<1x1024xf16>, "
           "tensor<1024x256xf16>) -> tensor<1x256xf16>\n")},
      {"max pool 3x3 stride 2 56x56x64",
       layerModule(
           "%x: tensor<1x56x56x64xf16>", "tensor<1x28x28x64xf16>",
           "    %y = npu.max_pool2d %x {kernel = array<i64: 3, 3>, stride = "
           "array<i64: 2, 2>, pad = array<i64: 0, 1, 0, 1>} : "
           "(tensor<1x56x56x64xf16>) -> tensor<1x28x28x64xf16>\n")},
      {"add 28x28x96",
       layerModule(
           "%x: tensor<1x28x28x96xf16>, %z: tensor<1x28x28x96xf16>",
           "tensor<1x28x28x96xf16>",
           "    %y = npu.add %x, %z : (tensor<1x28x28x96xf16>, "
           "tensor<1x28x28x96xf16>) -> tensor<1x28x28x96xf16>\n")},
  };
}

class NPUCostTrackingTest : public NPULoweringTest {};

TEST_F(NPUCostTrackingTest, EstimateWithin15PercentOfTheSimulator) {
  for (const Case &c : cases()) {
    SCOPED_TRACE(c.name);
    npu::Program program;
    ASSERT_EQ(compile(c.text, program), "");
    // The op's own estimate (npu-record-costs, the LMEM split decisions).
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(c.text, &ctx);
    ASSERT_TRUE(module);
    uint64_t alone = 0;
    module->walk([&](npu::NPUCostOpInterface op) {
      alone += op.estimateCostOnTarget().estimate();
    });
    // The COST section holds the layer's figures under its DEBUG tag.
    ASSERT_EQ(program.costs.size(), 1u);
    absl::StatusOr<npu::Simulator> sim = npu::Simulator::create(program);
    ASSERT_TRUE(sim.ok()) << sim.status();
    absl::StatusOr<npu::RunResult> run = sim->run();
    ASSERT_TRUE(run.ok()) << run.status();
    absl::StatusOr<npu::LayerReport> report =
        npu::buildLayerReport(program, *run);
    ASSERT_TRUE(report.ok()) << report.status();
    ASSERT_EQ(report->layers.size(), 1u);
    const npu::LayerRow &row = report->layers[0];
    ASSERT_TRUE(row.hasCost);
    std::printf("%-50s estimate %8llu measured %8llu lower bound %8llu\n",
                c.name, static_cast<unsigned long long>(row.cost.estimate),
                static_cast<unsigned long long>(row.cycles()),
                static_cast<unsigned long long>(row.cost.lowerBound()));
    EXPECT_LE(row.cost.lowerBound(), row.cycles());
    EXPECT_NEAR(double(row.cost.estimate), double(row.cycles()),
                0.15 * double(row.cycles()));
    EXPECT_NEAR(double(alone), double(row.cycles()),
                0.15 * double(row.cycles()));
  }
}

/// A segment of consecutive fp16 ops on the realistic target, each reading
/// the one before: a 3x3 convolution, a depthwise convolution, a 1x1
/// convolution, a max pool and an add of the pool with itself.
std::string segmentModule() {
  return "module attributes {npu.target = #npu.target<\"realistic\">} {\n"
         "  func.func @segment(%x: tensor<1x32x32x16xf16>) -> "
         "tensor<1x16x16x32xf16> {\n"
         "    %w0 = arith.constant dense<0.5> : tensor<3x3x16x32xf16>\n"
         "    %a = npu.conv2d %x, %w0 {stride = array<i64: 1, 1>, dilation = "
         "array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>} : "
         "(tensor<1x32x32x16xf16>, tensor<3x3x16x32xf16>) -> "
         "tensor<1x32x32x32xf16> loc(\"conv\")\n"
         "    %w1 = arith.constant dense<0.5> : tensor<3x3x32xf16>\n"
         "    %b = npu.depthwise_conv2d %a, %w1 {stride = array<i64: 1, 1>, "
         "dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>} : "
         "(tensor<1x32x32x32xf16>, tensor<3x3x32xf16>) -> "
         "tensor<1x32x32x32xf16> loc(\"depthwise\")\n"
         "    %w2 = arith.constant dense<0.5> : tensor<1x1x32x32xf16>\n"
         "    %c = npu.conv2d %b, %w2 {stride = array<i64: 1, 1>, dilation = "
         "array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>} : "
         "(tensor<1x32x32x32xf16>, tensor<1x1x32x32xf16>) -> "
         "tensor<1x32x32x32xf16> loc(\"pointwise\")\n"
         "    %d = npu.max_pool2d %c {kernel = array<i64: 2, 2>, stride = "
         "array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>} : "
         "(tensor<1x32x32x32xf16>) -> tensor<1x16x16x32xf16> loc(\"pool\")\n"
         "    %y = npu.add %d, %d : (tensor<1x16x16x32xf16>, "
         "tensor<1x16x16x32xf16>) -> tensor<1x16x16x32xf16> loc(\"add\")\n"
         "    return %y : tensor<1x16x16x32xf16>\n  }\n}\n";
}

/// Lowers the five-op segment (lmem-resident as given), runs it on the
/// simulator and checks every layer's replayed estimate, and the stream's,
/// within `tolerance` of the measured span.
void checkOverlappedSegment(mlir::MLIRContext &ctx, bool lmemResident,
                            double tolerance) {
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(segmentModule(), &ctx);
  ASSERT_TRUE(module);
  mlir::PassManager pm(&ctx);
  NPUToNPUHWPipelineOptions options;
  options.lmemResident = lmemResident;
  buildNPUToNPUHWPipeline(pm, options);
  ASSERT_TRUE(succeeded(pm.run(*module)));
  auto streams = module->getOps<npuhw::StreamOp>();
  ASSERT_EQ(std::distance(streams.begin(), streams.end()), 1);
  mlir::FailureOr<npu::Program> program = npuhw::exportStream(*streams.begin());
  ASSERT_TRUE(succeeded(program));
  auto totals = (*module)->getAttrOfType<mlir::DictionaryAttr>(
      "npu.stream_estimates");
  ASSERT_TRUE(totals);
  auto total = totals.getAs<mlir::IntegerAttr>("segment");
  ASSERT_TRUE(total);

  absl::StatusOr<npu::Simulator> sim = npu::Simulator::create(*program);
  ASSERT_TRUE(sim.ok()) << sim.status();
  absl::StatusOr<npu::RunResult> run = sim->run();
  ASSERT_TRUE(run.ok()) << run.status();
  absl::StatusOr<npu::LayerReport> report =
      npu::buildLayerReport(*program, *run);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->layers.size(), 5u);
  // The ops overlap: their spans add up to more than the run.
  uint64_t spans = 0;
  for (const npu::LayerRow &row : report->layers) {
    SCOPED_TRACE(row.name);
    ASSERT_TRUE(row.hasCost);
    spans += row.cycles();
    std::printf("%-12s estimate %8llu measured %8llu\n", row.name.c_str(),
                static_cast<unsigned long long>(row.cost.estimate),
                static_cast<unsigned long long>(row.cycles()));
    EXPECT_NEAR(double(row.cost.estimate), double(row.cycles()),
                tolerance * double(row.cycles()));
  }
  EXPECT_GT(spans, report->totalCycles);
  EXPECT_NEAR(double(total.getInt()), double(report->totalCycles),
              tolerance * double(report->totalCycles));
}

TEST_F(NPUCostTrackingTest, OverlappedSegmentWithin2PercentOfTheSimulator) {
  // Every intermediate through DRAM: the replay models each engine, the
  // fences and the shared DRAM port, which is all this stream uses.
  checkOverlappedSegment(ctx, /*lmemResident=*/false, 0.02);
}

TEST_F(NPUCostTrackingTest, ResidentSegmentWithin10PercentOfTheSimulator) {
  // With LMEM-resident intermediates the stream adds LMEM-to-LMEM copies on
  // DMA_IN, whose LMEM port contention the replay leaves out (it models no
  // LMEM port stalls): measured, the pool's estimate is 6.6% under its span.
  checkOverlappedSegment(ctx, /*lmemResident=*/true, 0.10);
}

} // namespace
} // namespace kiln
