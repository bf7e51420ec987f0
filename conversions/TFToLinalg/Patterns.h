//===- Patterns.h - tf-to-linalg pattern families ---------------*- C++ -*-===//
//
// The lowering patterns are split by op family, one file each; this header
// declares each family's populate function and the helpers they share.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CONVERSIONS_TFTOLINALG_PATTERNS_H
#define KILN_CONVERSIONS_TFTOLINALG_PATTERNS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace kiln::detail {

/// Elementwise ops: arithmetic and comparisons with TensorFlow's
/// broadcasting, activations, casts, selects (Elementwise.cpp).
void populateElementwisePatterns(const mlir::TypeConverter &typeConverter,
                                 mlir::RewritePatternSet &patterns);

/// Float activations and Pow the Keras layers emit (Elu, Selu, Softplus,
/// Erfc, Pow), and StopGradient (Activations.cpp).
void populateActivationPatterns(const mlir::TypeConverter &typeConverter,
                                mlir::RewritePatternSet &patterns);

/// ReverseV2 (constant axes) and MatrixBandPart (ReverseBand.cpp).
void populateReverseBandPatterns(const mlir::TypeConverter &typeConverter,
                                 mlir::RewritePatternSet &patterns);

/// Constants, forwarding and shape queries: Const, Identity, IdentityN,
/// Shape, Size, Fill, Range (Constants.cpp).
void populateConstantPatterns(const mlir::TypeConverter &typeConverter,
                              mlir::RewritePatternSet &patterns);

/// Reshapes and layout changes: Reshape, ExpandDims, Squeeze, Transpose,
/// Pack, Unpack (Reshape.cpp).
void populateReshapePatterns(const mlir::TypeConverter &typeConverter,
                             mlir::RewritePatternSet &patterns);

/// Concatenation, padding and tiling: ConcatV2, Pad, PadV2, Tile
/// (Concat.cpp).
void populateConcatPatterns(const mlir::TypeConverter &typeConverter,
                            mlir::RewritePatternSet &patterns);

/// Slicing and splitting: Slice, StridedSlice, Split, SplitV (Slice.cpp).
void populateSlicePatterns(const mlir::TypeConverter &typeConverter,
                           mlir::RewritePatternSet &patterns);

/// Gathers: GatherV2, GatherNd (Gather.cpp).
void populateGatherPatterns(const mlir::TypeConverter &typeConverter,
                            mlir::RewritePatternSet &patterns);

/// Space, batch and depth rearrangements: DepthToSpace, SpaceToBatchND,
/// BatchToSpaceND (SpaceBatch.cpp).
void populateSpaceBatchPatterns(const mlir::TypeConverter &typeConverter,
                                mlir::RewritePatternSet &patterns);

/// Reductions and ops built on them: Sum, Mean, Max, Min, Prod, ArgMax,
/// ArgMin, Softmax, ... (Reduction.cpp).
void populateReductionPatterns(const mlir::TypeConverter &typeConverter,
                               mlir::RewritePatternSet &patterns);

/// Contractions on linalg named ops: MatMul, BatchMatMulV2, Einsum, and
/// BiasAdd (MatMul.cpp).
void populateMatMulPatterns(const mlir::TypeConverter &typeConverter,
                            mlir::RewritePatternSet &patterns);

/// Convolutions: Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput
/// (Conv.cpp).
void populateConvPatterns(const mlir::TypeConverter &typeConverter,
                          mlir::RewritePatternSet &patterns);

/// Pooling: MaxPool, AvgPool (Pooling.cpp).
void populatePoolingPatterns(const mlir::TypeConverter &typeConverter,
                             mlir::RewritePatternSet &patterns);

/// 3-D window ops: Conv3D, MaxPool3D, AvgPool3D (Window3D.cpp).
void populateWindow3DPatterns(const mlir::TypeConverter &typeConverter,
                              mlir::RewritePatternSet &patterns);

/// Gradients of window ops: Conv2DBackpropFilter, MaxPoolGrad
/// (Gradients.cpp).
void populateGradientPatterns(const mlir::TypeConverter &typeConverter,
                              mlir::RewritePatternSet &patterns);

/// tf.MirrorPad, REFLECT and SYMMETRIC (MirrorPad.cpp).
void populateMirrorPadPatterns(const mlir::TypeConverter &typeConverter,
                               mlir::RewritePatternSet &patterns);

/// Resizing: ResizeBilinear (Resize.cpp).
void populateResizePatterns(const mlir::TypeConverter &typeConverter,
                            mlir::RewritePatternSet &patterns);

/// Selection ops on scf loops: TopKV2, NonMaxSuppressionV3 and
/// NonMaxSuppressionV5 (Selection.cpp).
void populateSelectionPatterns(const mlir::TypeConverter &typeConverter,
                               mlir::RewritePatternSet &patterns);

