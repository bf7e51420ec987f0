//===- TFShapeInferenceNN.cpp - shape rules of nn ops -----------*- C++ -*-===//
//
// inferResultTypes of the neural-network ops: matrix multiplies, Einsum,
// convolutions and pooling (2-D and 3-D) and ResizeBilinear.
//
//===----------------------------------------------------------------------===//

#include "dialects/TF/IR/TFOps.h"
#include "dialects/TF/IR/TFShapeInference.h"
#include "dialects/TF/IR/TFShapeInferenceUtils.h"
#include "dialects/TF/IR/TFTypeUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace kiln::tf;
using namespace kiln::tf::detail;

//===----------------------------------------------------------------------===//
// Matrix multiply
//===----------------------------------------------------------------------===//

/// MatMul and _FusedMatMul: [m, k] x [k, n] -> [m, n].
static LogicalResult inferMatMul(Operation *op, Value a, Value b,
                                 bool transposeA, bool transposeB,
                                 SmallVectorImpl<Type> &types) {
  initResultTypes(op, types);
  auto aShape = getRankedShape(a.getType());
  auto bShape = getRankedShape(b.getType());
  if ((aShape && aShape->size() != 2) || (bShape && bShape->size() != 2))
    return success(); // the verifier reports it
  int64_t m = aShape ? (*aShape)[transposeA ? 1 : 0] : kDynamic;
  int64_t n = bShape ? (*bShape)[transposeB ? 0 : 1] : kDynamic;
  if (aShape && bShape) {
    int64_t ka = (*aShape)[transposeA ? 0 : 1];
    int64_t kb = (*bShape)[transposeB ? 1 : 0];
    if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
      return op->emitOpError("requires matching contraction dimensions, got ")
             << ka << " and " << kb;
  }
  setShape(op, types, 0, SmallVector<int64_t>{m, n});
  return success();
}

LogicalResult MatMulOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferMatMul(getOperation(), getA(), getB(), getTransposeA(),
                     getTransposeB(), resultTypes);
}

LogicalResult
_FusedMatMulOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferMatMul(getOperation(), getA(), getB(), getTransposeA(),
                     getTransposeB(), resultTypes);
}

LogicalResult
BatchMatMulV2Op::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto xShape = getRankedShape(getX().getType());
  auto yShape = getRankedShape(getY().getType());
  if (!xShape || !yShape || xShape->size() < 2 || yShape->size() < 2)
    return success();
  size_t xr = xShape->size(), yr = yShape->size();
  int64_t m = (*xShape)[getAdjX() ? xr - 1 : xr - 2];
  int64_t kx = (*xShape)[getAdjX() ? xr - 2 : xr - 1];
  int64_t ky = (*yShape)[getAdjY() ? yr - 1 : yr - 2];
  int64_t n = (*yShape)[getAdjY() ? yr - 2 : yr - 1];
  if (!ShapedType::isDynamic(kx) && !ShapedType::isDynamic(ky) && kx != ky)
    return emitOpError("requires matching contraction dimensions, got ")
           << kx << " and " << ky;
  SmallVector<int64_t> batch;
  if (failed(broadcastShapes(ArrayRef(*xShape).drop_back(2),
                             ArrayRef(*yShape).drop_back(2), batch)))
    return emitOpError("requires broadcast-compatible batch dimensions, got ")
           << getX().getType() << " and " << getY().getType();
  batch.push_back(m);
  batch.push_back(n);
  setShape(getOperation(), resultTypes, 0, batch);
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

/// The output size of one spatial dimension of a windowed op.
static int64_t windowOutputSize(int64_t in, int64_t window, int64_t stride,
                                int64_t dilation, StringRef padding,
                                int64_t padBefore, int64_t padAfter) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(window) ||
      stride <= 0 || dilation <= 0)
    return kDynamic;
  int64_t effective = (window - 1) * dilation + 1;
  if (padding == "SAME")
    return (in + stride - 1) / stride;
  if (padding == "EXPLICIT")
    in += padBefore + padAfter;
  else if (padding != "VALID")
    return kDynamic;
  if (in < effective)
    return kDynamic;
  return (in - effective) / stride + 1;
}

