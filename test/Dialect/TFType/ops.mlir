// RUN: kiln-opt %s -split-input-file | kiln-opt -split-input-file | FileCheck %s
// RUN: kiln-opt %s -split-input-file --mlir-print-op-generic | kiln-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func private @plain_types
// CHECK-SAME:    tensor<!tf_type.string>, tensor<2x!tf_type.qint8>, tensor<!tf_type.qint16>, tensor<!tf_type.qint32>, tensor<!tf_type.quint8>, tensor<!tf_type.quint16>
func.func private @plain_types(tensor<!tf_type.string>, tensor<2x!tf_type.qint8>, tensor<!tf_type.qint16>, tensor<!tf_type.qint32>, tensor<!tf_type.quint8>, tensor<!tf_type.quint16>)

// -----

// CHECK-LABEL: func.func private @subtypes
// CHECK-SAME:    tensor<!tf_type.resource>, tensor<!tf_type.resource<tensor<2x3xf32>>>, tensor<!tf_type.variant>, tensor<!tf_type.variant<tensor<?xi32>, tensor<*xf32>>>
func.func private @subtypes(tensor<!tf_type.resource>, tensor<!tf_type.resource<tensor<2x3xf32>>>, tensor<!tf_type.variant>, tensor<!tf_type.variant<tensor<?xi32>, tensor<*xf32>>>)

// -----

// CHECK-LABEL: func.func private @refs
// CHECK-SAME:    !tf_type.f16ref, !tf_type.f32ref, !tf_type.f64ref, !tf_type.bf16ref, !tf_type.boolref
// CHECK-SAME:    !tf_type.int8ref, !tf_type.int16ref, !tf_type.int32ref, !tf_type.int64ref
// CHECK-SAME:    !tf_type.uint8ref, !tf_type.uint16ref, !tf_type.uint32ref, !tf_type.uint64ref
// CHECK-SAME:    !tf_type.complex64ref, !tf_type.complex128ref, !tf_type.stringref, !tf_type.resourceref, !tf_type.variantref
// CHECK-SAME:    !tf_type.qint8ref, !tf_type.qint16ref, !tf_type.qint32ref, !tf_type.quint8ref, !tf_type.quint16ref
func.func private @refs(!tf_type.f16ref, !tf_type.f32ref, !tf_type.f64ref, !tf_type.bf16ref, !tf_type.boolref,
  !tf_type.int8ref, !tf_type.int16ref, !tf_type.int32ref, !tf_type.int64ref,
  !tf_type.uint8ref, !tf_type.uint16ref, !tf_type.uint32ref, !tf_type.uint64ref,
  !tf_type.complex64ref, !tf_type.complex128ref, !tf_type.stringref, !tf_type.resourceref, !tf_type.variantref,
  !tf_type.qint8ref, !tf_type.qint16ref, !tf_type.qint32ref, !tf_type.quint8ref, !tf_type.quint16ref)

// -----

// CHECK-LABEL: func.func @shapes
// CHECK-SAME:    kiln.dynamic = #tf_type.shape<?x4x?>
// CHECK-SAME:    kiln.scalar = #tf_type.shape<>
// CHECK-SAME:    kiln.static = #tf_type.shape<2x1x3>
// CHECK-SAME:    kiln.unranked = #tf_type.shape<*>
// CHECK-SAME:    kiln.zero = #tf_type.shape<0>
func.func @shapes() attributes {kiln.unranked = #tf_type.shape<*>, kiln.scalar = #tf_type.shape<>, kiln.static = #tf_type.shape<2x1x3>, kiln.dynamic = #tf_type.shape<?x4x?>, kiln.zero = #tf_type.shape<0>} {
  return
}

// -----

// CHECK-LABEL: func.func @func_attrs
// CHECK-SAME:    kiln.f = #tf_type.func<@body, {}>
// CHECK-SAME:    kiln.g = #tf_type.func<@a, {n = #tf_type.func<@b, {x = 8.000000e+00 : f32}>, t = f32}>
// CHECK-SAME:    kiln.p = #tf_type.placeholder<"T">
func.func @func_attrs() attributes {kiln.f = #tf_type.func<@body, {}>, kiln.g = #tf_type.func<@a, {t = f32, n = #tf_type.func<@b, {x = 8.0 : f32}>}>, kiln.p = #tf_type.placeholder<"T">} {
  return
}

// -----

// A quantized constant keeps its TensorProto (from the GraphDef importer).
// CHECK-LABEL: func.func @tensor_proto
// CHECK:         "tf.Const"() <{value = #tf_type.tensor_proto<"0x080C12003807"> : tensor<!tf_type.quint8>}> : () -> tensor<!tf_type.quint8>
func.func @tensor_proto() -> tensor<!tf_type.quint8> {
  %0 = "tf.Const"() {value = #tf_type.tensor_proto<"0x080C12003807"> : tensor<!tf_type.quint8>} : () -> tensor<!tf_type.quint8>
  return %0 : tensor<!tf_type.quint8>
}
