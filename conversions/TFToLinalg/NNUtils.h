//===- NNUtils.h - helpers shared by the NN op families ---------*- C++ -*-===//
//
// Helpers of the neural-network lowerings (MatMul.cpp, Conv.cpp,
// Pooling.cpp, Resize.cpp): element and accumulator types, fills and
// layout changes, and TensorFlow's window parameters and padding.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_TFTOLINALG_NNUTILS_H
#define KILN_CONVERSIONS_TFTOLINALG_NNUTILS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <string>
#include <utility>

namespace kiln::nn {

/// Permutations between the NCHW and NHWC layouts.
inline constexpr int64_t kNCHWToNHWC[] = {0, 2, 3, 1};
inline constexpr int64_t kNHWCToNCHW[] = {0, 3, 1, 2};

/// Whether the lowering handles `type` as an element type: floats and
/// signless integers (unsigned ones are signless after conversion).
bool isSupportedElement(mlir::Type type);

/// The type a contraction of `element`s accumulates in: f32 for narrower
/// floats, the element type otherwise.
mlir::Type getAccumulatorType(mlir::Type element);

/// The zero of `type` (a float or integer) as an arith.constant.
mlir::Value createZero(mlir::OpBuilder &b, mlir::Location loc, mlir::Type type);

/// A tensor of `sizes` and `element` type filled with `value`.
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::ArrayRef<mlir::OpFoldResult> sizes,
                         mlir::Type element, mlir::Value value);

/// The sizes of `value` (a ranked tensor), static ones as attributes.
mlir::SmallVector<mlir::OpFoldResult>
getSizes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);

/// `value` converted elementwise to `element` (extf / truncf between
/// floats); `value` itself when it has that element type already.
mlir::Value convertElements(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value value, mlir::Type element);

/// `value` as `type` (a tensor.cast when only static information differs).
mlir::Value castToType(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, mlir::Type type);

/// `value` with its dimensions permuted: result dimension i is `value`'s
/// dimension permutation[i].
mlir::Value transpose(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                      mlir::ArrayRef<int64_t> permutation);

/// The integers of an I64ArrayAttr.
mlir::SmallVector<int64_t> getInts(mlir::ArrayAttr attr);

/// A rank-1 i64 tensor attribute, the form of the strides and dilations of
/// linalg's convolution and pooling ops.
mlir::DenseIntElementsAttr getI64Pair(mlir::OpBuilder &b, int64_t first,
                                      int64_t second);

/// The window parameters shared by convolutions and pooling, in NHWC order
/// (spatial dimension 0 is the height, 1 the width).
struct Window2D {
  bool nchw = false;
  int64_t strides[2] = {1, 1};
  int64_t dilations[2] = {1, 1};
  int64_t sizes[2] = {1, 1};
  mlir::StringRef padding;
  int64_t explicitPads[2][2] = {{0, 0}, {0, 0}};

  /// The index of spatial dimension `i` (0 or 1) in the op's data format.
  int64_t spatialDim(int i) const { return (nchw ? 2 : 1) + i; }
  /// The index of the channel dimension in the op's data format.
  int64_t channelDim() const { return nchw ? 1 : 3; }
};

/// How one spatial dimension of a window op is padded, and its output size.
struct SpatialPadding {
  int64_t before = 0;
  int64_t after = 0;
  int64_t output = 0;
  /// SAME padding of a dynamic size with a stride above 1 depends on the
  /// size: then the stride and effective kernel to compute it at run time
  /// (before and after are unused), else 0.
  int64_t runtimeStride = 0;
  int64_t runtimeEffective = 0;

  bool isRuntime() const { return runtimeStride != 0; }
};

/// Reads the data format, strides, dilations, window size and padding of a
/// 2-D window op, or reports why they are unsupported. `dilations`, `ksize`
/// and `explicitPaddings` may be null (the op has no such attribute).
mlir::FailureOr<Window2D> parseWindow(mlir::Operation *op,
                                      mlir::StringRef dataFormat,
                                      mlir::ArrayAttr strides,
                                      mlir::ArrayAttr dilations,
                                      mlir::ArrayAttr ksize,
                                      mlir::StringRef padding,
                                      mlir::ArrayAttr explicitPaddings);

