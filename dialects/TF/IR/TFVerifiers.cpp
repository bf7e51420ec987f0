//===- TFVerifiers.cpp - verifiers of tf ops ---------------------*- C++
//-*-===//
//
// The verify() hooks of the ops marked `verifier` in ops.txt: the
// invariants TensorFlow's kernels check that ODS constraints cannot express
// (attribute values and lengths, operand ranks, counts that must agree).
// Unranked and dynamic values are accepted: TensorFlow's IR is often only
// partially shaped.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace kiln::tf;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The rank of `value`, or std::nullopt when unranked.
static std::optional<int64_t> getRank(Value value) {
  if (auto ranked = dyn_cast<RankedTensorType>(value.getType()))
    return ranked.getRank();
  return std::nullopt;
}

/// Checks that `value`, when ranked, has rank `rank`.
static LogicalResult verifyRank(Operation *op, Value value, StringRef name,
                                int64_t rank) {
  std::optional<int64_t> actual = getRank(value);
  if (actual && *actual != rank)
    return op->emitOpError("requires ")
           << name << " to have rank " << rank << ", got " << value.getType();
  return success();
}

/// Checks that `value`, when ranked, has at least rank `rank`.
static LogicalResult verifyMinRank(Operation *op, Value value, StringRef name,
                                   int64_t rank) {
  std::optional<int64_t> actual = getRank(value);
  if (actual && *actual < rank)
    return op->emitOpError("requires ") << name << " to have rank at least "
                                        << rank << ", got " << value.getType();
  return success();
}

/// Checks that `value` is a scalar or a 1-element vector when ranked.
static LogicalResult verifyScalarLike(Operation *op, Value value,
                                      StringRef name) {
  auto ranked = dyn_cast<RankedTensorType>(value.getType());
  if (!ranked || ranked.getRank() == 0)
    return success();
  if (ranked.getRank() == 1 &&
      (ranked.getDimSize(0) == 1 || ranked.isDynamicDim(0)))
    return success();
  return op->emitOpError("requires ")
         << name << " to be a scalar, got " << value.getType();
}

/// Checks that `attr` has `size` elements.
static LogicalResult verifyArraySize(Operation *op, ArrayAttr attr,
                                     StringRef name, size_t size) {
  if (attr.size() != size)
    return op->emitOpError("requires ")
           << name << " to have " << size << " elements, got " << attr.size();
  return success();
}

/// Checks that `value` is one of `allowed`.
static LogicalResult verifyOneOf(Operation *op, StringRef value, StringRef name,
                                 ArrayRef<StringRef> allowed) {
  if (llvm::is_contained(allowed, value))
    return success();
  std::string list;
  for (StringRef a : allowed)
    list += (list.empty() ? "\"" : ", \"") + a.str() + "\"";
  return op->emitOpError("requires ")
         << name << " to be one of " << list << ", got \"" << value << "\"";
}

/// The checks shared by the 2-D convolutions: strides and dilations of 4
/// positive entries with 1 for batch and channels, a known padding (8
/// explicit paddings exactly with "EXPLICIT"), a known data format, and
/// rank-4 input and filter.
static LogicalResult verifyConv2D(Operation *op, Value input, Value filter,
                                  ArrayAttr strides, ArrayAttr dilations,
                                  StringRef padding, ArrayAttr explicitPaddings,
                                  StringRef dataFormat) {
  if (failed(verifyArraySize(op, strides, "strides", 4)) ||
      failed(verifyArraySize(op, dilations, "dilations", 4)) ||
      failed(
          verifyOneOf(op, padding, "padding", {"SAME", "VALID", "EXPLICIT"})) ||
      failed(verifyOneOf(op, dataFormat, "data_format", {"NHWC", "NCHW"})))
    return failure();
  for (auto [name, attr] : {std::pair<StringRef, ArrayAttr>{"strides", strides},
                            {"dilations", dilations}}) {
    for (Attribute a : attr) {
      int64_t v = cast<IntegerAttr>(a).getInt();
      if (v <= 0)
        return op->emitOpError("requires ")
               << name << " to be positive, got " << v;
    }
  }
  if (padding == "EXPLICIT") {
    if (failed(verifyArraySize(op, explicitPaddings, "explicit_paddings", 8)))
      return failure();
  } else if (!explicitPaddings.empty()) {
    return op->emitOpError("requires explicit_paddings to be empty unless "
                           "padding is \"EXPLICIT\", got ")
           << explicitPaddings.size() << " elements";
  }
  if (input && failed(verifyRank(op, input, "input", 4)))
    return failure();
  return verifyRank(op, filter, "filter", 4);
}

