//===- Lowering.cpp - tf ops to fp16 npu ops --------------------*- C++ -*-===//
//
// What NPU-v1 needs of each tf op at the tf level, and the npu ops that
// compute it in fp16. The hardware limits themselves are left to the npu
// verifiers, which the pass runs on the ops built here.
//
//===----------------------------------------------------------------------===//

#include "conversions/TFToNPU/TFToNPU.h"

#include "dialects/NPU/IR/NPUOps.h"
#include "dialects/TF/IR/TFOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace kiln;
using namespace kiln::tf_to_npu;

ValueSource::~ValueSource() = default;

StringRef tf_to_npu::reasonKindName(ReasonKind kind) {
  switch (kind) {
  case ReasonKind::None:
    return "";
  case ReasonKind::Op:
    return "op";
  case ReasonKind::DType:
    return "dtype";
  case ReasonKind::Shape:
    return "shape";
  case ReasonKind::Attribute:
    return "attribute";
  case ReasonKind::Operand:
    return "operand";
  case ReasonKind::Limit:
    return "limit";
  case ReasonKind::ControlFlow:
    return "control flow";
  }
  return "";
}

DenseElementsAttr tf_to_npu::getConstantData(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return {};
  Attribute attr;
  if (auto constant = dyn_cast<tf::ConstOp>(def))
    attr = constant.getValue();
  else if (auto constant = dyn_cast<arith::ConstantOp>(def))
    attr = constant.getValue();
  auto dense = dyn_cast_or_null<DenseElementsAttr>(attr);
  if (!dense || !dense.getElementType().isF32())
    return {};
  return dense;
}

RankedTensorType tf_to_npu::toF16Type(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  return tensor.clone(Float16Type::get(type.getContext()));
}

namespace {

/// Records \p kind and \p message in \p why and fails.
LogicalResult fail(Placement &why, ReasonKind kind, const Twine &message) {
  why.kind = kind;
  why.reason = message.str();
  return failure();
}

/// fail() for the builders.
FailureOr<Value> reject(Placement &why, ReasonKind kind, const Twine &message) {
  return FailureOr<Value>(fail(why, kind, message));
}

/// Checks that \p value is a static f32 tensor; \p what names it.
LogicalResult checkF32Tensor(Value value, StringRef what, Placement &why) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  if (!tensor) {
    os << what << " " << value.getType() << " is unranked";
    return fail(why, ReasonKind::Shape, text);
  }
  if (!tensor.hasStaticShape()) {
    os << what << " " << tensor << " has a dynamic shape";
    return fail(why, ReasonKind::Shape, text);
  }
  if (!tensor.getElementType().isF32()) {
    os << what << " element type " << tensor.getElementType()
       << ": fp16 mode runs f32 tensors only";
    return fail(why, ReasonKind::DType, text);
  }
  return success();
}

/// Checks every operand and the result of \p op as f32 tensors.
LogicalResult checkAllF32(Operation *op, Placement &why) {
  for (auto [index, operand] : llvm::enumerate(op->getOperands()))
    if (failed(checkF32Tensor(operand, "operand #" + std::to_string(index),
                              why)))
      return failure();
  return checkF32Tensor(op->getResult(0), "result", why);
}

/// Checks that the f32 constant \p data fits fp16's range.
LogicalResult checkF16Range(DenseElementsAttr data, StringRef what,
                            Placement &why) {
  for (float value : data.getValues<float>())
    if (std::isfinite(value) && std::fabs(value) > 65504.0f) {
      why.kind = ReasonKind::DType;
      why.reason = (what + " holds " + std::to_string(value) +
                    ", beyond fp16's range (65504)")
                       .str();
      return failure();
    }
  return success();
}

/// Checks NHWC layout (`data_format`).
LogicalResult checkNHWC(Operation *op, Placement &why) {
  auto format = op->getAttrOfType<StringAttr>("data_format");
  if (format && format.getValue() != "NHWC") {
    why.kind = ReasonKind::Attribute;
    why.reason = ("data_format " + format.getValue() +
                  ": the NPU runs NHWC tensors")
                     .str();
    return failure();
  }
  return success();
}

