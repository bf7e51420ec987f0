//===- TFTypeTypes.td - !tf_type.* types -------------------*- tablegen -*-===//
//
// TensorFlow's element types. Names and mnemonics are TensorFlow's.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TFTYPE_IR_TFTYPETYPES_TD
#define KILN_DIALECTS_TFTYPE_IR_TFTYPETYPES_TD

include "dialects/TFType/IR/TFTypeDialect.td" // TFType_Dialect
include "mlir/IR/AttrTypeBase.td"            // TypeDef, ArrayRefParameter
include "mlir/IR/BuiltinTypes.td"            // Builtin_Tensor (subtypes)

class TFType_Type<string name, string typeMnemonic, string doc>
    : TypeDef<TFType_Dialect, name> {
  let mnemonic = typeMnemonic;
  let summary = doc;
}

//===----------------------------------------------------------------------===//
// Plain types
//===----------------------------------------------------------------------===//

def TFType_StringType : TFType_Type<"String", "string", "TensorFlow string"> {
  let description = [{
    A byte string (DT_STRING), e.g. `tensor<!tf_type.string>`.
  }];
}

class TFType_QuantizedType<string name, string mnem, string doc>
    : TFType_Type<name, mnem, doc> {
  let description = [{
    A quantized integer of TensorFlow's legacy quantization (the scale and
    zero point live in separate tensors, not in the type).
  }];
}
def TFType_Qint8Type : TFType_QuantizedType<"Qint8", "qint8", "quantized int8">;
def TFType_Qint16Type : TFType_QuantizedType<"Qint16", "qint16", "quantized int16">;
def TFType_Qint32Type : TFType_QuantizedType<"Qint32", "qint32", "quantized int32">;
def TFType_Quint8Type : TFType_QuantizedType<"Quint8", "quint8", "quantized uint8">;
def TFType_Quint16Type : TFType_QuantizedType<"Quint16", "quint16", "quantized uint16">;

//===----------------------------------------------------------------------===//
// Types with subtypes
//===----------------------------------------------------------------------===//

class TFType_TypeWithSubtypes<string name, string mnem, string doc>
    : TFType_Type<name, mnem, doc> {
  let parameters = (ins
    OptionalArrayRefParameter<"::mlir::TensorType",
                              "tensor types of the value held">:$subtypes);
  let assemblyFormat = "(`<` $subtypes^ `>`)?";
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilder<(ins CArg<"::llvm::ArrayRef<::mlir::TensorType>", "{}">:$subtypes),
                [{ return $_get($_ctxt, subtypes); }]>,
  ];
}

def TFType_ResourceType : TFType_TypeWithSubtypes<"Resource", "resource",
                                                  "TensorFlow resource handle"> {
  let description = [{
    A handle to a resource (a variable, a hash table, ...). The optional
    subtypes give the types of the tensors the resource holds:
    `!tf_type.resource<tensor<2x3xf32>>`.
  }];
}

def TFType_VariantType : TFType_TypeWithSubtypes<"Variant", "variant",
                                                 "TensorFlow variant"> {
  let description = [{
    A value of any C++ type (tensor lists, datasets, ...). The optional
    subtypes give the tensor types it holds when known:
    `!tf_type.variant<tensor<?xf32>>`.
  }];
}

//===----------------------------------------------------------------------===//
// Reference types (TF1 ref-typed variables)
//===----------------------------------------------------------------------===//

class TFType_RefType<string name, string mnem, string of>
    : TFType_Type<name # "Ref", mnem # "ref", "reference to " # of> {
  let description = "A TF1 reference (`DT_*_REF`) to a mutable " # of #
                    " buffer, as produced by `VariableV2`.";
}

foreach ref = [["F16", "f16", "half"], ["F32", "f32", "float"],
               ["F64", "f64", "double"], ["Bf16", "bf16", "bfloat16"],
               ["Bool", "bool", "bool"], ["Int8", "int8", "int8"],
               ["Int16", "int16", "int16"], ["Int32", "int32", "int32"],
               ["Int64", "int64", "int64"], ["Uint8", "uint8", "uint8"],
               ["Uint16", "uint16", "uint16"], ["Uint32", "uint32", "uint32"],
               ["Uint64", "uint64", "uint64"],
               ["Complex64", "complex64", "complex64"],
               ["Complex128", "complex128", "complex128"],
               ["String", "string", "string"],
               ["Resource", "resource", "resource"],
               ["Variant", "variant", "variant"],
               ["Qint8", "qint8", "qint8"], ["Qint16", "qint16", "qint16"],
               ["Qint32", "qint32", "qint32"], ["Quint8", "quint8", "quint8"],
               ["Quint16", "quint16", "quint16"]] in {
  def TFType_ # ref[0] # RefType : TFType_RefType<ref[0], ref[1], ref[2]>;
}

#endif // KILN_DIALECTS_TFTYPE_IR_TFTYPETYPES_TD