/// TensorFlow's padding and output size of spatial dimension `i` of
/// `window` for an input of `input` elements and a kernel of `kernel`
/// (before dilation), or a report of why there is none.
///   VALID:    no padding, output = (input - effective kernel) / stride + 1;
///   SAME:     output = ceil(input / stride), total padding =
///             max((output - 1) * stride + effective kernel - input, 0),
///             before = total / 2, the odd one after;
///   EXPLICIT: the given padding.
/// A dynamic `input` gives a dynamic output; SAME padding then has the
/// total effective kernel - 1 with stride 1 and is left to run time with a
/// larger stride.
mlir::FailureOr<SpatialPadding>
computePadding(mlir::Operation *op, const Window2D &window, int i,
               int64_t input, int64_t kernel);

/// Both spatial paddings of `window` over `inputSizes` with `kernelSizes`,
/// checked against the static spatial sizes `resultSizes` of the result.
mlir::FailureOr<std::array<SpatialPadding, 2>>
computePaddings(mlir::Operation *op, const Window2D &window,
                mlir::ArrayRef<int64_t> inputSizes,
                mlir::ArrayRef<int64_t> kernelSizes,
                mlir::ArrayRef<int64_t> resultSizes);

/// The padding before and after spatial dimension `i` of `value` (NHWC,
/// not padded yet): static, or TensorFlow's SAME formula on the run-time
/// size, total = max((ceil(size / stride) - 1) * stride + effective kernel
/// - size, 0), before = total / 2.
std::pair<mlir::OpFoldResult, mlir::OpFoldResult>
getPadAmounts(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value, int i,
              const SpatialPadding &padding);

/// `value` (NHWC) padded spatially with `padding` by `paddings`; `value`
/// itself when nothing is padded.
mlir::Value padSpatial(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value,
                       const std::array<SpatialPadding, 2> &paddings,
                       mlir::TypedAttr padding);

/// The output size of spatial dimension `i` of a window op over `padded`
/// (NHWC, padded already): the static size in `padding`, or
/// (padded size - effective kernel) / stride + 1 computed at run time.
mlir::OpFoldResult getOutputSize(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value padded, int i,
                                 const SpatialPadding &padding,
                                 const Window2D &window, int64_t kernel);

/// The sizes of `dims` of `type`, dynamic ones as mlir::ShapedType::kDynamic.
mlir::SmallVector<int64_t> getDimSizes(mlir::RankedTensorType type,
                                       mlir::ArrayRef<int64_t> dims);

/// The static sizes of `dims` of `type`, or failure when one is dynamic.
mlir::FailureOr<mlir::SmallVector<int64_t>>
getStaticSizes(mlir::RankedTensorType type, mlir::ArrayRef<int64_t> dims);

/// Checks that `shape`, the result shape a lowering computes, agrees with
/// the static sizes of `resultType`; `nchw` permutes an NHWC `shape` into
/// the op's NCHW data format first.
mlir::LogicalResult checkResultShape(mlir::Operation *op,
                                     mlir::ArrayRef<int64_t> shape,
                                     mlir::RankedTensorType resultType,
                                     bool nchw = false);

/// The message for an unsupported element type `type`.
std::string describeElement(mlir::Type type);

/// Checks that the converted types of a window op's operands and result
/// are ranked, of rank 4 and of a supported element type.
mlir::LogicalResult checkWindowTypes(mlir::Operation *op,
                                     mlir::ArrayRef<mlir::Type> types);

/// `value` in NHWC, transposed from NCHW when `nchw`.
mlir::Value toNHWC(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                   bool nchw);

/// `value` (NHWC) in the op's data format, and as `type`.
mlir::Value fromNHWC(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                     bool nchw, mlir::Type type);

} // namespace kiln::nn

#endif // KILN_CONVERSIONS_TFTOLINALG_NNUTILS_H
