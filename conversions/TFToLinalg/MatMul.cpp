//===- MatMul.cpp - tf contractions to linalg -------------------*- C++ -*-===//
//
// MatMul, BatchMatMulV2 and Einsum as linalg contractions (floats narrower
// than f32 accumulate in f32), and BiasAdd.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToLinalg/NNUtils.h"
#include "conversions/TFToLinalg/Patterns.h"

#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "llvm/ADT/StringExtras.h"

#include <array>
#include <cmath>

using namespace mlir;
using namespace kiln;
using namespace kiln::nn;

namespace {

//===----------------------------------------------------------------------===//
// MatMul, BatchMatMulV2, Einsum
//===----------------------------------------------------------------------===//

/// linalg.matmul (batchRank 0) or linalg.batch_matmul (batchRank 1) of
/// `lhs` and `rhs`, transposed through the indexing maps, accumulated in
/// the accumulator type of `element` and returned as `element`.
Value createMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs,
                   bool transposeLhs, bool transposeRhs, int batchRank,
                   Type element) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  Type accumulator = getAccumulatorType(element);
  int64_t rank = lhsType.getRank();
  SmallVector<OpFoldResult> sizes;
  if (batchRank)
    sizes.push_back(tensor::getMixedSize(b, loc, lhs, 0));
  sizes.push_back(
      tensor::getMixedSize(b, loc, lhs, transposeLhs ? rank - 1 : rank - 2));
  sizes.push_back(
      tensor::getMixedSize(b, loc, rhs, transposeRhs ? rank - 2 : rank - 1));
  Value init =
      createFilled(b, loc, sizes, accumulator, createZero(b, loc, accumulator));

  MLIRContext *context = b.getContext();
  // Loops: [batch,] m, n, k.
  unsigned numDims = batchRank + 3;
  SmallVector<AffineExpr> batch;
  if (batchRank)
    batch.push_back(getAffineDimExpr(0, context));
  AffineExpr m = getAffineDimExpr(batchRank, context);
  AffineExpr n = getAffineDimExpr(batchRank + 1, context);
  AffineExpr k = getAffineDimExpr(batchRank + 2, context);
  auto makeMap = [&](AffineExpr row, AffineExpr column) {
    SmallVector<AffineExpr> results(batch);
    results.push_back(row);
    results.push_back(column);
    return AffineMapAttr::get(AffineMap::get(numDims, 0, results, context));
  };
  ArrayAttr maps = b.getArrayAttr({transposeLhs ? makeMap(k, m) : makeMap(m, k),
                                   transposeRhs ? makeMap(n, k) : makeMap(k, n),
                                   makeMap(m, n)});

  Value product;
  if (batchRank == 0) {
    auto matmul =
        linalg::MatmulOp::create(b, loc, TypeRange{init.getType()},
                                 ValueRange{lhs, rhs}, ValueRange{init});
    if (transposeLhs || transposeRhs)
      matmul.setIndexingMapsAttr(maps);
    product = matmul.getResult(0);
  } else {
    auto matmul =
        linalg::BatchMatmulOp::create(b, loc, TypeRange{init.getType()},
                                      ValueRange{lhs, rhs}, ValueRange{init});
    if (transposeLhs || transposeRhs)
      matmul.setIndexingMapsAttr(maps);
    product = matmul.getResult(0);
  }
  return convertElements(b, loc, product, element);
}

/// Checks the element type of a contraction (floats and signless i32/i64),
/// reporting the others.
LogicalResult checkContractionElement(Operation *op, Type element) {
  if (isa<FloatType>(element) || element.isSignlessInteger(32) ||
      element.isSignlessInteger(64))
    return success();
  return kiln::detail::reportUnsupported(op, describeElement(element));
}

