// Malformed tf_type syntax: each chunk is refused with a diagnostic at the
// offending token, and the file as a whole exits with status 1.
// RUN: kiln-opt %s -split-input-file -verify-diagnostics
// RUN: %exit1 kiln-opt %s -split-input-file -o /dev/null 2>/dev/null

// A parameter on a type that takes none was dropped silently.
// expected-error @+1 {{type '!tf_type.string' takes no parameters}}
func.func private @string_params(tensor<!tf_type.string<4>>)

// -----

// expected-error @+1 {{type '!tf_type.f32ref' takes no parameters}}
func.func private @ref_params(!tf_type.f32ref<tensor<f32>>)

// -----

// expected-error @+1 {{type '!tf_type.qint8' takes no parameters}}
func.func private @quantized_params(tensor<2x!tf_type.qint8<i8>>)

// -----

// expected-error @+1 {{unknown type `resourcex` in dialect `tf_type`}}
func.func private @unknown_mnemonic(tensor<!tf_type.resourcex>)

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{failed to parse TFType_ResourceType parameter 'subtypes'}}
func.func private @resource_empty(tensor<!tf_type.resource<>>)

// -----

// expected-error @+2 {{expected non-function type}}
// expected-error @+1 {{failed to parse TFType_VariantType parameter 'subtypes'}}
func.func private @variant_trailing_comma(tensor<!tf_type.variant<tensor<f32>,>>)

// -----

// expected-error @+2 {{invalid kind of type specified}}
// expected-error @+1 {{failed to parse TFType_VariantType parameter 'subtypes'}}
func.func private @variant_not_tensor(tensor<!tf_type.variant<i32>>)

// -----

// A shape whose element count overflows int64 was accepted.
// expected-error @+1 {{shape has more elements than int64 can count}}
func.func @shape_overflow() attributes {s = #tf_type.shape<4294967296x4294967296x4>} {
  return
}

// -----

// expected-error @+1 {{expected '>'}}
func.func @shape_negative() attributes {s = #tf_type.shape<-5>} {
  return
}

// -----

// expected-error @+1 {{invalid dimension}}
func.func @shape_too_big() attributes {s = #tf_type.shape<99999999999999999999>} {
  return
}

// -----

// expected-error @+1 {{expected '>'}}
func.func @shape_star_dims() attributes {s = #tf_type.shape<*x2>} {
  return
}

// -----

// expected-error @+1 {{invalid dimension}}
func.func @shape_trailing_x() attributes {s = #tf_type.shape<2x>} {
  return
}

// -----

// expected-error @+1 {{expects 0x-prefixed hex bytes, got "0x0"}}
func.func @tensor_proto_odd_hex() attributes {v = #tf_type.tensor_proto<"0x0"> : tensor<!tf_type.quint8>} {
  return
}

// -----

// expected-error @+1 {{expected a trailing type}}
func.func @tensor_proto_no_type() attributes {v = #tf_type.tensor_proto<"0x08">} {
  return
}

// -----

// expected-error @+2 {{invalid kind of attribute specified}}
// expected-error @+1 {{failed to parse TFType_FuncAttr parameter 'name'}}
func.func @func_string_name() attributes {f = #tf_type.func<"f", {}>} {
  return
}

// -----

// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse TFType_PlaceholderAttr parameter 'value'}}
func.func @placeholder_not_string() attributes {f = #tf_type.placeholder<3>} {
  return
}
