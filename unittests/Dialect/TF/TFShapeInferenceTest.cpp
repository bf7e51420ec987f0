//===- TFShapeInferenceTest.cpp - shape functions of tf ops -----*- C++ -*-===//
//
// The ShapeInferenceOpInterface of the generated tf ops, driven directly:
// each op of the test IR that carries an `expected` attribute (one type per
// result) must infer exactly those types; the error cases must fail with a
// diagnostic naming the problem.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFShapeInference.h"
#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace mlir;

namespace {

class TFShapeInferenceTest : public ::testing::Test {
protected:
  TFShapeInferenceTest() {
    context.loadDialect<kiln::tf::TFDialect, func::FuncDialect>();
  }

  OwningOpRef<ModuleOp> parse(const char *source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  /// Runs inferResultTypes on every op with an `expected` attribute, in
  /// order, refining result types as it goes; returns how many were checked.
  int checkExpected(ModuleOp module) {
    int checked = 0;
    module.walk([&](Operation *op) {
      auto expected = op->getAttrOfType<ArrayAttr>("expected");
      if (!expected)
        return;
      ++checked;
      std::string where;
      llvm::raw_string_ostream os(where);
      op->print(os);
      auto iface = dyn_cast<kiln::tf::ShapeInferenceOpInterface>(op);
      ASSERT_TRUE(iface) << "no shape inference: " << where;
      SmallVector<Type> types;
      ASSERT_TRUE(succeeded(iface.inferResultTypes(types))) << where;
      ASSERT_EQ(types.size(), expected.size()) << where;
      for (auto [type, want] : llvm::zip(types, expected))
        EXPECT_EQ(type, cast<TypeAttr>(want).getValue())
            << where << "\n  inferred: " << debugString(type);
      // Refine in place, as a shape inference pass would, so later ops see
      // the inferred types.
      for (auto [result, type] : llvm::zip(op->getResults(), types))
        result.setType(type);
    });
    return checked;
  }

  /// Runs inferResultTypes on the single op named `name` in `module`,
  /// expecting failure; returns the diagnostic it emitted.
  std::string inferError(ModuleOp module, StringRef name) {
    std::string message;
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    bool failedAsExpected = false;
    module.walk([&](kiln::tf::ShapeInferenceOpInterface iface) {
      if (iface->getName().getStringRef() != name)
        return;
      SmallVector<Type> types;
      failedAsExpected = failed(iface.inferResultTypes(types));
    });
    EXPECT_TRUE(failedAsExpected) << name.str() << " did not fail";
    return message;
  }

  static std::string debugString(Type type) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << type;
    return s;
  }