//===----------------------------------------------------------------------===//
// Shared helpers (Utils.cpp)
//===----------------------------------------------------------------------===//

/// Reports that `op` cannot be lowered, and why, as an error at the op
/// ("'tf.Conv2D' op cannot be lowered to linalg: <reason>"), and returns
/// failure. Use it for instances a pattern recognizes but does not support
/// (a data format, an unranked operand): the pass stops at the first
/// failure, so the user needs the reason, which notifyMatchFailure hides.
mlir::LogicalResult reportUnsupported(mlir::Operation *op,
                                      const llvm::Twine &reason);

/// The converted type of `value`'s type as a RankedTensorType, or null.
mlir::RankedTensorType
getConvertedTensorType(const mlir::TypeConverter &typeConverter,
                       mlir::Type type);

/// A tensor.empty of `type`, taking each dynamic size from the matching
/// dimension of `like` (which must have `type`'s rank).
mlir::Value createEmptyLike(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::RankedTensorType type, mlir::Value like);

/// The integer values of a constant tensor (`value` defined by tf.Const or
/// arith.constant, possibly through a type conversion), or failure.
mlir::FailureOr<llvm::SmallVector<int64_t>>
getConstantIntValues(mlir::Value value);

/// Whether the tf-level element type of `type` is an unsigned integer
/// (TensorFlow's uint8, uint16, ...): read it from the original tf op's
/// operand or result types, before conversion.
bool isUnsignedElement(mlir::Type type);

//===----------------------------------------------------------------------===//
// Elementwise helpers (Utils.cpp)
//===----------------------------------------------------------------------===//

/// The indexing map that reads an operand of shape `operandShape` broadcast,
/// TensorFlow/numpy style, to `resultShape`: the shapes are aligned at their
/// trailing dimensions, the operand's missing leading dimensions are dropped,
/// and a static size-1 dimension that broadcasts against a size other than 1
/// (or a dynamic one) is read at the constant index 0. A dynamic operand size
/// is assumed to equal the result's (TensorFlow's shape inference has checked
/// the operands by then; a dynamic size of 1 that broadcasts is not
/// supported). Fails if the operand has more dimensions than the result or a
/// static size that is neither 1 nor the result's static size.
mlir::FailureOr<mlir::AffineMap>
getBroadcastIndexingMap(llvm::ArrayRef<int64_t> operandShape,
                        llvm::ArrayRef<int64_t> resultShape,
                        mlir::MLIRContext *context);

/// A linalg.generic with all-parallel loops over `resultType`, reading each
/// of `inputs` through the matching map of `inputMaps` and writing a fresh
/// tensor.empty (identity map). `body` builds the result element from the
/// input elements. A dynamic result size is the tensor.dim of an input that
/// reads that loop dimension from a dynamic size; failing that, the static
/// size of an input that reads it, or else 1 (every input broadcasts there).
mlir::Value createElementwiseGeneric(
    mlir::OpBuilder &b, mlir::Location loc, mlir::RankedTensorType resultType,
    mlir::ValueRange inputs, llvm::ArrayRef<mlir::AffineMap> inputMaps,
    llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                   mlir::ValueRange)>
        body);

//===----------------------------------------------------------------------===//
// Shape and reduction helpers (Utils.cpp)
//===----------------------------------------------------------------------===//

/// `axis` made non-negative against `rank` (TensorFlow accepts axes in
/// [-rank, rank)), or std::nullopt when it is out of that range.
std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// The reassociation between a shape of rank `rank` and the shape left when
/// its dimensions `unitDims` (all of size 1) are removed: each kept dimension
/// forms a group with the removed ones just before it, removed dimensions
/// after the last kept one join its group. Empty when all are removed.
llvm::SmallVector<mlir::ReassociationIndices>
getUnitDimReassociation(int64_t rank, llvm::ArrayRef<int64_t> unitDims);

/// `value` without its size-1 dimensions `unitDims` (tensor.collapse_shape;
/// `value` itself when `unitDims` is empty).
mlir::Value dropUnitDims(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value, llvm::ArrayRef<int64_t> unitDims);

/// `value` with size-1 dimensions inserted so that they sit at the positions
/// `unitDims` of the result (tensor.expand_shape; `value` itself when
/// `unitDims` is empty).
mlir::Value insertUnitDims(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value value, llvm::ArrayRef<int64_t> unitDims);

/// `value`, through a tensor.cast when its type is not `type` (the two may
/// differ only in which sizes are static).
mlir::Value castToType(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value, mlir::Type type);

} // namespace kiln::detail

#endif // KILN_CONVERSIONS_TFTOLINALG_PATTERNS_H
