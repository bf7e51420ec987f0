//===- ExportTypes.h - MLIR types and attrs to TF protos --------*- C++ -*-===//
//
// The inverse of ConvertTypes.h, for the GraphDef exporter: element type →
// DataType, tensor type → TensorShapeProto, ElementsAttr → TensorProto and
// Attribute → AttrValue, each the inverse of what the importer writes so that
// import → export → import is the identity. Failures are reported through the
// `emitError` callback, so the caller can name the operation at fault.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TRANSLATE_GRAPHDEF_EXPORTTYPES_H
#define KILN_TRANSLATE_GRAPHDEF_EXPORTTYPES_H

#include "translate/graphdef/ConvertTypes.h"

namespace kiln::graphdef {

/// The DataType of `type` (the element type of a tensor type); an error
/// naming the type when TensorFlow has none.
mlir::FailureOr<tensorflow::DataType> exportDataType(mlir::Type type,
                                                     ErrorFn emitError);

/// The shape of a tensor type: `unknown_rank` when unranked, -1 for a
/// dynamic dimension; an empty (scalar) shape for a non-shaped type.
void exportShape(mlir::Type type, tensorflow::TensorShapeProto &shape);

/// A constant as TensorFlow's exporter writes it: a splat as one value of
/// the typed field (none when it is zero), anything else as little-endian
/// `tensor_content` (booleans and strings as typed values), and a
/// #tf_type.tensor_proto as the TensorProto it holds.
mlir::LogicalResult exportTensor(mlir::ElementsAttr attr,
                                 tensorflow::TensorProto &tensor,
                                 ErrorFn emitError);

/// An attribute as an AttrValue, the inverse of convertAttrValue: string →
/// s (a legacy `"tfdtype$DT_X"` string → type), integer → i, bool → b,
/// float → f, TypeAttr → type (a tensor type's element type), #tf_type.shape
/// → shape, elements → tensor, #tf_type.func or a symbol reference → func,
/// #tf_type.placeholder → placeholder, unit → no value, array → list.
mlir::LogicalResult exportAttrValue(mlir::Attribute attr,
                                    tensorflow::AttrValue &value,
                                    ErrorFn emitError);

} // namespace kiln::graphdef

#endif // KILN_TRANSLATE_GRAPHDEF_EXPORTTYPES_H