/// The checks shared by the pooling ops.
static LogicalResult verifyPool(Operation *op, Value input, ArrayAttr ksize,
                                ArrayAttr strides, StringRef padding,
                                ArrayRef<StringRef> paddings,
                                StringRef dataFormat,
                                ArrayRef<StringRef> dataFormats) {
  if (failed(verifyArraySize(op, ksize, "ksize", 4)) ||
      failed(verifyArraySize(op, strides, "strides", 4)) ||
      failed(verifyOneOf(op, padding, "padding", paddings)) ||
      failed(verifyOneOf(op, dataFormat, "data_format", dataFormats)))
    return failure();
  for (auto [name, attr] : {std::pair<StringRef, ArrayAttr>{"ksize", ksize},
                            {"strides", strides}}) {
    for (Attribute a : attr) {
      int64_t v = cast<IntegerAttr>(a).getInt();
      if (v <= 0)
        return op->emitOpError("requires ")
               << name << " to be positive, got " << v;
    }
  }
  return verifyRank(op, input, "input", 4);
}

/// The checks shared by the 3-D window ops (Conv3D, MaxPool3D, AvgPool3D),
/// as TensorFlow's kernels make them: each of `arrays` (strides, ksize,
/// dilations) has 5 positive entries with 1 in the batch and channel
/// dimensions of `dataFormat`, padding is "SAME" or "VALID", the data format
/// is "NDHWC" or "NCDHW", and `input` has rank 5.
static LogicalResult
verifyWindow3D(Operation *op, Value input,
               ArrayRef<std::pair<StringRef, ArrayAttr>> arrays,
               StringRef padding, StringRef dataFormat) {
  if (failed(verifyOneOf(op, padding, "padding", {"SAME", "VALID"})) ||
      failed(verifyOneOf(op, dataFormat, "data_format", {"NDHWC", "NCDHW"})))
    return failure();
  int64_t channelDim = dataFormat == "NCDHW" ? 1 : 4;
  for (auto [name, attr] : arrays) {
    if (failed(verifyArraySize(op, attr, name, 5)))
      return failure();
    SmallVector<int64_t> values;
    for (Attribute a : attr)
      values.push_back(cast<IntegerAttr>(a).getInt());
    for (int64_t v : values)
      if (v <= 0)
        return op->emitOpError("requires ")
               << name << " to be positive, got " << v;
    if (values[0] != 1 || values[channelDim] != 1) {
      std::string list;
      for (int64_t v : values)
        list += (list.empty() ? "" : ", ") + std::to_string(v);
      return op->emitOpError("requires ")
             << name << " to be 1 in the batch and channel dimensions, got ["
             << list << "]";
    }
  }
  return verifyRank(op, input, "input", 5);
}

//===----------------------------------------------------------------------===//
// Constants and forwarding
//===----------------------------------------------------------------------===//

LogicalResult ConstOp::verify() {
  Type valueType = getValue().getType();
  if (valueType != getType())
    return emitOpError("requires the type of value (")
           << valueType << ") to match the result type (" << getType() << ")";
  return success();
}

LogicalResult IdentityNOp::verify() {
  if (getInput().size() != getNumResults())
    return emitOpError("requires as many results as operands, got ")
           << getNumResults() << " results and " << getInput().size()
           << " operands";
  return success();
}

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxOp::verify() {
  return verifyMinRank(getOperation(), getLogits(), "logits", 1);
}

//===----------------------------------------------------------------------===//
// Convolution, matrix multiply, pooling
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::verify() {
  return verifyConv2D(getOperation(), getInput(), getFilter(), getStrides(),
                      getDilations(), getPadding(), getExplicitPaddings(),
                      getDataFormat());
}