  MLIRContext context;
};

TEST_F(TFShapeInferenceTest, ElementwiseAndBroadcast) {
  auto module = parse(R"mlir(
    func.func @f(%a: tensor<2x1x3xf32>, %b: tensor<4x1xf32>, %c: tensor<?x3xf32>,
                 %d: tensor<1x3xf32>, %e: tensor<5x3xf32>, %u: tensor<*xf32>,
                 %i: tensor<4xi32>, %p: tensor<2x1x1xi1>,
                 %bias: tensor<3xf32>) {
      %0 = "tf.Relu"(%a) {expected = [tensor<2x1x3xf32>]} : (tensor<2x1x3xf32>) -> tensor<*xf32>
      %1 = "tf.Cast"(%i) {expected = [tensor<4xf32>]} : (tensor<4xi32>) -> tensor<*xf32>
      %2 = "tf.AddV2"(%a, %b) {expected = [tensor<2x4x3xf32>]} : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<*xf32>
      %3 = "tf.Mul"(%c, %d) {expected = [tensor<?x3xf32>]} : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<*xf32>
      %4 = "tf.Sub"(%c, %e) {expected = [tensor<5x3xf32>]} : (tensor<?x3xf32>, tensor<5x3xf32>) -> tensor<*xf32>
      %5 = "tf.AddV2"(%c, %u) {expected = [tensor<*xf32>]} : (tensor<?x3xf32>, tensor<*xf32>) -> tensor<*xf32>
      %6 = "tf.Less"(%d, %e) {expected = [tensor<5x3xi1>]} : (tensor<1x3xf32>, tensor<5x3xf32>) -> tensor<*xi1>
      %7 = "tf.SelectV2"(%p, %d, %e) {expected = [tensor<2x5x3xf32>]} : (tensor<2x1x1xi1>, tensor<1x3xf32>, tensor<5x3xf32>) -> tensor<*xf32>
      %8 = "tf.Relu"(%c) {expected = [tensor<2x3xf32>]} : (tensor<?x3xf32>) -> tensor<2x?xf32>
      %9:2 = "tf.IdentityN"(%a, %i) {expected = [tensor<2x1x3xf32>, tensor<4xi32>]} : (tensor<2x1x3xf32>, tensor<4xi32>) -> (tensor<*xf32>, tensor<*xi32>)
      %10 = "tf.BiasAdd"(%e, %bias) {expected = [tensor<5x3xf32>]} : (tensor<5x3xf32>, tensor<3xf32>) -> tensor<*xf32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(checkExpected(*module), 11);
}

TEST_F(TFShapeInferenceTest, BroadcastSelectV2WithDynamic) {
  // A dynamic condition dimension against a static 1 stays dynamic.
  auto module = parse(R"mlir(
    func.func @f(%p: tensor<?xi1>, %t: tensor<1xf32>) {
      %0 = "tf.SelectV2"(%p, %t, %t) {expected = [tensor<?xf32>]} : (tensor<?xi1>, tensor<1xf32>, tensor<1xf32>) -> tensor<*xf32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(checkExpected(*module), 1);
}

TEST_F(TFShapeInferenceTest, Reductions) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<2x3x4xf32>, %axes: tensor<1xi32>) {
      %c1 = "tf.Const"() {value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
      %cm1 = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
      %c02 = "tf.Const"() {value = dense<[0, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
      %0 = "tf.Sum"(%x, %c1) {expected = [tensor<2x4xf32>]} : (tensor<2x3x4xf32>, tensor<1xi32>) -> tensor<*xf32>
      %1 = "tf.Mean"(%x, %c1) {keep_dims = true, expected = [tensor<2x1x4xf32>]} : (tensor<2x3x4xf32>, tensor<1xi32>) -> tensor<*xf32>
      %2 = "tf.Max"(%x, %cm1) {expected = [tensor<2x3xf32>]} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<*xf32>
      %3 = "tf.Prod"(%x, %c02) {expected = [tensor<3xf32>]} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<*xf32>
      %4 = "tf.Min"(%x, %axes) {keep_dims = true, expected = [tensor<?x?x?xf32>]} : (tensor<2x3x4xf32>, tensor<1xi32>) -> tensor<*xf32>
      %5 = "tf.Sum"(%x, %axes) {expected = [tensor<?x?xf32>]} : (tensor<2x3x4xf32>, tensor<1xi32>) -> tensor<*xf32>
      %6 = "tf.ArgMax"(%x, %cm1) {expected = [tensor<2x3xi64>]} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<*xi64>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(checkExpected(*module), 7);
}

TEST_F(TFShapeInferenceTest, ShapesAndLayout) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<2x3x2xf32>, %s: tensor<2xi32>, %y: tensor<2x?x3xf32>,
                 %z: tensor<1x3x1xf32>, %a: tensor<2x3xf32>, %b: tensor<2x5xf32>,
                 %d: tensor<2x?xf32>, %v: tensor<f32>) {
      %shape = "tf.Const"() {value = dense<[3, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
      %0 = "tf.Reshape"(%x, %shape) {expected = [tensor<3x4xf32>]} : (tensor<2x3x2xf32>, tensor<2xi32>) -> tensor<*xf32>
      %1 = "tf.Reshape"(%x, %s) {expected = [tensor<?x?xf32>]} : (tensor<2x3x2xf32>, tensor<2xi32>) -> tensor<*xf32>
      %2 = "tf.Shape"(%y) {expected = [tensor<3xi32>]} : (tensor<2x?x3xf32>) -> tensor<?xi32>
      %3 = "tf.Size"(%y) {expected = [tensor<i64>]} : (tensor<2x?x3xf32>) -> tensor<*xi64>
      %m1 = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
      %4 = "tf.ExpandDims"(%a, %m1) {expected = [tensor<2x3x1xf32>]} : (tensor<2x3xf32>, tensor<i32>) -> tensor<*xf32>
      %5 = "tf.Squeeze"(%z) {expected = [tensor<3xf32>]} : (tensor<1x3x1xf32>) -> tensor<*xf32>
      %6 = "tf.Squeeze"(%z) {squeeze_dims = [0], expected = [tensor<3x1xf32>]} : (tensor<1x3x1xf32>) -> tensor<*xf32>
      %7 = "tf.Squeeze"(%d) {expected = [tensor<*xf32>]} : (tensor<2x?xf32>) -> tensor<*xf32>
      %perm = "tf.Const"() {value = dense<[1, 0, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
      %8 = "tf.Transpose"(%y, %perm) {expected = [tensor<?x2x3xf32>]} : (tensor<2x?x3xf32>, tensor<3xi32>) -> tensor<*xf32>
      %c1 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      %9 = "tf.ConcatV2"(%a, %b, %c1) {expected = [tensor<2x8xf32>]} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<i32>) -> tensor<*xf32>
      %10 = "tf.ConcatV2"(%d, %b, %c1) {expected = [tensor<2x?xf32>]} : (tensor<2x?xf32>, tensor<2x5xf32>, tensor<i32>) -> tensor<*xf32>
      %11 = "tf.Pack"(%a, %a, %a) {axis = 1 : i64, expected = [tensor<2x3x3xf32>]} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
      %12:2 = "tf.Unpack"(%a) {expected = [tensor<3xf32>, tensor<3xf32>]} : (tensor<2x3xf32>) -> (tensor<*xf32>, tensor<*xf32>)
      %dims = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
      %13 = "tf.Fill"(%dims, %v) {expected = [tensor<2x3xf32>]} : (tensor<2xi64>, tensor<f32>) -> tensor<*xf32>
      %14 = "tf.BroadcastTo"(%a, %s) {expected = [tensor<?x?xf32>]} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<*xf32>
      %pads = "tf.Const"() {value = dense<[[1, 1], [2, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
      %15 = "tf.Pad"(%a, %pads) {expected = [tensor<4x5xf32>]} : (tensor<2x3xf32>, tensor<2x2xi32>) -> tensor<*xf32>
      %16 = "tf.PadV2"(%d, %pads, %v) {expected = [tensor<4x?xf32>]} : (tensor<2x?xf32>, tensor<2x2xi32>, tensor<f32>) -> tensor<*xf32>
      %cond = "tf.Const"() {value = dense<true> : tensor<2x3xi1>} : () -> tensor<2x3xi1>
      %17 = "tf.Select"(%cond, %a, %a) {expected = [tensor<2x3xf32>]} : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
      %18 = "tf.Where"(%cond) {expected = [tensor<?x2xi64>]} : (tensor<2x3xi1>) -> tensor<*xi64>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(checkExpected(*module), 19);
}

TEST_F(TFShapeInferenceTest, MatMulAndConvolution) {
  auto module = parse(R"mlir(
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<2x8xf32>, %bias: tensor<2xf32>,
                 %x: tensor<5x1x4x8xf32>, %y: tensor<3x8x2xf32>,
                 %img: tensor<1x9x9x3xf32>, %nchw: tensor<1x3x9x9xf32>,
                 %w: tensor<3x3x3x16xf32>, %dw: tensor<3x3x3x2xf32>,
                 %in8: tensor<1x8x8x3xf32>, %in7: tensor<1x7x7x3xf32>,
                 %dy: tensor<1x4x4x16xf32>, %w2: tensor<3x3x8x16xf32>) {
      %0 = "tf.MatMul"(%a, %b) {transpose_b = true, expected = [tensor<4x2xf32>]} : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<*xf32>
      %1 = "tf._FusedMatMul"(%a, %b, %bias) {transpose_b = true, fused_ops = ["BiasAdd"], expected = [tensor<4x2xf32>]} : (tensor<4x8xf32>, tensor<2x8xf32>, tensor<2xf32>) -> tensor<*xf32>
      %2 = "tf.BatchMatMulV2"(%x, %y) {expected = [tensor<5x3x4x2xf32>]} : (tensor<5x1x4x8xf32>, tensor<3x8x2xf32>) -> tensor<*xf32>
      %3 = "tf.Conv2D"(%img, %w) {padding = "SAME", strides = [1, 2, 2, 1], expected = [tensor<1x5x5x16xf32>]} : (tensor<1x9x9x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
      %4 = "tf.Conv2D"(%img, %w) {padding = "VALID", strides = [1, 1, 1, 1], dilations = [1, 2, 2, 1], expected = [tensor<1x5x5x16xf32>]} : (tensor<1x9x9x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
      %5 = "tf.Conv2D"(%nchw, %w) {padding = "SAME", strides = [1, 1, 1, 1], data_format = "NCHW", expected = [tensor<1x16x9x9xf32>]} : (tensor<1x3x9x9xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
      %6 = "tf.Conv2D"(%img, %w) {padding = "EXPLICIT", explicit_paddings = [0, 0, 1, 1, 2, 2, 0, 0], strides = [1, 1, 1, 1], expected = [tensor<1x9x11x16xf32>]} : (tensor<1x9x9x3xf32>, tensor<3x3x3x16xf32>) -> tensor<*xf32>
      %7 = "tf.DepthwiseConv2dNative"(%in8, %dw) {padding = "VALID", strides = [1, 1, 1, 1], expected = [tensor<1x6x6x6xf32>]} : (tensor<1x8x8x3xf32>, tensor<3x3x3x2xf32>) -> tensor<*xf32>
      %8 = "tf._FusedConv2D"(%img, %w, %bias) {padding = "SAME", strides = [1, 1, 1, 1], fused_ops = ["BiasAdd"], expected = [tensor<1x9x9x16xf32>]} : (tensor<1x9x9x3xf32>, tensor<3x3x3x16xf32>, tensor<2xf32>) -> tensor<*xf32>
      %9 = "tf.MaxPool"(%in8) {ksize = [1, 2, 2, 1], padding = "VALID", strides = [1, 2, 2, 1], expected = [tensor<1x4x4x3xf32>]} : (tensor<1x8x8x3xf32>) -> tensor<*xf32>
      %10 = "tf.AvgPool"(%in7) {ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1], expected = [tensor<1x4x4x3xf32>]} : (tensor<1x7x7x3xf32>) -> tensor<*xf32>
      %sizes = "tf.Const"() {value = dense<[1, 8, 8, 8]> : tensor<4xi32>} : () -> tensor<4xi32>
      %11 = "tf.Conv2DBackpropInput"(%sizes, %w2, %dy) {padding = "SAME", strides = [1, 2, 2, 1], expected = [tensor<1x8x8x8xf32>]} : (tensor<4xi32>, tensor<3x3x8x16xf32>, tensor<1x4x4x16xf32>) -> tensor<*xf32>
      %hw = "tf.Const"() {value = dense<[16, 12]> : tensor<2xi32>} : () -> tensor<2xi32>
      %12 = "tf.ResizeBilinear"(%in8, %hw) {expected = [tensor<1x16x12x3xf32>]} : (tensor<1x8x8x3xf32>, tensor<2xi32>) -> tensor<*xf32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(checkExpected(*module), 13);
}

TEST_F(TFShapeInferenceTest, SlicingGatheringSplitting) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<4x6x8xf32>, %p: tensor<5x3xf32>, %i: tensor<2x4xi32>,
                 %t: tensor<2x10xf32>, %d: tensor<?x6xf32>,
                 %i2: tensor<2xi32>) {
      %b = "tf.Const"() {value = dense<[1, 0, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
      %e = "tf.Const"() {value = dense<[3, 0, -1]> : tensor<3xi32>} : () -> tensor<3xi32>
      %s = "tf.Const"() {value = dense<[1, 1, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
      %0 = "tf.StridedSlice"(%x, %b, %e, %s) {end_mask = 2 : i64, expected = [tensor<2x6x3xf32>]} : (tensor<4x6x8xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<*xf32>
      %1 = "tf.StridedSlice"(%x, %b, %e, %s) {shrink_axis_mask = 1 : i64, end_mask = 2 : i64, expected = [tensor<6x3xf32>]} : (tensor<4x6x8xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<*xf32>
      %b2 = "tf.Const"() {value = dense<[0, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
      %e2 = "tf.Const"() {value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
      %s2 = "tf.Const"() {value = dense<[1, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
      %2 = "tf.StridedSlice"(%x, %b2, %e2, %s2) {ellipsis_mask = 1 : i64, expected = [tensor<4x6x2xf32>]} : (tensor<4x6x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %3 = "tf.StridedSlice"(%x, %b2, %e2, %s2) {new_axis_mask = 1 : i64, expected = [tensor<1x2x6x8xf32>]} : (tensor<4x6x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %rb = "tf.Const"() {value = dense<[-1]> : tensor<1xi32>} : () -> tensor<1xi32>
      %rs = "tf.Const"() {value = dense<[-1]> : tensor<1xi32>} : () -> tensor<1xi32>
      %4 = "tf.StridedSlice"(%x, %rb, %rb, %rs) {end_mask = 1 : i64, expected = [tensor<4x6x8xf32>]} : (tensor<4x6x8xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %dyn = "tf.StridedSlice"(%x, %b2, %i2, %s2) {shrink_axis_mask = 1 : i64, expected = [tensor<?x8xf32>]} : (tensor<4x6x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %sb = "tf.Const"() {value = dense<[1, 2, 0]> : tensor<3xi64>} : () -> tensor<3xi64>
      %ss = "tf.Const"() {value = dense<[2, -1, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
      %5 = "tf.Slice"(%x, %sb, %ss) {expected = [tensor<2x4x4xf32>]} : (tensor<4x6x8xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<*xf32>
      %m = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
      %6 = "tf.Tile"(%d, %m) {expected = [tensor<?x18xf32>]} : (tensor<?x6xf32>, tensor<2xi32>) -> tensor<*xf32>
      %a0 = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
      %7 = "tf.GatherV2"(%p, %i, %a0) {expected = [tensor<2x4x3xf32>]} : (tensor<5x3xf32>, tensor<2x4xi32>, tensor<i32>) -> tensor<*xf32>
      %a1 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      %8:2 = "tf.Split"(%a1, %x) {expected = [tensor<4x3x8xf32>, tensor<4x3x8xf32>]} : (tensor<i32>, tensor<4x6x8xf32>) -> (tensor<*xf32>, tensor<*xf32>)
      %sz = "tf.Const"() {value = dense<[2, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
      %9:2 = "tf.SplitV"(%x, %sz, %a1) {expected = [tensor<4x2x8xf32>, tensor<4x4x8xf32>]} : (tensor<4x6x8xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>)
      %k = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
      %10:2 = "tf.TopKV2"(%t, %k) {expected = [tensor<2x3xf32>, tensor<2x3xi32>]} : (tensor<2x10xf32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xi32>)
      %start = "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
      %delta = "tf.Const"() {value = dense<-3> : tensor<i32>} : () -> tensor<i32>
      %11 = "tf.Range"(%start, %a0, %delta) {expected = [tensor<4xi32>]} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(checkExpected(*module), 13);
}

TEST_F(TFShapeInferenceTest, EinsumAndRearrangements) {
  auto module = parse(R"mlir(
    func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<7x2x3x4xf32>,
                 %d: tensor<1x4x4x8xf32>, %e: tensor<1x6x6x3xf32>, %g: tensor<5x3x2xf32>,
                 %gi: tensor<4x2xi32>, %h: tensor<!tf_type.resource<tensor<2x3xf32>>>,
                 %boxes: tensor<10x4xf32>, %scores: tensor<10xf32>, %thr: tensor<f32>) {
      %0 = "tf.Einsum"(%a, %b) {equation = "abc,cd->abd", expected = [tensor<2x3x5xf32>]} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<*xf32>
      %1 = "tf.Einsum"(%c, %b) {equation = "...c,cd->...d", expected = [tensor<7x2x3x5xf32>]} : (tensor<7x2x3x4xf32>, tensor<4x5xf32>) -> tensor<*xf32>
      %2 = "tf.Einsum"(%a) {equation = "abc", expected = [tensor<2x3x4xf32>]} : (tensor<2x3x4xf32>) -> tensor<*xf32>
      %3 = "tf.Einsum"(%a, %b) {equation = "abc, cd", expected = [tensor<2x3x5xf32>]} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<*xf32>
      %4 = "tf.DepthToSpace"(%d) {block_size = 2 : i64, expected = [tensor<1x8x8x2xf32>]} : (tensor<1x4x4x8xf32>) -> tensor<*xf32>
      %block = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
      %pads = "tf.Const"() {value = dense<[[1, 1], [0, 2]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
      %5 = "tf.SpaceToBatchND"(%e, %block, %pads) {expected = [tensor<4x4x4x3xf32>]} : (tensor<1x6x6x3xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<*xf32>
      %6 = "tf.BatchToSpaceND"(%5, %block, %pads) {expected = [tensor<1x6x6x3xf32>]} : (tensor<*xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<*xf32>
      %7 = "tf.GatherNd"(%g, %gi) {expected = [tensor<4x2xf32>]} : (tensor<5x3x2xf32>, tensor<4x2xi32>) -> tensor<*xf32>
      %8 = "tf.ReadVariableOp"(%h) {expected = [tensor<2x3xf32>]} : (tensor<!tf_type.resource<tensor<2x3xf32>>>) -> tensor<*xf32>
      %max = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
      %9:3 = "tf.NonMaxSuppressionV5"(%boxes, %scores, %max, %thr, %thr, %thr) {pad_to_max_output_size = true, expected = [tensor<5xi32>, tensor<5xf32>, tensor<i32>]} : (tensor<10x4xf32>, tensor<10xf32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<*xi32>, tensor<*xf32>, tensor<*xi32>)
      %10 = "tf.NonMaxSuppressionV3"(%boxes, %scores, %max, %thr, %thr) {expected = [tensor<?xi32>]} : (tensor<10x4xf32>, tensor<10xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<*xi32>
      %oshape = "tf.Const"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
      %11 = "tf.SparseToDense"(%gi, %oshape, %scores, %thr) {expected = [tensor<3x4xf32>]} : (tensor<4x2xi32>, tensor<2xi64>, tensor<10xf32>, tensor<f32>) -> tensor<*xf32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(checkExpected(*module), 12);
}

TEST_F(TFShapeInferenceTest, ReshapeElementCountMismatch) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<2x3xf32>) {
      %shape = "tf.Const"() {value = dense<[4, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
      %0 = "tf.Reshape"(%x, %shape) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<*xf32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_NE(inferError(*module, "tf.Reshape")
                .find("requires the shape to have 6 elements"),
            std::string::npos);
}

TEST_F(TFShapeInferenceTest, BroadcastMismatch) {
  // AddN has no broadcasting trait to reject this at verification.
  auto module = parse(R"mlir(
    func.func @f(%a: tensor<?x3xf32>, %b: tensor<4xf32>) {
      %0 = "tf.AddN"(%a, %b) : (tensor<?x3xf32>, tensor<4xf32>) -> tensor<*xf32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(inferError(*module, "tf.AddN"),
            "'tf.AddN' op requires broadcast-compatible operand shapes, got "
            "'tensor<?x3xf32>' and 'tensor<4xf32>'");
}

TEST_F(TFShapeInferenceTest, ReductionAxisOutOfRange) {
  auto module = parse(R"mlir(
    func.func @f(%x: tensor<2x3xf32>) {
      %axis = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
      %0 = "tf.Sum"(%x, %axis) : (tensor<2x3xf32>, tensor<i32>) -> tensor<*xf32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(inferError(*module, "tf.Sum"),
            "'tf.Sum' op requires reduction axis to be in [-2, 2), got 2");
}

TEST_F(TFShapeInferenceTest, ConcatMismatchedDimension) {
  auto module = parse(R"mlir(
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
      %axis = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
      %0 = "tf.ConcatV2"(%a, %b, %axis) : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<i32>) -> tensor<*xf32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(inferError(*module, "tf.ConcatV2"),
            "'tf.ConcatV2' op requires values to agree on dimension 0, got 2 "
            "and 4");
}

TEST_F(TFShapeInferenceTest, MatMulContractionMismatch) {
  auto module = parse(R"mlir(
    func.func @f(%a: tensor<4x8xf32>, %b: tensor<7x2xf32>) {
      %0 = "tf.MatMul"(%a, %b) : (tensor<4x8xf32>, tensor<7x2xf32>) -> tensor<*xf32>
      return
    }
  )mlir");
  ASSERT_TRUE(module);
  EXPECT_EQ(inferError(*module, "tf.MatMul"),
            "'tf.MatMul' op requires matching contraction dimensions, got 8 "
            "and 7");
}

TEST(TFShapeHelpers, BroadcastShapes) {
  constexpr int64_t dyn = ShapedType::kDynamic;
  SmallVector<int64_t> out;
  ASSERT_TRUE(succeeded(kiln::tf::broadcastShapes({2, 1, 3}, {4, 1}, out)));
  EXPECT_EQ(out, (SmallVector<int64_t>{2, 4, 3}));
  ASSERT_TRUE(succeeded(kiln::tf::broadcastShapes({dyn, 3}, {1}, out)));
  EXPECT_EQ(out, (SmallVector<int64_t>{dyn, 3}));
  ASSERT_TRUE(succeeded(kiln::tf::broadcastShapes({dyn}, {dyn}, out)));
  EXPECT_EQ(out, (SmallVector<int64_t>{dyn}));
  ASSERT_TRUE(succeeded(kiln::tf::broadcastShapes({}, {5}, out)));
  EXPECT_EQ(out, (SmallVector<int64_t>{5}));
  EXPECT_TRUE(failed(kiln::tf::broadcastShapes({2}, {3}, out)));
}

TEST(TFShapeHelpers, RefineType) {
  MLIRContext context;
  constexpr int64_t dyn = ShapedType::kDynamic;
  Type f32 = Float32Type::get(&context);
  Type unranked = UnrankedTensorType::get(f32);
  Type partial = RankedTensorType::get({2, dyn}, f32);
  SmallVector<int64_t> inferred{dyn, 3};
  EXPECT_EQ(kiln::tf::refineType(unranked, ArrayRef<int64_t>(inferred)),
            RankedTensorType::get({dyn, 3}, f32));
  EXPECT_EQ(kiln::tf::refineType(partial, ArrayRef<int64_t>(inferred)),
            RankedTensorType::get({2, 3}, f32));
  EXPECT_EQ(kiln::tf::refineType(partial, std::nullopt), partial);
  SmallVector<int64_t> otherRank{3};
  EXPECT_EQ(kiln::tf::refineType(partial, ArrayRef<int64_t>(otherRank)),
            partial);
}

} // namespace