static SmallVector<int64_t> toInts(ArrayAttr attr) {
  SmallVector<int64_t> values;
  for (Attribute a : attr)
    if (auto i = dyn_cast<IntegerAttr>(a))
      values.push_back(i.getInt());
  return values;
}

/// Windowed 4-D ops. `windowHW` is the window height and width (dynamic when
/// unknown) and `channels` the output channel count.
static LogicalResult
inferWindowed(Operation *op, Value input, ArrayRef<int64_t> windowHW,
              int64_t channels, ArrayAttr stridesAttr, ArrayAttr dilationsAttr,
              StringRef padding, ArrayAttr explicitPaddingsAttr,
              StringRef dataFormat, SmallVectorImpl<Type> &types) {
  initResultTypes(op, types);
  auto shape = getRankedShape(input.getType());
  SmallVector<int64_t> strides = toInts(stridesAttr);
  SmallVector<int64_t> dilations =
      dilationsAttr ? toInts(dilationsAttr) : SmallVector<int64_t>(4, 1);
  SmallVector<int64_t> pads = explicitPaddingsAttr
                                  ? toInts(explicitPaddingsAttr)
                                  : SmallVector<int64_t>();
  if (!shape || shape->size() != 4 || strides.size() != 4 ||
      dilations.size() != 4)
    return success(); // the verifier reports bad attributes
  bool nchw = dataFormat == "NCHW";
  int64_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2, cDim = nchw ? 1 : 3;
  if (pads.size() != 8)
    pads.assign(8, 0);
  SmallVector<int64_t> result(4, kDynamic);
  result[0] = (*shape)[0];
  result[cDim] = channels;
  const int64_t spatial[] = {hDim, wDim};
  for (auto [i, dim] : llvm::enumerate(spatial))
    result[dim] = windowOutputSize((*shape)[dim], windowHW[i], strides[dim],
                                   dilations[dim], padding, pads[2 * dim],
                                   pads[2 * dim + 1]);
  setShape(op, types, 0, result);
  return success();
}

/// Conv2D-like ops with an HWIO filter: output channels are the filter's
/// last dimension, or in_channels * multiplier for depthwise ones.
static LogicalResult inferConv(Operation *op, Value input, Value filter,
                               bool depthwise, ArrayAttr strides,
                               ArrayAttr dilations, StringRef padding,
                               ArrayAttr explicitPaddings, StringRef dataFormat,
                               SmallVectorImpl<Type> &types) {
  SmallVector<int64_t> window{kDynamic, kDynamic};
  int64_t channels = kDynamic;
  if (auto f = getRankedShape(filter.getType()); f && f->size() == 4) {
    window = {(*f)[0], (*f)[1]};
    channels = (*f)[3];
    if (depthwise)
      channels =
          ShapedType::isDynamic((*f)[2]) || ShapedType::isDynamic((*f)[3])
              ? kDynamic
              : (*f)[2] * (*f)[3];
  }
  return inferWindowed(op, input, window, channels, strides, dilations, padding,
                       explicitPaddings, dataFormat, types);
}

LogicalResult Conv2DOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferConv(getOperation(), getInput(), getFilter(), false, getStrides(),
                   getDilations(), getPadding(), getExplicitPaddings(),
                   getDataFormat(), resultTypes);
}

LogicalResult
_FusedConv2DOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferConv(getOperation(), getInput(), getFilter(), false, getStrides(),
                   getDilations(), getPadding(), getExplicitPaddings(),
                   getDataFormat(), resultTypes);
}

LogicalResult
DepthwiseConv2dNativeOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferConv(getOperation(), getInput(), getFilter(), true, getStrides(),
                   getDilations(), getPadding(), getExplicitPaddings(),
                   getDataFormat(), resultTypes);
}

LogicalResult FusedDepthwiseConv2dNativeOp::inferResultTypes(
    SmallVectorImpl<Type> &resultTypes) {
  return inferConv(getOperation(), getInput(), getFilter(), true, getStrides(),
                   getDilations(), getPadding(), getExplicitPaddings(),
                   getDataFormat(), resultTypes);
}

LogicalResult
Conv2DBackpropInputOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferFromShapeOperand(getOperation(), getInputSizes(), resultTypes);
}