/// tf.MatMul -> linalg.matmul, with transpose_a / transpose_b as transposed
/// indexing maps.
struct MatMulOpLowering final : OpConversionPattern<tf::MatMulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto lhsType = dyn_cast<RankedTensorType>(adaptor.getA().getType());
    auto rhsType = dyn_cast<RankedTensorType>(adaptor.getB().getType());
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (!lhsType || !rhsType || !resultType || lhsType.getRank() != 2 ||
        rhsType.getRank() != 2)
      return kiln::detail::reportUnsupported(op,
                                             "operands of rank other than 2");
    if (isa<IntegerType>(op.getA().getType().getElementType()) &&
        kiln::detail::isUnsignedElement(op.getA().getType()))
      return kiln::detail::reportUnsupported(
          op, describeElement(op.getA().getType().getElementType()));
    if (failed(checkContractionElement(op, resultType.getElementType())))
      return failure();
    bool ta = op.getTransposeA(), tb = op.getTransposeB();
    int64_t lhsK = lhsType.getDimSize(ta ? 0 : 1);
    int64_t rhsK = rhsType.getDimSize(tb ? 1 : 0);
    if (!ShapedType::isDynamic(lhsK) && !ShapedType::isDynamic(rhsK) &&
        lhsK != rhsK)
      return kiln::detail::reportUnsupported(op, "contraction of " +
                                                     Twine(lhsK) + " and " +
                                                     Twine(rhsK) + " elements");
    if (failed(checkResultShape(
            op,
            {lhsType.getDimSize(ta ? 1 : 0), rhsType.getDimSize(tb ? 0 : 1)},
            resultType)))
      return failure();
    Location loc = op.getLoc();
    Value product = createMatmul(rewriter, loc, adaptor.getA(), adaptor.getB(),
                                 op.getTransposeA(), op.getTransposeB(),
                                 /*batchRank=*/0, resultType.getElementType());
    rewriter.replaceOp(op, castToType(rewriter, loc, product, resultType));
    return success();
  }
};

/// Whether `value`, of shape [batch..., r, c], must be broadcast to the
/// batch dimensions `batch` (static sizes or ShapedType::kDynamic): it has
/// fewer, or a static 1 where `batch` has no static 1.
bool needsBatchBroadcast(RankedTensorType type, ArrayRef<int64_t> batch) {
  ArrayRef<int64_t> own = type.getShape().drop_back(2);
  if (own.size() != batch.size())
    return true;
  for (auto [size, target] : llvm::zip(own, batch))
    if (size == 1 && target != 1)
      return true;
  return false;
}

/// `value` of shape [batch..., r, c] broadcast to the batch dimensions
/// `batch` of sizes `batchSizes` by a linalg.generic, with TensorFlow's
/// broadcasting from the right (a static 1 reads index 0); `value` itself
/// when nothing broadcasts.
Value broadcastBatch(OpBuilder &b, Location loc, Value value,
                     ArrayRef<int64_t> batch,
                     ArrayRef<OpFoldResult> batchSizes) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!needsBatchBroadcast(type, batch))
    return value;
  int64_t rank = type.getRank();
  int64_t batchRank = rank - 2;
  int64_t outRank = static_cast<int64_t>(batch.size()) + 2;
  MLIRContext *context = b.getContext();
  SmallVector<AffineExpr> results;
  int64_t offset = outRank - rank;
  for (int64_t d = 0; d < batchRank; ++d) {
    if (type.getDimSize(d) == 1 && batch[d + offset] != 1)
      results.push_back(getAffineConstantExpr(0, context));
    else
      results.push_back(getAffineDimExpr(d + offset, context));
  }
  results.push_back(getAffineDimExpr(outRank - 2, context));
  results.push_back(getAffineDimExpr(outRank - 1, context));
  SmallVector<OpFoldResult> sizes(batchSizes);
  SmallVector<OpFoldResult> valueSizes = getSizes(b, loc, value);
  sizes.push_back(valueSizes[rank - 2]);
  sizes.push_back(valueSizes[rank - 1]);
  Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  SmallVector<utils::IteratorType> iterators(outRank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{value}, ValueRange{init},
             SmallVector<AffineMap>{
                 AffineMap::get(outRank, 0, results, context),
                 b.getMultiDimIdentityMap(outRank)},
             iterators,
             [](OpBuilder &nb, Location loc, ValueRange args) {
               linalg::YieldOp::create(nb, loc, args[0]);
             })
      .getResult(0);
}

