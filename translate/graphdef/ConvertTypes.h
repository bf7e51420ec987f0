//===- ConvertTypes.h - TensorFlow protos <-> MLIR -------------*- C++ -*-===//
//
// Conversions shared by the GraphDef and TF.js importers and the exporter:
// DataType <-> element type, TensorShapeProto <-> shape, TensorProto <->
// ElementsAttr, AttrValue <-> Attribute. Failures are reported through the
// `emitError` callback, so each caller can name the node or weight at fault.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_GRAPHDEF_CONVERTTYPES_H
#define KILN_TRANSLATE_GRAPHDEF_CONVERTTYPES_H

#include "translate/proto/attr_value.pb.h"
#include "translate/proto/tensor.pb.h"
#include "translate/proto/tensor_shape.pb.h"
#include "translate/proto/types.pb.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include <optional>

namespace kiln::graphdef {

/// Produces an error diagnostic at the caller's chosen location.
using ErrorFn = llvm::function_ref<mlir::InFlightDiagnostic()>;

/// The MLIR element type of a TensorFlow DataType (f32 for DT_FLOAT,
/// !tf_type.f32ref for DT_FLOAT_REF, ...).
mlir::FailureOr<mlir::Type> convertDataType(tensorflow::DataType dtype,
                                            mlir::Builder &builder,
                                            ErrorFn emitError);

/// The DataType of an MLIR element type; DT_INVALID if it has none.
tensorflow::DataType convertToDataType(mlir::Type type);

/// The dimensions of a shape (ShapedType::kDynamic for -1), or nullopt when
/// the rank is unknown. Sizes below -1 are an error.
mlir::FailureOr<std::optional<llvm::SmallVector<int64_t>>>
convertShape(const tensorflow::TensorShapeProto &shape, ErrorFn emitError);

/// A tensor type of `element` with the given shape (unranked if nullopt).
mlir::TensorType
makeTensorType(mlir::Type element,
               const std::optional<llvm::SmallVector<int64_t>> &shape);

/// The value of a TensorProto as an ElementsAttr: dense for numbers,
/// booleans and strings. Checks that tensor_content and the typed fields
/// hold as many values as the shape needs.
mlir::FailureOr<mlir::ElementsAttr>
convertTensor(const tensorflow::TensorProto &tensor, mlir::Builder &builder,
              ErrorFn emitError);

/// An attribute value as TensorFlow's importer writes it: s → string,
/// i → i64, f → f32, b → bool, type → TypeAttr, shape → #tf_type.shape,
/// tensor → elements, list → array, func → #tf_type.func (or a symbol
/// reference when `funcAsSymbol`), placeholder → #tf_type.placeholder.
mlir::FailureOr<mlir::Attribute>
convertAttrValue(const tensorflow::AttrValue &value, mlir::Builder &builder,
                 ErrorFn emitError);

} // namespace kiln::graphdef

#endif // KILN_TRANSLATE_GRAPHDEF_CONVERTTYPES_H
