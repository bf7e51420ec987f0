//===- NPUCostTest.cpp - cost estimates of npu operations -------*- C++ -*-===//
//
// The formulas of NPUCost.h and NPUCostOpInterface on parsed operations,
// on the default preset and on targets with other array sizes and
// bandwidths.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace mlir;
using namespace kiln::npu;

namespace {

TEST(NPUCostFormulas, ConvRoundsChannelsToTheArrayAndWeightLoads) {
  TargetConfig config; // 16x16, weight load 16 cycles
  // 3x3, 20 -> 40 channels: ceil(32/16) * ceil(48/16) passes over 100 pixels.
  EXPECT_EQ(convMacCycles(config, 1, 100, 3, 3, 20, 40, false),
            9u * 2 * 3 * 100);
  // Fewer pixels than the weight load still pays the weight load.
  EXPECT_EQ(convMacCycles(config, 1, 4, 1, 1, 16, 16, false), 16u);
  // fp16 at half rate; the batch multiplies.
  EXPECT_EQ(convMacCycles(config, 3, 100, 1, 1, 16, 16, true), 600u);
  config.macRows = 32;
  config.macCols = 64;
  EXPECT_EQ(convMacCycles(config, 1, 100, 3, 3, 20, 40, false), 9u * 100);
}

TEST(NPUCostFormulas, DepthwiseRunsAtAnEighthOfTheArray) {
  TargetConfig config;
  EXPECT_EQ(depthwiseMacCycles(config, 3200, false), 100u); // 32 per cycle
  EXPECT_EQ(depthwiseMacCycles(config, 3201, false), 101u);
  EXPECT_EQ(depthwiseMacCycles(config, 3200, true), 200u);
  config.macRows = 32;
  EXPECT_EQ(depthwiseMacCycles(config, 3200, false), 50u);
}

TEST(NPUCostFormulas, VecPadsChannelsToLaneVectors) {
  TargetConfig config;
  EXPECT_EQ(vecCycles(config, 10, 3, 1), 10u);     // 3 -> 16 lanes
  EXPECT_EQ(vecCycles(config, 10, 17, 2), 40u);    // 2 blocks, 2 passes
  EXPECT_EQ(vecCycles(config, 10, 16, 1, 9), 90u); // a 3x3 window
  config.vecLanes = 64;
  EXPECT_EQ(vecCycles(config, 10, 16, 1), 3u); // ceil(160 / 64)
  EXPECT_EQ(dramCycles(config, 17), 2u);       // 16 bytes per cycle
}

TEST(NPUCostFormulas, LowerBoundIsTheLargestAndNamesItsEngine) {
  CostEstimate cost;
  cost.usefulMacCycles = 10;
  cost.macCycles = 50; // The padded array time is not part of the bound.
  cost.vecCycles = 30;
  cost.dramCycles = 20;
  cost.cycles = 70;
  EXPECT_EQ(cost.lowerBound(), 30u);
  EXPECT_EQ(cost.estimate(), 70u);
  EXPECT_EQ(cost.bound(), CostBound::VEC);
  cost.dramCycles = 30;
  EXPECT_EQ(cost.bound(), CostBound::VEC); // VEC before DRAM on a tie
  cost.usefulMacCycles = 30;
  EXPECT_EQ(cost.bound(), CostBound::MAC);
  EXPECT_EQ(costBoundName(CostBound::DRAM), "DRAM");
}

class NPUCostInterfaceTest : public ::testing::Test {
protected:
  NPUCostInterfaceTest() {
    context.loadDialect<NPUDialect, func::FuncDialect>();
  }