/// Reads the H and W entries of a 4-entry NHWC attribute (`strides`,
/// `dilations`, `ksize`) whose N and C entries must be 1.
LogicalResult readHW(Operation *op, StringRef name, int64_t fallback,
                     int64_t out[2], Placement &why) {
  auto array = op->getAttrOfType<ArrayAttr>(name);
  if (!array) {
    out[0] = out[1] = fallback;
    return success();
  }
  SmallVector<int64_t, 4> values;
  for (Attribute entry : array)
    if (auto integer = dyn_cast<IntegerAttr>(entry))
      values.push_back(integer.getInt());
  if (values.size() != 4 || values[0] != 1 || values[3] != 1) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << name << " " << array
       << ": the NPU windows only height and width (batch and channel "
          "entries must be 1)";
    why.kind = ReasonKind::Attribute;
    why.reason = text;
    return failure();
  }
  out[0] = values[1];
  out[1] = values[2];
  return success();
}

/// The padding [pt, pb, pl, pr] of a window op with TensorFlow's `padding`
/// (SAME, VALID or EXPLICIT with `explicit_paddings`).
LogicalResult readPadding(Operation *op, ArrayRef<int64_t> input,
                          const int64_t kernel[2], const int64_t stride[2],
                          const int64_t dilation[2],
                          SmallVectorImpl<int64_t> &pad, Placement &why) {
  StringRef padding = "VALID";
  if (auto attr = op->getAttrOfType<StringAttr>("padding"))
    padding = attr.getValue();
  pad.assign(4, 0);
  if (padding == "VALID")
    return success();
  if (padding == "SAME") {
    for (int i = 0; i < 2; ++i) {
      int64_t in = input[1 + i];
      int64_t out = (in + stride[i] - 1) / stride[i];
      int64_t extent = dilation[i] * (kernel[i] - 1) + 1;
      int64_t total = std::max<int64_t>((out - 1) * stride[i] + extent - in, 0);
      pad[2 * i] = total / 2;
      pad[2 * i + 1] = total - total / 2;
    }
    return success();
  }
  if (padding == "EXPLICIT") {
    SmallVector<int64_t, 8> values;
    if (auto array = op->getAttrOfType<ArrayAttr>("explicit_paddings"))
      for (Attribute entry : array)
        if (auto integer = dyn_cast<IntegerAttr>(entry))
          values.push_back(integer.getInt());
    if (values.size() == 8 && values[0] == 0 && values[1] == 0 &&
        values[6] == 0 && values[7] == 0) {
      pad.assign(values.begin() + 2, values.begin() + 6);
      return success();
    }
    why.kind = ReasonKind::Attribute;
    why.reason = "explicit padding of the batch or channels";
    return failure();
  }
  why.kind = ReasonKind::Attribute;
  why.reason = ("padding " + padding + " is not SAME, VALID or EXPLICIT").str();
  return failure();
}

/// The constant filter of a convolution or matmul, checked for fp16.
FailureOr<DenseElementsAttr> constantWeights(Value value, StringRef what,
                                             Placement &why) {
  DenseElementsAttr data = getConstantData(value);
  if (!data) {
    why.kind = ReasonKind::Operand;
    why.reason = (what + " is not a constant: NPU-v1 reads weights from the "
                         "stream's constants")
                     .str();
    return failure();
  }
  if (failed(checkF16Range(data, what, why)))
    return failure();
  return data;
}

/// The f16 value of operand \p value: a constant when it is one.
FailureOr<Value> operandValue(Value value, ValueSource &source,
                              Placement &why) {
  if (DenseElementsAttr data = getConstantData(value)) {
    if (failed(checkF16Range(data, "constant operand", why)))
      return failure();
    return source.constant(toF16Type(value.getType()), data);
  }
  return source.activation(value);
}

//===----------------------------------------------------------------------===//
// Per-op builders
//===----------------------------------------------------------------------===//

