//===- NPUQuantTest.cpp - npu quantisation helpers --------------*- C++ -*-===//
//
// quantizeMultiplier, the activation tables of npu.table and the TableOp
// builder that uses them.
//
//===----------------------------------------------------------------------===//

#include "dialects/NPU/IR/NPUOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln::npu;

namespace {

TEST(NPUQuantizeMultiplier, SplitsIntoMantissaAndExponent) {
  auto half = quantizeMultiplier(0.5);
  ASSERT_TRUE(half);
  EXPECT_EQ(half->multiplier, 1 << 30);
  EXPECT_EQ(half->exponent, 0);

  auto one = quantizeMultiplier(1.0);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->multiplier, 1 << 30);
  EXPECT_EQ(one->exponent, 1);

  auto threeQuarters = quantizeMultiplier(0.75);
  ASSERT_TRUE(threeQuarters);
  EXPECT_EQ(threeQuarters->multiplier, 1610612736);
  EXPECT_EQ(threeQuarters->exponent, 0);
}

TEST(NPUQuantizeMultiplier, MantissaRoundingUpCarriesIntoTheExponent) {
  // 1 - 2^-40 rounds to a 31-bit mantissa of 2^31, which is renormalised.
  auto q = quantizeMultiplier(1.0 - std::ldexp(1.0, -40));
  ASSERT_TRUE(q);
  EXPECT_EQ(q->multiplier, 1 << 30);
  EXPECT_EQ(q->exponent, 1);
}

TEST(NPUQuantizeMultiplier, RejectsNonPositiveAndNonFinite) {
  EXPECT_FALSE(quantizeMultiplier(0.0));
  EXPECT_FALSE(quantizeMultiplier(-0.25));
  EXPECT_FALSE(quantizeMultiplier(INFINITY));
  EXPECT_FALSE(quantizeMultiplier(NAN));
}

class NPUActivationTableTest : public ::testing::Test {
protected:
  NPUActivationTableTest() {
    context.loadDialect<NPUDialect, func::FuncDialect>();
  }

  quant::UniformQuantizedType qi8(double scale, int64_t zeroPoint) {
    return quant::UniformQuantizedType::get(
        quant::QuantizationFlags::Signed, IntegerType::get(&context, 8),
        Float32Type::get(&context), scale, zeroPoint, -128, 127);
  }

  MLIRContext context;
};

TEST_F(NPUActivationTableTest, Relu6SaturatesAndRoundsToNearest) {
  auto table = computeActivationTable(Activation::Relu6, qi8(0.1, 0),
                                      qi8(6.0 / 255, -128));
  EXPECT_EQ(table[0], -128);       // -12.8 -> 0
  EXPECT_EQ(table[128], -128);     // 0 -> 0
  EXPECT_EQ(table[128 + 10], -85); // 1.0 / (6/255) = 42.5 rounds to 43
  EXPECT_EQ(table[128 + 60], 127); // 6.0
  EXPECT_EQ(table[255], 127);      // 12.7 -> 6
}

TEST_F(NPUActivationTableTest, SigmoidTanhAndHardSwish) {
  auto sigmoid = computeActivationTable(Activation::Sigmoid, qi8(0.1, 3),
                                        qi8(1.0 / 256, -128));
  EXPECT_EQ(sigmoid[128 + 3], 0); // sigmoid(0) = 0.5 -> 128 - 128
  EXPECT_EQ(sigmoid[0], -128);    // sigmoid(-13.1) -> 0
  EXPECT_EQ(sigmoid[255], 127);   // sigmoid(12.4) -> 255 saturates

  auto tanh =
      computeActivationTable(Activation::Tanh, qi8(0.05, 0), qi8(1.0 / 128, 0));
  EXPECT_EQ(tanh[128], 0);
  EXPECT_EQ(tanh[128 + 20], 97); // tanh(1.0) * 128 = 97.48
  EXPECT_EQ(tanh[128 - 20], -97);

  auto hardSwish =
      computeActivationTable(Activation::HardSwish, qi8(0.1, 0), qi8(0.1, 0));
  EXPECT_EQ(hardSwish[128 - 30], 0);  // hardswish(-3) = 0
  EXPECT_EQ(hardSwish[128 + 30], 30); // hardswish(3) = 3
  EXPECT_EQ(hardSwish[128 + 10], 7);  // 1 * 4 / 6 = 0.667 -> 6.67 -> 7

  auto relu =
      computeActivationTable(Activation::Relu, qi8(0.5, -10), qi8(0.5, -10));
  EXPECT_EQ(relu[0], -10);       // negative inputs -> the zero point
  EXPECT_EQ(relu[128 + 50], 50); // identity above the zero point
}

TEST_F(NPUActivationTableTest, TableBuilderComputesTheTable) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  auto module = ModuleOp::create(builder, loc);
  builder.setInsertionPointToEnd(module.getBody());
  auto inType = RankedTensorType::get({4}, qi8(0.1, 3));
  auto outType = RankedTensorType::get({4}, qi8(1.0 / 256, -128));
  auto func = func::FuncOp::create(builder, loc, "f",
                                   builder.getFunctionType({inType}, {}));
  builder.setInsertionPointToEnd(func.addEntryBlock());
  auto op = TableOp::create(builder, loc, outType, func.getArgument(0),
                            Activation::Sigmoid);
  func::ReturnOp::create(builder, loc);
  EXPECT_TRUE(succeeded(verify(module)));
  auto expected = computeActivationTable(Activation::Sigmoid, qi8(0.1, 3),
                                         qi8(1.0 / 256, -128));
  EXPECT_EQ(op.getTable(), ArrayRef<int8_t>(expected));
  module->erase();
}

} // namespace