LogicalResult _FusedConv2DOp::verify() {
  if (failed(verifyOneOf(getOperation(), getFilterFormat(), "filter_format",
                         {"HWIO", "OIHW", "OIHW_VECT_I"})))
    return failure();
  return verifyConv2D(getOperation(), getInput(), getFilter(), getStrides(),
                      getDilations(), getPadding(), getExplicitPaddings(),
                      getDataFormat());
}

LogicalResult DepthwiseConv2dNativeOp::verify() {
  return verifyConv2D(getOperation(), getInput(), getFilter(), getStrides(),
                      getDilations(), getPadding(), getExplicitPaddings(),
                      getDataFormat());
}

LogicalResult FusedDepthwiseConv2dNativeOp::verify() {
  return verifyConv2D(getOperation(), getInput(), getFilter(), getStrides(),
                      getDilations(), getPadding(), getExplicitPaddings(),
                      getDataFormat());
}

LogicalResult Conv2DBackpropInputOp::verify() {
  if (failed(verifyConv2D(getOperation(), /*input=*/nullptr, getFilter(),
                          getStrides(), getDilations(), getPadding(),
                          getExplicitPaddings(), getDataFormat())) ||
      failed(verifyRank(getOperation(), getOutBackprop(), "out_backprop", 4)))
    return failure();
  auto sizes = dyn_cast<RankedTensorType>(getInputSizes().getType());
  if (sizes && (sizes.getRank() != 1 ||
                (sizes.hasStaticShape() && sizes.getDimSize(0) != 4)))
    return emitOpError("requires input_sizes to have 4 elements, got ")
           << sizes;
  return success();
}

LogicalResult MatMulOp::verify() {
  if (failed(verifyRank(getOperation(), getA(), "a", 2)) ||
      failed(verifyRank(getOperation(), getB(), "b", 2)))
    return failure();
  return success();
}

LogicalResult BatchMatMulV2Op::verify() {
  if (failed(verifyMinRank(getOperation(), getX(), "x", 2)) ||
      failed(verifyMinRank(getOperation(), getY(), "y", 2)))
    return failure();
  return success();
}

LogicalResult EinsumOp::verify() {
  StringRef equation = getEquation();
  StringRef inputs = equation.split("->").first;
  size_t terms = inputs.count(',') + 1;
  if (terms != getInputs().size())
    return emitOpError("requires equation to name ")
           << getInputs().size() << " inputs like the operands, got \""
           << equation << "\" with " << terms;
  if (getInputs().empty() || getInputs().size() > 2)
    return emitOpError("requires 1 or 2 inputs, got ") << getInputs().size();
  return success();
}

LogicalResult BiasAddOp::verify() {
  if (failed(verifyOneOf(getOperation(), getDataFormat(), "data_format",
                         {"NHWC", "NCHW"})) ||
      failed(verifyRank(getOperation(), getBias(), "bias", 1)) ||
      failed(verifyMinRank(getOperation(), getValue(), "value", 2)))
    return failure();
  auto value = dyn_cast<RankedTensorType>(getValue().getType());
  auto bias = dyn_cast<RankedTensorType>(getBias().getType());
  if (!value || !bias)
    return success();
  bool nchw = getDataFormat() == "NCHW";
  if (nchw && value.getRank() < 3)
    return emitOpError("requires value to have rank at least 3 with "
                       "data_format \"NCHW\", got ")
           << value;
  int64_t channel = nchw ? value.getRank() - 3 : value.getRank() - 1;
  int64_t c = value.getDimSize(channel), b = bias.getDimSize(0);
  if (!ShapedType::isDynamic(c) && !ShapedType::isDynamic(b) && c != b)
    return emitOpError("requires bias to have the ")
           << c << " elements of the channel dimension, got " << b;
  return success();
}

LogicalResult MaxPoolOp::verify() {
  if (failed(verifyPool(getOperation(), getInput(), getKsize(), getStrides(),
                        getPadding(), {"SAME", "VALID", "EXPLICIT"},
                        getDataFormat(), {"NHWC", "NCHW", "NCHW_VECT_C"})))
    return failure();
  if (getPadding() == "EXPLICIT")
    return verifyArraySize(getOperation(), getExplicitPaddings(),
                           "explicit_paddings", 8);
  return success();
}

LogicalResult AvgPoolOp::verify() {
  return verifyPool(getOperation(), getValue(), getKsize(), getStrides(),
                    getPadding(), {"SAME", "VALID"}, getDataFormat(),
                    {"NHWC", "NCHW"});
}