/// Conv2D and DepthwiseConv2dNative.
template <typename NPUOp>
FailureOr<Value> buildConv(OpBuilder &b, Operation *op, ValueSource &source,
                           Placement &why) {
  Value input = op->getOperand(0), filter = op->getOperand(1);
  int64_t stride[2], dilation[2];
  if (failed(checkAllF32(op, why)) || failed(checkNHWC(op, why)) ||
      failed(readHW(op, "strides", 1, stride, why)) ||
      failed(readHW(op, "dilations", 1, dilation, why)))
    return failure();
  auto filterType = cast<RankedTensorType>(filter.getType());
  if (filterType.getRank() != 4)
    return reject(why, ReasonKind::Shape, "the filter is not 4-D");
  int64_t kernel[2] = {filterType.getDimSize(0), filterType.getDimSize(1)};
  SmallVector<int64_t, 4> pad;
  if (failed(readPadding(op, cast<RankedTensorType>(input.getType()).getShape(),
                         kernel, stride, dilation, pad, why)))
    return failure();
  FailureOr<DenseElementsAttr> weights =
      constantWeights(filter, "the filter", why);
  if (failed(weights))
    return failure();
  Value in = source.activation(input);
  Value w = source.constant(toF16Type(filterType), *weights);
  return NPUOp::create(b, op->getLoc(), toF16Type(op->getResult(0).getType()),
                       in, w, Value(), b.getDenseI64ArrayAttr(stride),
                       b.getDenseI64ArrayAttr(dilation),
                       b.getDenseI64ArrayAttr(pad), Attribute(), Attribute())
      .getResult();
}

FailureOr<Value> buildMatMul(OpBuilder &b, tf::MatMulOp op, ValueSource &source,
                             Placement &why) {
  if (failed(checkAllF32(op, why)))
    return failure();
  if (op.getTransposeA())
    return reject(why, ReasonKind::Attribute,
                  "transpose_a: the NPU reads the activations untransposed");
  FailureOr<DenseElementsAttr> weights =
      constantWeights(op.getB(), "the weights (b)", why);
  if (failed(weights))
    return failure();
  auto bType = cast<RankedTensorType>(op.getB().getType());
  if (bType.getRank() != 2)
    return reject(why, ReasonKind::Shape, "the weights (b) are not 2-D");
  DenseElementsAttr data = *weights;
  if (op.getTransposeB()) {
    // [N][K] as TensorFlow stores it to the [K][N] npu.fully_connected reads.
    int64_t n = bType.getDimSize(0), k = bType.getDimSize(1);
    auto values = llvm::to_vector(data.getValues<float>());
    std::vector<float> transposed(values.size());
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < k; ++j)
        transposed[j * n + i] = values[i * k + j];
    bType = RankedTensorType::get({k, n}, bType.getElementType());
    data = DenseElementsAttr::get(bType, llvm::ArrayRef(transposed));
  }
  Value a = source.activation(op.getA());
  Value w = source.constant(toF16Type(bType), data);
  return npu::FullyConnectedOp::create(b, op.getLoc(),
                                       toF16Type(op.getProduct().getType()), a,
                                       w, Value(), Attribute(), Attribute())
      .getResult();
}

/// Binary element-wise ops; \p commutative allows swapping the operands so
/// that the broadcast one is rhs.
template <typename NPUOp>
FailureOr<Value> buildBinary(OpBuilder &b, Operation *op, ValueSource &source,
                             Placement &why, bool commutative) {
  if (failed(checkAllF32(op, why)) || failed(checkNHWC(op, why)))
    return failure();
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  auto result = cast<RankedTensorType>(op->getResult(0).getType());
  auto shapeOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  };
  if (shapeOf(lhs) != result.getShape()) {
    if (!commutative || shapeOf(rhs) != result.getShape()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "lhs " << lhs.getType() << " broadcasts to " << result
         << ": VEC_ELTWISE broadcasts only its second operand";
      return reject(why, ReasonKind::Shape, text);
    }
    std::swap(lhs, rhs);
  }
  if (commutative && getConstantData(lhs) && !getConstantData(rhs) &&
      shapeOf(rhs) == result.getShape())
    std::swap(lhs, rhs);
  FailureOr<Value> l = operandValue(lhs, source, why);
  if (failed(l))
    return failure();
  FailureOr<Value> r = operandValue(rhs, source, why);
  if (failed(r))
    return failure();
  return NPUOp::create(b, op->getLoc(), toF16Type(result), *l, *r,
                       IntegerAttr(), IntegerAttr())
      .getResult();
}