  /// The first op of \p source that implements the cost interface.
  NPUCostOpInterface firstCostOp(const char *source) {
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return {};
    NPUCostOpInterface found;
    module->walk([&](NPUCostOpInterface op) {
      if (!found)
        found = op;
    });
    return found;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(NPUCostInterfaceTest, FullyConnectedOnTwoTargets) {
  NPUCostOpInterface op = firstCostOp(R"mlir(
    module attributes {npu.target = #npu.target<"realistic">} {
      func.func @f(%x: tensor<8x64xf16>, %w: tensor<64x40xf16>, %b: tensor<40xf16>) -> tensor<8x40xf16> {
        %0 = npu.fully_connected %x, %w, %b {clamp_min = 0.0 : f32}
          : (tensor<8x64xf16>, tensor<64x40xf16>, tensor<40xf16>) -> tensor<8x40xf16>
        return %0 : tensor<8x40xf16>
      }
    })mlir");
  ASSERT_TRUE(op);
  TargetConfig config = targetConfigFor(op);
  EXPECT_EQ(config.dmaDramBytesPerCycle, 4u); // the realistic preset
  CostEstimate cost = op.estimateCost(config);
  EXPECT_EQ(cost.usefulMacs, 8u * 64 * 40);
  // 8 rows pay the 16-cycle weight load: 2 * 4 * 3 * 16 at half rate.
  EXPECT_EQ(cost.macCycles, 2u * 4 * 3 * 16);
  // convert and clamp: two passes over 8 x 48 padded elements (the bias
  // is preloaded into ACC by DMA, not a VEC pass).
  EXPECT_EQ(cost.vecCycles, 2u * 8 * 48 / 16);
  EXPECT_EQ(cost.dramBytes, 2u * (8 * 64 + 64 * 40 + 40 + 8 * 40));
  EXPECT_EQ(cost.dramCycles, cost.dramBytes / 4);
  EXPECT_EQ(cost.bound(), CostBound::DRAM);

  config.dmaDramBytesPerCycle = 64;
  CostEstimate fast = op.estimateCost(config);
  EXPECT_EQ(fast.dramCycles, (cost.dramBytes + 63) / 64);
  // Useful MACs at the fp16 peak: 8 * 64 * 40 / 128.
  EXPECT_EQ(fast.usefulMacCycles, 160u);
  EXPECT_EQ(fast.bound(), CostBound::MAC);
  EXPECT_EQ(fast.lowerBound(), 160u);
  // The prediction pays latency, setup and the array's padding on top.
  EXPECT_GT(fast.estimate(), fast.macCycles);
  EXPECT_GT(cost.estimate(), cost.lowerBound());
}

TEST_F(NPUCostInterfaceTest, Int8ConvCountsChannelRecords) {
  NPUCostOpInterface op = firstCostOp(R"mlir(
    func.func @f(%x: tensor<2x8x8x16x!quant.uniform<i8:f32, 0.5>>,
                 %w: tensor<1x1x16x8x!quant.uniform<i8:f32, 0.1>>)
        -> tensor<2x8x8x8x!quant.uniform<i8:f32, 0.5>> {
      %0 = npu.conv2d %x, %w {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
        : (tensor<2x8x8x16x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x16x8x!quant.uniform<i8:f32, 0.1>>)
        -> tensor<2x8x8x8x!quant.uniform<i8:f32, 0.5>>
      return %0 : tensor<2x8x8x8x!quant.uniform<i8:f32, 0.5>>
    })mlir");
  ASSERT_TRUE(op);
  TargetConfig config = targetConfigFor(op); // no target: "default"
  EXPECT_EQ(config.dmaDramBytesPerCycle, 16u);
  CostEstimate cost = op.estimateCost(config);
  EXPECT_EQ(cost.usefulMacs, 2u * 64 * 16 * 8);
  EXPECT_EQ(cost.macCycles, 2u * 64); // one pass per image
  EXPECT_EQ(cost.usefulMacCycles, 2u * 64 * 16 * 8 / 256);
  EXPECT_EQ(cost.vecCycles, 2u * 64); // 8 channels pad to 16
  // 2048 input + 128 weight + 1024 output bytes + 8 records of 16 bytes.
  EXPECT_EQ(cost.dramBytes, 2048u + 128 + 1024 + 128);
  EXPECT_EQ(cost.dramCycles, 208u);
  EXPECT_EQ(cost.bound(), CostBound::DRAM);
}

TEST_F(NPUCostInterfaceTest, SumPoolCountsTheWindow) {
  NPUCostOpInterface op = firstCostOp(R"mlir(
    func.func @f(%x: tensor<1x6x6x16xf16>) -> tensor<1x2x2x16xf32> {
      %0 = npu.sum_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 3, 3>, pad = array<i64: 0, 0, 0, 0>}
        : (tensor<1x6x6x16xf16>) -> tensor<1x2x2x16xf32>
      return %0 : tensor<1x2x2x16xf32>
    })mlir");
  ASSERT_TRUE(op);
  CostEstimate cost = op.estimateCost(TargetConfig());
  EXPECT_EQ(cost.usefulMacs, 0u);
  EXPECT_EQ(cost.macCycles, 0u);
  EXPECT_EQ(cost.vecCycles, 4u * 9);
  EXPECT_EQ(cost.dramBytes, 6u * 6 * 16 * 2 + 4 * 16 * 4);
}

TEST_F(NPUCostInterfaceTest, UnaryOpsAreOneVecPass) {
  std::string table = "array<i8: 0";
  for (int i = 1; i < 256; ++i)
    table += ", 0";
  table += ">";
  std::string source = R"mlir(
    module attributes {npu.target = #npu.target<"default", {"vec.lanes" = 32 : i64}>} {
      func.func @f(%x: tensor<4x20x!quant.uniform<i8:f32, 0.1>>, %i: tensor<4x20xi32>)
          -> (tensor<4x20x!quant.uniform<i8:f32, 0.2>>, tensor<4x20xf32>) {
        %t = npu.table %x {table = TABLE}
          : (tensor<4x20x!quant.uniform<i8:f32, 0.1>>) -> tensor<4x20x!quant.uniform<i8:f32, 0.1>>
        %r = npu.rescale %t : (tensor<4x20x!quant.uniform<i8:f32, 0.1>>) -> tensor<4x20x!quant.uniform<i8:f32, 0.2>>
        %c = npu.clamp %i {min = 0 : i64, max = 10 : i64} : (tensor<4x20xi32>) -> tensor<4x20xi32>
        %f = npu.convert %c : (tensor<4x20xi32>) -> tensor<4x20xf32>
        return %r, %f : tensor<4x20x!quant.uniform<i8:f32, 0.2>>, tensor<4x20xf32>
      }
    })mlir";
  source.replace(source.find("TABLE"), 5, table);
  module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  std::vector<CostEstimate> costs;
  module->walk([&](NPUCostOpInterface op) {
    costs.push_back(op.estimateCostOnTarget());
  });
  ASSERT_EQ(costs.size(), 4u);
  for (const CostEstimate &cost : costs) {
    EXPECT_EQ(cost.usefulMacs, 0u);
    EXPECT_EQ(cost.macCycles, 0u);
    // The flat layout: 80 elements are 5 vectors of 16, 80 lanes at 32
    // per cycle (not 4 pixels of 20 channels padded to 32 lanes).
    EXPECT_EQ(cost.vecCycles, 3u);
  }
  EXPECT_EQ(costs[0].dramBytes, 80u + 80 + 256); // the table comes too
  EXPECT_EQ(costs[1].dramBytes, 80u + 80);
  EXPECT_EQ(costs[2].dramBytes, 320u + 320);
  EXPECT_EQ(costs[3].dramBytes, 320u + 320);
  EXPECT_EQ(costs[3].dramCycles, 40u);
}

TEST(NPUCostFormulas, FlatVecCountsElementsNotPaddedChannels) {
  TargetConfig config;
  // 112 x 112 x 3 elements in vectors of 16 (what the element-wise
  // lowering runs), not 12544 pixels of 3 channels padded to 16 lanes.
  EXPECT_EQ(flatVecCycles(config, 112 * 112 * 3, 1), 2352u);
  EXPECT_EQ(vecCycles(config, 112 * 112, 3, 1), 12544u);
  EXPECT_EQ(flatVecCycles(config, 17, 2), 4u); // 2 vectors, 2 passes
  config.vecLanes = 64;
  EXPECT_EQ(flatVecCycles(config, 17, 1), 1u); // 32 lanes at 64 a cycle
}

TEST_F(NPUCostInterfaceTest, EltwiseVecTermFollowsTheLayout) {
  module = parseSourceString<ModuleOp>(R"mlir(
    func.func @f(%x: tensor<1x112x112x3xf16>, %y: tensor<1x112x112x3xf16>,
                 %s: tensor<1xf16>, %c: tensor<3xf16>)
        -> (tensor<1x112x112x3xf16>, tensor<1x112x112x3xf16>,
            tensor<1x112x112x3xf16>) {
      %0 = npu.sub %x, %y : (tensor<1x112x112x3xf16>, tensor<1x112x112x3xf16>) -> tensor<1x112x112x3xf16>
      %1 = npu.mul %0, %s : (tensor<1x112x112x3xf16>, tensor<1xf16>) -> tensor<1x112x112x3xf16>
      %2 = npu.add %1, %c : (tensor<1x112x112x3xf16>, tensor<3xf16>) -> tensor<1x112x112x3xf16>
      return %0, %1, %2 : tensor<1x112x112x3xf16>, tensor<1x112x112x3xf16>, tensor<1x112x112x3xf16>
    })mlir",
                                     &context);
  ASSERT_TRUE(module);
  std::vector<CostEstimate> costs;
  module->walk([&](NPUCostOpInterface op) {
    costs.push_back(op.estimateCost(TargetConfig()));
  });
  ASSERT_EQ(costs.size(), 3u);
  // TENSOR and SCALAR broadcasts run flat: 37632 elements, 2352 vectors.
  EXPECT_EQ(costs[0].vecCycles, 2352u);
  EXPECT_EQ(costs[1].vecCycles, 2352u);
  // A CHANNEL broadcast pads each pixel's 3 channels to a lane vector.
  EXPECT_EQ(costs[2].vecCycles, 12544u);
}

TEST_F(NPUCostInterfaceTest, Fp16ConvBiasIsNotAVecPass) {
  NPUCostOpInterface op = firstCostOp(R"mlir(
    func.func @f(%x: tensor<1x8x8x16xf16>, %w: tensor<1x1x16x16xf16>,
                 %b: tensor<16xf16>) -> tensor<1x8x8x16xf16> {
      %0 = npu.conv2d %x, %w, %b {stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>}
        : (tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>, tensor<16xf16>) -> tensor<1x8x8x16xf16>
      return %0 : tensor<1x8x8x16xf16>
    })mlir");
  ASSERT_TRUE(op);
  // One VEC_UNARY CONVERT over 64 pixels; no clamp, and the bias is a DMA
  // preload of the accumulators.
  EXPECT_EQ(op.estimateCost(TargetConfig()).vecCycles, 64u);
}

} // namespace
