// RUN: kiln-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{type `nosuchtype` in dialect `tf_type`}}
func.func private @unknown_type(!tf_type.nosuchtype)

// -----

// expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
func.func @shape_unterminated() attributes {s = #tf_type.shape<2x3} {
  return
}

// -----

// expected-error @+1 {{expected '>'}}
func.func @shape_garbage() attributes {s = #tf_type.shape<abc>} {
  return
}

// -----

// expected-error @+2 {{invalid kind of type specified}}
// expected-error @+1 {{failed to parse TFType_ResourceType parameter 'subtypes'}}
func.func private @resource_subtype_not_tensor(tensor<!tf_type.resource<f32>>)

// -----

// expected-error @+1 {{expected ','}}
func.func @func_attr_missing_dict() attributes {f = #tf_type.func<@f>} {
  return
}

// -----

// expected-error @+1 {{expects 0x-prefixed hex bytes, got "12zz"}}
func.func @tensor_proto_not_hex() attributes {v = #tf_type.tensor_proto<"12zz"> : tensor<!tf_type.quint8>} {
  return
}

// -----

// expected-error @+1 {{expects a statically shaped tensor type, got 'tensor<?x!tf_type.qint8>'}}
func.func @tensor_proto_dynamic() attributes {v = #tf_type.tensor_proto<"0x08"> : tensor<?x!tf_type.qint8>} {
  return
}