FailureOr<Value> buildClamp(OpBuilder &b, Operation *op, ValueSource &source,
                            Placement &why, double max) {
  if (failed(checkAllF32(op, why)))
    return failure();
  Value in = source.activation(op->getOperand(0));
  return npu::ClampOp::create(b, op->getLoc(),
                              toF16Type(op->getResult(0).getType()), in,
                              b.getF32FloatAttr(0.0), b.getF32FloatAttr(max))
      .getResult();
}

FailureOr<Value> buildSquare(OpBuilder &b, Operation *op, ValueSource &source,
                             Placement &why) {
  if (failed(checkAllF32(op, why)))
    return failure();
  Value in = source.activation(op->getOperand(0));
  return npu::MulOp::create(b, op->getLoc(),
                            toF16Type(op->getResult(0).getType()), in, in,
                            IntegerAttr(), IntegerAttr())
      .getResult();
}

/// MaxPool and AvgPool.
template <typename NPUOp>
FailureOr<Value> buildPool(OpBuilder &b, Operation *op, ValueSource &source,
                           Placement &why) {
  int64_t kernel[2], stride[2], dilation[2] = {1, 1};
  if (failed(checkAllF32(op, why)) || failed(checkNHWC(op, why)) ||
      failed(readHW(op, "ksize", 1, kernel, why)) ||
      failed(readHW(op, "strides", 1, stride, why)))
    return failure();
  Value input = op->getOperand(0);
  SmallVector<int64_t, 4> pad;
  if (failed(readPadding(op, cast<RankedTensorType>(input.getType()).getShape(),
                         kernel, stride, dilation, pad, why)))
    return failure();
  Value in = source.activation(input);
  return NPUOp::create(b, op->getLoc(), toF16Type(op->getResult(0).getType()),
                       in, b.getDenseI64ArrayAttr(kernel),
                       b.getDenseI64ArrayAttr(stride),
                       b.getDenseI64ArrayAttr(pad), IntegerAttr(),
                       IntegerAttr())
      .getResult();
}

/// Mean over height and width with keep_dims: an average pool over the
/// whole image.
FailureOr<Value> buildMean(OpBuilder &b, tf::MeanOp op, ValueSource &source,
                           Placement &why) {
  if (failed(checkF32Tensor(op.getInput(), "input", why)) ||
      failed(checkF32Tensor(op.getOutput(), "result", why)))
    return failure();
  auto input = cast<RankedTensorType>(op.getInput().getType());
  auto axes = dyn_cast_or_null<DenseIntElementsAttr>(
      op.getReductionIndices().getDefiningOp()
          ? op.getReductionIndices().getDefiningOp()->getAttr("value")
          : Attribute());
  SmallVector<int64_t, 2> dims;
  if (axes)
    for (const APInt &axis : axes.getValues<APInt>())
      dims.push_back(axis.getSExtValue() < 0
                         ? axis.getSExtValue() + input.getRank()
                         : axis.getSExtValue());
  llvm::sort(dims);
  if (input.getRank() != 4 || dims != SmallVector<int64_t, 2>{1, 2})
    return reject(why, ReasonKind::Attribute,
                  "a mean over axes other than height and width of an NHWC "
                  "tensor");
  if (!op.getKeepDims())
    return reject(why, ReasonKind::Shape,
                  "keep_dims = false drops the pooled dimensions, which no npu "
                  "op does");
  int64_t kernel[2] = {input.getDimSize(1), input.getDimSize(2)};
  Value in = source.activation(op.getInput());
  return npu::AvgPool2DOp::create(
             b, op.getLoc(), toF16Type(op.getOutput().getType()), in,
             b.getDenseI64ArrayAttr(kernel), b.getDenseI64ArrayAttr({1, 1}),
             b.getDenseI64ArrayAttr({0, 0, 0, 0}), IntegerAttr(),
             IntegerAttr())
      .getResult();
}

//===----------------------------------------------------------------------===//
// Up-sampling (npu.resize_nearest, npu.resize_bilinear)
//===----------------------------------------------------------------------===//

/// The shape of a ranked tensor value.
ArrayRef<int64_t> shapeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getShape();
}