/// `value` of shape [batch..., r, c] with its batch dimensions collapsed
/// into one.
Value collapseBatch(OpBuilder &b, Location loc, Value value) {
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  ReassociationIndices batch;
  for (int64_t d = 0; d < rank - 2; ++d)
    batch.push_back(d);
  SmallVector<ReassociationIndices> reassociation{
      batch, {rank - 2}, {rank - 1}};
  return tensor::CollapseShapeOp::create(b, loc, value, reassociation);
}

/// tf.BatchMatMulV2 -> linalg.batch_matmul over the broadcast batch
/// dimensions collapsed into one (linalg.matmul without batch dimensions);
/// adj_x / adj_y transpose through the indexing maps. A dynamic batch size
/// is taken not to broadcast (TensorFlow would broadcast a run-time 1).
struct BatchMatMulV2OpLowering final
    : OpConversionPattern<tf::BatchMatMulV2Op> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::BatchMatMulV2Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto lhsType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    auto rhsType = dyn_cast<RankedTensorType>(adaptor.getY().getType());
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (!lhsType || !rhsType || !resultType)
      return kiln::detail::reportUnsupported(op, "unranked operands");
    if (lhsType.getRank() < 2 || rhsType.getRank() < 2)
      return kiln::detail::reportUnsupported(op, "operands of rank below 2");
    if (kiln::detail::isUnsignedElement(op.getX().getType()))
      return kiln::detail::reportUnsupported(
          op, describeElement(getElementTypeOrSelf(op.getX().getType())));
    if (failed(checkContractionElement(op, resultType.getElementType())))
      return failure();
    int64_t resultRank = resultType.getRank();
    int64_t batchRank = resultRank - 2;
    if (batchRank != std::max(lhsType.getRank(), rhsType.getRank()) - 2)
      return kiln::detail::reportUnsupported(
          op,
          "result rank " + Twine(resultRank) + " does not match the operands");
    // TensorFlow broadcasts the batch dimensions from the right: a static
    // size other than 1 must agree with the result's and the other
    // operand's (dynamic sizes are taken to agree, not to be 1).
    ArrayRef<int64_t> batch = resultType.getShape().take_front(batchRank);
    auto batchDim = [&](RankedTensorType type, int64_t d) -> int64_t {
      int64_t own = type.getRank() - 2;
      int64_t j = d - (batchRank - own);
      return j < 0 ? 1 : type.getDimSize(j);
    };
    for (int64_t d = 0; d < batchRank; ++d) {
      int64_t sizes[] = {batchDim(lhsType, d), batchDim(rhsType, d), batch[d]};
      for (int64_t a : sizes)
        for (int64_t b : sizes)
          if (!ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) &&
              a != 1 && b != 1 && a != b)
            return kiln::detail::reportUnsupported(
                op, "batch dimensions that do not broadcast to the result's");
    }
    bool ax = op.getAdjX(), ay = op.getAdjY();
    int64_t lhsRank = lhsType.getRank(), rhsRank = rhsType.getRank();
    int64_t lhsK = lhsType.getDimSize(ax ? lhsRank - 2 : lhsRank - 1);
    int64_t rhsK = rhsType.getDimSize(ay ? rhsRank - 1 : rhsRank - 2);
    if (!ShapedType::isDynamic(lhsK) && !ShapedType::isDynamic(rhsK) &&
        lhsK != rhsK)
      return kiln::detail::reportUnsupported(op, "contraction of " +
                                                     Twine(lhsK) + " and " +
                                                     Twine(rhsK) + " elements");
    SmallVector<int64_t> computed(batch);
    computed.push_back(lhsType.getDimSize(ax ? lhsRank - 1 : lhsRank - 2));
    computed.push_back(rhsType.getDimSize(ay ? rhsRank - 2 : rhsRank - 1));
    if (failed(checkResultShape(op, computed, resultType)))
      return failure();

    Location loc = op.getLoc();
    Type element = resultType.getElementType();
    if (batchRank == 0) {
      Value product =
          createMatmul(rewriter, loc, adaptor.getX(), adaptor.getY(),
                       op.getAdjX(), op.getAdjY(), /*batchRank=*/0, element);
      rewriter.replaceOp(op, castToType(rewriter, loc, product, resultType));
      return success();
    }
    // Each batch size: the result's if static, else from an operand that
    // does not broadcast there.
    SmallVector<OpFoldResult> batchSizes;
    for (int64_t d = 0; d < batchRank; ++d) {
      OpFoldResult size = rewriter.getIndexAttr(1);
      if (!ShapedType::isDynamic(batch[d])) {
        size = rewriter.getIndexAttr(batch[d]);
      } else {
        for (Value operand : {adaptor.getX(), adaptor.getY()}) {
          auto type = cast<RankedTensorType>(operand.getType());
          int64_t j = d - (batchRank - (type.getRank() - 2));
          if (j >= 0 && type.getDimSize(j) != 1) {
            size = tensor::getMixedSize(rewriter, loc, operand, j);
            break;
          }
        }
      }
      batchSizes.push_back(size);
    }
    Value lhs =
        broadcastBatch(rewriter, loc, adaptor.getX(), batch, batchSizes);
    Value rhs =
        broadcastBatch(rewriter, loc, adaptor.getY(), batch, batchSizes);
    if (batchRank > 1) {
      lhs = collapseBatch(rewriter, loc, lhs);
      rhs = collapseBatch(rewriter, loc, rhs);
    }
    Value product = createMatmul(rewriter, loc, lhs, rhs, op.getAdjX(),
                                 op.getAdjY(), /*batchRank=*/1, element);
    if (batchRank > 1) {
      auto productType = cast<RankedTensorType>(product.getType());
      SmallVector<OpFoldResult> outputShape(batchSizes);
      outputShape.push_back(tensor::getMixedSize(rewriter, loc, product, 1));
      outputShape.push_back(tensor::getMixedSize(rewriter, loc, product, 2));
      SmallVector<int64_t> shape;
      // Static where the size is an attribute: the expand's output shape
      // keeps a value operand dynamic in its type even when it folds.
      for (OpFoldResult size : outputShape) {
        auto attr = dyn_cast<Attribute>(size);
        shape.push_back(attr ? cast<IntegerAttr>(attr).getInt()
                             : ShapedType::kDynamic);
      }
      ReassociationIndices batchDims;
      for (int64_t d = 0; d < batchRank; ++d)
        batchDims.push_back(d);
      SmallVector<ReassociationIndices> reassociation{
          batchDims, {batchRank}, {batchRank + 1}};
      product =
          tensor::ExpandShapeOp::create(rewriter, loc, productType.clone(shape),
                                        product, reassociation, outputShape);
    }
    rewriter.replaceOp(op, castToType(rewriter, loc, product, resultType));
    return success();
  }
};