/// Channels of a pooled input stay; the window comes from ksize.
static LogicalResult inferPool(Operation *op, Value input, ArrayAttr ksize,
                               ArrayAttr strides, StringRef padding,
                               ArrayAttr explicitPaddings, StringRef dataFormat,
                               SmallVectorImpl<Type> &types) {
  SmallVector<int64_t> k = toInts(ksize);
  auto shape = getRankedShape(input.getType());
  if (k.size() != 4 || !shape || shape->size() != 4) {
    initResultTypes(op, types);
    return success();
  }
  bool nchw = dataFormat == "NCHW";
  SmallVector<int64_t> window = nchw ? SmallVector<int64_t>{k[2], k[3]}
                                     : SmallVector<int64_t>{k[1], k[2]};
  int64_t channels = (*shape)[nchw ? 1 : 3];
  return inferWindowed(op, input, window, channels, strides, nullptr, padding,
                       explicitPaddings, dataFormat, types);
}

LogicalResult MaxPoolOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferPool(getOperation(), getInput(), getKsize(), getStrides(),
                   getPadding(), getExplicitPaddings(), getDataFormat(),
                   resultTypes);
}

LogicalResult AvgPoolOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferPool(getOperation(), getValue(), getKsize(), getStrides(),
                   getPadding(), nullptr, getDataFormat(), resultTypes);
}

/// The 3-D window ops: `window` holds the depth, height and width of the
/// window (dynamic when unknown), `channels` the output channel count;
/// NDHWC or NCDHW.
static LogicalResult inferWindowed3D(Operation *op, Value input,
                                     ArrayRef<int64_t> window, int64_t channels,
                                     ArrayAttr stridesAttr,
                                     ArrayAttr dilationsAttr,
                                     StringRef padding, StringRef dataFormat,
                                     SmallVectorImpl<Type> &types) {
  initResultTypes(op, types);
  auto shape = getRankedShape(input.getType());
  SmallVector<int64_t> strides = toInts(stridesAttr);
  SmallVector<int64_t> dilations =
      dilationsAttr ? toInts(dilationsAttr) : SmallVector<int64_t>(5, 1);
  if (!shape || shape->size() != 5 || strides.size() != 5 ||
      dilations.size() != 5)
    return success(); // the verifier reports bad attributes
  bool ncdhw = dataFormat == "NCDHW";
  int64_t first = ncdhw ? 2 : 1;
  SmallVector<int64_t> result(5, kDynamic);
  result[0] = (*shape)[0];
  result[ncdhw ? 1 : 4] = channels;
  for (int64_t i = 0; i < 3; ++i)
    result[first + i] =
        windowOutputSize((*shape)[first + i], window[i], strides[first + i],
                         dilations[first + i], padding, 0, 0);
  setShape(op, types, 0, result);
  return success();
}

LogicalResult Conv3DOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  SmallVector<int64_t> window(3, kDynamic);
  int64_t channels = kDynamic;
  if (auto f = getRankedShape(getFilter().getType()); f && f->size() == 5) {
    window.assign(f->begin(), f->begin() + 3);
    channels = (*f)[4];
  }
  return inferWindowed3D(getOperation(), getInput(), window, channels,
                         getStrides(), getDilations(), getPadding(),
                         getDataFormat(), resultTypes);
}

/// Channels of a 3-D pooled input stay; the window comes from ksize.
static LogicalResult inferPool3D(Operation *op, Value input, ArrayAttr ksize,
                                 ArrayAttr strides, StringRef padding,
                                 StringRef dataFormat,
                                 SmallVectorImpl<Type> &types) {
  SmallVector<int64_t> k = toInts(ksize);
  auto shape = getRankedShape(input.getType());
  if (k.size() != 5 || !shape || shape->size() != 5) {
    initResultTypes(op, types);
    return success();
  }
  bool ncdhw = dataFormat == "NCDHW";
  int64_t first = ncdhw ? 2 : 1;
  SmallVector<int64_t> window(k.begin() + first, k.begin() + first + 3);
  return inferWindowed3D(op, input, window, (*shape)[ncdhw ? 1 : 4], strides,
                         nullptr, padding, dataFormat, types);
}

