//===- TFToLinalg.cpp - convert-tf-to-linalg ---------------------*- C++
//-*-===//
//
// The pass, its type converter and the report of ops with no lowering. The
// patterns live in one file per op family (Patterns.h).
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/TFToLinalg.h"

#include "conversions/TFToLinalg/Patterns.h"
#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTTFTOLINALGPASS
#include "conversions/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

//===----------------------------------------------------------------------===//
// Type converter
//===----------------------------------------------------------------------===//

TFToLinalgTypeConverter::TFToLinalgTypeConverter() {
  addConversion([](Type type) -> std::optional<Type> {
    // Scalars and non-tensor types (index, i1 in scf conditions) pass.
    if (!isa<TensorType>(type))
      return type;
    return std::nullopt;
  });
  // Unranked tensors convert too (a call to a runtime printer takes one),
  // but no pattern accepts a tf op with an unranked operand or result.
  addConversion([](TensorType type) -> Type {
    Type element = type.getElementType();
    if (auto integer = dyn_cast<IntegerType>(element)) {
      if (integer.isSignless())
        return type;
      return type.clone(
          IntegerType::get(type.getContext(), integer.getWidth()));
    }
    if (isa<FloatType, IndexType>(element))
      return type;
    return nullptr;
  });
  auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                 Location loc) -> Value {
    if (inputs.size() != 1)
      return nullptr;
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(cast);
  addTargetMaterialization(cast);
}

//===----------------------------------------------------------------------===//
// Patterns and report
//===----------------------------------------------------------------------===//

namespace {

/// Whether `type` is a tensor of static shape with no element.
bool isStaticEmpty(Type type) {
  auto tensor = dyn_cast_or_null<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getNumElements() == 0;
}

/// A side-effect-free tf op with an empty operand whose results are all
/// empty (tensors of static shape with a size-0 dimension) -> tensor.empty
/// of each result type: such a value has no contents, whatever the op
/// computes. It runs before the op-specific patterns (higher benefit),
/// whose slices of and inserts into size-0 dimensions MLIR 22 rejects
/// ("offset 0 is out-of-bounds: 0 >= 0": tf.ConcatV2 of empty tensors,
/// tf.StridedSlice of an empty input). An empty operand is required so that
/// empty constants and shapes computed from non-empty values (tf.Const,
/// tf.Shape of a scalar), which other patterns read as constants, and
/// errors such as a window larger than the input, keep their lowering.
struct EmptyResultLowering final : ConversionPattern {
  EmptyResultLowering(const TypeConverter &typeConverter, MLIRContext *context)
      : ConversionPattern(typeConverter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa_and_nonnull<tf::TFDialect>(op->getDialect()) ||
        op->getNumResults() == 0 || op->getNumRegions() != 0 ||
        !isMemoryEffectFree(op) ||
        llvm::none_of(operands,
                      [](Value v) { return isStaticEmpty(v.getType()); }))
      return failure();
    SmallVector<Value> empties;
    for (Type type : op->getResultTypes()) {
      auto converted = dyn_cast_or_null<RankedTensorType>(
          getTypeConverter()->convertType(type));
      if (!isStaticEmpty(converted))
        return failure();
      empties.push_back(tensor::EmptyOp::create(rewriter, op->getLoc(),
                                                converted.getShape(),
                                                converted.getElementType()));
    }
    rewriter.replaceOp(op, empties);
    return success();
  }
};

} // namespace

void kiln::populateTFToLinalgConversionPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<EmptyResultLowering>(typeConverter, patterns.getContext());
  kiln::detail::populateConstantPatterns(typeConverter, patterns);
  kiln::detail::populateReshapePatterns(typeConverter, patterns);
  kiln::detail::populateConcatPatterns(typeConverter, patterns);
  kiln::detail::populateSlicePatterns(typeConverter, patterns);
  kiln::detail::populateGatherPatterns(typeConverter, patterns);
  kiln::detail::populateSpaceBatchPatterns(typeConverter, patterns);
  kiln::detail::populateElementwisePatterns(typeConverter, patterns);
  kiln::detail::populateActivationPatterns(typeConverter, patterns);
  kiln::detail::populateReverseBandPatterns(typeConverter, patterns);
  kiln::detail::populateReductionPatterns(typeConverter, patterns);
  kiln::detail::populateMatMulPatterns(typeConverter, patterns);
  kiln::detail::populateConvPatterns(typeConverter, patterns);
  kiln::detail::populatePoolingPatterns(typeConverter, patterns);
  kiln::detail::populateWindow3DPatterns(typeConverter, patterns);
  kiln::detail::populateGradientPatterns(typeConverter, patterns);
  kiln::detail::populateMirrorPadPatterns(typeConverter, patterns);
  kiln::detail::populateResizePatterns(typeConverter, patterns);
  kiln::detail::populateSelectionPatterns(typeConverter, patterns);
}

LogicalResult
kiln::reportTFOpsWithoutLowering(Operation *root,
                                 const FrozenRewritePatternSet &patterns) {
  const auto &lowered = patterns.getOpSpecificNativePatterns();
  bool failed = false;
  root->walk([&](Operation *op) {
    if (!isa_and_nonnull<tf::TFDialect>(op->getDialect()))
      return;
    if (lowered.count(op->getName()))
      return;
    op->emitError("'") << op->getName()
                       << "' has no lowering to linalg (CPU backend)";
    failed = true;
  });
  return failure(failed);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {

struct ConvertTFToLinalgPass final
    : kiln::impl::ConvertTFToLinalgPassBase<ConvertTFToLinalgPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    populateTFToLinalgConversionPatterns(typeConverter, set);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(
        set, typeConverter);
    populateCallOpTypeConversionPattern(set, typeConverter);
    populateReturnOpTypeConversionPattern(set, typeConverter);
    scf::populateSCFStructuralTypeConversions(typeConverter, set);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (failed(reportTFOpsWithoutLowering(func, patterns)))
      return signalPassFailure();

    ConversionTarget target(getContext());
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           arith::ArithDialect, math::MathDialect,
                           scf::SCFDialect, cf::ControlFlowDialect>();
    target.addIllegalDialect<tf::TFDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return typeConverter.isSignatureLegal(op.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return typeConverter.isLegal(op); });
    scf::populateSCFStructuralTypeConversionTarget(typeConverter, target);

    ConversionConfig config;
    config.allowPatternRollback = false;
    if (failed(applyPartialConversion(func, target, patterns, config)))
      signalPassFailure();
  }

  TFToLinalgTypeConverter typeConverter;
  FrozenRewritePatternSet patterns;
};

} // namespace