/// `equation` (without spaces) with each "..." replaced by letters it does
/// not use, one per dimension the ellipsis stands for: operand i's ellipsis
/// takes the last of them (broadcasting aligns on the right), the output's
/// all of them. std::nullopt, with `error` set, when the ranks do not fit.
std::optional<std::string> expandEllipses(StringRef equation,
                                          ValueRange operands,
                                          std::string &error) {
  auto [inputsPart, outputPart] = equation.split("->");
  if (inputsPart.size() == equation.size()) {
    error = "an ellipsis without an explicit output";
    return std::nullopt;
  }
  SmallVector<StringRef> parts;
  inputsPart.split(parts, ',');
  if (parts.size() != operands.size()) {
    error = "names " + std::to_string(parts.size()) + " operands";
    return std::nullopt;
  }
  SmallVector<int64_t> counts;
  int64_t maxCount = 0;
  for (auto [operand, part] : llvm::zip(operands, parts)) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!part.contains("...")) {
      counts.push_back(0);
      continue;
    }
    int64_t labels = part.size() - 3;
    if (!type || type.getRank() < labels) {
      error = "an operand's rank is smaller than its labels";
      return std::nullopt;
    }
    counts.push_back(type.getRank() - labels);
    maxCount = std::max(maxCount, counts.back());
  }
  if (!outputPart.contains("...") && maxCount > 0) {
    error = "an ellipsis on the operands but not in the output";
    return std::nullopt;
  }
  std::string fresh;
  for (char c : StringRef("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"))
    if (!equation.contains(c) && static_cast<int64_t>(fresh.size()) < maxCount)
      fresh.push_back(c);
  if (static_cast<int64_t>(fresh.size()) < maxCount) {
    error = "too many dimensions under the ellipsis";
    return std::nullopt;
  }
  auto expand = [&](StringRef part, int64_t count) {
    size_t at = part.find("...");
    if (at == StringRef::npos)
      return part.str();
    return (part.take_front(at) + StringRef(fresh).take_back(count) +
            part.drop_front(at + 3))
        .str();
  };
  std::string result;
  for (auto [i, part] : llvm::enumerate(parts)) {
    if (i)
      result.push_back(',');
    result += expand(part, counts[i]);
  }
  return result + "->" + expand(outputPart, maxCount);
}