/// A tf.Pack of one value repeated, its copies stacked at \p axis of a
/// rank-\p rank operand (negative axes count from the end of the result).
bool isRepeatPack(Operation *op, int64_t axis, int64_t rank) {
  auto pack = dyn_cast_or_null<tf::PackOp>(op);
  if (!pack || pack.getValues().empty() ||
      !llvm::all_equal(pack.getValues()) ||
      !isa<RankedTensorType>(pack.getValues().front().getType()) ||
      shapeOf(pack.getValues().front()).size() != size_t(rank))
    return false;
  int64_t at = pack.getAxis() < 0 ? pack.getAxis() + rank + 1 : pack.getAxis();
  return at == axis;
}

/// The one op that uses \p value (however often), or null.
Operation *soleUser(Value value) {
  if (value.use_empty() || !llvm::all_equal(value.getUsers()))
    return nullptr;
  return *value.getUsers().begin();
}

/// The TF Object Detection API's nearest-neighbour up-sampling of an NHWC
/// tensor x by integer factors: Reshape(Pack_2(Pack_3(x, ..., x), ...),
/// [N, H*m, W*k, C]), the inner Pack stacking k copies after the width, the
/// outer m copies after the height. Returns the Reshape for any of the
/// three ops (each Pack used only by the next op of the pattern), else
/// null; \p input is x, \p factors {m, k}.
tf::ReshapeOp matchStackedUpsampling(Operation *op, Value &input,
                                     int64_t factors[2]) {
  if (isRepeatPack(op, 3, 4))
    op = soleUser(op->getResult(0));
  if (op && isRepeatPack(op, 2, 5))
    op = soleUser(op->getResult(0));
  auto reshape = dyn_cast_or_null<tf::ReshapeOp>(op);
  if (!reshape)
    return nullptr;
  Operation *outer = reshape.getTensor().getDefiningOp();
  if (!isRepeatPack(outer, 2, 5) || soleUser(outer->getResult(0)) != reshape)
    return nullptr;
  Operation *inner = outer->getOperand(0).getDefiningOp();
  if (!isRepeatPack(inner, 3, 4) || soleUser(inner->getResult(0)) != outer)
    return nullptr;
  auto result = dyn_cast<RankedTensorType>(reshape.getOutput().getType());
  if (!result || result.getRank() != 4)
    return nullptr;
  input = inner->getOperand(0);
  factors[0] = outer->getNumOperands();
  factors[1] = inner->getNumOperands();
  return reshape;
}

/// tf.ResizeBilinear (2x, half-pixel centres), tf.ResizeNearestNeighbor
/// (integer factors) and the stacked up-sampling pattern (its Packs and its
/// Reshape all build the one npu.resize_nearest, which fusion's dead-code
/// removal keeps once).
FailureOr<Value> buildUpsampling(OpBuilder &b, Operation *op,
                                 ValueSource &source, Placement &why) {
  if (op->getNumOperands() == 0)
    return reject(why, ReasonKind::Op,
                  op->getName().getStringRef() + " has no operand");
  Value input = op->getOperand(0), result = op->getResult(0);
  int64_t copies[2] = {0, 0};
  bool bilinear = isa<tf::ResizeBilinearOp>(op);
  bool nearest = op->getName().getStringRef() == "tf.ResizeNearestNeighbor";
  if (!bilinear && !nearest) {
    tf::ReshapeOp reshape = matchStackedUpsampling(op, input, copies);
    if (!reshape)
      return reject(why, ReasonKind::Op,
                    op->getName().getStringRef() + " has no npu equivalent");
    result = reshape.getOutput();
  }
  if (failed(checkF32Tensor(input, "input", why)) ||
      failed(checkF32Tensor(result, "result", why)))
    return failure();
  ArrayRef<int64_t> in = shapeOf(input), out = shapeOf(result);
  if (in.size() != 4 || out.size() != 4 || in[0] != out[0] ||
      in[3] != out[3] || in[1] == 0 || in[2] == 0 || out[1] % in[1] ||
      out[2] % in[2]) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "resizes " << input.getType() << " to " << result.getType()
       << ": the NPU up-samples NHWC tensors by integer factors";
    return reject(why, ReasonKind::Shape, text);
  }
  auto flag = [&](StringRef name) {
    auto attr = op->getAttrOfType<BoolAttr>(name);
    return attr && attr.getValue();
  };
  if ((bilinear || nearest) && flag("align_corners"))
    return reject(why, ReasonKind::Attribute,
                  "align_corners = true: the NPU's up-sampling aligns "
                  "pixel centres (half_pixel_centers), not corners");
  int64_t sy = out[1] / in[1], sx = out[2] / in[2];
  // Stacked copies: m copies of each row and k of each pixel are the
  // up-sampling only when the Reshape makes rows of k * W pixels.
  if (copies[0] && (copies[0] != sy || copies[1] != sx))
    return reject(why, ReasonKind::Shape,
                  "the Reshape of " + Twine(copies[0]) + "x" +
                      Twine(copies[1]) +
                      " stacked copies does not make an up-sampling by them");
  Type type = toF16Type(result.getType());
  if (!bilinear)
    return npu::ResizeNearestOp::create(b, op->getLoc(), type,
                                        source.activation(input),
                                        b.getDenseI64ArrayAttr({sy, sx}))
        .getResult();
  if (!flag("half_pixel_centers"))
    return reject(why, ReasonKind::Attribute,
                  "half_pixel_centers = false: the NPU's bilinear "
                  "up-sampling has half-pixel centres");
  if (sy != 2 || sx != 2)
    return reject(why, ReasonKind::Shape,
                  "a bilinear resize by " + Twine(sy) + "x" + Twine(sx) +
                      ": the NPU's bilinear up-sampling is 2x");
  return npu::ResizeBilinearOp::create(b, op->getLoc(), type,
                                       source.activation(input))
      .getResult();
}

} // namespace