LogicalResult MaxPool3DOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferPool3D(getOperation(), getInput(), getKsize(), getStrides(),
                     getPadding(), getDataFormat(), resultTypes);
}

LogicalResult AvgPool3DOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  return inferPool3D(getOperation(), getInput(), getKsize(), getStrides(),
                     getPadding(), getDataFormat(), resultTypes);
}

LogicalResult
ResizeBilinearOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  auto shape = getRankedShape(getImages().getType());
  if (!shape || shape->size() != 4)
    return success();
  auto size = getConstantIntValues(getSize());
  (*shape)[1] = size && size->size() == 2 ? (*size)[0] : kDynamic;
  (*shape)[2] = size && size->size() == 2 ? (*size)[1] : kDynamic;
  setShape(getOperation(), resultTypes, 0, *shape);
  return success();
}

//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// Merges `dim` into `have` for one einsum label: static sizes win, and a 1
/// broadcasts against anything.
static void mergeLabelDim(int64_t &have, int64_t dim) {
  if (ShapedType::isDynamic(have) || have == 1)
    have = dim;
  else if (!ShapedType::isDynamic(dim) && dim != 1 && dim != have)
    have = kDynamic; // inconsistent: leave it to the kernel to reject
}

LogicalResult EinsumOp::inferResultTypes(SmallVectorImpl<Type> &resultTypes) {
  initResultTypes(getOperation(), resultTypes);
  std::string equation;
  for (char c : getEquation())
    if (c != ' ')
      equation.push_back(c);
  StringRef eq(equation);
  auto [lhs, rhs] = eq.split("->");
  bool explicitOutput = eq.contains("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != getInputs().size())
    return success(); // the verifier reports it
  llvm::StringMap<int64_t> labelDims;
  llvm::StringMap<int> labelCount;
  SmallVector<int64_t> ellipsis;
  for (auto [term, input] : llvm::zip(terms, getInputs())) {
    auto shape = getRankedShape(input.getType());
    if (!shape)
      return success();
    size_t dots = term.find("...");
    std::string letters = term.str();
    if (dots != StringRef::npos)
      letters.erase(dots, 3);
    int64_t rank = shape->size();
    int64_t ellipsisRank = rank - static_cast<int64_t>(letters.size());
    if (ellipsisRank < 0 || (dots == StringRef::npos && ellipsisRank != 0))
      return success();
    int64_t pos = 0;
    for (size_t i = 0; i < term.size(); ++i) {
      if (i == dots) {
        SmallVector<int64_t> next;
        if (failed(broadcastShapes(
                ellipsis, ArrayRef(*shape).slice(pos, ellipsisRank), next)))
          return emitOpError("requires broadcast-compatible ellipsis "
                             "dimensions, got ")
                 << input.getType();
        ellipsis = std::move(next);
        pos += ellipsisRank;
        i += 2;
        continue;
      }
      std::string label(1, term[i]);
      auto [it, inserted] = labelDims.try_emplace(label, (*shape)[pos]);
      if (!inserted)
        mergeLabelDim(it->second, (*shape)[pos]);
      ++labelCount[label];
      ++pos;
    }
  }
  SmallVector<int64_t> result;
  if (explicitOutput) {
    for (size_t i = 0; i < rhs.size(); ++i) {
      if (rhs.substr(i).starts_with("...")) {
        result.append(ellipsis.begin(), ellipsis.end());
        i += 2;
        continue;
      }
      auto it = labelDims.find(std::string(1, rhs[i]));
      if (it == labelDims.end())
        return emitOpError("requires output label '")
               << rhs[i] << "' to appear in an input, got \"" << getEquation()
               << "\"";
      result.push_back(it->second);
    }
  } else {
    // Implicit output: the ellipsis, then the labels used once, sorted.
    result.append(ellipsis.begin(), ellipsis.end());
    SmallVector<std::string> once;
    for (auto &entry : labelCount)
      if (entry.second == 1)
        once.push_back(entry.getKey().str());
    llvm::sort(once);
    for (const std::string &label : once)
      result.push_back(labelDims[label]);
  }
  setShape(getOperation(), resultTypes, 0, result);
  return success();
}