LogicalResult Conv3DOp::verify() {
  if (failed(verifyWindow3D(getOperation(), getInput(),
                            {{"strides", getStrides()},
                             {"dilations", getDilations()}},
                            getPadding(), getDataFormat())) ||
      failed(verifyRank(getOperation(), getFilter(), "filter", 5)))
    return failure();
  auto input = dyn_cast<RankedTensorType>(getInput().getType());
  auto filter = dyn_cast<RankedTensorType>(getFilter().getType());
  if (!input || !filter)
    return success();
  int64_t channels = input.getDimSize(getDataFormat() == "NCDHW" ? 1 : 4);
  int64_t filterChannels = filter.getDimSize(3);
  if (!ShapedType::isDynamic(channels) &&
      !ShapedType::isDynamic(filterChannels) &&
      (filterChannels == 0 || channels % filterChannels != 0))
    return emitOpError("requires the input's ")
           << channels
           << " channels to be a multiple of the filter's in_channels, got "
           << filterChannels;
  return success();
}

LogicalResult MaxPool3DOp::verify() {
  return verifyWindow3D(getOperation(), getInput(),
                        {{"ksize", getKsize()}, {"strides", getStrides()}},
                        getPadding(), getDataFormat());
}

LogicalResult AvgPool3DOp::verify() {
  return verifyWindow3D(getOperation(), getInput(),
                        {{"ksize", getKsize()}, {"strides", getStrides()}},
                        getPadding(), getDataFormat());
}

//===----------------------------------------------------------------------===//
// Shapes and layout
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  return verifyRank(getOperation(), getShape(), "shape", 1);
}

LogicalResult ShapeOp::verify() {
  auto result = dyn_cast<RankedTensorType>(getType());
  if (!result)
    return success();
  if (result.getRank() != 1)
    return emitOpError("requires the result to have rank 1, got ") << result;
  std::optional<int64_t> rank = getRank(getInput());
  if (rank && !result.isDynamicDim(0) && result.getDimSize(0) != *rank)
    return emitOpError("requires the result to have ")
           << *rank << " elements like the rank of input, got " << result;
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  return verifyScalarLike(getOperation(), getDim(), "dim");
}

LogicalResult SqueezeOp::verify() {
  std::optional<int64_t> rank = getRank(getInput());
  if (!rank)
    return success();
  auto shape = cast<RankedTensorType>(getInput().getType()).getShape();
  for (Attribute attr : getSqueezeDims()) {
    int64_t dim = cast<IntegerAttr>(attr).getInt();
    if (dim < -*rank || dim >= *rank)
      return emitOpError("requires squeeze_dims entries to be in [")
             << -*rank << ", " << *rank << "), got " << dim;
    int64_t size = shape[dim < 0 ? dim + *rank : dim];
    if (!ShapedType::isDynamic(size) && size != 1)
      return emitOpError("requires squeezed dimension ")
             << dim << " to have size 1, got " << size;
  }
  return success();
}

LogicalResult TransposeOp::verify() {
  if (failed(verifyRank(getOperation(), getPerm(), "perm", 1)))
    return failure();
  auto perm = dyn_cast<RankedTensorType>(getPerm().getType());
  std::optional<int64_t> rank = getRank(getX());
  if (perm && rank && !perm.isDynamicDim(0) && perm.getDimSize(0) != *rank)
    return emitOpError("requires perm to have ")
           << *rank << " elements like the rank of x, got "
           << perm.getDimSize(0);
  return success();
}

LogicalResult ConcatV2Op::verify() {
  if (getValues().size() < 2)
    return emitOpError("requires at least 2 values, got ")
           << getValues().size();
  return verifyRank(getOperation(), getAxis(), "axis", 0);
}

LogicalResult PackOp::verify() {
  if (getValues().empty())
    return emitOpError("requires at least 1 value");
  for (Value value : getValues()) {
    std::optional<int64_t> rank = getRank(value);
    if (!rank)
      continue;
    int64_t axis = getAxis();
    if (axis < -(*rank + 1) || axis > *rank)
      return emitOpError("requires axis to be in [")
             << -(*rank + 1) << ", " << *rank + 1 << "), got " << axis;
    break;
  }
  return success();
}