FailureOr<Value> tf_to_npu::buildNPUOps(OpBuilder &b, Operation *op,
                                        ValueSource &source, Placement &why) {
  if (op->getNumResults() != 1)
    return reject(why, ReasonKind::Op,
                  op->getName().getStringRef() + " has no npu equivalent");
  return TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case([&](tf::Conv2DOp) {
        return buildConv<npu::Conv2DOp>(b, op, source, why);
      })
      .Case([&](tf::DepthwiseConv2dNativeOp) {
        return buildConv<npu::DepthwiseConv2DOp>(b, op, source, why);
      })
      .Case([&](tf::MatMulOp matmul) {
        return buildMatMul(b, matmul, source, why);
      })
      .Case<tf::BiasAddOp, tf::AddOp, tf::AddV2Op>([&](Operation *) {
        bool commutative = !isa<tf::BiasAddOp>(op);
        return buildBinary<npu::AddOp>(b, op, source, why, commutative);
      })
      .Case([&](tf::SubOp) {
        return buildBinary<npu::SubOp>(b, op, source, why, false);
      })
      .Case([&](tf::MulOp) {
        return buildBinary<npu::MulOp>(b, op, source, why, true);
      })
      .Case([&](tf::MinimumOp) {
        return buildBinary<npu::MinimumOp>(b, op, source, why, true);
      })
      .Case([&](tf::MaximumOp) {
        return buildBinary<npu::MaximumOp>(b, op, source, why, true);
      })
      .Case([&](tf::SquareOp) { return buildSquare(b, op, source, why); })
      .Case([&](tf::ReluOp) {
        return buildClamp(b, op, source, why, INFINITY);
      })
      .Case([&](tf::Relu6Op) { return buildClamp(b, op, source, why, 6.0); })
      .Case([&](tf::MaxPoolOp) {
        return buildPool<npu::MaxPool2DOp>(b, op, source, why);
      })
      .Case([&](tf::AvgPoolOp) {
        return buildPool<npu::AvgPool2DOp>(b, op, source, why);
      })
      .Case([&](tf::MeanOp mean) { return buildMean(b, mean, source, why); })
      .Case<tf::ResizeBilinearOp, tf::PackOp, tf::ReshapeOp>(
          [&](Operation *) { return buildUpsampling(b, op, source, why); })
      .Default([&](Operation *) -> FailureOr<Value> {
        if (op->getName().getStringRef() == "tf.ResizeNearestNeighbor")
          return buildUpsampling(b, op, source, why);
        return reject(why, ReasonKind::Op,
                      op->getName().getStringRef() + " has no npu equivalent");
      });
}