/// tf.Einsum of one or two operands without repeated labels -> one
/// linalg.generic (an ellipsis stands for letters of its own): a loop per label, reductions over the labels missing
/// from the output, the product of the operands summed into the result
/// (accumulated in f32 for narrower floats) or, with no label contracted,
/// the product itself.
struct EinsumOpLowering final : OpConversionPattern<tf::EinsumOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::EinsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef equation = op.getEquation();
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    ValueRange operands = adaptor.getInputs();
    if (!resultType)
      return kiln::detail::reportUnsupported(op, "unranked result");
    if (operands.empty() || operands.size() > 2)
      return kiln::detail::reportUnsupported(
          op, Twine(operands.size()) + " operands (expected 1 or 2)");
    Type element = resultType.getElementType();
    if (kiln::detail::isUnsignedElement(op.getType()))
      return kiln::detail::reportUnsupported(
          op, describeElement(getElementTypeOrSelf(op.getType())));
    if (failed(checkContractionElement(op, element)))
      return failure();

    // Parse "<labels>[,<labels>]-><labels>".
    std::string compact;
    for (char c : equation)
      if (c != ' ')
        compact.push_back(c);
    if (StringRef(compact).contains("...")) {
      std::string error;
      std::optional<std::string> expanded =
          expandEllipses(compact, operands, error);
      if (!expanded)
        return kiln::detail::reportUnsupported(
            op, "equation '" + equation + "': " + error);
      compact = *expanded;
    }
    StringRef inputsPart, outputPart;
    std::tie(inputsPart, outputPart) = StringRef(compact).split("->");
    if (inputsPart.size() == compact.size())
      return kiln::detail::reportUnsupported(
          op, "equation '" + equation + "' without an explicit output");
    SmallVector<StringRef> inputLabels;
    inputsPart.split(inputLabels, ',');
    if (inputLabels.size() != operands.size())
      return kiln::detail::reportUnsupported(
          op, "equation '" + equation + "' names " + Twine(inputLabels.size()) +
                  " operands");

    // Labels in order: output labels first (parallel loops), then the
    // contracted ones.
    std::string labels;
    auto isLabel = [](char c) { return llvm::isAlpha(c); };
    auto hasRepeats = [](StringRef s) {
      for (size_t i = 0; i < s.size(); ++i)
        if (s.find(s[i], i + 1) != StringRef::npos)
          return true;
      return false;
    };
    SmallVector<StringRef> allParts(inputLabels);
    allParts.push_back(outputPart);
    for (StringRef part : allParts)
      if (!llvm::all_of(part, isLabel) || hasRepeats(part))
        return kiln::detail::reportUnsupported(
            op, "equation '" + equation +
                    "' (labels must be letters, each once per operand)");
    for (char c : outputPart)
      labels.push_back(c);
    int64_t numOutput = labels.size();
    for (StringRef part : inputLabels)
      for (char c : part)
        if (StringRef(labels).find(c) == StringRef::npos)
          labels.push_back(c);
    for (char c : outputPart)
      if (!llvm::any_of(inputLabels,
                        [&](StringRef part) { return part.contains(c); }))
        return kiln::detail::reportUnsupported(
            op, "equation '" + equation + "' with output label '" + Twine(c) +
                    "' on no operand");

    // Each label's size, which must agree between operands (broadcasting
    // only comes with ellipses).
    SmallVector<int64_t> labelSizes(labels.size(), ShapedType::kDynamic);
    for (auto [operand, part] : llvm::zip(operands, inputLabels)) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type || type.getRank() != static_cast<int64_t>(part.size()))
        return kiln::detail::reportUnsupported(
            op, "operand rank does not match equation '" + equation + "'");
      for (auto [i, c] : llvm::enumerate(part)) {
        int64_t &size = labelSizes[StringRef(labels).find(c)];
        int64_t own = type.getDimSize(i);
        if (!ShapedType::isDynamic(size) && !ShapedType::isDynamic(own) &&
            size != own)
          return kiln::detail::reportUnsupported(
              op, "label '" + Twine(c) + "' of sizes " + Twine(size) + " and " +
                      Twine(own));
        if (ShapedType::isDynamic(size))
          size = own;
      }
    }
    if (resultType.getRank() != numOutput)
      return kiln::detail::reportUnsupported(
          op, "result rank does not match equation '" + equation + "'");

    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    unsigned numLoops = labels.size();
    auto mapOf = [&](StringRef part) {
      SmallVector<AffineExpr> results;
      for (char c : part)
        results.push_back(getAffineDimExpr(StringRef(labels).find(c), context));
      return AffineMap::get(numLoops, 0, results, context);
    };
    SmallVector<AffineMap> maps;
    for (StringRef part : inputLabels)
      maps.push_back(mapOf(part));
    maps.push_back(mapOf(outputPart));
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    for (unsigned i = numOutput; i < numLoops; ++i)
      iterators[i] = utils::IteratorType::reduction;

    // The output's sizes come from the operand that carries each label.
    SmallVector<OpFoldResult> sizes;
    for (char c : outputPart) {
      for (auto [operand, part] : llvm::zip(operands, inputLabels)) {
        size_t index = part.find(c);
        if (index == StringRef::npos)
          continue;
        sizes.push_back(tensor::getMixedSize(rewriter, loc, operand, index));
        break;
      }
    }
    // Without contracted labels the result is the product itself (no sum
    // into zero, which would turn -0.0 into +0.0).
    bool reduces = numLoops > static_cast<unsigned>(numOutput);
    Type accumulator = reduces ? getAccumulatorType(element) : element;
    Value init =
        reduces ? createFilled(rewriter, loc, sizes, accumulator,
                               createZero(rewriter, loc, accumulator))
                : tensor::EmptyOp::create(rewriter, loc, sizes, accumulator)
                      .getResult();
    bool isFloat = isa<FloatType>(element);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, init.getType(), operands, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location loc, ValueRange args) {
          auto widen = [&](Value v) -> Value {
            return v.getType() == accumulator
                       ? v
                       : Value(arith::ExtFOp::create(b, loc, accumulator, v));
          };
          Value product = widen(args[0]);
          if (args.size() == 3) {
            Value factor = widen(args[1]);
            product =
                isFloat ? Value(arith::MulFOp::create(b, loc, product, factor))
                        : Value(arith::MulIOp::create(b, loc, product, factor));
          }
          if (!reduces) {
            linalg::YieldOp::create(b, loc, product);
            return;
          }
          Value sum =
              isFloat
                  ? Value(arith::AddFOp::create(b, loc, args.back(), product))
                  : Value(arith::AddIOp::create(b, loc, args.back(), product));
          linalg::YieldOp::create(b, loc, sum);
        });
    Value result =
        convertElements(rewriter, loc, generic.getResult(0), element);
    rewriter.replaceOp(op, castToType(rewriter, loc, result, resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// BiasAdd
//===----------------------------------------------------------------------===//

/// tf.BiasAdd -> linalg.generic adding the rank-1 bias along the channel
/// dimension (the last for NHWC, dimension 1 of a rank-4 value for NCHW).
struct BiasAddOpLowering final : OpConversionPattern<tf::BiasAddOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tf::BiasAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto valueType = dyn_cast<RankedTensorType>(adaptor.getValue().getType());
    auto biasType = dyn_cast<RankedTensorType>(adaptor.getBias().getType());
    RankedTensorType resultType =
        kiln::detail::getConvertedTensorType(*getTypeConverter(), op.getType());
    if (!valueType || !biasType || !resultType)
      return kiln::detail::reportUnsupported(op, "unranked operands");
    StringRef format = op.getDataFormat();
    if (format != "NHWC" && format != "NCHW")
      return kiln::detail::reportUnsupported(
          op, "data_format '" + format + "' (expected NHWC or NCHW)");
    int64_t rank = valueType.getRank();
    bool nchw = format == "NCHW";
    // TensorFlow's kernel adds along dimension 1 in NCHW, its shape function
    // checks the bias against dimension rank - 3: they agree at rank 4 only.
    if (nchw && rank != 4)
      return kiln::detail::reportUnsupported(
          op, "NCHW value of rank " + Twine(rank) +
                  " (the shape function's channel dimension, rank - 3, and "
                  "the kernel's, 1, differ)");
    if (rank < 2 || biasType.getRank() != 1)
      return kiln::detail::reportUnsupported(
          op, "value of rank " + Twine(rank) + " with bias of rank " +
                  Twine(biasType.getRank()));
    Type element = valueType.getElementType();
    if (!isSupportedElement(element) || resultType.getElementType() != element)
      return kiln::detail::reportUnsupported(op, describeElement(element));
    int64_t channel = nchw ? 1 : rank - 1;
    if (!valueType.isDynamicDim(channel) && !biasType.isDynamicDim(0) &&
        valueType.getDimSize(channel) != biasType.getDimSize(0))
      return kiln::detail::reportUnsupported(
          op, "bias of " + Twine(biasType.getDimSize(0)) + " elements for " +
                  Twine(valueType.getDimSize(channel)) + " channels");

    Location loc = op.getLoc();
    Value init = kiln::detail::createEmptyLike(rewriter, loc, valueType,
                                               adaptor.getValue());
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap biasMap = AffineMap::get(
        rank, 0, getAffineDimExpr(channel, rewriter.getContext()));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    bool isFloat = isa<FloatType>(element);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, valueType,
        ValueRange{adaptor.getValue(), adaptor.getBias()}, ValueRange{init},
        SmallVector<AffineMap>{identity, biasMap, identity}, iterators,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value sum =
              isFloat ? Value(arith::AddFOp::create(b, loc, args[0], args[1]))
                      : Value(arith::AddIOp::create(b, loc, args[0], args[1]));
          linalg::YieldOp::create(b, loc, sum);
        });
    rewriter.replaceOp(
        op, castToType(rewriter, loc, generic.getResult(0), resultType));
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void kiln::detail::populateMatMulPatterns(const TypeConverter &typeConverter,
                                          RewritePatternSet &patterns) {
  patterns.add<MatMulOpLowering, BatchMatMulV2OpLowering, EinsumOpLowering,
               BiasAddOpLowering>(typeConverter, patterns.getContext());
}