LogicalResult UnpackOp::verify() {
  auto type = dyn_cast<RankedTensorType>(getValue().getType());
  if (!type)
    return success();
  int64_t rank = type.getRank(), axis = getAxis();
  if (axis < -rank || axis >= rank)
    return emitOpError("requires axis to be in [")
           << -rank << ", " << rank << "), got " << axis;
  int64_t dim = type.getDimSize(axis < 0 ? axis + rank : axis);
  if (!ShapedType::isDynamic(dim) &&
      dim != static_cast<int64_t>(getNumResults()))
    return emitOpError("requires one result per element of dimension ")
           << axis << " (" << dim << "), got " << getNumResults();
  return success();
}

LogicalResult SplitOp::verify() {
  if (getNumResults() == 0)
    return emitOpError("requires at least 1 result");
  return verifyRank(getOperation(), getSplitDim(), "split_dim", 0);
}

LogicalResult SplitVOp::verify() {
  if (getNumResults() == 0)
    return emitOpError("requires at least 1 result");
  if (failed(verifyRank(getOperation(), getSplitDim(), "split_dim", 0)) ||
      failed(verifyRank(getOperation(), getSizeSplits(), "size_splits", 1)))
    return failure();
  auto sizes = dyn_cast<RankedTensorType>(getSizeSplits().getType());
  if (sizes && !sizes.isDynamicDim(0) &&
      sizes.getDimSize(0) != static_cast<int64_t>(getNumResults()))
    return emitOpError("requires size_splits to have one element per result ")
           << "(" << getNumResults() << "), got " << sizes.getDimSize(0);
  return success();
}

LogicalResult FillOp::verify() {
  if (failed(verifyRank(getOperation(), getDims(), "dims", 1)))
    return failure();
  return verifyRank(getOperation(), getValue(), "value", 0);
}

/// Pad and PadV2: paddings is [rank, 2].
static LogicalResult verifyPaddings(Operation *op, Value input,
                                    Value paddings) {
  if (failed(verifyRank(op, paddings, "paddings", 2)))
    return failure();
  auto type = dyn_cast<RankedTensorType>(paddings.getType());
  if (!type)
    return success();
  if (!type.isDynamicDim(1) && type.getDimSize(1) != 2)
    return op->emitOpError("requires paddings to have shape [rank, 2], got ")
           << type;
  std::optional<int64_t> rank = getRank(input);
  if (rank && !type.isDynamicDim(0) && type.getDimSize(0) != *rank)
    return op->emitOpError("requires paddings to have ")
           << *rank << " rows like the rank of input, got "
           << type.getDimSize(0);
  return success();
}

LogicalResult PadOp::verify() {
  return verifyPaddings(getOperation(), getInput(), getPaddings());
}

LogicalResult MirrorPadOp::verify() {
  if (getMode() != "REFLECT" && getMode() != "SYMMETRIC")
    return emitOpError("requires mode to be REFLECT or SYMMETRIC, got '")
           << getMode() << "'";
  return verifyPaddings(getOperation(), getInput(), getPaddings());
}

LogicalResult PadV2Op::verify() {
  if (failed(verifyPaddings(getOperation(), getInput(), getPaddings())))
    return failure();
  return verifyRank(getOperation(), getConstantValues(), "constant_values", 0);
}

LogicalResult StridedSliceOp::verify() {
  std::optional<int64_t> length;
  for (auto [name, value] : {std::pair<StringRef, Value>{"begin", getBegin()},
                             {"end", getEnd()},
                             {"strides", getStrides()}}) {
    if (failed(verifyRank(getOperation(), value, name, 1)))
      return failure();
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || type.isDynamicDim(0))
      continue;
    if (length && *length != type.getDimSize(0))
      return emitOpError("requires begin, end and strides to have the same "
                         "length, got ")
             << *length << " and " << type.getDimSize(0) << " (" << name << ")";
    length = type.getDimSize(0);
  }
  if (llvm::popcount(static_cast<uint64_t>(getEllipsisMask())) > 1)
    return emitOpError("requires at most one bit set in ellipsis_mask, got ")
           << getEllipsisMask();
  return success();
}

//===----------------------------------------------------------------------===//
// Selection and control flow
//===----------------------------------------------------------------------===//

LogicalResult TopKV2Op::verify() {
  if (failed(verifyRank(getOperation(), getK(), "k", 0)))
    return failure();
  return verifyMinRank(getOperation(), getInput(), "input", 1);
}

/// While and StatelessWhile carry their loop values through.
static LogicalResult verifyWhile(Operation *op, ValueRange inputs) {
  if (inputs.size() != op->getNumResults())
    return op->emitOpError("requires as many results as loop values, got ")
           << op->getNumResults() << " results and " << inputs.size()
           << " operands";
  return success();
}

LogicalResult WhileOp::verify() {
  return verifyWhile(getOperation(), getInput());
}

LogicalResult StatelessWhileOp::verify() {
  return verifyWhile(getOperation(), getInput());
}

//===----------------------------------------------------------------------===//
// Function references
//===----------------------------------------------------------------------===//

/// Checks that `ref` (the value of attribute `name`) names a function in
/// scope that takes `numArgs` values and returns `numResults`.
static LogicalResult verifyCallee(Operation *op, SymbolTableCollection &table,
                                  StringRef name, SymbolRefAttr ref,
                                  size_t numArgs, size_t numResults) {
  auto fn = table.lookupNearestSymbolFrom<FunctionOpInterface>(op, ref);
  if (!fn)
    return op->emitOpError("requires ")
           << name << " to name a function, got " << ref;
  if (fn.getNumArguments() != numArgs)
    return op->emitOpError("requires ")
           << name << " " << ref << " to take " << numArgs << " arguments, got "
           << fn.getNumArguments();
  if (fn.getNumResults() != numResults)
    return op->emitOpError("requires ")
           << name << " " << ref << " to return " << numResults
           << " results, got " << fn.getNumResults();
  return success();
}

/// If and StatelessIf: both branches take the inputs and return the results.
template <typename IfLikeOp>
static LogicalResult verifyIfSymbols(IfLikeOp op,
                                     SymbolTableCollection &table) {
  size_t numArgs = op.getInput().size(), numResults = op->getNumResults();
  if (failed(verifyCallee(op, table, "then_branch", op.getThenBranchAttr(),
                          numArgs, numResults)))
    return failure();
  return verifyCallee(op, table, "else_branch", op.getElseBranchAttr(), numArgs,
                      numResults);
}

LogicalResult IfOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyIfSymbols(*this, table);
}

LogicalResult StatelessIfOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyIfSymbols(*this, table);
}

/// While and StatelessWhile: cond maps the loop values to a predicate, body
/// to their next values.
template <typename WhileLikeOp>
static LogicalResult verifyWhileSymbols(WhileLikeOp op,
                                        SymbolTableCollection &table) {
  size_t numValues = op.getInput().size();
  if (failed(verifyCallee(op, table, "cond", op.getCondAttr(), numValues, 1)))
    return failure();
  return verifyCallee(op, table, "body", op.getBodyAttr(), numValues,
                      numValues);
}

LogicalResult WhileOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyWhileSymbols(*this, table);
}

LogicalResult StatelessWhileOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyWhileSymbols(*this, table);
}

/// Case and StatelessCase: every branch takes the inputs and returns the
/// results.
template <typename CaseLikeOp>
static LogicalResult verifyCaseSymbols(CaseLikeOp op,
                                       SymbolTableCollection &table) {
  for (Attribute branch : op.getBranches())
    if (failed(verifyCallee(op, table, "branches", cast<SymbolRefAttr>(branch),
                            op.getInput().size(), op->getNumResults())))
      return failure();
  return success();
}

LogicalResult CaseOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyCaseSymbols(*this, table);
}

LogicalResult StatelessCaseOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyCaseSymbols(*this, table);
}

LogicalResult
PartitionedCallOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyCallee(*this, table, "f", getFAttr(), getArgs().size(),
                      getNumResults());
}

LogicalResult
StatefulPartitionedCallOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyCallee(*this, table, "f", getFAttr(), getArgs().size(),
                      getNumResults());
}

LogicalResult LegacyCallOp::verifySymbolUses(SymbolTableCollection &table) {
  return verifyCallee(*this, table, "f", getFAttr(), getArgs().size(),
                      getNumResults());
}
